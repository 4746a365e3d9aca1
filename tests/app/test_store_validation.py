"""Every stored document is checked where it is read: one that is damaged, ill-shaped,
too large or whose log the engine refuses is named in ``store.problems``, kept aside
byte for byte, and everything else carries on (games list, open and play).

The cases are tables: each is the bytes an unlucky user may find in a file (or a
browser entry), run against the file store and the browser store alike.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.event.organizer import Organizer
from app.table.scorekeeper import Scorekeeper
from app.views.widgets import problem_line
from app.storage import (
    MAX_DOCUMENT_BYTES,
    MAX_EVENTS,
    DocumentTooLarge,
    FileStore,
    MemoryPrefs,
    MemoryStore,
    PrefsStore,
    Seal,
    Store,
    StoreProblem,
    StoreWriteError,
    seal,
)
from engine import Rules

T = TypeVar("T")
GOOD_GAME = "good-game"
GOOD_EVENT = "good-event"
BAD = "bad"


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def _good_documents() -> tuple[dict[str, Any], dict[str, Any]]:
    """A game (Ann banked 1,000; Bob to throw) and an event, as the app saves them."""

    async def make() -> tuple[dict[str, Any], dict[str, Any]]:
        store = MemoryStore()
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
        await keeper.act(lambda game: game.roll("1 1 1 2 3 4"))
        await keeper.act(lambda game: (game.keep("1 1 1"), game.bank()) and None)
        organizer = Organizer(store)
        event_id = await organizer.create("Friday")
        game = await store.load("games", game_id)
        event = await store.load("tournaments", event_id)
        assert game is not None and event is not None
        return game, event

    return run(make())


GAME, EVENT = _good_documents()
SETTINGS: dict[str, Any] = {"recent_names": ["Ann", "Bob"], "theme": "dark"}


def game_with(**changes: Any) -> bytes:
    return json.dumps({**copy.deepcopy(GAME), **changes}).encode()


def game_with_events(*extra: dict[str, Any], keep: int = 2) -> bytes:
    """The good game's first ``keep`` events (started, rolled) then ``extra``."""
    return game_with(events=GAME["events"][:keep] + list(extra))


def event_with(**changes: Any) -> bytes:
    return json.dumps({**copy.deepcopy(EVENT), **changes}).encode()


DEEP = b"[" * 200_000 + b"]" * 200_000
DEEP_OBJECT = b'{"a":' * 200_000 + b"1" + b"}" * 200_000

GAME_CASES: dict[str, bytes] = {
    "nested 200,000 deep": DEEP,
    "objects nested 200,000 deep": DEEP_OBJECT,
    "players is a number": game_with(players=5),
    "scores are strings": game_with(scores=["a", "b"]),
    "events is null": game_with(events=None),
    "revision is text": game_with(revision="abc"),
    "no events": json.dumps({k: v for k, v in GAME.items() if k != "events"}).encode(),
    # a keep of dice that do not score: the first throw here is 2 2 3 4 6 6
    "a keep of 2 3 4": game_with_events({"type": "rolled", "dice": [2, 2, 3, 4, 6, 6]},
                                        {"type": "kept", "dice": [2, 3, 4]}, keep=1),
    "an unknown event type": game_with_events({"type": "teleported"}),
    "first seat 99": game_with(events=[{**GAME["events"][0], "first": 99}]),
    "a die of 7": game_with_events({"type": "rolled", "dice": [7, 1, 2, 3, 4, 5]}, keep=1),
    "an event that is a number": game_with_events(5),  # type: ignore[arg-type]
    "players that are not the log's": game_with(players=["Cy", "Di"]),
    "winner is a number": game_with(winner=3),
    "not JSON": b'{"events": [{"type": "rol',
    "not an object": b"[1, 2, 3]",
    "binary": b"\x00\xff\xfe garbage",
    "empty": b"",
    "too many events": game_with(events=[{"type": "banked"}] * (MAX_EVENTS + 1)),
}
"""Game files found in ``games/``; each must be kept aside and named."""

