"""Links a phone opens: every form a join or result link reaches a screen in is read as its
code; the local server hands out http(s) links (the venue's address on ``--host 0.0.0.0``);
the camera's failures are said in words."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import app.venue.addresses as venue
from app.table.tournament_table import card_link_base, join_link, link_qr_text, site_link_base
from app.qr.camera import camera_trouble
from engine import CodeDamaged, decode_result, decode_setup, link_form, read_code, safe_form, typing_form
from engine.codec import code_in_link
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import BACK_CAMERA, Desk, FakeClock, drawn_event, fake_clock, import_typed, notice
from tests.app.test_organizer import new_event, played_code, scan
from tests.app.test_tournament_table import final_of_four, join

__all__ = ["fake_clock"]  # the fixture the camera test uses

SERVER_PAGE = "ws://127.0.0.1:8550"  # what Flet gives a local server session as page.url
VENUE = ("192.168.1.20", "10.0.0.5")


def link_forms(code: str, route: str) -> dict[str, str]:
    """Every way a link to ``code`` under ``route`` ("/join/" or "/import/") may be pasted, typed or scanned."""
    safe = safe_form(code)
    link = f"http://192.168.1.20:8550{route}{safe}"
    return {
        "the link": link,
        "its QR's capitals": link_qr_text(link),
        "on https under a sub-path": f"https://farkle.example/games/farkle{route}{safe}",
        "a static site's hash route": f"https://farkle.example/games/farkle/#{route}{safe}",
        "the hash route's QR capitals": link_qr_text(f"https://h.example/f/#{route}{safe}"),
        "with whitespace and line breaks around": f"  \n{link}\r\n\t ",
        "with a trailing slash": link + "/",
        "with a query a chat app added": link + "?utm_source=chat",
        "after words from a share sheet": f"Farkle Table join link\n{link}",
        "with ':' escaped by a browser": link.replace(":", "%3A").replace("http%3A", "http:"),
        "a route alone": route + safe,
        "lower case": link.lower(),
    }


def setup_and_result() -> tuple[str, str]:
    t, setup = final_of_four()
    return read_code(setup), read_code(played_code(t, 1, seed=4))


SETUP, RESULT = setup_and_result()


def mistyped(safe: str) -> str:
    """The safe form with one digit or letter (not an escape's) typed wrong."""
    at = next(at for at in range(10, len(safe)) if safe[at].isalnum() and safe[at - 1] != "-")
    return safe[:at] + ("7" if safe[at] != "7" else "8") + safe[at + 1:]


@pytest.mark.parametrize(("form", "text"), link_forms(SETUP, "/join/").items())
def test_every_form_of_a_join_link_reads_as_its_setup_code(form: str, text: str) -> None:
    assert read_code(text) == SETUP, form
    assert decode_setup(text) == decode_setup(SETUP)


@pytest.mark.parametrize(("form", "text"), link_forms(RESULT, "/import/").items())
def test_every_form_of_a_result_link_reads_as_its_result_code(form: str, text: str) -> None:
    assert read_code(text) == RESULT, form


@pytest.mark.parametrize("text", [SETUP, safe_form(SETUP), typing_form(SETUP), "\n" + typing_form(SETUP).lower()])
def test_a_code_that_is_no_link_is_left_as_it_is(text: str) -> None:
    assert code_in_link(text) == text and read_code(text) == SETUP


@pytest.mark.parametrize(("text", "said"), [
    ("https://example.org/hello", "'https://example.org/h...' is not a Farkle Table code: a setup code starts "
                                  "with FT1 and a result code with FR1."),
    ("http://192.168.1.20:8550/join/", "is not a Farkle Table code"),
    ("http://192.168.1.20:8550/join/HELLO", "'HELLO' is not a Farkle Table code"),
    ("http://192.168.1.20:8550/join/FT1-AB CD", "is not a Farkle Table code"),
    ("", "is not a Farkle Table code"),
    (f"http://192.168.1.20:8550/join/{mistyped(safe_form(SETUP))}", "does not pass its check"),
])
def test_a_link_without_a_readable_code_is_refused_saying_what_was_entered(text: str, said: str) -> None:
    with pytest.raises(CodeDamaged, match=re.escape(said)):
        decode_setup(text)


def test_a_link_to_the_other_kind_of_code_says_what_it_holds() -> None:
    with pytest.raises(CodeDamaged, match="This is a table result code, not a table setup code."):
        decode_setup(link_form(RESULT, "http://192.168.1.20:8550"))
    with pytest.raises(CodeDamaged, match="This is a table setup code, not a table result code."):
        decode_result(join_link(SETUP, "http://192.168.1.20:8550"))


def test_a_join_link_pasted_on_join_opens_the_table_and_shows_its_code() -> None:
    async def test(ui: FletHarness) -> None:
        await join(ui, "\n" + link_qr_text(join_link(SETUP, "http://192.168.1.20:8550")) + "\n")
        assert "MAYOR-26 · Final · Table 1" in ui.texts() and not ui.exists("join-refusal")
        assert ui.find("setup-code").value == safe_form(SETUP)

    Desk().run(test)


def test_a_result_link_pasted_into_the_organizers_import_is_counted() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        link = link_form(played_code(t, 2, seed=9), "https://farkle.example/app/#")
        assert (await import_typed(ui, f"  {link}\n")).startswith("Round 1, table 2: result counted")

    desk.run(test)


# -- the link base a local server hands out --------------------------------------------------------


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No recorded server, and this machine on two networks, for each test that serves."""
    monkeypatch.setattr(venue, "_serving", [])
    monkeypatch.setattr(venue, "venue_addresses", lambda: VENUE)
    yield


def test_a_websocket_page_address_is_given_as_its_http_link_base(served: None) -> None:
    assert site_link_base(SERVER_PAGE, False) == "http://127.0.0.1:8550"
    assert site_link_base("wss://farkle.example/app/organizer/E1", False) == "https://farkle.example/app"
    assert card_link_base("ws://127.0.0.1:8550", SERVER_PAGE, False) == "http://127.0.0.1:8550"  # an older event


def test_on_every_network_loopback_links_carry_the_venue_address_and_others_are_kept(served: None) -> None:
    venue.serve_on("0.0.0.0", 8550)
    assert venue.for_phones("ws://127.0.0.1:8550") == "http://192.168.1.20:8550"
    assert venue.for_phones("http://localhost:8550") == "http://192.168.1.20:8550"
    assert venue.for_phones("http://10.0.0.5:8550") == "http://10.0.0.5:8550"
    assert venue.for_phones("https://farkle.example/app") == "https://farkle.example/app"
    assert card_link_base("http://127.0.0.1:8550", SERVER_PAGE, False) == "http://192.168.1.20:8550"
    assert card_link_base("http://10.0.0.5:8550", SERVER_PAGE, False) == "http://10.0.0.5:8550"
    assert venue.venue_link_bases() == ("http://192.168.1.20:8550", "http://10.0.0.5:8550")


def test_this_machines_venue_addresses_leave_out_loopback_and_link_local() -> None:
    for address in venue.venue_addresses():
        assert not address.startswith(("127.", "169.254.", "0.")), address


def test_a_local_servers_event_hands_out_http_join_links_and_setup_qrs(served: None) -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        ui.session.connection.page_url = SERVER_PAGE
        await drawn_event(ui, desk, 8)
        assert (await desk.organizer()).link_base == "http://127.0.0.1:8550"
        assert ui.text_of("setup-link-1").startswith("Join link: http://127.0.0.1:8550/join/FT1-")
        assert decode_setup(ui.text_of("setup-code-1")).link_base == "http://127.0.0.1:8550"

    desk.run(test)


def test_on_every_network_the_event_page_lists_each_address_and_the_one_tapped_goes_on_the_cards(
        served: None) -> None:
    venue.serve_on("0.0.0.0", 8550)
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        ui.session.connection.page_url = SERVER_PAGE
        await new_event(ui, desk, [f"Player {n}" for n in range(1, 9)])
        assert (await desk.organizer()).link_base == "http://192.168.1.20:8550"
        await ui.navigate(desk.route())
        assert ui.find("link-base").value == "http://192.168.1.20:8550"
        assert ui.text_of("link-base-choices").startswith("Phones on this device's network reach it at one of 2")
        assert ui.text_of("link-choice-1") == "http://192.168.1.20:8550 (in use)"
        await ui.click("link-choice-2")
        assert notice(ui) == "Saved: new setup codes carry this address."
        assert (await desk.organizer()).link_base == "http://10.0.0.5:8550"
        assert ui.text_of("link-choice-2") == "http://10.0.0.5:8550 (in use)"
        await ui.click("nav-seating")
        await ui.type_text("draw-seed", "11")
        await ui.click("draw-seats")
        assert ui.text_of("setup-link-1").startswith("Join link: http://10.0.0.5:8550/join/FT1-")

    desk.run(test)


def test_a_server_for_this_device_alone_says_how_phones_can_reach_it(served: None) -> None:
    venue.serve_on("127.0.0.1", 8550)
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        await ui.navigate(desk.route())
        assert ui.text_of("link-base-loopback") == (
            "This app answers only this device (127.0.0.1): for phones to open its links, start it with "
            "--host 0.0.0.0.")
        assert not ui.exists("link-choice-1")

    desk.run(test)


# -- the camera's failures -------------------------------------------------------------------------


@pytest.mark.parametrize(("raised", "said"), [
    ("CameraException(cameraNotFound, No camera found for the given camera options.)",
     "No camera was found on this device"),
    ("CameraException(CameraAccessDenied, Permission denied)", "This browser was not allowed to use the camera"),
    ("CameraException(cameraNotSupported, The camera is not supported on this device.)",
     "This browser offers no camera to this page"),
    ("CameraException(cameraNotReadable, Could not start video source)", "The camera is in use by another app"),
    ("something else entirely", "The camera could not start"),
])
def test_a_camera_failure_is_said_in_words_with_what_to_do_instead(raised: str, said: str,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    message = camera_trouble(RuntimeError(raised), "setup code")
    assert message.startswith(said)
    assert message.endswith(": read a photo of the setup code instead, or type or paste it.")
    assert "Exception" not in message and "camera" in message.lower()
    assert raised in caplog.text  # the detail is kept for whoever reads the log


def test_the_results_page_says_a_missing_camera_in_words(fake_clock: FakeClock) -> None:
    desk = Desk()

    def no_camera(ui: FletHarness, service: object, args: object) -> None:
        raise RuntimeError("CameraException(cameraNotFound, No camera found for the given camera options.)")

    async def test(ui: FletHarness) -> None:
        await drawn_event(ui, desk, 8)
        await scan(ui, "result-scan-message")
        assert ui.text_of("result-scan-message") == (
            "No camera was found on this device: read a photo of the result code instead, or type or paste it.")

    desk.run(test, services={("Camera", "get_available_cameras"): lambda ui, service, args: [BACK_CAMERA],
                             ("Camera", "initialize"): no_camera}, scan_timing=fake_clock.timing)
