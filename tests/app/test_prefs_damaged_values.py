"""The browser store over a ``localStorage`` holding damaged or foreign values: whatever an
entry under the app's keys holds, the store opens, the sound game lists and plays, the
damaged entry is named and kept aside with its characters, and other apps' keys are
never written.

The values are what the page hands the app through Flutter's preferences plugin: texts
(app/web/local_storage.js hands over every value that is not a JSON text as its raw
characters, so a cut-short or hand-typed entry reads as that text) and, for a plugin
without that script, the JSON types it decodes (numbers, lists, objects).
"""

from __future__ import annotations

import base64
import copy
import json
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.event.organizer import Organizer
from app.table.scorekeeper import Scorekeeper
from app.views.widgets import problem_line
from app.storage import MAX_DOCUMENT_BYTES, MemoryPrefs, PrefsStore, Store, seal
from tests.app.test_store_validation import BAD, GAME, GOOD_GAME, only_problem_about, run

NAMESPACE = "farkle-table/"
GOOD_KEY = f"{NAMESPACE}games/{GOOD_GAME}"
BAD_KEY = f"{NAMESPACE}games/{BAD}"
PACKED_GAME = "z:" + base64.b64encode(zlib.compress(seal(GAME).encode("ascii"), 9)).decode("ascii")

FOREIGN: dict[str, Any] = {
    "other-app/state": "{{{ not json",
    "other-app/count": 42,
    "other-app/tags": [1, "two", None],
    "farkle-table-dev/games/g1": "j:{}",
    "farkle.something": {"a": 1},
    "farkle-table": "x" * 1_000,
}
"""Keys of other apps on the same origin, as the plugin lists them (a "flutter." key loses
its prefix; a key without it never reaches the app): the store must leave them as they are."""

