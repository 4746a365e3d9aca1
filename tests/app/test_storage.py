"""Storage: every backend keeps what it was given, survives crashes, and
carries on past a damaged file."""

from __future__ import annotations

import asyncio
import errno
import json
import math
import os
import random
import tempfile
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tinydb import TinyDB

from app.views.widgets import problem_line
from app.storage import (
    COLLECTIONS,
    PREFS_QUOTA_ESTIMATE_BYTES,
    AtomicJSONStorage,
    FileStore,
    MemoryPrefs,
    MemoryStore,
    PrefsStore,
    StorageFullError,
    StorageUsage,
    Store,
    StoreWriteError,
    default_data_dir,
    new_id,
)
from engine import Rules

T = TypeVar("T")
BACKENDS = ["memory", "file", "prefs"]


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def make_store(backend: str, data_dir: Path) -> Store:
    if backend == "memory":
        return MemoryStore()
    if backend == "file":
        return FileStore(data_dir)
    if backend == "prefs":
        return run(PrefsStore.open(MemoryPrefs()))
    raise ValueError(backend)


@pytest.fixture
def store(open_store: Callable[[], Store]) -> Store:
    """One store per backend (see ``open_store`` in conftest), like TinyDB's conftest."""
    return open_store()


def synthetic_events(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Event dicts shaped like a real game's log: throws, keeps, banks."""
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    dice_in_hand = 6
    while len(events) < count:
        dice = sorted(rng.randint(1, 6) for _ in range(dice_in_hand))
        events.append({"type": "rolled", "dice": dice})
        kept = [d for d in dice if d in (1, 5)][:2] or dice[:1]
        events.append({"type": "kept", "dice": kept})
        dice_in_hand -= len(kept)
        if dice_in_hand <= 2 or rng.random() < 0.35:
            events.append({"type": "banked"})
            dice_in_hand = 6
    return events[:count]


def synthetic_game(event_count: int = 600, players: int = 4, seed: int = 1) -> dict[str, Any]:
    """A game document shaped like the ones the app saves."""
    return {
        "id": "20261129-160700-a1b2c3",
        "players": [f"Player {n}" for n in range(1, players + 1)],
        "rules": {"preset": "house", "target": 10000, "entry": 500, "three_farkles": -500},
        "events": synthetic_events(event_count, seed),
        "created": "2026-11-29T16:07:00+00:00",
        "updated": "2026-11-29T18:07:00+00:00",
        "finished": True,
    }


# --- The interface, on every backend ---------------------------------------


@pytest.mark.parametrize("collection", COLLECTIONS)
def test_a_saved_document_loads_back_equal(store: Store, collection: str) -> None:
    document = {"name": "Ann", "scores": [100, 250], "nested": {"ok": True, "none": None}}
    run(store.save(collection, "doc-1", document))
    assert run(store.load(collection, "doc-1")) == document


def test_saving_again_replaces_the_whole_document(store: Store) -> None:
    for collection in COLLECTIONS:
        run(store.save(collection, "doc", {"old": 1, "kept": 2}))
        run(store.save(collection, "doc", {"kept": 3}))
        assert run(store.load(collection, "doc")) == {"kept": 3}


def test_loading_a_missing_document_gives_none(store: Store) -> None:
    assert run(store.load("games", "nope")) is None


def test_ids_are_listed_sorted_and_per_collection(store: Store) -> None:
    for doc_id in ["b", "a", "c"]:
        run(store.save("games", doc_id, {"id": doc_id}))
    run(store.save("settings", "recent-players", {"names": ["Ann"]}))
    assert run(store.list_ids("games")) == ["a", "b", "c"]
    assert run(store.list_ids("settings")) == ["recent-players"]
    assert run(store.list_ids("tournaments")) == []


def test_delete_removes_the_document_and_says_whether_it_existed(store: Store) -> None:
    for collection in COLLECTIONS:
        run(store.save(collection, "gone", {"x": 1}))
        assert run(store.delete(collection, "gone")) is True
        assert run(store.delete(collection, "gone")) is False
        assert run(store.load(collection, "gone")) is None
        assert run(store.list_ids(collection)) == []


def test_load_all_returns_every_document_by_id(store: Store) -> None:
    run(store.save("games", "g1", {"n": 1}))
    run(store.save("games", "g2", {"n": 2}))
    assert run(store.load_all("games")) == {"g1": {"n": 1}, "g2": {"n": 2}}


def test_an_unknown_collection_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match=r"Unknown collection 'game'"):
        run(store.save("game", "g1", {}))
    with pytest.raises(ValueError, match=r"Unknown collection 'players'"):
        run(store.list_ids("players"))


