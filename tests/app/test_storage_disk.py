"""A disk that cannot take a save, through the screens of the local app: full, read-only,
or the data folder replaced while the app runs.

The app runs over a :class:`FileStore` in the test's data folder.  Each screen action that
writes (the list of tests/app/test_storage_full.py, which runs them over the browser's store) is
done while the disk refuses, and then:

- the screen says why and what to do, in one message;
- the data folder is byte for byte what it was (everything acknowledged before is there,
  nothing of the refused action is) and the screen shows what it showed before;
- once the disk takes writes again, the same tap does it.

The disk refuses in two ways.  Everywhere: through the store's fault hook, called by every
atomic write at its crash points, which raises the error the OS raises (``ENOSPC`` once the
bytes went to the temp file, as a full disk refuses them; ``EROFS`` as the temp file is
created, as a read-only disk refuses it).  Where file systems can be mounted (root on
Linux; skipped with the reason elsewhere): a small tmpfs on the games folder, filled up or
remounted read-only under the running app (root writes to a chmod-ed folder all the same).
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.storage import FileStore, StorageFullError, StoreWriteError
from tests.support.app_driver import run, start_game, throw
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import FakeClock, fake_clock
from tests.app.test_storage_full import (ADVICE, WRITE_PATHS, Scene, WritePath, finished_game, game, keep, messages, roll,
                                     shown)
from tests.app.test_store_folder import mount

__all__ = ["fake_clock"]  # the camera's fixture

FULL = "the storage is full (The disk is full: could not save "


def read_only(data_dir: Path) -> str:
    return f"The data folder {data_dir} cannot be written now (read-only file system): "


AFTER_READ_ONLY = ", and everything saved before is kept. Try again once the folder can be written."


FILLER = "filler.bin"
"""What fills a real disk up: the test's, not the app's."""


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes (the filler aside): what a copy of the folder keeps."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name != FILLER}


class RefusingDisk:
    """The OS under a store's atomic writes (its fault hook): while ``refusing`` holds an
    errno, every write fails with that error, at the moment the OS would raise it."""

    def __init__(self) -> None:
        self.refusing: int | None = None

    def __call__(self, point: str, path: Path) -> None:
        at = "after-temp-file" if self.refusing == errno.ENOSPC else "before-write"
        if self.refusing is not None and point == at:
            raise OSError(self.refusing, os.strerror(self.refusing), str(path))


def the_one_message(ui: FletHarness, first: str, *parts: str) -> str:
    """The one message on the screen that says ``first``; it says each of ``parts`` too."""
    saying = [text for text in messages(ui) if first in text]
    assert len(saying) == 1, messages(ui)
    assert all(part in saying[0] for part in parts), saying[0]
    return saying[0]


def refused_then_done(path: WritePath, store: FileStore, data_dir: Path, refuse: Callable[[], None],
                      give_back: Callable[[], None], *words: str, clock: FakeClock | None = None) -> None:
    """Enter what comes before, ``refuse`` writes, act: the message, nothing written, the screen
    as it was; ``give_back`` the disk, act again: done, and written."""
    scene: Scene = asyncio.run(path.setup(store))

    async def test(ui: FletHarness) -> None:
        await path.before(ui, scene)
        kept, screen = files_in(data_dir), shown(ui)
        refuse()
        await path.act(ui, scene)
        the_one_message(ui, *words)
        assert files_in(data_dir) == kept, "something was written, or lost"
        assert shown(ui) == screen, "the screen changed"
        assert not path.done(ui)
        give_back()
        await path.act(ui, scene)
        assert not any(word in text for text in messages(ui) for word in words), messages(ui)
        assert path.done(ui), (messages(ui), ui.texts())
        assert files_in(data_dir) != kept

    try:
        run(test, scene.route, store=store, services=scene.services, scan_timing=clock and clock.timing)
    finally:
        store.close()


# -- everywhere: the OS's errors through the store's fault hook -----------------------------------


@pytest.mark.parametrize("name", WRITE_PATHS)
def test_each_action_on_a_full_disk_says_so_keeps_everything_and_works_once_there_is_room(
        name: str, data_dir: Path, fake_clock: FakeClock) -> None:
    disk = RefusingDisk()
    refused_then_done(WRITE_PATHS[name], FileStore(data_dir, faults=disk), data_dir,
                      lambda: setattr(disk, "refusing", errno.ENOSPC), lambda: setattr(disk, "refusing", None),
                      FULL, ADVICE, clock=fake_clock)


@pytest.mark.parametrize("name", WRITE_PATHS)
def test_each_action_on_a_read_only_disk_says_so_keeps_everything_and_works_once_it_can_be_written(
        name: str, data_dir: Path, fake_clock: FakeClock) -> None:
    disk = RefusingDisk()
    refused_then_done(WRITE_PATHS[name], FileStore(data_dir, faults=disk), data_dir,
                      lambda: setattr(disk, "refusing", errno.EROFS), lambda: setattr(disk, "refusing", None),
                      read_only(data_dir), AFTER_READ_ONLY, clock=fake_clock)


REFUSALS: dict[str, tuple[int, type[StoreWriteError], str]] = {
    # the OS's error: what the store raises, and its words
    "full": (errno.ENOSPC, StorageFullError, "The disk is full: could not save games/g1"),
    "over quota": (errno.EDQUOT, StorageFullError, "The disk is full: could not save games/g1"),
    "read-only": (errno.EROFS, StoreWriteError, "The data folder {data} cannot be written now (read-only file "
                                                 "system): games/g1 was not saved, and everything saved before "
                                                 "is kept. Try again once the folder can be written."),
    "not ours": (errno.EACCES, StoreWriteError, "The data folder {data} cannot be written now (permission "
                                                "denied): games/g1 was not saved, and everything saved before "
                                                "is kept. Try again once the folder can be written."),
    "failing": (errno.EIO, StoreWriteError, "Could not save games/g1 in the data folder {data}: input/output error."),
}


@pytest.mark.parametrize("refusal", REFUSALS)
def test_a_save_the_disk_refuses_says_why_in_words_and_leaves_the_folder_as_it_was(
        refusal: str, data_dir: Path) -> None:
    error, kind, words = REFUSALS[refusal]
    disk = RefusingDisk()
    store = FileStore(data_dir, faults=disk)
    revision = asyncio.run(store.save("games", "g1", {"n": 1}, expect_revision=0))
    kept = files_in(data_dir)
    disk.refusing = error
    with pytest.raises(kind) as refused:
        asyncio.run(store.save("games", "g1", {"n": 2}, expect_revision=revision))
    assert str(refused.value) == words.format(data=data_dir)
    assert files_in(data_dir) == kept
    disk.refusing = None
    assert asyncio.run(store.save("games", "g1", {"n": 2}, expect_revision=revision)) == revision + 1
    store.close()


# -- where a file system can be mounted: a real full or read-only disk under the games ------------


class SmallDisk:
    """A 256 KB tmpfs mounted on a folder: filled up, or remounted read-only."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def fill_up(self) -> None:
        """Write until the disk refuses: then nothing more fits."""
        with open(self.folder / FILLER, "wb", buffering=0) as filler:  # not a game: the store passes it over
            try:
                while True:
                    filler.write(b"x" * 4096)
            except OSError as full:
                assert full.errno == errno.ENOSPC, full
        assert shutil.disk_usage(self.folder).free == 0

    def make_room(self) -> None:
        (self.folder / FILLER).unlink()

    def read_only(self) -> None:
        assert mount("-o", "remount,ro", str(self.folder)), "could not remount the games' disk read-only"

    def writable(self) -> None:
        assert mount("-o", "remount,rw", str(self.folder))


