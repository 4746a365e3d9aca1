"""One document session (issue 19), this tree against the commit before it, in one run.

Four figures, each the median of several rounds on a FileStore in a temporary folder (real
atomic writes, fsync included), each tree in a process of its own over the same documents
as that tree's app saved them:

- a save after the 1st action of a new game, and after the 2,000th of a long one (the
  throw entered, stored, and shown);
- opening a game of 2,000 events (a fresh store, as after a restart);
- importing one table's result code into a 2,000-player event.

Beside the times, what one throw, one open and one import serialise and parse: calls of
``json.dumps`` and ``json.loads``, of a log turned into dicts (``Game.events``,
``Tournament.events``) and of a log replayed (``from_events``), counted in one more round.

The earlier tree is ``git archive``'d at run time into build/cache/ (ignored by git); no
time is asserted on::

    .venv/bin/python -m tests.bench.bench_documents            # or: make bench
    .venv/bin/python -m tests.bench.bench_documents --against bcd0661 --rounds 15
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.serialise_counts import counting

BEFORE_THE_SESSION = "bcd0661"
"""The last commit before :class:`app.storage.DocumentSession`."""
LONG = 2000
PLAYERS = 2000
FARKLE = "2 2 3 3 4 6"
GAME_ID = "20261202-010000-abcdef"


def long_game(events: int, seed: int = 1) -> Any:
    """A legal four-player game of ``events`` events, left with the next player to throw six
    fresh dice (so a farkle throw is always a legal next action)."""
    from engine import Game, Rules
    from tests.support.game_play import play_turn

    rng = random.Random(seed)
    game = Game(["Ann", "Bob", "Cy", "Di"], Rules.preset("house"))
    while len(game.events) < events:
        fresh = game.state.dice_to_throw == 6 and not game.offer
        if fresh and (max(game.scores) > 6000 or rng.random() < 0.5):
            game.roll(FARKLE)
        else:
            play_turn(game, rng, greed=0.2)
    while len(game.events) > 1 and not (game.state.dice_to_throw == 6 and not game.offer
                                        and len(game.events) <= events - 1):
        game.undo()
    while len(game.events) < events:
        game.roll(FARKLE)
    assert not game.is_over and len(game.events) == events
    return game


def game_document(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": GAME_ID, "players": ["Ann", "Bob", "Cy", "Di"], "created": "2026-12-02T01:00:00+00:00",
            "events": events}


def timed(rounds: int, prepare: Callable[[Path], Any], measured: Callable[[Any], Any], scratch: Path) -> dict[str, Any]:
    """``measured(prepare(folder))`` in a fresh folder each round: seconds each, and the
    counts of one more round."""
    from app.storage import FileStore

    seconds: list[float] = []
    counts: Counter[str] = Counter()
    for index in range(rounds + 1):
        folder = scratch / f"round-{index}"
        prepared = prepare(folder)
        try:
            if index == rounds:
                with counting() as counts:
                    asyncio.run(measured(prepared))
            else:
                start = time.perf_counter()
                asyncio.run(measured(prepared))
                seconds.append(time.perf_counter() - start)
        finally:
            for value in (prepared if isinstance(prepared, tuple) else (prepared,)):
                if isinstance(value, FileStore):
                    value.close()
            shutil.rmtree(folder, ignore_errors=True)
    return {"seconds": seconds, "counts": dict(counts)}


def measure(rounds: int) -> dict[str, Any]:
    """Every figure for the tree this process imports ``app`` and ``engine`` from."""
    from app.event.organizer import Organizer
    from app.table.scorekeeper import Scorekeeper
    from app.storage import FileStore
    from engine import Rules
    from tests.bench.bench_tournament import BIG, event_waiting_for_one_result

    scratch = Path(tempfile.mkdtemp(prefix="bench-documents-"))
    try:
        game = long_game(LONG)
        events = game.events
        templates = scratch / "templates"

        async def saved_by_this_app(folder: Path) -> None:
            """The long game as this tree's app saves it (its 2,000th event played here)."""
            (folder / "games").mkdir(parents=True)
            (folder / "games" / f"{GAME_ID}.json").write_text(json.dumps(game_document(events[:LONG - 1])))
            store = FileStore(folder)
            keeper = Scorekeeper(store)
            assert await keeper.open_game(GAME_ID) is not None
            await keeper.act(lambda g: g.redo(events[-1]))
            store.close()

        asyncio.run(saved_by_this_app(templates / "game"))
        tournament_events, code = event_waiting_for_one_result(PLAYERS, BIG)

        async def event_saved_by_this_app(folder: Path) -> str:
            (folder / "tournaments").mkdir(parents=True)
            (folder / "tournaments" / "event.json").write_text(json.dumps({"id": "event", "events": tournament_events}))
            store = FileStore(folder)
            organizer = Organizer(store)
            assert await organizer.open("event") is not None
            await organizer.set_link_base("http://192.168.1.20:8550")
            store.close()
            return "event"

        asyncio.run(event_saved_by_this_app(templates / "event"))

        def copy_of(template: str) -> Callable[[Path], FileStore]:
            def prepare(folder: Path) -> FileStore:
                shutil.copytree(templates / template, folder)
                return FileStore(folder)
            return prepare

        def new_keeper(folder: Path) -> Scorekeeper:
            return Scorekeeper(FileStore(folder))

        async def first_action(keeper: Scorekeeper) -> None:
            await keeper.act(lambda g: g.roll(FARKLE))

        async def start_then_first_action(folder: Path) -> Scorekeeper:
            keeper = new_keeper(folder)
            await keeper.start_game(["Ann", "Bob", "Cy", "Di"], Rules.preset("house"))
            return keeper

        def fresh_game(folder: Path) -> tuple[Scorekeeper, FileStore]:
            keeper = asyncio.run(start_then_first_action(folder))
            return keeper, keeper.store  # type: ignore[return-value]

        def opened_long_game(folder: Path) -> tuple[Scorekeeper, FileStore]:
            store = copy_of("game")(folder)
            keeper = Scorekeeper(store)
            assert asyncio.run(keeper.open_game(GAME_ID)) is not None
            return keeper, store

        async def act_late(prepared: tuple[Scorekeeper, FileStore]) -> None:
            await prepared[0].act(lambda g: g.roll(FARKLE))

        async def act_first(prepared: tuple[Scorekeeper, FileStore]) -> None:
            await first_action(prepared[0])

        async def open_long_game(store: FileStore) -> None:
            assert await Scorekeeper(store).open_game(GAME_ID) is not None

        def opened_event(folder: Path) -> tuple[Organizer, FileStore]:
            store = copy_of("event")(folder)
            organizer = Organizer(store)
            assert asyncio.run(organizer.open("event")) is not None
            return organizer, store

        async def import_result(prepared: tuple[Organizer, FileStore]) -> None:
            report = await prepared[0].import_code(code)
            assert report.status == "accepted", report

        return {
            "save after the 1st action": timed(rounds, fresh_game, act_first, scratch),
            f"save after the {LONG:,}th action": timed(rounds, opened_long_game, act_late, scratch),
            f"open a game of {LONG:,} events": timed(rounds, copy_of("game"), open_long_game, scratch),
            f"import one result into a {PLAYERS:,}-player event": timed(max(3, rounds // 2), opened_event,
                                                                      import_result, scratch),
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def compare(against: str, rounds: int, *, module: str = "tests.bench.bench_documents",
            title: str = "One document session") -> dict[str, dict[str, Any]]:
    """Both trees, one process each (``module``'s ``--measure``); the figures printed under
    ``title``, and returned by tree."""
    from tests.support.baseline_app import WORKING_TREE, export_commit

    results: dict[str, dict[str, Any]] = {}
    for source in (export_commit(against), WORKING_TREE):
        env = {**os.environ, **source.env}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(WORKING_TREE.root)]))
        out = subprocess.run([sys.executable, "-m", module, "--measure", "--rounds", str(rounds)],
                             cwd=source.root, env=env, check=True, capture_output=True, text=True).stdout
        results[source.label] = {**json.loads(out.strip().splitlines()[-1]), "load": os.getloadavg()}
    before, after = results.values()
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"\n{title}: {against} (before) against the working tree (after), FileStore, "
          f"median seconds of the rounds; `uptime`: {uptime}")
    for name in after:
        if name == "load":
            continue
        then, now = statistics.median(before[name]["seconds"]), statistics.median(after[name]["seconds"])
        print(f"  {name:>48}: before {then * 1000:8.2f} ms · after {now * 1000:8.2f} ms · "
              f"{then / now:5.1f}x ({len(after[name]['seconds'])} rounds)")
        print(f"  {'':>48}  before {_counts(before[name]['counts'])}")
        print(f"  {'':>48}  after  {_counts(after[name]['counts'])}")
    for label, figures in results.items():
        print(f"  load during {label}: {' '.join(f'{value:.2f}' for value in figures['load'])}")
    return results


