"""The organizer edits an event's format (until round 1 is drawn) and types a table's paper result."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest
from PIL import ImageFont

import flet as ft
import flet_web

from app.documents.events import COLLECTION
from app.event.format_draft import FormatDraft
from app.event.organizer import Organizer
from app.storage import MemoryStore
from engine import (
    Cut,
    IllegalAction,
    InvalidInput,
    ResultImpossible,
    RoundSpec,
    Tournament,
    TournamentFormat,
)
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import (
    Desk,
    drawn_event,
    import_typed,
    new_event,
    notice,
    signed_code,
)

HOUSE_PLAN = [
    "Round 1: 40 players, 10 tables of 4, house rules; the 32 best totals over all tables go on.",
    "Round 2: 32 players, 8 tables of 4, progressive rules; places 1 to 2 of each table go on.",
    "Round 3: 16 players, 4 tables of 4, house rules; each table's winner goes on.",
    "Final: 4 players, 1 table of 4, house rules; the winner is the champion.",
]


def plan_lines(ui: FletHarness, which: str = "cap") -> list[str]:
    lines = []
    number = 1
    while ui.exists(f"fmt-plan-{which}-{number}"):
        lines.append(ui.text_of(f"fmt-plan-{which}-{number}"))
        number += 1
    return lines


# -- the controller --------------------------------------------------------------------------


def test_a_format_draft_starts_as_the_house_tournament_and_builds_the_engines_format():
    draft = FormatDraft.house()
    assert draft.build() == TournamentFormat.house()
    draft.cap = "24"
    draft.rounds[0].table_size = 6
    draft.set_cut(0, "per_table")
    assert draft.rounds[0].count == "2"
    draft.set_cut(1, "winners")
    draft.remove_round(2)
    draft.set_rules(1, "progressive")
    draft.rounds[-1].switch_to = ""
    fmt = draft.build()
    assert fmt == TournamentFormat("Own format", 24, (
        RoundSpec("house", Cut.per_table(2), 6),
        RoundSpec("progressive", Cut.table_winners()),
        RoundSpec("house", Cut.final()),
    ))
    draft.set_rules(2, "progressive")  # the final's rules: a switch to the same rules is dropped
    draft.rounds[-1].switch_to = "progressive"
    draft.set_rules(2, "progressive")
    assert draft.rounds[-1].switch_to == ""
    with pytest.raises(InvalidInput, match="The final cannot be removed"):
        draft.remove_round(2)
    with pytest.raises(InvalidInput, match="'final' is not a cut for round 1"):
        draft.set_cut(0, "final")
    draft.add_round()
    assert len(draft.rounds) == 4 and draft.rounds[2] == draft.rounds[1] and draft.rounds[2] is not draft.rounds[1]


def test_an_impossible_draft_is_refused_with_the_engines_own_message():
    draft = FormatDraft.house()
    draft.remove_round(1)
    draft.remove_round(1)  # round 1 sends 32 straight to a final table of 4
    with pytest.raises(InvalidInput, match="With 7 players this format brings 6 to a final table of 4: cut more"):
        draft.build()
    draft = FormatDraft.house()
    draft.cap = "1"
    with pytest.raises(InvalidInput, match="A player cap of 1 is not possible: 2 to 10,000."):
        draft.build()
    draft = FormatDraft.house()
    draft.set_cut(0, "overall")
    draft.rounds[0].count = ""
    draft.set_cut(0, "per_table")
    draft.set_cut(0, "overall")
    with pytest.raises(InvalidInput, match="^Round 1, the number of best totals going on: enter a whole number of 1 to 9 digits"):
        draft.build()


def test_an_event_created_in_an_edited_format_keeps_it_and_changes_it_only_before_round_1():
    async def test() -> None:
        store = MemoryStore()
        organizer = Organizer(store)
        draft = FormatDraft.house()
        draft.cap = "12"
        draft.remove_round(0)
        tournament_id = await organizer.create("Spring cup", format=draft.build())
        again = Organizer(store)
        t = await again.open(tournament_id)
        assert t is not None and t.format == draft.build() and t.format.cap == 12
        for name in ["Ann", "Bob", "Cy", "Di", "Ed"]:
            await again.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        assert await again.change_format(FormatDraft.house()) is True
        assert await again.change_format(FormatDraft.house()) is False
        stored = await store.load(COLLECTION, tournament_id)
        assert stored is not None and Tournament.from_events(stored["events"]).format == TournamentFormat.house()
        await again.act(lambda t: t.draw_seats(1))
        with pytest.raises(IllegalAction, match="Round 1 is drawn: the format is fixed"):
            await again.change_format(draft)
        assert again.open_tournament.format == TournamentFormat.house()

    asyncio.run(test())


def test_a_paper_result_needs_whole_totals_and_a_reason_and_is_kept_with_the_reason():
    async def test() -> None:
        organizer = Organizer(MemoryStore())
        await organizer.create("Spring cup")
        for name in ["Ann", "Bob", "Cy"]:
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        with pytest.raises(InvalidInput, match="No round is being played now"):
            await organizer.enter_paper_result(1, ["10000", "0", "0"], "lost")
        await organizer.act(lambda t: t.draw_seats(3))
        t = organizer.open_tournament  # the event as it is now: each stored action holds a new one
        second = t.seating()[0][1]
        with pytest.raises(InvalidInput, match=f"^The total of {t.player(second).name} \\(seat 2\\): 'lots' is not a whole number"):
            await organizer.enter_paper_result(1, ["10,000", "lots", "0"], "lost")
        with pytest.raises(InvalidInput, match="Give a reason"):
            await organizer.enter_paper_result(1, ["10,000", "600", "0"], "  ")
        with pytest.raises(ResultImpossible, match="not a multiple of 50"):
            await organizer.enter_paper_result(1, ["10,000", "610", "0"], "paper sheet")
        assert organizer.open_tournament is t and t.results() == {}
        result = await organizer.enter_paper_result(1, ["10,000", "600", "8,000"], "paper sheet")
        assert result.totals == (10_000, 600, 8_000) and result.places == (1, 3, 2)
        assert organizer.open_tournament.result_source(1, 1) == ("entered", "paper sheet")
        assert t.results() == {}  # the event held before the action stays as it was

    asyncio.run(test())


# -- the screens ----------------------------------------------------------------------------------


def test_the_new_event_form_edits_the_format_with_the_plan_shown_live_and_creates_the_event_in_it():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await ui.click("organize")
        assert plan_lines(ui) == HOUSE_PLAN
        assert ui.unlabelled_controls() == []
        await ui.type_text("event-cap", "24")
        assert plan_lines(ui) == [
            "Round 1: 24 players, 6 tables of 4, house rules; the 24 best totals over all tables go on.",
            "Round 2: 24 players, 6 tables of 4, progressive rules; places 1 to 2 of each table go on.",
            "Round 3: 12 players, 3 tables of 4, house rules; each table's winner goes on.",
            "Final: 3 players, 1 table of 3, house rules; the winner is the champion.",
        ]
        await ui.type_text("fmt-count-0", "16")
        assert plan_lines(ui)[:2] == [
            "Round 1: 24 players, 6 tables of 4, house rules; the 16 best totals over all tables go on.",
            "Round 2: 16 players, 4 tables of 4, progressive rules; places 1 to 2 of each table go on.",
        ]
        await ui.set_value("fmt-cut-0", "per_table", event="select")
        assert ui.find("fmt-count-0").value == "2"
        await ui.set_value("fmt-size-0", "6", event="select")
        await ui.click("fmt-remove-2")
        await ui.set_value("fmt-cut-1", "winners", event="select")
        await ui.set_value("fmt-rules-1", "official", event="select")
        await ui.set_value("fmt-switch", "none", event="select")
        assert plan_lines(ui) == [
            "Round 1: 24 players, 4 tables of 6, house rules; places 1 to 2 of each table go on.",
            "Round 2: 8 players, 2 tables of 4, official rules; each table's winner goes on.",
            "Final: 2 players, 1 table of 2, house rules; the winner is the champion.",
        ]
        assert not ui.exists("fmt-count-1") and not ui.exists("fmt-remove-2")
        assert ui.unlabelled_controls() == []
        await ui.type_text("event-name", "Harbour cup")
        await ui.click("create-event")
        desk.tournament_id = ui.page.route.split("/")[2]
        t = await desk.now()
        assert t.format == TournamentFormat("Own format", 24, (
            RoundSpec("house", Cut.per_table(2), 6),
            RoundSpec("official", Cut.table_winners()),
            RoundSpec("house", Cut.final()),
        ))
        stored = await desk.store.load(COLLECTION, desk.tournament_id)
        assert stored is not None and Tournament.from_events(stored["events"]).format == t.format
        await ui.navigate("/organizer")
        assert plan_lines(ui) == HOUSE_PLAN  # the next new event starts from the house tournament again

    desk.run(test)


DROPDOWN_TEXT = ImageFont.truetype(str(Path(flet_web.__file__).parent / "web" / "assets" / "fonts" / "roboto.woff2"), 16)
"""The face a dropdown draws its choice in: Material's body text, Roboto at 16 px (0.5 px between letters)."""
DROPDOWN_FRAME_PX = 64
"""What a dropdown keeps beside its text: 12 px before it, the 48 px arrow after it, and a little room."""


