"""The organizer's results: the inbox that counts, holds and refuses result codes, the cut and the
final, and corrections (a result replaced or voided, a table's card revoked) through the screens."""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import pytest

import flet as ft
from app.event.organizer import Organizer
from app.storage import MemoryStore
from engine import CodeDamaged, InvalidInput, TableResult, Tournament, decode_result, decode_setup, encode_result, link_form, typing_form
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import Desk, drawn_event, import_typed, notice, played_code, signed_code


def test_a_result_typed_in_counts_once_and_a_second_copy_is_reported_as_a_duplicate():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        code = played_code(t, 1, seed=3)
        message = await import_typed(ui, typing_form(code))
        assert message.startswith("Round 1, table 1: result counted (1. ")
        assert ui.text_of("arrived-1").startswith("Table 1: 1. ")
        assert ui.text_of("missing-tables") == "Missing: table 2"
        assert ui.find("result-code", ft.TextField).value == ""
        assert await import_typed(ui, code) == "Round 1, table 1: this result is already counted (duplicate)."
        assert len((await desk.now()).results()) == 1

    desk.run(test)


def test_a_result_opened_as_a_deep_link_is_imported_once_and_shown_in_the_inbox():
    desk = Desk()
    state: dict[str, Any] = {}

    async def organize(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        state["link"] = link_form(played_code(t, 2, seed=9), "http://127.0.0.1:8550")

    desk.run(organize)
    route = state["link"].removeprefix("http://127.0.0.1:8550")

    async def open_link(ui: FletHarness) -> None:
        assert ui.text_of("organizer-notice").startswith("Round 1, table 2: result counted")
        assert "Imported from a link." in ui.text_of("organizer-notice")
        assert ui.text_of("missing-tables") == "Missing: table 1"
        await ui.click("nav-standings")
        await ui.navigate(route)  # the same link again: no second import
        assert not ui.exists("organizer-notice") and ui.text_of("missing-tables") == "Missing: table 1"
        t = await desk.now()
        assert t.events[-1]["type"] == "result_recorded"
        assert len(t.results()) == 1

    desk.run(open_link, route=route)

    async def upper_case(ui: FletHarness) -> None:  # scheme and host in capitals keep the QR alphanumeric
        assert "already counted (duplicate)" in ui.text_of("organizer-notice")

    desk.run(upper_case, route=route.replace("/import/", "/IMPORT/"))


def test_a_link_without_a_readable_result_or_without_an_event_says_so():
    async def damaged(ui: FletHarness) -> None:
        assert "This link does not hold a readable result." in ui.texts()
        assert ui.find("organizer-notice").bgcolor == ft.Colors.RED_100

    Desk().run(damaged, route="/import/FR1-NOT-A-CODE")
    t = Tournament("Other cup", event_id="OTHER-1", secret=bytes(16))
    for name in "ABCD":
        t.check_in(t.sign_up(name))
    t.draw_seats(1)

    async def nowhere(ui: FletHarness) -> None:
        assert notice(ui) == "This result is for event OTHER-1, and this device runs no tournament."

    Desk().run(nowhere, route=link_form(played_code(t, 1, seed=1)))


def test_damaged_altered_misplaced_and_foreign_results_are_refused_with_the_reason_and_listed():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        other = Tournament("Other cup", event_id="OTHER-1", secret=bytes(16))
        for name in "ABCD":
            other.check_in(other.sign_up(name))
        other.draw_seats(1)
        table1, table2 = t.seating()
        good = played_code(t, 1, seed=4)
        damaged = good[:40] + ("A" if good[40] != "A" else "B") + good[41:]
        with pytest.raises(CodeDamaged) as damage:
            decode_result(damaged)
        cases = {
            "damaged": damaged,
            "altered": signed_code(t, 1, (10_000, 0, 0, 0), key=bytes(16)),
            "other event": played_code(other, 1, seed=1),
            "players": signed_code(t, 1, (10_000, 0, 0, 0), numbers=(table1[0], table2[0], table1[2], table1[3])),
            "impossible": signed_code(t, 1, (9_950, 0, 0, 0)),
        }
        expected = {
            "damaged": str(damage.value),
            "altered": "does not carry that table's signature",
            "other event": f"This result is from event OTHER-1, not this one ({t.event_id}): refused.",
            "players": "is not seated there. Was it played from an old setup code?",
            "impossible": "the best total is 9,950, below the target of 10,000, so the game is not over",
        }
        for what, code in cases.items():
            message = await import_typed(ui, code)
            assert expected[what] in message, what
            assert ui.find("organizer-notice").bgcolor == ft.Colors.RED_100
            assert expected[what] in ui.text_of("refused-0"), what
        assert (await desk.now()).results() == {}
        assert len([text for text in ui.texts() if " · FR1" in text]) == 5
        await ui.click("clear-refused")
        assert notice(ui) == "The list of refused codes was cleared." and not ui.exists("refused-0")

    desk.run(test)


def test_the_inbox_and_the_results_csv_say_how_each_tables_players_confirmed_their_result():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        setup = t.setup(1)
        confirmed = TableResult(t.event_id, 1, 1, setup.numbers, (10_000, 5_000, 0, 0), (1, 2, 3, 3), (),
                                setup.rules, bytes(16), (True, False, True, True))
        message = await import_typed(ui, encode_result(confirmed, setup.key))
        assert message.startswith(f"Round 1, table 1: result confirmed by 3 of 4 · {setup.names[1]} declined, so it is "
                                  "held for the organizer")
        assert ui.text_of("held-1-0").endswith(f" · confirmed by 3 of 4 · {setup.names[1]} declined")
        await ui.type_text("held-reason", "the table agreed the sheet with the organizer")
        await ui.click("take-held-1-0")
        assert ui.text_of("arrived-1").endswith(f" · confirmed by 3 of 4 · {setup.names[1]} declined")
        await import_typed(ui, signed_code(t, 1, (10_050, 5_000, 0, 0)))  # a table app that did not ask
        assert ui.text_of("held-1-0").endswith(" · not confirmed (older table app)")
        assert ui.text_of("counted-1").endswith(f" · confirmed by 3 of 4 · {setup.names[1]} declined")
        await import_typed(ui, signed_code(t, 2, (10_000, 5_000, 0, 0)))
        assert ui.text_of("arrived-2").endswith(" · not confirmed (older table app)")
        await ui.click("nav-standings")
        await ui.click("copy-results-csv")
        rows = list(csv.reader(io.StringIO(ui.clipboard)))
        assert rows[0][-1] == "Confirmation"
        assert {row[1]: row[-1] for row in rows[1:] if row[8] == "counted"} == {
            "1": f"confirmed by 3 of 4 · {setup.names[1]} declined", "2": "not confirmed (older table app)"}

    desk.run(test)


def test_a_different_result_for_a_counted_table_is_held_until_the_organizer_chooses_with_a_reason():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        await import_typed(ui, signed_code(t, 1, (10_000, 5_000, 0, 0)))
        message = await import_typed(ui, signed_code(t, 1, (10_050, 5_000, 0, 0)))
        assert message == "Round 1, table 1 already has a different result: this one is held for the organizer to choose."
        assert ui.text_of("held-1-0").startswith("Held: 1. ") and "10,050" in ui.text_of("held-1-0")
        assert "10,000" in ui.text_of("counted-1")
        await ui.click("take-held-1-0")
        assert notice(ui) == "Give a reason: corrections are kept with their reason."
        assert (await desk.now()).held_results()
        await ui.type_text("held-reason", "the table re-added its score sheet")
        await ui.click("take-held-1-0")
        assert notice(ui) == "Table 1: the held result counts."
        assert (await desk.now()).results()[1].totals[0] == 10_050 and not ui.exists("held-1-0")
        await ui.click("nav-standings")
        assert "held result taken (the table re-added its score sheet)" in " ".join(ui.texts())

    desk.run(test)


def test_a_result_a_player_declined_is_held_until_the_organizer_asks_the_table_again_which_undo_takes_back():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        setup = t.setup(1)
        declined = TableResult(t.event_id, 1, 1, setup.numbers, (10_000, 5_000, 0, 0), (1, 2, 3, 3), (),
                               setup.rules, bytes(16), (True, True, True, False))
        message = await import_typed(ui, encode_result(declined, setup.key))
        assert message.startswith(f"Round 1, table 1: result confirmed by 3 of 4 · {setup.names[3]} declined, "
                                  "so it is held for the organizer: count it, or ask the table to confirm again (1. ")
        assert (await desk.now()).results() == {} and not ui.exists("arrived-1")
        assert ui.text_of("counted-1") == "Counted now: nothing"
        assert ui.find("keep-held-1-0", ft.OutlinedButton).content == "Ask table 1 to confirm again"
        await ui.type_text("held-reason", "Di says the last turn was scored wrong")
        await ui.click("keep-held-1-0")
        assert notice(ui) == ("Table 1: the held result does not count. Ask the table to put its game right (Undo "
                              "on its phone), confirm the totals again, and scan its new code.")
        assert (await desk.now()).held_results() == () and not ui.exists("held-1-0")
        await ui.click("organizer-undo")
        assert notice(ui) == "Undone: the choice for table 1 in round 1 (the table asked again)."
        assert len((await desk.now()).held_results()) == 1 and ui.exists("held-1-0")

    desk.run(test)


def test_a_tie_at_the_cut_blocks_closing_until_the_roll_off_is_tapped_in():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 5)  # one table of 5, the 4 best go on
        numbers = t.seating()[0]
        await import_typed(ui, signed_code(t, 1, (10_000, 8_000, 5_000, 3_000, 3_000)))
        tied = sorted(numbers[3:])
        assert ui.text_of("roll-off-0") == (
            f"Round 1: Player {tied[0]} ({tied[0]}) and Player {tied[1]} ({tied[1]}) are tied on 3,000 over all tables "
            "for places 4 to 5: "
            "record their roll-off.")
        await ui.click("close-round")
        assert notice(ui).startswith("Nothing goes on while a tie is open.")
        await ui.click(f"roll-0-{tied[0]}-5")
        await ui.click("record-roll-off-0")
        assert notice(ui) == f"Tap the die each tied player threw: Player {tied[1]} still to enter."
        await ui.click(f"roll-0-{tied[1]}-2")
        await ui.click("record-roll-off-0")
        assert notice(ui) == f"Roll-off recorded: Player {tied[0]} 5, Player {tied[1]} 2."
        await ui.click("close-round")
        assert notice(ui) == "Round 1 closed: 4 go on. Draw the next round on the Seating page."
        advancing = (await desk.now()).round_advancing(1) or ()
        assert tied[0] in advancing and tied[1] not in advancing

    desk.run(test)


