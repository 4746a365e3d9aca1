"""A collection's index: a short summary of each document, so a list needs no document read.

Home lists every game; reading and checking 2,000 game files for that took seconds.
The index keeps, per document id, a *stamp* of the stored bytes (the backend's: a file's
inode, size and modification time; a digest of a browser entry) and the summary a
:class:`Listing` makes of the document once it has passed its checks.  A listing takes
the stamps afresh (cheap), uses every entry whose stamp still matches, and reads, checks
and summarises only the others (saved since, by this store, another tab or by hand).

The index is a cache; the documents are the truth.  It is kept beside them in one
piece (compact JSON with a checksum of its entries): one that is missing, damaged, made
by another listing version, or whose summaries are not of the listing's shape, is
rebuilt from the documents, never half-trusted.

The checksum is unkeyed on purpose: it catches damage (a write cut short, a sync tool's
half copy, a slip of a hand editing it), not forgery.  Whoever can write the data folder
could read a key kept beside it (or anywhere this user's app can), and could as well write
or delete the games themselves; an index made to fit changes only what Home lists (so which
games "Delete finished games" takes), never a game opened, which is read and replayed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from app.storage.documents import Document, encode_compact, is_usable_id
from app.storage.schema import DocumentSchema

__all__ = ["INDEX_FORMAT", "CollectionIndex", "Listing", "Summary"]

INDEX_FORMAT: Final = "farkle-table-index"

Summary = dict[str, Any]
"""What a listing keeps of one document: a small JSON object."""


@dataclass(frozen=True)
class Listing:
    """What an index keeps of each document of a collection.

    :param version: names ``summarize`` and ``schema``; change it whenever either
        changes, so an index made by another version is rebuilt.
    :param summarize: the summary of a document that passed its checks.
    :param schema: the shape every summary has (an index holding another is damaged).
    """

    version: str
    summarize: Callable[[Document], Summary]
    schema: DocumentSchema


@dataclass
class CollectionIndex:
    """The summaries of one collection's documents, each with the stamp it was made at."""

    version: str
    entries: dict[str, tuple[str, Summary]] = field(default_factory=dict)

    def summary_if_fresh(self, doc_id: str, stamp: Optional[str]) -> Optional[Summary]:
        """The summary kept for ``doc_id`` if it was made from the bytes stamped ``stamp``."""
        entry = self.entries.get(doc_id)
        if stamp is None or entry is None or entry[0] != stamp:
            return None
        return entry[1]

    def encode(self) -> str:
        """The index as stored: compact JSON with a checksum of its entries."""
        entries = {doc_id: [stamp, summary] for doc_id, (stamp, summary) in sorted(self.entries.items())}
        return encode_compact({"format": INDEX_FORMAT, "listing": self.version,
                               "checksum": _checksum(entries), "entries": entries})

    @classmethod
    def decode(cls, text: Optional[str], listing: Listing) -> Optional[CollectionIndex]:
        """The stored index, or ``None`` when there is none to trust: missing, not JSON,
        another format or listing version, a checksum that does not match its entries,
        or an entry of another shape."""
        if text is None:
            return None
        try:
            stored = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if (not isinstance(stored, dict) or stored.get("format") != INDEX_FORMAT
                or stored.get("listing") != listing.version or not isinstance(stored.get("entries"), dict)):
            return None
        entries: Mapping[str, Any] = stored["entries"]
        try:
            if stored.get("checksum") != _checksum(entries):
                return None
        except (TypeError, ValueError, RecursionError):
            return None
        index = cls(listing.version)
        for doc_id, entry in entries.items():
            if not (is_usable_id(doc_id) and isinstance(entry, list) and len(entry) == 2
                    and isinstance(entry[0], str) and isinstance(entry[1], dict)
                    and listing.schema.problem(entry[1]) is None):
                return None
            index.entries[doc_id] = (entry[0], entry[1])
        return index


def _checksum(entries: Mapping[str, Any]) -> str:
    return hashlib.blake2b(encode_compact(entries).encode("ascii"), digest_size=16).hexdigest()
