"""A sweep of every route the app serves, opened by another device on the venue network.

The routes come from the app's own tables: every screen an address can name
(:data:`app.routes.Screen`), every page of an event (:data:`app.views.organizer.EVENT_PAGES`)
and every HTTP route of the server (:func:`app.venue.server.flet_web_app`'s own table). A
screen or page added there is swept here; a screen this file has no address for fails
the first test, which says so.

Each route is opened, and each button it shows pressed, by (a) a phone that has signed in to
nothing and (b) a phone signed in to another event (the Night cup): neither may see the
Harbour cup's organizer pages (any control only those pages show), its name (but on its public
players' page), its tables' setup codes or their keys, its passphrase's hash, nor change it (its
stored document stays as it was, byte for byte). The screens run in the client-less harness, then
over the real server's websocket (from another loopback address each, the organizer being at a
documentation address); every HTTP route is asked with GET and POST, and an app route's page
must be the same shell as ``/``.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

import flet as ft
import pytest
from flet.components.component import Component

from app.event import access
from app.event.access import SESSIONS_KEY, issue_token
from app.venue.client_address import ORGANIZER_ADDRESSES_ENV, remember_peer
from app.documents.events import COLLECTION
from app.main import app_on
from app.event.organizer import Organizer
from app.routes import Screen, follow_path, parse_route, players_path
from app.table.scorekeeper import Scorekeeper
from app.venue.server import flet_web_app
from app.event.sign_in_guard import SignInGuard
from app.storage import FileStore
from app.table.tournament_table import tournament_meta
from app.views.organizer import EVENT_PAGES
from engine import Game, decode_setup, encode_result, link_form, read_code, result_from_game, safe_form, typing_form
from tests.support.access_support import PHONE, cheap_hash
from tests.support.browser_support import AppServer, start_app_server
from tests.support.flet_harness import FletHarness
from tests.support.flet_wire import WirePage
from tests.support.game_play import play_game

ORGANIZER = "127.0.0.1"
PLAYERS = ("Zephyrine", "Quillon", "Marigold", "Thaddeus", "Odalys", "Percival", "Wilhelmina", "Barnaby")
NIGHT_PASSPHRASE = "night owls 12"


@dataclass
class Venue:
    """The server's data folder: the Harbour cup (round 1 drawn, table 2's result counted, table 1's
    game finished on a table's device and not yet imported) and the Night cup, the phone's own."""

    folder: Path
    harbour: str = ""
    night: str = ""
    table_game: str = ""
    result_route: str = ""
    secrets: list[str] = field(default_factory=list)
    """Texts no other device may ever be sent: the Harbour cup's name (first), its passphrase's hash,
    its setup codes and keys."""

    def store(self) -> FileStore:
        return FileStore(self.folder)

    async def seed(self) -> None:
        store = self.store()
        try:
            organizer = Organizer(store)
            self.harbour = await organizer.create("Harbour cup", event_id="HARBOUR-26",
                                                  passphrase_hash=cheap_hash("harbour tides 9"))
            for name in PLAYERS:
                await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
            await organizer.act(lambda t: t.draw_seats(7))
            tournament = organizer.open_tournament
            assert organizer.passphrase_hash
            self.secrets += ["Harbour cup", organizer.passphrase_hash]
            for table in range(1, len(tournament.seating()) + 1):
                code = read_code(tournament.setup_code(table))
                self.secrets += [code, safe_form(code), typing_form(code), decode_setup(code).key.hex()]
            await organizer.import_code(self.played(tournament.setup_code(2), seed=2)[1])
            keeper = Scorekeeper(store)
            code = tournament.setup_code(1)
            setup = decode_setup(code)
            self.table_game = await keeper.start_game(list(setup.names), setup.rules, meta=tournament_meta(setup, code))
            await keeper.act(lambda game: play_game(game, random.Random(1)))
            link = link_form(self.played(code, seed=1)[1])
            self.result_route = link[link.index("/import/"):]
            self.night = await Organizer(store).create("Night cup", event_id="NIGHT-26",
                                                       passphrase_hash=cheap_hash(NIGHT_PASSPHRASE))
        finally:
            store.close()

    @staticmethod
    def played(setup_code: str, seed: int) -> tuple[Game, str]:
        setup = decode_setup(setup_code)
        game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(seed))
        return game, encode_result(result_from_game(game, setup), setup.key)

    def harbour_document(self, folder: Path | None = None) -> bytes:
        """The Harbour cup as stored in the data folder (``folder``: a copy of it), byte for byte."""
        return ((folder or self.folder) / COLLECTION / f"{self.harbour}.json").read_bytes()


SCREEN_PATHS: dict[str, Callable[[Venue], list[str]]] = {
    "home": lambda v: ["/"],
    "new": lambda v: ["/new", f"/new/{v.table_game}"],
    "lookup": lambda v: ["/lookup", f"/lookup/{v.table_game}"],
    "game": lambda v: [f"/game/{v.table_game}"],
    "history": lambda v: [f"/game/{v.table_game}/history"],
    "player": lambda v: [f"/player/{PLAYERS[0]}"],
    "organizer": lambda v: ["/organizer", *(f"/organizer/{v.harbour}/{page}".rstrip("/") for page in EVENT_PAGES),
                            f"/organizer/{v.harbour}/no-such-page", f"/organizer/{v.harbour}/results/more"],
    "import": lambda v: [v.result_route, "/import/FR1-NOT-A-CODE"],
    "join": lambda v: ["/join/FT1-NOT-A-CODE"],
    "players": lambda v: [players_path("HARBOUR-26"), "/PLAYERS/HARBOUR-26", players_path("NO-SUCH-26")],
    "follow": lambda v: [follow_path(v.table_game), follow_path("no-such-game")],
    "language": lambda v: ["/language"],
    "not_found": lambda v: ["/no/such/place"],
}
"""Addresses for each screen of :data:`app.routes.Screen`, reaching the Harbour cup wherever one can."""


def every_route(venue: Venue) -> list[str]:
    return [path for paths in SCREEN_PATHS.values() for path in paths(venue)]


def secrets_at(venue: Venue, route: str) -> list[str]:
    """What no device may be sent at ``route``: every secret, but the event's name on the players'
    page, which shows what the room's projector shows (and nothing else of the event)."""
    shown = parse_route(route)
    return venue.secrets[1:] if (shown.screen, shown.payload.upper()) == ("players", "HARBOUR-26") else venue.secrets


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Venue:
    place = Venue(tmp_path_factory.mktemp("sweep") / "data")
    asyncio.run(place.seed())
    return place


