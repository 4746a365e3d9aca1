"""Revisions: a save over a revision someone else moved on from is refused, on every backend."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.storage import DocumentChanged, FileStore, MemoryPrefs, PrefsStore, Store, StoreError, revision_of

T = TypeVar("T")
OpenStore = Callable[[], Store]


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def test_a_missing_document_is_at_revision_zero(open_store: OpenStore) -> None:
    store = open_store()
    assert revision_of(run(store.load("games", "g1"))) == 0
    assert run(store.save("games", "g1", {"n": 1}, expect_revision=0)) == 1


def test_a_checked_save_writes_the_next_revision_into_the_document_and_returns_it(open_store: OpenStore) -> None:
    store = open_store()
    run(store.save("games", "g1", {"n": 1}, expect_revision=0))
    assert run(store.save("games", "g1", {"n": 2, "revision": 99}, expect_revision=1)) == 2
    assert run(store.load("games", "g1")) == {"n": 2, "revision": 2}


def test_an_unchecked_save_keeps_the_documents_own_revision(open_store: OpenStore) -> None:
    store = open_store()
    assert run(store.save("settings", "app", {"theme": "dark"})) == 0
    assert run(store.save("games", "g1", {"n": 1, "revision": 7})) == 7
    assert run(store.save("games", "g1", {"n": 2}, expect_revision=7)) == 8


@pytest.mark.parametrize("collection", ["games", "tournaments", "settings"])
def test_a_stale_writer_is_refused_told_the_newer_document_and_nothing_is_written(
    open_store: OpenStore, collection: str
) -> None:
    mine, theirs = open_store(), open_store()
    run(mine.save(collection, "doc", {"by": "me"}, expect_revision=0))
    run(theirs.save(collection, "doc", {"by": "them"}, expect_revision=1))

    with pytest.raises(DocumentChanged, match=rf"{collection}/doc was changed elsewhere: this screen had revision 1, "
                                              r"it is at revision 2") as refused:
        run(mine.save(collection, "doc", {"by": "me again"}, expect_revision=1))

    assert refused.value.stored == {"by": "them", "revision": 2}
    assert (refused.value.collection, refused.value.doc_id, refused.value.expected) == (collection, "doc", 1)
    assert isinstance(refused.value, StoreError)
    assert run(mine.load(collection, "doc")) == {"by": "them", "revision": 2}


def test_creating_a_document_that_someone_else_created_first_is_refused(open_store: OpenStore) -> None:
    mine, theirs = open_store(), open_store()
    run(theirs.save("tournaments", "t1", {"by": "them"}, expect_revision=0))
    with pytest.raises(DocumentChanged) as refused:
        run(mine.save("tournaments", "t1", {"by": "me"}, expect_revision=0))
    assert refused.value.stored == {"by": "them", "revision": 1}


def test_saving_over_a_document_deleted_elsewhere_is_refused_with_no_stored_document(open_store: OpenStore) -> None:
    mine, theirs = open_store(), open_store()
    run(mine.save("games", "g1", {"n": 1}, expect_revision=0))
    run(theirs.delete("games", "g1"))
    with pytest.raises(DocumentChanged, match="it was deleted") as refused:
        run(mine.save("games", "g1", {"n": 2}, expect_revision=1))
    assert refused.value.stored is None
    assert run(mine.load("games", "g1")) is None


def test_two_writers_racing_with_the_same_expected_revision_exactly_one_wins(open_store: OpenStore) -> None:
    store = open_store()

    async def race() -> list[Any]:
        await store.save("games", "g1", {"by": "nobody"}, expect_revision=0)
        writers = [store.save("games", "g1", {"by": name}, expect_revision=1) for name in ("Ann", "Bob", "Cy")]
        return await asyncio.gather(*writers, return_exceptions=True)

    outcomes = run(race())

    assert outcomes.count(2) == 1
    refusals = [outcome for outcome in outcomes if isinstance(outcome, DocumentChanged)]
    assert len(refusals) == 2
    stored = run(store.load("games", "g1"))
    assert stored is not None and stored["revision"] == 2
    assert all(refusal.stored == stored for refusal in refusals)


def test_two_threads_racing_on_one_file_store_with_the_same_expected_revision_exactly_one_wins(
    tmp_path: Path,
) -> None:
    def linger_before_writing(point: str, path: Path) -> None:
        if point == "before-write":
            time.sleep(0.02)  # a slow disk: the others' checks would all pass meanwhile without the lock

    store = FileStore(tmp_path, faults=linger_before_writing)
    run(store.save("settings", "app", {"by": "nobody"}, expect_revision=0))
    start = threading.Barrier(4)
    outcomes: list[object] = []

    def write(name: str) -> None:
        start.wait()
        try:
            outcomes.append(run(store.save("settings", "app", {"by": name}, expect_revision=1)))
        except DocumentChanged as refused:
            outcomes.append(refused)

    threads = [threading.Thread(target=write, args=(name,)) for name in ("Ann", "Bob", "Cy", "Di")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(2) == 1
    assert sum(isinstance(outcome, DocumentChanged) for outcome in outcomes) == 3


@pytest.mark.parametrize("bad", [-1, True, 1.0, "1"])
def test_an_expected_revision_that_is_not_a_count_is_refused(open_store: OpenStore, bad: Any) -> None:
    store = open_store()
    with pytest.raises(ValueError, match=r"expect_revision must be a revision \(0 or more\)"):
        run(store.save("games", "g1", {}, expect_revision=bad))
    assert run(store.load("games", "g1")) is None


def test_a_document_written_before_revisions_counts_as_revision_zero(open_store: OpenStore) -> None:
    store = open_store()
    run(store.save("games", "old", {"n": 1}))
    assert run(store.save("games", "old", {"n": 2}, expect_revision=0)) == 1


# --- The browser store across tabs ------------------------------------------------


def test_a_browser_tab_loads_what_another_tab_saved_after_it_opened() -> None:
    prefs = MemoryPrefs()
    first_tab = run(PrefsStore.open(prefs))
    run(first_tab.save("games", "g1", {"n": 1}, expect_revision=0))
    second_tab = run(PrefsStore.open(prefs))
    run(second_tab.save("games", "g1", {"n": 2}, expect_revision=1))
    assert run(first_tab.load("games", "g1")) == {"n": 2, "revision": 2}


def test_a_browser_tab_that_has_not_seen_another_tabs_save_is_refused() -> None:
    prefs = MemoryPrefs()
    first_tab = run(PrefsStore.open(prefs))
    run(first_tab.save("games", "g1", {"n": 1}, expect_revision=0))
    second_tab = run(PrefsStore.open(prefs))
    run(second_tab.save("games", "g1", {"n": 2}, expect_revision=1))
    with pytest.raises(DocumentChanged) as refused:
        run(first_tab.save("games", "g1", {"n": 3}, expect_revision=1))
    assert refused.value.stored == {"n": 2, "revision": 2}
    assert run(second_tab.load("games", "g1")) == {"n": 2, "revision": 2}


def test_a_browser_tab_lists_a_game_another_tab_created() -> None:
    prefs = MemoryPrefs()
    first_tab = run(PrefsStore.open(prefs))
    second_tab = run(PrefsStore.open(prefs))
    run(second_tab.save("games", "g2", {"n": 2}, expect_revision=0))
    assert run(first_tab.load_all("games")) == {"g2": {"n": 2, "revision": 1}}


class CountingPrefs(MemoryPrefs):
    """Counts round trips to the (fake) browser."""

    def __init__(self) -> None:
        super().__init__()
        self.gets = 0

    async def get(self, key: str) -> Any:
        self.gets += 1
        return await super().get(key)


def test_a_browser_listing_is_served_from_memory_and_a_load_reads_through() -> None:
    prefs = CountingPrefs()
    writer = run(PrefsStore.open(prefs))
    for number in range(3):
        run(writer.save("games", f"g{number}", {"n": number}))
    store = run(PrefsStore.open(prefs))
    prefs.gets = 0
    assert len(run(store.load_all("games"))) == 3
    assert prefs.gets == 0
    assert run(store.load("games", "g0")) == {"n": 0}
    assert prefs.gets == 1


def test_a_browser_tab_deleting_what_another_tab_already_deleted_is_told_it_was_not_there() -> None:
    prefs = MemoryPrefs()
    first_tab = run(PrefsStore.open(prefs))
    run(first_tab.save("games", "g1", {"n": 1}))
    second_tab = run(PrefsStore.open(prefs))
    assert run(second_tab.delete("games", "g1")) is True
    assert run(first_tab.delete("games", "g1")) is False
    assert run(first_tab.load_all("games")) == {}
