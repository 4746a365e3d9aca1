"""One event code, one event on a device (issue 25): an event code is no secret, so it may not
be what grants an event's table keys or picks the event a result link goes to.

The attack: a phone signed in to event A creates event B with A's event code, then presses
"Export all games" and walks away with A's setup codes (their signing keys). Now the code is
refused, naming A; and where old data already holds two events with one code (planted here
in the data folder as it could be), keys go by the card's key, the events' own passphrases
decide, and a result link asks which event it is for.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from app.event.access import SESSIONS_KEY, DeviceAccess, RouteAccess, issue_token, route_access, route_target, route_targets
from app.venue.client_address import ORGANIZER_ADDRESSES_ENV
from app.event.codes import CodeHolder, CodeTaken, SharedCode, code_holders
from app.documents.events import COLLECTION, KeptEvent, event_document
from app.event.organizer import Organizer
from app.event.passphrase import MIN_PASSPHRASE
from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore, Store
from app.table.tournament_table import tournament_meta
from engine import Game, Tournament, decode_setup, encode_result, link_form, result_from_game
from tests.support.access_support import PHONE, cheap_hash
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game
from tests.app.test_export import run_at

LOOPBACK = "127.0.0.1"
CODE = "HARBOUR-26"
PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def signed_in_prefs(store: Store, *tournament_ids: str) -> dict[str, Any]:
    """A device's client storage holding sessions for these events, as a passphrase given at the gate leaves it."""
    hashes = asyncio.run(Organizer(store).passphrase_hashes())
    tokens = {tid: issue_token(tid, hashes[tid], time.time()) for tid in tournament_ids}
    return {SESSIONS_KEY: json.dumps(tokens)}


def seated(tournament: Tournament) -> Tournament:
    """The tournament with eight players checked in and round 1 drawn."""
    for name in PLAYERS:
        tournament.check_in(tournament.sign_up(name))
    tournament.draw_seats(7)
    return tournament


async def plant(store: Store, name: str, code: str, passphrase: str) -> str:
    """An event stored as data kept before codes were unique could hold it: written to the data
    folder as the organizer writes events, whatever other event holds its code."""
    tournament = seated(Tournament(name, event_id=code))
    tournament_id = f"planted-{name.split()[0].lower()}"
    kept = KeptEvent(tournament, "", cheap_hash(passphrase))
    await store.save(COLLECTION, tournament_id, event_document(tournament_id, kept), expect_revision=0)
    return tournament_id


async def join_and_finish(store: Store, tournament: Tournament, table: int, seed: int) -> str:
    """A table's device joins with the setup code and plays the game out; the setup code."""
    code = tournament.setup_code(table)
    setup = decode_setup(code)
    keeper = Scorekeeper(store)
    await keeper.start_game(list(setup.names), setup.rules, meta=tournament_meta(setup, code))
    await keeper.act(lambda game: play_game(game, random.Random(seed)))
    return code


@pytest.fixture(autouse=True)
def phones_are_not_the_organizer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ORGANIZER_ADDRESSES_ENV, raising=False)


@pytest.fixture
def harbour(tmp_path: Path) -> tuple[FileStore, str]:
    """A data folder with the Harbour cup (code HARBOUR-26, passphrase "harbour tides 9")."""
    store = FileStore(tmp_path / "data")

    async def create() -> str:
        return await Organizer(store).create("Harbour cup", event_id=CODE,
                                             passphrase_hash=cheap_hash("harbour tides 9"))

    return store, asyncio.run(create())


# -- a code already held is refused ----------------------------------------------------------------


def test_a_phone_signed_in_to_one_event_cannot_create_another_with_its_code(harbour: tuple[FileStore, str]) -> None:
    store, cup = harbour
    before = asyncio.run(store.load_all(COLLECTION))

    async def create_with_the_same_code(ui: FletHarness) -> str:
        await ui.type_text("event-name", "Pier cup")
        await ui.type_text("event-code", CODE.lower())
        await ui.type_text("event-passphrase", "pier night 2026")
        await ui.type_text("event-passphrase-again", "pier night 2026")
        await ui.click("create-event")
        return ui.text_of("organizer-notice")

    told = run_at(PHONE, store, create_with_the_same_code, "/organizer",
                  shared_preferences=signed_in_prefs(store, cup))
    assert "The event code HARBOUR-26 is already the code of Harbour cup on this device" in told
    assert asyncio.run(store.load_all(COLLECTION)) == before


@pytest.mark.parametrize("typed", ["HARBOUR-26", "harbour-26", "  Harbour-26 "])
def test_the_organizer_too_is_refused_a_code_another_event_holds_however_it_is_typed(
        harbour: tuple[FileStore, str], typed: str) -> None:
    store, cup = harbour

    async def create() -> None:
        await Organizer(store).create("Pier cup", event_id=typed)

    with pytest.raises(CodeTaken, match="already the code of Harbour cup"):
        asyncio.run(create())
    assert [holder.id for holder in asyncio.run(code_holders(store, CODE))] == [cup]


