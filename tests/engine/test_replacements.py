"""A withdrawal after a cut: the next in line takes the place, or it stays empty (engine/RULES.md §5.8)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, InvalidInput
from engine.tournament import Cut, RoundSpec, Tournament, TournamentFormat
from tests.support.tournament_support import TWO_ROUNDS, event

BEST_FOUR = TournamentFormat("Best four", 8, (RoundSpec("house", Cut.overall(4)), RoundSpec("house", Cut.final())))
"""Eight players at two tables of four; the four best totals over both go to the final."""


def _round_one(t: Tournament, totals: dict[int, int]) -> tuple[int, ...]:
    """Draw round 1 and enter each table's totals by player number (a paper sheet)."""
    t.draw_seats(seed=1)
    for table, numbers in enumerate(t.seating(), 1):
        t.record_result(table, [totals[n] for n in numbers], reason="paper score sheet")
    return t.close_round()


FIELD = {1: 10_500, 2: 10_200, 3: 9_000, 4: 8_000, 5: 7_000, 6: 6_000, 7: 5_000, 8: 4_000}
"""Best four: 1, 2, 3, 4 (each a table's winner or not, the totals alone rank the field)."""
TIED_BELOW = {**FIELD, 5: 7_000, 6: 7_000}
"""Players 5 and 6 level on 7,000, just below the cut."""


def _finalists(t: Tournament) -> set[int]:
    return {n for table in t.draw_seats(seed=2) for n in table}


def test_a_withdrawal_after_the_cut_offers_the_next_in_line() -> None:
    t = event(8, BEST_FOUR)
    assert _round_one(t, FIELD) == (1, 2, 3, 4)
    place = t.vacancy(2)
    assert place is not None
    assert (place.next_in_line, place.total, place.next_round) == ((5,), 7_000, "the final")
    assert place.describe() == (
        "Player 05 (7,000) is next in line for Player 02's place in the final: they take it, or it stays empty."
    )


def test_the_next_in_line_takes_the_place_is_shown_in_the_standings_and_plays_the_next_round() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, FIELD)
    t.withdraw(2, "train home")
    t.take_place(2)
    assert t.lookup(5)[0].status == "takes Player 02's place in the final"
    assert t.lookup(2)[0].status == "withdrawn"
    assert _finalists(t) == {1, 3, 4, 5}


def test_a_place_left_empty_seats_one_fewer_in_the_next_round() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, FIELD)
    t.withdraw(2)
    assert _finalists(t) == {1, 3, 4}


def test_taking_a_place_is_undone_alone_and_named_in_the_log_and_the_undo() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, FIELD)
    t.withdraw(2)
    t.take_place(2)
    assert Tournament.from_events(t.events) == t
    assert Tournament.from_events(t.events).lookup(5)[0].status == "takes Player 02's place in the final"
    assert t.undo() == "Player 05 as next in line (takes Player 02's place in the final)"
    assert t.lookup(5)[0].status == "out in round 1"
    assert t.vacancy(2) is not None and t.lookup(2)[0].status == "withdrawn"


def test_players_tied_next_in_line_throw_for_the_place_and_equal_faces_throw_again() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, TIED_BELOW)
    t.withdraw(3)
    place = t.vacancy(3)
    assert place is not None and place.tied and place.next_in_line == (5, 6)
    with pytest.raises(IllegalAction, match="Player 05 and Player 06 are tied for Player 03's place: each of them"):
        t.take_place(3)
    with pytest.raises(IllegalAction, match="Player 05 and Player 06 both threw 4: the tied players throw again"):
        t.take_place(3, {5: 4, 6: 4})
    with pytest.raises(InvalidInput, match="7 for player 5 is not a die face"):
        t.take_place(3, {5: 7, 6: 1})
    t.take_place(3, {5: 2, 6: 5})
    assert t.lookup(6)[0].status == "takes Player 03's place in the final"


def test_three_players_tied_next_in_line_who_throw_the_same_face_all_throw_again() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, {**FIELD, 5: 7_000, 6: 7_000, 7: 7_000})
    t.withdraw(3)
    with pytest.raises(IllegalAction, match="Player 05, Player 06 and Player 07 all threw 4: the tied players throw again"):
        t.take_place(3, {5: 4, 6: 4, 7: 4})


def test_the_roll_off_for_one_place_orders_the_tied_players_for_the_next() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, TIED_BELOW)
    t.withdraw(3)
    t.take_place(3, {5: 2, 6: 5})
    t.withdraw(4)
    place = t.vacancy(4)
    assert place is not None and place.next_in_line == (5,)
    t.take_place(4)
    assert _finalists(t) == {1, 2, 5, 6}


def test_a_cut_of_places_per_table_takes_the_next_in_line_from_the_withdrawn_players_table() -> None:
    t = event(8, TWO_ROUNDS)
    t.draw_seats(seed=1)
    tables = t.seating()
    for table, numbers in enumerate(tables, 1):
        t.record_result(table, [10_000, 8_000, 6_000, 4_000], reason="paper score sheet")
    t.close_round()
    withdrawn = tables[1][1]  # second at table 2
    t.withdraw(withdrawn)
    place = t.vacancy(withdrawn)
    assert place is not None and place.next_in_line == (tables[1][2],)  # third at the same table
    t.take_place(withdrawn)
    assert _finalists(t) == {tables[0][0], tables[0][1], tables[1][0], tables[1][2]}


