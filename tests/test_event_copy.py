"""A copy of a whole event, saved off the device and opened again (app/event_copy.py):
what a file must be to open, what opening it may replace, when the event page offers one,
and the organizer's journey through the screens (save, lose the device's storage, open)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import flet as ft
from app.event_copy import COPY_KIND, CopyMark, CopyRefused, copy_due, open_copy, read_copy
from app.event_document import COLLECTION
from app.organizer import Organizer
from app.scorekeeper import APP_CHECKS
from app.storage import MemoryStore
from tests.flet_harness import FletHarness
from tests.test_organizer import Desk, notice

SCHEMA = APP_CHECKS[COLLECTION]


async def event_with_players(store: MemoryStore, names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Di")) -> Organizer:
    organizer = Organizer(store)
    await organizer.create("Harbour open", None, "HARBOUR-1", "")
    for name in names:
        await organizer.act(lambda t, name=name: t.sign_up(name))  # type: ignore[misc]
    return organizer


def copy_bytes(**changes: Any) -> bytes:
    async def make() -> bytes:
        organizer = await event_with_players(MemoryStore())
        envelope = json.loads(organizer.event_copy().data())
        envelope.update(changes)
        return json.dumps(envelope).encode()

    return asyncio.run(make())


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        (b"", "The file is empty"),
        (b"\xff\xfe not text", "it is not the JSON text"),
        (b"[1, 2", "it is not the JSON text"),
        (b'{"format": "farkle-table-games", "version": 1, "games": []}', "an export of games, not a copy of an event"),
        (b'{"kind": "something else"}', "This file is not an event copy"),
        (copy_bytes(version=2), "made by a newer version of Farkle Table"),
        (copy_bytes(version="one"), "does not say which version made it"),
        (copy_bytes(tournament_id="../../etc"), "it has no event in it"),
        (copy_bytes(event=[]), "it has no event in it"),
        (copy_bytes(event={"name": "x"}), "This event copy is damaged, so nothing was opened: the tournament has no 'events'"),
        (copy_bytes(event={"events": [{"type": "sign_up", "name": 5}]}), "This event copy is damaged"),
    ],
    ids=["empty", "not text", "not JSON", "a games export", "another kind", "newer version", "no version",
         "unusable id", "no event", "no log", "illegal log"],
)
def test_a_file_that_is_not_a_usable_event_copy_is_refused_in_words(data: bytes, refusal: str) -> None:
    with pytest.raises(CopyRefused) as refused:
        read_copy(data, SCHEMA)
    assert refusal in str(refused.value)


def test_a_copy_holds_the_whole_event_and_opens_as_it_was_on_an_empty_device() -> None:
    async def test() -> None:
        organizer = await event_with_players(MemoryStore())
        await organizer.set_link_base("http://192.168.1.20:8550")
        copy = organizer.event_copy()
        assert copy.file_name() == "harbour-1-event-copy.json" and json.loads(copy.data())["kind"] == COPY_KIND
        elsewhere = MemoryStore()
        opened = await open_copy(elsewhere, COLLECTION, copy.data(), SCHEMA)
        assert opened.words == "Opened the copy of Harbour open (5 actions)."
        other = Organizer(elsewhere)
        restored = await other.open(opened.tournament_id)
        assert restored is not None and [p.name for p in restored.players] == ["Ann", "Bob", "Cy", "Di"]
        assert restored.events == organizer.open_tournament.events and other.link_base == "http://192.168.1.20:8550"

    asyncio.run(test())


def test_opening_a_copy_never_loses_what_the_device_holds() -> None:
    """The same log only opens; a copy that goes further replaces; a device that went further,
    or another way, keeps its event and refuses the copy."""

    async def test() -> None:
        store = MemoryStore()
        organizer = await event_with_players(store, ("Ann", "Bob"))
        early = organizer.event_copy().data()
        await organizer.act(lambda t: t.sign_up("Cy"))
        later = organizer.event_copy().data()
        tournament_id = organizer.tournament_id
        assert tournament_id is not None

        same = await open_copy(store, COLLECTION, later, SCHEMA)
        assert same.words.startswith("This device already holds Harbour open as the copy has it")
        with pytest.raises(CopyRefused, match="further on than the copy"):
            await open_copy(store, COLLECTION, early, SCHEMA)

        behind = MemoryStore()
        await open_copy(behind, COLLECTION, early, SCHEMA)
        newer = await open_copy(behind, COLLECTION, later, SCHEMA)
        assert newer.words == "Opened the copy of Harbour open: 1 action newer than this device held."
        reopened = await Organizer(behind).open(tournament_id)
        assert reopened is not None and [p.name for p in reopened.players] == ["Ann", "Bob", "Cy"]

        await organizer.undo()
        await organizer.act(lambda t: t.sign_up("Dee"))
        with pytest.raises(CopyRefused, match="actions the copy does not have"):
            await open_copy(store, COLLECTION, later, SCHEMA)
        kept = await Organizer(store).open(tournament_id)
        assert kept is not None and [p.name for p in kept.players] == ["Ann", "Bob", "Dee"]

    asyncio.run(test())


@pytest.mark.parametrize(
    ("actions", "last", "signed_up", "round_open", "round_number", "due"),
    [
        (1, None, 0, False, 0, False),  # nobody signed up yet: nothing worth a copy
        (5, None, 4, False, 0, True),  # before round 1 is drawn
        (5, CopyMark("t", 5), 4, False, 0, False),  # copied since the last change
        (6, CopyMark("t", 5), 5, False, 0, True),  # one more sign-up since
        (9, None, 4, True, 1, False),  # mid-round: the tables are playing
        (20, CopyMark("t", 9), 4, False, 1, True),  # round 1 closed
        (20, CopyMark("t", 20), 4, False, 1, False),
    ],
)
def test_the_copy_is_offered_before_round_one_and_after_each_round_when_something_changed(
        actions: int, last: CopyMark | None, signed_up: int, round_open: bool, round_number: int, due: bool) -> None:
    assert copy_due(actions, last, signed_up=signed_up, round_open=round_open, round_number=round_number) is due


def test_the_organizer_saves_a_copy_sees_when_and_opens_it_on_a_device_that_lost_the_event() -> None:
    desk = Desk()
    saved: list[bytes] = []

    def save_file(ui: FletHarness, service: Any, args: dict[str, Any]) -> str:
        saved.append(args["src_bytes"])
        return "/downloads/" + str(args["file_name"])

    async def organize(ui: FletHarness) -> None:
        await ui.click("organize")
        await ui.type_text("event-name", "Harbour open")
        await ui.click("create-event")
        desk.tournament_id = ui.page.route.split("/")[2]
        for name in ("Ann", "Bob", "Cy"):
            await ui.type_text("signup-name", name)
            await ui.click("sign-up")
        assert not ui.exists("copy-reminder")  # not while players are signed up
        await ui.click("nav-seating")
        assert ui.text_of("copy-reminder").startswith("Before round 1 is drawn, save a copy of the event")
        await ui.click("copy-now")
        assert notice(ui).startswith("A copy of the event was saved as /downloads/ft-") and "-event-copy.json (" in notice(ui)
        assert not ui.exists("copy-reminder")
        await ui.click("organizer-back")
        assert ui.text_of("copy-line").startswith("Last copy saved at ")
        assert ui.text_of("copy-line").endswith(": nothing has changed since.")

    desk.run(organize, services={("FilePicker", "save_file"): save_file})
    (data,) = saved
    assert json.loads(data)["event"]["name"] == "Harbour open"

    fresh = Desk()

    async def bring_back(ui: FletHarness) -> None:
        await ui.click("organize")
        button = ui.find("open-copy", ft.OutlinedButton)
        assert isinstance(button.action, ft.PickFiles) and button.action.with_data
        await ui.dispatch(button.action.file_picker, "result",
                          {"files": [{"id": 0, "name": "harbour.json", "size": len(data), "bytes": data}]})
        await ui.settle()
        assert ui.page.route == f"/organizer/{desk.tournament_id}"
        assert notice(ui) == "Opened the copy of Harbour open (4 actions)."

    fresh.run(bring_back)
    fresh.tournament_id = desk.tournament_id
    assert [p.name for p in asyncio.run(fresh.now()).players] == ["Ann", "Bob", "Cy"]


def test_a_damaged_copy_picked_on_the_tournaments_list_is_refused_and_opens_nothing() -> None:
    desk = Desk()
    damaged = copy_bytes(event={"events": "nope"})

    async def pick(ui: FletHarness) -> None:
        await ui.click("organize")
        button = ui.find("open-copy", ft.OutlinedButton)
        assert isinstance(button.action, ft.PickFiles)
        await ui.dispatch(button.action.file_picker, "result",
                          {"files": [{"id": 0, "name": "x.json", "size": len(damaged), "bytes": damaged}]})
        await ui.settle()
        assert ui.page.route == "/organizer"
        assert notice(ui).startswith("This event copy is damaged, so nothing was opened")

    desk.run(pick)
    assert asyncio.run(desk.store.list_ids(COLLECTION)) == []
