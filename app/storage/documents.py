"""What a store holds: JSON documents by collection and id, each with a revision.

Every backend goes through these functions, so they all accept, refuse and number
documents the same way.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, Final

__all__ = [
    "COLLECTIONS",
    "REVISION_FIELD",
    "Document",
    "check_collection",
    "check_key",
    "decode_document",
    "encode_compact",
    "is_usable_id",
    "new_id",
    "revision_of",
    "utc_now_iso",
]

COLLECTIONS: Final = ("games", "tournaments", "settings")
"""Every collection a store holds; anything else is refused so a typo cannot
silently create a new, never-read place."""

REVISION_FIELD: Final = "revision"
"""The integer field that counts a document's saves (see :func:`revision_of`)."""

Document = dict[str, Any]
"""A JSON object: what every collection stores."""

_ID_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")


def utc_now_iso() -> str:
    """The current time as an ISO 8601 UTC string, for ``created``/``updated``."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_id() -> str:
    """A fresh document id that sorts by creation time and is safe as a file
    name and storage key, e.g. ``20261129-160700-3fa9c2``."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{secrets.token_hex(3)}"


def is_usable_id(doc_id: str) -> bool:
    """True for 1 to 80 letters, digits, ``-`` or ``_``, starting with a letter or digit."""
    return _ID_PATTERN.fullmatch(doc_id) is not None


def check_collection(collection: str) -> None:
    """:raises ValueError: for a collection not in :data:`COLLECTIONS`."""
    if collection not in COLLECTIONS:
        raise ValueError(f"Unknown collection {collection!r}: expected one of {', '.join(COLLECTIONS)}")


def check_key(collection: str, doc_id: str) -> None:
    """:raises ValueError: for an unknown collection or an id unsafe as a file name or key."""
    check_collection(collection)
    if not isinstance(doc_id, str) or not is_usable_id(doc_id):
        raise ValueError(
            f"Document id {doc_id!r} is not usable: use 1 to 80 letters, digits, '-' or '_',"
            " starting with a letter or digit"
        )


def revision_of(document: Mapping[str, Any] | None) -> int:
    """A document's revision: its integer ``"revision"`` field; 0 for no document,
    and for one written before revisions were kept (no integer field)."""
    if document is None:
        return 0
    value = document.get(REVISION_FIELD)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def encode_compact(document: Mapping[str, Any]) -> str:
    """Compact, ASCII-only JSON; refuses NaN and infinities, which JSON cannot
    carry and which would come back as something else."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def decode_document(text: str) -> Document:
    """The document in ``text``.

    :raises ValueError: if it is not JSON, not a JSON object, or nested absurdly deep.
    """
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise ValueError("JSON nested too deeply to be a document") from error
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, found {type(value).__name__}")
    return value