def test_the_final_crowns_the_champion_and_records_an_agreed_split_of_the_prize():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 4)  # four players: the first round is the final
        await ui.click("nav-final")
        await ui.click("switch-final-rules")
        assert ui.text_of("switched") == "The final is switched to Progressive rules."
        first, second, third, fourth = t.seating()[0]
        await import_typed(ui, signed_code(await desk.now(), 1, (10_000, 9_000, 4_000, 0)))
        await ui.click("close-round")
        assert notice(ui) == f"Player {first} (number {first}) is the champion!"
        await ui.click("nav-final")
        assert ui.text_of("champion") == f"Champion: Player {first} (number {first})"
        await ui.type_text("prize-amount", "1,000")
        await ui.type_text(f"share-{first}", "600")
        await ui.type_text(f"share-{second}", "300")
        await ui.click("award-prize")
        assert notice(ui) == "The shares add up to 900, not the prize of 1,000."
        assert (await desk.now()).prize is None
        await ui.type_text(f"share-{second}", "400")
        await ui.type_text("prize-note", "split agreed at the table, as in 2018")
        await ui.click("award-prize")
        assert notice(ui) == "Prize recorded: $1,000."
        assert ui.text_of(f"share-{second}") == f"Player {second} (number {second}): $400"
        prize = (await desk.now()).prize
        assert prize is not None and prize.split == tuple(sorted({first: 600, second: 400}.items()))

    desk.run(test)