def test_a_new_event_with_a_free_code_is_created_and_holds_it_alone(harbour: tuple[FileStore, str]) -> None:
    store, _ = harbour
    pier = asyncio.run(Organizer(store).create("Pier cup", event_id="PIER-26"))
    assert [holder.id for holder in asyncio.run(code_holders(store, "PIER-26"))] == [pier]


# -- keys go by the card's key, not by the code ---------------------------------------------------


@pytest.fixture
def two_events_one_code(harbour: tuple[FileStore, str]) -> tuple[FileStore, dict[str, str], dict[str, str]]:
    """Old data with two events holding HARBOUR-26 (each with its own passphrase), a finished table
    game of each at table 1: the stored ids and the setup codes, by event name."""
    store, cup = harbour

    async def seed() -> tuple[dict[str, str], dict[str, str]]:
        organizer = Organizer(store)
        await organizer.open(cup)
        await organizer.act(seated)
        night = await plant(store, "Night cup", CODE, "night owls 12")
        ids = {"Harbour cup": cup, "Night cup": night}
        codes = {}
        for seed, (name, tid) in enumerate(ids.items()):
            tournament = await Organizer(store).open(tid)
            assert tournament is not None
            codes[name] = await join_and_finish(store, tournament, 1, seed)
        return ids, codes

    ids, codes = asyncio.run(seed())
    return store, ids, codes


def press_export(store: Store, address: str, prefs: dict[str, Any]) -> str:
    """The file "Export all games" hands over, as text."""
    saved: list[bytes] = []

    def save_file(ui: FletHarness, service: Any, args: Any) -> str:
        saved.append(args["src_bytes"])
        return "/downloads/" + str(args["file_name"])

    async def press(ui: FletHarness) -> None:
        await ui.click("export-games")

    run_at(address, store, press, shared_preferences=prefs, services={("FilePicker", "save_file"): save_file})
    (data,) = saved
    return data.decode("utf-8")


def test_a_phone_signed_in_to_one_of_two_events_with_one_code_exports_only_that_events_key(
        two_events_one_code: tuple[FileStore, dict[str, str], dict[str, str]]) -> None:
    store, ids, codes = two_events_one_code
    export = press_export(store, PHONE, signed_in_prefs(store, ids["Night cup"]))
    assert codes["Night cup"] in export and decode_setup(codes["Night cup"]).key.hex() not in export
    assert codes["Harbour cup"] not in export
    games = [game for game in json.loads(export)["games"] if game.get("tournament")]
    assert len(games) == 2 and sum("setup" in game["tournament"] for game in games) == 1


def test_a_phone_signed_in_to_neither_exports_no_key_and_the_organizer_exports_both(
        two_events_one_code: tuple[FileStore, dict[str, str], dict[str, str]]) -> None:
    store, _, codes = two_events_one_code
    anonymous = press_export(store, PHONE, {})
    whole = press_export(store, LOOPBACK, {})
    for code in codes.values():
        assert code not in anonymous and code in whole


def test_an_event_printed_the_cards_of_its_draws_and_no_card_of_another_event_with_its_code() -> None:
    harbour = seated(Tournament("Harbour cup", event_id=CODE))
    night = seated(Tournament("Night cup", event_id=CODE))
    first = harbour.setup(2)
    assert harbour.printed(first) and not night.printed(first)
    harbour.revoke_card(2, "phone lost")
    assert harbour.printed(first) and harbour.printed(harbour.setup(2))  # a revoked card was printed all the same
    harbour.cancel_draw()
    harbour.draw_seats(8)
    assert harbour.printed(first)  # of a cancelled draw
    assert not harbour.printed(decode_setup(night.setup_code(1)))


# -- a result link names a code two events hold: the person chooses -------------------------------


def result_route(store: Store, tournament_id: str, seed: int) -> str:
    """The ``/import/...`` route of a result played at table 2 of the event."""
    tournament = asyncio.run(Organizer(store).open(tournament_id))
    assert tournament is not None
    setup = decode_setup(tournament.setup_code(2))
    game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(seed))
    link = link_form(encode_result(result_from_game(game, setup), setup.key))
    return link[link.index("/import/"):]


async def results_of(store: Store, tournament_id: str) -> list[int]:
    """The tables whose result the stored event counts."""
    tournament = await Organizer(store).open(tournament_id)
    assert tournament is not None
    return sorted(tournament.results())


