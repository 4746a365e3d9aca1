"""A copy of a whole event, saved off the device and opened again (app/event/event_copy.py):
what a file must be to open (measured before it is read), what opening it may replace (the
log, never what the device keeps beside it), when the event page offers one, and the
organizer's journey through the screens (save, lose the device's storage, open)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import flet as ft
from app.event.event_copy import COPY_DEEPEST, COPY_KIND, COPY_LARGEST, CopyRefused, copy_due, open_copy, read_copy
from app.documents.events import COLLECTION, CopyMark
from app.event.organizer import Organizer
from app.storage import MAX_EVENTS, MemoryStore
from engine import CodeDamaged
from tests.support.access_support import cheap_hash
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import Desk, notice


async def event_with_players(store: MemoryStore, names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Di")) -> Organizer:
    organizer = Organizer(store)
    await organizer.create("Harbour open", None, "HARBOUR-1", "")
    for name in names:
        await organizer.act(lambda t, name=name: t.sign_up(name))  # type: ignore[misc]
    return organizer


def copy_bytes(**changes: Any) -> bytes:
    """A copy of a four-player event's envelope, with ``changes`` made to it."""
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
        (copy_bytes(event={"name": "x"}), "This event copy is damaged, so nothing was opened: it holds no log"),
        (copy_bytes(event={"events": [{"type": "sign_up", "name": 5}]}),
         "This event copy is damaged, so nothing was opened: its log does not replay (The tournament log has an entry of an unknown kind ('sign_up'): it is damaged)."),
        (b"[" * 100_000, f"This file nests 100,000 levels deep: an event copy nests at most {COPY_DEEPEST}."),
        (copy_bytes(event={"events": [{"type": "sign_up", "name": [[[[[[[[[[[[[[[[["Ann"]]]]]]]]]]]]]]]]]}]}),
         f"This file nests 21 levels deep: an event copy nests at most {COPY_DEEPEST}."),
        (copy_bytes(event={"events": [{}] * (MAX_EVENTS + 1)}),
         "This event copy holds 100,001 actions: an event keeps at most 100,000, so nothing was opened."),
    ],
    ids=["empty", "not text", "not JSON", "a games export", "another kind", "newer version", "no version",
         "unusable id", "no event", "no log", "illegal log", "nested 100,000 deep", "a name nested in a log",
         "more actions than an event keeps"],
)
def test_a_file_that_is_not_a_usable_event_copy_is_refused_in_words(data: bytes, refusal: str) -> None:
    with pytest.raises(CopyRefused) as refused:
        read_copy(data)
    assert refusal in str(refused.value)


def test_a_copy_larger_than_the_limit_is_refused_by_its_size_before_it_is_read() -> None:
    """Not JSON at all: the refusal is the size's, so nothing was parsed or replayed first."""
    with pytest.raises(CopyRefused) as refused:
        read_copy(b"x" * (COPY_LARGEST + 1))
    assert str(refused.value).startswith("This file is 5,000,001 bytes: a copy of an event is at most 5,000,000")


