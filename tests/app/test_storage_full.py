"""Storage full at every write path: the message, nothing lost, and the action once there is room.

Each screen action that writes runs over the browser's own store code (``PrefsStore`` over
``MemoryPrefs``, which refuses a write past its quota the way a full ``localStorage`` does,
and afterwards still hands out the refused value the way Flutter's plugin does). The
storage is filled up with another site's entry so that nothing more fits, the action is
done through the screen, and then:

- the screen says the storage is full and what to do, in the same words everywhere;
- what is stored is byte for byte what it was, and the screen shows what it showed before
  (nothing claimed as done; the form, the dice tapped, the texts typed are kept);
- once the filler is gone, the same tap does it.

Undo and clearing the refused codes store less than before, which a full browser takes
(or, when the packed log happens not to shrink, refuses like any other write); deleting
finished games on Home makes the room the message asks for.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import flet as ft
import pytest

from app.event.organizer import Organizer
from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryPrefs, PrefsStore, StorageFullError, Store
from app.table.tournament_table import join_link
from engine import FarkleError, Game, Rules, Tournament, safe_form
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness, control_key
from tests.support.game_play import play_game
from tests.app.test_organizer import BACK_CAMERA, FakeClock, camera_frame, camera_services, fake_clock, signed_code
from tests.app.test_result_confirmation import final_of_four, finished_table

__all__ = ["fake_clock"]  # the camera's fixture

QUOTA = 1_000_000
FILLER = "another-site/filler"
FULL = "the storage is full (Browser storage is full: could not save "
ADVICE = "Export your games and delete finished ones on Home, then "

MESSAGES = frozenset({"refusal", "notice", "new-game-error", "join-refusal", "confirm-problem", "home-message",
                      "organizer-notice"})
"""Keys of the banners that say what an action did or why it was refused."""


# -- the storage --------------------------------------------------------------------------------


def fill_up(prefs: MemoryPrefs) -> dict[str, Any]:
    """Another site's entry takes every character left: nothing more fits. What is stored now."""
    prefs.quota_bytes = QUOTA
    prefs.values[FILLER] = ""
    prefs.values[FILLER] = "x" * (QUOTA - prefs.stored_chars())
    assert prefs.stored_chars() == QUOTA
    return dict(prefs.values)


def browser_store(setup: Setup) -> tuple[MemoryPrefs, PrefsStore, Scene]:
    """The browser's store over an empty ``localStorage``, with what ``setup`` stores first."""
    prefs = MemoryPrefs()
    store = asyncio.run(PrefsStore.open(prefs))
    return prefs, store, asyncio.run(setup(store))


def make_room(prefs: MemoryPrefs) -> None:
    del prefs.values[FILLER]


def ours(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if key != FILLER}


# -- what the screen shows --------------------------------------------------------------------------


def in_message(control: Any) -> bool:
    while control is not None:
        if control_key(control) in MESSAGES:
            return True
        control = control.parent
    return False


def shown(ui: FletHarness) -> tuple[str, list[str], list[tuple[Any, Any]], list[str]]:
    """What a person sees, messages aside: the route, the texts, what the fields hold, and
    what each button says (dice entered and tapped aside included)."""
    controls = [control for control in ui.find_all() if not in_message(control)]
    texts = [str(c.value) for c in controls if isinstance(c, ft.Text) and c.value is not None]
    fields = [(control_key(c), c.value) for c in controls if isinstance(c, (ft.TextField, ft.Switch))]
    buttons = [ui.accessible_name(c) for c in controls if getattr(c, "on_click", None) is not None]
    return str(ui.page.route), texts, fields, buttons


def messages(ui: FletHarness) -> list[str]:
    return [ui.text_of(key) for key in sorted(MESSAGES) if ui.exists(key)]


def says_full(ui: FletHarness) -> str:
    """The one message saying the storage is full, and what to do."""
    full = [text for text in messages(ui) if FULL in text]
    assert len(full) == 1, (messages(ui), ui.texts())
    assert ADVICE in full[0], full[0]
    return full[0]


# -- what each screen needs -------------------------------------------------------------------------


