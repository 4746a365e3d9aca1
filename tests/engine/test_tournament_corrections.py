"""Results that stay true after a void or a correction: what rested on a corrected result (the
champion, the prize, who goes on, a later round's seating) follows it or is flagged, and undo
and a replay bring back exactly what was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import FarkleError, InvalidInput
from engine.tournament import Tournament
from tests.support.tournament_support import TWO_ROUNDS, default_totals, event, play_round

def final_with_prize(players: int = 4) -> tuple[Tournament, tuple[int, ...]]:
    """An event whose final (its first round, for 4 players) is in and closed, with a $500 split recorded."""
    t = event(players)
    t.draw_seats(seed=3)
    seated = t.seating()[0]
    t.record_result(1, default_totals(seated), reason="paper score sheet")
    t.close_round()
    t.award_prize(500, "$", {seated[0]: 300, seated[1]: 200}, "agreed at the table")
    return t, seated


def pages(t: Tournament) -> dict[str, Any]:
    """What every page reads of the event's end: the champion, the prize, the lines and the flags."""
    return {
        "champion": t.champion,
        "champion_name": t.champion_name,
        "prize": t.prize,
        "state_line": t.state_line(),
        "statuses": [row.status for row in t.standings()],
        "flags": t.flags(),
        "open": t.round_open,
    }


# -- the final and its prize -------------------------------------------------------------------


def test_voiding_the_finals_result_leaves_no_champion_anywhere_and_withdraws_the_prize_until_undone() -> None:
    t, seated = final_with_prize()
    champion = seated[0]
    before = pages(t)
    words = t.void_result(1, 1, "another table's sheet")
    assert t.champion is None and t.champion_name is None and t.prize is None
    assert t.round_open and t.missing_tables() == (1,)
    assert "champion" not in [row.status for row in t.standings()]
    assert words.startswith("The final is open again: it waits for table 1's result, then its champion is crowned again.")
    assert words.endswith(f"The prize recorded with Player {champion:02} (number {champion}) as champion no longer "
                          "stands: record it again on Final & prize.")
    (flag,) = t.flags()
    shares = ", ".join(f"Player {n:02} ${amount}" for n, amount in sorted({champion: 300, seated[1]: 200}.items()))
    assert flag.message.startswith(f"The prize of $500 ({shares}) was "
                                   f"recorded with Player {champion:02} (number {champion}) as champion, before the "
                                   "final's result at table 1 was voided (another table's sheet)")
    assert flag.message.endswith("record it again once the final has its champion.")
    assert t.state_line() == ("Final is being played: waiting for table 1. "
                              "1 flag: recorded before a correction (see Standings).")
    assert t.undo() == "the void of table 1's result in round 1 (another table's sheet)"
    assert pages(t) == before and t.champion == champion and t.prize is not None and t.flags() == ()


def test_a_final_voided_then_entered_again_crowns_its_winner_and_the_prize_is_recorded_again() -> None:
    t, seated = final_with_prize()
    t.void_result(1, 1, "another table's sheet")
    assert t.round_open
    with pytest.raises(FarkleError, match="There is no champion yet"):
        t.award_prize(500)
    reordered = [5_000, 10_500, 4_000, 0]  # the second seat wins this time
    t.record_result(1, reordered, reason="the right sheet")
    t.close_round()
    assert t.champion == seated[1]
    assert t.flags()[0].message.endswith("record it again.")
    prize = t.award_prize(500)
    assert prize.champion == seated[1] and t.flags() == ()