@pytest.mark.parametrize("bad_id", ["", "../escape", "a/b", "a.json", "-lead", "x" * 81, "sp ace"])
def test_an_id_that_is_unsafe_as_a_file_name_or_key_is_refused(store: Store, bad_id: str) -> None:
    with pytest.raises(ValueError, match=r"Document id .* is not usable"):
        run(store.save("games", bad_id, {}))


@pytest.mark.parametrize("bad_value", [math.nan, math.inf, {1, 2}, object()])
def test_a_value_json_cannot_carry_is_refused_and_nothing_is_stored(store: Store, bad_value: Any) -> None:
    run(store.save("games", "g1", {"ok": 1}))
    with pytest.raises(StoreWriteError, match="cannot be stored as JSON"):
        run(store.save("games", "g1", {"bad": bad_value}))
    assert run(store.load("games", "g1")) == {"ok": 1}


def test_a_document_must_be_a_dict(store: Store) -> None:
    with pytest.raises(TypeError, match="must be a JSON object"):
        run(store.save("games", "g1", [1, 2]))  # type: ignore[arg-type]


def test_changing_a_dict_after_saving_it_does_not_change_the_store(store: Store) -> None:
    document: dict[str, Any] = {"events": [{"type": "banked"}]}
    run(store.save("games", "g1", document))
    document["events"].append({"type": "rolled"})
    loaded = run(store.load("games", "g1"))
    assert loaded == {"events": [{"type": "banked"}]}
    assert loaded is not None
    loaded["events"].clear()
    assert run(store.load("games", "g1")) == {"events": [{"type": "banked"}]}


