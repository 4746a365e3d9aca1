"""What a store holds: JSON documents by collection and id, each with a revision.

Every backend goes through these functions, so they all accept, refuse and number
documents the same way.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, Final

from engine.event_log import kind_of

__all__ = [
    "COLLECTIONS",
    "DIGEST_FIELD",
    "REVISION_FIELD",
    "Seal",
    "Document",
    "check_collection",
    "check_key",
    "decode_document",
    "encode_compact",
    "is_usable_id",
    "new_id",
    "revision_in_head",
    "revision_of",
    "seal",
    "sealed",
    "utc_now_iso",
]

COLLECTIONS: Final = ("games", "tournaments", "settings", "beside")
"""Every collection a store holds; anything else is refused so a typo cannot
silently create a new, never-read place."""

REVISION_FIELD: Final = "revision"
"""The integer field that counts a document's saves (see :func:`revision_of`)."""

DIGEST_FIELD: Final = "digest"
"""What a store writes beside the revision: a digest of the rest of the document, so a
document read back as it was written skips its deeper checks (see :func:`seal`).  Unkeyed,
like the index's checksum (:mod:`app.storage.index`): it tells damage, not forgery, for a
digest made to fit skips only the store's check, never the replay a game or an event gets
when it is opened."""

_DIGEST_PERSON: Final = b"farkle-doc-1"
"""Changes when the deeper checks do (a stricter engine): every document is then checked in full once."""

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

    :raises ValueError: if it is not JSON, not a JSON object, or nested absurdly deep; the
        message says so in words a player can act on (the parser's detail follows).
    """
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise ValueError("JSON nested too deeply to be a document") from error
    except json.JSONDecodeError as error:
        raise ValueError(f"it is not in the form this app saves (cut short, or changed by hand): "
                         f"{error.msg} at character {error.pos:,}") from error
    if not isinstance(value, dict):
        raise ValueError(f"it is not in the form this app saves: it holds {kind_of(value)}, not a document")
    return value


_HEAD: Final = re.compile(r'\{"revision":(0|[1-9][0-9]{0,17}),"digest":"[0-9a-f]{32}"[,}]')
HEAD_CHARS: Final = 64
"""Enough of a sealed text's start to hold its revision (:func:`revision_in_head`)."""


def _digest(head: str, body: str) -> str:
    return hashlib.blake2b(f"{head}\n{body}".encode("ascii"), digest_size=16, person=_DIGEST_PERSON).hexdigest()


def _head_of(document: Mapping[str, Any]) -> str:
    """``"revision":7`` (or nothing, for a document without one), as the sealed text starts."""
    if REVISION_FIELD not in document:
        return ""
    revision = document[REVISION_FIELD]
    if isinstance(revision, int) and not isinstance(revision, bool):
        return f'"{REVISION_FIELD}":{revision}'
    return encode_compact({REVISION_FIELD: revision})[1:-1]


def seal(document: Mapping[str, Any]) -> str:
    """The compact JSON a store writes for ``document`` (serialised once): its revision
    first, then the digest of everything else, then the rest in order (a document without
    a revision is written as it is, unsealed).

        >>> seal({"events": [], "revision": 2})  # doctest: +ELLIPSIS
        '{"revision":2,"digest":"...","events":[]}'

    A stale ``"digest"`` in ``document`` is dropped.  :class:`Seal` checks a document
    read back against it; :func:`revision_in_head` reads the revision off the start.

    :raises ValueError: for NaN or infinities; :raises TypeError: for what is not JSON.
    """
    return sealed(document)[0]


def sealed(document: Mapping[str, Any]) -> tuple[str, Document]:
    """:func:`seal`'s text, and the same document as an object, its digest in place (for a
    backend that keeps objects, TinyDB's table, so it encodes the document once, not a decoded
    copy of the text)."""
    if REVISION_FIELD not in document:  # kept as given (a first creation, a test's fixture)
        return encode_compact(document), dict(document)
    head = _head_of(document)
    rest = {key: value for key, value in document.items() if key not in (REVISION_FIELD, DIGEST_FIELD)}
    body = encode_compact(rest)
    digest = _digest(head, body)
    text = "{" + head + f',"{DIGEST_FIELD}":"{digest}"' + ("," + body[1:] if body != "{}" else "}")
    return text, {REVISION_FIELD: document[REVISION_FIELD], DIGEST_FIELD: digest, **rest}


class Seal:
    """What a stored document's digest says of it: whether it reads back exactly as a
    store sealed it (:attr:`intact`: no byte changed by hand or damage), its size as
    compact JSON, and a digest of its content for checks it has passed (:attr:`digest`).
    Serialises the document once.

    :raises ValueError: for NaN or infinities; :raises RecursionError: nested absurdly deep.
    """

    def __init__(self, document: Mapping[str, Any]) -> None:
        head = _head_of(document)
        body = encode_compact({key: value for key, value in document.items() if key not in (REVISION_FIELD, DIGEST_FIELD)})
        self.digest = _digest(head, body)
        self.intact = document.get(DIGEST_FIELD) == self.digest
        self.size = len(head) + len(body) + 48


def revision_in_head(head: str) -> int | None:
    """The revision at the start of a text :func:`seal` wrote (its first :data:`HEAD_CHARS`
    characters are enough); ``None`` for any other text (read it in full)."""
    match = _HEAD.match(head)
    return int(match.group(1)) if match else None
