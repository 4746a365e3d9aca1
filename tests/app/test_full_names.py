"""Names as people give them: up to 40 characters at the door and on New game, kept whole on the
organizer's pages and in the standings, shown at the table as short forms with the full name a tap away.

A table's card carries the short forms (:func:`engine.tournament.cards.table_setup`), so four
40-character names still fit its QR code; the result code names players by number, so the
organizer's device counts it under the full names.
"""

from __future__ import annotations

import random

import flet as ft
import pytest

from app.qr import qr_image
from app.storage import MemoryStore
from app.table.scorekeeper import Scorekeeper
from app.table.tournament_table import join_link, link_qr_text
from engine import Game, Tournament, decode_setup
from engine.names import short_forms
from tests.app.test_organizer import Desk, new_event, notice
from tests.app.test_tournament_table import game_id_of, join
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game

ALEKSANDRA = "Aleksandra García-Márquez"  # 25 characters: refused while a name had at most 24
BARTHOLOMEW = "Bartholomew García-Márquez"  # 26
FORTY = "Maximiliana Featherstonehaugh-Cholmondel"  # the longest a name may be
assert (len(ALEKSANDRA), len(BARTHOLOMEW), len(FORTY)) == (25, 26, 40)
FORTY_ONE = FORTY + "y"
VENUE = "http://192.168.1.20:8550"
FOUR_OF_FORTY = ("Bartholomew Featherstonehaugh-Smythe III", "Bartholomew Fitzwilliam-Cholmondeley Jnr",
                 "Aleksandra Featherstonehaugh-Cholmondele", "Maximiliana Wolfeschlegelsteinhausen Snr")
REFUSED_41 = (f'"{FORTY_ONE}" has 41 characters: a name has at most 40. Shorten it (a middle name to its initial, '
              "say).")


def seated_event(names: tuple[str, ...]) -> Tournament:
    """An event of ``names``, all checked in, seated at one table (its final)."""
    t = Tournament("Mayor's cup", event_id="MAYOR-26", secret=b"mayor-house-2026")
    for name in names:
        t.check_in(t.sign_up(name))
    t.draw_seats(seed=3)
    return t


def test_the_real_names_and_a_forty_character_one_sign_up_whole_and_a_41_character_one_is_refused() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [ALEKSANDRA, BARTHOLOMEW])
        await ui.type_text("signup-list", f"Name\n{FORTY}\n{FORTY_ONE}\n")
        await ui.click("preview-list")
        assert [ui.text_of(f"list-line-{n}") for n in (2, 3)] == [f"3. {FORTY}", f"Line 3: {REFUSED_41}"]
        await ui.click("add-list")
        assert notice(ui) == "1 player signed up, number 3."
        before = (await desk.now()).events
        await ui.type_text("signup-name", FORTY_ONE)
        await ui.click("sign-up")
        assert notice(ui) == REFUSED_41
        assert (await desk.now()).events == before  # refused: nothing was recorded
        assert [p.name for p in (await desk.now()).players] == [ALEKSANDRA, BARTHOLOMEW, FORTY]
        assert {f"1. {ALEKSANDRA} · checked in", f"2. {BARTHOLOMEW} · checked in",
                f"3. {FORTY} · not checked in"} <= set(ui.texts())  # the players page shows each whole

    desk.run(test)


def test_a_tables_phone_plays_the_short_forms_and_the_organizer_counts_the_result_under_the_full_names() -> None:
    store = MemoryStore()
    t = seated_event((ALEKSANDRA, BARTHOLOMEW, FORTY, "Ann"))
    code = t.setup_code(1, VENUE)
    full = {n: t.player(n).name for n in t.seating()[0]}
    carried = dict(zip(decode_setup(code).numbers, decode_setup(code).names))
    assert carried == {n: {ALEKSANDRA: "Aleksandra G.", BARTHOLOMEW: "Bartholomew G.",
                           FORTY: "Maximiliana F.", "Ann": "Ann"}[name] for n, name in full.items()}

    async def test(ui: FletHarness) -> None:
        await join(ui, code)
        seats = [text for text in ui.texts() if text.startswith("Seat ")]
        assert seats == [f"Seat {s}: {carried[n]} (number {n})" for s, n in enumerate(t.seating()[0], 1)]
        await ui.click("start-tournament-game")
        game_id = game_id_of(ui)
        table = Scorekeeper(store)
        game = await table.open_game(game_id)
        assert game is not None and game.players == tuple(carried[n] for n in t.seating()[0])
        await table.act(lambda game: play_game(game, random.Random(5)) and None)
        await ui.navigate("/")
        await ui.navigate(f"/game/{game_id}")
        for seat in range(1, 5):
            await ui.click(f"confirm-seat-{seat}")
        assert t.import_result(ui.text_of("result-code-text")).status == "accepted"
        assert table.game is not None
        by_number = dict(zip(t.seating()[0], table.game.scores))
        assert {(row.name, row.totals[0]) for row in t.standings()} == {(full[n], by_number[n]) for n in full}

    run(test, store=store)


