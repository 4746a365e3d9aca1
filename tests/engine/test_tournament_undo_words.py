"""Organizer Undo says what it took back, for every kind of action in a whole event's log."""

from __future__ import annotations

import json
from pathlib import Path

from engine import Tournament

LOG = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "tournament_v1.json").read_text(encoding="utf-8"))

FIRST_UNDONE = {
    "prize_awarded": "the prize of $1,000 (Gus $700, Lou $300)",
    "round_closed": "the close of the final (Gus champion)",
    "result_recorded": "table 1's result in round 3 (Gus 10,550, Lou 9,000, Hal 8,800, Ned 6,650)",
    "rules_switched": "the switch of round 3 to progressive rules",
    "seats_drawn": "the draw of round 3 (seed 9)",
    "roll_off_recorded": "the roll-off at table 2 in round 2 (Cy 1, Hal 5)",
    "draw_cancelled": "the cancelling of round 2's draw",
    "player_withdrew": "Bob's withdrawal (number 2)",
    "result_replaced": "the replacement of table 1's result in round 1 (Ned 10,400, Kit 7,000, Max 6,600, Ed 3,000)",
    "result_voided": "the void of table 3's result in round 1 (wrong sheet)",
    "held_result_settled": "the choice for table 2 in round 1 (the held result counted)",
    "result_held": "the result held for table 2 in round 1 (Hal 10,300, Jo 4,000, Ida 2,000)",
    "player_checked_in": "Ned's check-in (number 14)",
    "player_signed_up": "Oda's sign-up (number 15)",
    "format_changed": "the change of format to Club cup",
}


def test_undoing_a_whole_event_back_to_its_creation_names_each_action_it_takes_back():
    t = Tournament.from_events(LOG["events"])
    first: dict[str, str] = {}
    while len(t.events) > 1:
        kind = t.events[-1]["type"]
        first.setdefault(kind, t.undo())
    assert first == FIRST_UNDONE


def test_undoing_a_revoked_card_names_the_table_and_the_reason():
    t = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    for name in ("Ann", "Bob", "Cy"):
        t.check_in(t.sign_up(name))
    t.draw_seats(seed=1)
    t.revoke_card(1, "phone lost")
    assert t.undo() == "the revoking of table 1's card in round 1 (phone lost)"
