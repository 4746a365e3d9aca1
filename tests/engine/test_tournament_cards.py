"""Table cards and the keys they sign with: bound to their draw, revocable, and voids that stay void."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import pytest

from engine import IllegalAction, InvalidInput
from engine.codec import CodeAltered, TableResult, decode_setup, encode_result, places_from, table_key
from engine.tournament import RevokedCard, Tournament, VoidedResult, WrongTable

SECRET = bytes(range(16))
AT_14_02 = datetime(2026, 12, 1, 14, 2)


def event(players: int = 10) -> Tournament:
    t = Tournament("Mayor House Farkle", event_id="MAYOR-26", secret=SECRET)
    for index in range(players):
        t.check_in(t.sign_up(f"Player {index + 1:02}"))
    return t


def signed(t: Tournament, table: int, key: bytes, numbers: Sequence[int] | None = None, bonus: int = 0) -> str:
    """A finished table's result code, signed with ``key`` (the first seat wins)."""
    seated = tuple(numbers) if numbers is not None else t.seating()[table - 1]
    totals = tuple(10_000 + bonus if seat == 0 else 5_000 + 50 * n for seat, n in enumerate(seated))
    result = TableResult(t.event_id, t.round, table, seated, totals, places_from(totals, ()), (), t.rules_for(), bytes(16))
    return encode_result(result, key)


def old_log(t: Tournament) -> list[dict[str, Any]]:
    """``t``'s log as an engine from before key scheme 2 wrote it: draws without scheme or id."""
    return [
        {k: v for k, v in entry.items() if k not in ("keys", "draw")} if entry["type"] == "seats_drawn" else entry
        for entry in t.events
    ]


# -- keys bound to their draw --------------------------------------------------------------------


def test_each_seat_draw_records_its_key_scheme_and_an_id_of_its_own() -> None:
    t = event()
    t.draw_seats(seed=1)
    t.cancel_draw()
    t.draw_seats(seed=1)
    first, second = (entry for entry in t.events if entry["type"] == "seats_drawn")
    assert first["keys"] == second["keys"] == 2
    assert first["draw"] != second["draw"]
    assert first["tables"] == second["tables"], "the same seed seats the same tables"


def test_the_same_table_of_two_draws_of_a_round_signs_with_different_keys() -> None:
    t = event()
    t.draw_seats(seed=1)
    before = t.card_key(1)
    t.cancel_draw()
    t.draw_seats(seed=1)
    assert t.card_key(1) != before
    assert decode_setup(t.setup_code(1)).key == t.card_key(1)


def test_a_card_from_a_cancelled_seat_draw_is_refused_saying_so_even_with_the_same_seating() -> None:
    t = event()
    t.draw_seats(seed=1)
    stale = signed(t, 1, t.card_key(1))
    t.cancel_draw()
    t.draw_seats(seed=1)
    with pytest.raises(RevokedCard, match=r"^This result was signed by a card from a cancelled seat draw of round 1: "):
        t.import_result(stale)
    assert t.missing_tables() == (1, 2, 3)


def test_a_card_from_a_cancelled_draw_is_refused_while_its_round_waits_for_a_new_draw() -> None:
    t = event()
    t.draw_seats(seed=1)
    stale = signed(t, 2, t.card_key(2))
    t.cancel_draw()
    with pytest.raises(RevokedCard, match="card from a cancelled seat draw of round 1"):
        t.import_result(stale)


def test_a_card_of_the_current_draw_still_counts_after_a_cancelled_one() -> None:
    t = event()
    t.draw_seats(seed=1)
    t.cancel_draw()
    t.draw_seats(seed=2)
    assert t.import_result(signed(t, 1, t.card_key(1))).status == "accepted"


def test_an_old_logs_draw_keeps_the_key_its_cards_were_printed_with() -> None:
    t = event()
    t.draw_seats(seed=1)
    old = Tournament.from_events(old_log(t))
    assert old.events == old_log(t), "an old log is written back as it was read"
    assert old.card_key(1) == table_key(SECRET, "MAYOR-26", 1, 1) == old.setup(1).key
    assert old.import_result(signed(old, 1, table_key(SECRET, "MAYOR-26", 1, 1))).status == "accepted"


