"""Codes made to hang or crash the app (issue 16): refused with a reason, before anything trusts them.

A code comes from anyone on the venue network or anyone who can show a QR code. The
hostile ones here pass the CRC and, for results, carry the table's real signature, so
only the limits and the reading itself stand between them and the parser.
"""

from __future__ import annotations

import asyncio
import string
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.event.organizer import Organizer
from app.storage import MemoryStore
from engine import CodeAltered, CodeDamaged, FarkleError, Tournament, decode_result, decode_setup, read_sealed_result, safe_form
from engine.codec import B45_ALPHABET, MAX_CODE_CHARS, RESULT_PREFIX, SETUP_PREFIX, b45encode, typing_form
from engine.codec.primitives import Writer, mac, seal
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.app.test_access import Venue, sign_in, venue

__all__ = ["venue"]  # the fixture: a seeded event with a passphrase, and a phone on the venue network

NESTED_RULES = "[" * 1_000 + "]" * 1_000
"""The issue's rules part: a list nested 1,000 deep (the JSON parser recurses once per level)."""


def event_of_four() -> Tournament:
    t = Tournament("Harbour open", event_id="HARBOUR-1", secret=b"harbour-open-2026")
    for name in ("Ann", "Bob", "Cy", "Di"):
        t.check_in(t.sign_up(name))
    t.draw_seats(7)
    return t


def result_with_rules(t: Tournament, table: int, rules_text: str, key: bytes | None = None) -> str:
    """A result code for ``table`` whose rules part is ``rules_text``, signed with its card's key (or ``key``)."""
    setup = t.setup(table)
    out = Writer(RESULT_PREFIX)
    out.text(t.event_id)
    out.uint(t.round)
    out.uint(table)
    out.uint(0)  # the house preset
    out.text(rules_text)
    out.uint(len(setup.numbers))
    count = len(setup.numbers)
    totals = (10_000,) + tuple(range(count * 500 - 500, 0, -500))[: count - 1]  # 10,000, then 1,500, 1,000, 500
    for value in setup.numbers + totals + tuple(range(1, count + 1)):
        out.uint(value)
    out.uint(0)  # no roll-off
    out.raw(bytes(16))
    out.raw(mac(key or setup.key, bytes(out.data)))
    return RESULT_PREFIX + ":" + b45encode(seal(out)[3:])


def setup_with_rules(t: Tournament, table: int, rules_text: str) -> str:
    """Table ``table``'s setup code with ``rules_text`` as the difference from the house rules."""
    setup = t.setup(table)
    out = Writer(SETUP_PREFIX)
    out.text(setup.event_id)
    out.uint(setup.round)
    out.uint(setup.table)
    out.uint(0)
    out.text(rules_text)
    out.uint(0)
    out.uint(len(setup.players))
    for player in setup.players:
        out.uint(player.number)
        out.text(player.name)
    out.raw(setup.key)
    out.text("")
    return SETUP_PREFIX + ":" + b45encode(seal(out)[3:])


def sealed(prefix: str, body: bytes) -> str:
    """``body`` as a code of ``prefix`` with a correct CRC: it reaches the reading of its contents."""
    out = Writer(prefix)
    out.raw(body)
    return prefix + ":" + b45encode(seal(out)[3:])


def test_a_signed_result_code_nesting_its_rules_1000_deep_is_refused_as_unreadable_when_imported():
    t = event_of_four()
    code = result_with_rules(t, 1, NESTED_RULES)
    assert len(code) < MAX_CODE_CHARS  # small enough for a QR code, as in the issue
    started = time.perf_counter()
    for read in (lambda: t.import_result(code), lambda: decode_result(code)):
        try:
            read()
        except CodeDamaged as refusal:
            assert str(refusal) == "The rules in the code cannot be read: it is damaged, or not made by Farkle Table."
        else:
            raise AssertionError("a nested code was read")
    assert time.perf_counter() - started < 0.5
    assert not t.results()


def test_rules_nested_only_a_few_levels_are_refused_too_and_a_flat_difference_still_reads():
    t = event_of_four()
    for rules_text in ('{"target":[[[1]]]}', '{"target":{"a":1}}', "[1]", '{"target":1e400}', "{" * 3, '{"target":"]"}'):
        try:
            t.import_result(result_with_rules(t, 1, rules_text))
        except CodeDamaged as refusal:
            assert str(refusal).startswith("The rules in the code cannot be read"), str(refusal)
        else:
            raise AssertionError(f"rules {rules_text!r} were read")
    assert t.import_result(result_with_rules(t, 1, '{"target":10000}')).status == "accepted"


def test_an_unsigned_nested_result_is_refused_as_altered_before_its_rules_are_read():
    t = event_of_four()
    forged = result_with_rules(t, 1, NESTED_RULES, key=bytes(16))
    try:
        t.import_result(forged)
    except CodeAltered as refusal:
        assert "does not carry that table's signature" in str(refusal)
    else:
        raise AssertionError("a forged code was not refused as altered")
    assert read_sealed_result(forged).table == 1  # the header alone reads: the app routes the code with it


def test_a_code_longer_than_any_qr_code_holds_is_refused_by_its_length_before_it_is_decoded():
    t = event_of_four()
    long_code = result_with_rules(t, 1, '{"target":10000}' + " " * 4_000)
    try:
        decode_result(long_code)
    except CodeDamaged as refusal:
        assert f"a Farkle Table code is at most {MAX_CODE_CHARS:,}" in str(refusal)
    else:
        raise AssertionError("an overlong code was read")
    try:
        decode_setup("FT1-" + "A" * 100_000)
    except CodeDamaged as refusal:
        assert "100,004 characters long" in str(refusal)
    else:
        raise AssertionError("an overlong text was read")