TOURNAMENT_CASES: dict[str, bytes] = {
    "nested 200,000 deep": DEEP,
    "events is null": event_with(events=None),
    "an unknown event type": event_with(events=EVENT["events"] + [{"type": "teleported"}]),
    "a log that does not start": event_with(events=[{"type": "signed_up", "name": "Ann"}]),
    "name is a number": event_with(name=5),
    "refused is not a list": event_with(refused={"a": 1}),
    "not an object": b'"Friday"',
}

SETTINGS_CASES: dict[str, bytes] = {
    "recent names is a number": json.dumps({"recent_names": 5}).encode(),
    "recent names are numbers": json.dumps({"recent_names": [1, 2]}).encode(),
    "theme is a list": json.dumps({"theme": ["dark"]}).encode(),
    "nested 200,000 deep": DEEP,
    "not an object": b"[1, 2]",
}
"""A settings document; in the file store it sits inside ``farkle-table.json``."""

DATABASE_CASES: dict[str, bytes] = {
    "settings app is a list": b'{"settings":{"app":[1,2]}}',
    "recent names is a number": b'{"settings":{"app":{"recent_names":5}}}',
    "a tournament that is a number": b'{"tournaments":{"t1":5}}',
    "a table that is a list": b'{"settings":[1]}',
    "nested 200,000 deep": DEEP,
    "not JSON": b'{"settings": {"app": {"recent',
}
"""Whole ``farkle-table.json`` databases (the file store's settings)."""


# --- two places a document can be found: a data folder, a browser's storage -----------


class Place:
    """Where the cases are written: bytes put under a collection and id, a store
    opened over them, and what a kept-aside problem now holds."""

    name = ""

    def put(self, collection: str, doc_id: str, raw: bytes) -> None:
        raise NotImplementedError

    def put_settings(self, raw: bytes) -> None:
        """The settings document ``app`` exactly as ``raw`` (its own JSON)."""
        raise NotImplementedError

    def open(self) -> Store:
        raise NotImplementedError

    def kept(self, problem: StoreProblem) -> bytes:
        raise NotImplementedError

    def close(self) -> None:
        pass


class Folder(Place):
    name = "file"

    def __init__(self, root: Path) -> None:
        self.root = root
        self.opened: list[Store] = []

    def put(self, collection: str, doc_id: str, raw: bytes) -> None:
        (self.root / collection).mkdir(parents=True, exist_ok=True)
        (self.root / collection / f"{doc_id}.json").write_bytes(raw)

    def put_settings(self, raw: bytes) -> None:
        self.put_database(b'{"settings":{"app":' + raw + b"}}")

    def put_database(self, raw: bytes) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / FileStore.DATABASE_FILE_NAME).write_bytes(raw)

    def open(self) -> Store:
        store = FileStore(self.root)
        self.opened.append(store)
        return store

    def kept(self, problem: StoreProblem) -> bytes:
        assert problem.kept_as is not None, problem
        return Path(problem.kept_as).read_bytes()

    def close(self) -> None:
        for store in self.opened:
            store.close()


class Browser(Place):
    name = "prefs"

    def __init__(self) -> None:
        self.prefs = MemoryPrefs()

    def put(self, collection: str, doc_id: str, raw: bytes) -> None:
        self.prefs.values[f"farkle-table/{collection}/{doc_id}"] = "j:" + raw.decode("latin-1")

    def put_settings(self, raw: bytes) -> None:
        self.put("settings", "app", raw)

    def open(self) -> Store:
        return run(PrefsStore.open(self.prefs))

    def kept(self, problem: StoreProblem) -> bytes:
        assert problem.kept_as is not None, problem
        value = self.prefs.values[problem.kept_as]
        assert value.startswith("j:")
        return str(value[2:]).encode("latin-1")


