"""Corrections on the organizer's screens: after a void or a corrected result, no page names a
champion, a prize or a cut as if final when the results no longer give it, and Undo brings
every page back."""

from __future__ import annotations

from typing import Any

from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import Desk, drawn_event, import_typed, notice, signed_code


async def end_of_event(ui: FletHarness, desk: Desk) -> dict[str, Any]:
    """What the event page, Final & prize, Standings and the events list say of the event's end."""
    seen: dict[str, Any] = {}
    await ui.navigate(desk.route())
    seen["event"] = ui.text_of("event-state")
    seen["event flags"] = flag_lines(ui)
    await ui.click("nav-final")
    seen["final"] = [ui.text_of(key) for key in ("champion", "no-champion", "prize") if ui.exists(key)]
    seen["final flags"] = flag_lines(ui)
    await ui.click("nav-standings")
    seen["statuses"] = [text.split(" · ")[1] for text in ui.texts() if text[:1].isdigit() and " (number " in text]
    await ui.navigate("/organizer")
    seen["events list"] = ui.text_of(f"event-{desk.tournament_id}")
    await ui.navigate(desk.route("results"))
    return seen


async def round_2_drawn(ui: FletHarness, desk: Desk) -> None:
    """Eight players at 2 tables: both results in, round 1 closed and round 2 drawn (seed 2)."""
    t = await drawn_event(ui, desk, 8)
    await import_typed(ui, signed_code(t, 1, (10_000, 8_000, 7_000, 6_000)))
    await import_typed(ui, signed_code(t, 2, (10_000, 9_000, 5_000, 1_000)))
    await ui.click("close-round")
    await ui.click("nav-seating")
    await ui.type_text("draw-seed", "2")
    await ui.click("draw-seats")


def flag_lines(ui: FletHarness) -> list[str]:
    return [ui.text_of(f"flagged-{index}") for index in range(10) if ui.exists(f"flagged-{index}")]


def test_after_the_final_and_its_prize_a_void_names_no_champion_or_split_on_any_page_and_undo_brings_them_back():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 4)  # four players: the first round is the final
        first, second, _, _ = t.seating()[0]
        await import_typed(ui, signed_code(t, 1, (10_000, 9_000, 4_000, 0)))
        await ui.click("close-round")
        await ui.click("nav-final")
        await ui.type_text("prize-amount", "500")
        await ui.type_text(f"share-{first}", "300")
        await ui.type_text(f"share-{second}", "200")
        await ui.click("award-prize")
        crowned = await end_of_event(ui, desk)
        assert crowned["final"] == [f"Champion: Player {first} (number {first})", "Prize: $500"]
        assert crowned["statuses"][0] == "champion" and crowned["events list"].endswith(f"champion Player {first}")

        await ui.type_text("void-reason", "another table's sheet")
        await ui.click("void-1")
        assert ui.text_of("missing-tables") == "Missing: table 1" and ui.exists("record-paper")
        assert notice(ui).startswith("Table 1's result was voided. The final is open again: it waits for table 1's "
                                     "result, then its champion is crowned again.")
        voided = await end_of_event(ui, desk)
        assert voided["event"].startswith("Final is being played: waiting for table 1.")
        assert voided["final"] == ["No champion yet: the final's result crowns one (Results page)."]
        assert "champion" not in voided["statuses"] and "champion" not in voided["events list"]
        for flags in (voided["event flags"], voided["final flags"]):
            (line,) = flags
            assert line.startswith("The prize of $500 (") and "before the final's result at table 1 was voided " in line

        await ui.click("organizer-undo")
        assert notice(ui) == "Undone: the void of table 1's result in round 1 (another table's sheet)."
        assert await end_of_event(ui, desk) == crowned

    desk.run(test)


