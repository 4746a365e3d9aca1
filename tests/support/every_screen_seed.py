"""A data folder holding something for every screen to show, written through the app's own
stores (no clicking): games in play, tied, over and handed over; events being signed up,
seated at ten (or more) tables with some results in, and finished with a champion; names of
up to 40 characters among them.

    seeded = seed_every_screen(tmp_path / "data", "http://127.0.0.1:8550", tables=10)
    seeded.routes()   # [("home", "/"), ("seating", "/organizer/<id>/seating"), ...]
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.event.organizer import Organizer
from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore
from app.table.tournament_table import result_qr_text, tournament_meta, with_answer
from engine import Game, Rules, Tournament, TournamentFormat, decode_setup, encode_result, result_from_game
from tests.support.game_play import play_game
from tests.support.browser_support import in_thread

__all__ = ["Seeded", "seed_every_screen", "seed_seating"]

HOUSE = Rules.preset("house")
LONG_NAMES = ("Aleksandra García-Márquez", "Maximiliana Featherstonehaugh-Cholmondel")
"""Names as people give them, the second of the most characters a name may have (40): the
seated event's players 1 and 2, and the third player of the game in play."""


@dataclass(frozen=True)
class Seeded:
    """The ids of what was stored, and the routes of every screen showing it."""

    game_in_play: str
    game_tied: str
    game_over: str
    table_handover: str
    event_seated: str
    event_signing_up: str
    event_finished: str
    result_link: str
    winner: tuple[str, int]
    """The finished game's winner and total (the follower at the end names them)."""

    def routes(self) -> list[tuple[str, str]]:
        """(screen, route) for every screen of the app."""
        seated = f"/organizer/{self.event_seated}"
        return [
            ("home", "/"),
            ("new game", "/new"),
            ("rematch", f"/new/{self.game_over}"),
            ("table", f"/game/{self.game_in_play}"),
            ("follower", f"/follow/{self.game_in_play}"),
            ("follower at the end", f"/follow/{self.game_over}"),
            ("roll-off", f"/game/{self.game_tied}"),
            ("game over", f"/game/{self.game_over}"),
            ("history", f"/game/{self.game_over}/history"),
            ("player", "/player/Ann"),
            ("lookup", "/lookup"),
            ("lookup of a game", f"/lookup/{self.game_in_play}"),
            ("join", "/join"),
            ("table result", f"/game/{self.table_handover}"),
            ("organizer list and new event format", "/organizer"),
            ("event with its format editor", f"/organizer/{self.event_signing_up}"),
            ("event", seated),
            ("players", f"{seated}/players"),
            ("seating", f"{seated}/seating"),
            ("print", f"{seated}/print"),
            ("seat list", f"{seated}/print-seats"),
            ("result slips", f"{seated}/print-slips"),
            ("standings to print", f"{seated}/print-standings"),
            ("results", f"{seated}/results"),
            ("standings", f"{seated}/standings"),
            ("room lookup", f"{seated}/lookup"),
            ("room display", f"{seated}/display"),
            ("final", f"/organizer/{self.event_finished}/final"),
            ("import link", "/import/" + self.result_link),
            ("players' page", "/players/BIG-26"),
            ("not found", "/no/such/screen"),
        ]


def _bank_1050(game: Game) -> None:
    game.roll("1 1 1 5 2 3")
    game.keep("1 1 1 5")
    game.bank()


def _tie_for_the_win(game: Game) -> None:
    """Both players of a game to 2,000 reach 2,100 in the last round: the roll-off is asked."""
    for _ in range(4):
        _bank_1050(game)
    assert game.tied


def _winning_totals(numbers: Sequence[int]) -> list[int]:
    """Seat 1 wins with 10,000 and more; the others have distinct totals (a finished game gives these)."""
    return [10_000 + 50 * numbers[0] if seat == 0 else 5_000 + 50 * n for seat, n in enumerate(numbers)]


