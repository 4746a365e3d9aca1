"""The tournament's results: codes from the tables and totals typed from paper, checked before
they count, and corrections (a result voided or replaced, with its reason)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from engine import IllegalAction, InvalidInput, Rules
from engine.codec import (
    CodeAltered,
    CodeDamaged,
    ResultImpossible,
    TableResult,
    encode_result,
    places_from,
    safe_form,
    table_key,
    typing_form,
)
from engine.tournament import (
    RevokedCard,
    Tournament,
    TournamentFormat,
    WrongEvent,
    WrongPlayers,
    WrongRound,
    WrongTable,
)
from tests.support.tournament_support import SECRET, TWO_ROUNDS, default_totals, event, play_round, result_code


# -- results entered and imported --------------------------------------------------------------


def test_a_result_code_from_the_table_is_counted() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    report = t.import_result(result_code(t, 1))
    assert report.status == "accepted" and "result counted" in report.message
    assert t.missing_tables() == (2,)


def test_the_finals_result_is_reported_as_the_finals_and_a_round_before_it_by_its_number() -> None:
    t = event(8, TWO_ROUNDS)
    t.draw_seats(seed=1)
    first = result_code(t, 1)
    assert t.import_result(first).message.startswith("Round 1, table 1: result counted")
    assert t.import_result(first).message == "Round 1, table 1: this result is already counted (duplicate)."
    t.record_result(2, default_totals(t.seating()[1]), reason="paper score sheet")
    t.close_round()
    t.draw_seats(seed=2)
    final = result_code(t, 1)
    assert t.import_result(final).message.startswith("Final, table 1: result counted")
    assert t.import_result(final).message == "Final, table 1: this result is already counted (duplicate)."
    held = t.import_result(result_code(t, 1, [10_500, 600, 700, 800]))
    assert held.message.startswith("Final, table 1 already has a different result")


def test_the_same_result_twice_is_counted_once_and_reported_as_a_duplicate() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    code = result_code(t, 1)
    t.import_result(code)
    events = len(t.events)
    for form in (code, safe_form(code), typing_form(code).lower()):
        report = t.import_result(form)
        assert report.status == "duplicate" and "duplicate" in report.message
    assert len(t.events) == events


def test_a_different_result_for_a_table_with_one_is_held_and_blocks_the_round() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    seated = t.seating()[0]
    t.import_result(result_code(t, 1))
    report = t.import_result(result_code(t, 1, [10_500, 600, 700]))
    assert report.status == "held" and "held for the organizer to choose" in report.message
    assert t.results()[1].totals == tuple(default_totals(seated))
    assert t.import_result(result_code(t, 1, [10_500, 600, 700])).status == "duplicate"
    t.record_result(2, default_totals(t.seating()[1]), reason="paper score sheet")
    with pytest.raises(IllegalAction, match="held results for table 1: choose which counts first"):
        t.close_round()
    t.settle_held(1, take=True, reason="the table confirmed the second game")
    assert t.results()[1].totals == (10_500, 600, 700)
    assert t.corrections()[0].kind == "held result taken"
    t.close_round()


def test_a_result_from_another_event_is_refused() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    other = Tournament("Other", event_id="OTHER-1", secret=SECRET)
    result = TableResult("OTHER-1", 1, 1, t.seating()[0], (10_000, 600, 700), (1, 3, 2), (), Rules(), bytes(16))
    with pytest.raises(WrongEvent, match="from event OTHER-1, not this one"):
        t.import_result(encode_result(result, table_key(SECRET, other.event_id, 1, 1)))


def test_a_result_signed_with_the_wrong_key_is_refused_as_altered() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    with pytest.raises(CodeAltered, match="does not carry that table's signature"):
        t.import_result(result_code(t, 1, key=t.card_key(2)))


def test_a_damaged_result_is_refused() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    code = result_code(t, 1)
    with pytest.raises(CodeDamaged):
        t.import_result(code[:-3])


def test_a_result_of_a_closed_round_is_refused_as_another_round_unless_it_is_the_counted_one() -> None:
    t = event(10)
    t.draw_seats(seed=1)
    counted = result_code(t, 1)
    late = result_code(t, 1, [10_500, 600, 650, 700])
    for code in (counted, result_code(t, 2), result_code(t, 3)):
        t.import_result(code)
    t.close_round()
    t.draw_seats(seed=2)
    assert t.import_result(counted).status == "duplicate"
    with pytest.raises(WrongRound, match="round 1, table 1, which is closed"):
        t.import_result(late)


def test_a_result_for_a_round_not_drawn_is_refused() -> None:
    t = event(10)
    t.draw_seats(seed=1)
    with pytest.raises(WrongRound, match="round 2, which has not been drawn"):
        t.import_result(result_code(t, 1, round_=2, numbers=t.seating()[0], rules=Rules.preset("progressive"), key=bytes(16)))


def test_a_result_for_a_table_the_round_lacks_is_refused() -> None:
    t = event(10)
    t.draw_seats(seed=1)
    with pytest.raises(WrongTable, match="for table 4, but round 1 has 3 tables"):
        t.import_result(result_code(t, 4, numbers=t.seating()[0]))


def test_a_result_from_an_old_setup_code_after_a_redraw_is_refused_as_a_cancelled_draws_card() -> None:
    t = event(10)
    old_table = t.draw_seats(seed=1)[0]
    old = result_code(t, 1)
    t.cancel_draw()
    t.draw_seats(seed=99)
    assert t.seating()[0] != old_table
    with pytest.raises(RevokedCard, match="signed by a card from a cancelled seat draw of round 1: it does not count"):
        t.import_result(old)


def test_a_result_naming_players_not_seated_at_its_table_asks_whether_an_old_setup_code_was_used() -> None:
    t = event(10)
    t.draw_seats(seed=1)
    strangers = t.seating()[1]
    with pytest.raises(WrongPlayers, match="Round 1, table 1 seats .*Was it played from an old setup code"):
        t.import_result(result_code(t, 1, numbers=strangers))


def test_a_result_in_another_seat_order_is_refused() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    seated = t.seating()[0]
    with pytest.raises(WrongPlayers, match="the seat order differs"):
        t.import_result(result_code(t, 1, numbers=tuple(reversed(seated))))


def test_a_result_under_other_rules_is_refused() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    with pytest.raises(ResultImpossible, match="was played under other rules"):
        t.import_result(result_code(t, 1, rules=Rules.preset("official")))


def test_an_impossible_result_is_refused_even_when_signed() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    with pytest.raises(ResultImpossible, match="below the target of 10,000, so the game is not over"):
        t.import_result(result_code(t, 1, [9_000, 600, 700]))


def test_a_hand_entered_result_needs_a_total_per_seat() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    with pytest.raises(InvalidInput, match="enter 3 totals, not 2"):
        t.record_result(1, [10_000, 600], reason="paper score sheet")


def test_a_hand_entered_result_for_a_table_with_one_is_refused() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")
    with pytest.raises(IllegalAction, match="already has a result: replace it with a reason"):
        t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")


def test_a_paper_result_is_checked_like_a_code_and_kept_as_entered_by_hand_with_its_reason() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    numbers = t.seating()[0]
    with pytest.raises(ResultImpossible, match="not a multiple of 50"):
        t.record_result(1, [10_000, 620, 0], reason="device lost")
    with pytest.raises(ResultImpossible, match="below the target of 10,000"):
        t.record_result(1, [9_000, 600, 0], reason="device lost")
    with pytest.raises(ResultImpossible, match="a first bank needs 500"):
        t.record_result(1, [10_000, 300, 0], reason="device lost")
    with pytest.raises(WrongTable, match="has tables 1 to 2, not 3"):
        t.record_result(3, [10_000, 600, 0], reason="device lost")
    events = len(t.events)
    result = t.record_result(1, [10_000, 600, 7_000], reason="  the tablet's  battery died ")
    assert len(t.events) == events + 1 and result.places == (1, 3, 2) and result.numbers == numbers
    assert t.result_source(1, 1) == ("entered", "the tablet's battery died")
    t.import_result(result_code(t, 2))
    assert t.result_source(1, 2) == ("code", "")
    rows = list(csv.reader(io.StringIO(t.results_csv())))
    assert rows[0][-3:] == ["Source", "Status", "Reason"]
    assert [row[7:] for row in rows[1:4]] == [["entered", "counted", "the tablet's battery died"]] * 3
    assert rows[4][7:] == ["code", "counted", ""]
    again = Tournament.from_events(json.loads(json.dumps(t.events)))
    assert again == t and again.result_source(1, 1) == ("entered", "the tablet's battery died")


def test_a_log_written_before_results_kept_a_reason_still_replays() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")
    log = t.events
    assert log[-1]["reason"] == "paper score sheet"
    del log[-1]["reason"]
    again = Tournament.from_events(log)
    assert again.results() == t.results() and again.result_source(1, 1) == ("entered", "")


def test_the_format_can_change_until_round_1_is_drawn_and_the_change_is_replayed() -> None:
    t = event(6)
    assert t.change_format(TWO_ROUNDS) is True
    assert t.format == TWO_ROUNDS and t.events[-1]["type"] == "format_changed"
    assert [p.describe() for p in t.plan()] == [
        "Round 1: 6 players, 2 tables of 3, house rules; places 1 to 2 of each table go on.",
        "Final: 4 players, 1 table of 4, house rules; the winner is the champion.",
    ]
    assert t.change_format(TWO_ROUNDS) is False  # the same format: nothing recorded
    assert t.events[-1]["type"] == "format_changed" and len([e for e in t.events if e["type"] == "format_changed"]) == 1
    again = Tournament.from_events(json.loads(json.dumps(t.events)))
    assert again == t and again.format == TWO_ROUNDS
    t.undo()
    assert t.format == TournamentFormat.house()
    t.change_format(TWO_ROUNDS)
    t.draw_seats(seed=1)
    with pytest.raises(IllegalAction, match="Round 1 is drawn: the format is fixed"):
        t.change_format(TournamentFormat.house())
    assert t.format == TWO_ROUNDS


def test_a_format_whose_cap_is_below_the_sign_ups_is_refused_and_changes_nothing() -> None:
    t = event(10)
    events = t.events
    with pytest.raises(IllegalAction, match="10 players are signed up: a cap of 8 would leave 2 without a seat"):
        t.change_format(TWO_ROUNDS)
    assert t.events == events and t.format == TournamentFormat.house()


def test_a_log_changing_the_format_after_a_draw_is_refused_as_damaged() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    log = t.events + [{"type": "format_changed", "format": TWO_ROUNDS.to_dict()}]
    with pytest.raises(InvalidInput, match="changes the format after a draw"):
        Tournament.from_events(log)


def test_a_round_waits_for_every_table() -> None:
    t = event(10)
    t.draw_seats(seed=1)
    t.record_result(2, default_totals(t.seating()[1]), reason="paper score sheet")
    with pytest.raises(IllegalAction, match="waits for the results of tables 1, 3"):
        t.close_round()


# -- corrections -------------------------------------------------------------------------------


def test_a_correction_needs_a_reason() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")
    with pytest.raises(InvalidInput, match="Give a reason"):
        t.void_result(1, 1, " ")


def test_voiding_a_result_before_the_cut_reopens_the_table_and_keeps_the_reason() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet")
    t.void_result(1, 1, "scores were swapped")
    assert t.missing_tables() == (1, 2)
    assert [(c.kind, c.reason, c.after_close) for c in t.corrections()] == [("voided", "scores were swapped", False)]
    assert t.flags() == ()


def test_a_result_corrected_after_the_cut_flags_the_cut_and_the_next_seating_without_rewriting_them() -> None:
    t = event(10)
    advancing = play_round(t, seed=1)
    t.draw_seats(seed=2)
    seating = t.seating()
    loser_table = next(i for i, table in enumerate(t.seating(1), 1) if any(n not in advancing for n in table))
    numbers = t.seating(1)[loser_table - 1]
    boosted = [10_000 + 50 * numbers[0]] + [9_950] * (len(numbers) - 1)
    t.replace_result(1, loser_table, "the sheet was misread", totals=boosted)
    (flag,) = t.flags()
    assert "result replaced after the cut (the sheet was misread): the cut would now differ" in flag.message
    assert "round 2's seating was drawn from the cut as recorded" in flag.message
    assert t.round_advancing(1) == advancing and t.seating() == seating
    t.void_result(1, loser_table, "table played the wrong rules")
    assert "now lacks a result" in t.flags()[-1].message


def test_replacing_with_a_code_for_another_table_is_refused() -> None:
    t = event(10)
    play_round(t, seed=1)
    with pytest.raises(WrongTable, match="That code is for round 1, table 2, not round 1, table 1"):
        t.replace_result(1, 1, "rescanned", code=result_code(t, 2, round_=1))


@pytest.mark.parametrize("reason", ["", "   ", "\n\t"])
def test_a_paper_result_without_a_reason_is_refused_in_words_and_changes_nothing(reason: str) -> None:
    t = event(6)
    t.draw_seats(seed=1)
    events = len(t.events)
    with pytest.raises(InvalidInput, match=r"Give a reason: a result entered by hand is kept with why \(device lost"):
        t.record_result(1, default_totals(t.seating()[0]), reason=reason)
    assert len(t.events) == events and t.missing_tables() == (1, 2)


def declined_code(t: Tournament, table: int, answers: tuple[bool | None, ...]) -> str:
    """Table ``table``'s default result as its device signs it once each player answered ``answers``."""
    setup = t.setup(table)
    totals = tuple(default_totals(setup.numbers))
    result = TableResult(t.event_id, t.round, table, setup.numbers, totals, places_from(totals, ()), (),
                         setup.rules, bytes(16), answers)
    return encode_result(result, setup.key)