def small_disk_on(folder: Path) -> Iterator[SmallDisk]:
    folder.mkdir(parents=True, exist_ok=True)
    if os.name != "posix" or not mount("-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)):
        pytest.skip("cannot mount a file system here (needs root on Linux)")
    try:
        yield SmallDisk(folder)
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True, timeout=10)


@pytest.fixture
def games_disk(data_dir: Path, request: pytest.FixtureRequest) -> Iterator[SmallDisk]:
    """The folder the action writes on a disk of its own: the games, or for the advice switch what
    the device keeps beside them (the data folder's lock file, held open for writing, would keep a
    disk under it from being remounted read-only)."""
    params = getattr(request.node, "callspec", None)
    yield from small_disk_on(data_dir / ("beside" if params and params.params.get("name") == "advice on" else "games"))


@pytest.fixture
def data_disk(data_dir: Path) -> Iterator[SmallDisk]:
    """The whole data folder on a small disk."""
    yield from small_disk_on(data_dir)


ON_THE_GAMES_DISK = ("new game", "throw", "set aside and bank", "advice on", "redo")


@pytest.mark.parametrize("name", ON_THE_GAMES_DISK)
def test_a_game_action_on_a_real_full_disk_says_so_keeps_everything_and_works_once_there_is_room(
        name: str, data_dir: Path, games_disk: SmallDisk) -> None:
    store = FileStore(data_dir)
    refused_then_done(WRITE_PATHS[name], store, data_dir, games_disk.fill_up, games_disk.make_room, FULL, ADVICE)


@pytest.mark.parametrize("name", ON_THE_GAMES_DISK)
def test_a_game_action_on_a_disk_turned_read_only_says_so_keeps_everything_and_works_once_writable(
        name: str, data_dir: Path, games_disk: SmallDisk) -> None:
    store = FileStore(data_dir)
    refused_then_done(WRITE_PATHS[name], store, data_dir, games_disk.read_only, games_disk.writable,
                      read_only(data_dir), AFTER_READ_ONLY)