@pytest.mark.parametrize(
    ("totals", "champion_seat", "prize_stands", "words"),
    [
        ([10_000, 9_000, 4_000, 500], 0, True, ""),
        ([9_000, 10_000, 4_000, 500], 1, False, "is the champion now, in place of"),
        ([10_000, 10_000, 4_000, 500], None, False, "The final is open again: record the roll-off"),
    ],
    ids=["the same winner", "another winner", "a tie for the win"],
)
def test_a_replaced_final_result_names_the_champion_its_totals_give(
    totals: list[int], champion_seat: int | None, prize_stands: bool, words: str
) -> None:
    t, seated = final_with_prize()
    said = t.replace_result(1, 1, "the sheet was misread", totals=totals)
    assert t.champion == (None if champion_seat is None else seated[champion_seat])
    assert (t.prize is not None) == prize_stands
    assert t.round_open == (champion_seat is None)
    assert (words in said) if words else said == ""
    assert [row.status == "champion" for row in t.standings()].count(True) == (champion_seat is not None)
    assert Tournament.from_events(t.events).flags() == t.flags()


def test_a_tie_left_by_a_correction_of_the_final_is_rolled_off_and_crowns_its_winner() -> None:
    t, seated = final_with_prize()
    t.replace_result(1, 1, "the sheet was misread", totals=[10_000, 10_000, 4_000, 500])
    assert t.champion is None and t.round_open
    (tie,) = t.pending_roll_offs()
    t.record_roll_off(tie.table, {seated[0]: 2, seated[1]: 5})
    t.close_round()
    assert t.champion == seated[1] and t.state_line().startswith(f"Champion: Player {seated[1]:02}")


# -- a cut nothing was drawn from yet, and one a later round was drawn from --------------------


def test_a_correction_before_the_next_draw_takes_the_cut_again_and_the_next_round_seats_it() -> None:
    t = event(8, TWO_ROUNDS)  # 2 tables of 4, the best 2 of each go on
    advancing = play_round(t, seed=1)
    numbers = t.seating(1)[0]
    gone, came = numbers[1], numbers[3]
    swapped = [10_000 + 50 * numbers[0], 4_000, 4_500, 9_000]
    words = t.replace_result(1, 1, "the sheet was misread", totals=swapped)
    now = t.round_advancing(1) or ()
    assert came in now and gone not in now and set(now) - {came} == set(advancing) - {gone}
    assert t.flags() == ()
    assert words == (f"Round 1's cut is taken again: Player {came:02} (number {came}) goes on instead of "
                     f"Player {gone:02} (number {gone}).")
    t.draw_seats(seed=2)
    assert sorted(n for table in t.seating() for n in table) == sorted(now)


def test_a_void_of_an_earlier_round_after_the_next_was_drawn_is_flagged_and_the_seating_stands() -> None:
    t = event(8, TWO_ROUNDS)
    play_round(t, seed=1)
    t.draw_seats(seed=2)
    seating = t.seating()
    words = t.void_result(1, 2, "wrong rules at that table")
    (flag,) = t.flags()
    assert flag.message == ("Round 1, table 2: result voided after the cut (wrong rules at that table): the round now "
                            "lacks a result, so its cut cannot be checked; round 2's seating was drawn from the cut "
                            "as recorded.")
    assert t.seating() == seating and t.round_open
    assert t.state_line().endswith("1 flag: recorded before a correction (see Standings).")
    assert words == "Round 2 was drawn from round 1's cut as recorded: the correction is flagged (see Standings)."


def test_cancelling_the_draw_after_a_void_of_the_round_before_opens_that_round_for_its_result() -> None:
    t = event(8, TWO_ROUNDS)
    play_round(t, seed=1)
    t.draw_seats(seed=2)
    t.void_result(1, 2, "wrong rules at that table")
    words = t.cancel_draw()
    assert t.round == 1 and t.missing_tables() == (2,) and t.flags() == ()
    assert words == "Round 1 is open again: it waits for table 2's result, then it closes again."
    t.record_result(2, default_totals(t.seating()[1]), reason="replayed under house rules")
    assert len(t.close_round()) == 4
    t.draw_seats(seed=2)
    assert t.round == 2


def test_the_correction_logs_the_cut_it_took_again_so_a_replay_reads_it() -> None:
    t, _ = final_with_prize()
    t.void_result(1, 1, "another table's sheet")
    assert t.events[-1]["type"] == "result_voided" and t.events[-1]["recut"] == []
    replayed = Tournament.from_events(t.events)
    assert pages(replayed) == pages(t)