def test_a_counted_result_voided_waits_for_a_new_one():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        await import_typed(ui, signed_code(t, 1, (10_000, 8_000, 7_000, 6_000)))
        await ui.type_text("void-reason", "wrong table's sheet")
        await ui.click("void-1")
        assert notice(ui) == "Table 1's result was voided: it waits for a new result."
        assert ui.text_of("missing-tables") == "Missing: tables 1, 2" and (await desk.now()).results() == {}

    desk.run(test)


def test_a_voided_result_scanned_again_is_refused_with_when_and_why_and_listed():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        code = signed_code(t, 1, (10_000, 8_000, 7_000, 6_000))
        await import_typed(ui, code)
        await ui.type_text("void-reason", "wrong table")
        await ui.click("void-1")
        refused = await import_typed(ui, code)
        assert refused.startswith("Round 1, table 1: this result was voided at ")
        assert " for: wrong table. It stays void" in refused
        organizer = await desk.organizer()
        assert organizer.refusals[0].reason == refused and (await desk.now()).results() == {}

    desk.run(test)


def test_the_organizer_revokes_a_tables_card_with_a_reason_and_it_is_kept():
    async def test() -> None:
        store = MemoryStore()
        organizer = Organizer(store)
        tournament_id = await organizer.create("Spring cup")
        for name in ("Ann", "Bob", "Cy", "Di"):
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        await organizer.act(lambda t: t.draw_seats(seed=1))
        old = organizer.open_tournament.card_key(1)
        with pytest.raises(InvalidInput, match="Give a reason"):
            await organizer.revoke_card(1, " ")
        assert await organizer.revoke_card(1, "phone lost") == 1
        again = Organizer(store)
        reopened = await again.open(tournament_id)
        assert reopened is not None and reopened.card_issue(1) == 1 and reopened.card_key(1) != old

    asyncio.run(test())


