"""Storage benchmarks: is a save still cheap late in a long game, how many finished
games fit in the browser's ~5 MB, and how long Home takes with 2,000 games?

Runs with the other tests (``python_files`` includes ``bench_*.py``); for the
figures alone: ``.venv/bin/python -m pytest tests/bench/bench_storage.py -s``; Home against
the commit before its index: ``.venv/bin/python -m tests.bench.bench_storage --compare``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from app.storage import PREFS_QUOTA_ESTIMATE_BYTES, FileStore, MemoryPrefs, PrefsStore
from tests.support.game_play import saved_game_documents, write_saved_games
from tests.app.test_storage import synthetic_events, synthetic_game


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    event_loop = asyncio.new_event_loop()
    yield event_loop
    event_loop.close()


@pytest.mark.parametrize("action_number", [1, 2000])
def test_bench_file_store_write_at_action(
    benchmark: BenchmarkFixture, loop: asyncio.AbstractEventLoop, tmp_path: Path, action_number: int
) -> None:
    """One save = what the app does after every accepted action: checked against the
    revision it read (a read of the stored file, then the atomic write)."""
    store = FileStore(tmp_path)
    game = synthetic_game(action_number)
    benchmark.extra_info["file_bytes"] = len(json.dumps(game, separators=(",", ":")))
    revision = [loop.run_until_complete(store.save("games", "g1", game, expect_revision=0))]

    def save() -> None:
        revision[0] = loop.run_until_complete(store.save("games", "g1", game, expect_revision=revision[0]))

    benchmark(save)
    assert loop.run_until_complete(store.load("games", "g1")) == {**game, "revision": revision[0]}


@pytest.mark.parametrize("collection", ["tournaments", "settings"])
def test_bench_file_store_checked_save_of_a_small_document(
    benchmark: BenchmarkFixture, loop: asyncio.AbstractEventLoop, tmp_path: Path, collection: str
) -> None:
    """A tournament (own file) or the settings (TinyDB database) after a change."""
    store = FileStore(tmp_path)
    document = {"name": "Friday", "events": synthetic_events(200)}
    revision = [loop.run_until_complete(store.save(collection, "doc", document, expect_revision=0))]

    def save() -> None:
        revision[0] = loop.run_until_complete(store.save(collection, "doc", document, expect_revision=revision[0]))

    benchmark(save)


def test_bench_file_store_open_with_200_finished_games(
    benchmark: BenchmarkFixture, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    """Opening checks every file (to report damaged ones): the start-up cost."""
    store = FileStore(tmp_path)
    for number in range(200):
        loop.run_until_complete(store.save("games", f"g{number:03d}", synthetic_game(600, seed=number)))
    reopened = benchmark(FileStore, tmp_path)
    assert reopened.problems == ()


@pytest.mark.parametrize("event_count", [400, 600, 800])
def test_bench_prefs_store_bytes_per_finished_four_player_game(
    benchmark: BenchmarkFixture, loop: asyncio.AbstractEventLoop, event_count: int
) -> None:
    """Bytes ``localStorage`` holds per finished game, and games per 5 MB."""
    prefs = MemoryPrefs()
    store = loop.run_until_complete(PrefsStore.open(prefs))
    game = synthetic_game(event_count, players=4)
    benchmark(lambda: loop.run_until_complete(store.save("games", "g1", game)))
    stored = loop.run_until_complete(store.usage()).bytes_used
    plain_json = len(json.dumps(json.dumps(game, separators=(",", ":"))))
    info: dict[str, Any] = {
        "events": event_count,
        "stored_bytes": stored,
        "plain_json_bytes": plain_json,
        "games_per_quota": PREFS_QUOTA_ESTIMATE_BYTES // stored,
    }
    benchmark.extra_info.update(info)
    print(f"\nprefs bytes per 4-player game: {info}")
    # 200 finished games must fit in well under the warning threshold.
    assert stored * 200 < PREFS_QUOTA_ESTIMATE_BYTES * 0.5


def test_bench_prefs_store_bytes_per_engine_played_game(
    benchmark: BenchmarkFixture, loop: asyncio.AbstractEventLoop
) -> None:
    """The same, for 20 four-player games to 10,000 played through the real
    engine (random but legal play), saved as the app saves them."""
    import random

    from engine import Game, Rules
    from tests.support.game_play import play_game

    sizes: list[tuple[int, int]] = []
    documents = []
    for seed in range(20):
        game = play_game(Game(["Ann", "Bob", "Cy", "Di"], Rules.preset("house")), random.Random(seed))
        document = {
            "id": f"20261129-1607{seed:02d}-a1b2c3", "players": list(game.players), "rules": game.rules.to_dict(),
            "events": game.events, "created": "2026-11-29T16:07:00+00:00",
            "updated": "2026-11-29T18:07:00+00:00", "finished": True,
        }
        store = loop.run_until_complete(PrefsStore.open(MemoryPrefs()))
        loop.run_until_complete(store.save("games", "g1", document))
        sizes.append((len(game.events), loop.run_until_complete(store.usage()).bytes_used))
        documents.append(document)
    largest = max(range(len(sizes)), key=lambda i: sizes[i][1])
    store = loop.run_until_complete(PrefsStore.open(MemoryPrefs()))
    benchmark(lambda: loop.run_until_complete(store.save("games", "g1", documents[largest])))
    mean_bytes = sum(size for _, size in sizes) // len(sizes)
    info = {
        "games": len(sizes),
        "events_min_max": (min(e for e, _ in sizes), max(e for e, _ in sizes)),
        "bytes_mean": mean_bytes,
        "bytes_max": max(size for _, size in sizes),
        "games_per_quota_at_mean": PREFS_QUOTA_ESTIMATE_BYTES // mean_bytes,
    }
    benchmark.extra_info.update(info)
    print(f"\nprefs bytes per engine-played 4-player game: {info}")
    assert info["bytes_max"] * 200 < PREFS_QUOTA_ESTIMATE_BYTES * 0.5


# -- Home with 2,000 games -----------------------------------------------------------------------
#
# ``python -m tests.bench.bench_storage --compare`` visits Home over the same 2,000 games with this
# tree's app and with the app of the commit before Home had an index (each in its own process,
# the app and engine of that commit exported by tests/support/baseline_app.py), and prints the medians
# and the load average.  Each visit also measures the longest the event loop was held (what every
# other session on the server waits): a ticker task notes the largest gap between its turns.

HOME_GAMES = 2000
BEFORE_THE_INDEX = "1fdd483"
"""The last commit whose Home read and checked every game on each visit."""


async def visit_home(ui: Any) -> tuple[float, float]:
    """Open Home from another screen and wait for its list: (seconds, longest loop stall in seconds)."""
    import time

    stalls = [0.0]
    loaded = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not loaded.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            stalls[0] = max(stalls[0], now - last)
            last = now

    ticking = asyncio.ensure_future(ticker())
    start = time.perf_counter()
    await ui.navigate("/")
    while not ui.exists("storage-usage"):  # shown with the list, once it is read
        await asyncio.sleep(0.02)
    elapsed = time.perf_counter() - start
    loaded.set()
    await ticking
    await ui.navigate("/lookup")
    return elapsed, stalls[0]


async def read_home_list(store: Any) -> float:
    """What Home reads on each visit (its games' summaries and the storage figures), in seconds."""
    import time

    from app.table.scorekeeper import Scorekeeper

    start = time.perf_counter()
    await Scorekeeper(store).summaries()
    await store.usage()
    return time.perf_counter() - start


def measure_home_visits(data_dir: Path, rounds: int) -> dict[str, Any]:
    """Visits to Home in one process: the first after start, ``rounds`` more, and the first
    after the store is opened again (a restart), each with its longest loop stall; then
    what Home reads, alone, ``rounds`` times."""
    from app.main import app_on
    from app.storage import FileStore
    from tests.support.flet_harness import FletHarness

    async def session(store: FileStore, count: int) -> list[tuple[float, float]]:
        async with FletHarness(app_on(store), route="/lookup") as ui:
            return [await visit_home(ui) for _ in range(count)]

    async def reads(store: FileStore) -> list[float]:
        return [await read_home_list(store) for _ in range(rounds)]

    store = FileStore(data_dir)
    visits = asyncio.run(session(store, rounds + 1))
    store.close()
    restarted = FileStore(data_dir)
    visits += asyncio.run(session(restarted, 1))
    listing = asyncio.run(reads(restarted))
    restarted.close()
    return {"first": visits[0], "again": visits[1:-1], "after_restart": visits[-1], "list_alone": listing}


def compare_home_visits(against: str, rounds: int) -> None:
    """Both apps over copies of one data folder, one process each; figures on stdout."""
    import os
    import shutil
    import statistics
    import subprocess
    import sys
    import tempfile

    from tests.support.baseline_app import WORKING_TREE, export_commit

    sources = [WORKING_TREE, export_commit(against)]
    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "games"
        write_saved_games(prepared, saved_game_documents(HOME_GAMES, distinct=20))
        results: dict[str, dict[str, Any]] = {}
        for source in sources:
            data_dir = Path(scratch) / f"data-{len(results)}"
            shutil.copytree(prepared, data_dir)
            env = {**os.environ, **source.env}
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(WORKING_TREE.root)]))
            out = subprocess.run([sys.executable, "-m", "tests.bench.bench_storage", "--visit", str(data_dir),
                                  "--rounds", str(rounds)], cwd=source.root, env=env, check=True,
                                 capture_output=True, text=True).stdout
            results[source.label] = json.loads(out.strip().splitlines()[-1])
            results[source.label]["load"] = os.getloadavg()
    print(f"Home with {HOME_GAMES:,} finished four-player games (FileStore, client-less Flet session); "
          f"seconds to the list shown / longest event-loop stall meanwhile")
    for label, figures in results.items():
        again = figures["again"]
        one, five, fifteen = figures["load"]
        print(f"  {label:>28}: first visit {figures['first'][0]:7.3f} / {figures['first'][1]:7.3f}"
              f" · again (median of {len(again)}) {statistics.median(v[0] for v in again):7.3f}"
              f" / {statistics.median(v[1] for v in again):7.3f}"
              f" · after a restart {figures['after_restart'][0]:7.3f} / {figures['after_restart'][1]:7.3f}"
              f" · the list alone (median) {statistics.median(figures['list_alone']):7.3f}"
              f" · load {one:.2f} {five:.2f} {fifteen:.2f}")