@pytest.fixture(params=["file", "prefs"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    found: Place = Folder(tmp_path / "data") if request.param == "file" else Browser()
    yield found
    found.close()


def with_good_ones(place: Place) -> None:
    place.put("games", GOOD_GAME, json.dumps(GAME).encode())
    place.put("tournaments", GOOD_EVENT, json.dumps(EVENT).encode())


def the_good_game_opens_and_plays(store: Store) -> None:
    async def play() -> None:
        keeper = Scorekeeper(store)
        assert [summary.id for summary in await keeper.summaries()] == [GOOD_GAME]
        game = await keeper.open_game(GOOD_GAME)
        assert game is not None and game.scores == (1000, 0)
        await keeper.act(lambda game: game.roll("5 2 3 4 6 6"))
        assert keeper.game is not None and len(keeper.game.events) == len(GAME["events"]) + 1
        assert [summary.id for summary in await Organizer(store).summaries()] == [GOOD_EVENT]

    run(play())


def only_problem_about(store: Store, name: str) -> StoreProblem:
    assert len(store.problems) == 1, store.problems
    problem = store.problems[0]
    assert name in problem.location and name in problem_line(problem)
    return problem


# --- games ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(GAME_CASES))
def test_a_bad_game_is_named_kept_aside_untouched_and_the_good_one_plays(place: Place, case: str) -> None:
    with_good_ones(place)
    place.put("games", BAD, GAME_CASES[case])

    store = place.open()
    the_good_game_opens_and_plays(store)

    problem = only_problem_about(store, BAD)
    assert problem.kept_as is not None and problem.kept_as in problem_line(problem)
    assert place.kept(problem) == GAME_CASES[case]
    assert run(store.load("games", BAD)) is None
    assert run(store.list_ids("games")) == [GOOD_GAME]


@pytest.mark.parametrize(("case", "reason"), [
    ("players is a number", "players is a whole number, expected a list"),
    ("scores are strings", "scores[0] is a text, expected a whole number"),
    ("events is null", "events is null, expected a list"),
    ("revision is text", "revision is a text, expected a whole number"),
    ("a keep of 2 3 4", "cannot be replayed"),
    ("an unknown event type", "unknown kind"),
    ("first seat 99", "Seat 99"),
    ("a die of 7", "not a die face"),
    ("nested 200,000 deep", "nested too deeply"),
    ("too many events", f"too large: {MAX_EVENTS + 1:,} events"),
])
def test_the_problem_says_why_the_game_was_kept_aside(place: Place, case: str, reason: str) -> None:
    place.put("games", BAD, GAME_CASES[case])
    store = place.open()
    assert run(Scorekeeper(store).summaries()) == []
    assert reason in only_problem_about(store, BAD).reason


def test_an_illegal_game_opened_by_its_link_is_kept_aside_instead_of_failing_the_screen(place: Place) -> None:
    place.put("games", BAD, GAME_CASES["a die of 7"])
    store = place.open()
    keeper = Scorekeeper(store)
    assert run(keeper.open_game(BAD)) is None
    assert place.kept(only_problem_about(store, BAD)) == GAME_CASES["a die of 7"]


def test_a_folder_named_like_a_game_file_is_kept_aside(tmp_path: Path) -> None:
    folder = Folder(tmp_path / "data")
    with_good_ones(folder)
    (tmp_path / "data" / "games" / "x.json").mkdir()
    (tmp_path / "data" / "games" / "x.json" / "inside.txt").write_text("mine")

    store = folder.open()
    the_good_game_opens_and_plays(store)

    problem = only_problem_about(store, "x.json")
    assert "not a file" in problem.reason
    assert problem.kept_as is not None and (Path(problem.kept_as) / "inside.txt").read_text() == "mine"


def test_a_file_named_like_the_games_folder_is_kept_aside(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "games").write_bytes(b"not a folder")
    store = FileStore(tmp_path / "data")
    problem = only_problem_about(store, "games")
    assert Path(str(problem.kept_as)).read_bytes() == b"not a folder"
    assert run(Scorekeeper(store).summaries()) == []
    store.close()


def test_a_game_file_past_the_size_limit_is_kept_aside_as_too_large_without_being_read(tmp_path: Path) -> None:
    folder = Folder(tmp_path / "data")
    with_good_ones(folder)
    huge = game_with(title="x" * (MAX_DOCUMENT_BYTES + 1))
    folder.put("games", BAD, huge)

    store = folder.open()
    the_good_game_opens_and_plays(store)

    problem = only_problem_about(store, BAD)
    assert problem.reason.startswith("too large") and "kept aside" in problem_line(problem)
    assert folder.kept(problem) == huge


def test_a_browser_entry_past_the_size_limit_is_kept_aside_as_too_large() -> None:
    browser = Browser()
    with_good_ones(browser)
    huge = game_with(title="x" * (MAX_DOCUMENT_BYTES + 1))
    browser.put("games", BAD, huge)
    store = browser.open()
    the_good_game_opens_and_plays(store)
    assert only_problem_about(store, BAD).reason.startswith("too large")


# --- tournaments ------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(TOURNAMENT_CASES))
def test_a_bad_tournament_is_named_kept_aside_untouched_and_the_rest_carries_on(place: Place, case: str) -> None:
    with_good_ones(place)
    place.put("tournaments", BAD, TOURNAMENT_CASES[case])

    store = place.open()
    the_good_game_opens_and_plays(store)

    problem = only_problem_about(store, BAD)
    assert place.kept(problem) == TOURNAMENT_CASES[case]
    assert run(Organizer(store).open(BAD)) is None


# --- settings ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(SETTINGS_CASES))
def test_bad_settings_are_kept_aside_and_the_defaults_used(place: Place, case: str) -> None:
    with_good_ones(place)
    place.put_settings(SETTINGS_CASES[case])

    store = place.open()
    keeper = Scorekeeper(store)
    assert run(keeper.settings()) == {}
    assert run(keeper.recent_names()) == []
    the_good_game_opens_and_plays(store)

    assert len(store.problems) == 1, store.problems
    problem = store.problems[0]
    if isinstance(place, Folder):
        assert problem.location.endswith(FileStore.DATABASE_FILE_NAME)
        assert place.kept(problem) == b'{"settings":{"app":' + SETTINGS_CASES[case] + b"}}"
    else:
        assert problem.location.endswith("settings/app")
        assert place.kept(problem) == SETTINGS_CASES[case]
    run(keeper.update_settings(theme="light"))
    assert run(keeper.settings()) == {"theme": "light"}


@pytest.mark.parametrize("case", list(DATABASE_CASES))
def test_a_settings_database_of_the_wrong_shape_is_kept_aside_at_start_up(tmp_path: Path, case: str) -> None:
    folder = Folder(tmp_path / "data")
    with_good_ones(folder)
    folder.put_database(DATABASE_CASES[case])

    store = folder.open()
    keeper = Scorekeeper(store)
    assert run(keeper.settings()) == {}
    the_good_game_opens_and_plays(store)

    problem = only_problem_about(store, FileStore.DATABASE_FILE_NAME)
    assert folder.kept(problem) == DATABASE_CASES[case]
    run(keeper.remember_names(["Cy"]))
    assert run(keeper.recent_names()) == ["Cy"]


def test_a_folder_named_like_the_settings_database_is_kept_aside(tmp_path: Path) -> None:
    (tmp_path / "data" / FileStore.DATABASE_FILE_NAME).mkdir(parents=True)
    store = FileStore(tmp_path / "data")
    only_problem_about(store, FileStore.DATABASE_FILE_NAME)
    assert run(Scorekeeper(store).settings()) == {}
    store.close()


# --- limits on save ---------------------------------------------------------------------


@pytest.fixture
def any_store(place: Place) -> Store:
    return place.open()


def test_a_document_past_the_size_limit_is_refused_whole_on_save(any_store: Store) -> None:
    with pytest.raises(DocumentTooLarge, match=r"Not saved: games/g1 is too large: 5,000,\d+ bytes"):
        run(any_store.save("games", "g1", {"blob": "x" * MAX_DOCUMENT_BYTES}))
    assert run(any_store.load("games", "g1")) is None


def test_a_log_past_the_events_limit_is_refused_whole_on_save(any_store: Store) -> None:
    run(any_store.save("games", "g1", {"events": [{}] * MAX_EVENTS}))
    with pytest.raises(DocumentTooLarge, match="too large: 100,001 events, the most a document may hold is 100,000"):
        run(any_store.save("games", "g1", {"events": [{}] * (MAX_EVENTS + 1)}))
    stored = run(any_store.load("games", "g1"))
    assert stored is not None and len(stored["events"]) == MAX_EVENTS


def test_a_document_nested_too_deeply_is_refused_on_save(any_store: Store) -> None:
    nested: list[Any] = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(StoreWriteError, match="nested too deeply"):
        run(any_store.save("games", "g1", {"deep": nested}))


# --- the checks themselves --------------------------------------------------------------


def test_a_store_without_the_apps_checks_keeps_any_json_object() -> None:
    store = MemoryStore()
    run(store.save("games", "g1", {"n": 1}))
    assert run(store.load("games", "g1")) == {"n": 1}
    Scorekeeper(store)
    assert run(store.load("games", "g1")) is None
    assert store.problems[0].reason == "the game has no 'players'"
    assert store.kept_aside == {"games/g1.unreadable-1": '{"n":1}'}


def counted_replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every replay of a game's log the scorekeeper's checks make from now on."""
    replays: list[str] = []
    import app.table.scorekeeper as scorekeeper_module

    original = scorekeeper_module.Game.from_events

    def counting(events: Any) -> Any:
        replays.append("replay")
        return original(events)

    monkeypatch.setattr(scorekeeper_module.Game, "from_events", staticmethod(counting))
    return replays


def test_a_game_that_passed_is_not_replayed_again_until_it_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()
    unsealed = {key: value for key, value in GAME.items() if key != "revision"}  # as an older app wrote it
    run(store.save("games", GOOD_GAME, unsealed))
    keeper = Scorekeeper(store)
    replays = counted_replays(monkeypatch)
    for _ in range(3):
        assert len(run(keeper.summaries())) == 1
    assert len(run(Scorekeeper(store).summaries())) == 1  # another screen's scorekeeper, same store
    assert len(replays) == 1
    run(store.save("games", GOOD_GAME, {**unsealed, "title": "Friday"}))
    run(keeper.summaries())
    assert len(replays) == 2


def test_a_game_read_back_as_it_was_saved_is_not_replayed_to_be_listed_or_opened(place: Place, monkeypatch: pytest.MonkeyPatch) -> None:
    store = place.open()
    keeper = Scorekeeper(store)
    game_id = run(keeper.start_game(["Ann", "Bob"], Rules.preset("house")))
    run(keeper.act(lambda game: game.roll("1 5 2 3 4 6")))
    replays = counted_replays(monkeypatch)
    assert len(run(Scorekeeper(store).summaries())) == 1
    assert run(Scorekeeper(store).open_game(game_id)) is not None
    assert replays == ["replay"]  # the open's own, not the check's


def test_a_game_edited_by_hand_is_replayed_again_and_kept_aside_if_its_log_is_not_a_game(place: Place) -> None:
    store = place.open()
    keeper = Scorekeeper(store)
    game_id = run(keeper.start_game(["Ann", "Bob"], Rules.preset("house")))
    run(keeper.act(lambda game: game.roll("1 5 2 3 4 6")))
    stored = run(store.load("games", game_id))
    assert stored is not None and "digest" not in stored  # the store's own field, never handed out
    edited = {**stored, "digest": Seal(stored).digest, "events": stored["events"] + [{"type": "banked"}]}
    place.put("games", game_id, json.dumps(edited).encode())  # the digest as saved, the log not
    assert run(Scorekeeper(store).open_game(game_id)) is None
    assert "cannot be replayed" in store.problems[-1].reason


def test_a_game_whose_digest_was_made_to_fit_a_log_that_is_no_game_is_kept_aside_when_opened(place: Place) -> None:
    store = place.open()
    keeper = Scorekeeper(store)
    game_id = run(keeper.start_game(["Ann", "Bob"], Rules.preset("house")))
    stored = run(store.load("games", game_id))
    assert stored is not None
    forged = seal({**stored, "events": stored["events"] + [{"type": "banked"}]})  # sealed as the app would
    place.put("games", game_id, forged.encode())
    assert run(Scorekeeper(store).open_game(game_id)) is None
    assert "cannot be replayed" in store.problems[-1].reason and run(store.load("games", game_id)) is None


def test_a_damaged_document_saved_by_another_screen_is_not_handed_to_the_writer(place: Place) -> None:
    store = place.open()
    keeper = Scorekeeper(store)
    game_id = run(keeper.start_game(["Ann", "Bob"], Rules.preset("house")))
    place.put("games", game_id, game_with(revision=7, events=None))
    run(keeper.act(lambda game: game.roll("5 2 3 4 6 6")))  # theirs is unusable: ours is kept again
    stored = run(store.load("games", game_id))
    assert stored is not None and len(stored["events"]) == 2
    assert len(store.problems) == 1