def test_revoking_a_card_on_the_seating_page_refuses_its_codes_and_shows_the_new_setup_code():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 10, seed=5)
        before = decode_setup(ui.text_of("setup-code-3"))
        before_key_1 = decode_setup(ui.text_of("setup-code-1")).key
        lost = played_code(t, 3, seed=1)
        await ui.click("revoke-table-3")
        assert notice(ui) == "Give a reason: corrections are kept with their reason."
        await ui.type_text("revoke-reason-3", "phone lost")
        await ui.click("revoke-table-3")
        assert notice(ui) == ("Table 3's card is revoked: results it signs are refused. "
                              "Give the table its new card (issue 2): scan its new setup code.")
        after = decode_setup(ui.text_of("setup-code-3"))
        assert after.numbers == before.numbers and after.key != before.key
        assert decode_setup(ui.text_of("setup-code-1")).key == before_key_1 == (await desk.now()).card_key(1)
        assert "the card before was revoked at " in ui.text_of("card-issue-3")
        assert "for: phone lost" in ui.text_of("card-issue-3")
        refused = await import_typed(ui, lost)
        assert refused.startswith("This result was signed by a revoked card of table 3 (revoked at ")
        counted = await import_typed(ui, played_code(await desk.now(), 3, seed=1))
        assert counted.startswith("Round 1, table 3: result counted")
        await ui.click("nav-seating")
        await ui.click("print-cards")
        assert decode_setup(ui.text_of("setup-code-3")).key == after.key
        assert ui.exists("card-issue-3") and not ui.exists("revoke-table-3")

    desk.run(test)
