"""Organizer access: passphrase hashes, session tokens, addresses, the throttle, then the gate's
screens in a client-less Flet session standing in for a phone on the venue network.

The harness is the organizer's own device by default (no network peer is recorded). A
"phone" here is the same app with a client address recorded as :mod:`app.server` records it
(``before_main``), one that is not an organizer address.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

import flet as ft
from app import access
from app.access import (
    SESSION_SECONDS,
    SESSIONS_KEY,
    DeviceAccess,
    PassphraseRefused,
    Throttle,
    check_new_passphrase,
    hash_passphrase,
    is_organizer_address,
    issue_token,
    organizer_networks,
    peer_of,
    remember_peer,
    token_valid,
    verify_passphrase,
)
from app.main import app_on
from app.organizer import COLLECTION, Organizer
from app.storage import MemoryPrefs, MemoryStore
from engine import Tournament, link_form
from tests.flet_harness import FletHarness

PHONE = "192.168.1.50"
FAST = {"n": 2**4}  # cheap scrypt parameters for tests; the stored hash carries its own


def cheap_hash(passphrase: str) -> str:
    return hash_passphrase(passphrase, **FAST)


@dataclass
class FakeClock:
    now: float = 1_000_000.0
    slept: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


# -- passphrases ---------------------------------------------------------------------------------


def test_a_passphrase_is_kept_only_as_a_salted_hash_that_verifies_it_and_nothing_else():
    stored = hash_passphrase("harbour 9")
    again = hash_passphrase("harbour 9")
    assert "harbour" not in stored and stored.startswith("scrypt$")
    assert stored != again  # another salt each time
    assert verify_passphrase("harbour 9", stored) and verify_passphrase("  harbour 9 ", stored)
    assert not verify_passphrase("harbour 8", stored)
    assert not verify_passphrase("harbour 9", "") and not verify_passphrase("harbour 9", "scrypt$broken")
    assert not verify_passphrase("harbour 9", "md5$" + stored.split("$", 1)[1])


@pytest.mark.parametrize("first, again, message", [
    ("123", "123", "at least 4 characters"),
    ("   ", "", "at least 4 characters"),
    ("1234", "1243", "The two passphrases differ"),
])
def test_a_new_passphrase_too_short_or_typed_differently_is_refused_with_the_reason(first, again, message):
    with pytest.raises(PassphraseRefused, match=message):
        check_new_passphrase(first, again)


def test_a_pin_of_four_digits_typed_twice_is_taken_without_its_outer_spaces():
    assert check_new_passphrase(" 2468", "2468 ") == "2468"


# -- session tokens -------------------------------------------------------------------------------


def test_a_session_token_opens_its_event_until_it_expires_and_only_while_the_passphrase_is_the_same():
    stored = cheap_hash("harbour 9")
    token = issue_token("cup-1", stored, now=1_000.0)
    assert token_valid(token, "cup-1", stored, now=1_000.0)
    assert token_valid(token, "cup-1", stored, now=1_000.0 + SESSION_SECONDS - 1)
    assert not token_valid(token, "cup-1", stored, now=1_000.0 + SESSION_SECONDS)
    assert not token_valid(token, "cup-2", stored, now=1_001.0)
    assert not token_valid(token, "cup-1", cheap_hash("harbour 9"), now=1_001.0)  # the passphrase was set again
    assert not token_valid(token, "cup-1", "", now=1_001.0)


def test_a_token_with_a_longer_life_or_another_signature_is_refused():
    stored = cheap_hash("harbour 9")
    tid, expires, signature = issue_token("cup-1", stored, now=1_000.0).rsplit(".", 2)
    assert not token_valid(f"{tid}.{int(expires) + 86_400}.{signature}", "cup-1", stored, now=1_001.0)
    assert not token_valid(f"{tid}.{expires}.{signature[:-2]}AA", "cup-1", stored, now=1_001.0)
    far = issue_token("cup-1", stored, now=1_000.0, seconds=30 * 86_400)
    assert not token_valid(far, "cup-1", stored, now=1_001.0)


# -- addresses ------------------------------------------------------------------------------------


def test_loopback_is_the_organizers_address_by_default_and_a_configured_list_replaces_it(monkeypatch):
    monkeypatch.delenv(access.ORGANIZER_ADDRESSES_ENV, raising=False)
    assert is_organizer_address("127.0.0.1") and is_organizer_address("::1")
    assert is_organizer_address("::ffff:127.0.0.1")
    assert not is_organizer_address(PHONE) and not is_organizer_address("") and not is_organizer_address("x")
    monkeypatch.setenv(access.ORGANIZER_ADDRESSES_ENV, "192.0.2.1, 10.0.0.0/24")
    assert is_organizer_address("192.0.2.1") and is_organizer_address("10.0.0.77")
    assert not is_organizer_address("127.0.0.1") and not is_organizer_address("10.0.1.1")


def test_a_configured_organizer_address_that_is_not_one_is_named():
    with pytest.raises(ValueError, match="'organizer-laptop' is not an address or network"):
        organizer_networks("127.0.0.1, organizer-laptop")


# -- the throttle ---------------------------------------------------------------------------------


def test_each_wrong_passphrase_from_an_address_makes_its_next_answer_wait_longer_up_to_a_limit():
    clock = FakeClock()
    throttle = Throttle(clock=clock, sleep=clock.sleep)

    async def wrong() -> bool:
        return False

    async def right() -> bool:
        return True

    async def tries() -> None:
        for _ in range(7):
            assert not await throttle.attempt(PHONE, wrong)
        assert await throttle.attempt("192.168.1.51", right)  # another address is not slowed
        assert await throttle.attempt(PHONE, right)  # the organizer is slowed, never locked out
        assert await throttle.attempt(PHONE, right)

    asyncio.run(tries())
    assert clock.slept == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]


def test_failures_are_forgotten_after_a_quiet_quarter_hour():
    clock = FakeClock()
    throttle = Throttle(clock=clock, sleep=clock.sleep)

    async def wrong() -> bool:
        return False

    asyncio.run(throttle.attempt(PHONE, wrong))
    assert throttle.delay(PHONE) == 0.5
    clock.now += 901
    assert throttle.delay(PHONE) == 0.0


# -- one device's access --------------------------------------------------------------------------


def phone_access(prefs: MemoryPrefs, clock: FakeClock) -> DeviceAccess:
    return DeviceAccess(PHONE, False, lambda: prefs, clock=clock, throttle=Throttle(clock=clock, sleep=clock.sleep))


def test_a_phone_signs_in_with_the_passphrase_and_stays_signed_in_for_twelve_hours():
    prefs, clock = MemoryPrefs(), FakeClock()
    hashes = {"cup-1": cheap_hash("harbour 9"), "cup-2": cheap_hash("other 77"), "old": ""}

    async def journey() -> None:
        phone = phone_access(prefs, clock)
        assert await phone.unlocked(hashes) == set()
        with pytest.raises(PassphraseRefused, match="opens no event here"):
            await phone.sign_in("harbour 8", hashes)
        assert await phone.sign_in("harbour 9", hashes) == ["cup-1"]
        assert await phone.unlocked(hashes) == {"cup-1"}
        again = phone_access(prefs, clock)  # a reload: the token comes back from the device's storage
        assert await again.unlocked(hashes) == {"cup-1"}
        clock.now += SESSION_SECONDS
        assert await phone_access(prefs, clock).unlocked(hashes) == set()

    asyncio.run(journey())
    assert clock.slept == [0.5]  # the right passphrase after a wrong one waited
    stored = json.loads(asyncio.run(prefs.get(SESSIONS_KEY)))
    assert set(stored) == {"cup-1"} and "harbour" not in json.dumps(stored)


def test_the_organizers_address_opens_every_event_even_one_without_a_passphrase():
    organizer = DeviceAccess("127.0.0.1", True)
    assert asyncio.run(organizer.unlocked({"cup-1": cheap_hash("harbour 9"), "old": ""})) == {"cup-1", "old"}


def test_a_session_is_known_by_the_address_recorded_when_it_was_created_not_a_later_page_patch():
    @dataclass
    class Page:
        session: Any
        client_ip: str | None

    class Session:
        pass

    page = Page(Session(), PHONE)
    remember_peer(page)
    page.client_ip = "127.0.0.1"  # what a client's property patch could do
    assert peer_of(page) == PHONE
    assert peer_of(Page(Session(), None)) is None  # not served over the network: the desktop, a test


def test_a_session_served_by_flets_own_web_server_is_known_by_its_connections_address():
    """``ft.run(view=None)`` without app.server records no address: the connection's is read."""

    class FletApp:
        def __init__(self, address: str) -> None:
            self._FletApp__client_ip = address

    FletApp.__module__ = "flet_web.fastapi.flet_app"

    class Session:
        def __init__(self, connection: Any) -> None:
            self.connection = connection

    @dataclass
    class Page:
        session: Any
        client_ip: str | None = "127.0.0.1"  # patched by the client

    assert peer_of(Page(Session(FletApp(PHONE)))) == PHONE
    assert DeviceAccess.of_page(Page(Session(FletApp(PHONE)))).organizer is False
    assert DeviceAccess.of_page(Page(Session(FletApp("127.0.0.1")))).organizer is True


