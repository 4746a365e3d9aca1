"""Sign-up at the door on the players screen: a list previewed then added at once, one by one with
the cursor kept in the field, a CSV file, check-in by tap or number, messages beside their form."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import flet as ft
import pytest

from app.qr.camera import DEFAULT_TIMING
from app.main import app_on
from app.event.organizer import TournamentSummary
from app.event.sign_up_file import read_list_file
from app.storage import StoreWriteError
from engine import Tournament
from engine.tournament.signups import LIST_LARGEST, SignUpPreview
from tests.support.flet_harness import FletHarness, control_key
from tests.app.test_organizer import Desk, new_event, notice


def keys_in_order(ui: FletHarness) -> list[Any]:
    return [control_key(control) for control, _ in ui.walk() if control_key(control) is not None]


def shown_beside(ui: FletHarness, before: str, after: str) -> bool:
    """The notice shows between the controls ``before`` and ``after`` (beside the form that caused it)."""
    keys = keys_in_order(ui)
    return keys.index(before) < keys.index("organizer-notice") < keys.index(after)


FORTY = "\n".join(f"Player {n}" for n in range(1, 41))


def test_a_pasted_list_is_previewed_with_each_refusal_then_added_in_one_tap_and_stored_before_it_says_so():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [], cap="5")
        await ui.type_text("signup-name", "Ann")
        await ui.click("sign-up")
        await ui.type_text("signup-list", "Name,Number\nBob,7\n\n\u0410nn\nbob\nCy\u200b\nDi\nEd\nFlo\nGus\n")
        await ui.click("preview-list")
        assert notice(ui) == "Ready to add 4 players; 4 lines refused, as listed. Nothing is signed up until you tap Add."
        assert shown_beside(ui, "import-list-file", "list-line-2")
        assert [ui.text_of(f"list-line-{n}") for n in (2, 4, 5, 6, 7, 8, 9, 10)] == [
            "7. Bob",
            'Line 4: "\u0410nn" looks like a player signed up: Ann (number 1). Add something to tell them apart.',
            'Line 5: "bob" is on this list twice: Bob on line 2. Add something to tell them apart.',
            'Line 6: The name "Cy[zero width space]" holds an invisible or control character, U+200B zero width '
            "space. Type it again without it.",
            "8. Di", "9. Ed", "10. Flo", "Line 10: The event is full (5 players): Gus cannot sign up.",
        ]
        assert len((await desk.now()).players) == 1  # the preview signed nobody up
        assert ui.find("add-list", ft.FilledButton).content == "Add 4 players"
        await ui.click("add-list")
        assert notice(ui) == "4 players signed up, numbers 7 to 10."
        assert [p.name for p in (await desk.now()).players] == ["Ann", "Bob", "Di", "Ed", "Flo"]
        assert ui.find("signup-list", ft.TextField).value == "" and not ui.exists("add-list")
        assert ui.text_of("players-count") == "5 players · 0 checked in"
        await ui.click("organizer-undo")
        assert notice(ui) == "Undone: Flo's sign-up (number 10)."

    desk.run(test)


def test_forty_pasted_names_are_added_with_one_tap_named_for_a_screen_reader():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        assert ui.accessible_name(ui.find("signup-list")) == "Names, one a line"
        await ui.type_text("signup-list", FORTY)
        await ui.click("preview-list")
        assert ui.accessible_name(ui.find("preview-list")) == "Preview"
        assert ui.accessible_name(ui.find("add-list")) == "Add 40 players"
        assert ui.unlabelled_controls() == []
        await ui.click("add-list")
        assert notice(ui) == "40 players signed up, numbers 1 to 40."
        assert len((await desk.now()).players) == 40
        await ui.click("check-in-all")
        assert notice(ui) == "40 players checked in."

    desk.run(test)


def test_a_list_edited_after_its_preview_must_be_previewed_again_and_a_change_elsewhere_shows_the_new_preview():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        await ui.type_text("signup-list", "Ann\nBob")
        await ui.click("preview-list")
        await ui.type_text("signup-list", "Ann\nBob\nCy")
        assert not ui.exists("add-list") and not ui.exists("list-line-1")
        await ui.click("preview-list")
        elsewhere = await desk.organizer()
        await elsewhere.act(lambda t: t.sign_up("Bob"))  # another tab signs Bob up meanwhile
        await ui.click("add-list")
        assert notice(ui).startswith("This event was changed on another screen meanwhile.")
        await ui.click("preview-list")
        await ui.click("add-list")  # the preview is read again against the event as it is now
        assert notice(ui) == "2 players signed up, numbers 2, 3."
        assert [p.name for p in (await desk.now()).players] == ["Bob", "Ann", "Cy"]
        await ui.type_text("signup-list", "Di\nEd")
        await ui.click("preview-list")
        await ui.type_text("signup-name", "Ed")
        await ui.click("sign-up")  # on this screen, after the preview
        await ui.click("add-list")
        assert notice(ui) == ("The players signed up changed since the preview: check the new preview below, "
                              "then add again.")
        assert ui.text_of("list-line-2") == ('Line 2: "Ed" is already signed up: Ed (number 4). '
                                            "Add something to tell them apart.")
        await ui.click("add-list")
        assert notice(ui) == "1 player signed up, number 5."

    desk.run(test)


def test_a_list_whose_write_fails_is_not_signed_up_and_says_so():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        await ui.type_text("signup-list", "Ann\nBob")
        await ui.click("preview-list")
        failing = desk.store.save

        async def unplugged(*args: Any, **kwargs: Any) -> int:
            raise StoreWriteError("disk unplugged")

        desk.store.save = unplugged  # type: ignore[method-assign]
        await ui.click("add-list")
        desk.store.save = failing  # type: ignore[method-assign]
        assert notice(ui).startswith("Not saved, so nothing changed:")
        assert (await desk.now()).players == () and not ui.exists("player-1")
        assert ui.find("signup-list", ft.TextField).value == "Ann\nBob"  # the list is kept to add again

    desk.run(test)


def test_enter_signs_the_name_up_and_keeps_the_cursor_in_the_name_field_with_messages_beside_the_form():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        await ui.type_text("signup-name", "", submit=True)
        assert notice(ui) == "A player needs a name: nothing was entered."
        assert shown_beside(ui, "sign-up", "signup-list")
        for name in ("Ann", "Bob"):
            ui.focused = None
            await ui.type_text("signup-name", name, submit=True)
            assert ui.focused == "signup-name"
        assert notice(ui) == "Bob signed up as number 2."
        assert ui.find("signup-name", ft.TextField).value == ""
        assert ui.text_of("players-count") == "2 players · 0 checked in"
        await ui.type_text("signup-name", "Cy")
        await ui.type_text("signup-number", "9", submit=True)
        assert notice(ui) == "Cy signed up as number 9." and ui.focused == "signup-name"
        await ui.type_text("signup-name", "Dee" * 14)
        await ui.click("sign-up")
        assert notice(ui) == (f'"{"Dee" * 14}" has 42 characters: a name has at most 40. Shorten it (a middle name '
                              "to its initial, say).")
        assert ui.find("signup-name", ft.TextField).value == "Dee" * 14  # kept to correct

    desk.run(test)


def test_players_check_in_by_a_tap_on_their_name_or_by_their_number_typed():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        await ui.type_text("signup-list", "Ann\nBob\nCy")
        await ui.click("preview-list")
        await ui.click("add-list")
        assert ui.text_of("players-count") == "3 players · 0 checked in"
        assert ui.text_of("check-in-1") == "1. Ann · not checked in"  # the button a screen reader reads
        await ui.click("check-in-1")
        assert notice(ui) == "Ann (number 1) checked in." and ui.text_of("player-1") == "1. Ann · checked in"
        assert not ui.exists("check-in-1")
        ui.focused = None
        await ui.type_text("checkin-number", "#3", submit=True)
        assert notice(ui) == "Cy (number 3) checked in." and ui.focused == "checkin-number"
        assert shown_beside(ui, "check-in-all", "withdraw-reason")
        await ui.type_text("checkin-number", "3", submit=True)
        assert notice(ui) == "Cy (number 3) is already checked in."
        await ui.type_text("checkin-number", "12")
        await ui.click("check-in-number")
        assert notice(ui) == "There is no player number 12."
        await ui.click("check-in-all")
        assert notice(ui) == "1 player checked in."
        assert ui.text_of("players-count") == "3 players · 3 checked in"

    desk.run(test)


def test_a_sign_up_list_is_read_from_a_csv_file_and_previewed_at_once():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        button = ui.find("import-list-file", ft.OutlinedButton)
        action = button.action
        assert isinstance(action, ft.PickFiles) and action.with_data and action.allowed_extensions == ["csv", "txt", "tsv"]
        data = "\ufeffName;No\nZoë;4\nAnn;\n".encode("utf-8")
        await ui.dispatch(action.file_picker, "result", {"files": [{"id": 0, "name": "door.csv", "size": len(data),
                                                                    "bytes": data}]})
        assert ui.text_of("list-line-2") == "4. Zoë" and ui.text_of("list-line-3") == "5. Ann"
        assert notice(ui) == "Ready to add 2 players. Nothing is signed up until you tap Add."
        await ui.dispatch(action.file_picker, "result", {"files": [{"id": 0, "name": "photo.png", "size": 4,
                                                                    "bytes": b"\x89PNG\x00\x00"}]})
        assert notice(ui) == "photo.png is not a text or CSV file: save the list as CSV and pick it again."
        assert (await desk.now()).players == ()

    desk.run(test)


def test_a_sign_up_file_in_a_windows_spreadsheets_encoding_is_read():
    assert read_list_file("Zoë,4".encode("cp1252"), "door.csv") == "Zoë,4"
    assert read_list_file("\ufeffAnn".encode("utf-8"), "door.csv") == "Ann"


def test_an_event_of_one_player_is_listed_as_one_player():
    summary = TournamentSummary("id", "Cup", "CUP-1", 1, 0, None, "")
    assert summary.line == "Cup (CUP-1) · 1 player · sign-up"


def test_a_paste_larger_than_a_list_may_be_is_refused_by_its_size_and_nothing_is_previewed():
    desk = Desk()
    one_line = "A" * (LIST_LARGEST + 1)  # one huge line, as a stray paste of a whole document gives

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        await ui.type_text("signup-list", one_line)
        await ui.click("preview-list")
        assert notice(ui) == ("The list is 250,001 bytes: at most 250,000 are read at once (1,000 lines of a "
                              "spreadsheet's export). Paste it in parts, or keep only the name and number columns.")
        assert not ui.exists("list-line-1") and not ui.exists("add-list")
        assert ui.find("signup-list", ft.TextField).value == one_line  # kept, to cut down
        assert (await desk.now()).players == ()

    desk.run(test)


def test_a_sign_up_file_larger_than_a_list_may_be_is_refused_before_it_is_read():
    desk = Desk()
    data = b"Ann\n" * (LIST_LARGEST // 4 + 1)

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        action = ui.find("import-list-file", ft.OutlinedButton).action
        assert isinstance(action, ft.PickFiles)
        await ui.dispatch(action.file_picker, "result", {"files": [{"id": 0, "name": "door.csv", "size": len(data),
                                                                    "bytes": data}]})
        assert notice(ui) == ("door.csv is 250,004 bytes: a sign-up file may be at most 250,000 (1,000 lines of a "
                              "spreadsheet's export). Save only the name and number columns, or split the list.")
        assert ui.find("signup-list", ft.TextField).value == "" and not ui.exists("list-line-1")

    desk.run(test)


def test_another_device_is_answered_while_a_list_is_being_previewed(monkeypatch: pytest.MonkeyPatch):
    """The preview works in a worker thread: held there until the test lets it go, a second
    device opens Home meanwhile (on the event loop it would wait for the preview to end)."""
    desk = Desk()
    started, released = threading.Event(), threading.Event()
    let_go: list[bool] = []
    preview = Tournament.preview_sign_ups

    def held_preview(tournament: Tournament, text: str) -> SignUpPreview:
        started.set()
        let_go.append(released.wait(timeout=10))  # False: nobody could release it (the loop was blocked)
        return preview(tournament, text)

    async def test() -> None:
        app = app_on(desk.store, DEFAULT_TIMING)
        async with FletHarness(app) as organizer:
            await new_event(organizer, desk, [])
            await organizer.type_text("signup-list", "Ann\nBob")
            monkeypatch.setattr(Tournament, "preview_sign_ups", held_preview)
            previewing = asyncio.ensure_future(organizer.click("preview-list"))
            assert await asyncio.to_thread(started.wait, 10)
            async with FletHarness(app) as phone:
                assert phone.exists("new-game") and not previewing.done()
            released.set()
            await previewing
            assert notice(organizer) == "Ready to add 2 players. Nothing is signed up until you tap Add."
        assert let_go == [True]

    asyncio.run(test())
