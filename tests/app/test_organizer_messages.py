"""The organizer's messages say what happened where it happened: beside the form that caused
them, ties and Undo in names, and the place that ranks a round in the standings."""

from __future__ import annotations

import asyncio

from app.event.organizer import Organizer
from engine import Tournament
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import Desk, drawn_event, import_typed, notice, signed_code
from tests.app.test_organizer_players import keys_in_order, shown_beside


def round_two(t: Tournament) -> Tournament:
    """8 players through round 1; in round 2, P7's 10,350 is second at table 1, P6's 10,000 first at table 2."""
    for n in range(1, 9):
        t.check_in(t.sign_up(f"P{n}"))
    t.draw_seats(seed=1)
    for table in (1, 2):
        t.record_result(table, [10_000 + table * 100 - seat * 1_000 for seat in range(4)], reason="paper")
    t.close_round()
    assert t.draw_seats(seed=2) == ((7, 4, 8), (6, 2, 1))
    t.record_result(1, [10_350, 12_000, 4_000], reason="paper")
    t.record_result(2, [10_000, 9_000, 600], reason="paper")
    return t


def test_each_rounds_place_comes_with_the_standings_so_a_lower_total_ranked_higher_is_explained():
    t = round_two(Tournament("Cup", event_id="CUP-1", secret=bytes(16)))
    rows, places = {row.number: row for row in t.standings()}, t.round_places()
    assert rows[6].rank < rows[7].rank
    assert (rows[6].totals, places[6]) == ((9_200, 10_000), (3, 1))
    assert (rows[7].totals, places[7]) == ((8_200, 10_350), (5, 2))


def test_the_standings_screen_shows_the_place_beside_each_rounds_total():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("standing-6") == ("2. P6 (number 6) · playing round 2 · Round 1 9,200 (place 3 overall) · "
                                            "Round 2 10,000 (place 1 at table 2)")
        assert ui.text_of("standing-7") == ("3. P7 (number 7) · playing round 2 · Round 1 8,200 (place 5 overall) · "
                                            "Round 2 10,350 (place 2 at table 1)")

    async def setup() -> None:
        organizer = Organizer(desk.store)
        desk.tournament_id = await organizer.create("Cup")
        await organizer.act(round_two)

    asyncio.run(setup())
    desk.run(test, route=desk.route("standings"))


def test_organizer_undo_says_which_result_roll_off_or_check_in_it_took_back():
    t = round_two(Tournament("Cup", event_id="CUP-1", secret=bytes(16)))
    assert t.undo() == "table 2's result in round 2 (P6 10,000, P2 9,000, P1 600)"
    t.undo(), t.undo()
    assert t.undo() == "the close of round 1 (6 going on)"
    fresh = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    fresh.check_in(fresh.sign_up("Ann"))
    assert fresh.undo() == "Ann's check-in (number 1)"


def test_a_refused_paper_result_is_told_beside_the_paper_form_and_undo_names_the_result_it_takes_back():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        await ui.click("nav-results")
        for seat, total in enumerate(["9,000", "6,000", "2,000", "0"], 1):
            await ui.type_text(f"paper-total-{seat}", total)
        await ui.type_text("paper-reason", "score sheet")
        await ui.click("record-paper")
        assert notice(ui).endswith("so the game is not over.")
        assert shown_beside(ui, "record-paper", "close-round")
        await ui.type_text("paper-total-1", "10,000")
        await ui.click("record-paper")
        names = [t.player(n).name for n in t.seating()[0]]
        assert notice(ui) == (f"Round 1, table 1: result entered by hand (1. {names[0]} 10,000, 2. {names[1]} 6,000, "
                              f"3. {names[2]} 2,000, 4. {names[3]} 0).")
        await ui.click("organizer-undo")
        assert notice(ui) == (f"Undone: table 1's result in round 1 ({names[0]} 10,000, {names[1]} 6,000, "
                              f"{names[2]} 2,000, {names[3]} 0).")

    desk.run(test)


def test_a_tie_at_the_cut_names_its_players_beside_the_close_button():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 5)  # one table of 5, the 4 best go on
        await import_typed(ui, signed_code(t, 1, (10_000, 8_000, 5_000, 3_000, 3_000)))
        tied = sorted(t.seating()[0][3:])
        await ui.click("close-round")
        assert notice(ui) == (f"Nothing goes on while a tie is open. Round 1: Player {tied[0]} ({tied[0]}) and "
                              f"Player {tied[1]} ({tied[1]}) are tied on 3,000 over all tables for places 4 to 5: "
                              "record their roll-off.")
        assert shown_beside(ui, "close-round", "void-reason")

    desk.run(test)


def test_a_refused_prize_is_told_under_the_prize_form():
    desk = Desk()

    def crowned(t: Tournament) -> None:
        for name in ("Ann", "Bob", "Cy", "Di"):
            t.check_in(t.sign_up(name))
        while t.champion is None:
            t.draw_seats(seed=3)
            for table, seated in enumerate(t.seating(), 1):
                t.record_result(table, [10_000 + 500 * (len(seated) - seat) for seat in range(len(seated))],
                                reason="paper")
            t.close_round()

    async def setup() -> None:
        organizer = Organizer(desk.store)
        desk.tournament_id = await organizer.create("Cup")
        await organizer.act(crowned)

    async def test(ui: FletHarness) -> None:
        await ui.type_text("prize-amount", "lots")
        await ui.click("award-prize")
        assert notice(ui) == "The prize: 'lots' is not a whole number."
        keys = keys_in_order(ui)
        assert keys.index("award-prize") < keys.index("organizer-notice")

    asyncio.run(setup())
    desk.run(test, route=desk.route("final"))
