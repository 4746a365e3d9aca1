"""The organizer's device: the controller alone, then its screens through a client-less Flet session.

The results inbox and corrections are tests/app/test_organizer_results.py's, the camera
tests/app/test_organizer_camera.py's; the helpers here serve them and other tests.

The screens run over a store the test holds too (``run(..., store=store)``): the test reads
what the screens saved through an :class:`Organizer` of its own (:class:`Desk`), as a second
screen on the same event would.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

import flet as ft
import app.views.organizer.event as event_screen
from app.documents.events import COLLECTION
from app.event.organizer import Organizer, describe_error
from app.storage import ChangedElsewhere, FileStore, MemoryStore, StoreWriteError
from app.qr.camera import ScanTiming
from app.qr import read_qr_texts
from engine import (
    CodeDamaged,
    Game,
    IllegalAction,
    InvalidInput,
    TableResult,
    Tournament,
    decode_setup,
    encode_result,
    result_from_game,
)
from engine.codec import places_from
from tests.support.app_driver import FailingStore, run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game


@dataclass
class Desk:
    """The test's side of the app's store: the event the screens work on, as stored now."""

    store: MemoryStore = field(default_factory=MemoryStore)
    tournament_id: str = ""

    async def now(self) -> Tournament:
        tournament = await Organizer(self.store).open(self.tournament_id)
        assert tournament is not None, f"no stored tournament {self.tournament_id!r}"
        return tournament

    async def organizer(self) -> Organizer:
        organizer = Organizer(self.store)
        assert await organizer.open(self.tournament_id) is not None
        return organizer

    def route(self, page: str = "") -> str:
        return f"/organizer/{self.tournament_id}" + (f"/{page}" if page else "")

    def run(self, test: Any, route: str = "/", **options: Any) -> Any:
        """The app on ``route`` over this store."""
        return run(test, route, store=self.store, **options)


def notice(ui: FletHarness) -> str:
    return ui.text_of("organizer-notice")


async def new_event(ui: FletHarness, desk: Desk, names: list[str], cap: str = "") -> Tournament:
    """Create an event, sign players up and check everyone in, all through the screens."""
    await ui.click("organize")
    await ui.type_text("event-name", "Mayor's cup")
    if cap:
        await ui.type_text("event-cap", cap)
    await ui.click("create-event")
    desk.tournament_id = ui.page.route.split("/")[2]
    for name in names:
        await ui.type_text("signup-name", name)
        await ui.click("sign-up")
    if names:
        await ui.click("check-in-all")
        assert notice(ui) == f"{len(names)} players checked in."
    return await desk.now()


async def drawn_event(ui: FletHarness, desk: Desk, players: int, seed: int = 11) -> Tournament:
    await new_event(ui, desk, [f"Player {n}" for n in range(1, players + 1)])
    await ui.click("nav-seating")
    await ui.type_text("draw-seed", str(seed))
    await ui.click("draw-seats")
    return await desk.now()


def played_code(t: Tournament, table: int, seed: int) -> str:
    """A table's device: a whole game from the setup code, the result code it shows."""
    setup = decode_setup(t.setup_code(table))
    game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(seed))
    return encode_result(result_from_game(game, setup), setup.key)


def signed_code(t: Tournament, table: int, totals: tuple[int, ...], roll_offs: tuple[Any, ...] = (),
                key: bytes | None = None, numbers: tuple[int, ...] | None = None) -> str:
    """A result code with chosen totals, signed with the table's key (or ``key``)."""
    setup = t.setup(table)
    result = TableResult(t.event_id, t.round, table, numbers or setup.numbers, totals,
                         places_from(totals, roll_offs), roll_offs, setup.rules, bytes(16))
    return encode_result(result, key or setup.key)


async def import_typed(ui: FletHarness, text: str) -> str:
    if not ui.page.route.endswith("/results"):
        await ui.click("nav-results")
    await ui.type_text("result-code", text)
    await ui.click("import-result")
    return notice(ui)


# -- the controller --------------------------------------------------------------------------


def test_each_organizer_action_is_stored_before_it_returns_and_reopens_the_same_tournament():
    async def test() -> None:
        store = MemoryStore()
        organizer = Organizer(store)
        tournament_id = await organizer.create("Spring cup", 12, "SPRING-26", "http://10.0.0.5:8550/")
        number = await organizer.act(lambda t: t.sign_up("Ann"))
        assert number == 1
        stored = await store.load(COLLECTION, tournament_id)
        assert stored is not None and stored["events"] == organizer.open_tournament.events
        assert stored["link_base"] == "http://10.0.0.5:8550"
        again = Organizer(store)
        reopened = await again.open(tournament_id)
        assert reopened == organizer.open_tournament and reopened.format.cap == 12
        await again.undo()
        assert (await store.load(COLLECTION, tournament_id) or {})["events"] == again.open_tournament.events
        assert again.open_tournament.players == ()

    asyncio.run(test())