def test_a_valid_copy_padded_past_the_limit_is_refused_though_its_event_would_open() -> None:
    data = copy_bytes(padding=" " * COPY_LARGEST)
    with pytest.raises(CopyRefused, match="a copy of an event is at most 5,000,000"):
        read_copy(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_whatever_a_copy_file_is_cut_or_changed_to_it_opens_or_is_refused_in_the_copys_words(data: Any) -> None:
    whole = VALID_COPY
    start = data.draw(st.integers(0, len(whole)))
    end = data.draw(st.integers(start, len(whole)))
    inserted = data.draw(st.binary(max_size=40) | st.sampled_from([b"[" * 5_000, b"{", b"\\", b'"', b"\xff"]))
    try:
        read_copy(whole[:start] + inserted + whole[end:])
    except CopyRefused:
        pass


def test_a_copy_holds_the_whole_event_and_opens_as_it_was_on_an_empty_device_with_that_devices_address() -> None:
    async def test() -> None:
        organizer = await event_with_players(MemoryStore())
        await organizer.set_link_base("http://192.168.1.20:8550")
        await organizer.set_passphrase_hash(cheap_hash("harbour 9"))
        copy = organizer.event_copy()
        assert copy.file_name() == "harbour-1-event-copy.json" and json.loads(copy.data())["kind"] == COPY_KIND
        assert sorted(json.loads(copy.data())["event"]) == ["event_id", "events", "name"]  # the log, nothing local
        elsewhere = MemoryStore()
        opened = await open_copy(elsewhere, copy.data(), "http://10.0.0.7:8550")
        assert opened.words == "Opened the copy of Harbour open (5 actions)."
        other = Organizer(elsewhere)
        restored = await other.open(opened.tournament_id)
        assert restored is not None and [p.name for p in restored.players] == ["Ann", "Bob", "Cy", "Di"]
        assert restored.events == organizer.open_tournament.events and other.link_base == "http://10.0.0.7:8550"
        assert other.passphrase_hash == "" and other.last_copy == CopyMark(copy.saved, 5)

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

        same = await open_copy(store, later)
        assert same.words.startswith("This device already holds Harbour open as the copy has it")
        with pytest.raises(CopyRefused, match="further on than the copy"):
            await open_copy(store, early)

        behind = MemoryStore()
        await open_copy(behind, early)
        newer = await open_copy(behind, later)
        assert newer.words == "Opened the copy of Harbour open: 1 action newer than this device held."
        reopened = await Organizer(behind).open(tournament_id)
        assert reopened is not None and [p.name for p in reopened.players] == ["Ann", "Bob", "Cy"]

        await organizer.undo()
        await organizer.act(lambda t: t.sign_up("Dee"))
        with pytest.raises(CopyRefused, match="actions the copy does not have"):
            await open_copy(store, later)
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
        assert re.match(r"Last copy saved on \d{4}-\d\d-\d\d at \d\d:\d\d: ", ui.text_of("copy-line"))
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



async def pick_copy(ui: FletHarness, data: bytes, name: str = "copy.json") -> None:
    """On the tournaments list, "Open a saved copy" and the file chosen."""
    if ui.page.route != "/organizer":
        await ui.navigate("/organizer")
    button = ui.find("open-copy", ft.OutlinedButton)
    assert isinstance(button.action, ft.PickFiles) and button.action.with_data
    await ui.dispatch(button.action.file_picker, "result",
                      {"files": [{"id": 0, "name": name, "size": len(data), "bytes": data}]})
    await ui.settle()


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        (b"[" * 100_000, "This file nests 100,000 levels deep: an event copy nests at most 16."),
        (b"{" * 1_000 + b"}" * 1_000, "This file nests 1,000 levels deep"),
        (b" " * (COPY_LARGEST + 1), "This file is 5,000,001 bytes: a copy of an event is at most 5,000,000"),
    ],
    ids=["100,000 deep", "1,000 deep", "a byte over the limit"],
)
def test_a_hostile_copy_picked_on_the_tournaments_list_gets_the_copys_own_refusal_never_something_went_wrong(
        data: bytes, refusal: str) -> None:
    desk = Desk()

    async def pick(ui: FletHarness) -> None:
        await pick_copy(ui, data)
        assert ui.page.route == "/organizer"
        assert notice(ui).startswith(refusal)

    desk.run(pick)
    assert asyncio.run(desk.store.list_ids(COLLECTION)) == []


FORGED_HASH = cheap_hash("1234") + "$rule8"
"""A 4-character passphrase's hash with the 8-character rule's mark appended: it would pass as strong."""


def test_a_copy_one_action_longer_brings_the_log_alone_and_the_device_keeps_its_passphrase_refusals_and_address(
) -> None:
    desk = Desk()
    weak = cheap_hash("4321")  # set before the 8-character rule: the event page asks for a longer one

    async def prepare() -> bytes:
        organizer = await event_with_players(desk.store, ("Ann", "Bob"))
        desk.tournament_id = str(organizer.tournament_id)
        await organizer.set_passphrase_hash(weak)
        await organizer.set_link_base("http://192.168.1.20:8550")
        with pytest.raises(CodeDamaged):
            await organizer.import_code("FR1-NOT A CODE")
        await organizer.copy_saved(organizer.event_copy())
        twin = MemoryStore()
        await open_copy(twin, organizer.event_copy().data())
        elsewhere = Organizer(twin)
        await elsewhere.open(desk.tournament_id)
        await elsewhere.act(lambda t: t.sign_up("Cy"))
        envelope = json.loads(elsewhere.event_copy().data())
        envelope["event"].update(passphrase_hash=FORGED_HASH, link_base="http://10.6.6.6:8550", refused=[],
                                 last_copy={"at": "2020-01-01T00:00:00Z", "actions": 99})
        return json.dumps(envelope).encode()

    longer = asyncio.run(prepare())
    before = asyncio.run(desk.organizer())

    async def pick(ui: FletHarness) -> None:
        await ui.navigate(desk.route())
        assert ui.exists("passphrase-weak")
        await pick_copy(ui, longer)
        assert ui.page.route == desk.route()
        assert notice(ui) == "Opened the copy of Harbour open: 1 action newer than this device held."
        assert ui.exists("passphrase-weak")  # the forged mark did not make the short passphrase pass as strong

    desk.run(pick)
    after = asyncio.run(desk.organizer())
    assert [p.name for p in after.open_tournament.players] == ["Ann", "Bob", "Cy"]
    assert after.passphrase_hash == weak and after.link_base == "http://192.168.1.20:8550"
    assert after.refusals == before.refusals and len(after.refusals) == 1 and after.last_copy == before.last_copy


