"""Home's list of games comes from an index kept with the store (issue 16): with many
games a visit reads the index, not every game, and a listing that must read many
games (no index yet) lets other sessions run meanwhile.  The index is a cache: one that
is missing, damaged, stale or forged is rebuilt from the games, in the data folder and in
the browser's storage alike.

The games are real ones (random but legal play), written into the data folder as files.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.table.scorekeeper import GameSummary, Scorekeeper
from app.storage import FileStore, MemoryPrefs, PrefsStore, Store
from engine import Rules
from tests.support.app_driver import run as run_app
from tests.support.flet_harness import FletHarness
from tests.support.game_play import saved_game_documents, write_saved_games

T = TypeVar("T")
PROC_IO = Path("/proc/self/io")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def titles(summaries: list[GameSummary]) -> set[str]:
    return {str(summary.title) for summary in summaries}


def bytes_read_by_this_process() -> int:
    for line in PROC_IO.read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


@pytest.fixture(scope="module")
def three_hundred_games() -> dict[str, dict[str, Any]]:
    return saved_game_documents(300)


# -- what the index spares -------------------------------------------------------------------


@pytest.mark.skipif(not PROC_IO.exists(), reason="needs Linux's /proc/self/io to count the bytes read")
def test_listing_games_again_reads_the_index_not_every_game(
    tmp_path: Path, three_hundred_games: dict[str, dict[str, Any]]
) -> None:
    games_bytes = write_saved_games(tmp_path, three_hundred_games)
    keeper = Scorekeeper(FileStore(tmp_path))
    assert len(run(keeper.summaries())) == 300
    keeper.store.close()
    restarted = Scorekeeper(FileStore(tmp_path))  # a new process would find the index too

    async def list_and_count() -> tuple[int, int]:
        before = bytes_read_by_this_process()
        listed = await restarted.summaries()
        return len(listed), bytes_read_by_this_process() - before

    listed, read = run(list_and_count())
    assert listed == 300
    assert read < games_bytes / 10, f"the listing read {read:,} bytes of {games_bytes:,} in the games"


def test_a_listing_that_must_read_many_games_lets_other_sessions_run_meanwhile(
    tmp_path: Path, three_hundred_games: dict[str, dict[str, Any]]
) -> None:
    write_saved_games(tmp_path, three_hundred_games)
    keeper = Scorekeeper(FileStore(tmp_path))  # no index yet: every game is read and replayed

    async def list_while_another_session_waits() -> int:
        turns = 0
        listing = asyncio.ensure_future(keeper.summaries())
        while not listing.done():
            turns += 1  # another session's handler getting the event loop
            await asyncio.sleep(0)
        assert len(await listing) == 300
        return turns

    assert run(list_while_another_session_waits()) >= 300


# -- a cache, never the truth ----------------------------------------------------------------


def test_a_game_saved_changed_deleted_or_damaged_since_the_index_was_made_is_listed_as_stored(tmp_path: Path) -> None:
    documents = saved_game_documents(80)
    write_saved_games(tmp_path, documents)
    store = FileStore(tmp_path)
    keeper = Scorekeeper(store)
    run(keeper.summaries())
    first, second, third, *_ = documents
    renamed = {**documents[first], "title": "Renamed by hand"}
    (tmp_path / "games" / f"{first}.json").write_text(json.dumps(renamed))
    (tmp_path / "games" / f"{second}.json").unlink()
    (tmp_path / "games" / f"{third}.json").write_text('{"players": ["Ann"], "events": [{"type": "nonsense"}]}')
    new_id = run(keeper.start_game(["Eve", "Fay"], Rules.preset("house")))

    listed = run(keeper.summaries())
    assert {summary.id for summary in listed} == set(documents) - {second, third} | {new_id}
    assert "Renamed by hand" in titles(listed) and "Game 0" not in titles(listed)
    (problem,) = store.problems
    assert problem.location.endswith(f"{third}.json") and problem.kept_as is not None


@pytest.mark.parametrize("damage", [
    "cut short", "not JSON", "another listing version", "a summary edited by hand", "summaries of another shape",
])
def test_a_damaged_index_is_rebuilt_from_the_games(tmp_path: Path, damage: str) -> None:
    documents = saved_game_documents(12)
    write_saved_games(tmp_path, documents)
    keeper = Scorekeeper(FileStore(tmp_path))
    expected = run(keeper.summaries())
    keeper.store.close()
    (index_file,) = tmp_path.glob(".games-index.json")
    text = index_file.read_text()
    stored = json.loads(text)
    some_id = next(iter(stored["entries"]))
    if damage == "cut short":
        index_file.write_text(text[: len(text) // 2])
    elif damage == "not JSON":
        index_file.write_bytes(b"\x00\xff" * 100)
    elif damage == "another listing version":
        index_file.write_text(json.dumps({**stored, "listing": "game-summary-0"}))
    elif damage == "a summary edited by hand":
        stored["entries"][some_id][1]["title"] = "Forged"
        index_file.write_text(json.dumps(stored))
    else:
        stored["entries"][some_id][1]["scores"] = "many"
        index_file.write_text(json.dumps(stored))

    restarted = Scorekeeper(FileStore(tmp_path))
    assert run(restarted.summaries()) == expected
    assert restarted.store.problems == ()


def test_home_lists_from_the_index_a_game_played_in_another_session_and_names_a_damaged_one(tmp_path: Path) -> None:
    documents = saved_game_documents(60)
    write_saved_games(tmp_path, documents)
    store = FileStore(tmp_path)
    damaged = next(iter(documents))

    async def visits(ui: FletHarness) -> None:
        assert "and 10 older finished games (in the export)." in ui.texts()
        await Scorekeeper(store).start_game(["Eve", "Fay"], Rules.preset("house"))  # another table's session
        (tmp_path / "games" / f"{damaged}.json").write_text("{broken")
        await ui.navigate("/new")
        await ui.navigate("/")
        assert "Eve 0, Fay 0" in ui.texts()
        assert f"{damaged}.json" in ui.text_of("store-problems")
        assert ui.text_of("storage-usage").startswith("60 games kept")

    run_app(visits, store=store)


# -- the browser's storage -------------------------------------------------------------------


def browser_store(prefs: MemoryPrefs) -> Store:
    return run(PrefsStore.open(prefs))


def test_a_browser_tab_lists_from_the_index_another_tab_left_in_local_storage() -> None:
    documents = saved_game_documents(20)
    prefs = MemoryPrefs()
    first_tab = Scorekeeper(browser_store(prefs))
    for game_id, document in documents.items():
        run(first_tab.store.save("games", game_id, document))
    expected = run(first_tab.summaries())
    assert any(key.endswith("/index/games") for key in prefs.values)

    second_tab = Scorekeeper(browser_store(prefs))
    assert run(second_tab.summaries()) == expected
    changed = next(iter(documents))
    run(second_tab.store.save("games", changed, {**documents[changed], "title": "Changed"}))
    assert "Changed" in titles(run(Scorekeeper(browser_store(prefs)).summaries()))


def test_a_damaged_index_in_local_storage_is_rebuilt() -> None:
    documents = saved_game_documents(8)
    prefs = MemoryPrefs()
    keeper = Scorekeeper(browser_store(prefs))
    for game_id, document in documents.items():
        run(keeper.store.save("games", game_id, document))
    expected = run(keeper.summaries())
    (index_key,) = [key for key in prefs.values if key.endswith("/index/games")]
    prefs.values[index_key] = "z:not base64 at all"
    reopened = Scorekeeper(browser_store(prefs))
    assert run(reopened.summaries()) == expected and reopened.store.problems == ()


def test_a_nearly_full_browser_storage_keeps_no_index_so_the_games_keep_their_room() -> None:
    documents = saved_game_documents(6)
    prefs = MemoryPrefs()
    store = run(PrefsStore.open(prefs, quota_bytes=1))  # every byte is past the warning already
    keeper = Scorekeeper(store)
    for game_id, document in documents.items():
        run(store.save("games", game_id, document))
    assert len(run(keeper.summaries())) == 6
    assert not any(key.endswith("/index/games") for key in prefs.values)