@dataclass
class Scene:
    """Where a screen opens, and what its steps need (codes, player numbers, a camera)."""

    route: str
    values: dict[str, Any] = field(default_factory=dict)
    services: dict[tuple[str, str], Any] = field(default_factory=dict)


Setup = Callable[[Store], Awaitable[Scene]]
Step = Callable[[FletHarness, Scene], Awaitable[None]]


async def home(store: Store) -> Scene:
    return Scene("/")


async def a_game(store: Store, *steps: Callable[[Game], Any], rules: Rules | None = None) -> Scene:
    keeper = Scorekeeper(store)
    game_id = await keeper.start_game(["Ann", "Bob"], rules or Rules.preset("house"))
    for step in steps:
        await keeper.act(step)
    return Scene(f"/game/{game_id}")


def game(*steps: Callable[[Game], Any], rules: Rules | None = None) -> Setup:
    return lambda store: a_game(store, *steps, rules=rules)


def roll(faces: str) -> Callable[[Game], Any]:
    return lambda g: g.roll(faces)


def keep(faces: str, bank: bool = False) -> Callable[[Game], Any]:
    return lambda g: (g.keep(faces), g.bank() if bank else None)


async def finished_game(store: Store) -> Scene:
    keeper = Scorekeeper(store)
    game_id = await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
    await keeper.act(lambda g: play_game(g, random.Random(3)) and None)
    return Scene(f"/new/{game_id}")


async def table_to_join(store: Store) -> Scene:
    _, code = final_of_four()
    return Scene(join_link(code, ""))


async def finished_table_game(store: Store) -> Scene:
    game_id, _, _ = await finished_table(store)  # type: ignore[arg-type]  # any store will do
    return Scene(f"/game/{game_id}")


async def an_event(store: Store, players: int, *, checked: bool = True, drawn: bool = False,
                   results: Mapping[int, tuple[int, ...]] | None = None, close: bool = False,
                   page: str = "") -> tuple[Organizer, Scene]:
    """An event with ``players`` signed up (checked in), seats drawn, table results counted."""
    organizer = Organizer(store)
    tournament_id = await organizer.create("Mayor's cup", event_id="MAYOR-26")

    def sign_up(t: Tournament) -> None:
        for number in range(1, players + 1):
            t.sign_up(f"Player {number}")
            if checked:
                t.check_in(number)

    await organizer.act(sign_up)
    if drawn:
        await organizer.act(lambda t: t.draw_seats(11))
    for table, totals in (results or {}).items():
        await organizer.import_code(signed_code(organizer.open_tournament, table, totals))
    if close:
        await organizer.act(lambda t: t.close_round())
    route = f"/organizer/{tournament_id}" + (f"/{page}" if page else "")
    return organizer, Scene(route)


def event(players: int, page: str = "", **options: Any) -> Setup:
    async def setup(store: Store) -> Scene:
        return (await an_event(store, players, page=page, **options))[1]

    return setup


TABLE_OF_4 = (10_000, 8_000, 7_000, 6_000)


async def with_result_codes(store: Store) -> Scene:
    """Two tables drawn; the codes of table 1's result and of a different one."""
    organizer, scene = await an_event(store, 8, drawn=True, page="results")
    t = organizer.open_tournament
    scene.values.update(code=signed_code(t, 1, TABLE_OF_4), other=signed_code(t, 1, (10_050, 8_000, 7_000, 6_000)))
    return scene


async def counted_result(store: Store) -> Scene:
    organizer, scene = await an_event(store, 8, drawn=True, results={1: TABLE_OF_4}, page="results")
    scene.values["other"] = signed_code(organizer.open_tournament, 1, (10_050, 8_000, 7_000, 6_000))
    return scene


async def held_result(store: Store) -> Scene:
    organizer, scene = await an_event(store, 8, drawn=True, results={1: TABLE_OF_4}, page="results")
    await organizer.import_code(signed_code(organizer.open_tournament, 1, (10_050, 8_000, 7_000, 6_000)))
    return scene


