"""Fuzz: damaged and ill-shaped documents of every kind, written beside good ones into a
data folder and a browser's storage, never stop the store or the screens.

For each generated document the store must open, the listings work, the bad one be
named in ``store.problems`` and kept aside byte for byte, and the good game still
open and take a throw.  Documents that may or may not be acceptable (any JSON object
as a game) must be one or the other: listed and playable, or named and kept aside.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore, Store
from tests.app.test_store_validation import (
    BAD,
    EVENT,
    GAME,
    GOOD_GAME,
    Browser,
    Folder,
    Place,
    only_problem_about,
    run,
    the_good_game_opens_and_plays,
    with_good_ones,
)

FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(check(item) for item in value)


GAME_FIELDS: dict[str, Callable[[Any], bool]] = {
    "players": is_list_of(lambda item: isinstance(item, str)),
    "events": is_list_of(lambda item: isinstance(item, dict)),
    "scores": is_list_of(is_int),
    "rules": lambda value: isinstance(value, dict),
    "finished": lambda value: isinstance(value, bool),
    "winner": lambda value: value is None or isinstance(value, str),
    "updated": lambda value: isinstance(value, str),
    "revision": is_int,
    "title": lambda value: value is None or isinstance(value, str),
}
"""What each game field accepts, written out here independently of the app's schema."""

TOURNAMENT_FIELDS: dict[str, Callable[[Any], bool]] = {
    "events": is_list_of(lambda item: isinstance(item, dict)),
    "name": lambda value: isinstance(value, str),
    "refused": is_list_of(lambda item: isinstance(item, dict)),
    "revision": is_int,
}

SETTINGS_FIELDS: dict[str, Callable[[Any], bool]] = {
    "recent_names": is_list_of(lambda item: isinstance(item, str)),
    "theme": lambda value: isinstance(value, str),
    "revision": is_int,
}


def encoded(document: Any) -> bytes:
    return json.dumps(document).encode()


@st.composite
def wrong_field(draw: st.DrawFn, good: dict[str, Any], fields: dict[str, Callable[[Any], bool]]) -> bytes:
    """The good document with one field given a value of a type it never holds."""
    name = draw(st.sampled_from(sorted(fields)))
    value = draw(json_values.filter(lambda value: not fields[name](value)))
    return encoded({**copy.deepcopy(good), name: value})


@st.composite
def truncated(draw: st.DrawFn, good: dict[str, Any]) -> bytes:
    """The good document's bytes cut short anywhere (a crash mid-copy, a full disk)."""
    raw = encoded(good)
    return raw[: draw(st.integers(0, len(raw) - 1))]


@st.composite
def deeply_nested(draw: st.DrawFn) -> bytes:
    depth = draw(st.integers(5_000, 200_000))
    opener, closer = draw(st.sampled_from([(b"[", b"]"), (b'{"a":', b"}")]))
    inner = b"1" if opener.startswith(b"{") else b""
    return opener * depth + inner + closer * depth


not_an_object = st.one_of(st.lists(json_values, max_size=3), st.integers(), st.text(max_size=5), st.none()).map(encoded)


@st.composite
def illegal_game_log(draw: st.DrawFn) -> bytes:
    """The good game with a log the engine must refuse."""
    events = copy.deepcopy(GAME["events"])
    kind = draw(st.sampled_from(["unknown type", "die out of range", "first seat", "not an event", "no start"]))
    if kind == "unknown type":
        events.insert(draw(st.integers(1, len(events))), {"type": draw(st.text(min_size=1, max_size=8).filter(
            lambda name: name not in {"started", "rolled", "kept", "banked", "built", "rules", "roll_off", "undone"}))})
    elif kind == "die out of range":
        dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))
        dice.insert(draw(st.integers(0, 5)), draw(st.integers(7, 99) | st.integers(-9, 0)))
        events = events[:1] + [{"type": "rolled", "dice": dice}]
    elif kind == "first seat":
        events = [{**events[0], "first": draw(st.integers(2, 99) | st.integers(-99, -1))}]
    elif kind == "not an event":
        events[draw(st.integers(0, len(events) - 1))] = draw(json_values.filter(lambda value: not isinstance(value, dict)))
    else:
        events = events[1:]
    return encoded({**copy.deepcopy(GAME), "events": events})