@pytest.fixture(autouse=True)
def a_fresh_sign_in_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phones are not the organizer here, and one test's wrong passphrases do not pause the next's."""
    monkeypatch.delenv(ORGANIZER_ADDRESSES_ENV, raising=False)
    monkeypatch.setattr(access, "GUARD", SignInGuard())


def test_the_sweep_has_an_address_for_every_screen_of_the_route_table(venue: Venue) -> None:
    assert set(SCREEN_PATHS) == set(get_args(Screen)), "give SCREEN_PATHS an address for the new screen"
    for screen, paths in SCREEN_PATHS.items():
        assert {parse_route(path).screen for path in paths(venue)} == {screen}, screen


# -- the screens, client-less ------------------------------------------------------------------------


def shown(ui: FletHarness) -> list[str]:
    """Every text on the screen: its texts and the texts its fields, buttons and images carry."""
    texts = list(ui.texts())
    for control, _ in ui.walk(include_hidden=True):
        texts.extend(value for name in ("value", "text", "label", "tooltip", "hint_text", "semantics_label")
                     if isinstance(value := getattr(control, name, None), str))
    return texts


@dataclass
class Visit:
    """What one session at one route showed (texts, and what the app's service calls handed the
    device: files, the clipboard), its controls' keys, and whether the Harbour cup's stored document changed."""

    sent: str
    keys: set[str]
    buttons: list[str]
    changed: bool
    route: str
    """Where the session ended (a button may have led on)."""


def visit(venue: Venue, address: str, route: str, prefs: dict[str, Any] | None = None,
          press: str | None = None) -> Visit:
    """Open ``route`` as a device at ``address`` (press the button ``press`` there) on a copy of the
    venue's data folder, as it was seeded: what it was sent."""
    work = tempfile.TemporaryDirectory()
    folder = Path(shutil.copytree(venue.folder, Path(work.name) / "data"))
    store = FileStore(folder)
    inner = app_on(store)
    saved: list[bytes] = []

    async def main(page: ft.Page) -> None:
        page.client_ip = address  # as Flet sets it when the websocket connects
        remember_peer(page)
        await inner(page)

    def save_file(ui: FletHarness, service: Any, args: Any) -> str:
        saved.append(args["src_bytes"])
        return "/downloads/" + str(args["file_name"])

    async def session() -> Visit:
        async with FletHarness(main, route=route, shared_preferences=dict(prefs or {}),
                               services={("FilePicker", "save_file"): save_file}) as ui:
            if press is not None:
                await ui.click(press)
            controls = [control for control, _ in ui.walk()]
            keys = {str(control.key) for control in controls  # a component's key names its route, server-side
                    if isinstance(control.key, str) and not isinstance(control, Component)}
            buttons = [str(control.key) for control in controls if isinstance(control.key, str)
                       and getattr(control, "on_click", None) is not None and not ui.is_disabled(control.key)]
            sent = "\n".join([*shown(ui), repr(ui.method_calls), *(data.decode("utf-8") for data in saved)])
            return Visit(sent, keys, buttons, venue.harbour_document(folder) != venue.harbour_document(),
                         ui.page.route or "/")

    try:
        return asyncio.run(session())
    finally:
        store.close()
        work.cleanup()