async def tie_at_the_cut(store: Store) -> Scene:
    organizer, scene = await an_event(store, 5, drawn=True, results={1: (10_000, 8_000, 5_000, 3_000, 3_000)},
                                      page="results")
    first, second = sorted(organizer.open_tournament.seating()[0][3:])
    scene.values.update(first=first, second=second)
    return scene


async def camera_on_results(store: Store) -> Scene:
    scene = await with_result_codes(store)
    scene.services = camera_services([BACK_CAMERA], [camera_frame(scene.values["code"])])
    return scene


# -- steps ------------------------------------------------------------------------------------------


async def nothing(ui: FletHarness, scene: Scene) -> None:
    pass


def tap(*keys: str) -> Step:
    """Tap these controls in turn (``{name}`` filled in from the scene's values)."""

    async def step(ui: FletHarness, scene: Scene) -> None:
        for key in keys:
            await ui.click(key.format(**scene.values))

    return step


def type_in(**texts: str) -> Step:
    """Type into these fields (keyword ``signup_name`` is the field keyed ``signup-name``)."""

    async def step(ui: FletHarness, scene: Scene) -> None:
        for name, text in texts.items():
            await ui.type_text(name.replace("_", "-"), text.format(**scene.values))

    return step


def keys(*pressed: str) -> Step:
    async def step(ui: FletHarness, scene: Scene) -> None:
        for key in pressed:
            await ui.press_key(key)

    return step


def steps(*parts: Step) -> Step:
    async def step(ui: FletHarness, scene: Scene) -> None:
        for part in parts:
            await part(ui, scene)

    return step


async def change_rules(ui: FletHarness, scene: Scene) -> None:
    await ui.click("change-rules")
    await ui.set_value("switch-progressive", True)
    await ui.click("apply-rules")


async def scan_once(ui: FletHarness, scene: Scene) -> None:
    """The camera reads the result code on its first picture; wait until the inbox says what became of it."""
    before = messages(ui)
    await ui.click("result-scan-start")
    for _ in range(500):
        if ui.exists("result-scan-start") and messages(ui) != before:
            return
        await asyncio.sleep(0.01)  # the picture is decoded in a worker thread
        await ui.settle()
    raise AssertionError(f"the scan did not end: {ui.texts()}")


# -- every screen action that writes ----------------------------------------------------------------


def notice_starts(text: str) -> Callable[[FletHarness], bool]:
    return lambda ui: ui.exists("organizer-notice") and ui.text_of("organizer-notice").startswith(text)


def on_route(prefix: str) -> Callable[[FletHarness], bool]:
    return lambda ui: str(ui.page.route).startswith(prefix)


def turn_line(text: str) -> Callable[[FletHarness], bool]:
    return lambda ui: ui.text_of("turn-line").startswith(text)


@dataclass(frozen=True)
class WritePath:
    """One screen action that writes: the screen it starts on, what is entered first (nothing
    stored), the tap that stores, and how the screen shows it done once there is room."""

    setup: Setup
    before: Step
    act: Step
    done: Callable[[FletHarness], bool]


