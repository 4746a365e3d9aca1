"""One document session (app/storage/session.py) under both services: a document is read
once, acted on as an engine value, and saved once over its revision; a refused action or
write keeps the value held before (no replay).  On every backend, with what each step
serialises and parses counted (tests/support/serialise_counts.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.documents.events import KeptEvent, event_document
from app.event.organizer import Organizer
from app.table.scorekeeper import Scorekeeper
from app.storage import ChangedElsewhere, DocumentKind, DocumentSession, FileStore, MemoryStore, Store, StoreWriteError
from engine import FarkleError, Game, Rules, Tournament, safe_form
from engine.events import Event as GameEvent, Rolled
from tests.bench.bench_tournament import event_waiting_for_one_result
from tests.support.app_driver import run as run_screen
from tests.support.flet_harness import FletHarness
from tests.support.serialise_counts import counting

T = TypeVar("T")
OpenStore = Callable[[], Store]


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


async def a_game_under_way(store: Store, throws: int = 20) -> Scorekeeper:
    keeper = Scorekeeper(store)
    await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
    for _ in range(throws):
        await keeper.act(lambda game: game.roll("2 2 3 3 4 6"))
    return keeper


# --- the session itself ---------------------------------------------------------------


NUMBERS = DocumentKind("settings", lambda document: int(document["n"]), lambda _, n: {"n": n},
                       lambda: "The number was changed on another screen.")


def numbers(store: Store) -> DocumentSession[int]:
    return DocumentSession(store, NUMBERS)


def to(number: int) -> Callable[[int], tuple[int, None]]:
    return lambda _: (number, None)


def test_a_session_saves_each_value_over_the_revision_it_read(open_store: OpenStore) -> None:
    session = numbers(open_store())
    run(session.create("app", 1))
    run(session.act(to(2)))
    again = numbers(open_store())
    assert run(again.open("app")) == 2 and again.revision == session.revision == 2


def test_a_save_over_another_screens_holds_theirs_and_says_so_in_the_kinds_words(open_store: OpenStore) -> None:
    mine, theirs = numbers(open_store()), numbers(open_store())
    run(mine.create("app", 1))
    run(theirs.open("app"))
    run(theirs.act(to(5)))
    with pytest.raises(ChangedElsewhere, match="The number was changed on another screen."):
        run(mine.act(to(2)))
    assert (mine.value, mine.revision) == (5, 2)
    assert run(numbers(open_store()).open("app")) == 5


def test_a_refusal_judged_on_a_value_another_screen_moved_on_from_holds_theirs(open_store: OpenStore) -> None:
    mine, theirs = numbers(open_store()), numbers(open_store())
    run(mine.create("app", 1))
    run(theirs.open("app"))
    run(theirs.act(to(5)))

    def refuse(number: int) -> tuple[int, None]:
        raise ValueError(f"{number} is too small")

    with pytest.raises(ChangedElsewhere) as changed:
        run(mine.act(refuse))
    assert isinstance(changed.value.__cause__, ValueError) and mine.value == 5
    with pytest.raises(ValueError, match="5 is too small"):  # judged again on theirs: the refusal itself
        run(mine.act(refuse))


def test_a_value_deleted_on_another_screen_meanwhile_is_stored_again(open_store: OpenStore) -> None:
    store = open_store()
    mine, theirs = numbers(store), numbers(store)
    run(mine.create("app", 1))
    run(theirs.delete("app"))
    run(mine.act(to(2)))
    assert run(numbers(store).open("app")) == 2


def test_a_failed_write_keeps_the_value_held_before(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()
    session = numbers(store)
    run(session.create("app", 1))

    async def refuse(*_: Any) -> None:
        raise StoreWriteError("The disk is full")

    monkeypatch.setattr(store, "_write", refuse)
    with pytest.raises(StoreWriteError):
        run(session.act(to(2)))
    assert (session.value, session.revision) == (1, 1)


def test_opening_the_revision_held_again_keeps_the_value_without_reading_it_again() -> None:
    store = MemoryStore()
    reads: list[str] = []
    counted = DocumentKind("settings", lambda document: reads.append("read") or int(document["n"]),
                           lambda _, n: {"n": n}, NUMBERS.changed_elsewhere)
    session = DocumentSession(store, counted)
    run(session.create("app", 1))
    assert run(session.open("app")) == 1 and reads == []


# --- a throw, Undo and Redo at the table ------------------------------------------------


def test_a_throw_serialises_the_log_once_and_parses_no_stored_document(open_store: OpenStore) -> None:
    keeper = run(a_game_under_way(open_store()))
    with counting() as counts:
        run(keeper.act(lambda game: game.roll("1 5 2 3 4 6")))
    assert (counts["log to dicts"], counts["json.dumps"], counts["json.loads"], counts["replay"]) == (1, 1, 0, 0)


def test_a_refused_action_keeps_the_game_held_before_without_a_replay(open_store: OpenStore) -> None:
    keeper = run(a_game_under_way(open_store()))
    before = keeper.game

    def keep_then_bank_too_little(game: Game) -> None:
        game.roll("1 2 2 3 4 6")
        game.keep("1")
        game.bank()  # 100 is not on the board

    with counting() as counts, pytest.raises(FarkleError):
        run(keeper.act(keep_then_bank_too_little))
    assert keeper.game is before and before is not None and before.phase == "throw"
    assert (counts["log to dicts"], counts["json.dumps"], counts["json.loads"], counts["replay"]) == (0, 0, 0, 0)


def test_undo_and_redo_keep_the_event_as_it_is_and_read_nothing_back(open_store: OpenStore) -> None:
    keeper = run(a_game_under_way(open_store()))
    taken: list[GameEvent] = []

    def take_back(game: Game) -> None:
        taken.append(game.peek())
        game.undo()

    with counting() as undo_counts:
        run(keeper.act(take_back))
    with counting() as redo_counts:
        run(keeper.act(lambda game: game.redo(taken[0])))
    assert taken == [Rolled((2, 2, 3, 3, 4, 6))]
    assert undo_counts["log to dicts"] == 1 and undo_counts["event read"] == 0  # the save's own
    assert redo_counts["log to dicts"] == 1 and redo_counts["event read"] == 0 and redo_counts["replay"] == 0


def test_opening_a_saved_game_reads_it_once_and_replays_it_once(open_store: OpenStore) -> None:
    keeper = run(a_game_under_way(open_store()))
    assert keeper.game_id is not None
    elsewhere = Scorekeeper(open_store())  # a restart, another tab
    with counting() as counts:
        game = run(elsewhere.open_game(keeper.game_id))
    assert game == keeper.game
    assert (counts["json.loads"], counts["replay"]) == (1, 1)
    assert counts["json.dumps"] == 1  # the digest's check


def test_a_game_changed_elsewhere_is_adopted_from_what_the_refused_save_read(open_store: OpenStore) -> None:
    mine = run(a_game_under_way(open_store(), throws=2))
    assert mine.game_id is not None
    theirs = Scorekeeper(open_store())
    run(theirs.open_game(mine.game_id))
    run(theirs.act(lambda game: game.roll("2 2 3 3 4 6")))
    with pytest.raises(ChangedElsewhere):
        run(mine.act(lambda game: game.roll("2 2 3 3 4 6")))
    assert mine.game == theirs.game and mine.revision == theirs.revision


# --- an imported result -----------------------------------------------------------------


def an_event_waiting_for_one_result(store: Store) -> tuple[Organizer, str]:
    """An organizer holding a 12-player event with every result in but one, and that one's code."""
    events, code = event_waiting_for_one_result(12, None)
    document = event_document("event", KeptEvent(Tournament.from_events(events)))  # as the organizer saves it
    run(store.save("tournaments", "event", document, expect_revision=0))
    organizer = Organizer(store)
    assert run(organizer.open("event")) is not None
    return organizer, code


