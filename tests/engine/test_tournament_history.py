"""The tournament as the replay of its log: rebuilt equal from JSON, undone one action at a time,
and a damaged log or an impossible event id refused."""

from __future__ import annotations

import json
from collections.abc import Hashable

import pytest

from engine import IllegalAction, InvalidInput
from engine.tournament import Tournament
from tests.support.tournament_support import SECRET, default_totals, event, play_round, result_code


def test_the_log_is_json_and_replays_into_an_equal_tournament() -> None:
    t = event(10)
    play_round(t, seed=1)
    t.draw_seats(seed=2)
    t.import_result(result_code(t, 1))
    log = json.loads(json.dumps(t.events))
    again = Tournament.from_events(log)
    assert again == t
    assert again.standings() == t.standings() and again.seating() == t.seating()
    assert again.setup_code(1) == t.setup_code(1)


def test_undo_takes_back_the_last_action_only() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    before = t.events
    t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")
    t.undo()
    assert t.events == before and t.missing_tables() == (1, 2)
    t.undo()
    assert t.round == 0


def test_undo_stops_at_the_creation() -> None:
    t = Tournament("Empty", event_id="E-1", secret=SECRET)
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        t.undo()


def test_a_log_of_unknown_kind_is_refused() -> None:
    log = event(2).events + [{"type": "player_teleported", "number": 1}]
    with pytest.raises(InvalidInput, match="unknown kind"):
        Tournament.from_events(log)


def test_a_log_naming_a_round_never_drawn_is_refused_as_damaged() -> None:
    log = event(6).events + [{"type": "round_closed", "round": 3, "advancing": [1, 2]}]
    with pytest.raises(InvalidInput, match=r"damaged at entry 14 \(round_closed\)"):
        Tournament.from_events(log)


def test_a_log_not_starting_with_the_creation_is_refused() -> None:
    with pytest.raises(InvalidInput, match="must begin with the tournament's creation"):
        Tournament.from_events(event(2).events[1:])


def test_an_event_id_with_characters_a_code_cannot_carry_is_refused() -> None:
    with pytest.raises(InvalidInput, match="cannot be an event id"):
        Tournament("Cup", event_id="spring cup!", secret=SECRET)


def test_a_tournament_says_it_cannot_be_hashed_as_python_values_do() -> None:
    """Equal by its log, changed by every action: never a set member or a dict key."""
    t = event(3)
    assert not isinstance(t, Hashable)
    with pytest.raises(TypeError, match="unhashable"):
        {t}
