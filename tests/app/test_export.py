""""Export all games" never hands a table's signing key to a device that may not have it
(issue 16): on the organizer's own device the export is whole; from another device on the
venue network a tournament table's game goes without its setup code (which holds the
key), unless that device gave the event's organizer passphrase.  Such a game, brought to
another device, is still a record of the game and signs nothing.

Each export is pressed in a client-less Flet session, from the address the device has,
and judged by the file it hands over.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app.event.access import SESSIONS_KEY, issue_token
from app.venue.client_address import ORGANIZER_ADDRESSES_ENV, remember_peer
from app.event.passphrase import hash_passphrase
from app.main import app_on
from app.event.organizer import Organizer
from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore, MemoryStore, Store
from app.table.tournament_table import signed_result, tournament_meta
from engine import FarkleError, Game, decode_setup
from tests.support.app_driver import run as run_app
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game

PHONE = "192.168.1.57"
LOOPBACK = "127.0.0.1"
PASSPHRASES = {"HARBOUR-26": "harbour tides 9", "NIGHT-26": "night owls 12"}


def finish_with_seed(seed: int) -> Callable[[Game], None]:
    def finish(game: Game) -> None:
        play_game(game, random.Random(seed))

    return finish


class Venue:
    """One server's store: two events (each with a passphrase), a finished game at table 1
    of each, and a game that is no tournament's."""

    def __init__(self) -> None:
        self.store = MemoryStore()
        self.event_ids: dict[str, str] = {}
        self.setup_codes: dict[str, str] = {}

    async def seed(self) -> None:
        for number, (event_id, passphrase) in enumerate(PASSPHRASES.items()):
            organizer = Organizer(self.store)
            self.event_ids[event_id] = await organizer.create(
                event_id.title(), event_id=event_id, passphrase_hash=hash_passphrase(passphrase, n=2**4))
            for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
                await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
            await organizer.act(lambda t: t.draw_seats(7))
            code = organizer.open_tournament.setup_code(1)
            self.setup_codes[event_id] = code
            setup = decode_setup(code)
            keeper = Scorekeeper(self.store)
            await keeper.start_game(list(setup.names), setup.rules, meta=tournament_meta(setup, code))
            await keeper.act(finish_with_seed(number))
        await Scorekeeper(self.store).start_game(["Ivy", "Jo"], decode_setup(code).rules)

    def press_export(self, address: str, *, signed_in_to: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
        """Export from a device at ``address`` (signed in to these events, by event id): the
        file's content and what Home then says."""
        prefs: dict[str, Any] = {}
        if signed_in_to:
            hashes = asyncio.run(Organizer(self.store).passphrase_hashes())
            tokens = {self.event_ids[e]: issue_token(self.event_ids[e], hashes[self.event_ids[e]], time.time())
                      for e in signed_in_to}
            prefs[SESSIONS_KEY] = json.dumps(tokens)
        saved: list[bytes] = []

        def save_file(ui: FletHarness, service: Any, args: Any) -> str:
            saved.append(args["src_bytes"])
            return "/downloads/" + str(args["file_name"])

        async def press(ui: FletHarness) -> str:
            await ui.click("export-games")
            return str(ui.text_of("home-message"))

        told = run_at(address, self.store, press, shared_preferences=prefs,
                      services={("FilePicker", "save_file"): save_file})
        (data,) = saved
        return json.loads(data), told


def run_at(address: str, store: Store, test: Callable[[FletHarness], Awaitable[Any]], route: str = "/",
           **options: Any) -> Any:
    """The app in a session whose client is at ``address``, as the server records it."""
    inner = app_on(store)

    async def main(page: ft.Page) -> None:
        page.client_ip = address  # as Flet sets it when the websocket connects
        remember_peer(page)
        await inner(page)

    async def session() -> Any:
        async with FletHarness(main, route=route, **options) as ui:
            return await test(ui)

    return asyncio.run(session())


@pytest.fixture
def venue(monkeypatch: pytest.MonkeyPatch) -> Venue:
    monkeypatch.delenv(ORGANIZER_ADDRESSES_ENV, raising=False)
    place = Venue()
    asyncio.run(place.seed())
    return place


def table_games(export: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {game["tournament"]["event_id"]: game for game in export["games"] if game.get("tournament")}


def test_an_export_from_another_device_carries_no_tables_setup_code_and_so_no_signing_key(venue: Venue) -> None:
    export, told = venue.press_export(PHONE)
    text = json.dumps(export)
    for code in venue.setup_codes.values():
        assert code not in text
        assert decode_setup(code).key.hex() not in text
    games = table_games(export)
    assert set(games) == set(PASSPHRASES) and len(export["games"]) == 3
    for event_id, game in games.items():
        assert "setup" not in game["tournament"] and game["tournament"]["table"] == 1
        assert Game.from_events(game["events"]).is_over  # the whole game, all the same
        with pytest.raises(FarkleError, match="without its table's signing key"):
            signed_result(Game.from_events(game["events"]), game["tournament"])
    assert "2 tournament tables' games went without the table's signing key" in told


def test_an_export_on_the_organizers_own_device_is_whole(venue: Venue) -> None:
    export, told = venue.press_export(LOOPBACK)
    games = table_games(export)
    for event_id, code in venue.setup_codes.items():
        assert games[event_id]["tournament"]["setup"] == code
        signed_result(Game.from_events(games[event_id]["events"]), games[event_id]["tournament"])
    assert "signing key" not in told


def test_a_device_signed_in_with_an_events_passphrase_takes_that_events_keys_only(venue: Venue) -> None:
    export, told = venue.press_export(PHONE, signed_in_to=("HARBOUR-26",))
    games = table_games(export)
    assert games["HARBOUR-26"]["tournament"]["setup"] == venue.setup_codes["HARBOUR-26"]
    assert "setup" not in games["NIGHT-26"]["tournament"]
    assert venue.setup_codes["NIGHT-26"] not in json.dumps(export)
    assert "1 tournament table's game went without the table's signing key" in told


def test_a_table_game_exported_without_its_key_opens_elsewhere_as_a_record_that_signs_nothing(
    venue: Venue, tmp_path: Path
) -> None:
    export, _ = venue.press_export(PHONE)
    game = table_games(export)["HARBOUR-26"]
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / f"{game['id']}.json").write_text(json.dumps(game))  # brought to another device
    store = FileStore(tmp_path)
    winner = game["winner"]

    async def look(ui: FletHarness) -> None:
        assert f"{winner} wins!" in ui.texts() and "HARBOUR-26 · Round 1 · Table 1" in ui.texts()
        assert "without its table's signing key" in ui.text_of("result-code-problem")
        assert not ui.exists("result-qr")

    run_app(look, f"/game/{game['id']}", store=store)
    assert store.problems == ()
