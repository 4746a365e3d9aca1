"""The data folder: one process at a time (an OS file lock), and a folder that cannot
be created or written refused in words that say what to do, by the store and by
``python -m app``.

The lock is tested with two real processes: a child holding a store open on the
folder while this test tries to open it.  A folder moved or replaced under a store that
holds it (a backup restored while the app runs) gets no more writes from that store.  Read-only disks are real read-only tmpfs
mounts where this machine allows mounting (root), and a refused ``mkdir``/``unlink``
otherwise.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.__main__ import EXIT_FOLDER_IN_USE, EXIT_FOLDER_UNUSABLE
from app.storage import (
    DATA_DIR_ENV,
    DataFolderInUse,
    DataFolderReplaced,
    DataFolderUnusable,
    FileStore,
    StorageFullError,
    StoreError,
    StoreWriteError,
    claim_folder,
)
from app.storage.lock import HOLDER_FILE_NAME, LOCK_FILE_NAME, held_folders

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]

HOLDER = textwrap.dedent(
    """
    import sys
    from app.storage import FileStore
    store = FileStore(sys.argv[1])
    print("holding", flush=True)
    sys.stdin.readline()
    store.close()
    print("released", flush=True)
    sys.stdin.readline()
    """
)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


class Holder:
    """Another process holding a :class:`FileStore` open on a folder until told."""

    def __init__(self, folder: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None and self.process.stdout.readline().strip() == "holding"

    def release(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "released"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[Holder]:
    held = Holder(tmp_path / "data")
    yield held
    held.stop()


def app_command(data_dir: Path) -> list[str]:
    """``python -m app`` on a port nobody listens to: it must stop before serving."""
    return [sys.executable, "-m", "app", "--port", "9", "--data-dir", str(data_dir)]


# --- one process per folder -----------------------------------------------------------


def test_a_second_process_is_refused_with_the_holders_pid_and_command(tmp_path: Path, holder: Holder) -> None:
    with pytest.raises(DataFolderInUse) as refused:
        FileStore(tmp_path / "data")
    message = str(refused.value)
    assert f"process {holder.process.pid}" in message
    assert "from app.storage import FileStore" in message  # its command line
    assert str(tmp_path / "data") in message
    assert "--data-dir" in message and DATA_DIR_ENV in message
    assert refused.value.holder["pid"] == holder.process.pid
    assert isinstance(refused.value, StoreError)


def test_a_second_process_is_refused_after_a_cleanup_tool_deleted_the_lock_file(
    tmp_path: Path, holder: Holder
) -> None:
    (tmp_path / "data" / LOCK_FILE_NAME).unlink()
    with pytest.raises(DataFolderInUse) as refused:
        FileStore(tmp_path / "data")
    assert f"process {holder.process.pid}" in str(refused.value)


def test_a_second_process_is_refused_after_both_lock_files_were_deleted(tmp_path: Path, holder: Holder) -> None:
    (tmp_path / "data" / LOCK_FILE_NAME).unlink()
    (tmp_path / "data" / HOLDER_FILE_NAME).unlink()
    with pytest.raises(DataFolderInUse, match="a process that did not say which"):
        FileStore(tmp_path / "data")
    holder.release()
    FileStore(tmp_path / "data").close()  # and it opens once that process lets go


def test_the_folder_opens_once_the_other_process_closes_its_store(tmp_path: Path, holder: Holder) -> None:
    holder.release()
    store = FileStore(tmp_path / "data")
    assert run(store.list_ids("games")) == []
    assert json.loads((tmp_path / "data" / HOLDER_FILE_NAME).read_text())["pid"] == os.getpid()
    store.close()


def test_the_folder_opens_once_the_other_process_dies_holding_it(tmp_path: Path, holder: Holder) -> None:
    holder.process.kill()
    holder.process.wait(timeout=10)
    store = FileStore(tmp_path / "data")  # the OS let its lock go; its info file is stale
    store.close()


def test_stores_of_one_process_share_the_folder_until_the_last_closes(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    app_store = FileStore(folder)
    inspector = FileStore(folder)
    run(app_store.save("games", "g1", {"n": 1}))
    assert run(inspector.load("games", "g1")) == {"n": 1}
    inspector.close()
    inspector.close()  # closing twice gives back one claim only
    assert os.path.realpath(folder) in held_folders()
    app_store.close()
    assert os.path.realpath(folder) not in held_folders()


def test_a_store_dropped_without_close_gives_its_claim_back(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = FileStore(folder)
    run(store.save("games", "g1", {"n": 1}))
    del store
    assert os.path.realpath(folder) not in held_folders()


def test_a_store_collected_while_another_folder_is_being_claimed_gives_its_claim_back(tmp_path: Path) -> None:
    # The collector may free a forgotten store at any allocation, inside claim_folder too:
    # here, as the next folder's OS lock is taken. Once, that hung a CI run for good; a
    # process of its own, so that a hang fails this test only.
    script = textwrap.dedent(
        """
        import os, sys
        import filelock
        from app.storage import FileStore
        from app.storage.lock import held_folders

        forgotten = [FileStore(sys.argv[1])]
        take_lock = filelock.FileLock.acquire

        def acquire_after_the_last_reference_goes(lock, *args, **kwargs):
            forgotten.clear()  # its finalizer runs here, on this thread
            return take_lock(lock, *args, **kwargs)

        filelock.FileLock.acquire = acquire_after_the_last_reference_goes
        store = FileStore(sys.argv[2])
        print(held_folders() == [os.path.realpath(sys.argv[2])], flush=True)
        store.close()
        print(held_folders() == [], flush=True)
        """
    )
    try:
        finished = subprocess.run([sys.executable, "-c", script, str(tmp_path / "forgotten"), str(tmp_path / "next")],
                                  cwd=ROOT, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("claiming a folder waited for ever on a store the collector freed meanwhile")
    assert finished.stdout.split() == ["True", "True"], finished.stderr


def test_python_m_app_exits_with_status_2_naming_the_holder(tmp_path: Path, holder: Holder) -> None:
    result = subprocess.run(app_command(tmp_path / "data"), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == EXIT_FOLDER_IN_USE == 2
    assert result.stderr.startswith("Farkle Table cannot start: The data folder")
    assert f"process {holder.process.pid}" in result.stderr and "--data-dir" in result.stderr
    assert "Traceback" not in result.stderr


# --- a folder moved or replaced under the store that holds it ---------------------------


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def moved_away_and_back(path: Path) -> None:
    folder = path.resolve()
    folder.rename(folder.with_name("moved"))
    folder.with_name("moved").rename(folder)


def moved_away_and_copied_back(path: Path) -> None:
    """A restore from a backup while the app runs: the same files, in a new folder."""
    folder = path.resolve()
    folder.rename(folder.with_name("moved"))
    shutil.copytree(folder.with_name("moved"), folder)


def moved_away(path: Path) -> None:
    folder = path.resolve()
    folder.rename(folder.with_name("moved"))


def deleted_and_made_again(path: Path) -> None:
    folder = path.resolve()
    shutil.rmtree(folder)
    folder.mkdir()


def link_pointed_at_a_copy(link: Path) -> None:
    copy = link.with_name("copy")
    shutil.copytree(link.resolve(), copy)
    link.unlink()
    link.symlink_to(copy)


FOLDER_CHANGES: dict[str, tuple[Callable[[Path], None], bool]] = {
    # what happens to the folder the store opened: (how, whether the store still writes there)
    "moved away and back": (moved_away_and_back, True),
    "moved away and a copy put back": (moved_away_and_copied_back, False),
    "moved away": (moved_away, False),
    "deleted and made again": (deleted_and_made_again, False),
    "the link it was opened by pointed at a copy": (link_pointed_at_a_copy, False),
}


@pytest.mark.parametrize("change", FOLDER_CHANGES)
def test_a_store_writes_only_while_its_path_leads_to_the_folder_it_locked(tmp_path: Path, change: str) -> None:
    how, still_ours = FOLDER_CHANGES[change]
    (tmp_path / "real").mkdir()
    (tmp_path / "data").symlink_to(tmp_path / "real")  # opened by a link, which may be pointed elsewhere
    folder = tmp_path / "data"
    store = FileStore(folder)
    revision = run(store.save("games", "g1", {"n": 1}, expect_revision=0))
    how(folder)
    there = files_in(folder) if folder.exists() else None
    if still_ours:
        assert run(store.save("games", "g1", {"n": 2}, expect_revision=revision)) == revision + 1
        assert run(store.load("games", "g1")) == {"n": 2, "revision": 2}
    else:
        writes: list[Callable[[], Coroutine[Any, Any, object]]] = [
            lambda: store.save("games", "g1", {"n": 2}, expect_revision=revision),
            lambda: store.save("games", "g2", {"n": 1}, expect_revision=0),
            lambda: store.save("settings", "app", {"theme": "dark"}),
            lambda: store.delete("games", "g1"),
        ]
        for write in writes:
            with pytest.raises(DataFolderReplaced, match=f"^The data folder {folder} was moved or replaced while "
                                                         "Farkle Table was running"):
                run(write())
        assert (files_in(folder) if folder.exists() else None) == there, "it wrote in the folder now there"
    store.close()


def test_the_refusal_says_where_the_folder_went_and_to_restart(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = FileStore(folder)
    run(store.save("games", "g1", {"n": 1}, expect_revision=0))
    moved_away_and_copied_back(folder)
    with pytest.raises(DataFolderReplaced) as refused:
        run(store.save("games", "g1", {"n": 2}, expect_revision=1))
    where = "" if sys.platform != "linux" else f" (the folder it was using is now {os.path.realpath(tmp_path / 'moved')})"
    assert str(refused.value) == (
        f"The data folder {folder} was moved or replaced while Farkle Table was running{where}, so nothing more "
        "is written there: another copy of the app may be using what is there now. Everything saved before is "
        "kept in the folder it was using. Close Farkle Table and start it again."
    )
    assert refused.value.folder == str(folder)
    assert isinstance(refused.value, StoreWriteError)  # a save the screens must not show as done
    assert json.loads((tmp_path / "moved" / "games" / "g1.json").read_text())["n"] == 1
    store.close()


@pytest.mark.skipif(sys.platform != "linux", reason="where a folder went is read from /proc/self/fd (Linux)")
def test_the_refusal_says_when_the_folder_it_was_using_was_deleted(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = FileStore(folder)
    deleted_and_made_again(folder)
    with pytest.raises(DataFolderReplaced, match=r"was running \(the folder it was using was deleted\), so nothing"):
        run(store.save("games", "g1", {"n": 1}, expect_revision=0))
    store.close()


def test_a_folder_copied_back_under_a_running_store_has_one_writer_the_process_that_opened_the_copy(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    store = FileStore(folder)
    revision = run(store.save("games", "g1", {"n": 1}, expect_revision=0))
    moved_away_and_copied_back(folder)
    second = Holder(folder)  # another copy of the app opens the folder restored: its lock is free
    try:
        copy = files_in(folder)
        assert json.loads(copy[HOLDER_FILE_NAME])["pid"] == second.process.pid
        with pytest.raises(DataFolderReplaced):
            run(store.save("games", "g1", {"n": 2}, expect_revision=revision))
        with pytest.raises(DataFolderReplaced):
            run(store.delete("games", "g1"))
        assert files_in(folder) == copy, "two processes wrote in one folder"
        store.close()
        assert files_in(folder) == copy, "closing took the other process's note of who holds the folder"
        assert json.loads((tmp_path / "moved" / "games" / "g1.json").read_text())["n"] == 1  # what was saved
        second.release()
    finally:
        second.stop()


def test_a_damaged_file_read_from_a_folder_put_in_place_of_the_one_held_is_left_where_it_is(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = FileStore(folder)
    run(store.save("games", "g1", {"n": 1}))
    run(store.save("settings", "app", {"theme": "dark"}))
    moved_away_and_copied_back(folder)
    (folder / "games" / "g1.json").write_text("{cut short")
    (folder / FileStore.DATABASE_FILE_NAME).write_text("{cut short")
    there = files_in(folder)
    assert run(store.load("games", "g1")) is None
    assert run(store.load("settings", "app")) is None
    assert files_in(folder) == there, "it renamed a file in the folder now there"
    assert [problem.kept_as for problem in store.problems] == [None, None]
    store.close()


def test_closing_a_store_whose_folder_was_replaced_leaves_the_new_holders_note_there(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = FileStore(folder)
    moved_away_and_copied_back(folder)
    second = Holder(folder)
    try:
        store.close()
        assert json.loads((folder / HOLDER_FILE_NAME).read_text())["pid"] == second.process.pid
    finally:
        second.stop()


# --- a full disk ----------------------------------------------------------------------------


def test_a_full_disk_does_not_keep_the_app_from_opening_its_folder_and_leaves_no_note_naming_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data"
    store = FileStore(folder)
    run(store.save("games", "g1", {"n": 1}, expect_revision=0))
    store.close()
    (folder / HOLDER_FILE_NAME).write_text('{"pid": 1, "command": "a copy that crashed"}')

    def disk_full(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    store = FileStore(folder)  # its games can be seen, exported and deleted to make room
    assert run(store.load("games", "g1")) == {"n": 1, "revision": 1}
    assert not (folder / HOLDER_FILE_NAME).exists()
    with pytest.raises(StorageFullError, match="The disk is full: could not save games/g2"):
        run(store.save("games", "g2", {"n": 2}, expect_revision=0))
    monkeypatch.undo()
    assert run(store.save("games", "g2", {"n": 2}, expect_revision=0)) == 1
    store.close()


# --- read-only and missing folders ------------------------------------------------------


def mount(*args: str) -> bool:
    """Run ``mount`` with these arguments: whether it worked (not without the right to mount)."""
    try:
        return subprocess.run(["mount", *args], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture
def read_only_disk(tmp_path: Path) -> Iterator[Path]:
    """A real read-only file system (tmpfs) with a leftover temp file and a game, or a skip."""
    mount_point = tmp_path / "ro"
    mount_point.mkdir()
    if os.name != "posix" or not mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount_point)):
        pytest.skip("cannot mount a file system here (needs root)")
    try:
        (mount_point / "games").mkdir()
        (mount_point / "games" / "g1.json").write_text('{"n": 1}')
        (mount_point / "games" / ".g1.json.0a1b2c3d.tmp").write_text('{"n": 2, "ev')
        assert mount("-o", "remount,ro", str(mount_point))
        yield mount_point
    finally:
        subprocess.run(["umount", str(mount_point)], capture_output=True, timeout=10)


def test_a_data_folder_on_a_read_only_disk_is_refused_in_words(read_only_disk: Path) -> None:
    with pytest.raises(DataFolderUnusable, match="Cannot write in the data folder .*: read-only file system. "
                                                 "Choose another data folder with --data-dir FOLDER or the "
                                                 f"{DATA_DIR_ENV} environment variable."):
        FileStore(read_only_disk)


def test_a_data_folder_to_create_on_a_read_only_disk_is_refused_in_words(read_only_disk: Path) -> None:
    with pytest.raises(DataFolderUnusable, match=f"Cannot create the data folder {read_only_disk / 'new'}: "
                                                 "read-only file system"):
        FileStore(read_only_disk / "new")


def test_a_leftover_temp_file_on_a_read_only_games_folder_is_left_and_the_store_opens(
    tmp_path: Path, read_only_disk: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "games").symlink_to(read_only_disk / "games")
    store = FileStore(data)
    assert run(store.load("games", "g1")) == {"n": 1}
    assert (read_only_disk / "games" / ".g1.json.0a1b2c3d.tmp").exists()
    assert store.problems == ()
    store.close()


def test_a_leftover_temp_file_that_cannot_be_removed_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = FileStore(tmp_path / "data")
    run(store.save("games", "g1", {"n": 1}))
    store.close()
    leftover = tmp_path / "data" / "games" / ".g1.json.0a1b2c3d.tmp"
    leftover.write_text('{"n": 2, "ev')
    real_unlink = Path.unlink

    def refuse_temp_files(path: Path, missing_ok: bool = False) -> None:
        if path.name.endswith(".tmp"):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refuse_temp_files)
    reopened = FileStore(tmp_path / "data")
    assert leftover.exists() and run(reopened.load("games", "g1")) == {"n": 1}
    reopened.close()


def test_a_folder_whose_parent_refuses_it_is_refused_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: Path, *args: Any, **kwargs: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(Path, "mkdir", refuse)
    with pytest.raises(DataFolderUnusable, match=f"Cannot create the data folder {tmp_path / 'data'}: "
                                                 "permission denied. Choose another data folder with --data-dir"):
        FileStore(tmp_path / "data")


def test_a_file_where_the_data_folder_should_be_is_refused_in_words(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("mine")
    with pytest.raises(DataFolderUnusable, match="Cannot create the data folder"):
        claim_folder(tmp_path / "data")
    assert (tmp_path / "data").read_text() == "mine"


def test_python_m_app_says_why_the_folder_cannot_be_used_and_exits_non_zero(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("in the way")
    result = subprocess.run(app_command(tmp_path / "file" / "data"), cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == EXIT_FOLDER_UNUSABLE != 0
    assert result.stderr.startswith(f"Farkle Table cannot start: Cannot create the data folder {tmp_path}")
    assert "--data-dir" in result.stderr and "Traceback" not in result.stderr