def test_a_corrected_final_result_crowns_the_new_winner_on_every_page_and_flags_the_prize_to_record_again():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 4)
        first, second, _, _ = t.seating()[0]
        await import_typed(ui, signed_code(t, 1, (10_000, 9_000, 4_000, 0)))
        corrected = signed_code(t, 1, (9_000, 10_000, 4_000, 0))  # the table's card, while the final is open
        await ui.click("close-round")
        await ui.click("nav-final")
        await ui.type_text("prize-amount", "500")
        await ui.click("award-prize")
        await ui.click("nav-results")
        await ui.type_text("result-code", corrected)
        await ui.type_text("void-reason", "the totals were swapped")
        await ui.click("replace-1")
        said = notice(ui)
        seen = await end_of_event(ui, desk)
        assert seen["event"].startswith(f"Champion: Player {second} (number {second}).")
        assert seen["final"] == [f"Champion: Player {second} (number {second})"]  # the prize is to record again
        assert seen["statuses"][0] == "champion" and seen["events list"].endswith(f"champion Player {second}")
        assert seen["final flags"][0].endswith("it no longer stands; record it again.")
        assert said.startswith(f"Table 1's result was replaced; the reason is kept. Player {second} (number {second}) "
                               f"is the champion now, in place of Player {first} (number {first}).")

    desk.run(test)


def test_a_result_replaced_after_the_cut_before_the_next_draw_takes_the_cut_again_and_keeps_the_reason():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)  # 2 tables of 4, the 6 best totals go on
        await import_typed(ui, signed_code(t, 1, (10_000, 8_000, 7_000, 6_000)))
        await import_typed(ui, signed_code(t, 2, (10_000, 9_000, 5_000, 1_000)))
        late = signed_code(t, 1, (10_000, 8_000, 7_000, 500))  # the table's key, while the round is open
        await ui.click("close-round")
        last, out = t.seating()[0][3], t.seating()[1][2]
        assert last in ((await desk.now()).round_advancing(1) or ())
        await ui.type_text("result-code", late)
        await ui.type_text("void-reason", "table 1 misread a total")
        await ui.click("replace-1")
        advancing = (await desk.now()).round_advancing(1) or ()
        assert out in advancing and last not in advancing
        assert notice(ui) == (f"Table 1's result was replaced; the reason is kept. Round 1's cut is taken again: "
                              f"Player {out} (number {out}) goes on instead of Player {last} (number {last}).")
        assert not ui.exists("flagged")
        await ui.click("nav-seating")
        await ui.type_text("draw-seed", "2")
        await ui.click("draw-seats")
        assert sorted(n for table in (await desk.now()).seating() for n in table) == sorted(advancing)

    desk.run(test)


def test_a_void_of_a_round_the_next_was_drawn_from_is_flagged_on_the_event_seating_and_results_pages_and_undone():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await round_2_drawn(ui, desk)
        seating = (await desk.now()).seating()
        await ui.click("nav-results")
        assert not ui.exists("void-1")  # round 2 has no result yet
        await ui.set_value("correcting-round", "1", event="select")
        await ui.type_text("void-reason", "wrong rules at that table")
        await ui.click("void-2")
        assert notice(ui) == ("Table 2's result was voided. Round 2 was drawn from round 1's cut as recorded: "
                              "the correction is flagged (see Standings).")
        flag = ("Round 1, table 2: result voided after the cut (wrong rules at that table): the round now lacks a "
                "result, so its cut cannot be checked; round 2's seating was drawn from the cut as recorded.")
        for page in ("", "seating", "results"):
            await ui.navigate(desk.route(page))
            assert flag_lines(ui) == [flag]
        await ui.navigate(desk.route())
        assert ui.text_of("event-state").endswith("1 flag: recorded before a correction (see Standings).")
        assert (await desk.now()).seating() == seating
        await ui.click("organizer-undo")
        assert not ui.exists("flagged") and "flag" not in ui.text_of("event-state")
        assert (await desk.now()).results(1).keys() == {1, 2}

    desk.run(test)


def test_cancelling_the_next_draw_after_a_void_opens_the_round_before_for_its_result_on_the_screens():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await round_2_drawn(ui, desk)
        await ui.click("nav-results")
        await ui.set_value("correcting-round", "1", event="select")
        await ui.type_text("void-reason", "wrong rules at that table")
        await ui.click("void-2")
        await ui.click("nav-seating")
        await ui.click("cancel-draw")
        assert (await desk.now()).missing_tables() == (2,) and not ui.exists("flagged")
        assert notice(ui) == ("The draw was cancelled. Round 1 is open again: it waits for table 2's result, then it "
                              "closes again.")
        await ui.click("nav-results")
        assert ui.text_of("missing-tables") == "Missing: table 2" and ui.exists("record-paper")

    desk.run(test)