def _counts(counts: dict[str, int]) -> str:
    order = ("log to dicts", "json.dumps", "json.loads", "replay", "code read", "code opened")
    return " · ".join(f"{label} {counts.get(label, 0)}" for label in order)


def test_bench_one_document_session_against_the_commit_before() -> None:
    """The figures of the module docstring, printed (``make bench`` shows them); none asserted."""
    results = compare(BEFORE_THE_SESSION, rounds=9)
    assert len(results) == 2


def command_line(module: str, title: str, before: str, rounds: int, measure: Callable[[int], dict[str, Any]]) -> None:
    """``python -m <module>``: this tree against ``before`` (``--against``), or with ``--measure``
    one tree's figures as JSON (what :func:`compare` runs in each tree's process)."""
    import argparse

    parser = argparse.ArgumentParser(description=f"{title}: this tree against an earlier commit.")
    parser.add_argument("--against", default=before, help=f"the earlier commit (default: {before})")
    parser.add_argument("--rounds", type=int, default=rounds, help="timed rounds of each figure")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # one tree's run, in its own process
    arguments = parser.parse_args()
    if arguments.measure:
        print(json.dumps(measure(arguments.rounds)))
    else:
        compare(arguments.against, arguments.rounds, module=module, title=title)


if __name__ == "__main__":
    command_line("tests.bench.bench_documents", "One document session", BEFORE_THE_SESSION, 15, measure)