# -- logs from before ---------------------------------------------------------------------------


def test_a_log_from_before_with_a_void_after_the_final_opens_with_no_champion_and_the_void_flagged() -> None:
    t, seated = final_with_prize()
    t.void_result(1, 1, "another table's sheet")
    old = [{key: value for key, value in entry.items() if key != "recut"} for entry in t.events]
    replayed = Tournament.from_events(old)
    assert replayed.events == old
    assert replayed.champion is None and replayed.champion_name is None and replayed.prize is None
    assert not replayed.round_open
    void, prize = replayed.flags()
    assert void.message == ("Round 1, table 1: result voided after the cut (another table's sheet): the round now "
                            "lacks a result, so its cut cannot be checked.")
    assert prize.message.startswith("The prize of $500 (") and f"Player {seated[0]:02} $300" in prize.message


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda entry: {**entry, "recut": [99]}, "who was not seated in it"),
        (lambda entry: {**entry, "recut": [0]}, "recut names a player number below 1 or twice"),
        (lambda entry: {**entry, "recut": "x"}, "recut is"),
    ],
    ids=["a stranger", "number 0", "not a list"],
)
def test_a_log_whose_cut_taken_again_no_action_records_is_refused_as_damaged(
    change: Callable[[dict[str, Any]], dict[str, Any]], refusal: str
) -> None:
    t, _ = final_with_prize()
    t.void_result(1, 1, "another table's sheet")
    events = t.events[:-1] + [change(t.events[-1])]
    with pytest.raises(InvalidInput, match=refusal):
        Tournament.from_events(events)


def test_a_log_taking_the_cut_again_of_a_round_still_open_is_refused_as_damaged() -> None:
    t = event(4)
    t.draw_seats(seed=3)
    t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")
    t.void_result(1, 1, "wrong sheet")
    events = t.events[:-1] + [{**t.events[-1], "recut": []}]
    with pytest.raises(InvalidInput, match="only a closed round drawn last has"):
        Tournament.from_events(events)


# -- whatever is corrected, the champion is the final's winner -----------------------------------


CORRECTIONS = st.lists(
    st.tuples(st.sampled_from(["void", "replace", "enter", "roll-off", "close", "undo"]),
              st.integers(0, 3), st.integers(0, 3)),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(CORRECTIONS)
def test_whatever_is_corrected_the_champion_is_the_finals_winner_and_the_prize_goes_with_them(steps: list[Any]) -> None:
    t, _ = final_with_prize()
    drawn = len(t) - 3  # the final's result, its close and the prize came after its draw
    for action, seat, other in steps:
        try:
            act(t, action, seat, other, drawn)
        except FarkleError:
            pass
        result = t.results(1).get(1)
        if t.champion is not None:
            assert not t.round_open and result is not None
            assert t.champion in {n for n, place in zip(result.numbers, result.places) if place == 1}
        assert t.prize is None or t.prize.champion == t.champion
        assert pages(Tournament.from_events(t.events)) == pages(t)


def act(t: Tournament, action: str, seat: int, other: int, drawn: int) -> None:
    """One organizer action on the final: ``seat`` wins (tied with ``other`` when they differ)."""
    numbers = t.seating(1)[0]
    totals = [4_000] * 4
    totals[seat] = 10_000
    totals[other] = 10_000 if other != seat else 10_500
    if action == "void":
        t.void_result(1, 1, "wrong sheet")
    elif action == "replace":
        t.replace_result(1, 1, "misread", totals=totals)
    elif action == "enter":
        t.record_result(1, totals, reason="paper")
    elif action == "roll-off":
        t.record_roll_off(1, {numbers[seat]: 2, numbers[other]: 5})
    elif action == "close":
        t.close_round()
    elif len(t) > drawn:
        t.undo()
