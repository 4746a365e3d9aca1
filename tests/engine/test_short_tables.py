"""A table that starts short: a player drawn who does not come, and the table plays as three (engine/RULES.md §5.8)."""

from __future__ import annotations

import pytest

from engine import IllegalAction, InvalidInput
from engine.codec import decode_setup
from engine.tournament import Tournament
from tests.support.tournament_support import TWO_ROUNDS, default_totals, event, result_code


def _drawn(players: int = 8) -> tuple[Tournament, tuple[int, ...]]:
    """Two tables of four under a cut of the best two per table; table 1's players."""
    t = event(players, TWO_ROUNDS)
    t.draw_seats(seed=1)
    return t, t.seating()[0]


def test_a_player_who_did_not_come_leaves_a_table_of_three_named_on_its_card() -> None:
    t, table = _drawn()
    dan = table[2]
    t.mark_missing(dan)
    assert t.seating()[0] == tuple(n for n in table if n != dan)
    assert t.short_table(1) == f"plays as three ({t.player(dan).name} did not come)"
    assert t.short_table(2) == ""
    setup = decode_setup(t.setup_code(1))
    assert [seat.number for seat in setup.players] == [n for n in table if n != dan]
    assert t.lookup(dan)[0].status == "withdrawn" and t.player(dan).reason == "did not come"


def test_a_short_tables_result_is_checked_against_the_three_who_played() -> None:
    t, table = _drawn()
    dan = table[2]
    t.mark_missing(dan, "ill")
    with pytest.raises(IllegalAction, match="seats"):
        t.import_result(result_code(t, 1, numbers=table))
    assert t.import_result(result_code(t, 1)).status == "accepted"
    with pytest.raises(InvalidInput, match="Table 1 seats 3 players: enter 3 totals, not 4"):
        t.replace_result(1, 1, "wrong sheet", totals=[10_000, 5_000, 4_000, 3_000])


def test_a_cut_of_places_per_table_takes_from_a_short_table_as_from_any_table_of_three() -> None:
    t, table = _drawn()
    t.mark_missing(table[0])
    assert t.plan()[0].describe() == (
        "Round 1: 7 players, 1 table of 4 and 1 table of 3, house rules; places 1 to 2 of each table go on."
    )
    for number, numbers in enumerate(t.seating(), 1):
        t.record_result(number, default_totals(numbers), reason="paper score sheet")
    going_on = t.close_round()
    assert [len(set(going_on) & set(numbers)) for numbers in t.seating(1)] == [2, 2]


@pytest.mark.parametrize(
    ("before", "refusal"),
    [
        ("result", r"Table 1 of round 1 already has a result: .* played there"),
        ("two left", r"Table 1 of round 1 seats only 2: without .* nobody is left to play"),
        ("between rounds", "No round is being played now"),
    ],
)
def test_a_player_is_marked_missing_only_at_a_table_of_three_or_more_without_a_result(before: str,
                                                                                     refusal: str) -> None:
    t, table = _drawn()
    if before == "result":
        t.record_result(1, default_totals(table), reason="paper score sheet")
    if before == "two left":
        t.mark_missing(table[0])
        t.mark_missing(table[1])
    if before == "between rounds":
        for number, numbers in enumerate(t.seating(), 1):
            t.record_result(number, default_totals(numbers), reason="paper score sheet")
        t.close_round()
    with pytest.raises(IllegalAction, match=refusal):
        t.mark_missing(table[-1])


def test_a_player_not_seated_cannot_be_missing() -> None:
    t = event(8, TWO_ROUNDS)
    t.withdraw(8)
    t.draw_seats(seed=1)
    with pytest.raises(IllegalAction, match=r"Player 08 \(number 8\) is not seated in round 1"):
        t.mark_missing(8)


def test_marking_a_player_missing_is_logged_undone_and_the_draw_still_reruns_from_its_seed() -> None:
    t, table = _drawn()
    drawn = t.seating()
    t.mark_missing(table[1])
    assert Tournament.from_events(t.events) == t
    assert Tournament.from_events(t.events).seating() == t.seating()
    assert t.rerun_draw(1) == drawn
    assert t.undo() == f"{t.player(table[1]).name} missing from table 1 in round 1"
    assert t.seating() == drawn and not t.player(table[1]).withdrawn


def test_a_player_seated_in_a_round_being_played_is_told_to_mark_them_missing_instead_of_withdrawing() -> None:
    t, table = _drawn()
    with pytest.raises(IllegalAction, match="mark them missing at their table before it has a result"):
        t.withdraw(table[0])