def test_a_refused_action_and_a_failed_write_both_leave_the_tournament_as_it_was():
    async def test() -> None:
        store = FailingStore()
        organizer = Organizer(store)
        await organizer.create("Spring cup")
        await organizer.act(lambda t: t.sign_up("Ann"))
        before = organizer.open_tournament.events
        with pytest.raises(IllegalAction, match=r'"Ann" is already signed up: Ann \(number 1\)'):
            await organizer.act(lambda t: t.sign_up("Ann"))
        store.fail = True
        with pytest.raises(StoreWriteError):
            await organizer.act(lambda t: t.sign_up("Bob"))
        assert organizer.open_tournament.events == before

    asyncio.run(test())


def test_a_refused_code_is_kept_with_its_reason_and_survives_a_reopen():
    async def test() -> None:
        store = MemoryStore()
        organizer = Organizer(store)
        tournament_id = await organizer.create("Spring cup")
        with pytest.raises(CodeDamaged):
            await organizer.import_code("FR1-NOT A CODE")
        again = Organizer(store)
        await again.open(tournament_id)
        assert [r.code for r in again.refusals] == ["FR1:NOTACODE"]
        assert again.refusals[0].reason == "The last characters 'DE' cannot end a code: check them."

    asyncio.run(test())


def test_a_code_refused_on_one_organizer_screen_lets_the_next_action_on_another_screen_through():
    async def test() -> None:
        store = MemoryStore()
        door = Organizer(store)
        tournament_id = await door.create("Spring cup")
        desk = Organizer(store)
        await desk.open(tournament_id)
        with pytest.raises(CodeDamaged):
            await door.import_code("FR1-NOT A CODE")
        await desk.act(lambda t: t.sign_up("Ann"))  # not "changed on another screen"
        stored = await Organizer(store).open(tournament_id)
        assert stored is not None and [p.name for p in stored.players] == ["Ann"]
        await desk.open(tournament_id)
        assert [r.code for r in desk.refusals] == ["FR1:NOTACODE"]  # both screens show the refusal

    asyncio.run(test())


@pytest.mark.parametrize("backend", ["memory", "file"])
def test_refused_codes_and_the_copy_mark_an_earlier_version_kept_in_the_event_survive_its_next_action(
        backend: str, tmp_path: Path) -> None:
    async def test() -> None:
        store = MemoryStore() if backend == "memory" else FileStore(tmp_path / "data")
        tournament = Tournament("Spring cup", event_id="SPRING-26")
        refused = {"at": "2026-05-01T10:00:00+00:00", "code": "FR1:ABC", "reason": "This is not a result code."}
        await store.save(COLLECTION, "cup", {"id": "cup", "events": tournament.events, "refused": [refused],
                                             "last_copy": {"at": "2026-05-01T09:00:00+00:00", "actions": 1}},
                         expect_revision=0)
        organizer = Organizer(store)
        await organizer.open("cup")
        await organizer.act(lambda t: t.sign_up("Ann"))
        again = Organizer(store)
        await again.open("cup")
        assert [(r.code, r.reason) for r in again.refusals] == [("FR1:ABC", "This is not a result code.")]
        assert again.last_copy is not None and again.last_copy.actions == 1
        assert "refused" not in (await store.load(COLLECTION, "cup") or {})  # kept beside it, not in it
        await again.delete("cup")
        assert await store.load("beside", "cup") is None

    asyncio.run(test())


def test_an_action_on_an_event_another_screen_changed_meanwhile_shows_that_screens_event_and_changes_nothing():
    async def test() -> None:
        store = MemoryStore()
        here = Organizer(store)
        tournament_id = await here.create("Spring cup")
        there = Organizer(store)
        await there.open(tournament_id)
        await there.act(lambda t: t.sign_up("Ann"))
        with pytest.raises(ChangedElsewhere, match="This event was changed on another screen meanwhile. "
                           "It now shows that screen's latest state: check it, then enter your action again."):
            await here.act(lambda t: t.sign_up("Bob"))
        assert [p.name for p in here.open_tournament.players] == ["Ann"]  # theirs, adopted
        stored = await Organizer(store).open(tournament_id)
        assert stored is not None and [p.name for p in stored.players] == ["Ann"]  # nothing of Bob was written
        await here.act(lambda t: t.sign_up("Bob"))  # entered again, on their state
        await there.open(tournament_id)
        assert [p.name for p in there.open_tournament.players] == ["Ann", "Bob"]
        stale = Organizer(store)
        await stale.open(tournament_id)
        await there.act(lambda t: t.sign_up("Cy"))
        with pytest.raises(ChangedElsewhere):
            await stale.set_link_base("http://10.0.0.5:8550")
        assert stale.link_base == "" and len(stale.open_tournament.players) == 3

    asyncio.run(test())