WRITE_PATHS: dict[str, WritePath] = {
    # the scorekeeper's device
    "new game": WritePath(home, steps(tap("new-game"), type_in(player_name_1="Ann", player_name_2="Bob")),
                          tap("start-game"), on_route("/game/")),
    "rematch": WritePath(finished_game, nothing, tap("start-game"), on_route("/game/")),
    "throw": WritePath(game(), tap("face-1", "face-1", "face-1", "face-5", "face-2", "face-3"), tap("enter-throw"),
                       lambda ui: ui.exists("keep-panel")),
    "throw typed on the keyboard": WritePath(game(), keys("1", "1", "1", "5", "2", "3"), keys("Enter"),
                                             lambda ui: ui.exists("keep-panel")),
    "set aside and roll on": WritePath(game(roll("1 1 1 5 2 3")), tap("die-0", "die-1", "die-2"), tap("roll"),
                                       turn_line("Ann's turn · turn total 1,000")),
    "set aside and bank": WritePath(game(roll("1 1 1 5 2 3")), tap("die-0", "die-1", "die-2"), tap("bank"),
                                    turn_line("Bob's turn")),
    "bank": WritePath(game(roll("1 1 1 5 2 3"), keep("1 1 1")), nothing, tap("bank"), turn_line("Bob's turn")),
    "advice on": WritePath(game(), nothing, tap("advice-switch"),
                           lambda ui: ui.accessible_name(ui.find("advice-switch")) == "Turn advice off"),
    "build on the offer": WritePath(game(roll("1 1 1 5 2 3"), keep("1 1 1", bank=True), rules=Rules.preset("progressive")),
                                    nothing, tap("build"), lambda ui: not ui.exists("build")),
    "redo": WritePath(game(roll("1 1 1 5 2 3")), tap("undo"), tap("redo"), lambda ui: ui.exists("keep-panel")),
    "roll-off": WritePath(game(roll("1 1 1 5 2 3"), keep("1 1 1 5", bank=True), roll("1 1 1 5 2 3"),
                               keep("1 1 1 5", bank=True), rules=dataclasses.replace(Rules.preset("house"), target=500)),
                          tap("roll-off-0-6", "roll-off-1-2"), tap("record-roll-off"),
                          lambda ui: not ui.exists("roll-off-panel")),
    "change of rules": WritePath(game(), nothing, change_rules, lambda ui: "progressive" in " ".join(ui.texts())),
    "theme": WritePath(home, nothing, tap("theme"), lambda ui: ui.page.theme_mode == ft.ThemeMode.DARK),
    # a tournament table's device
    "start the table's game": WritePath(table_to_join, nothing, tap("start-tournament-game"), on_route("/game/")),
    "confirm the final totals": WritePath(finished_table_game, nothing, tap("confirm-seat-1"),
                                          lambda ui: ui.text_of("confirm-line-1").endswith(" · confirmed")),
    "decline the final totals": WritePath(finished_table_game, nothing, tap("decline-seat-1"),
                                          lambda ui: ui.text_of("confirm-line-1").endswith(" · declined")),
    # the organizer's device
    "new event": WritePath(home, steps(tap("organize"), type_in(event_name="Spring cup")), tap("create-event"),
                           on_route("/organizer/")),
    "format": WritePath(event(0), type_in(fmt_cap="12"), tap("fmt-save"), notice_starts("Format saved")),
    "address for result links": WritePath(event(0), type_in(link_base="http://10.0.0.5:8550"), tap("save-link-base"),
                                          notice_starts("Saved: new setup codes carry this address.")),
    "passphrase": WritePath(event(0), steps(tap("ask-passphrase"), type_in(new_passphrase="open sesame",
                                                                            new_passphrase_again="open sesame")),
                            tap("set-passphrase"), notice_starts("Organizer passphrase set")),
    "sign-up": WritePath(event(2, "players"), type_in(signup_name="Eve"), tap("sign-up"),
                         notice_starts("Eve signed up as number 3.")),
    "check-in": WritePath(event(2, "players", checked=False), nothing, tap("check-in-1"),
                          notice_starts("Player 1 (number 1) checked in.")),
    "check everyone in": WritePath(event(2, "players", checked=False), nothing, tap("check-in-all"),
                                   notice_starts("2 players checked in.")),
    "withdrawal": WritePath(event(2, "players"), type_in(withdraw_reason="ill"), tap("withdraw-1"),
                            notice_starts("Player 1 (number 1) withdrew.")),
    "draw the seats": WritePath(event(8, "seating"), type_in(draw_seed="11"), tap("draw-seats"),
                                notice_starts("Seats drawn: 2 tables")),
    "cancel the draw": WritePath(event(8, "seating", drawn=True), nothing, tap("cancel-draw"),
                                 notice_starts("The draw was cancelled")),
    "revoke a card": WritePath(event(8, "seating", drawn=True), type_in(revoke_reason_1="phone lost"),
                               tap("revoke-table-1"), notice_starts("Table 1's card is revoked")),
    "result typed in": WritePath(with_result_codes, type_in(result_code="{code}"), tap("import-result"),
                                 notice_starts("Round 1, table 1: result counted")),
    "result scanned with the camera": WritePath(camera_on_results, nothing, scan_once,
                                                notice_starts("Round 1, table 1: result counted")),
    "result entered by hand": WritePath(event(8, "results", drawn=True),
                                        type_in(paper_total_1="10000", paper_total_2="8000", paper_total_3="7000",
                                                paper_total_4="6000", paper_reason="phone lost"),
                                        tap("record-paper"), notice_starts("Round 1, table 1: result entered by hand")),
    "held result chosen": WritePath(held_result, type_in(held_reason="sheet re-added"), tap("take-held-1-0"),
                                    notice_starts("Table 1: the held result counts.")),
    "void a result": WritePath(counted_result, type_in(void_reason="wrong table"), tap("void-1"),
                               notice_starts("Table 1's result was voided")),
    "replace a result": WritePath(counted_result, type_in(void_reason="misread", result_code="{other}"),
                                  tap("replace-1"), notice_starts("Table 1's result was replaced")),
    "roll-off at the cut": WritePath(tie_at_the_cut, tap("roll-0-{first}-5", "roll-0-{second}-2"),
                                     tap("record-roll-off-0"), notice_starts("Roll-off recorded")),
    "close the round": WritePath(event(8, "results", drawn=True, results={1: TABLE_OF_4, 2: TABLE_OF_4}), nothing,
                                 tap("close-round"), notice_starts("Round 1 closed: ")),
    "switch the final's rules": WritePath(event(4, "final", drawn=True), nothing, tap("switch-final-rules"),
                                          lambda ui: ui.exists("switched")),
    "prize": WritePath(event(4, "final", drawn=True, results={1: TABLE_OF_4}, close=True),
                       type_in(prize_amount="1,000"), tap("award-prize"), notice_starts("Prize recorded: $1,000.")),
}