def test_the_app_opens_on_a_full_disk_shows_the_games_and_saves_again_once_there_is_room(
        data_dir: Path, data_disk: SmallDisk) -> None:
    """A full disk refuses every save, not the app: its games can still be seen, exported and deleted."""
    store = FileStore(data_dir)
    asyncio.run(finished_game(store))
    store.close()
    data_disk.fill_up()
    kept = files_in(data_dir)
    store = FileStore(data_dir)

    async def test(ui: FletHarness) -> None:
        texts = ui.texts()
        assert any(text.startswith("Storage is 100% full: export your games, then delete") for text in texts), texts
        assert any(text.startswith("Ann won · ") for text in texts), texts  # the game kept is listed
        await start_game(ui, "Cy", "Di")
        the_one_message(ui, "The game was not started: the storage is full (The disk is full: ", ADVICE)
        assert files_in(data_dir) == kept
        data_disk.make_room()
        await ui.click("start-game")
        assert str(ui.page.route).startswith("/game/"), messages(ui)

    try:
        run(test, "/", store=store)
    finally:
        store.close()


# -- the data folder replaced while the app runs ----------------------------------------------------


def test_a_throw_into_a_folder_restored_under_the_running_app_is_refused_until_the_app_starts_again(
        data_dir: Path, tmp_path: Path) -> None:
    store = FileStore(data_dir)
    scene: Scene = asyncio.run(game(roll("1 1 1 5 2 3"), keep("1 1 1", bank=True))(store))
    acknowledged = files_in(data_dir)
    moved = tmp_path / "moved"

    async def test(ui: FletHarness) -> None:
        for face in "1 2 3 4 6 6".split():
            await ui.click(f"face-{face}")
        screen = shown(ui)
        data_dir.rename(moved)
        shutil.copytree(moved, data_dir)  # a backup restored while the app runs
        restored = files_in(data_dir)
        for _ in range(2):
            await ui.click("enter-throw")
            message = the_one_message(ui, "was moved or replaced")
            assert message.startswith(f"Not saved, so not counted: The data folder {data_dir} was moved or "
                                      "replaced while Farkle Table was running"), message
            assert message.endswith("Close Farkle Table and start it again."), message
            assert files_in(data_dir) == restored, "it wrote in the folder restored"
            assert shown(ui) == screen, "the screen changed"

    run(test, scene.route, store=store)
    store.close()
    games = [name for name in acknowledged if name.startswith("games/")]
    assert {name: files_in(moved)[name] for name in games} == {name: acknowledged[name] for name in games}

    async def started_again(ui: FletHarness) -> None:  # a restart opens what is at the path now
        assert ui.text_of("turn-line").startswith("Bob's turn"), ui.texts()
        await throw(ui, "1 2 3 4 6 6")
        assert not messages(ui), messages(ui)
        assert ui.exists("keep-panel")

    again = FileStore(data_dir)
    try:
        run(started_again, scene.route, store=again)
    finally:
        again.close()


# -- deleting on a disk that cannot be written -----------------------------------------------------


def delete_finished_then_again(store: FileStore, data_dir: Path, refuse: Callable[[], None],
                               give_back: Callable[[], None]) -> None:
    """Home's "Delete finished games" while the disk refuses: nothing deleted, and it says so; then it works."""
    asyncio.run(finished_game(store))

    async def test(ui: FletHarness) -> None:
        kept = files_in(data_dir)
        refuse()
        await ui.click("delete-finished")
        await ui.click("confirm-delete-finished")
        the_one_message(ui, "Nothing was deleted: ", read_only(data_dir), " was not deleted" + AFTER_READ_ONLY)
        assert files_in(data_dir) == kept
        give_back()
        await ui.click("delete-finished")
        await ui.click("confirm-delete-finished")
        assert ui.text_of("home-message") == "Deleted 1 finished game; unfinished games are kept.", messages(ui)
        assert not [name for name in files_in(data_dir) if name.startswith("games/")]

    try:
        run(test, "/", store=store)
    finally:
        store.close()


def test_deleting_games_on_a_disk_turned_read_only_says_nothing_was_deleted_and_works_once_writable(
        data_dir: Path, games_disk: SmallDisk) -> None:
    delete_finished_then_again(FileStore(data_dir), data_dir, games_disk.read_only, games_disk.writable)


def test_deleting_games_the_os_refuses_to_remove_says_nothing_was_deleted_and_works_once_it_can(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_unlink = Path.unlink

    def read_only_games(path: Path, missing_ok: bool = False) -> None:
        if path.parent.name == "games":
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        real_unlink(path, missing_ok=missing_ok)

    delete_finished_then_again(FileStore(data_dir), data_dir, lambda: monkeypatch.setattr(Path, "unlink", read_only_games),
                               monkeypatch.undo)