@pytest.mark.parametrize("venue", [VENUE, "http://farkle-table.local:8550/apps/farkle/#", ""])
def test_a_card_for_four_40_character_names_is_a_qr_code_of_version_10_or_lower_at_level_m(venue: str) -> None:
    """As the seating page draws it: the join link where the organizer gave an address, else the code."""
    t = seated_event(FOUR_OF_FORTY)
    code = t.setup_code(1, venue)
    drawn = qr_image(link_qr_text(join_link(code, venue)) if venue else code)
    assert drawn.version <= 10
    assert set(decode_setup(code).names) == {"Bartholomew Fe.", "Bartholomew Fi.", "Aleksandra F.", "Maximiliana W."}


def test_new_game_starts_with_whole_names_and_the_scoreboard_shows_short_forms_with_the_full_name_a_tap_away() -> None:
    store = MemoryStore()
    names = (ALEKSANDRA, BARTHOLOMEW, FORTY, "Ann")

    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        for _ in names[2:]:
            await ui.click("add-player")
        for seat, name in enumerate(names, 1):
            await ui.type_text(f"player-name-{seat}", name)
        await ui.click("start-game")
        game = await Scorekeeper(store).open_game(game_id_of(ui))
        assert game is not None and game.players == names
        shown = ["Aleksandra G.", "Bartholomew G.", "Maximiliana F.", "Ann"]
        assert [ui.text_of(f"name-{seat}") for seat in range(4)] == shown
        assert ui.text_of("turn-name") == "Aleksandra G."
        assert not ui.find("line-3", ft.Container).on_click  # a name shown whole has nothing more to show
        await ui.click("line-1")
        assert [ui.text_of(f"name-{seat}") for seat in range(4)] == [shown[0], BARTHOLOMEW, *shown[2:]]
        await ui.click("line-2")  # one full name at a time
        assert [ui.text_of(f"name-{seat}") for seat in range(4)] == [*shown[:2], FORTY, shown[3]]
        await ui.click("line-2")
        assert [ui.text_of(f"name-{seat}") for seat in range(4)] == shown
        said = [ui.accessible_name(ui.find(f"seat-{seat}")) for seat in range(4)]
        assert [label.removeprefix("Playing now: ").split(" · ")[0] for label in said] == list(names)

    run(test, store=store)


def test_a_game_of_eight_long_names_shows_eight_different_short_forms() -> None:
    names = [f"Bartholomew {family}" for family in ("García-Márquez", "Grünewald-Osterhagen", "Garcia-Marquez",
                                                    "Fitzwilliam-Cholmondeley", "Featherstonehaugh", "Gómez-Pérez",
                                                    "Gomez", "Zoltán Kovács-Nagy")]
    Game(names)  # a game takes them
    forms = short_forms(names)
    assert forms == ("Bartholomew Garcí.", "Bartholomew Gr.", "Bartholomew Garci.", "Bartholomew Fi.",
                     "Bartholomew Fe.", "Bartholomew Gómez-Pérez", "Bartholomew Gomez", "Bartholomew Z.")


def test_a_players_page_of_a_long_name_is_titled_by_its_short_form_and_gives_the_name_whole() -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        await ui.type_text("player-name-1", FORTY)
        await ui.type_text("player-name-2", "Ann")
        await ui.click("start-game")
        await ui.navigate(f"/player/{FORTY}")
        assert ui.text_of("player-name") == FORTY
        assert "Maximiliana F." in ui.texts()  # the app bar's title
        await ui.navigate("/player/Ann")
        assert not ui.exists("player-name") and "Ann" in ui.texts()

    run(test, store=store)


def test_who_starts_offers_the_short_forms_the_table_will_show() -> None:
    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        await ui.type_text("player-name-1", ALEKSANDRA)
        await ui.type_text("player-name-2", BARTHOLOMEW)
        await ui.click("add-player")
        options = ui.find("first-player", ft.Dropdown).options
        assert [option.text for option in options] == ["Aleksandra G.", "Bartholomew G.", "Player 3"]

    run(test, store=MemoryStore())