@pytest.mark.parametrize("name", WRITE_PATHS)
def test_each_action_on_a_full_storage_says_so_keeps_everything_and_works_once_there_is_room(
        name: str, fake_clock: FakeClock) -> None:
    full_then_room(WRITE_PATHS[name], may_fit=False, clock=fake_clock)


def full_then_room(path: WritePath, may_fit: bool, clock: FakeClock | None = None) -> None:
    """Enter what comes before, fill the storage up, act: the message, nothing written, the
    screen as it was (unless ``may_fit`` and the write fitted); then with room, act again: done."""
    prefs, store, scene = browser_store(path.setup)

    async def test(ui: FletHarness) -> None:
        await path.before(ui, scene)
        stored = fill_up(prefs)
        screen = shown(ui)
        await path.act(ui, scene)
        if not may_fit or any(FULL in text for text in messages(ui)):
            says_full(ui)
            assert prefs.values == stored, "something was written"
            assert shown(ui) == screen, "the screen changed"
            assert not path.done(ui)
            make_room(prefs)
            await path.act(ui, scene)
        assert not any(FULL in text for text in messages(ui)), messages(ui)
        assert path.done(ui), (messages(ui), ui.texts())
        assert ours(prefs.values) != ours(stored)

    run(test, scene.route, store=store, services=scene.services, scan_timing=clock and clock.timing)


# -- what takes room back ----------------------------------------------------------------------------


async def refused_code(store: Store) -> Scene:
    organizer, scene = await an_event(store, 8, drawn=True, page="results")
    with pytest.raises(FarkleError):
        await organizer.import_code("FR1-NOT A CODE")
    return scene


TAKING_BACK: dict[str, WritePath] = {
    "undo": WritePath(game(roll("1 1 1 5 2 3")), nothing, tap("undo"),
                      lambda ui: ui.text_of("undone") == "Undone: Ann's throw 1 1 1 2 3 5"),
    "undo of a win": WritePath(lambda store: a_game(store, lambda g: play_game(g, random.Random(3))), tap("undo"),
                               tap("confirm-undo"), lambda ui: ui.exists("undone")),
    "organizer's undo": WritePath(event(2, "players"), nothing, tap("organizer-undo"),
                                  notice_starts("Undone: ")),
    "clear the refused codes": WritePath(refused_code, nothing, tap("clear-refused"),
                                         notice_starts("The list of refused codes was cleared.")),
}


