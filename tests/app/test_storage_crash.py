"""A process that dies at any moment of a save leaves every document whole.

Each test runs a child process that saves a few times and ends itself
(``os._exit``) at one named point of one chosen write, through the fault hook
of :func:`app.storage.atomic_write_bytes`: no sleeping and hoping.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.storage import CRASH_POINTS, FileStore, atomic_write_bytes

T = TypeVar("T")
REPO_ROOT = Path(__file__).resolve().parents[2]
CRASHED = 70
INTERRUPTED_SAVE = 3

CHILD = textwrap.dedent(
    """
    import asyncio, os, sys
    data_dir, repo_root, collection, crash_point, crash_at = sys.argv[1:]
    sys.path.insert(0, repo_root)
    from app.storage import FileStore

    saving_doc = False
    doc_writes = 0

    def faults(point, path):
        global doc_writes
        if not saving_doc:
            return
        if point == "before-write":
            doc_writes += 1
        if point == crash_point and doc_writes == int(crash_at):
            os._exit(CRASHED)

    def content(n):
        return {"n": n, "events": [{"type": "rolled", "dice": [1, 2, 3, 3, 3, n % 6 + 1]}] * (40 * n)}

    async def main():
        global saving_doc
        store = FileStore(data_dir, faults=faults)
        for n in range(1, int(crash_at) + 1):
            saving_doc = True
            await store.save(collection, "doc", content(n), expect_revision=n - 1)
            saving_doc = False
            print(f"acked doc {n}", flush=True)
            await store.save(collection, f"other-{n}", {"n": n}, expect_revision=0)
            print(f"acked other-{n}", flush=True)

    asyncio.run(main())
    """
).replace("CRASHED", str(CRASHED))


def content(n: int) -> dict[str, Any]:
    """What the child saves as ``doc`` the n-th time (its revision is then n)."""
    return {"n": n, "events": [{"type": "rolled", "dice": [1, 2, 3, 3, 3, n % 6 + 1]}] * (40 * n), "revision": n}


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def crash_while_saving(data_dir: Path, collection: str, point: str) -> list[str]:
    """Run the child until it dies at ``point`` of its INTERRUPTED_SAVE-th save of
    ``doc``; the saves it acknowledged, in order."""
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(data_dir), str(REPO_ROOT), collection, point, str(INTERRUPTED_SAVE)],
        capture_output=True, text=True, timeout=120,
    )
    assert child.returncode == CRASHED, child.stderr
    return child.stdout.split("\n")[:-1]


@pytest.mark.parametrize("collection", ["games", "tournaments", "settings"])
@pytest.mark.parametrize("point", CRASH_POINTS)
def test_a_crash_at_any_point_of_a_save_keeps_every_acknowledged_save_and_never_half_of_one(
    tmp_path: Path, collection: str, point: str
) -> None:
    acknowledged = crash_while_saving(tmp_path, collection, point)
    assert acknowledged == [line for n in range(1, INTERRUPTED_SAVE)
                            for line in (f"acked doc {n}", f"acked other-{n}")]
    left_temp_files = list(tmp_path.rglob("*.tmp"))
    assert bool(left_temp_files) == (point in ("after-temp-file", "after-fsync"))

    store = FileStore(tmp_path)

    assert store.problems == ()
    assert not list(tmp_path.rglob("*.tmp"))
    interrupted_is_there = point == "after-rename"
    expected = content(INTERRUPTED_SAVE if interrupted_is_there else INTERRUPTED_SAVE - 1)
    assert run(store.load(collection, "doc")) == expected
    others = [f"other-{n}" for n in range(1, INTERRUPTED_SAVE)]
    assert run(store.list_ids(collection)) == ["doc", *others]
    assert all(run(store.load(collection, doc_id)) == {"n": n, "revision": 1}
               for n, doc_id in enumerate(others, start=1))
    assert run(store.save(collection, "doc", {"n": "next"}, expect_revision=expected["revision"])) \
        == expected["revision"] + 1
    store.close()


def test_the_fault_hook_is_told_each_crash_point_of_a_write_in_order(tmp_path: Path) -> None:
    seen: list[tuple[str, Path]] = []
    atomic_write_bytes(tmp_path / "a.json", b"{}", lambda point, path: seen.append((point, path)))
    assert seen == [(point, tmp_path / "a.json") for point in CRASH_POINTS]
    assert CRASH_POINTS == ("before-write", "after-temp-file", "after-fsync", "after-rename")


def test_a_file_store_passes_its_fault_hook_to_every_collections_writes(tmp_path: Path) -> None:
    written: list[str] = []

    def note(point: str, path: Path) -> None:
        if point == "after-rename":
            written.append(path.relative_to(tmp_path).as_posix())

    store = FileStore(tmp_path, faults=note)
    for collection in ("games", "tournaments", "settings"):
        run(store.save(collection, "x1", {}))
    assert written == ["games/x1.json", "tournaments/x1.json", FileStore.DATABASE_FILE_NAME]