DAMAGED: dict[str, tuple[Any, str]] = {
    "not JSON (typed by hand)": ('j:{"players": ["Ann"', "is not in the form this app saves"),
    "JSON cut short inside": ("j:" + seal(GAME)[:-40], "is not in the form this app saves"),
    "packed data cut short": (PACKED_GAME[:len(PACKED_GAME) // 2], "packed data is damaged or cut short"),
    "packed data that is not base64": ("z:@@@@ not base64", "packed data is damaged or cut short"),
    "base64 that is not packed": ("z:" + base64.b64encode(b"hello").decode(), "packed data is damaged or cut short"),
    "a stored JSON text cut short (its raw characters)": ('"z:eJx', "begins with '\"z:eJx'"),
    "JSON null (its raw characters)": ("null", "begins with 'null'"),
    "a number (its raw characters)": ("42", "begins with '42'"),
    "a list (its raw characters)": ("[1,2]", "begins with '[1,2]'"),
    "an object (its raw characters)": ('{"a":1}', "is not in the form this app saves"),
    "empty": ("", "is empty"),
    "a foreign shape in the app's form": ('j:{"hello":"world"}', "the game has no 'players'"),
    "a list in the app's form": ("j:[1,2]", "is not in the form this app saves"),
    "a future version's form": ("y:AAAA", "a newer version"),
    "a future version's game": ("j:" + json.dumps({**GAME, "events": GAME["events"] + [{"type": "teleported"}]}),
                                "cannot be replayed"),
    "a number": (42, "holds a whole number where the app keeps a text"),
    "a fraction": (4.5, "holds a decimal number where the app keeps a text"),
    "true": (True, "holds true/false where the app keeps a text"),
    "a list of numbers": ([1, 2], "holds a list where the app keeps a text"),
    "a list of texts": (["a"], "holds a list where the app keeps a text"),
    "an object": ({"a": 1}, "holds an object where the app keeps a text"),
    "huge": ("j:" + " " * MAX_DOCUMENT_BYTES, "too large"),
}
"""Values under a game's key, and what the reason shown for it says."""


def planted(value: Any = None) -> MemoryPrefs:
    """A browser's storage with the sound game, other apps' keys, and ``value`` under the
    bad game's key (none for ``None``)."""
    prefs = MemoryPrefs()
    prefs.values.update(copy.deepcopy(FOREIGN))
    prefs.values[GOOD_KEY] = "j:" + seal(GAME)
    if value is not None:
        prefs.values[BAD_KEY] = value
    return prefs


def foreign_values(prefs: MemoryPrefs) -> dict[str, Any]:
    return {key: value for key, value in prefs.values.items() if key in FOREIGN}


def opened(prefs: MemoryPrefs) -> Store:
    store = run(PrefsStore.open(prefs))
    Scorekeeper(store)  # gives the store the app's checks, as the app does
    return store


def sound_game_listed_and_played(store: Store) -> None:
    async def play() -> None:
        keeper = Scorekeeper(store)
        assert [summary.id for summary in await keeper.summaries()] == [GOOD_GAME]
        game = await keeper.open_game(GOOD_GAME)
        assert game is not None and game.scores == (1000, 0)
        await keeper.act(lambda game: game.roll("5 2 3 4 6 6"))
        assert await Organizer(store).summaries() == []

    run(play())


@pytest.mark.parametrize("case", list(DAMAGED))
def test_a_damaged_game_entry_is_named_kept_aside_with_its_value_and_the_sound_game_plays(case: str) -> None:
    value, _ = DAMAGED[case]
    prefs = planted(copy.deepcopy(value))

    store = opened(prefs)
    sound_game_listed_and_played(store)

    problem = only_problem_about(store, BAD)
    assert problem.kept_as is not None and problem.kept_as.startswith(f"{NAMESPACE}kept-aside/games/{BAD}.")
    assert prefs.values[problem.kept_as] == value
    assert BAD_KEY not in prefs.values
    assert foreign_values(prefs) == FOREIGN


@pytest.mark.parametrize("case", list(DAMAGED))
def test_the_problem_says_in_words_why_the_entry_could_not_be_read(case: str) -> None:
    value, reason = DAMAGED[case]
    store = opened(planted(value))
    run(Scorekeeper(store).summaries())
    assert reason in problem_line(only_problem_about(store, BAD))


def test_a_damaged_entry_the_full_storage_cannot_move_is_named_and_left_where_it_was() -> None:
    prefs = planted("j:" + " " * 3_000_000)
    prefs.quota_bytes = prefs.stored_chars() + 1_000  # no room for a second copy of it
    store = opened(prefs)
    run(Scorekeeper(store).summaries())
    problem = only_problem_about(store, BAD)
    assert problem.kept_as is None and "left where it was" in problem_line(problem)
    assert prefs.values[BAD_KEY] == "j:" + " " * 3_000_000
    assert foreign_values(prefs) == FOREIGN


@pytest.mark.parametrize("index", [
    42, None, [1, 2], "j:{not json", "z:@@@@", "null", '"z:eJx', "j:[]",
    'j:{"format":"farkle-table-index","listing":"x","checksum":"0","entries":{}}',
])
def test_a_damaged_games_index_is_rebuilt_and_every_sound_game_is_listed(index: Any) -> None:
    prefs = planted()
    prefs.values[f"{NAMESPACE}games/second"] = "j:" + seal(GAME)
    prefs.values[f"{NAMESPACE}index/games"] = index
    store = opened(prefs)
    assert sorted(summary.id for summary in run(Scorekeeper(store).summaries())) == [GOOD_GAME, "second"]
    assert store.problems == ()
    assert foreign_values(prefs) == FOREIGN


@pytest.mark.parametrize("value", ["j:{not json", 42, [1], None, "y:AAAA"])
def test_damaged_settings_leave_the_defaults_and_are_named(value: Any) -> None:
    prefs = planted()
    prefs.values[f"{NAMESPACE}settings/app"] = value
    store = opened(prefs)
    assert run(Scorekeeper(store).settings()) == {}
    assert len(store.problems) == (0 if value is None else 1)
    sound_game_listed_and_played(store)
    assert foreign_values(prefs) == FOREIGN


# --- any value at all -----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
texts_like_entries = st.builds(lambda tag, rest: tag + rest, st.sampled_from(["j:", "z:", "y:", '"', "", "j:{"]),
                               st.text(max_size=60))
app_keys = st.sampled_from([
    f"{NAMESPACE}games/{BAD}", f"{NAMESPACE}games/other", f"{NAMESPACE}settings/app", f"{NAMESPACE}tournaments/t1",
    f"{NAMESPACE}index/games", f"{NAMESPACE}index/tournaments", f"{NAMESPACE}kept-aside/games/x.unreadable-1",
    f"{NAMESPACE}games/", f"{NAMESPACE}games/not an id", f"{NAMESPACE}elsewhere",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=st.dictionaries(app_keys, texts_like_entries | json_values, max_size=6))
def test_any_values_under_the_apps_keys_never_stop_the_store_nor_touch_other_keys(entries: dict[str, Any]) -> None:
    prefs = planted()
    entries = {key: value for key, value in entries.items() if value is not None}  # None: no entry
    prefs.values.update(copy.deepcopy(entries))

    store = opened(prefs)
    run(Organizer(store).summaries())
    run(Scorekeeper(store).settings())
    listed = {summary.id for summary in run(Scorekeeper(store).summaries())}
    assert GOOD_GAME in listed
    game = run(Scorekeeper(store).open_game(GOOD_GAME))
    assert game is not None and game.scores == (1000, 0)

    assert foreign_values(prefs) == FOREIGN
    kept = [problem.kept_as for problem in store.problems if problem.kept_as is not None]
    for key, value in entries.items():
        if key.startswith(f"{NAMESPACE}index/"):
            continue  # a cache the store writes again from the documents
        assert prefs.values.get(key) == value or any(prefs.values[where] == value for where in kept), key