def test_a_result_a_player_declined_to_confirm_is_held_for_the_organizer_not_counted() -> None:
    t = event(6)
    t.draw_seats(seed=1)
    names = [t.player(n).name for n in t.seating()[0]]
    code = declined_code(t, 1, (True, False, True))
    report = t.import_result(code)
    assert (report.status, report.message) == ("held", (
        f"Round 1, table 1: result confirmed by 2 of 3 · {names[1]} declined, so it is held for the organizer: "
        f"count it, or ask the table to confirm again ({t.result_summary(t.held_results()[0][2])})."))
    assert 1 not in t.results() and t.missing_tables() == (1, 2)
    assert [(r, table, counted) for r, table, _, counted in t.held_results()] == [(1, 1, None)]
    assert t.import_result(code).status == "duplicate"
    t.record_result(2, default_totals(t.seating()[1]), reason="paper score sheet")
    with pytest.raises(IllegalAction, match="held results for table 1: choose which counts first"):
        t.close_round()


@pytest.mark.parametrize(("take", "counted", "undone"), [
    (True, True, "the choice for table 1 in round 1 (the held result counted)"),
    (False, False, "the choice for table 1 in round 1 (the table asked again)"),
])
def test_the_organizer_counts_a_declined_result_or_asks_the_table_again_and_either_is_undone(
        take: bool, counted: bool, undone: str) -> None:
    t = event(6)
    t.draw_seats(seed=1)
    t.import_result(declined_code(t, 1, (True, True, False)))
    t.settle_held(1, take=take, reason="the table talked it over")
    assert (1 in t.results()) is counted and t.held_results() == ()
    assert t.undo() == undone
    assert 1 not in t.results() and len(t.held_results()) == 1


@pytest.mark.parametrize("answers", [(True, True, True), (True, None, True)])
def test_a_result_no_player_declined_is_counted_at_once(answers: tuple[bool | None, ...]) -> None:
    t = event(6)
    t.draw_seats(seed=1)
    assert t.import_result(declined_code(t, 1, answers)).status == "accepted"
    assert 1 in t.results() and t.held_results() == ()