def test_an_old_drawn_again_round_refuses_the_old_card_for_its_players_as_it_always_did() -> None:
    t = event()
    first = t.draw_seats(seed=1)
    t.cancel_draw()
    t.draw_seats(seed=99)
    old = Tournament.from_events(old_log(t))
    with pytest.raises(IllegalAction, match="Was it played from an old setup code"):
        old.import_result(signed(old, 1, table_key(SECRET, "MAYOR-26", 1, 1), numbers=first[0]))


def test_an_old_draw_cancelled_today_and_drawn_again_refuses_its_cards() -> None:
    t = event()
    t.draw_seats(seed=1)
    old = Tournament.from_events(old_log(t))
    stale = signed(old, 1, old.card_key(1))
    old.cancel_draw()
    old.draw_seats(seed=1)
    with pytest.raises(RevokedCard, match="card from a cancelled seat draw of round 1"):
        old.import_result(stale)


# -- revoking a card --------------------------------------------------------------------------------


def test_a_revoked_card_is_refused_with_the_table_and_the_new_card_is_accepted() -> None:
    t = event()
    t.draw_seats(seed=1)
    lost = signed(t, 3, t.card_key(3))
    assert t.revoke_card(3, "phone lost", at=AT_14_02) == 1
    with pytest.raises(RevokedCard, match=r"signed by a revoked card of table 3 \(revoked at 14:02 for: phone lost\)"):
        t.import_result(lost)
    new = decode_setup(t.setup_code(3))
    assert new.key == t.card_key(3) != table_key(SECRET, "MAYOR-26", 1, 3)
    assert t.import_result(signed(t, 3, new.key)).status == "accepted"


def test_a_card_revoked_twice_refuses_both_old_cards() -> None:
    t = event()
    t.draw_seats(seed=1)
    first = signed(t, 1, t.card_key(1))
    t.revoke_card(1, "phone lost", at=AT_14_02)
    second = signed(t, 1, t.card_key(1))
    t.revoke_card(1, "battery dead", at=datetime(2026, 12, 1, 14, 30))
    assert t.card_issue(1) == 2
    with pytest.raises(RevokedCard, match=r"revoked at 14:02 for: phone lost"):
        t.import_result(first)
    with pytest.raises(RevokedCard, match=r"revoked at 14:30 for: battery dead"):
        t.import_result(second)
    assert [r.reason for r in t.revocations(1)] == ["phone lost", "battery dead"]


def test_revoking_one_card_leaves_the_other_tables_cards_as_they_were() -> None:
    t = event()
    t.draw_seats(seed=1)
    keys = [t.card_key(table) for table in (1, 2, 3)]
    t.revoke_card(2, "phone lost")
    assert [t.card_key(table) for table in (1, 2, 3)] == [keys[0], t.card_key(2), keys[2]]
    assert t.card_key(2) != keys[1]


def test_a_result_counted_before_its_card_was_revoked_stays_counted() -> None:
    t = event()
    t.draw_seats(seed=1)
    t.import_result(signed(t, 1, t.card_key(1)))
    t.revoke_card(1, "phone stolen after the game")
    assert 1 in t.results()


def test_revoking_needs_a_reason() -> None:
    t = event()
    t.draw_seats(seed=1)
    with pytest.raises(InvalidInput, match="Give a reason"):
        t.revoke_card(1, "  ")
    assert t.card_issue(1) == 0


def test_revoking_a_table_the_round_lacks_is_refused() -> None:
    t = event()
    t.draw_seats(seed=1)
    with pytest.raises(WrongTable, match="Round 1 has tables 1 to 3, not 4"):
        t.revoke_card(4, "phone lost")


def test_revoking_needs_a_round_being_played() -> None:
    t = event()
    with pytest.raises(IllegalAction, match="No round is being played now"):
        t.revoke_card(1, "phone lost")