def signed_in_to_night(venue: Venue) -> dict[str, Any]:
    """The client storage of a phone that gave the Night cup's passphrase at the gate."""
    store = venue.store()
    try:
        stored = asyncio.run(Organizer(store).passphrase_hashes())[venue.night]
    finally:
        store.close()
    return {SESSIONS_KEY: json.dumps({venue.night: issue_token(venue.night, stored, time.time())})}


@pytest.fixture(scope="module")
def organizer_only_keys(venue: Venue) -> set[str]:
    """The controls only the Harbour cup's organizer pages show: seen there on the organizer's own
    device, and on no screen a phone opens that is not the event's."""
    event_pages = [f"/organizer/{venue.harbour}/{page}".rstrip("/") for page in EVENT_PAGES]
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(ORGANIZER_ADDRESSES_ENV, raising=False)
        seen = set().union(*(visit(venue, ORGANIZER, route).keys for route in event_pages))
        public = set().union(*(visit(venue, PHONE, route).keys for route in every_route(venue)
                               if route not in event_pages))
    keys = seen - public
    assert {"nav-seating", "setup-code-1", "result-code"} <= keys  # the sweep would see a page if it were shown
    return keys


PHONES = {
    "a phone signed in to nothing": lambda venue: {},
    "a phone signed in to another event": signed_in_to_night,
}


def leaks(venue: Venue, seen: Visit, organizer_only: set[str]) -> list[str]:
    """What of the Harbour cup's the device was shown or changed: its secrets, an organizer page's
    controls (but on the pages of the event the device signed in to, which has the same controls)."""
    own_event = parse_route(seen.route).parts[1:2] == (venue.night,)
    return ([secret[:24] for secret in secrets_at(venue, seen.route) if secret in seen.sent]
            + ([] if own_event else sorted(seen.keys & organizer_only))
            + (["its stored document changed"] if seen.changed else []))


@pytest.mark.parametrize("phone", PHONES)
def test_another_device_opening_every_route_and_pressing_every_button_never_sees_or_changes_the_event(
        venue: Venue, organizer_only_keys: set[str], phone: str) -> None:
    prefs = PHONES[phone](venue)
    found: dict[str, list[str]] = {}
    for route in every_route(venue):
        landing = visit(venue, PHONE, route, prefs)
        found[route] = leaks(venue, landing, organizer_only_keys)
        for button in landing.buttons:
            found[f"{route} [{button}]"] = leaks(venue, visit(venue, PHONE, route, prefs, press=button),
                                                           organizer_only_keys)
    assert {route: what for route, what in found.items() if what} == {}
    assert len(found) > len(every_route(venue))  # buttons were pressed


def test_the_organizers_own_device_sees_what_the_sweep_looks_for(venue: Venue) -> None:
    """The sweep's secrets are what the event's pages show: the check above can fail."""
    seating = visit(venue, ORGANIZER, f"/organizer/{venue.harbour}/seating")
    assert venue.secrets[0] in seating.sent and any(code in seating.sent for code in venue.secrets[1:])


# -- the real server: every HTTP route, and every screen over the websocket ---------------------------


