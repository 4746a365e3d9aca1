"""Storage benchmarks: is a save still cheap late in a long game, and how many
finished games fit in the browser's ~5 MB?

Runs with the other tests (``python_files`` includes ``bench_*.py``); for the
figures alone: ``.venv/bin/python -m pytest tests/bench_storage.py -s``.
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
from tests.test_storage import synthetic_events, synthetic_game


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
    stored = loop.run_until_complete(store.bytes_used())
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
    from tests.game_play import play_game

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
        sizes.append((len(game.events), loop.run_until_complete(store.bytes_used())))
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