# -- the gate's screens -----------------------------------------------------------------------------


@dataclass
class Venue:
    """The organizer's store with two events, and how a phone or the organizer opens the app."""

    store: MemoryStore = field(default_factory=MemoryStore)
    prefs: dict[str, Any] = field(default_factory=dict)
    """The phone's client storage (shared between its sessions, like a browser's localStorage)."""
    ids: dict[str, str] = field(default_factory=dict)

    async def seed(self) -> None:
        organizer = Organizer(self.store)
        self.ids["cup"] = await organizer.create("Harbour cup", event_id="HARBOUR-26",
                                                 passphrase_hash=cheap_hash("harbour 9"))
        for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"):
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        await organizer.act(lambda t: t.draw_seats(7))
        self.ids["other"] = await Organizer(self.store).create("Night cup", event_id="NIGHT-26",
                                                               passphrase_hash=cheap_hash("night 12"))
        self.ids["old"] = await Organizer(self.store).create("Old cup", event_id="OLD-25")

    async def tournament(self, key: str = "cup") -> Tournament:
        tournament = await Organizer(self.store).open(self.ids[key])
        assert tournament is not None
        return tournament

    def run(self, test: Callable[[FletHarness], Awaitable[Any]], route: str, address: str | None = PHONE) -> Any:
        inner = app_on(self.store)

        async def main(page: ft.Page) -> None:
            if address is not None:
                page.client_ip = address  # as Flet sets it when the websocket connects
                remember_peer(page)
            await inner(page)

        async def session() -> Any:
            async with FletHarness(main, route=route, shared_preferences=self.prefs) as ui:
                return await test(ui)

        return asyncio.run(session())


