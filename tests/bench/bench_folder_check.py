"""What the data folder's check costs a save: one ``stat`` of the folder before every write
(:meth:`app.storage.FolderClaim.check_in_place`, which keeps a process from writing into a
folder moved or replaced under it), measured against the save it guards, in one run.

A four-player game of 200 events is saved again and again through ``FileStore.save`` (the
revision read, the check, the temp file written and synced, renamed, the folder synced),
and between two saves the check alone is timed (the median of 1,000 in a row).  Both run
interleaved, in a folder on the disk (the system's temp folder) and on tmpfs (``/dev/shm``,
where a sync costs next to nothing, so the check weighs the most).  Medians, their ratio and
the load average are printed; nothing is asserted on time::

    .venv/bin/python -m tests.bench.bench_folder_check            # or: make bench
    .venv/bin/python -m tests.bench.bench_folder_check --rounds 200
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.bench_documents import GAME_ID, game_document, long_game

EVENTS = 200
CHECKS_IN_A_ROW = 1000
TMPFS = Path("/dev/shm")


def measure(parent: Path, rounds: int) -> dict[str, Any]:
    """Median seconds of one check and of one save, in a fresh data folder under ``parent``."""
    from app.storage import FileStore, claim_folder

    folder = Path(tempfile.mkdtemp(prefix="bench-folder-check-", dir=parent))
    store = FileStore(folder)
    claim = claim_folder(folder)  # a second count on the claim the store holds: the same check
    try:
        document = game_document(long_game(EVENTS).events)
        checks: list[float] = []
        saves: list[float] = []

        async def interleaved() -> None:
            revision = await store.save("games", GAME_ID, document, expect_revision=0)
            for _ in range(rounds):
                start = time.perf_counter()
                for _ in range(CHECKS_IN_A_ROW):
                    claim.check_in_place(folder)
                checks.append((time.perf_counter() - start) / CHECKS_IN_A_ROW)
                start = time.perf_counter()
                revision = await store.save("games", GAME_ID, document, expect_revision=revision)
                saves.append(time.perf_counter() - start)

        asyncio.run(interleaved())
        size = (folder / "games" / f"{GAME_ID}.json").stat().st_size
        return {"check": statistics.median(checks), "save": statistics.median(saves), "bytes": size}
    finally:
        claim.release()
        store.close()
        shutil.rmtree(folder, ignore_errors=True)


def report(rounds: int) -> dict[str, dict[str, Any]]:
    places = {"disk": Path(tempfile.gettempdir())}
    if TMPFS.is_dir():
        places["tmpfs"] = TMPFS
    results: dict[str, dict[str, Any]] = {}
    for name, parent in places.items():
        figures = results[name] = measure(parent, rounds)
        print(f"{name} ({parent}): a save of {figures['bytes']:,} bytes {figures['save'] * 1e3:.3f} ms, "
              f"the folder's check {figures['check'] * 1e6:.2f} µs = {figures['check'] / figures['save']:.2%} "
              f"of the save (medians of {rounds}); load {', '.join(f'{load:.2f}' for load in os.getloadavg())}")
    return results


def test_bench_the_folder_check_against_the_save_it_guards() -> None:
    """The figures of the module docstring, printed (``make bench`` shows them); none asserted."""
    assert "disk" in report(rounds=60)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="The data folder's check against the save it guards.")
    parser.add_argument("--rounds", type=int, default=100, help="saves (and runs of checks) timed in each place")
    report(parser.parse_args().rounds)
