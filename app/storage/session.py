"""One open document: read once, acted on as a value, saved over its revision.

Both services hold their open document through a :class:`DocumentSession` (the
scorekeeper its game, the organizer its event), the way TinyDB's ``Table`` is the one
path between a caller and its ``Storage``, and Cosmic Python's unit of work the one
place that commits.  What a stored collection is (how a document reads into a value and
a value writes back, the sentence its "changed elsewhere" says) is a
:class:`DocumentKind`, one per collection (:mod:`app.documents`); the policy is here, once:

- :meth:`~DocumentSession.open` loads the stored document once and reads it into the
  value.  Opened again at the revision it holds, the value it has is kept: nothing is
  replayed.
- :meth:`~DocumentSession.act` tries a step on the value held (the service's copy of
  the engine value), then writes the new value over the revision read (serialised once,
  sealed with the revision and a digest, :func:`~app.storage.documents.seal`).  Only once
  the store has kept it does the new value become the session's: a refused step or a
  failed write leaves the previous value as it was (no replay to restore it).
- Another screen saved first: nothing is written, the session holds theirs and raises
  :class:`ChangedElsewhere` (the kind's sentence).  So does a refusal judged against a
  value another screen has moved on from.  Deleted elsewhere: the new value is stored
  again, as nothing entered is ever dropped.
- What the device keeps of a document that is not the document itself (the refused codes
  of an event, the table's advice switch, when a copy was saved) is the kind's ``beside``:
  kept in the ``beside`` collection under the same id (:meth:`~DocumentSession.keep_beside`),
  merged rather than revised, so it never makes another screen's action "changed elsewhere".

    >>> import asyncio
    >>> from app.storage import MemoryStore
    >>> numbers = DocumentKind("settings", lambda doc: doc["n"], lambda _, n: {"n": n}, lambda: "changed")
    >>> session = DocumentSession(MemoryStore(), numbers)
    >>> asyncio.run(session.create("app", 1)); asyncio.run(session.act(lambda n: (n + 1, None)))
    >>> session.value, session.revision
    (2, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Generic, NoReturn, TypeVar

from app.storage.base import Store
from app.storage.documents import REVISION_FIELD, Document, check_key, revision_of
from app.storage.errors import DocumentChanged, StoreError

__all__ = ["BESIDE", "ChangedElsewhere", "DocumentKind", "DocumentSession", "keep_beside", "merge"]

BESIDE: Final = "beside"
"""The collection of what a device keeps beside its games and events (one document per id)."""

V = TypeVar("V")
R = TypeVar("R")


class ChangedElsewhere(Exception):
    """The open document moved on since this screen read it (another tab or device acted):
    nothing was written, and the session now holds what that screen saved."""


@dataclass(frozen=True)
class DocumentKind(Generic[V]):
    """What the documents of one collection are to the app.

    :param collection: where they are kept (``"games"``, ``"tournaments"``).
    :param read: the value a stored document holds (it may raise: the document cannot be used).
    :param write: the document of that id that keeps a value (without its revision: the store adds it).
    :param changed_elsewhere: the sentence a screen shows when another one saved first, in
        the player's language (asked when it is shown).
    :param beside: the fields the device keeps beside each document, outside its revision,
        with their values before any is kept (a document stored before they moved beside may
        still hold them: they are read from it once and kept beside).
    """

    collection: str
    read: Callable[[Document], V]
    write: Callable[[str, V], Document]
    changed_elsewhere: Callable[[], str]
    beside: Mapping[str, Any] = field(default_factory=dict)


class DocumentSession(Generic[V]):
    """The one open document of a :class:`DocumentKind` a service holds, as its value."""

    def __init__(self, store: Store, kind: DocumentKind[V]) -> None:
        self.store = store
        self.kind = kind
        self.doc_id: str | None = None
        self.value: V | None = None
        self.revision = 0
        """The stored revision :attr:`value` was read at or saved as: a save goes over it
        only (0 until the document is first stored)."""
        self.beside: Mapping[str, Any] = dict(kind.beside)
        """What the device keeps beside the open document, as read at open or kept since."""

    def close(self) -> None:
        """Hold nothing (the document was deleted, or a new one could not be created)."""
        self.doc_id, self.value, self.revision = None, None, 0
        self.beside = dict(self.kind.beside)

    async def open(self, doc_id: str) -> V | None:
        """The stored document's value, read once; ``None`` if there is no usable one.

        A document that reads back as sealed skipped the store's deeper checks: should
        ``read`` refuse it all the same (its digest made to fit by hand), they are run
        now, so it is kept aside and named in the store's problems like any other.

        :raises: whatever ``read`` raises for a document that passes every check.
        """
        document = await self.store.load(self.kind.collection, doc_id)
        if document is None:
            return None
        try:
            value = self.adopt(doc_id, document)
        except Exception:
            if await self.store.load(self.kind.collection, doc_id, deep=True) is None:
                return None
            raise
        self.beside = await self._read_beside(doc_id, document)
        return value

    def adopt(self, doc_id: str, document: Document) -> V:
        """Hold this stored document (as loaded, or as another screen saved it); the value
        already held is kept when it is of the same document at the same revision.

        :raises: whatever ``read`` raises, holding what was held before.
        """
        revision = revision_of(document)
        if self.value is not None and self.doc_id == doc_id and self.revision == revision:
            return self.value
        value = self.kind.read(document)
        self.doc_id, self.value, self.revision = doc_id, value, revision
        return value

    async def create(self, doc_id: str, value: V) -> None:
        """Store ``value`` as a new document ``doc_id`` and hold it; on any error the
        session holds what it held before.

        :raises DocumentChanged: a document of that id exists already.
        :raises StoreError: it was not stored.
        """
        check_key(self.kind.collection, doc_id)
        revision = await self.store.save(self.kind.collection, doc_id, self.kind.write(doc_id, value),
                                         expect_revision=0)
        self.doc_id, self.value, self.revision = doc_id, value, revision
        self.beside = dict(self.kind.beside)

    async def delete(self, doc_id: str) -> None:
        """Remove a stored document and what the device keeps beside it; closed if it is the open one.

        :raises StoreWriteError: the document was not removed.
        """
        await self.store.delete(self.kind.collection, doc_id)
        if self.doc_id == doc_id:
            self.close()
        try:
            if self.kind.beside and await self.store.load(BESIDE, doc_id) is not None:
                kept = await merge(self.store, BESIDE, doc_id, lambda beside: beside.pop(self.kind.collection, None))
                if not kept:
                    await self.store.delete(BESIDE, doc_id)
        except StoreError:
            pass  # the document is gone; what was kept beside it is only the device's, and read by no one now

    async def keep_beside(self, **changes: Any) -> None:
        """Keep these fields beside the open document (merged with what another screen kept),
        without touching the document or its revision.

        :raises StoreError: they were not kept; :attr:`beside` is as before.
        :raises LookupError: no document is open.
        """
        if self.doc_id is None:
            raise LookupError(f"No document of {self.kind.collection} is open.")
        doc_id = self.doc_id
        kept = await self._merge_beside(doc_id, changes)
        if self.doc_id == doc_id:
            self.beside = kept

    async def _read_beside(self, doc_id: str, document: Document) -> Mapping[str, Any]:
        """What the device keeps beside the document; one stored before those fields moved
        beside has them moved there now (should that write fail, they are shown still)."""
        if not self.kind.beside:
            return {}
        stored = await self.store.load(BESIDE, doc_id)
        section = stored.get(self.kind.collection) if stored is not None else None
        if isinstance(section, dict):
            return {**self.kind.beside, **section}
        legacy = {name: document[name] for name in self.kind.beside if document.get(name) is not None}
        if not legacy:
            return dict(self.kind.beside)
        try:
            return await self._merge_beside(doc_id, legacy)
        except StoreError:
            return {**self.kind.beside, **legacy}

    async def _merge_beside(self, doc_id: str, changes: Mapping[str, Any]) -> Mapping[str, Any]:
        return await keep_beside(self.store, self.kind, doc_id, changes)

    async def act(self, step: Callable[[V], tuple[V, R]]) -> R:
        """Try ``step`` on the value held, store the value it gives over the revision read, hold it.

        ``step`` returns the new value and what the action answers; it returns the value it
        was given when the action changes nothing to store (nothing is written then).

        :raises ChangedElsewhere: another screen saved the document since it was read (or
            saved it before a refusal of ``step``): nothing was written, theirs is held.
        :raises StoreError: it was not stored; the previous value is held.
        :raises LookupError: no document is open.
        :raises: whatever ``step`` raises, the previous value held.
        """
        held = self.value
        if self.doc_id is None or held is None:
            raise LookupError(f"No document of {self.kind.collection} is open.")
        try:
            value, answer = step(held)
        except Exception as refusal:
            await self._refuse_if_changed_elsewhere(refusal)
            raise
        if value is not held:
            await self._save(self.doc_id, value)
        return answer

    async def _save(self, doc_id: str, value: V) -> None:
        document = self.kind.write(doc_id, value)
        for over in (self.revision, 0):
            try:
                revision = await self.store.save(self.kind.collection, doc_id, document, expect_revision=over)
                break
            except DocumentChanged as changed:
                if changed.stored is not None or over == 0:
                    self._show_theirs(doc_id, changed.stored)
                # deleted on another screen meanwhile: kept again, as nothing entered is ever dropped
        if self.doc_id == doc_id:
            self.value, self.revision = value, revision

    async def _refuse_if_changed_elsewhere(self, refusal: Exception) -> None:
        """A refusal judged against a value another screen has moved on from is no answer:
        theirs is held instead (nothing is written, and only a revision is read otherwise)."""
        doc_id = self.doc_id
        if doc_id is None or await self.store.revision(self.kind.collection, doc_id) == self.revision:
            return
        stored = await self.store.load(self.kind.collection, doc_id)
        if stored is not None and revision_of(stored) != self.revision:
            self._show_theirs(doc_id, stored, refusal)

    def _show_theirs(self, doc_id: str, stored: Document | None, cause: Exception | None = None) -> NoReturn:
        """Hold what another screen saved instead of writing over it, and say so."""
        if stored is not None:
            try:
                self.adopt(doc_id, stored)
            except (ValueError, KeyError, TypeError):  # theirs cannot be read: what is stored is read in full next
                self.close()
        raise ChangedElsewhere(self.kind.changed_elsewhere()) from cause


async def keep_beside(store: Store, kind: DocumentKind[Any], doc_id: str,
                      changes: Mapping[str, Any]) -> Mapping[str, Any]:
    """Keep ``changes`` beside document ``doc_id`` of ``kind`` (merged with what is kept there);
    all that is kept beside it now.

    :raises StoreError: they were not kept.
    """
    def put(beside: Document) -> None:
        beside[kind.collection] = {**kind.beside, **beside.get(kind.collection, {}), **changes}

    kept: Mapping[str, Any] = (await merge(store, BESIDE, doc_id, put))[kind.collection]
    return kept


async def merge(store: Store, collection: str, doc_id: str, change: Callable[[Document], None]) -> Document:
    """Apply ``change`` to the stored document (an empty one if none) and save it over the
    revision read; the document as saved, without its revision.

    For documents merged rather than revised (the settings, what is kept beside a game or an
    event): if another screen saved in between, ``change`` is applied again to theirs, once;
    a second clash raises :class:`~app.storage.DocumentChanged`.
    """
    try:
        return await _changed(store, collection, doc_id, await store.load(collection, doc_id), change)
    except DocumentChanged as changed:
        return await _changed(store, collection, doc_id, changed.stored, change)


async def _changed(store: Store, collection: str, doc_id: str, stored: Document | None,
                   change: Callable[[Document], None]) -> Document:
    document = dict(stored or {})
    change(document)
    await store.save(collection, doc_id, document, expect_revision=revision_of(stored))
    document.pop(REVISION_FIELD, None)
    return document