@pytest.fixture
def venue(monkeypatch: pytest.MonkeyPatch) -> Venue:
    monkeypatch.delenv(access.ORGANIZER_ADDRESSES_ENV, raising=False)
    clock = FakeClock()
    monkeypatch.setattr(access, "THROTTLE", Throttle(clock=clock, sleep=clock.sleep))
    place = Venue()
    asyncio.run(place.seed())
    return place


async def sign_in(ui: FletHarness, passphrase: str) -> None:
    await ui.type_text("gate-passphrase", passphrase)
    await ui.click("gate-sign-in")


def test_a_phone_without_the_passphrase_sees_no_event_and_with_it_only_the_events_it_opens(venue: Venue):
    async def test(ui: FletHarness) -> None:
        assert ui.exists("gate-passphrase")
        assert not any("cup" in text for text in ui.texts())
        await sign_in(ui, "harbour 8")
        assert "opens no event here" in ui.text_of("gate-notice")
        assert not ui.exists(f"event-{venue.ids['cup']}")
        await sign_in(ui, "harbour 9")
        assert ui.exists(f"event-{venue.ids['cup']}")
        assert not ui.exists(f"event-{venue.ids['other']}") and not ui.exists(f"event-{venue.ids['old']}")

    venue.run(test, "/organizer")
    assert SESSIONS_KEY in venue.prefs and "harbour" not in venue.prefs[SESSIONS_KEY]


def test_a_phone_cannot_see_the_print_page_or_act_until_it_gives_the_events_passphrase(venue: Venue):
    cup = venue.ids["cup"]

    async def test(ui: FletHarness) -> None:
        t = await venue.tournament()
        for page in ("print", "seating", "results", ""):
            await ui.navigate(f"/organizer/{cup}/{page}".rstrip("/"))
            assert ui.exists("gate-passphrase"), page
            assert not ui.exists("setup-code-1") and not ui.exists("draw-seats") and not ui.exists("result-code")
            assert not any(t.name in text or "Ann" in text for text in ui.texts()), page
        await sign_in(ui, "night 12")  # another event's passphrase
        assert "not this one" in ui.text_of("gate-notice")
        await sign_in(ui, "harbour 9")
        assert ui.exists("nav-seating")
        await ui.navigate(f"/organizer/{cup}/print")
        assert ui.exists("setup-code-1")

    venue.run(test, f"/organizer/{cup}/print")

    async def reload(ui: FletHarness) -> None:  # the same phone later: signed in still
        assert ui.exists("setup-code-1") and not ui.exists("gate-passphrase")

    venue.run(reload, f"/organizer/{cup}/print")