def test_bench_home_lists_2000_games_again(benchmark: BenchmarkFixture, tmp_path: Path) -> None:
    """A visit to Home over 2,000 games once their index is made (this tree's app)."""
    import os

    from app.main import app_on
    from app.storage import FileStore
    from tests.support.flet_harness import FletHarness

    write_saved_games(tmp_path, saved_game_documents(HOME_GAMES, distinct=20))
    store = FileStore(tmp_path)

    async def visits() -> list[tuple[float, float]]:
        async with FletHarness(app_on(store), route="/lookup") as ui:
            await visit_home(ui)  # makes the index
            return [await visit_home(ui) for _ in range(5)]

    times = asyncio.run(visits())
    listing = benchmark(lambda: asyncio.run(read_home_list(store)))
    store.close()
    benchmark.extra_info.update(visits_seconds_and_stalls=times, list_seconds=listing, load_avg=os.getloadavg())
    print(f"\nHome with {HOME_GAMES:,} games once indexed: visits (s, longest loop stall) {times}; "
          f"the list alone {listing:.4f} s; load {os.getloadavg()}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Home with 2,000 games: this tree against an earlier commit.")
    parser.add_argument("--compare", action="store_true", help="run both apps and print the figures")
    parser.add_argument("--against", default=BEFORE_THE_INDEX, help="the earlier commit (default: before the index)")
    parser.add_argument("--rounds", type=int, default=5, help="visits after the first")
    parser.add_argument("--visit", type=Path, help=argparse.SUPPRESS)  # one app's run, in its own process
    arguments = parser.parse_args()
    if arguments.visit is not None:
        print(json.dumps(measure_home_visits(arguments.visit, arguments.rounds)))
    else:
        compare_home_visits(arguments.against, arguments.rounds)
