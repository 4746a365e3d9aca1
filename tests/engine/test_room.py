"""Where the room stands (engine/tournament/room.py): each table's status with its time, what must
happen before the round can close, the standings with the cut line, the latest results, the champion."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import Cut, RoundSpec, Tournament, TournamentFormat
from engine.tournament.room import LATEST_RESULTS
from tests.support.tournament_support import TWO_ROUNDS, default_totals, event, play_round, result_code

AT_14_02 = datetime(2026, 5, 2, 14, 2)
BEST_4_OVERALL = TournamentFormat("Best 4", 8, (RoundSpec("house", Cut.overall(4)), RoundSpec("house", Cut.final())))


def test_before_the_draw_the_room_has_no_round_and_says_where_sign_up_stands() -> None:
    room = event(5).room()
    assert (room.round, room.round_name, room.tables, room.to_close, room.cut_line) == (0, "", (), (), None)
    assert room.stage == "Sign-up: 5 signed up, 5 checked in."
    assert [row.name for row in room.standings] == [f"Player {n:02}" for n in range(1, 6)]


def test_every_table_plays_since_the_draw_and_the_round_waits_for_all_of_them() -> None:
    t = event(8, TWO_ROUNDS)
    t.draw_seats(seed=1, at=AT_14_02)
    room = t.room()
    assert [(table.status, table.words, table.since) for table in room.tables] == [
        ("playing", "playing since 14:02", "14:02")] * 2
    assert [table.seats for table in room.tables] == [
        tuple((n, t.player(n).name) for n in seated) for seated in t.seating()]
    assert room.to_close == ("Waiting for the results of tables 1, 2.",)
    assert room.count("playing") == 2 and room.count("reported") == 0


def test_a_counted_result_shows_its_table_reported_with_when_and_by_place() -> None:
    t = event(8, TWO_ROUNDS)
    t.draw_seats(seed=1, at=AT_14_02)
    t.import_result(result_code(t, 2), at=datetime(2026, 5, 2, 14, 41))
    reported = t.room().tables[1]
    assert reported.status == "reported" and reported.at == "14:41"
    assert reported.words == f"reported at 14:41: {t.result_summary(t.results()[2])}"
    assert t.room().to_close == ("Waiting for the result of table 1.",)


def test_a_held_result_holds_its_table_and_the_round_until_the_organizer_chooses() -> None:
    t = event(8, TWO_ROUNDS)
    t.draw_seats(seed=1)
    seated = t.seating()[0]
    t.import_result(result_code(t, 1))
    t.import_result(result_code(t, 1, [10_500] + [600, 700, 800][: len(seated) - 1]))
    room = t.room()
    assert room.tables[0].status == "held"
    assert room.tables[0].words == "held for the organizer (a second, different result)"
    assert "Table 1: a held result waits for the organizer to count it or ask again." in room.to_close


def test_a_tie_across_the_cut_is_a_roll_off_on_the_tables_the_standings_and_before_the_close() -> None:
    t = event(8, BEST_4_OVERALL)
    t.draw_seats(seed=1)
    first, second = t.seating()
    t.record_result(1, [10_000, 6_000, 5_000, 4_000], reason="paper")
    t.record_result(2, [10_500, 7_000, 6_000, 3_000], reason="paper")  # 6,000 twice across the 4th place
    room = t.room()
    tied = {first[1], second[2]}
    assert {row.number for row in room.standings if row.mark == "roll-off"} == tied
    assert {row.number for row in room.standings if row.mark == "going on"} == {first[0], second[0], second[1]}
    assert [table.status for table in room.tables] == ["roll-off", "roll-off"]
    assert len(room.roll_offs) == 1 and "throw for places 4 to 5" in room.roll_offs[0]
    assert room.to_close == (f"Roll-off: {room.roll_offs[0]}.",)
    assert room.cut_line is not None and room.cut_line.after == 3


@pytest.mark.parametrize("closed", [False, True], ids=["every table in", "round closed"])
def test_the_cut_line_stands_under_those_who_go_on(closed: bool) -> None:
    t = event(8, TWO_ROUNDS)
    t.draw_seats(seed=1)
    for table, numbers in enumerate(t.seating(), 1):
        t.record_result(table, default_totals(numbers), reason="paper")
    if closed:
        t.close_round()
    room = t.room()
    assert room.cut_line is not None and room.cut_line.after == 4
    assert room.cut_line.words == "Above the line: the 4 who go on to the final" + (
        "." if closed else " when the round closes.")
    assert [row.mark for row in room.standings] == ["going on"] * 4 + [""] * 4
    assert room.to_close == () and room.round_name == "Round 1"


@pytest.mark.parametrize(("withdrawn", "replaced", "after", "going_on"), [
    (2, True, 5, 4),   # number 5 takes number 2's place: the line moves under number 5
    (4, True, 5, 4),   # the last place above the line: the same
    (2, False, 4, 3),  # nobody takes the place: the line stays, three go on
], ids=["a place above the line", "the last place above the line", "a place left empty"])
def test_after_a_withdrawal_at_the_cut_the_line_stands_under_the_last_one_going_on(
        withdrawn: int, replaced: bool, after: int, going_on: int) -> None:
    t = event(8, BEST_4_OVERALL)
    t.draw_seats(seed=1)
    totals = {1: 10_500, 2: 10_200, 3: 9_000, 4: 8_000, 5: 7_000, 6: 6_000, 7: 5_000, 8: 4_000}
    for table, numbers in enumerate(t.seating(), 1):
        t.record_result(table, [totals[n] for n in numbers], reason="paper")
    t.close_round()
    t.withdraw(withdrawn, "train home")
    if replaced:
        t.take_place(withdrawn)
    room = t.room()
    assert room.cut_line is not None and room.cut_line.after == after
    assert room.cut_line.words == f"Above the line: the {going_on} who go on to the final."
    above = room.standings[:after]
    assert [row.number for row in above if row.mark != "going on"] == [withdrawn]
    assert [row.number for row in room.standings[after:] if row.mark == "going on"] == []


def test_while_a_later_round_is_played_the_line_stands_under_those_still_in() -> None:
    t = event(12)
    play_round(t)
    t.draw_seats(seed=2)
    room = t.room()
    assert room.cut_line is not None and room.cut_line.after == len(t.round_advancing(1) or ())
    assert room.cut_line.words == f"Above the line: the {room.cut_line.after} still in, playing {room.round_name}."


def test_the_final_ends_with_the_champion_and_no_cut_line() -> None:
    t = event(8, TWO_ROUNDS)
    play_round(t)
    play_round(t, seed=2)
    room = t.room()
    assert room.round_name == "Final" and room.champion == t.champion_name and room.cut_line is None
    assert room.stage == f"Champion: {t.champion_name} (number {t.champion})."


def test_the_latest_results_come_newest_first_and_a_held_result_counted_later_goes_on_top() -> None:
    t = event(12)
    t.draw_seats(seed=1)
    t.import_result(result_code(t, 3))
    t.import_result(result_code(t, 1))
    t.import_result(result_code(t, 1, [10_500] + [600, 700, 800][: len(t.seating()[0]) - 1]))
    t.import_result(result_code(t, 2))
    assert [item.table for item in t.room().latest] == [2, 1, 3]
    t.settle_held(1, take=True, reason="the table's sheet agrees")
    assert [item.table for item in t.room().latest] == [1, 2, 3]
    assert t.room().latest[0].summary == t.result_summary(t.results()[1])


def test_the_latest_results_are_cut_to_a_screenful_the_newest_round_first() -> None:
    t = event(40)
    play_round(t)
    t.draw_seats(seed=2)
    for table, numbers in enumerate(t.seating(), 1):
        t.record_result(table, default_totals(numbers), reason="paper")
    latest = t.room().latest
    second = len(t.seating())
    assert len(latest) == LATEST_RESULTS
    assert [(item.round_name, item.table) for item in latest[:second]] == [
        ("Round 2", table) for table in range(second, 0, -1)]
    assert [(item.round_name, item.table) for item in latest[second:]] == [
        ("Round 1", table) for table in range(len(t.seating(1)), 0, -1)][:LATEST_RESULTS - second]


def test_an_old_log_without_times_says_playing_and_reported_without_a_time() -> None:
    t = event(8, TWO_ROUNDS)
    t.draw_seats(seed=1)
    t.import_result(result_code(t, 1))
    old = [{key: value for key, value in entry.items() if key != "at"} for entry in t.events]
    room = Tournament.from_events(old).room()
    assert [(table.words.split(":")[0], table.since, table.at) for table in room.tables] == [
        ("reported", None, None), ("playing", None, None)]


def test_the_stored_old_tournament_log_gives_a_room() -> None:
    fixture = json.loads((Path(__file__).parents[1] / "fixtures" / "tournament_v1.json").read_text(encoding="utf-8"))
    t = Tournament.from_events(fixture["events"])
    room = t.room()
    assert room.champion == t.champion_name and room.round == t.round
    assert all(table.since is None for table in room.tables)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 40), reported=st.integers(0, 10), seed=st.integers(0, 2**16))
def test_every_table_has_one_status_and_the_round_can_close_exactly_when_nothing_is_left_to_do(
        players: int, reported: int, seed: int) -> None:
    t = event(players)
    t.draw_seats(seed=seed)
    for table, numbers in enumerate(t.seating()[:reported], 1):
        t.record_result(table, default_totals(numbers), reason="paper")
    room = t.room()
    assert sum(room.count(status) for status in ("reported", "playing", "held", "roll-off")) == len(t.seating())
    assert room.count("playing") == len(t.missing_tables())
    can_close = not t.missing_tables() and not t.pending_roll_offs() and not t.held_results()
    assert (room.to_close == ()) == can_close
    if room.cut_line is not None:  # nobody has withdrawn here: those above the line are those going on
        assert all(row.mark == "going on" for row in room.standings[:room.cut_line.after])