bad_games = st.one_of(wrong_field(GAME, GAME_FIELDS), truncated(GAME), deeply_nested(), not_an_object,
                      illegal_game_log())
bad_tournaments = st.one_of(wrong_field(EVENT, TOURNAMENT_FIELDS), truncated(EVENT), deeply_nested(), not_an_object)
GOOD_SETTINGS = {"recent_names": ["Ann"], "theme": "dark"}
bad_settings = st.one_of(wrong_field(GOOD_SETTINGS, SETTINGS_FIELDS), truncated(GOOD_SETTINGS), not_an_object)
places = st.sampled_from(["file", "prefs"])


@contextmanager
def a_place(kind: str) -> Iterator[Place]:
    with tempfile.TemporaryDirectory() as folder:
        place: Place = Folder(Path(folder) / "data") if kind == "file" else Browser()
        try:
            yield place
        finally:
            place.close()


def assert_named_and_kept(store: Store, place: Place, raw: bytes) -> None:
    problem = only_problem_about(store, BAD)
    assert place.kept(problem) == raw


@FUZZ
@given(kind=places, raw=bad_games)
def test_a_bad_game_never_stops_the_store_and_is_kept_aside_untouched(kind: str, raw: bytes) -> None:
    with a_place(kind) as place:
        with_good_ones(place)
        place.put("games", BAD, raw)
        store = place.open()
        the_good_game_opens_and_plays(store)
        assert_named_and_kept(store, place, raw)


@FUZZ
@given(kind=places, raw=bad_tournaments)
def test_a_bad_tournament_never_stops_the_store_and_is_kept_aside_untouched(kind: str, raw: bytes) -> None:
    with a_place(kind) as place:
        with_good_ones(place)
        place.put("tournaments", BAD, raw)
        store = place.open()
        the_good_game_opens_and_plays(store)
        assert_named_and_kept(store, place, raw)


@FUZZ
@given(kind=places, raw=bad_settings)
def test_bad_settings_never_stop_the_store_and_the_defaults_are_used(kind: str, raw: bytes) -> None:
    with a_place(kind) as place:
        with_good_ones(place)
        place.put_settings(raw)
        store = place.open()
        keeper = Scorekeeper(store)
        assert run(keeper.settings()) == {}
        the_good_game_opens_and_plays(store)
        assert len(store.problems) == 1
        kept = place.kept(store.problems[0])
        assert kept == (b'{"settings":{"app":' + raw + b"}}" if isinstance(place, Folder) else raw)


@FUZZ
@given(kind=places, document=st.dictionaries(st.sampled_from(sorted(GAME_FIELDS) + ["id", "x"]), json_values,
                                             max_size=6))
def test_any_json_object_as_a_game_is_either_playable_or_kept_aside_untouched(kind: str, document: Any) -> None:
    raw = encoded(document)
    with a_place(kind) as place:
        with_good_ones(place)
        place.put("games", BAD, raw)
        store = place.open()
        keeper = Scorekeeper(store)
        listed = [summary.id for summary in run(keeper.summaries())]
        if BAD in listed:
            assert run(keeper.open_game(BAD)) is not None and store.problems == ()
        else:
            assert listed == [GOOD_GAME]
            assert_named_and_kept(store, place, raw)
        the_good_game_opens_and_plays(store)


@FUZZ
@given(raw=st.one_of(
    st.dictionaries(st.sampled_from(["settings", "tournaments", "_default"]),
                    st.dictionaries(st.sampled_from(["app", "t1", "1"]), json_values, max_size=3) | json_values,
                    max_size=3).map(encoded),
    deeply_nested(),
    truncated({"settings": {"app": GOOD_SETTINGS}}),
))
def test_any_settings_database_is_either_read_or_kept_aside_untouched(raw: bytes) -> None:
    with a_place("file") as place:
        assert isinstance(place, Folder)
        with_good_ones(place)
        place.put_database(raw)
        store = place.open()
        keeper = Scorekeeper(store)
        settings_now = run(keeper.settings())
        assert isinstance(settings_now, dict)
        the_good_game_opens_and_plays(store)
        for problem in store.problems:
            if problem.location.endswith(FileStore.DATABASE_FILE_NAME):
                assert place.kept(problem) == raw
        run(keeper.remember_names(["Cy"]))
        assert run(keeper.recent_names())[0] == "Cy"