def test_every_choice_of_the_format_editors_dropdowns_fits_its_box_whole():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await ui.click("organize")
        dropdowns = ui.find_all(ft.Dropdown)
        assert {"fmt-rules-0", "fmt-size-0", "fmt-cut-0", "fmt-switch"} <= {dropdown.key for dropdown in dropdowns}
        cut = [(dropdown.key, option.text, round(DROPDOWN_TEXT.getlength(option.text) + 0.5 * len(option.text)))
               for dropdown in dropdowns for option in dropdown.options
               if dropdown.width is not None and option.text
               and DROPDOWN_TEXT.getlength(option.text) + 0.5 * len(option.text) > dropdown.width - DROPDOWN_FRAME_PX]
        assert cut == []

    desk.run(test)


def test_an_impossible_format_shows_the_engines_message_and_creating_it_changes_nothing():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await ui.click("organize")
        await ui.click("fmt-remove-1")
        await ui.click("fmt-remove-1")
        message = "With 7 players this format brings 6 to a final table of 4: cut more before the final."
        assert ui.text_of("fmt-error") == f"Not possible: {message}"
        assert plan_lines(ui) == []
        await ui.type_text("event-name", "Harbour cup")
        await ui.click("create-event")
        assert notice(ui) == message
        assert await Organizer(desk.store).summaries() == [] and ui.page.route == "/organizer"
        await ui.click("fmt-add-round")  # like round 1: 32 of 40 go on, and 8 table winners are still too many
        await ui.set_value("fmt-cut-1", "winners", event="select")
        assert ui.text_of("fmt-error") == (
            "Not possible: With 21 players this format brings 5 to a final table of 4: cut more before the final.")
        await ui.type_text("event-cap", "0")
        assert ui.text_of("fmt-error") == "Not possible: A player cap of 0 is not possible: 2 to 10,000."
        await ui.click("fmt-house")
        assert plan_lines(ui) == HOUSE_PLAN and ui.find("event-cap").value == "40"
        await ui.click("fmt-add-round")
        assert ui.exists("fmt-remove-3") and ui.find("fmt-cut-3").value == "winners"
        assert plan_lines(ui) == HOUSE_PLAN  # 4 players are left after round 3: the final comes at once

    desk.run(test)