def test_a_result_link_whose_code_two_events_hold_asks_which_and_imports_into_the_one_chosen(
        two_events_one_code: tuple[FileStore, dict[str, str], dict[str, str]]) -> None:
    store, ids, _ = two_events_one_code
    route = result_route(store, ids["Harbour cup"], seed=3)

    async def choose(ui: FletHarness) -> None:
        assert "2 events on this device have the event code HARBOUR-26" in ui.text_of("organizer-notice")
        assert ui.exists(f"import-into-{ids['Harbour cup']}") and ui.exists(f"import-into-{ids['Night cup']}")
        assert await results_of(store, ids["Harbour cup"]) == await results_of(store, ids["Night cup"]) == []
        await ui.click(f"import-into-{ids['Harbour cup']}")
        assert ui.exists("result-code")  # the chosen event's inbox

    run_at(LOOPBACK, store, choose, route)
    assert asyncio.run(results_of(store, ids["Harbour cup"])) == [2]
    assert asyncio.run(results_of(store, ids["Night cup"])) == []


def test_a_phone_signed_in_to_one_of_the_two_events_is_offered_only_that_one(
        two_events_one_code: tuple[FileStore, dict[str, str], dict[str, str]]) -> None:
    store, ids, _ = two_events_one_code
    route = result_route(store, ids["Night cup"], seed=4)

    async def choose(ui: FletHarness) -> None:
        assert not ui.exists(f"import-into-{ids['Harbour cup']}")
        assert not any("Harbour cup" in text for text in ui.texts())
        await ui.click(f"import-into-{ids['Night cup']}")

    run_at(PHONE, store, choose, route, shared_preferences=signed_in_prefs(store, ids["Night cup"]))
    assert asyncio.run(results_of(store, ids["Night cup"])) == [2]
    assert asyncio.run(results_of(store, ids["Harbour cup"])) == []


def test_a_phone_signed_in_to_neither_event_is_asked_a_passphrase_and_imports_nothing(
        two_events_one_code: tuple[FileStore, dict[str, str], dict[str, str]]) -> None:
    store, ids, _ = two_events_one_code
    route = result_route(store, ids["Harbour cup"], seed=5)

    async def look(ui: FletHarness) -> None:
        assert ui.exists("gate-passphrase") and not ui.exists(f"import-into-{ids['Harbour cup']}")

    run_at(PHONE, store, look, route)
    assert asyncio.run(results_of(store, ids["Harbour cup"])) == asyncio.run(results_of(store, ids["Night cup"])) == []


# -- the new event's passphrase rule, as the form says it ----------------------------------------


def test_the_new_event_form_gives_the_passphrase_rule_that_is_enforced(harbour: tuple[FileStore, str]) -> None:
    store, cup = harbour

    async def create_without_one(ui: FletHarness) -> tuple[str, str]:
        help_text = ui.text_of("event-passphrase-help")
        await ui.type_text("event-name", "Pier cup")
        await ui.click("create-event")
        return help_text, ui.text_of("organizer-notice")

    help_text, told = run_at(PHONE, store, create_without_one, "/organizer",
                             shared_preferences=signed_in_prefs(store, cup))
    for text in (help_text, told):
        assert f"({MIN_PASSPHRASE} characters or more)" in text and MIN_PASSPHRASE == 8


# -- who a result link with a shared code opens to --------------------------------------------------


class SharedCodeEvents:
    """Three stored events: two holding the link's code (one without a passphrase in the third row)."""

    def __init__(self, hashes: dict[str, str]) -> None:
        self.hashes = hashes

    async def passphrase_hashes(self) -> dict[str, str]:
        return dict(self.hashes)

    async def event_for_code(self, text: str) -> str | None:
        raise SharedCode(CODE, [CodeHolder(tid, tid.title()) for tid in self.hashes if tid != "pier"])


SHARED_LINK_DECISIONS = [
    # (the holders' passphrases, the events the phone signed in to, what the phone is shown)
    ({"harbour": "harbour tides 9", "night": "night owls 12"}, (), "sign_in"),
    ({"harbour": "harbour tides 9", "night": "night owls 12"}, ("night",), "open"),
    ({"harbour": "harbour tides 9", "night": "night owls 12"}, ("pier",), "sign_in"),  # a third event opens neither
    ({"harbour": "", "night": ""}, (), "no_passphrase"),
    ({"harbour": "harbour tides 9", "night": ""}, (), "sign_in"),
]


@pytest.mark.parametrize(("passphrases", "signed_in", "shown"), SHARED_LINK_DECISIONS)
def test_a_link_whose_code_two_events_hold_opens_to_a_phone_signed_in_to_one_of_them(
        passphrases: dict[str, str], signed_in: tuple[str, ...], shown: str) -> None:
    hashes = {tid: cheap_hash(passphrase) if passphrase else "" for tid, passphrase in
              {**passphrases, "pier": "pier night 2026"}.items()}
    events = SharedCodeEvents(hashes)
    tokens = {tid: issue_token(tid, hashes[tid], time.time()) for tid in signed_in}
    phone = DeviceAccess(PHONE, False, tokens=tokens)
    parts = ("import", "FR1-ANY")
    assert asyncio.run(route_targets(parts, events)) == ("harbour", "night")
    assert asyncio.run(route_target(parts, events)) is None
    assert asyncio.run(route_access(phone, events, parts)) == RouteAccess(shown)
