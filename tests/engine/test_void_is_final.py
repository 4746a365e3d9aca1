"""A voided result stays void whatever its card signs again (issue 16).

The rule chosen is a director's result lock: once a table's counted result is voided, the
card that signed it signs nothing more that counts for that round. The table's result
then comes from the organizer (a paper result, or a replacement with a reason) or from a
new card: revoke the old one, print the new one, and the new card's result counts.
"""

from __future__ import annotations

import pytest

from engine import Tournament, VoidedResult, encode_result
from engine.codec import TableResult, places_from

TOTALS = (10_050, 6_500, 3_000, 0)


def event_of_eight() -> Tournament:
    t = Tournament("Harbour open", event_id="HARBOUR-1", secret=b"harbour-open-2026")
    for n in range(1, 9):
        t.check_in(t.sign_up(f"Player {n}"))
    t.draw_seats(11)
    return t


def result_code(t: Tournament, table: int, totals: tuple[int, ...] = TOTALS,
                confirmations: tuple[bool | None, ...] | None = (True, True, True, True)) -> str:
    """Table ``table``'s result, signed with its current card's key."""
    setup = t.setup(table)
    result = TableResult(t.event_id, t.round, table, setup.numbers, totals, places_from(totals, ()), (),
                         setup.rules, bytes(16), confirmations)
    return encode_result(result, setup.key)


def voided_table_one() -> Tournament:
    t = event_of_eight()
    assert t.import_result(result_code(t, 1)).status == "accepted"
    t.void_result(1, 1, "scored under the wrong table's card")
    return t


@pytest.mark.parametrize("confirmations", [(True, True, True, False), (True, None, None, None), None])
def test_the_voided_result_re_signed_with_other_confirmations_is_refused_as_voided(confirmations):
    t = voided_table_one()
    with pytest.raises(VoidedResult, match="this card's result was voided at .* for: scored under the wrong table's "
                                           "card, and a void is final whatever the card signs again"):
        t.import_result(result_code(t, 1, confirmations=confirmations))
    assert 1 not in t.results()
    assert t.events[-1]["type"] == "result_voided"


def test_other_totals_signed_by_the_same_card_after_the_void_are_refused_too():
    t = voided_table_one()
    with pytest.raises(VoidedResult, match="Enter the table's paper result, or revoke its card"):
        t.import_result(result_code(t, 1, totals=(10_000, 7_000, 3_000, 500)))


def test_the_voided_result_itself_is_still_refused_with_when_and_why():
    t = voided_table_one()
    with pytest.raises(VoidedResult, match="this result was voided at .* It stays void"):
        t.import_result(result_code(t, 1))


def test_after_a_void_the_organizer_may_enter_the_paper_result_and_the_old_card_stays_void():
    t = voided_table_one()
    t.record_result(1, (10_000, 2_000, 1_000, 500), reason="paper score sheet")
    assert t.result_source(1, 1) == ("entered", "paper score sheet")
    with pytest.raises(VoidedResult):
        t.import_result(result_code(t, 1, confirmations=(True, True, False, True)))


def test_a_new_card_printed_after_the_void_signs_a_result_that_counts():
    t = voided_table_one()
    t.revoke_card(1, "the table replays its game on a new card")
    assert t.import_result(result_code(t, 1, totals=(10_000, 7_000, 3_000, 500))).status == "accepted"


def test_a_voided_paper_result_does_not_lock_the_tables_card():
    t = event_of_eight()
    t.record_result(1, (10_000, 2_000, 1_000, 500), reason="typed before the phone came")
    t.void_result(1, 1, "typo")
    assert t.import_result(result_code(t, 1)).status == "accepted"


def test_a_log_from_before_the_rule_still_replays_a_result_counted_again_after_its_void():
    t = voided_table_one()
    recorded = t.events[-2]
    assert recorded["type"] == "result_recorded"
    counted_again = {**recorded, "code": result_code(t, 1, confirmations=(True, True, True, False)),
                     "result": {**recorded["result"], "confirmations": [True, True, True, False]}}
    replayed = Tournament.from_events([*t.events, counted_again])  # what an older engine allowed and logged
    assert replayed.results()[1].confirmations == (True, True, True, False)