def test_the_format_stays_editable_on_the_event_page_until_round_1_is_drawn():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [f"Player {n}" for n in range(1, 11)])
        await ui.navigate(desk.route())
        assert ui.unlabelled_controls() == []
        assert plan_lines(ui, "now")[0] == (
            "Round 1: 10 players, 1 table of 4 and 2 tables of 3, house rules; the 8 best totals over all tables go on.")
        await ui.type_text("fmt-cap", "8")
        assert ui.text_of("fmt-error") == (
            "Not possible: 10 players are signed up: a cap of 8 would leave 2 without a seat (withdraw players "
            "first, or keep a higher cap).")
        events = (await desk.now()).events
        await ui.click("fmt-save")
        assert notice(ui).startswith("10 players are signed up: a cap of 8")
        assert (await desk.now()).events == events
        await ui.type_text("fmt-cap", "16")
        await ui.set_value("fmt-cut-0", "winners", event="select")
        await ui.click("fmt-remove-1")
        assert plan_lines(ui, "now") == [
            "Round 1: 10 players, 1 table of 4 and 2 tables of 3, house rules; each table's winner goes on.",
            "Final: 3 players, 1 table of 3, house rules; the winner is the champion.",
        ]
        await ui.click("fmt-save")
        assert notice(ui) == "Format saved: Own format."
        t = await desk.now()
        assert t.format.cap == 16 and t.format.rounds[0].cut == Cut.table_winners()
        assert ui.text_of("event-line") == f"Event code {t.event_id} · Own format · at most 16 players"
        assert ui.text_of("plan-1") == (
            "Round 1: 10 players, 1 table of 4 and 2 tables of 3, house rules; each table's winner goes on.")
        await ui.click("fmt-save")
        assert notice(ui) == "The format is unchanged."
        await ui.type_text("fmt-cap", "20")
        await ui.click("fmt-revert")
        assert notice(ui) == "Edits dropped: the event's format is shown again."
        assert ui.find("fmt-cap").value == "16"
        await ui.click("organizer-undo")
        assert (await desk.now()).format == TournamentFormat("House tournament", 40, TournamentFormat.house().rounds)
        await ui.navigate(desk.route("seating"))
        await ui.click("draw-seats")
        await ui.navigate(desk.route())
        assert not ui.exists("fmt-save") and not ui.exists("fmt-plan")

    desk.run(test)