@pytest.mark.parametrize("name", TAKING_BACK)
def test_undo_and_clearing_on_a_full_storage_are_kept_when_they_shrink_what_is_stored_else_refused_whole(
        name: str) -> None:
    """A shorter log usually packs shorter, and a full browser takes a write that does not
    grow; when the packed form happens not to shrink, it is refused like any other write."""
    full_then_room(TAKING_BACK[name], may_fit=True)


def test_deleting_finished_games_on_a_full_storage_makes_the_room_a_new_game_needs() -> None:
    prefs, store, _ = browser_store(finished_game)

    async def test(ui: FletHarness) -> None:
        stored = fill_up(prefs)
        await ui.click("new-game")
        await ui.type_text("player-name-1", "Ann")
        await ui.type_text("player-name-2", "Bob")
        await ui.click("start-game")
        assert says_full(ui).startswith("The game was not started: the storage is full")
        assert prefs.values == stored
        await ui.click("home")
        assert "None: start a new game." in ui.texts()  # the game refused is not listed as kept
        await ui.click("delete-finished")
        await ui.click("confirm-delete-finished")
        assert ui.text_of("home-message") == "Deleted 1 finished game; unfinished games are kept."
        await ui.click("new-game")
        await ui.type_text("player-name-1", "Ann")
        await ui.type_text("player-name-2", "Bob")
        await ui.click("start-game")
        assert on_route("/game/")(ui), messages(ui)
        assert prefs.values[FILLER] == stored[FILLER]

    run(test, store=store)


# -- what the organizer's device writes without a tap -----------------------------------------------


def test_a_result_link_opened_on_a_full_storage_says_so_and_counts_when_opened_again_with_room() -> None:
    prefs, store, scene = browser_store(with_result_codes)
    route = "/import/" + safe_form(scene.values["code"])
    stored = fill_up(prefs)

    async def refused(ui: FletHarness) -> None:
        assert says_full(ui).startswith("Not saved, so nothing changed: the storage is full")
        assert ui.text_of("missing-tables") == "Missing: tables 1, 2"

    run(refused, route, store=store)
    assert prefs.values == stored
    make_room(prefs)

    async def counted(ui: FletHarness) -> None:
        assert notice_starts("Round 1, table 1: result counted")(ui), messages(ui)
        assert "Imported from a link." in ui.text_of("organizer-notice")
        assert ui.text_of("missing-tables") == "Missing: table 2"

    run(counted, route, store=store)


def test_a_code_refused_on_a_full_storage_is_refused_with_its_reason_and_nothing_is_written() -> None:
    prefs, store, scene = browser_store(with_result_codes)

    async def test(ui: FletHarness) -> None:
        stored = fill_up(prefs)
        await ui.type_text("result-code", "FR1-NOT A CODE")
        await ui.click("import-result")
        assert ui.text_of("organizer-notice") == "The last characters 'DE' cannot end a code: check them."
        assert prefs.values == stored

    run(test, scene.route, store=store)


# -- the browser store itself -----------------------------------------------------------------------


def test_a_write_the_full_browser_storage_refused_is_not_read_back_afterwards() -> None:
    """Flutter's plugin keeps a refused value in its cache: the store puts back what is stored."""

    async def test() -> None:
        prefs = MemoryPrefs()
        store = await PrefsStore.open(prefs)
        revision = await store.save("games", "g1", {"n": 1}, expect_revision=0)
        stored = fill_up(prefs)
        with pytest.raises(StorageFullError):
            await store.save("games", "g2", {"n": 2}, expect_revision=0)
        with pytest.raises(StorageFullError):
            await store.save("games", "g1", {"n": 1, "more": "x" * 100}, expect_revision=revision)
        assert prefs.values == stored and prefs.refused == {}
        assert await store.list_ids("games") == ["g1"]
        assert await store.load("games", "g1") == {"n": 1, "revision": revision}
        assert await PrefsStore(prefs).load("games", "g2") is None  # another screen of this tab
        make_room(prefs)
        assert await store.save("games", "g1", {"n": 3}, expect_revision=revision) == revision + 1

    asyncio.run(test())
