"""One open document: read once, acted on as an engine value, saved over its revision.

Both services hold their open document through a :class:`DocumentSession` (the
scorekeeper its game, the organizer its tournament), the way TinyDB's ``Table`` is the
one path between a caller and its ``Storage``:

- :meth:`~DocumentSession.open` loads the stored document once and turns it into the
  service's value with ``read`` (a replay of its log).  Opened again at the revision it
  holds, the value it has is kept: nothing is replayed.
- :meth:`~DocumentSession.save` turns a *new* value into its document with ``write``
  and saves it over the revision the session read (serialised once, sealed with the
  revision and a digest, :func:`~app.storage.documents.seal`, so the next open skips
  the deeper checks a damaged or hand-edited document still gets).  Only once the store
  has kept it does the new value become the session's: a refused action or a failed
  write leaves the previous value as it was (no replay to restore it).

What to do when another screen saved first is the service's to say (show theirs,
keep ours again after a delete): :meth:`~DocumentSession.save` raises the store's
:class:`~app.storage.DocumentChanged` with nothing written and nothing adopted.

    >>> import asyncio
    >>> from app.storage import MemoryStore
    >>> session = DocumentSession(MemoryStore(), "settings", lambda doc: doc["n"], lambda _, n: {"n": n})
    >>> asyncio.run(session.create("app", 1)); asyncio.run(session.save(2)); session.value, session.revision
    (2, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from app.storage.base import Store
from app.storage.documents import Document, check_key, revision_of

__all__ = ["DocumentSession"]

V = TypeVar("V")


class DocumentSession(Generic[V]):
    """The one open document of ``collection`` a service holds, as its value.

    :param store: where the document is kept.
    :param collection: its collection (``"games"``, ``"tournaments"``).
    :param read: the value a stored document holds (it may raise: the document cannot be used).
    :param write: the document of that id that keeps a value (without its revision: the store adds it).
    """

    def __init__(self, store: Store, collection: str, read: Callable[[Document], V],
                 write: Callable[[str, V], Document]) -> None:
        self.store = store
        self.collection = collection
        self._read = read
        self._write = write
        self.doc_id: str | None = None
        self.value: V | None = None
        self.revision = 0
        """The stored revision :attr:`value` was read at or saved as: a save goes over it
        only (0 until the document is first stored)."""

    @property
    def is_open(self) -> bool:
        return self.value is not None

    def close(self) -> None:
        """Hold nothing (the document was deleted, or a new one could not be created)."""
        self.doc_id, self.value, self.revision = None, None, 0

    async def open(self, doc_id: str) -> V | None:
        """The stored document's value, read once; ``None`` if there is no usable one.

        A document that reads back as sealed skipped the store's deeper checks: should
        ``read`` refuse it all the same (its digest made to fit by hand), they are run
        now, so it is kept aside and named in the store's problems like any other.

        :raises: whatever ``read`` raises for a document that passes every check.
        """
        document = await self.store.load(self.collection, doc_id)
        if document is None:
            return None
        try:
            return self.adopt(doc_id, document)
        except Exception:
            if await self.store.load(self.collection, doc_id, deep=True) is None:
                return None
            raise

    def adopt(self, doc_id: str, document: Document) -> V:
        """Hold this stored document (as loaded, or as another screen saved it); the value
        already held is kept when it is of the same document at the same revision.

        :raises: whatever ``read`` raises, holding what was held before.
        """
        revision = revision_of(document)
        if self.value is not None and self.doc_id == doc_id and self.revision == revision:
            return self.value
        value = self._read(document)
        self.doc_id, self.value, self.revision = doc_id, value, revision
        return value

    async def changed_elsewhere(self) -> Document | None:
        """The open document as another screen saved it since this session read it, or
        ``None`` (not changed, deleted, or unusable); only its revision is read otherwise."""
        if self.doc_id is None or await self.store.revision(self.collection, self.doc_id) == self.revision:
            return None
        stored = await self.store.load(self.collection, self.doc_id)
        return stored if stored is not None and revision_of(stored) != self.revision else None

    async def create(self, doc_id: str, value: V) -> None:
        """Store ``value`` as a new document ``doc_id`` and hold it; on any error the
        session holds what it held before.

        :raises DocumentChanged: a document of that id exists already.
        :raises StoreError: it was not stored.
        """
        check_key(self.collection, doc_id)
        revision = await self.store.save(self.collection, doc_id, self._write(doc_id, value), expect_revision=0)
        self.doc_id, self.value, self.revision = doc_id, value, revision

    async def save(self, value: V, *, over: int | None = None) -> None:
        """Store ``value`` as the open document over the revision read (``over``: another,
        0 to keep it again after another screen deleted it), then hold it.

        :raises DocumentChanged: another screen saved (or deleted) it since: nothing was
            written and the session still holds its previous value.
        :raises StoreError: it was not stored; the previous value is held.
        :raises LookupError: no document is open.
        """
        if self.doc_id is None or self.value is None:
            raise LookupError(f"No document of {self.collection} is open.")
        doc_id = self.doc_id
        revision = await self.store.save(self.collection, doc_id, self._write(doc_id, value),
                                         expect_revision=self.revision if over is None else over)
        if self.doc_id == doc_id:
            self.value, self.revision = value, revision