def test_the_service_checks_everyone_in_and_re_runs_the_draw_from_its_seed():
    async def test() -> None:
        organizer = Organizer(MemoryStore())
        await organizer.create("Spring cup")
        with pytest.raises(InvalidInput, match="No round has been drawn yet"):
            organizer.verify_draw()
        for name in ["Ann", "Bob", "Cy"]:
            await organizer.act(lambda t, name=name: t.sign_up(name))
        await organizer.act(lambda t: t.check_in(1))
        assert await organizer.check_in_all() == 2
        with pytest.raises(InvalidInput, match="Everyone signed up is already checked in."):
            await organizer.check_in_all()
        await organizer.act(lambda t: t.draw_seats(5))
        check = organizer.verify_draw()
        assert check.seed == 5 and check.same
        assert check.message == "Re-run from seed 5: the same seating, table for table."

    asyncio.run(test())


# -- sign-up -----------------------------------------------------------------------------------


def test_sign_up_refuses_a_duplicate_name_a_taken_number_and_a_full_event_and_changes_nothing():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [], cap="3")
        await ui.type_text("signup-name", "Ann")
        await ui.type_text("signup-number", "7")
        await ui.click("sign-up")
        assert notice(ui) == "Ann signed up as number 7."
        await ui.type_text("signup-name", "ann")
        await ui.click("sign-up")
        assert notice(ui) == '"ann" is already signed up: Ann (number 7). Add something to tell them apart.'
        await ui.type_text("signup-name", "Bob")
        await ui.type_text("signup-number", "7")
        await ui.click("sign-up")
        assert notice(ui) == "Number 7 is already Ann's: choose another for Bob."
        await ui.type_text("signup-number", "seven")
        await ui.click("sign-up")
        assert notice(ui) == "A player number: 'seven' is not a whole number."
        await ui.type_text("signup-number", "")
        await ui.click("sign-up")
        await ui.type_text("signup-name", "Cy")
        await ui.click("sign-up")
        events = len((await desk.now()).events)
        await ui.type_text("signup-name", "Di")
        await ui.click("sign-up")
        assert notice(ui) == "The event is full (3 players): Di cannot sign up."
        assert len((await desk.now()).events) == events
        assert [ui.text_of(f"player-{n}") for n in (7, 8, 9)] == [
            "7. Ann · not checked in", "8. Bob · not checked in", "9. Cy · not checked in"]
        await ui.click("check-in-8")
        assert ui.text_of("player-8") == "8. Bob · checked in"
        await ui.type_text("withdraw-reason", "train late")
        await ui.click("withdraw-9")
        assert ui.text_of("player-9") == "9. Cy · withdrawn (train late)"
        await ui.click("organizer-undo")
        assert ui.text_of("player-9") == "9. Cy · not checked in"

    desk.run(test)


def test_an_action_after_another_screen_changed_the_event_shows_that_screens_event_and_asks_again():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, [])
        elsewhere = await desk.organizer()
        await elsewhere.act(lambda t: t.sign_up("Ann"))  # another tab signs Ann up meanwhile
        await ui.type_text("signup-name", "Bob")
        await ui.click("sign-up")
        assert notice(ui) == ("This event was changed on another screen meanwhile. It now shows that screen's "
                              "latest state: check it, then enter your action again.")
        assert ui.text_of("player-1") == "1. Ann · not checked in" and not ui.exists("player-2")
        assert ui.find("signup-name", ft.TextField).value == "Bob"  # nothing typed is lost
        await ui.click("sign-up")
        assert notice(ui) == "Bob signed up as number 2."
        assert [p.name for p in (await desk.now()).players] == ["Ann", "Bob"]

    desk.run(test)


# -- the draw and the table cards ----------------------------------------------------------------