def test_an_expired_or_forged_session_in_the_phones_storage_asks_again(venue: Venue):
    cup = venue.ids["cup"]
    stored = asyncio.run(Organizer(venue.store).passphrase_hashes())[cup]
    old = issue_token(cup, stored, now=access.time.time() - SESSION_SECONDS - 5)
    forged = issue_token(cup, cheap_hash("anything"), now=access.time.time())

    async def test(ui: FletHarness) -> None:
        assert ui.exists("gate-passphrase") and not ui.exists("setup-code-1")

    for token in (old, forged):
        venue.prefs[SESSIONS_KEY] = json.dumps({cup: token})
        venue.run(test, f"/organizer/{cup}/print")


def test_a_phone_rewriting_its_client_address_stays_a_phone(venue: Venue):
    async def test(ui: FletHarness) -> None:
        ui.session.apply_page_patch({"client_ip": "127.0.0.1"})
        await ui.navigate(f"/organizer/{venue.ids['cup']}/print")
        assert ui.exists("gate-passphrase") and not ui.exists("setup-code-1")

    venue.run(test, "/")


def test_a_result_link_from_a_phone_without_the_passphrase_imports_nothing(venue: Venue):
    from tests.test_organizer import played_code

    t = asyncio.run(venue.tournament())
    route = link_form(played_code(t, 1, seed=1))
    route = route[route.index("/import/"):]

    async def phone(ui: FletHarness) -> None:
        assert ui.exists("gate-passphrase")
        assert (await venue.tournament()).results() == t.results() == {}
        await sign_in(ui, "harbour 9")
        assert list((await venue.tournament()).results()) == [1]

    venue.run(phone, route)


def test_an_event_without_a_passphrase_is_refused_to_phones_and_its_organizer_is_asked_to_set_one(venue: Venue):
    old = venue.ids["old"]

    async def phone(ui: FletHarness) -> None:
        assert ui.exists("gate-no-passphrase") and not ui.exists("gate-passphrase")

    venue.run(phone, f"/organizer/{old}")

    async def organizer(ui: FletHarness) -> None:
        assert ui.exists("passphrase-missing")
        await ui.click("ask-passphrase")
        await ui.type_text("new-passphrase", "abc")
        await ui.type_text("new-passphrase-again", "abc")
        await ui.click("set-passphrase")
        assert "at least 4 characters" in ui.text_of("organizer-notice")
        await ui.type_text("new-passphrase", "old cup 1")
        await ui.type_text("new-passphrase-again", "old cup 2")
        await ui.click("set-passphrase")
        assert "differ" in ui.text_of("organizer-notice")
        await ui.type_text("new-passphrase", "old cup 1")
        await ui.type_text("new-passphrase-again", "old cup 1")
        await ui.click("set-passphrase")
        assert "Organizer passphrase set" in ui.text_of("organizer-notice")
        assert not ui.exists("passphrase-missing")

    venue.run(organizer, f"/organizer/{old}", address=None)
    document = asyncio.run(venue.store.load(COLLECTION, old))
    assert document is not None and verify_passphrase("old cup 1", document["passphrase_hash"])
    assert "old cup" not in json.dumps(document)

    async def phone_again(ui: FletHarness) -> None:
        await sign_in(ui, "old cup 1")
        assert ui.exists("nav-players")

    venue.run(phone_again, f"/organizer/{old}")


def test_the_organizer_creates_an_event_with_a_passphrase_typed_twice(venue: Venue):
    async def test(ui: FletHarness) -> None:
        await ui.type_text("event-name", "Pier cup")
        await ui.type_text("event-passphrase", "pier 2026")
        await ui.type_text("event-passphrase-again", "pier 2062")
        await ui.click("create-event")
        assert "differ" in ui.text_of("organizer-notice")
        await ui.type_text("event-passphrase-again", "pier 2026")
        await ui.click("create-event")
        return ui.page.route.split("/")[2]

    tournament_id = venue.run(test, "/organizer", address="127.0.0.1")
    document = asyncio.run(venue.store.load(COLLECTION, tournament_id))
    assert document is not None and verify_passphrase("pier 2026", document["passphrase_hash"])


def test_a_signed_in_phone_creates_an_event_only_with_a_passphrase_and_keeps_it_open(venue: Venue):
    async def test(ui: FletHarness) -> None:
        await sign_in(ui, "night 12")
        await ui.type_text("event-name", "Pier cup")
        await ui.click("create-event")
        assert "Give the event an organizer passphrase" in ui.text_of("organizer-notice")
        await ui.type_text("event-passphrase", "pier 2026")
        await ui.type_text("event-passphrase-again", "pier 2026")
        await ui.click("create-event")
        assert ui.exists("signup-name")  # its sign-up, opened without asking again

    venue.run(test, "/organizer")