def test_the_organizer_service_refuses_the_nested_code_keeps_the_refusal_and_routes_nothing():
    async def test() -> None:
        store = MemoryStore()
        organizer = Organizer(store)
        await organizer.create("Harbour open", event_id="HARBOUR-1")
        for name in ("Ann", "Bob", "Cy", "Di"):
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        await organizer.act(lambda t: t.draw_seats(7))
        code = result_with_rules(organizer.open_tournament, 1, NESTED_RULES)
        assert await organizer.open_event_of(code) == organizer.tournament_id  # the header routes it
        try:
            await organizer.import_code(code)
        except CodeDamaged as refusal:
            assert "cannot be read" in str(refusal)
        else:
            raise AssertionError("imported")
        assert organizer.refusals[0].reason.startswith("The rules in the code cannot be read")

    asyncio.run(test())


def test_the_nested_result_as_an_import_link_is_refused_on_screen_instead_of_hanging_the_event():
    store = MemoryStore()

    async def prepare() -> str:
        organizer = Organizer(store)
        await organizer.create("Harbour open", event_id="HARBOUR-1")
        for name in ("Ann", "Bob", "Cy", "Di"):
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        await organizer.act(lambda t: t.draw_seats(7))
        return result_with_rules(organizer.open_tournament, 1, NESTED_RULES)

    code = asyncio.run(prepare())

    async def test(ui: FletHarness) -> None:
        notice = ui.text_of("organizer-notice")
        assert "The rules in the code cannot be read" in notice, notice
        assert "Opening the event…" not in ui.texts()

    run(test, route="/import/" + safe_form(code), store=store)


def test_the_nested_setup_code_typed_at_join_is_refused_with_a_reason_and_the_session_lives_on():
    code = setup_with_rules(event_of_four(), 1, NESTED_RULES)

    async def test(ui: FletHarness) -> None:
        await ui.click("join-table")
        await ui.type_text("setup-code", typing_form(code))
        await ui.click("read-setup")
        assert ui.text_of("join-refusal") == (
            "The rules in the code cannot be read: it is damaged, or not made by Farkle Table.")
        await ui.type_text("setup-code", event_of_four().setup_code(1))
        await ui.click("read-setup")
        assert "HARBOUR-1 · Final · Table 1" in ui.texts()

    run(test)


CODE_TEXT = st.text(alphabet=B45_ALPHABET + string.ascii_lowercase + "-\n\t/#é\x00", max_size=300)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(CODE_TEXT, st.builds(lambda tail: "FR1:" + tail, CODE_TEXT),
                 st.builds(lambda tail: "FT1-" + tail, CODE_TEXT)))
def test_reading_any_text_as_a_code_raises_nothing_but_the_engines_refusal(text: str) -> None:
    for read in (decode_setup, decode_result, read_sealed_result):
        try:
            read(text)
        except CodeDamaged:
            pass


@settings(max_examples=500, deadline=None)
@given(st.sampled_from((SETUP_PREFIX, RESULT_PREFIX)), st.binary(max_size=400))
def test_any_bytes_behind_a_correct_crc_read_back_or_are_refused_as_damaged(prefix: str, body: bytes) -> None:
    code = sealed(prefix, body)
    for read in (decode_setup, decode_result, read_sealed_result):
        try:
            read(code)
        except CodeDamaged:
            pass


def test_the_nested_result_link_on_another_device_asks_for_the_passphrase_then_is_refused(venue: Venue):
    code = result_with_rules(asyncio.run(venue.tournament()), 1, NESTED_RULES)

    async def phone(ui: FletHarness) -> None:
        assert not ui.exists("gate-checking") and ui.exists("gate-passphrase")
        await sign_in(ui, "harbour 9")
        assert "The rules in the code cannot be read" in ui.text_of("organizer-notice")
        assert (await venue.tournament()).results() == {}

    venue.run(phone, "/import/" + safe_form(code))


def test_a_pasted_text_far_longer_than_a_code_is_refused_and_kept_in_the_inbox_only_as_long_as_a_code():
    async def test() -> None:
        store = MemoryStore()
        organizer = Organizer(store)
        await organizer.create("Harbour open", event_id="HARBOUR-1")
        pasted = "FR1-" + "A" * 100_000
        try:
            await organizer.import_code(pasted)
        except CodeDamaged as refusal:
            assert "100,004 characters long" in str(refusal)
        else:
            raise AssertionError("imported")
        assert len(organizer.refusals[0].code) == MAX_CODE_CHARS
        beside = await store.load("beside", organizer.tournament_id or "")  # kept beside the event
        assert beside is not None and len(beside["tournaments"]["refused"][0]["code"]) == MAX_CODE_CHARS

    asyncio.run(test())


SIGNING_EVENT = event_of_four()


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200))
def test_any_payload_signed_with_the_tables_real_key_is_counted_or_refused_by_the_engine(payload: bytes) -> None:
    """The worst case: the table's key signs anything. Past the signature, reading still only refuses."""
    t = Tournament.from_events(SIGNING_EVENT.events)
    out = Writer(RESULT_PREFIX)
    out.text(t.event_id)
    out.uint(1)
    out.uint(1)
    out.raw(payload)
    out.raw(mac(t.card_key(1), bytes(out.data)))
    code = RESULT_PREFIX + ":" + b45encode(seal(out)[3:])
    try:
        t.import_result(code)
    except FarkleError:
        pass