def test_the_address_for_result_links_must_be_a_web_address_and_goes_into_new_setup_codes():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, ["Ann", "Bob"])
        await ui.navigate(desk.route())
        await ui.type_text("link-base", "192.168.1.20:8550")
        await ui.click("save-link-base")
        assert notice(ui) == "'192.168.1.20:8550' is not an address: it starts with http:// or https://."
        await ui.type_text("link-base", "http://192.168.1.20:8550/")
        await ui.click("save-link-base")
        assert notice(ui) == "Saved: new setup codes carry this address."
        assert (await desk.organizer()).link_base == "http://192.168.1.20:8550"
        await ui.type_text("link-base", "")
        await ui.click("save-link-base")
        assert notice(ui) == "Saved: result codes will be plain codes, without a link."

    desk.run(test)


def test_a_lost_tables_paper_totals_are_checked_and_counted_as_entered_by_hand_with_the_reason():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 7)  # tables of 4 and 3
        await ui.click("nav-results")
        assert ui.unlabelled_controls() == []
        await ui.set_value("paper-table", "2", event="select")
        numbers = t.seating()[1]
        assert ui.find("paper-total-1").label == f"Seat 1: Player {numbers[0]} (number {numbers[0]}), final total"
        assert not ui.exists("paper-total-4")
        for seat, total in enumerate(["10,000", "9,950", "4,000"], 1):
            await ui.type_text(f"paper-total-{seat}", total)
        await ui.click("record-paper")
        assert notice(ui) == "Give a reason: a result entered by hand is kept with why (device lost, paper sheet...)."
        await ui.type_text("paper-reason", "tablet dropped, table kept a paper sheet")
        await ui.type_text("paper-total-2", "9,960")
        await ui.click("record-paper")
        assert notice(ui) == f"Round 1, table 2: player {numbers[1]} has 9,960, which is not a multiple of 50: every Farkle score is."
        assert (await desk.now()).results() == {}
        await ui.type_text("paper-total-2", "9,950")
        await ui.click("record-paper")
        assert notice(ui) == (
            f"Round 1, table 2: result entered by hand (1. Player {numbers[0]} 10,000, 2. Player {numbers[1]} 9,950, "
            f"3. Player {numbers[2]} 4,000).")
        assert ui.text_of("arrived-2").endswith(" · entered by hand (tablet dropped, table kept a paper sheet)")
        assert ui.find("paper-table").value == "1" and ui.find("paper-total-1").value == ""
        assert ui.find("paper-reason").value == ""
        await import_typed(ui, signed_code(t, 1, (10_000, 5_000, 2_000, 0)))
        assert not ui.exists("record-paper") and "entered by hand" not in ui.text_of("arrived-1")
        rows = list(csv.reader(io.StringIO((await desk.now()).results_csv())))
        by_table = {row[1]: row[7:] for row in rows[1:]}
        assert by_table["2"] == ["entered", "counted", "tablet dropped, table kept a paper sheet"]
        assert by_table["1"] == ["code", "counted", ""]

    desk.run(test)


def test_a_paper_tie_for_a_tables_win_waits_for_the_organizers_roll_off_before_the_cut():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [f"Player {n}" for n in range(1, 7)])
        draft = FormatDraft.house()
        draft.cap = "8"
        for _ in range(2):
            draft.remove_round(1)
        draft.set_cut(0, "winners")  # 2 tables of 3, each table's winner goes to the final
        assert await (await desk.organizer()).change_format(draft) is True  # on another screen: seating reads it
        await ui.click("nav-seating")
        await ui.type_text("draw-seed", "2")
        await ui.click("draw-seats")
        await ui.click("nav-results")
        t = await desk.now()
        first, second, _ = t.seating()[0]
        for seat, total in enumerate(["10,000", "10,000", "600"], 1):
            await ui.type_text(f"paper-total-{seat}", total)
        await ui.type_text("paper-reason", "score sheet")
        await ui.click("record-paper")
        assert notice(ui).startswith("Round 1, table 1: result entered by hand (1. ")
        assert (await desk.now()).results()[1].places == (1, 1, 3)
        await import_typed(ui, signed_code(t, 2, (10_000, 5_000, 0)))
        tied = sorted((first, second))
        assert ui.text_of("roll-off-1") == (
            f"Round 1: {t.player(tied[0]).name} ({tied[0]}) and {t.player(tied[1]).name} ({tied[1]}) are tied on 10,000 "
            "at table 1 for places 1 to 2: "
            "record their roll-off.")
        await ui.click("close-round")
        assert notice(ui).startswith("Nothing goes on while a tie is open.")
        await ui.click(f"roll-1-{second}-6")
        await ui.click(f"roll-1-{first}-3")
        await ui.click("record-roll-off-1")
        await ui.click("close-round")
        assert notice(ui) == "Round 1 closed: 2 go on. Draw the next round on the Seating page."
        advancing = (await desk.now()).round_advancing(1) or ()
        assert second in advancing and first not in advancing

    desk.run(test)
