"""A table's result and where the event stands, each in the one line the organizer's screens show."""

from __future__ import annotations

from tests.support.tournament_support import default_totals, event, play_round


def test_the_event_says_where_it_stands_in_one_line_from_sign_up_to_its_champion() -> None:
    t = event(6, checked_in=False)
    t.check_in(1)
    assert t.state_line() == "Sign-up: 6 signed up, 1 checked in."
    for number in range(2, 7):
        t.check_in(number)
    t.draw_seats(seed=1)
    assert t.state_line() == "Round 1 is being played: waiting for tables 1, 2."
    t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")
    assert t.state_line() == "Round 1 is being played: waiting for table 2."
    t.record_result(2, default_totals(t.seating()[1]), reason="paper score sheet")
    assert t.state_line() == "Round 1 is being played: every table has a result."
    t.close_round()
    assert t.state_line() == "Round 1 is closed: draw the next round."
    play_round(t)
    winner = t.seating()[0][0]  # the first seat wins with default totals
    assert t.state_line() == f"Champion: Player {winner:02} (number {winner})."


def test_a_table_result_reads_in_one_line_by_place_with_its_totals() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    first, second, third = t.seating()[0]
    result = t.record_result(1, [7_500, 10_050, 4_000], reason="paper score sheet")
    assert t.result_summary(result) == (
        f"1. Player {second:02} 10,050, 2. Player {first:02} 7,500, 3. Player {third:02} 4,000"
    )
