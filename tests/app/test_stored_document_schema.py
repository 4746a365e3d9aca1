"""Stored documents are read with a typed schema before anything replays them (issue 16).

Each document here is what a damaged disk, a sync tool or a person with a text editor
could leave in the data folder. It must be named on Home or the organizer's list, kept
aside byte for byte, and never half-opened; a good one beside it opens as before.
"""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path
from typing import Any

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.storage import FileStore
from engine import FarkleError, Game, InvalidInput, Tournament, TournamentFormat
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game


def closed_event() -> Tournament:
    """An event of 4 whose round 1 (the final) is played and closed: every kind of entry a round has."""
    t = Tournament("Harbour open", event_id="HARBOUR-1", secret=b"harbour-open-2026")
    for name in ("Ann", "Bob", "Cy", "Di"):
        t.check_in(t.sign_up(name))
    t.draw_seats(7)
    t.record_result(1, (10_050, 6_500, 3_000, 500), reason="paper sheet")
    t.close_round()
    return t


def stored(t: Tournament | list[dict[str, Any]], doc_id: str, **fields: Any) -> dict[str, Any]:
    events = t.events if isinstance(t, Tournament) else t
    return {"id": doc_id, "name": "Harbour open", "event_id": "HARBOUR-1", "players": 4, "round": 1,
            "updated": "2026-12-01T10:00:00+00:00", "revision": 1, "events": events, **fields}


def with_entry(events: list[dict[str, Any]], kind: str, **changes: Any) -> list[dict[str, Any]]:
    """The log with the last entry of ``kind`` changed."""
    changed = copy.deepcopy(events)
    position = max(i for i, entry in enumerate(changed) if entry["type"] == kind)
    changed[position].update(changes)
    return changed


def over_the_cap() -> list[dict[str, Any]]:
    t = Tournament("Harbour open", TournamentFormat.house(), event_id="HARBOUR-1", secret=b"harbour-open-2026")
    for n in range(1, 41):
        t.sign_up(f"Player {n}")
    return [*t.events, {"type": "player_signed_up", "number": 41, "name": "Player 41"}]


EVENTS = closed_event().events
OLD_EVENTS = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "tournament_v1.json").read_text())["events"]
"""A whole event as an older engine logged it: every kind of entry, voids and held results too."""
BAD_EVENTS = {
    "advancing -1": (with_entry(EVENTS, "round_closed", advancing=-1), "advancing is a whole number"),
    "advancing a stranger": (with_entry(EVENTS, "round_closed", advancing=[99]), "number 99 going on"),
    "number as text": (with_entry(EVENTS, "player_signed_up", number="1"), "number is a text"),
    "41 sign-ups, cap 40": (over_the_cap(), "signs up when the event is full (40 players)"),
    "table 0": (with_entry(EVENTS, "result_recorded", table=0), "table is 0, expected 1 or more"),
    "round 0 closed": (with_entry(EVENTS, "round_closed", round=0), "round is 0, expected 1 or more"),
    "seat drawn twice": (with_entry(EVENTS, "seats_drawn", tables=[[1, 1, 2, 3]]), "names a player number below 1 or twice"),
    "rules switched to nothing": ([*EVENTS[:-1], {"type": "rules_switched", "round": 1, "rules": "chaos"}, EVENTS[-1]],
                                  "which are no preset"),
}


@pytest.mark.parametrize("damage", BAD_EVENTS)
def test_a_log_entry_of_the_wrong_type_range_or_past_a_cap_is_refused_by_the_engine_naming_it(damage: str) -> None:
    events, words = BAD_EVENTS[damage]
    with pytest.raises(InvalidInput, match=re.escape(words)):
        Tournament.from_events(events)


def test_every_good_log_entry_still_replays_and_reads_back_as_written() -> None:
    assert Tournament.from_events(EVENTS).events == EVENTS


def write_raw(folder: Path, collection: str, doc_id: str, document: dict[str, Any]) -> bytes:
    (folder / collection).mkdir(parents=True, exist_ok=True)
    raw = (json.dumps(document, indent=1) + "\n").encode()  # not how the app writes: the bytes must survive as they are
    (folder / collection / f"{doc_id}.json").write_bytes(raw)
    return raw


def kept_aside(folder: Path, collection: str, doc_id: str) -> bytes:
    (kept,) = (folder / collection).glob(f"{doc_id}.json.unreadable-*")
    return kept.read_bytes()


BAD_DOCUMENTS = {
    **{name: stored(events, "t-bad") for name, (events, _) in BAD_EVENTS.items()},
    "refused holds no refusal": stored(closed_event(), "t-bad", refused=[{"x": 1}]),
    "refused reason a number": stored(closed_event(), "t-bad", refused=[{"at": "10:00", "code": "FR1", "reason": 7}]),
}


