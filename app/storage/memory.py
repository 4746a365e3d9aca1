"""The in-memory store: the twin of the real ones for tests."""

from __future__ import annotations

import hashlib
from typing import Optional

from app.storage.base import StorageUsage, Store, StoreProblem
from app.storage.documents import HEAD_CHARS, Document, decode_document, revision_in_head
from app.storage.layouts import UNREADABLE_MARK

__all__ = ["MemoryStore"]


class MemoryStore(Store):
    """Same rules and errors as the real stores; documents are kept as JSON
    text, so later changes to a saved dict do not leak in and non-JSON values
    are refused."""

    def __init__(self) -> None:
        super().__init__()
        self._texts: dict[tuple[str, str], str] = {}
        self.kept_aside: dict[str, str] = {}
        """Documents that failed their checks, by the name they were kept as."""

    async def usage(self) -> StorageUsage:
        return StorageUsage(sum(len(text) for text in self._texts.values()), None)

    async def _read(self, collection: str, doc_id: str) -> Optional[Document]:
        text = self._texts.get((collection, doc_id))
        return None if text is None else decode_document(text)

    async def _stored_revision(self, collection: str, doc_id: str) -> Optional[int]:
        text = self._texts.get((collection, doc_id))
        return 0 if text is None else revision_in_head(text[:HEAD_CHARS])

    async def _write(self, collection: str, doc_id: str, text: str, document: Document) -> None:
        self._texts[(collection, doc_id)] = text

    async def _remove(self, collection: str, doc_id: str) -> bool:
        return self._texts.pop((collection, doc_id), None) is not None

    async def _stamps(self, collection: str) -> dict[str, Optional[str]]:
        return {doc_id: hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()
                for (kept_in, doc_id), text in self._texts.items() if kept_in == collection}

    async def _keep_aside(self, collection: str, doc_id: str, reason: str) -> StoreProblem:
        text = self._texts.pop((collection, doc_id))
        kept_as = f"{collection}/{doc_id}{UNREADABLE_MARK}{len(self.kept_aside) + 1}"
        self.kept_aside[kept_as] = text
        return StoreProblem(f"{collection}/{doc_id}", reason, kept_as)