def test_a_revocation_replays_from_the_log_and_undo_gives_the_old_card_back() -> None:
    t = event()
    t.draw_seats(seed=1)
    old_key = t.card_key(2)
    t.revoke_card(2, "phone lost", at=AT_14_02)
    assert t.events[-1]["type"] == "card_revoked" and t.events[-1]["at"].startswith("2026-12-01T14:02:00")
    again = Tournament.from_events(t.events)
    assert again.card_key(2) == t.card_key(2) and again == t
    t.undo()
    assert t.card_key(2) == old_key


def test_a_revoked_card_of_an_old_draw_is_refused_and_its_new_card_works() -> None:
    t = event()
    t.draw_seats(seed=1)
    old = Tournament.from_events(old_log(t))
    lost = signed(old, 1, table_key(SECRET, "MAYOR-26", 1, 1))
    old.revoke_card(1, "phone lost", at=AT_14_02)
    with pytest.raises(RevokedCard, match="revoked card of table 1"):
        old.import_result(lost)
    assert old.import_result(signed(old, 1, old.setup(1).key)).status == "accepted"


def test_a_card_revoked_in_a_cancelled_draw_is_refused_as_the_cancelled_draws() -> None:
    t = event()
    t.draw_seats(seed=1)
    t.revoke_card(1, "phone lost")
    reissued = signed(t, 1, t.card_key(1))
    t.cancel_draw()
    t.draw_seats(seed=2)
    with pytest.raises(RevokedCard, match="card from a cancelled seat draw of round 1"):
        t.import_result(reissued)


def test_a_forged_code_is_still_refused_as_altered() -> None:
    t = event()
    t.draw_seats(seed=1)
    t.revoke_card(1, "phone lost")
    with pytest.raises(CodeAltered, match="does not carry that table's signature"):
        t.import_result(signed(t, 1, bytes(16)))


# -- voids stay void --------------------------------------------------------------------------------


def test_a_voided_result_scanned_again_is_refused_with_when_and_why() -> None:
    t = event()
    t.draw_seats(seed=1)
    code = signed(t, 1, t.card_key(1))
    t.import_result(code)
    t.void_result(1, 1, "wrong table", at=AT_14_02)
    with pytest.raises(VoidedResult, match=r"Round 1, table 1: this result was voided at 14:02 for: wrong table\."):
        t.import_result(code)
    assert t.missing_tables() == (1, 2, 3)


def test_a_void_keeps_its_time_in_the_log() -> None:
    t = event()
    t.draw_seats(seed=1)
    t.import_result(signed(t, 1, t.card_key(1)))
    t.void_result(1, 1, "wrong table", at=AT_14_02)
    assert t.events[-1]["at"].startswith("2026-12-01T14:02:00")
    assert Tournament.from_events(t.events) == t


def test_a_void_from_an_old_log_without_a_time_still_refuses_the_rescan_with_its_reason() -> None:
    t = event()
    t.draw_seats(seed=1)
    code = signed(t, 1, t.card_key(1))
    t.import_result(code)
    t.void_result(1, 1, "wrong table")
    log = t.events
    del log[-1]["at"]
    old = Tournament.from_events(log)
    assert old.events == log
    with pytest.raises(VoidedResult, match=r"this result was voided for: wrong table\."):
        old.import_result(code)


def test_another_result_from_a_voided_card_is_refused_and_the_new_cards_result_counts() -> None:
    t = event()
    t.draw_seats(seed=1)
    t.import_result(signed(t, 1, t.card_key(1)))
    t.void_result(1, 1, "scores were swapped")
    with pytest.raises(VoidedResult, match="a void is final whatever the card signs again"):
        t.import_result(signed(t, 1, t.card_key(1), bonus=50))
    t.revoke_card(1, "the table plays its game again")
    assert t.import_result(signed(t, 1, t.card_key(1), bonus=50)).status == "accepted"


def test_a_voided_result_comes_back_only_by_replacing_with_a_reason() -> None:
    t = event()
    t.draw_seats(seed=1)
    code = signed(t, 1, t.card_key(1))
    t.import_result(code)
    t.void_result(1, 1, "wrong table")
    t.replace_result(1, 1, "it was the right table after all", code=code)
    assert 1 in t.results()