def test_an_import_serialises_the_event_log_once_and_parses_no_stored_document(open_store: OpenStore) -> None:
    organizer, code = an_event_waiting_for_one_result(open_store())
    with counting() as counts:
        report = run(organizer.import_code(code))
    assert report.status == "accepted"
    assert (counts["log to dicts"], counts["json.dumps"], counts["json.loads"], counts["replay"]) == (1, 1, 0, 0)


def test_an_import_reads_and_opens_its_code_once(open_store: OpenStore) -> None:
    organizer, code = an_event_waiting_for_one_result(open_store())
    with counting() as counts:
        run(organizer.import_code(code))
    assert (counts["code read"], counts["code opened"]) == (1, 1)


def test_a_result_link_is_read_once_and_its_event_replayed_once_to_find_it_and_import_it(open_store: OpenStore) -> None:
    store = open_store()
    _, code = an_event_waiting_for_one_result(store)

    async def test(ui: FletHarness) -> None:
        assert "result counted" in ui.text_of("organizer-notice")

    route = "/import/" + safe_form(code)
    with counting() as counts:
        run_screen(test, route=route, store=store)
    assert (counts["code read"], counts["code opened"], counts["replay"]) == (1, 1, 1)


def test_a_refused_import_opens_its_code_once_and_keeps_the_refusal_beside_the_event_log(
        open_store: OpenStore) -> None:
    organizer, code = an_event_waiting_for_one_result(open_store())
    altered = code[:-6] + ("A" if code[-6] != "A" else "B") + code[-5:]
    revision = organizer.revision
    with counting() as counts, pytest.raises(FarkleError):
        run(organizer.import_code(altered))
    assert len(organizer.refusals) == 1 and organizer.revision == revision
    assert (counts["code opened"], counts["log to dicts"], counts["replay"]) == (1, 0, 0)


def test_a_result_link_finds_its_event_among_many_from_the_index_and_replays_that_one_alone(
        open_store: OpenStore) -> None:
    store = open_store()
    _, code = an_event_waiting_for_one_result(store)
    for number in range(1, 6):
        other = Tournament(f"Cup {number}", event_id=f"CUP-{number}")
        run(store.save("tournaments", f"cup-{number}", {"id": f"cup-{number}", "events": other.events},
                       expect_revision=0))
    run(Organizer(store).summaries())  # the events listed once, as the organizer's screen does
    organizer = Organizer(store)
    with counting() as counts:
        assert run(organizer.open_event_of(code)) == "event"
    assert (counts["code opened"], counts["replay"]) == (1, 1)


def test_a_settings_save_hands_the_settings_table_the_document_not_a_decoded_copy_of_its_text(
        tmp_path: Path) -> None:
    store = FileStore(tmp_path / "data")
    revision = run(store.save("settings", "app", {"theme": "dark"}, expect_revision=0))
    with counting() as counts:
        run(store.save("settings", "app", {"theme": "light"}, expect_revision=revision))
    assert counts["json.loads"] == 3  # TinyDB reading its file: the revision check, then contains and update
    assert counts["json.dumps"] == 2  # the sealed text (its size and digest), and TinyDB writing its file
    store.close()