def test_the_draw_shows_each_table_card_with_its_players_a_setup_qr_and_its_text_form():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 10, seed=5)
        assert notice(ui) == "Seats drawn: 3 tables (seed 5)."
        assert ui.text_of("round-plan") == (
            "Round 1: 10 players, 1 table of 4 and 2 tables of 3, house rules; "
            "the 8 best totals over all tables go on.")
        for table, numbers in enumerate(t.seating(), 1):
            card = ui.text_of(f"table-card-{table}")
            for seat, number in enumerate(numbers, 1):
                assert f"Seat {seat}: Player {number} (number {number})" in card
            typed = decode_setup(ui.text_of(f"setup-code-{table}"))
            assert typed.numbers == numbers and typed.table == table and typed.round == 1
            image = ui.find(f"setup-qr-{table}", ft.Image)
            [scanned] = read_qr_texts(image.src)
            assert decode_setup(scanned.rsplit("/", 1)[-1]) == typed  # a join link ending in the code
        await ui.click("rerun-draw")
        assert notice(ui) == "Re-run from seed 5: the same seating, table for table."
        await ui.click("print-cards")
        assert ui.page.route.endswith("/print")
        assert ui.exists("table-card-3") and not ui.exists("nav-results")

    desk.run(test)


def test_a_bad_draw_seed_is_refused_and_nothing_is_drawn():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, ["Ann", "Bob", "Cy"])
        await ui.click("nav-seating")
        await ui.type_text("draw-seed", "-3")
        await ui.click("draw-seats")
        assert notice(ui) == "A draw seed: '-3' is not a whole number."
        assert (await desk.now()).round == 0 and ui.exists("draw-seats")

    desk.run(test)


# -- standings, export, lookup -----------------------------------------------------------------


def test_standings_show_round_totals_and_export_as_csv_through_the_file_picker_and_clipboard():
    desk = Desk()
    saved: list[dict[str, Any]] = []

    def save_file(ui: FletHarness, service: Any, args: Any) -> str:
        saved.append(args)
        return "/home/organizer/" + args["file_name"]

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        for table in (1, 2):
            await import_typed(ui, signed_code(t, table, (10_000, 6_000, 2_000, 0)))
        await ui.click("nav-standings")
        first = t.seating()[0][0]
        assert ui.text_of(f"standing-{first}") == (
            f"1. Player {first} (number {first}) · playing round 1 · Round 1 10,000 (place 1 overall)")
        await ui.click("save-standings-csv")
        assert saved[0]["file_name"] == f"{t.event_id.lower()}-standings.csv"
        assert saved[0]["src_bytes"].decode("utf-8-sig").startswith('"Rank","Number","Name","Status","Round 1"\n1,')
        assert notice(ui) == f"Standings saved as /home/organizer/{t.event_id.lower()}-standings.csv."
        await ui.click("copy-results-csv")
        results_csv = (await desk.now()).results_csv()
        assert ui.clipboard == results_csv
        assert ui.text_of("csv-text") == results_csv

    desk.run(test, services={("FilePicker", "save_file"): save_file})


def test_the_room_lookup_finds_a_players_table_seat_and_standing_by_name_or_number():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        table, seat = next((ti, s) for ti, numbers in enumerate(t.seating(), 1)
                           for s, n in enumerate(numbers, 1) if n == 6)
        await ui.click("nav-lookup")
        await ui.type_text("room-lookup", "6")
        assert ui.text_of("found-6") == (
            f"Player 6 (number 6): round 1, table {table}, seat {seat} · rank 1 · playing round 1")
        await ui.type_text("room-lookup", "player 1")
        assert ui.exists("found-1") and not ui.exists("found-6")
        await ui.type_text("room-lookup", "Zed")
        assert ui.text_of("found-none") == "No player matches 'Zed'."

    desk.run(test)


def test_every_organizer_screen_names_each_control_a_person_acts_on():
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        assert ui.exists("organize") and ui.exists("join-table")
        t = await drawn_event(ui, desk, 6)
        await import_typed(ui, signed_code(t, 1, (10_000, 500, 0)))
        await import_typed(ui, signed_code(t, 1, (10_050, 500, 0)))
        for page in ("", "players", "seating", "print", "results", "standings", "lookup", "final"):
            await ui.navigate(desk.route(page))
            assert not ui.exists("organizer-not-found"), page
            assert ui.unlabelled_controls() == [], page
        await ui.navigate("/organizer")
        assert ui.unlabelled_controls() == []

    desk.run(test)


