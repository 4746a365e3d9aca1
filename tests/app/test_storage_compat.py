"""Data written by the first storage layout still opens, plays on and keeps its settings.

``tests/fixtures/store_v1/`` is a data folder written by the first ``FileStore``
(games one file each; tournaments and settings in the TinyDB database
``farkle-table.json``) and ``tests/fixtures/prefs_v1.json`` the browser entries
the first ``PrefsStore`` wrote for the same documents: a two-player game played
through the Scorekeeper (revision 4), an older, just started game with no revision, the app's
settings and a tournament.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore, MemoryPrefs, PrefsStore, Store
from engine import Rules

T = TypeVar("T")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PLAYED = "20261129-160700-a1b2c3"
OLDER = "20261130-101500-0d0e0f"
TOURNAMENT = "20261130-120000-abcdef"
TOURNAMENT_DOCUMENT = {"id": TOURNAMENT, "name": "Friday", "events": [{"type": "created"}]}


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


@pytest.fixture
def v1_folder(tmp_path: Path) -> Path:
    """A copy of the first layout's data folder (opening it moves tournaments out)."""
    return Path(shutil.copytree(FIXTURES / "store_v1", tmp_path / "data"))


@pytest.fixture(params=["file", "prefs"])
def v1_store(request: pytest.FixtureRequest, v1_folder: Path) -> Store:
    if request.param == "file":
        return FileStore(v1_folder)
    prefs = MemoryPrefs()
    prefs.values.update(json.loads((FIXTURES / "prefs_v1.json").read_text()))
    return run(PrefsStore.open(prefs))


def test_a_store_written_by_the_first_layout_opens_with_every_document(v1_store: Store) -> None:
    assert v1_store.problems == ()
    assert run(v1_store.list_ids("games")) == [PLAYED, OLDER]
    assert run(v1_store.load("settings", "app")) == {"recent_names": ["Ann", "Bob"], "theme": "dark"}
    assert run(v1_store.list_ids("tournaments")) == [TOURNAMENT]
    assert run(v1_store.load("tournaments", TOURNAMENT)) == TOURNAMENT_DOCUMENT


def test_a_game_saved_by_the_first_layout_plays_on_from_its_revision(v1_store: Store) -> None:
    keeper = Scorekeeper(v1_store)
    game = run(keeper.open_game(PLAYED))
    assert game is not None and game.scores == (1000, 0) and keeper.revision == 4
    run(keeper.act(lambda game: game.roll("5 2 3 4 6 6")))
    assert keeper.revision == 5
    stored = run(v1_store.load("games", PLAYED))
    assert stored is not None and stored["revision"] == 5 and len(stored["events"]) == 6


def test_settings_saved_by_the_first_layout_take_changes(v1_store: Store) -> None:
    keeper = Scorekeeper(v1_store)
    run(keeper.remember_names(["Cy"]))
    run(keeper.update_settings(theme="light"))
    assert run(keeper.settings()) == {"recent_names": ["Cy", "Ann", "Bob"], "theme": "light"}


def test_a_game_saved_before_revisions_counts_as_revision_zero(v1_store: Store) -> None:
    keeper = Scorekeeper(v1_store)
    assert run(keeper.open_game(OLDER)) is not None
    assert keeper.revision == 0


def test_opening_the_first_layout_moves_tournaments_to_their_own_files(v1_folder: Path) -> None:
    FileStore(v1_folder).close()
    assert json.loads((v1_folder / "tournaments" / f"{TOURNAMENT}.json").read_text()) == TOURNAMENT_DOCUMENT
    database = json.loads((v1_folder / FileStore.DATABASE_FILE_NAME).read_text())
    assert database == {"settings": {"app": {"recent_names": ["Ann", "Bob"], "theme": "dark"}}}
    reopened = FileStore(v1_folder)
    assert run(reopened.load_all("tournaments")) == {TOURNAMENT: TOURNAMENT_DOCUMENT}


class SimulatedCrash(BaseException):
    """Stands for the process dying: not an Exception, so nothing handles it."""


def test_a_crash_while_moving_tournaments_out_loses_none_and_the_next_open_finishes(v1_folder: Path) -> None:
    def die_before_dropping_the_table(point: str, path: Path) -> None:
        if point == "before-write" and path.name == FileStore.DATABASE_FILE_NAME:
            raise SimulatedCrash()

    with pytest.raises(SimulatedCrash):
        FileStore(v1_folder, faults=die_before_dropping_the_table)
    assert (v1_folder / "tournaments" / f"{TOURNAMENT}.json").exists()
    assert "tournaments" in json.loads((v1_folder / FileStore.DATABASE_FILE_NAME).read_text())

    store = FileStore(v1_folder)

    assert store.problems == ()
    assert run(store.load_all("tournaments")) == {TOURNAMENT: TOURNAMENT_DOCUMENT}
    assert "tournaments" not in json.loads((v1_folder / FileStore.DATABASE_FILE_NAME).read_text())


def test_a_tournament_saved_after_moving_out_is_not_overwritten_by_a_leftover_table(v1_folder: Path) -> None:
    store = FileStore(v1_folder)
    run(store.save("tournaments", TOURNAMENT, {"name": "Friday", "round": 2}, expect_revision=0))
    store.close()
    database = v1_folder / FileStore.DATABASE_FILE_NAME
    leftover = {**json.loads(database.read_text()), "tournaments": {TOURNAMENT: TOURNAMENT_DOCUMENT}}
    database.write_text(json.dumps(leftover))

    reopened = FileStore(v1_folder)

    assert run(reopened.load("tournaments", TOURNAMENT)) == {"name": "Friday", "round": 2, "revision": 1}


def test_the_fixtures_were_written_by_the_scorekeeper_with_house_rules() -> None:
    game = json.loads((FIXTURES / "store_v1" / "games" / f"{PLAYED}.json").read_text())
    assert game["rules"] == Rules.preset("house").to_dict()