def test_a_copy_of_another_event_with_a_code_this_device_holds_is_refused_naming_that_event() -> None:
    desk = Desk()
    asyncio.run(event_with_players(desk.store))  # Harbour open, HARBOUR-1

    async def other_event() -> bytes:
        organizer = Organizer(MemoryStore())
        await organizer.create("Quay cup", None, "HARBOUR-1", "")
        await organizer.act(lambda t: t.sign_up("Zed"))
        return organizer.event_copy().data()

    data = asyncio.run(other_event())

    async def pick(ui: FletHarness) -> None:
        await pick_copy(ui, data)
        assert ui.page.route == "/organizer"
        assert notice(ui) == ("This copy holds the event HARBOUR-1, and Harbour open on this device already has that "
                              "code: the copy was not opened (open it on another device, or delete that event first).")

    desk.run(pick)
    assert len(asyncio.run(desk.store.list_ids(COLLECTION))) == 1


VALID_COPY = copy_bytes()


def copy_signing_up(*names: str) -> bytes:
    """A valid copy whose log signs up ``names`` as written, as a file edited by hand or made by
    another program would, past every check of the sign-up screen."""
    envelope = json.loads(copy_bytes())
    signed = iter(names)
    for entry in envelope["event"]["events"]:
        if entry["type"] == "player_signed_up":
            entry["name"] = next(signed, entry["name"])
    return json.dumps(envelope).encode()


@pytest.mark.parametrize(
    ("names", "refusal"),
    [
        (("Ann", "Anո"), 'Player 2: "Anո" looks like a player signed up: Ann (number 1).'),
        (("Ann", "ANN"), 'Player 2: "ANN" is already signed up: Ann (number 1).'),
        (("Ann\u3164",), "Player 1: The name \"Ann[hangul jungseong filler]\" holds an invisible or control character"),
        (("\u115f",), "Player 1: The name entered"),
        (("A\u034fB",), "Player 1: The name \"A[combining grapheme joiner]B\" holds an invisible"),
        (("Ann  Lee",), "Player 1's name, 'Ann  Lee', is not written as the app keeps names"),
        (("x" * 41,), "has 41 characters: a name has at most 40"),
    ],
    ids=["Armenian look-alike", "the same name", "Hangul filler", "filler alone", "grapheme joiner", "two spaces",
         "41 characters"],
)
def test_a_copy_signing_up_a_name_the_sign_up_would_refuse_is_refused_naming_the_player_and_opens_nothing(
        names: tuple[str, ...], refusal: str) -> None:
    desk = Desk()
    data = copy_signing_up(*names)

    async def pick(ui: FletHarness) -> None:
        await pick_copy(ui, data)
        assert ui.page.route == "/organizer"
        assert notice(ui).startswith("This event copy signs up a name the app would refuse, so nothing was opened:")
        assert refusal in notice(ui)

    desk.run(pick)
    assert asyncio.run(desk.store.list_ids(COLLECTION)) == []


def test_a_copy_of_an_event_signed_up_with_names_of_up_to_40_characters_still_opens() -> None:
    long_names = ("Aleksandra García-Márquez", "Bartholomew García-Márquez", "Ann " + "L" * 36)
    copy = read_copy(copy_signing_up(*long_names))
    assert [player.name for player in copy.tournament.players][:3] == list(long_names)