@pytest.fixture(scope="module")
def server(venue: Venue, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """``python -m app`` on a copy of the venue's data folder; loopback is a phone here (the organizer
    is at a documentation address nobody has)."""
    folder = Path(shutil.copytree(venue.folder, tmp_path_factory.mktemp("served") / "data"))
    with start_app_server(folder, env={ORGANIZER_ADDRESSES_ENV: "192.0.2.1"}) as running:
        yield running


def http_routes() -> list[str]:
    """Every path the server's Flet app routes (its own table, mounts opened), ``{…}`` parts as "x"."""
    found: list[str] = []

    def walk(routes: list[Any], prefix: str) -> None:
        for route in routes:
            path = prefix + str(getattr(route, "path", ""))
            if hasattr(route, "routes") and route.routes:
                walk(route.routes, path)
            else:
                found.append(re.sub(r"\{[^}]*\}", "x", path) or "/")

    walk(flet_web_app(lambda page: None).routes, "")
    return sorted(set(found))


def fetch(server: AppServer, method: str, path: str, source: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(source, 0))
    try:
        connection.request(method, path, body=b"" if method == "POST" else None)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def test_every_http_route_and_every_screens_address_answers_a_phone_with_nothing_of_the_event(
        venue: Venue, server: AppServer) -> None:
    paths = [*http_routes(), *every_route(venue), "/assets/fonts/notosanssymbols/x.woff2"]
    assert "/ws" in paths and "/" in paths
    shell = fetch(server, "GET", "/", "127.0.0.40")[1]
    answers: dict[str, str] = {}
    for number, path in enumerate(paths):
        for method in ("GET", "POST"):
            status, body = fetch(server, method, path, f"127.0.0.{41 + number % 100}")
            text = body.decode("utf-8", "replace")
            shown = [secret[:24] for secret in venue.secrets if secret in text]
            if status >= 500 or shown or (method == "GET" and path in every_route(venue) and body != shell):
                answers[f"{method} {path}"] = f"{status} {shown}"
    assert answers == {}
    assert venue.harbour_document(server.data_dir) == venue.harbour_document()


async def over_the_wire(server: AppServer, source: str, route: str, expected: set[str],
                        passphrase: str | None, secrets: list[str]) -> list[str]:
    """Open ``route`` in a session from ``source`` until every control the screen shows in the
    client-less harness (``expected``) has come, or one of ``secrets`` (after giving ``passphrase``
    at the gate, if one is asked); the secrets the server sent it, and a control that never came."""
    page = await WirePage.open(server.port, source, route)
    try:
        for key in sorted(expected):
            if await page.wait_for(f"'{key}'", *secrets) in secrets:
                break
        else:
            if passphrase is not None and "gate-passphrase" in expected:
                await page.type("gate-passphrase", passphrase)
                page.mark()
                await page.click("gate-sign-in")
                await page.wait_for("'gate-notice'", "'event-", *secrets)
    except TimeoutError:
        return [secret[:24] for secret in secrets if secret in page.log] + [f"never showed {key!r}"]
    finally:
        await page.close()
    return [secret[:24] for secret in secrets if secret in page.log]


@pytest.mark.parametrize("phone", ["a phone signed in to nothing", "a phone signed in to another event"])
def test_every_screen_over_the_real_websocket_sends_a_phone_nothing_of_the_event(
        venue: Venue, server: AppServer, phone: str) -> None:
    passphrase = NIGHT_PASSPHRASE if phone.endswith("another event") else None
    sent: dict[str, list[str]] = {}
    for number, route in enumerate(every_route(venue)):
        expected = visit(venue, PHONE, route).keys
        source = f"127.0.{2 if passphrase else 1}.{number + 1}"
        sent[route] = asyncio.run(over_the_wire(server, source, route, expected, passphrase,
                                                secrets_at(venue, route)))
    assert {route: shown for route, shown in sent.items() if shown} == {}
    assert venue.harbour_document(server.data_dir) == venue.harbour_document()


@pytest.mark.parametrize("path", ["/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/oauth_callback"])
def test_the_server_describes_no_api_and_takes_no_oauth_return_a_phone_could_probe(
        server: AppServer, path: str) -> None:
    shell = fetch(server, "GET", "/", "127.0.0.40")[1]
    status, body = fetch(server, "GET", path, "127.0.0.39")
    assert (status, body) == (200, shell) or status == 404, (status, body[:80])