@pytest.mark.parametrize("damage", BAD_DOCUMENTS)
def test_an_event_file_that_fails_its_schema_is_named_on_the_organizer_list_and_kept_aside_byte_for_byte(
        tmp_path: Path, damage: str) -> None:
    folder = tmp_path / "data"
    raw = write_raw(folder, "tournaments", "t-bad", BAD_DOCUMENTS[damage])
    write_raw(folder, "tournaments", "t-good", stored(closed_event(), "t-good"))

    async def test(ui: FletHarness) -> None:
        assert "t-bad" in ui.text_of("unreadable-events")
        assert "t-good" not in ui.text_of("unreadable-events")
        assert ui.exists("event-t-good") and not ui.exists("event-t-bad")
        await ui.navigate("/organizer/t-bad")
        assert "Opening the event…" not in ui.texts()
        assert ui.text_of("organizer-not-found") == "There is no readable tournament 't-bad' on this device."

    run(test, route="/organizer", store=FileStore(folder))
    assert kept_aside(folder, "tournaments", "t-bad") == raw
    assert not (folder / "tournaments" / "t-bad.json").exists()
    assert (folder / "tournaments" / "t-good.json").exists()


def game_document(events: list[dict[str, Any]], doc_id: str) -> dict[str, Any]:
    return {"id": doc_id, "players": ["Ann", "Bob"], "scores": [0, 0], "finished": False, "revision": 1,
            "updated": "2026-12-01T10:00:00+00:00", "events": events}


GAME_EVENTS = Game(["Ann", "Bob"]).events
PLAYED_GAME = play_game(Game(["Ann", "Bob", "Cy"]), random.Random(16)).events[:60]
BAD_GAME_LOGS = {
    "first player as text": [{**GAME_EVENTS[0], "first": "1"}],
    "first player a decimal": [{**GAME_EVENTS[0], "first": 0.5}],
    "dice as text": [*GAME_EVENTS, {"type": "rolled", "dice": "123456"}],
    "dice as true/false": [*GAME_EVENTS, {"type": "rolled", "dice": [True, 2, 3, 4, 6, 6]}],
    "roll-off seat in another script": [*GAME_EVENTS, {"type": "rolled_off", "faces": {"١": 3}}],
    "roll-off die as text": [*GAME_EVENTS, {"type": "rolled_off", "faces": {"0": "3"}}],
    "an entry that is a list": [*GAME_EVENTS, ["rolled"]],
}


@pytest.mark.parametrize("damage", BAD_GAME_LOGS)
def test_a_game_log_entry_of_the_wrong_json_type_is_refused_by_the_engine(damage: str) -> None:
    with pytest.raises(InvalidInput):
        Game.from_events(BAD_GAME_LOGS[damage])


@pytest.mark.parametrize("damage", ["first player as text", "dice as text"])
def test_a_game_file_with_a_mistyped_entry_is_named_on_home_and_kept_aside_byte_for_byte(
        tmp_path: Path, damage: str) -> None:
    folder = tmp_path / "data"
    raw = write_raw(folder, "games", "g-bad", game_document(BAD_GAME_LOGS[damage], "g-bad"))

    async def test(ui: FletHarness) -> None:
        assert "g-bad" in ui.text_of("store-problems")
        assert ui.exists("new-game")

    run(test, store=FileStore(folder))
    assert kept_aside(folder, "games", "g-bad") == raw


def test_a_game_file_that_is_a_link_to_nothing_is_named_on_home_and_the_link_kept_aside(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    (folder / "games").mkdir(parents=True)
    os.symlink(tmp_path / "moved-away.json", folder / "games" / "g-link.json")

    async def test(ui: FletHarness) -> None:
        problems = ui.text_of("store-problems")
        assert "g-link.json" in problems and "a link to a file that is not there" in problems

    run(test, store=FileStore(folder))
    (kept,) = (folder / "games").glob("g-link.json.unreadable-*")
    assert kept.is_symlink() and os.readlink(kept) == str(tmp_path / "moved-away.json")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 100) | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)


def changed_entry(data: st.DataObject, log: list[dict[str, Any]]) -> list[Any]:
    """The log (a list, as the store's schema ensures) with one of its entries changed anywhere."""
    position = data.draw(st.integers(0, len(log) - 1))
    return [*log[:position], changed_anywhere(data, log[position]), *log[position + 1:]]


def changed_anywhere(data: st.DataObject, value: Any) -> Any:
    """``value`` with one item, anywhere inside it, replaced by any JSON value."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: changed_anywhere(data, value[key])}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        position = data.draw(st.integers(0, len(value) - 1))
        return [*value[:position], changed_anywhere(data, value[position]), *value[position + 1:]]
    return data.draw(JSON_VALUES)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_tournament_log_changed_anywhere_replays_to_an_event_the_screens_can_ask_or_is_refused(data) -> None:
    events = changed_entry(data, data.draw(st.sampled_from((EVENTS, OLD_EVENTS))))
    try:
        t = Tournament.from_events(events)
    except FarkleError:
        return
    for ask in (t.standings, t.plan, t.results, t.corrections, lambda: t.champion, t.standings_csv, t.results_csv):
        try:
            ask()
        except FarkleError:
            pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_game_log_changed_anywhere_replays_or_is_refused_by_the_engine(data) -> None:
    events = changed_entry(data, PLAYED_GAME)
    try:
        Game.from_events(events)
    except FarkleError:
        pass
