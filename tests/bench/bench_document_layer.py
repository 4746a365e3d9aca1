"""One document layer (issue 27), this tree against the commit before it, in one run.

Each figure is the median of several rounds on a FileStore in a temporary folder (real
atomic writes, fsync included), each tree in a process of its own over the same events as
that tree's app saved them:

- importing one table's result code into a 2,000-player event, and the same code altered
  (refused, and kept in the refused list);
- a result link (``/import/<code>``) finding and opening its event among 200 stored events,
  on a store just opened (as after a restart, the list of events shown once before there).

Beside the times, what one round serialises and parses (tests/support/serialise_counts.py): the
refused import writes no event log once the refused list is kept beside the event, and the
link replays one event instead of all 200. The earlier tree is ``git archive``'d at run
time into build/cache/ (ignored by git); no time is asserted on::

    .venv/bin/python -m tests.bench.bench_document_layer            # or: make bench
    .venv/bin/python -m tests.bench.bench_document_layer --against 990d381^ --rounds 9
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.bench_documents import PLAYERS, command_line, compare as compare_trees, timed

BEFORE_THE_LAYER = "990d381^"
"""The last commit before :mod:`app.documents` and what a device keeps beside a document."""
MODULE, TITLE = "tests.bench.bench_document_layer", "One document layer"
EVENTS = 200
EVENT_PLAYERS = 40


def _others() -> list[tuple[str, list[dict[str, Any]]]]:
    """199 events of 40 players each, checked in and seated for round 1."""
    from engine import Tournament

    events = []
    for index in range(1, EVENTS):
        t = Tournament(f"Cup {index}", event_id=f"CUP-{index}", secret=bytes(16))
        for number in range(EVENT_PLAYERS):
            t.check_in(t.sign_up(f"Player {number + 1}"))
        t.draw_seats(seed=index)
        events.append((f"event-{index:03d}", t.events))
    return events


def measure(rounds: int) -> dict[str, Any]:
    """Every figure for the tree this process imports ``app`` and ``engine`` from."""
    from app.event.organizer import Organizer
    from app.storage import FileStore
    from engine import FarkleError
    from tests.bench.bench_tournament import BIG, event_waiting_for_one_result

    scratch = Path(tempfile.mkdtemp(prefix="bench-document-layer-"))
    try:
        templates = scratch / "templates"
        big_events, big_code = event_waiting_for_one_result(PLAYERS, BIG)
        linked_events, linked_code = event_waiting_for_one_result(EVENT_PLAYERS, None)

        async def saved_by_this_app(folder: Path, logs: list[tuple[str, list[dict[str, Any]]]]) -> None:
            """The events as this tree's app saves them, and listed once (as the organizer's screen does)."""
            (folder / "tournaments").mkdir(parents=True)
            for doc_id, log in logs:
                (folder / "tournaments" / f"{doc_id}.json").write_text(json.dumps({"id": doc_id, "events": log}))
            store = FileStore(folder)
            organizer = Organizer(store)
            for doc_id, _ in logs:
                assert await organizer.open(doc_id) is not None
                await organizer.set_link_base("http://192.168.1.20:8550")
            await organizer.summaries()
            store.close()

        asyncio.run(saved_by_this_app(templates / "big", [("event", big_events)]))
        asyncio.run(saved_by_this_app(templates / "many", [("event-000", linked_events), *_others()]))

        def opened(template: str) -> Callable[[Path], tuple[Organizer, FileStore]]:
            def prepare(folder: Path) -> tuple[Organizer, FileStore]:
                shutil.copytree(templates / template, folder)
                store = FileStore(folder)
                organizer = Organizer(store)
                assert asyncio.run(organizer.open("event")) is not None
                return organizer, store
            return prepare

        def fresh_store(folder: Path) -> FileStore:
            """The 200 events listed once where they now lie (a copy's files are new files, which an
            index of their stamps does not know), then the store opened again, as after a restart."""
            shutil.copytree(templates / "many", folder)
            listed = FileStore(folder)
            asyncio.run(Organizer(listed).summaries())
            listed.close()
            return FileStore(folder)

        async def import_result(prepared: tuple[Organizer, FileStore]) -> None:
            report = await prepared[0].import_code(big_code)
            assert report.status == "accepted", report

        altered = big_code[:-6] + ("A" if big_code[-6] != "A" else "B") + big_code[-5:]

        async def import_refused(prepared: tuple[Organizer, FileStore]) -> None:
            try:
                await prepared[0].import_code(altered)
            except FarkleError:
                assert len(prepared[0].refusals) == 1
            else:
                raise AssertionError("an altered code was imported")

        async def open_the_link(store: FileStore) -> None:
            assert await Organizer(store).open_event_of(linked_code) == "event-000"

        return {
            f"import one result into a {PLAYERS:,}-player event": timed(rounds, opened("big"), import_result, scratch),
            f"a refused import into a {PLAYERS:,}-player event": timed(rounds, opened("big"), import_refused, scratch),
            f"/import/<code> among {EVENTS} stored events": timed(rounds, fresh_store, open_the_link, scratch),
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def compare(against: str, rounds: int) -> dict[str, dict[str, Any]]:
    """Both trees, one process each; the figures printed, and returned by tree."""
    return compare_trees(against, rounds, module=MODULE, title=TITLE)


def test_bench_one_document_layer_against_the_commit_before() -> None:
    """The figures of the module docstring, printed (``make bench`` shows them); none asserted."""
    results = compare(BEFORE_THE_LAYER, rounds=7)
    assert len(results) == 2


if __name__ == "__main__":
    command_line(MODULE, TITLE, BEFORE_THE_LAYER, 9, measure)