def test_usage_grows_with_what_is_stored(store: Store) -> None:
    empty = run(store.usage()).bytes_used
    run(store.save("games", "g1", synthetic_game(100)))
    assert run(store.usage()).bytes_used > empty


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5),
    max_leaves=25,
)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    collection=st.sampled_from(COLLECTIONS),
    document=st.dictionaries(st.text(), json_values, max_size=6),
)
def test_any_json_object_round_trips_through_save_and_a_fresh_open(
    backend: str, collection: str, document: dict[str, Any]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        prefs = MemoryPrefs()
        first: Store = run(PrefsStore.open(prefs)) if backend == "prefs" else make_store(backend, data_dir)
        run(first.save(collection, "doc", document))
        assert run(first.load(collection, "doc")) == document
        if backend == "memory":
            return
        first.close()
        reopened: Store = run(PrefsStore.open(prefs)) if backend == "prefs" else FileStore(data_dir)
        assert run(reopened.load(collection, "doc")) == document
        assert reopened.problems == ()
        reopened.close()


# --- FileStore: layout, atomic writes, damaged files ------------------------


def test_each_game_is_its_own_small_json_file(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    run(store.save("games", "g1", {"n": 1}))
    run(store.save("games", "g2", {"n": 2}))
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["g1.json", "g2.json"]
    assert json.loads((tmp_path / "games" / "g1.json").read_text()) == {"n": 1}


def test_each_tournament_is_its_own_small_json_file(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    run(store.save("tournaments", "t1", {"name": "Friday"}))
    assert [p.name for p in (tmp_path / "tournaments").iterdir()] == ["t1.json"]
    assert json.loads((tmp_path / "tournaments" / "t1.json").read_text()) == {"name": "Friday"}


def test_settings_live_in_a_tinydb_database(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    run(store.save("settings", "recent-players", {"names": ["Ann", "Bob"]}))
    store.close()
    database = TinyDB(tmp_path / FileStore.DATABASE_FILE_NAME, storage=AtomicJSONStorage)
    assert database.tables() == {"settings"}
    assert database.storage.read() == {"settings": {"recent-players": {"names": ["Ann", "Bob"]}}}


def test_every_write_replaces_the_file_instead_of_rewriting_it_in_place(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    game = tmp_path / "games" / "g1.json"
    run(store.save("games", "g1", {"n": 1}))
    first_inode = game.stat().st_ino
    run(store.save("games", "g1", {"n": 2}))
    assert game.stat().st_ino != first_inode
    database = tmp_path / FileStore.DATABASE_FILE_NAME
    run(store.save("settings", "s", {"n": 1}))
    first_inode = database.stat().st_ino
    run(store.save("settings", "s", {"n": 2}))
    assert database.stat().st_ino != first_inode


def test_a_half_written_temp_file_from_a_crash_is_dropped_on_open(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    run(store.save("games", "g1", {"version": 1}))
    leftover = tmp_path / "games" / ".g1.json.0a1b2c3d.tmp"
    leftover.write_text('{"version": 2, "eve')
    reopened = FileStore(tmp_path)
    assert not leftover.exists()
    assert run(reopened.load("games", "g1")) == {"version": 1}
    assert run(reopened.list_ids("games")) == ["g1"]


@pytest.mark.parametrize("damage", [b'{"events": [{"type": "rol', b"\x00\xff\xfe garbage", b"[1, 2, 3]", b""])
def test_an_unreadable_game_file_is_kept_aside_untouched_and_reported(tmp_path: Path, damage: bytes) -> None:
    store = FileStore(tmp_path)
    run(store.save("games", "good", {"n": 1}))
    store.close()
    bad = tmp_path / "games" / "bad.json"
    bad.write_bytes(damage)

    reopened = FileStore(tmp_path)

    assert len(reopened.problems) == 1
    problem = reopened.problems[0]
    assert problem.location == str(bad)
    assert problem.kept_as is not None and ".unreadable-" in problem.kept_as
    assert Path(problem.kept_as).read_bytes() == damage
    assert not bad.exists()
    assert str(bad) in problem_line(problem) and problem.kept_as in problem_line(problem)
    assert run(reopened.list_ids("games")) == ["good"]
    assert run(reopened.load("games", "good")) == {"n": 1}
    run(reopened.save("games", "bad", {"fresh": True}))
    assert run(reopened.load("games", "bad")) == {"fresh": True}


def test_a_damaged_settings_database_is_kept_aside_and_the_rest_carries_on(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    run(store.save("games", "g1", {"n": 1}))
    run(store.save("settings", "recent-players", {"names": ["Ann"]}))
    store.close()
    database = tmp_path / FileStore.DATABASE_FILE_NAME
    database.write_text('{"settings": {"recent-players": {"names": ["An')

    reopened = FileStore(tmp_path)

    assert [p.location for p in reopened.problems] == [str(database)]
    kept_as = reopened.problems[0].kept_as
    assert kept_as is not None and Path(kept_as).read_text().startswith('{"settings"')
    assert run(reopened.list_ids("settings")) == []
    assert run(reopened.load("games", "g1")) == {"n": 1}
    run(reopened.save("settings", "recent-players", {"names": ["Bob"]}))
    assert run(reopened.load("settings", "recent-players")) == {"names": ["Bob"]}


def test_a_game_file_damaged_while_running_is_kept_aside_when_loaded(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    run(store.save("games", "g1", {"n": 1}))
    (tmp_path / "games" / "g1.json").write_text("{not json")
    assert run(store.load("games", "g1")) is None
    assert [p.location for p in store.problems] == [str(tmp_path / "games" / "g1.json")]
    assert run(store.list_ids("games")) == []


def test_a_full_disk_raises_storage_full_and_keeps_the_old_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileStore(tmp_path)
    run(store.save("games", "g1", {"n": 1}))

    def disk_full(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(StorageFullError, match=r"The disk is full: could not save games/g1"):
        run(store.save("games", "g1", {"n": 2}))
    monkeypatch.undo()
    assert run(store.load("games", "g1")) == {"n": 1}
    assert not list(tmp_path.rglob("*.tmp"))


def test_saves_from_several_threads_lose_no_settings(tmp_path: Path) -> None:
    store = FileStore(tmp_path)

    def save_many(worker: int) -> None:
        for n in range(15):
            run(store.save("settings", f"w{worker}-{n}", {"n": n}))

    threads = [threading.Thread(target=save_many, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(run(store.list_ids("settings"))) == 60


def test_file_usage_counts_the_files_and_the_free_disk(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    run(store.save("games", "g1", {"n": 1}))
    usage = run(store.usage())
    assert usage.bytes_used == (tmp_path / "games" / "g1.json").stat().st_size
    assert usage.quota_bytes is not None and usage.quota_bytes > usage.bytes_used


def test_tinydb_can_use_the_atomic_storage_directly(tmp_path: Path) -> None:
    database = TinyDB(tmp_path / "db.json", storage=AtomicJSONStorage)
    database.insert({"name": "Ann"})
    assert json.loads((tmp_path / "db.json").read_text()) == {"_default": {"1": {"name": "Ann"}}}


# --- PrefsStore: compact, counted, honest when full -------------------------


def test_prefs_store_keeps_each_document_under_a_namespaced_key() -> None:
    prefs = MemoryPrefs()
    store = run(PrefsStore.open(prefs))
    run(store.save("games", "g1", {"n": 1}))
    run(store.save("settings", "recent-players", {"names": []}))
    assert sorted(prefs.values) == ["farkle-table/games/g1", "farkle-table/settings/recent-players"]


def test_a_finished_game_is_stored_compressed_and_ascii_only() -> None:
    prefs = MemoryPrefs()
    store = run(PrefsStore.open(prefs))
    game = synthetic_game(600)
    run(store.save("games", "g1", game))
    stored = prefs.values["farkle-table/games/g1"]
    assert stored.startswith("z:") and stored.isascii()
    assert len(stored) * 4 < len(json.dumps(game, separators=(",", ":")))


def test_a_small_document_stays_readable_json() -> None:
    prefs = MemoryPrefs()
    store = run(PrefsStore.open(prefs))
    run(store.save("settings", "theme", {"mode": "dark"}))
    assert prefs.values["farkle-table/settings/theme"] == 'j:{"mode":"dark"}'


def test_prefs_usage_counts_what_localstorage_holds_and_follows_saves_and_deletes() -> None:
    prefs = MemoryPrefs()
    store = run(PrefsStore.open(prefs))
    run(store.save("games", "g1", synthetic_game(600)))
    run(store.save("games", "g2", synthetic_game(400, seed=2)))
    assert run(store.usage()).bytes_used == prefs.stored_chars()
    run(store.delete("games", "g1"))
    assert run(store.usage()).bytes_used == prefs.stored_chars()
    assert run(run(PrefsStore.open(prefs)).usage()).bytes_used == prefs.stored_chars()
    usage = run(store.usage())
    assert usage.quota_bytes == PREFS_QUOTA_ESTIMATE_BYTES and not usage.nearly_full


def test_usage_says_nearly_full_from_eighty_percent() -> None:
    assert not StorageUsage(799, 1000).nearly_full
    assert StorageUsage(800, 1000).nearly_full
    assert StorageUsage(10**9, None).fraction_used == 0.0


def test_two_hundred_finished_games_leave_room_for_the_next_throw() -> None:
    prefs = MemoryPrefs(quota_bytes=PREFS_QUOTA_ESTIMATE_BYTES)
    store = run(PrefsStore.open(prefs))
    for number in range(200):
        run(store.save("games", f"g{number}", synthetic_game(800, seed=number)))
    usage = run(store.usage())
    assert not usage.nearly_full, usage
    run(store.save("games", "current", synthetic_game(50)))


def test_a_full_browser_storage_raises_storage_full_and_keeps_the_old_version() -> None:
    prefs = MemoryPrefs(quota_bytes=3000)
    store = run(PrefsStore.open(prefs))
    run(store.save("games", "g1", {"n": 1}))
    used = run(store.usage()).bytes_used
    with pytest.raises(StorageFullError, match=r"Browser storage is full: could not save games/g1"):
        run(store.save("games", "g1", {"n": 2, "blob": os.urandom(3000).hex()}))
    assert run(store.load("games", "g1")) == {"n": 1}
    assert run(store.usage()).bytes_used == used


def test_a_write_the_browser_refuses_raises_instead_of_passing_silently() -> None:
    class RefusingPrefs(MemoryPrefs):
        async def set(self, key: str, value: Any) -> bool:
            return False

    store = run(PrefsStore.open(RefusingPrefs()))
    with pytest.raises(StoreWriteError, match="refused to save games/g1"):
        run(store.save("games", "g1", {"n": 1}))


def test_an_unreadable_prefs_entry_is_reported_moved_aside_untouched_and_skipped() -> None:
    prefs = MemoryPrefs()
    store = run(PrefsStore.open(prefs))
    run(store.save("games", "good", synthetic_game(100)))
    prefs.values["farkle-table/games/bad"] = "z:not base64!"
    prefs.values["farkle-table/games/odd"] = 42

    reopened = run(PrefsStore.open(prefs))

    assert sorted(p.location for p in reopened.problems) == ["farkle-table/games/bad", "farkle-table/games/odd"]
    kept = {p.location: p.kept_as for p in reopened.problems}
    assert all(kept_as is not None and kept_as.startswith("farkle-table/kept-aside/games/") for kept_as in kept.values())
    assert prefs.values[str(kept["farkle-table/games/bad"])] == "z:not base64!"
    assert prefs.values[str(kept["farkle-table/games/odd"])] == 42
    assert run(reopened.list_ids("games")) == ["good"]
    assert run(reopened.load("games", "bad")) is None
    assert "farkle-table/games/bad" not in prefs.values
    assert run(reopened.load("games", "good")) == synthetic_game(100)
    assert run(PrefsStore.open(prefs)).problems == ()


def test_a_store_made_without_open_fetches_entries_on_first_use() -> None:
    prefs = MemoryPrefs()
    run(run(PrefsStore.open(prefs)).save("games", "g1", {"n": 1}))
    prefs.values["farkle-table/games/bad"] = "j:{broken"
    lazy = PrefsStore(prefs)
    assert run(lazy.load("games", "g1")) == {"n": 1}
    assert run(lazy.load("games", "bad")) is None
    assert [p.location for p in lazy.problems] == ["farkle-table/games/bad"]


def test_deleting_an_unreadable_entry_the_browser_could_not_move_frees_its_space() -> None:
    prefs = MemoryPrefs(quota_bytes=800)  # too full to hold a second copy while it is moved aside
    prefs.values["farkle-table/games/bad"] = "z:" + "A" * 500
    store = run(PrefsStore.open(prefs))
    assert [problem.kept_as for problem in store.problems] == [None]
    assert run(store.usage()).bytes_used > 500
    assert run(store.delete("games", "bad")) is True
    assert prefs.values == {} and run(store.usage()).bytes_used == 0


def test_two_namespaces_in_one_origin_do_not_see_each_other() -> None:
    prefs = MemoryPrefs()
    app_store = run(PrefsStore.open(prefs))
    test_store = run(PrefsStore.open(prefs, namespace="farkle-table-test/"))
    run(app_store.save("games", "g1", {"n": 1}))
    assert run(test_store.list_ids("games")) == []


# --- Data folder and ids -----------------------------------------------------


def test_the_data_folder_env_variable_wins() -> None:
    env = {"FARKLE_TABLE_DATA": "/srv/farkle", "XDG_DATA_HOME": "/x", "FLET_APP_STORAGE_DATA": "/app/data"}
    assert default_data_dir(env, "linux", Path("/home/ann")) == Path("/srv/farkle")


def test_a_packaged_flet_app_keeps_its_data_in_flets_storage_folder() -> None:
    env = {"FLET_APP_STORAGE_DATA": "/data/user/0/org.farkletable/files/data", "XDG_DATA_HOME": "/x"}
    expected = Path("/data/user/0/org.farkletable/files/data/farkle-table")
    assert default_data_dir(env, "android", Path("/")) == expected


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({"XDG_DATA_HOME": "/data/ann"}, "linux", "/data/ann/farkle-table"),
        ({"XDG_DATA_HOME": "relative/ignored"}, "linux", "/home/ann/.local/share/farkle-table"),
        ({}, "linux", "/home/ann/.local/share/farkle-table"),
        ({}, "darwin", "/home/ann/Library/Application Support/farkle-table"),
        ({"LOCALAPPDATA": "/c/Users/ann/AppData/Local"}, "win32", "/c/Users/ann/AppData/Local/farkle-table"),
        ({}, "win32", "/home/ann/AppData/Local/farkle-table"),
    ],
)
def test_the_default_data_folder_follows_each_platforms_convention(
    env: dict[str, str], platform: str, expected: str
) -> None:
    assert default_data_dir(env, platform, Path("/home/ann")) == Path(expected)


def test_new_ids_are_usable_unique_and_sort_by_time() -> None:
    ids = [new_id() for _ in range(50)]
    assert len(set(ids)) == 50
    store = MemoryStore()
    for doc_id in ids:
        run(store.save("games", doc_id, {}))
    assert ids[0][:15] <= ids[-1][:15]


class FourMethodStore(Store):
    """The least a backend writes: read, write and remove one document, and list them."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: dict[tuple[str, str], str] = {}

    async def _read(self, collection: str, doc_id: str) -> dict[str, Any] | None:
        text = self.texts.get((collection, doc_id))
        return None if text is None else json.loads(text)

    async def _write(self, collection: str, doc_id: str, text: str, document: dict[str, Any]) -> None:
        self.texts[(collection, doc_id)] = text

    async def _remove(self, collection: str, doc_id: str) -> bool:
        return self.texts.pop((collection, doc_id), None) is not None

    async def _stamps(self, collection: str) -> dict[str, str | None]:
        return {doc_id: text for (kept_in, doc_id), text in self.texts.items() if kept_in == collection}


def test_a_backend_of_four_methods_gets_revisions_listings_and_problems_from_the_store() -> None:
    from app.documents import CHECKS
    from app.table.scorekeeper import Scorekeeper
    from app.storage import DocumentChanged

    store = FourMethodStore()
    store.check_with(CHECKS)
    keeper = Scorekeeper(store)
    game_id = run(keeper.start_game(["Ann", "Bob"], Rules.preset("house")))
    run(keeper.act(lambda game: game.roll("1 5 2 3 4 6")))
    with pytest.raises(DocumentChanged):
        run(store.save("games", game_id, {"players": [], "events": []}, expect_revision=1))
    store.texts[("games", "broken")] = json.dumps({"players": ["Cy"], "events": [{"type": "nonsense"}]})  # by hand
    assert [summary.id for summary in run(keeper.summaries())] == [game_id]
    assert run(store.load("games", "broken")) is None and run(store.list_ids("games")) == sorted([game_id, "broken"])
    assert [problem.location for problem in store.problems] == ["games/broken"]  # left where it was, named once
    run(keeper.summaries())
    assert len(store.problems) == 1 and run(store.usage()) == StorageUsage(0, None)