@pytest.mark.parametrize(
    ("setup", "number", "refusal"),
    [
        ("not withdrawn", 2, r"Player 02 \(number 2\) has not withdrawn: their place is theirs"),
        ("out at the cut", 7, r"Player 07 \(number 7\) holds no place after the last cut"),
        ("next round drawn", 2, r"Player 02 \(number 2\) holds no place after the last cut"),
    ],
)
def test_a_place_is_taken_only_from_a_withdrawn_player_who_made_the_last_cut(setup: str, number: int,
                                                                             refusal: str) -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, FIELD)
    if setup == "next round drawn":
        t.withdraw(2)
        t.draw_seats(seed=2)
    with pytest.raises(IllegalAction, match=refusal):
        t.take_place(number)


def test_a_lone_next_in_line_throws_no_roll_off() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, FIELD)
    t.withdraw(2)
    with pytest.raises(IllegalAction, match="Player 05 is next in line alone: there is no roll-off to throw"):
        t.take_place(2, {5: 6})


def test_with_nobody_left_below_the_cut_the_place_stays_empty() -> None:
    t = event(6, TournamentFormat("Four of six", 6, (RoundSpec("house", Cut.overall(4)), RoundSpec("house", Cut.final()))))
    _round_one(t, {1: 10_500, 2: 9_500, 3: 10_200, 4: 8_000, 5: 7_000, 6: 6_000})
    for withdrawn, replacement in ((1, 5), (2, 6)):
        t.withdraw(withdrawn)
        t.take_place(withdrawn)
        assert t.lookup(replacement)[0].status.startswith("takes")
    t.withdraw(3)
    empty = t.vacancy(3)
    assert empty is not None and empty.next_in_line == ()
    with pytest.raises(IllegalAction, match="Nobody below the cut is left to take Player 03's place in the final"):
        t.take_place(3)
    assert _finalists(t) == {4, 5, 6}


@settings(max_examples=30, deadline=None)
@given(totals=st.lists(st.integers(1, 6).map(lambda n: 4_000 + 1_000 * n), min_size=8, max_size=8),
       leaving=st.integers(0, 3))
def test_a_place_taken_keeps_the_number_going_on_and_goes_to_the_best_placed_below_the_cut(
    totals: list[int], leaving: int
) -> None:
    field = {n: total for n, total in enumerate(totals, 1)}
    field[1] = 11_000  # one clear winner, so every table's result is possible
    t = event(8, BEST_FOUR)
    t.draw_seats(seed=1)
    for table, numbers in enumerate(t.seating(), 1):
        best = max(numbers, key=lambda n: (field[n], -n))
        field[best] = max(field[best], 10_000 + 50 * table)
        scores = [field[n] for n in numbers]
        if scores.count(max(scores)) > 1:
            return  # a tied win needs the table's roll-off: not what this checks
        t.record_result(table, scores, reason="paper score sheet")
    if t.pending_roll_offs():
        return  # a tie at the cut itself is test_tournament.py's
    going_on = t.close_round()
    withdrawn = going_on[leaving]
    t.withdraw(withdrawn)
    place = t.vacancy(withdrawn)
    assert place is not None and place.next_in_line
    out = [n for n in range(1, 9) if n not in going_on]
    assert {field[n] for n in place.next_in_line} == {max(field[n] for n in out)}
    t.take_place(withdrawn, {n: 6 - i for i, n in enumerate(place.next_in_line)} if place.tied else None)
    assert len(_finalists(t)) == len(going_on)


def test_a_place_thrown_for_is_logged_with_its_faces_and_a_log_with_an_impossible_face_is_refused() -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, TIED_BELOW)
    t.withdraw(3)
    t.take_place(3, {5: 2, 6: 5})
    assert t.events[-1] == {"type": "place_taken", "round": 1, "withdrawn": 3, "replacement": 6,
                            "roll_off": [[5, 2], [6, 5]]}
    assert Tournament.from_events(t.events) == t
    damaged = t.events[:-1] + [{**t.events[-1], "roll_off": [[5, 2], [6, 7]]}]
    with pytest.raises(InvalidInput, match="roll_off has a die face other than 1 to 6"):
        Tournament.from_events(damaged)
    stranger = t.events[:-1] + [{**t.events[-1], "replacement": 2}]  # already going on
    with pytest.raises(InvalidInput, match="Number 2 cannot take number 3's place after round 1"):
        Tournament.from_events(stranger)


@pytest.mark.parametrize(
    ("withdrawn", "roll_off", "error", "refusal"),
    [
        (99, None, InvalidInput, "There is no player number 99"),
        (3, {5: 4}, IllegalAction, "Player 05 and Player 06 are tied for Player 03's place: each of them, and only "
                                   "them, throws one die"),
        (3, {5: 4, 6: 2, 7: 1}, IllegalAction, "each of them, and only them, throws one die"),
    ],
)
def test_a_throw_for_a_place_names_who_must_throw_and_an_unknown_player_is_refused(
    withdrawn: int, roll_off: dict[int, int] | None, error: type[Exception], refusal: str
) -> None:
    t = event(8, BEST_FOUR)
    _round_one(t, TIED_BELOW)
    t.withdraw(3)
    with pytest.raises(error, match=refusal):
        t.take_place(withdrawn, roll_off)
    assert t.vacancy(3) is not None and t.lookup(5)[0].status == "out in round 1"