async def _seated_event(organizer: Organizer, name: str, event_id: str, players: int, base: str) -> str:
    cap = max(players, TournamentFormat.house().cap)
    tournament_id = await organizer.create(name, cap=cap, event_id=event_id, link_base=base)
    names = [*LONG_NAMES, *(f"Player {index:03}" for index in range(len(LONG_NAMES) + 1, players + 1))]
    await organizer.act(lambda t: [t.check_in(t.sign_up(player)) for player in names])
    await organizer.act(lambda t: t.draw_seats(2026))
    return tournament_id


async def _seed(store: FileStore, base: str, tables: int) -> Seeded:
    keeper = Scorekeeper(store)
    organizer = Organizer(store)
    in_play = await keeper.start_game(["Ann", "Bob", LONG_NAMES[1]], HOUSE)
    await keeper.act(_bank_1050)
    tied = await keeper.start_game(["Ann", "Bob"], dataclasses.replace(HOUSE, target=2000))
    await keeper.act(_tie_for_the_win)
    over = await keeper.start_game(["Ann", "Bob", "Cy"], HOUSE)
    await keeper.act(lambda game: play_game(game, random.Random(7)) and None)
    played = keeper.game
    assert played is not None and played.winner is not None
    winner = (played.players[played.winner], played.scores[played.winner])

    seated = await _seated_event(organizer, "Big cup", "BIG-26", 4 * tables, base)
    t: Tournament = organizer.open_tournament
    for table in (3, 5):
        await organizer.act(lambda t, table=table: t.record_result(table, _winning_totals(t.seating()[table - 1]),
                                                                   reason="paper score sheet"))
    code = t.setup_code(1, base)
    setup = decode_setup(code)
    handover = await keeper.start_game(list(setup.names), setup.rules, 0, meta=tournament_meta(setup, code))
    await keeper.act(lambda game: play_game(game, random.Random(5)) and None)
    for seat in range(len(setup.names)):
        meta = keeper.meta["tournament"]
        await keeper.update_meta("tournament", with_answer(keeper.game, meta, seat, True))
    table_2 = decode_setup(t.setup_code(2, base))
    finished_2 = play_game(Game(list(table_2.names), table_2.rules, 0), random.Random(11))
    link = result_qr_text(encode_result(result_from_game(finished_2, table_2), table_2.key), base)

    signing_up = await organizer.create("Spring cup", event_id="SPRING-26", link_base=base)
    await organizer.act(lambda t: [t.sign_up(player) for player in ("Ann", "Bob", "Cy", "Di", "Ed")])

    finished = await organizer.create("Final night", event_id="FINAL-26", link_base=base)
    await organizer.act(lambda t: [t.check_in(t.sign_up(player)) for player in ("Ann", "Bob", "Cy", "Di")])
    await organizer.act(lambda t: t.draw_seats(1))
    await organizer.act(lambda t: t.record_result(1, _winning_totals(t.seating()[0]), reason="paper score sheet"))
    await organizer.act(lambda t: t.close_round())
    payload = link[link.upper().rindex("/IMPORT/") + len("/IMPORT/"):]
    return Seeded(in_play, tied, over, handover, seated, signing_up, finished, payload, winner)


def seed_every_screen(data_dir: Path, base: str, tables: int = 10) -> Seeded:
    """Write the data every screen shows into ``data_dir`` (links point at ``base``)."""
    store = FileStore(data_dir)
    try:  # Playwright's sync API runs an event loop in this thread: seed from another one
        return in_thread(_seed(store, base, tables))
    finally:
        store.close()


def seed_seating(data_dir: Path, base: str, tables: int) -> str:
    """An event of ``4 * tables`` players with round 1 drawn; its id."""
    store = FileStore(data_dir)
    try:
        return in_thread(_seated_event(Organizer(store), "Big cup", "BIG-26", 4 * tables,
                                                            base))
    finally:
        store.close()