def test_an_unknown_event_or_page_says_so():
    async def test(ui: FletHarness) -> None:
        assert ui.text_of("organizer-not-found") == "There is no readable tournament 'nothing-here' on this device."
        await ui.navigate("/organizer/nothing-here/results/more")
        assert ui.text_of("organizer-not-found") == "The organizer has no page 'results/more'."

    Desk().run(test, route="/organizer/nothing-here")


# -- the camera ----------------------------------------------------------------------------------


def camera_frame(text: str) -> bytes:
    """A JPEG as a phone camera would take it: the QR on a white 640x480 picture."""
    from app.qr import qr_image

    frame = Image.new("RGB", (640, 480), "white")
    frame.paste(Image.open(io.BytesIO(qr_image(text, box_size=8).png)), (120, 40))
    out = io.BytesIO()
    frame.save(out, "JPEG")
    return out.getvalue()


def blank_frame(size: tuple[int, int] = (640, 480)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, "JPEG")
    return out.getvalue()


BACK_CAMERA = {"name": "back", "lens_direction": "back", "sensor_orientation": 90}


def camera_services(cameras: list[dict[str, Any]], frames: list[bytes]) -> dict[tuple[str, str], Any]:
    """The harness's camera: these cameras, then these pictures in turn (the last one again and again)."""
    shots = iter(frames)
    return {
        ("Camera", "get_available_cameras"): lambda ui, service, args: cameras,
        ("Camera", "initialize"): lambda ui, service, args: None,
        ("Camera", "take_picture"): lambda ui, service, args: next(shots, frames[-1]),
    }


class FakeClock:
    """A clock that moves only when the scan waits: a whole give-up without waiting."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)

    @property
    def timing(self) -> ScanTiming:
        """The scans' timing on this clock (``run(..., scan_timing=clock.timing)``)."""
        return ScanTiming(clock=self, sleep=self.sleep)


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


async def scan(ui: FletHarness, done: str) -> None:
    """Tap the results page's scan button and wait until the control keyed ``done`` shows."""
    await ui.click("nav-results")
    await ui.click("result-scan-start")
    for _ in range(500):
        if ui.exists(done):
            return
        await asyncio.sleep(0.01)
        await ui.settle()
    raise AssertionError(f"the scan did not end with {done!r}: {ui.texts()}")


def test_an_event_whose_log_cannot_be_replayed_is_named_on_the_organizer_screen(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    (folder / "tournaments").mkdir(parents=True)
    broken = {"id": "t-broken", "name": "Broken", "event_id": "BR-1", "players": 0, "round": 0,
              "updated": "2026-12-01T10:00:00+00:00", "revision": 1,
              "events": [{"type": "no such event"}]}
    (folder / "tournaments" / "t-broken.json").write_text(json.dumps(broken))

    async def test(ui: FletHarness) -> None:
        assert "Could not read" in ui.text_of("unreadable-events")
        assert "t-broken" in ui.text_of("unreadable-events")

    run(test, route="/organizer", store=FileStore(folder))
    assert json.loads(next((folder / "tournaments").glob("t-broken.json.unreadable-*")).read_text()) == broken


def test_an_organizer_action_that_fails_without_a_refusal_is_logged_with_its_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    try:
        {}["a key no event has"]
    except KeyError as error:
        shown = describe_error(error)
    assert shown.startswith("Something went wrong, nothing changed")
    (record,) = [record for record in caplog.records if record.name == "app.event.organizer"]
    assert record.levelname == "ERROR" and record.exc_info is not None and record.exc_info[0] is KeyError


@pytest.mark.parametrize(("pwa", "access", "links"), [
    (True, "Only this device opens this event: the app keeps it in this browser, with no organizer passphrase, and "
           "no other device reaches it. Save a copy to keep it off the device.",
     "Result QR codes carry a link to this app's site, so the camera app of this phone can open a table's result"),
    (False, "No wrong organizer passphrase from another device since the server started.",
     "Result QR codes carry a link to this app, so a phone's camera app can open it here. Give the address phones "
     "reach this device on"),
])
def test_the_event_page_speaks_of_what_the_app_has_where_it_runs(
        monkeypatch: pytest.MonkeyPatch, pwa: bool, access: str, links: str):
    monkeypatch.setattr(event_screen, "in_browser", lambda: pwa)
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, ["Ann", "Bob"])
        await ui.navigate(desk.route())
        assert ui.text_of("event-access") == access
        assert ui.text_of("link-base-help").startswith(links)
        if pwa:
            words = " ".join(ui.texts()).lower()
            assert "server" not in words and "other devices" not in words and "wrong organizer passphrase" not in words

    desk.run(test)
