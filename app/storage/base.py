"""The one interface every store has, and the one place revisions are checked.

:class:`Store` implements ``save``/``load``/``list_ids``/``delete``, revision checks, limits,
problems and the index of :meth:`Store.summaries` once, on top of four primitives a backend
provides: read, write and remove one document, and list them (``_read``, ``_write``,
``_remove``, ``_stamps``), the way TinyDB's ``Storage`` asks a backend for ``read``/``write``
only.  What a backend may do better than the shared way (read a revision off a text's
start, keep a damaged document aside, keep the index across restarts, count its space) it
overrides; :class:`~app.storage.MemoryStore` shows how little there is to write.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Callable, Final, Optional, TypeVar

from app.runtime import in_browser
from app.storage.documents import (
    DIGEST_FIELD,
    REVISION_FIELD,
    Document,
    Seal,
    check_collection,
    check_key,
    revision_of,
    sealed,
)
from app.storage.errors import DocumentChanged, DocumentTooLarge, StoreWriteError
from app.storage.index import CollectionIndex, Listing, Summary
from app.storage.limits import limit_problem
from app.storage.schema import DocumentSchema

__all__ = ["NEARLY_FULL_FRACTION", "StorageUsage", "Store", "StoreProblem", "off_the_loop"]

NEARLY_FULL_FRACTION: Final = 0.8
_READ_TOGETHER: Final = 50
"""Documents read at once while an index is brought up to date (one browser round trip each)."""
_CHECKED_INLINE: Final = 64
"""Up to this many documents to check, a listing checks them on the event loop (a few
milliseconds each, less than the hops to a worker thread would cost); past it, each
check runs in a worker thread, so that other sessions are served meanwhile."""
T = TypeVar("T")


@dataclass(frozen=True)
class StoreProblem:
    """A stored file or entry that could not be read, and where it was kept.

    :param location: the file path or storage key that failed.
    :param reason: why it could not be read or used (parser message, the field of the
        wrong type, the engine's refusal of its log, "too large: ...").
    :param kept_as: where the untouched bytes now are, or ``None`` when they
        were left in place.

    A screen says it in the person's language (``app.views.widgets.problem_line``): this layer
    knows no language.
    """

    location: str
    reason: str
    kept_as: Optional[str] = None


@dataclass(frozen=True)
class StorageUsage:
    """How much space the store takes and how much it may take.

    :param bytes_used: bytes (characters, for the browser) held by this store.
    :param quota_bytes: the most it may hold, ``None`` when unbounded.
    """

    bytes_used: int
    quota_bytes: Optional[int]

    @property
    def fraction_used(self) -> float:
        """0.0 to 1.0 (can exceed 1.0 if the estimate was too low)."""
        if not self.quota_bytes:
            return 0.0
        return self.bytes_used / self.quota_bytes

    @property
    def nearly_full(self) -> bool:
        """True when the app should warn and offer export or cleanup."""
        return self.fraction_used >= NEARLY_FULL_FRACTION


class Store(ABC):
    """Save, load, list and delete JSON documents by collection and id.

    Every ``save`` is durable when it returns: the caller may show the action
    as accepted.  A refused save raises :class:`~app.storage.StoreWriteError`,
    or :class:`~app.storage.DocumentChanged` when another screen saved first.

    Every document handed out (:meth:`load`, :meth:`load_all`, the stored one a
    :class:`~app.storage.DocumentChanged` carries) is checked first, here and only
    here: against the size limits (:mod:`app.storage.limits`) always, and against
    its collection's :class:`~app.storage.DocumentSchema` once the app has called
    :meth:`check_with`.  One that fails is kept aside untouched
    (:meth:`_keep_aside`), named in :attr:`problems`, and reads as missing.

    A backend implements the four primitives below (and overrides what it does better);
    it never checks a revision or a document's shape itself.
    """

    def __init__(self) -> None:
        self._problems: list[StoreProblem] = []
        self._lock = asyncio.Lock()
        self._schemas: dict[str, DocumentSchema] = {}
        self._passed: dict[tuple[str, str], str] = {}
        """Digest of the last version of each document that passed its schema: its
        deeper checks (a replay) are not run again until it changes.  (A document read
        back as a store sealed it skips them anyway: :class:`~app.storage.documents.Seal`.)"""
        self._indexes: dict[str, CollectionIndex] = {}
        self._index_locks: dict[str, asyncio.Lock] = {}
        self._index_texts: dict[str, str] = {}

    @property
    def problems(self) -> tuple[StoreProblem, ...]:
        """Files or entries that could not be read or used since the store opened."""
        return tuple(self._problems)

    def check_with(self, schemas: Mapping[str, DocumentSchema]) -> None:
        """Check every document of these collections against its schema from now on
        (the app's :data:`~app.storage.DOCUMENT_SCHEMAS` with the engine's replay).

        :raises ValueError: for an unknown collection.
        """
        for collection in schemas:
            check_collection(collection)
        if any(self._schemas.get(collection) is not schema for collection, schema in schemas.items()):
            self._schemas.update(schemas)
            self._passed.clear()  # what passed other checks may not pass these
            self._indexes.clear()

    # -- the interface ------------------------------------------------------------------

    async def save(
        self,
        collection: str,
        doc_id: str,
        document: Mapping[str, Any],
        *,
        expect_revision: int | None = None,
    ) -> int:
        """Create or replace one document; its revision when it returns.

        :param expect_revision: the revision the caller read (0 for "there is no
            such document yet").  The save then happens only if the stored
            document is still at that revision, and is written with revision
            ``expect_revision + 1``; the check and the write are one step.
            ``None`` writes unconditionally, keeping the document's own
            ``"revision"`` (for a first creation).
        :returns: the revision now stored.
        :raises DocumentChanged: the stored revision differs; nothing was written
            and the error carries the stored document.
        :raises DocumentTooLarge: past a limit of :mod:`app.storage.limits`.
        :raises StoreWriteError: the document was not saved (not JSON, disk or
            browser storage full or refusing).
        :raises ValueError: unknown collection, unusable id, or a negative
            ``expect_revision``.
        """
        check_key(collection, doc_id)
        if not isinstance(document, Mapping):
            raise TypeError(f"A document must be a JSON object (dict), not {type(document).__name__}")
        if expect_revision is not None:
            if not isinstance(expect_revision, int) or isinstance(expect_revision, bool) or expect_revision < 0:
                raise ValueError(f"expect_revision must be a revision (0 or more), not {expect_revision!r}")
            document = {**document, REVISION_FIELD: expect_revision + 1}
        text, written = _encode_for_save(document)
        too_much = limit_problem(document, len(text))
        if too_much is not None:
            raise DocumentTooLarge(f"Not saved: {collection}/{doc_id} is {too_much}.")
        stored: Optional[Document] = None
        changed = False
        async with self._exclusive():
            self._check_writable()
            if expect_revision is not None:
                revision = await self._stored_revision(collection, doc_id)
                if revision is None:  # not one this app sealed: read it whole
                    stored = await self._read(collection, doc_id)
                    revision = revision_of(stored)
                changed = revision != expect_revision
            if not changed:
                await self._write(collection, doc_id, text, written)
        if changed:
            assert expect_revision is not None
            if stored is None:
                stored = await self._read(collection, doc_id)
            raise DocumentChanged(collection, doc_id, expect_revision, await self._usable(collection, doc_id, stored))
        return revision_of(document)

    async def load(self, collection: str, doc_id: str, *, deep: bool = False) -> Optional[Document]:
        """The document as stored now, or ``None`` if there is none (or it was
        unreadable or failed its checks: then kept aside and named in :attr:`problems`).

        :param deep: run the deeper checks (a replay) even on a document that reads back
            as this app sealed it (one its reader refused all the same).
        """
        check_key(collection, doc_id)
        return await self._usable(collection, doc_id, await self._read(collection, doc_id), deep=deep)

    async def revision(self, collection: str, doc_id: str) -> int:
        """The stored document's revision (0 for none), read off the start of its text
        where this app sealed it, so a look for another screen's save parses no log."""
        check_key(collection, doc_id)
        async with self._exclusive():
            revision = await self._stored_revision(collection, doc_id)
        return revision if revision is not None else revision_of(await self.load(collection, doc_id))

    async def list_ids(self, collection: str) -> list[str]:
        """Ids of the readable documents in a collection, sorted."""
        check_collection(collection)
        return sorted(await self._ids(collection))

    async def delete(self, collection: str, doc_id: str) -> bool:
        """Remove a document; ``False`` if there was none.

        :raises StoreWriteError: it was not removed (a disk that cannot be written).
        """
        check_key(collection, doc_id)
        async with self._exclusive():
            self._check_writable()
            return await self._remove(collection, doc_id)

    async def load_all(self, collection: str) -> dict[str, Document]:
        """Every readable document of a collection that passes its checks, by id
        (e.g. the home list); the others are kept aside and named in :attr:`problems`."""
        documents: dict[str, Document] = {}
        doc_ids = await self.list_ids(collection)
        off_loop = len(doc_ids) > _CHECKED_INLINE
        for doc_id in doc_ids:
            document = await self._usable(collection, doc_id, await self._read(collection, doc_id), off_loop=off_loop)
            if document is not None:
                documents[doc_id] = document
        return documents

    async def summaries(self, collection: str, listing: Listing) -> dict[str, Summary]:
        """``listing``'s summary of every readable document of a collection that passes
        its checks, by id (e.g. Home's list of games), from the collection's index.

        Only documents stored since their summary was made (their stamp differs: saved
        here, in another tab, by another copy of the app before, or by hand) are read,
        checked (in worker threads when there are many) and summarised again; those that
        fail are kept aside and named in :attr:`problems`, as :meth:`load_all` does.  The
        index is then kept beside the documents for the next listing, this process's or
        the next one's; a long rebuild keeps what it has done so far, so a listing cut
        short (the session closed) is carried on by the next.  The summaries handed out
        are the index's own: read them, never change them.
        """
        check_collection(collection)
        async with self._index_locks.setdefault(collection, asyncio.Lock()):
            index = self._indexes.get(collection)
            if index is None or index.version != listing.version:
                index = (CollectionIndex.decode(await self._read_index(collection), listing)
                         or CollectionIndex(listing.version))
            stamps = await self._stamps(collection)  # before any read: a save after it is seen next time
            fresh = self._indexes[collection] = CollectionIndex(listing.version)
            unstamped: dict[str, Summary] = {}
            stale: list[str] = []
            for doc_id, stamp in stamps.items():
                summary = index.summary_if_fresh(doc_id, stamp)
                if summary is None:
                    stale.append(doc_id)
                else:
                    fresh.entries[doc_id] = (str(stamp), summary)
            off_loop = len(stale) > _CHECKED_INLINE
            for start in range(0, len(stale), _READ_TOGETHER):
                batch = stale[start:start + _READ_TOGETHER]
                stored = await asyncio.gather(*(self._read(collection, doc_id) for doc_id in batch))
                for doc_id, document in zip(batch, stored):
                    usable = await self._usable(collection, doc_id, document, off_loop=off_loop)
                    if usable is not None:
                        stamp = stamps[doc_id]
                        if stamp is None:
                            unstamped[doc_id] = listing.summarize(usable)
                        else:
                            fresh.entries[doc_id] = (stamp, listing.summarize(usable))
                if off_loop:  # what is done so far, should this process stop before the end
                    await self._write_index(collection, fresh.encode())
            if fresh.entries != index.entries:
                await self._write_index(collection, fresh.encode())
        return {doc_id: summary for doc_id, (_, summary) in fresh.entries.items()} | unstamped

    async def _usable(self, collection: str, doc_id: str, document: Optional[Document], *,
                      off_loop: bool = False, deep: bool = False) -> Optional[Document]:
        """``document`` if it passes its collection's checks; otherwise ``None``, and
        it is kept aside (unless another save replaced it meanwhile).  ``off_loop``
        runs the checks (a replay: milliseconds per game) in a worker thread where
        there are threads, so a listing of many never holds up other sessions."""
        if document is None:
            return None
        if off_loop:
            reason = await off_the_loop(self._problem_with, collection, doc_id, document)
        else:
            reason = self._problem_with(collection, doc_id, document, deep)
        if reason is None:
            document.pop(DIGEST_FIELD, None)  # the store's own: a caller never sees it
            return document
        async with self._exclusive():
            if await self._read(collection, doc_id) == document:
                problem = await self._keep_aside(collection, doc_id, reason)
                if problem not in self._problems:  # one left where it was is met again on the next read
                    self._problems.append(problem)
        return None

    def _problem_with(self, collection: str, doc_id: str, document: Document, deep: bool = False) -> Optional[str]:
        """Why ``document`` cannot be used, or ``None``; ``deep`` runs every check, sealed or not."""
        try:
            sealed = Seal(document)
        except RecursionError:
            return "JSON nested too deeply to be a document"
        except ValueError as error:
            return str(error)
        reason = limit_problem(document, sealed.size)
        schema = self._schemas.get(collection)
        if reason is not None or schema is None:
            return reason
        if sealed.intact and not deep:  # as this app saved it, after its engine acted: the fields are enough
            return schema.problem(document, deep=False)
        if self._passed.get((collection, doc_id)) == sealed.digest and not deep:
            return None
        reason = schema.problem(document)
        if reason is None:
            self._passed[(collection, doc_id)] = sealed.digest
        return reason

    async def usage(self) -> StorageUsage:
        """Space used and available, so the app can warn before it runs out (unknown
        unless the backend can tell: then never nearly full)."""
        return StorageUsage(0, None)

    def close(self) -> None:
        """Release resources; every save is already durable, so nothing is lost."""

    # -- what a backend provides --------------------------------------------------------

    @abstractmethod
    async def _read(self, collection: str, doc_id: str) -> Optional[Document]:
        """The stored document, read through any cache (another screen may have
        written it); ``None`` if missing or unreadable (then noted in problems)."""

    async def _stored_revision(self, collection: str, doc_id: str) -> Optional[int]:
        """The stored document's revision, read off the start of its text
        (:func:`~app.storage.documents.revision_in_head`) without parsing the rest; 0 when
        there is none; ``None`` when it cannot be told so (then it is read whole).  Called
        only inside :meth:`_exclusive`, for a save's revision check."""
        return None

    @abstractmethod
    async def _write(self, collection: str, doc_id: str, text: str, document: Document) -> None:
        """Durably replace the document with ``text`` (compact JSON of an object; ``document``
        is the same as an object, for a backend that keeps objects).
        Called only inside :meth:`_exclusive`, right after any revision check.

        :raises StoreWriteError: if it could not be.
        """

    @abstractmethod
    async def _remove(self, collection: str, doc_id: str) -> bool:
        """Remove the document; ``False`` if there was none.  Called only inside
        :meth:`_exclusive`.

        :raises StoreWriteError: if it could not be.
        """

    @abstractmethod
    async def _stamps(self, collection: str) -> dict[str, Optional[str]]:
        """Every stored document of ``collection`` (readable or not) with a stamp that
        changes whenever its stored bytes do; ``None`` where none can be taken (the
        document is then read on every listing)."""

    # -- what a backend may do better -----------------------------------------------------

    async def _ids(self, collection: str) -> list[str]:
        """Ids of the readable documents in ``collection``, any order (those listed)."""
        return list(await self._stamps(collection))

    async def _read_index(self, collection: str) -> Optional[str]:
        """The index text last written for ``collection``, ``None`` if there is none (kept
        for this process unless the backend keeps it beside the documents)."""
        return self._index_texts.get(collection)

    async def _write_index(self, collection: str, text: str) -> None:
        """Keep ``text`` as ``collection``'s index; never raises (an index that could
        not be kept is rebuilt from the documents next time)."""
        self._index_texts[collection] = text

    async def _keep_aside(self, collection: str, doc_id: str, reason: str) -> StoreProblem:
        """Move the stored document out of the collection with its bytes untouched
        (renamed, or moved to another key) and say where it went.  Called only inside
        :meth:`_exclusive`; never raises for a move that fails (the problem then says
        it was left where it was, as for a backend that cannot move one)."""
        return StoreProblem(f"{collection}/{doc_id}", reason)

    def _check_writable(self) -> None:
        """Before a save's revision check and a delete, inside :meth:`_exclusive`: a backend
        that must not write now raises here, before anything is read or written.

        :raises StoreWriteError: why (:class:`~app.storage.FileStore`: its data folder was
            moved or replaced while it held it).
        """

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        """Held around a check and its write, and around a delete: one at a time
        per store.  A backend used from several threads narrows this further."""
        async with self._lock:
            yield


async def off_the_loop(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a worker thread; inline in the browser, which has none."""
    if in_browser():
        return function(*args)
    return await asyncio.to_thread(function, *args)


def _encode_for_save(document: Mapping[str, Any]) -> tuple[str, Document]:
    try:
        return sealed(document)
    except RecursionError as error:
        raise StoreWriteError("Document cannot be stored as JSON: it is nested too deeply") from error
    except (TypeError, ValueError) as error:
        raise StoreWriteError(f"Document cannot be stored as JSON: {error}") from error
