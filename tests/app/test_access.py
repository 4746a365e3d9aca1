"""Organizer access: session tokens, what one device opens and which routes it reaches, then the
gate's screens in a client-less Flet session standing in for a phone on the venue network.

The passphrase, the client's address and the sign-in limits have tests of their own
(tests/app/test_passphrase.py, tests/app/test_client_address.py, tests/app/test_sign_in_guard.py).
The harness is the organizer's own device by default (no network peer is recorded). A
"phone" here is the same app with a client address recorded as :mod:`app.venue.server` records it
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
from app.event import access
from app.event.access import SESSION_SECONDS, SESSIONS_KEY, DeviceAccess, RouteAccess, issue_token, route_access, route_target, token_valid
from app.venue.client_address import ORGANIZER_ADDRESSES_ENV, remember_peer
from app.event.passphrase import PassphraseRefused, hash_passphrase, verify_passphrase
from app.event.sign_in_guard import SignInGuard
from app.main import app_on
from app.documents.events import COLLECTION
from app.event.organizer import Organizer
from app.storage import MemoryPrefs, MemoryStore
from engine import CodeDamaged, Tournament, link_form
from tests.support.access_support import PHONE, FakeClock, cheap_hash, tries_answered, wrong
from tests.support.flet_harness import FletHarness


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


# -- one device's access --------------------------------------------------------------------------


def test_a_crowd_of_sign_ins_hashes_two_passphrases_at_a_time_not_sixteen_megabytes_each_at_once(
        monkeypatch: pytest.MonkeyPatch):
    import threading

    hashing = {"now": 0, "most": 0}
    lock = threading.Lock()
    real = access.verify_passphrase

    def counted(passphrase: str, stored: str) -> bool:
        with lock:
            hashing["now"] += 1
            hashing["most"] = max(hashing["most"], hashing["now"])
        try:
            return real(passphrase, stored)
        finally:
            with lock:
                hashing["now"] -= 1

    monkeypatch.setattr(access, "verify_passphrase", counted)
    guard = SignInGuard(clock=FakeClock())
    hashes = {"cup": hash_passphrase("harbour 9", n=2**12)}

    async def crowd() -> list[Any]:
        phones = [DeviceAccess(f"10.{n}.0.1", False, guard=guard) for n in range(8)]
        return await asyncio.gather(*(phone.sign_in("wrong guess", hashes) for phone in phones),
                                    return_exceptions=True)

    assert all(isinstance(answer, PassphraseRefused) for answer in asyncio.run(crowd()))
    assert hashing["most"] == 2


def test_on_the_list_with_every_event_paused_a_phone_is_told_so_and_nothing_is_counted():
    clock = FakeClock()
    guard = SignInGuard(clock=clock)
    hashes = {"cup": cheap_hash("harbour 9")}
    for n in range(10):
        tries_answered(guard, f"10.{n}.0.1", ["cup"], wrong, 1)

    async def phone() -> str:
        try:
            await DeviceAccess(PHONE, False, guard=guard).sign_in("harbour 9", hashes)
        except PassphraseRefused as refused:
            return str(refused)
        return "opened"

    assert asyncio.run(phone()).startswith("Too many wrong passphrases for this event; try again in 15 minutes.")
    assert guard.failed_tries("cup").count == 10


def phone_access(prefs: MemoryPrefs, clock: FakeClock) -> DeviceAccess:
    return DeviceAccess(PHONE, False, lambda: prefs, clock=clock, guard=SignInGuard(clock=clock))


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
    stored = json.loads(asyncio.run(prefs.get(SESSIONS_KEY)))
    assert set(stored) == {"cup-1"} and "harbour" not in json.dumps(stored)


def test_the_organizers_address_opens_every_event_even_one_without_a_passphrase():
    organizer = DeviceAccess("127.0.0.1", True)
    assert asyncio.run(organizer.unlocked({"cup-1": cheap_hash("harbour 9"), "old": ""})) == {"cup-1", "old"}


@dataclass
class StoredEvents:
    """The organizer's events as an access decision reads them: passphrase hashes, and the
    event each result code would go to (damaged codes raise as the organizer's do)."""

    hashes: dict[str, str]
    code_events: dict[str, str | None] = field(default_factory=dict)

    async def passphrase_hashes(self) -> dict[str, str]:
        return dict(self.hashes)

    async def event_for_code(self, text: str) -> str | None:
        if text not in self.code_events:
            raise CodeDamaged(f"{text!r} is not a result code")
        return self.code_events[text]


ROUTE_DECISIONS = [
    # (route parts, the phone signed in to cup-1?, what the phone is shown)
    (("organizer",), False, "sign_in"),  # the list: only once some event is unlocked
    (("organizer",), True, "open"),
    (("organizer", "cup-1", "results"), False, "sign_in"),
    (("organizer", "cup-1", "results"), True, "open"),
    (("organizer", "cup-2"), True, "sign_in"),  # signed in to another event
    (("organizer", "old"), True, "no_passphrase"),
    (("organizer", "gone"), False, "open"),  # no such event: its screen says so
    (("import", "FR1-CUP1"), False, "sign_in"),  # a result link: its event's passphrase
    (("import", "FR1-CUP1"), True, "open"),
    (("import", "FR1-DAMAGED"), False, "open"),  # the import screen says the code is damaged
]


@pytest.mark.parametrize(("parts", "signed_in", "shown"), ROUTE_DECISIONS)
def test_an_organizer_route_is_open_asks_the_passphrase_or_needs_the_organizer_by_the_event_it_reaches(
        parts: tuple[str, ...], signed_in: bool, shown: str) -> None:
    events = StoredEvents({"cup-1": cheap_hash("harbour 9"), "cup-2": cheap_hash("other 77"), "old": ""},
                          {"FR1-CUP1": "cup-1"})
    phone = phone_access(MemoryPrefs(), FakeClock())

    async def decide() -> RouteAccess:
        if signed_in:
            await phone.sign_in("harbour 9", await events.passphrase_hashes())
        return await route_access(phone, events, parts)

    assert asyncio.run(decide()) == RouteAccess(shown)
    organizer = DeviceAccess("127.0.0.1", True)
    assert asyncio.run(route_access(organizer, events, parts)) == RouteAccess("open")


def test_a_result_link_reaches_the_event_its_code_names_and_the_list_reaches_none() -> None:
    events = StoredEvents({}, {"FR1-CUP1": "cup-1"})
    assert asyncio.run(route_target(("import", "FR1-CUP1"), events)) == "cup-1"
    assert asyncio.run(route_target(("import", "FR1%2DCUP1"), events)) == "cup-1"  # as a link may encode it
    assert asyncio.run(route_target(("import", "NOT-A-CODE"), events)) is None
    assert asyncio.run(route_target(("organizer",), events)) is None
    assert asyncio.run(route_target(("organizer", "cup-9", "seating"), events)) == "cup-9"


# -- the gate's screens -----------------------------------------------------------------------------


@dataclass
class Venue:
    """The organizer's store with two events, and how a phone or the organizer opens the app."""

    store: MemoryStore = field(default_factory=MemoryStore)
    prefs: dict[str, Any] = field(default_factory=dict)
    """The phone's client storage (shared between its sessions, like a browser's localStorage)."""
    ids: dict[str, str] = field(default_factory=dict)
    clock: FakeClock = field(default_factory=FakeClock)
    """The sign-in guard's clock (tokens keep the real one)."""

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
    monkeypatch.delenv(ORGANIZER_ADDRESSES_ENV, raising=False)
    place = Venue()
    monkeypatch.setattr(access, "GUARD", SignInGuard(clock=place.clock))
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
    from tests.app.test_organizer import played_code

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
        assert "at least 8 characters" in ui.text_of("organizer-notice")
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


# -- a crowd guessing ----------------------------------------------------------------------------


def guess(venue: Venue, route: str, passphrase: str, address: str) -> str:
    """One device's wrong (or right) try at the gate: what it is told, or "opened"."""

    async def test(ui: FletHarness) -> str:
        await sign_in(ui, passphrase)
        return "opened" if not ui.exists("gate-passphrase") else ui.text_of("gate-notice")

    answer: str = venue.run(test, route, address=address)
    return answer


def test_ten_wrong_passphrases_from_ten_networks_pause_the_event_and_a_phone_with_the_right_one_is_told(venue: Venue):
    cup = f"/organizer/{venue.ids['cup']}"
    answers = [guess(venue, cup, f"guess {n:04d}", f"10.{n}.0.1") for n in range(10)]
    assert all("opens no event here" in answer for answer in answers)

    async def phone(ui: FletHarness) -> None:
        told = "Too many wrong passphrases for this event; try again in 15 minutes."
        assert ui.text_of("gate-notice").startswith(told)  # before it types anything
        await sign_in(ui, "harbour 9")
        assert ui.exists("gate-passphrase") and ui.text_of("gate-notice").startswith(told)

    venue.run(phone, cup)
    venue.clock.now += 15 * 60 + 1
    assert guess(venue, cup, "harbour 9", PHONE) == "opened"


def test_the_organizers_device_opens_a_paused_event_and_sees_its_wrong_tries(venue: Venue):
    cup = f"/organizer/{venue.ids['cup']}"
    for n in range(12):
        guess(venue, cup, f"guess {n:04d}", f"10.{n % 4}.0.{n}")

    async def organizer(ui: FletHarness) -> None:
        line = ui.text_of("event-access")
        assert line.startswith("Wrong organizer passphrases from other devices: 10, the last at ")
        assert "from 10.0.0.0, 10.1.0.1, 10.2.0.2 and 7 other addresses. Other devices cannot sign in until" in line

    venue.run(organizer, cup, address="127.0.0.1")


def test_an_event_with_a_four_digit_passphrase_from_before_the_rule_still_opens_and_asks_for_a_longer_one(
        venue: Venue):
    old = venue.ids["old"]

    async def set_before_the_rule() -> None:
        organizer = Organizer(venue.store)
        await organizer.open(old)
        await organizer.set_passphrase_hash(cheap_hash("2468"))

    asyncio.run(set_before_the_rule())

    async def organizer(ui: FletHarness) -> None:
        assert "may be easy to guess: set a longer one" in ui.text_of("passphrase-weak")
        await ui.click("ask-passphrase")
        await ui.type_text("new-passphrase", "old cup 2026")
        await ui.type_text("new-passphrase-again", "old cup 2026")
        await ui.click("set-passphrase")
        assert not ui.exists("passphrase-weak")

    assert guess(venue, f"/organizer/{old}", "2468", PHONE) == "opened"
    venue.run(organizer, f"/organizer/{old}", address="127.0.0.1")
    assert guess(venue, f"/organizer/{old}", "old cup 2026", "10.1.1.1") == "opened"
