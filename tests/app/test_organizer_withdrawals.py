"""Changes during the day on the players page: a withdrawal after a cut asks who takes the place, and a
player who did not come is marked missing so their table plays as three."""

from __future__ import annotations

from app.event.organizer import Organizer
from engine.tournament import Cut, RoundSpec, Tournament, TournamentFormat
from tests.app.test_organizer import Desk, notice
from tests.app.test_organizer_players import keys_in_order
from tests.support.flet_harness import FletHarness

BEST_FOUR = TournamentFormat("Best four", 8, (RoundSpec("house", Cut.overall(4)), RoundSpec("house", Cut.final())))
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


async def _event(desk: Desk, totals: dict[str, int] | None) -> None:
    """Eight players checked in and drawn at two tables of four; with ``totals`` round 1 is played and closed."""
    organizer = Organizer(desk.store)
    desk.tournament_id = await organizer.create("Harbour open", None, "HARBOUR-1", "", format=BEST_FOUR)

    def setup(t: Tournament) -> None:
        for name in NAMES:
            t.check_in(t.sign_up(name))
        t.draw_seats(seed=1)
        if totals is None:
            return
        for table, numbers in enumerate(t.seating(), 1):
            t.record_result(table, [totals[t.player(n).name] for n in numbers], reason="paper score sheet")
        t.close_round()

    await organizer.act(setup)


FIELD = {"Ann": 10_500, "Bob": 10_200, "Cy": 9_000, "Di": 8_000, "Ed": 7_000, "Flo": 6_000, "Gus": 5_000,
         "Hal": 4_000}
TIED = {**FIELD, "Flo": 7_000}


async def _open_players(ui: FletHarness, desk: Desk) -> None:
    await ui.navigate(desk.route("players"))
    await ui.settle()


def test_a_withdrawal_after_the_cut_offers_the_next_in_line_and_undo_takes_the_place_back() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await _event(desk, FIELD)
        await _open_players(ui, desk)
        await ui.type_text("withdraw-reason", "train home")
        await ui.click("withdraw-2")
        assert ui.text_of("place-question") == (
            "Ed (7,000) is next in line for Bob's place in the final: they take it, or it stays empty."
        )
        assert not (await desk.now()).player(2).withdrawn  # asking changed nothing
        keys = keys_in_order(ui)
        assert keys.index("player-2") < keys.index("place-question") < keys.index("player-3")  # under Bob's row
        assert ui.accessible_name(ui.find("place-next-in-line")) == "Withdraw Bob; Ed takes the place"
        assert ui.accessible_name(ui.find("place-empty")) == "Withdraw Bob; leave the place empty"
        assert ui.unlabelled_controls() == []
        await ui.click("place-next-in-line")
        assert notice(ui) == "Ed takes Bob's place."
        stored = await desk.now()
        assert stored.player(2).withdrawn and stored.player(2).reason == "train home"
        assert stored.lookup(5)[0].status == "takes Bob's place in the final"
        assert not ui.exists("place-question")
        await ui.click("organizer-undo")
        assert notice(ui) == "Undone: Ed as next in line (takes Bob's place in the final)."
        stored = await desk.now()
        assert stored.player(2).withdrawn and stored.lookup(5)[0].status == "out in round 1"
        await ui.click("place-2")  # the place left empty can still go to the next in line
        await ui.click("place-next-in-line")
        assert notice(ui) == "Ed takes Bob's place."

    desk.run(test)


def test_a_place_left_empty_is_only_a_withdrawal() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await _event(desk, FIELD)
        await _open_players(ui, desk)
        await ui.click("withdraw-2")
        await ui.click("place-empty")
        assert notice(ui) == "Bob (number 2) withdrew."
        stored = await desk.now()
        assert stored.player(2).withdrawn and stored.lookup(5)[0].status == "out in round 1"
        assert len(stored.plan()[-1].table_sizes) == 1 and stored.plan()[-1].players == 3

    desk.run(test)


def test_players_tied_next_in_line_tap_their_dice_and_equal_faces_are_refused_changing_nothing() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await _event(desk, TIED)
        await _open_players(ui, desk)
        await ui.click("withdraw-3")
        assert ui.text_of("place-question").startswith("Ed and Flo are tied on 7,000 for Cy's place in the final")
        assert ui.accessible_name(ui.find("place-roll-5-4")) == "Ed threw 4"
        await ui.click("place-roll-5-4")
        await ui.click("place-roll-6-4")
        await ui.click("place-next-in-line")
        assert notice(ui) == "Ed and Flo both threw 4: the tied players throw again."
        assert not (await desk.now()).player(3).withdrawn
        await ui.click("place-roll-6-5")
        await ui.click("place-next-in-line")
        assert notice(ui) == "Flo takes Cy's place."
        assert (await desk.now()).lookup(6)[0].status == "takes Cy's place in the final"

    desk.run(test)


def test_a_player_who_did_not_come_is_marked_missing_and_the_table_plays_as_three() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await _event(desk, None)
        seated = (await desk.now()).seating()[0]
        dan = seated[1]
        name = (await desk.now()).player(dan).name
        await _open_players(ui, desk)
        assert ui.accessible_name(ui.find(f"missing-{dan}")) == f"{name} did not come to the table"
        await ui.click(f"missing-{dan}")
        assert notice(ui) == f"Table 1 plays as three ({name} did not come)."
        stored = await desk.now()
        assert stored.seating()[0] == tuple(n for n in seated if n != dan)
        assert not ui.exists(f"missing-{dan}") and not ui.exists(f"withdraw-{dan}")
        for page in ("seating", "print"):
            await ui.navigate(desk.route(page))
            await ui.settle()
            assert ui.text_of("card-title-1") == f"Table 1 · Round 1 · plays as three ({name} did not come)"
            assert name not in " ".join(ui.texts()).replace(f"({name} did not come)", "")
        await _open_players(ui, desk)
        await ui.click(f"missing-{seated[0]}")
        assert notice(ui).startswith("Table 1 plays as two (")
        assert not ui.exists(f"missing-{seated[2]}")  # two are left: a table needs them both

    desk.run(test)
