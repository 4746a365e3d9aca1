"""The browser (PWA) store: documents in ``localStorage`` through ``ft.SharedPreferences``."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import zlib
from datetime import datetime, timezone
from typing import Any, Final, Optional, Protocol

from app.storage.base import NEARLY_FULL_FRACTION, StorageUsage, Store, StoreProblem
from app.storage.documents import HEAD_CHARS, COLLECTIONS, Document, decode_document, is_usable_id, revision_in_head
from app.storage.errors import StorageFullError, StoreWriteError
from app.storage.limits import MAX_DOCUMENT_BYTES, size_problem
from app.storage.location import APP_DIR_NAME
from engine.event_log import kind_of

__all__ = ["PREFS_QUOTA_ESTIMATE_BYTES", "MemoryPrefs", "PrefsLike", "PrefsStore"]

PREFS_QUOTA_ESTIMATE_BYTES: Final = 5_000_000
"""What we assume ``localStorage`` grants one origin.  Chromium and Firefox
allow 5 MiB of characters, Safari 5 MB of (here ASCII) bytes; we count stored
characters and stay below all three."""


class PrefsLike(Protocol):
    """What :class:`PrefsStore` needs: ``ft.SharedPreferences`` has exactly this."""

    async def get(self, key: str) -> Any: ...

    async def set(self, key: str, value: Any) -> bool: ...

    async def remove(self, key: str) -> bool: ...

    async def get_keys(self, key_prefix: str) -> list[str]: ...


def _stored_chars(key: str, value: str) -> int:
    """Characters ``localStorage`` holds for one entry: Flutter's web plugin
    stores ``"flutter." + key`` and the JSON encoding of the value."""
    return len("flutter.") + len(key) + _json_chars(value)


def _json_chars(text: str) -> int:
    """``len(json.dumps(text))`` without writing it out again: what the app stores is ASCII
    (compact JSON, base64), whose only escaped characters are quotes and backslashes."""
    if text.isascii() and text.isprintable():
        return len(text) + 2 + text.count('"') + text.count("\\")
    return len(json.dumps(text))


class MemoryPrefs:
    """An in-memory stand-in for ``ft.SharedPreferences`` (tests, and the app's
    own client-less tests).  Two stores over one ``MemoryPrefs`` behave like two
    tabs of one origin.  With ``quota_bytes`` it refuses writes past that many
    stored characters, the way a full ``localStorage`` does, and like Flutter's
    plugin it still hands out a refused value afterwards (see :attr:`refused`)."""

    def __init__(self, quota_bytes: Optional[int] = None) -> None:
        self.values: dict[str, Any] = {}
        """What ``localStorage`` holds (without the plugin's ``"flutter."`` prefix)."""
        self.refused: dict[str, Any] = {}
        """Values the full storage refused that reads still return: Flutter's
        ``SharedPreferences`` puts a value in its own cache before writing it to
        ``localStorage`` and keeps it there when the write throws (until the page reloads)."""
        self.quota_bytes = quota_bytes

    def stored_chars(self) -> int:
        """Characters all entries take, counted like ``localStorage`` does."""
        return sum(_stored_chars(k, v if isinstance(v, str) else json.dumps(v)) for k, v in self.values.items())

    async def get(self, key: str) -> Any:
        return self.refused[key] if key in self.refused else self.values.get(key)

    async def set(self, key: str, value: Any) -> bool:
        if self.quota_bytes is not None:
            previous = self.values.get(key)
            before = self.stored_chars() - (0 if previous is None else _stored_chars(key, str(previous)))
            if before + _stored_chars(key, str(value)) > self.quota_bytes:
                self.refused[key] = value
                raise RuntimeError("QuotaExceededError: Failed to execute 'setItem' on 'Storage'")
        self.refused.pop(key, None)
        self.values[key] = value
        return True

    async def remove(self, key: str) -> bool:
        self.refused.pop(key, None)
        return self.values.pop(key, None) is not None

    async def get_keys(self, key_prefix: str) -> list[str]:
        return [key for key in {**self.values, **self.refused} if key.startswith(key_prefix)]


_PLAIN_TAG: Final = "j:"
_ZLIB_TAG: Final = "z:"
_FORMAT_TAG: Final = re.compile(r"[a-z]:")
"""How an entry's form is named at its start (``j:``, ``z:``); another letter is a newer app's."""
KEPT_ASIDE: Final = "kept-aside/"
INDEX: Final = "index/"
"""Under the namespace, each collection's index (:mod:`app.storage.index`): ``<namespace>index/games``."""
"""Under the namespace, where entries that cannot be used are moved (value untouched):
``<namespace>kept-aside/<collection>/<id>.unreadable-<UTC time>``."""


def _encode_for_prefs(text: str) -> str:
    """The shorter of plain JSON and base64 zlib (an event log of a finished
    game shrinks about tenfold); base64 needs no escaping in ``localStorage``,
    whereas JSON's quotes double up when the plugin JSON-encodes the string."""
    plain = _PLAIN_TAG + text
    packed = _ZLIB_TAG + base64.b64encode(zlib.compress(text.encode("ascii"), 9)).decode("ascii")
    return min(plain, packed, key=_json_chars)


def _decode_from_prefs(value: Any) -> Document:
    return decode_document(_text_from_prefs(value))


def _text_from_prefs(value: Any) -> str:
    """The JSON text an entry holds, unpacked.

    :raises ValueError: it is not an entry this store wrote, or is past the size limit; the
        message says what it holds instead, in a player's words.
    """
    if not isinstance(value, str):
        raise ValueError(f"it holds {kind_of(value)} where the app keeps a text")
    too_large = size_problem(len(value))
    if too_large is not None:
        raise ValueError(too_large)
    if value.startswith(_PLAIN_TAG):
        return value[len(_PLAIN_TAG):]
    if value.startswith(_ZLIB_TAG):
        try:
            unpacker = zlib.decompressobj()
            raw = unpacker.decompress(base64.b64decode(value[len(_ZLIB_TAG):], validate=True), MAX_DOCUMENT_BYTES + 1)
        except (zlib.error, ValueError) as error:
            raise ValueError(f"its packed data is damaged or cut short ({error})") from error
        if not unpacker.eof and len(raw) <= MAX_DOCUMENT_BYTES:
            raise ValueError("its packed data is damaged or cut short (it ends too soon)")
        if len(raw) > MAX_DOCUMENT_BYTES:
            raise ValueError(f"too large: over {MAX_DOCUMENT_BYTES:,} bytes once unpacked")
        return raw.decode("ascii")
    if not value:
        raise ValueError("it is empty")
    if _FORMAT_TAG.match(value):
        raise ValueError(f"it is in a form this version of the app does not read ({value[:2]!r}): "
                         "saved by a newer version?")
    raise ValueError(f"it is not in the form this app saves: it begins with {value[:12]!r}")


_HEAD_PACKED_CHARS: Final = 1024
"""Base64 characters unpacked to read a packed entry's first characters (its revision)."""


def _head_from_prefs(value: Any) -> str:
    """The first characters of the JSON text an entry holds, without unpacking the rest
    ("" when they cannot be had so)."""
    if not isinstance(value, str):
        return ""
    if value.startswith(_PLAIN_TAG):
        return value[len(_PLAIN_TAG):len(_PLAIN_TAG) + HEAD_CHARS]
    if value.startswith(_ZLIB_TAG):
        packed = value[len(_ZLIB_TAG):len(_ZLIB_TAG) + _HEAD_PACKED_CHARS]
        try:
            return zlib.decompressobj().decompress(base64.b64decode(packed[:len(packed) // 4 * 4]), HEAD_CHARS).decode("ascii")
        except (zlib.error, ValueError):
            return ""
    return ""


class PrefsStore(Store):
    """Documents in the browser's ``localStorage`` through ``ft.SharedPreferences``.

    One entry per document, key ``<namespace><collection>/<id>``, value
    compressed (see :func:`_encode_for_prefs`).  Open it with
    ``await PrefsStore.open(prefs)``: that reads every entry once (each read is
    a round trip to the client), moves the unreadable ones aside (to a
    :data:`KEPT_ASIDE` key, value untouched; left in place and skipped if the
    browser refuses the move) and reports them, and counts the space used.

    Several tabs of the app may share the origin's storage, so a ``load`` and the
    revision check of a ``save`` read that document's entry afresh; the entries
    kept in memory serve only listings (:meth:`load_all`, e.g. the home screen's
    game list) and :meth:`usage`.  ``localStorage`` offers no compare-and-set
    across tabs: a save in another tab landing within the one round trip between
    this store's check and its write is not detected.

    In the PWA every value reaches the store, damaged or not: the page hands Flutter's
    plugin any ``"flutter."`` value that is not a JSON text as its raw characters
    (app/web/local_storage.js), so an entry cut short or typed by hand is kept aside
    as that text and named like any other unreadable entry.
    """

    def __init__(self, prefs: PrefsLike, namespace: str = f"{APP_DIR_NAME}/",
                 quota_bytes: int = PREFS_QUOTA_ESTIMATE_BYTES) -> None:
        """Prefer :meth:`open`; this constructor reads nothing (entries are then
        fetched on first use)."""
        super().__init__()
        self.prefs = prefs
        self.namespace = namespace
        self.quota_bytes = quota_bytes
        self._values: dict[str, str] = {}
        self._sizes: dict[str, int] = {}
        self._unreadable: dict[str, Any] = {}
        self._to_move: dict[str, tuple[Any, str]] = {}
        self._seen: dict[str, Any] = {}
        """The value each key had when this store last read or wrote it (None: absent)."""

    @classmethod
    async def open(cls, prefs: PrefsLike, namespace: str = f"{APP_DIR_NAME}/",
                   quota_bytes: int = PREFS_QUOTA_ESTIMATE_BYTES) -> PrefsStore:
        """Open the store, checking, measuring and caching every entry it owns."""
        store = cls(prefs, namespace, quota_bytes)
        keys = sorted(await prefs.get_keys(namespace))
        values = await asyncio.gather(*(prefs.get(key) for key in keys))  # one round trip's wait, not one each
        for key, value in zip(keys, values):
            if store._is_document_key(key):
                store._remember(key, value)
            elif value is not None:  # kept aside, or not ours to read: counted only
                store._sizes[key] = _stored_chars(key, value if isinstance(value, str) else json.dumps(value))
        await store._move_aside_unreadable()
        return store

    def _is_document_key(self, key: str) -> bool:
        collection, _, doc_id = key[len(self.namespace):].partition("/")
        return key.startswith(self.namespace) and collection in COLLECTIONS and is_usable_id(doc_id)

    def _remember(self, key: str, value: Any) -> Optional[Document]:
        """Record what is stored under ``key`` now; returns it decoded, or ``None``
        if there is nothing or it is unreadable (then due to be moved aside by
        :meth:`_move_aside_unreadable`, and reported once per value)."""
        if value is None:
            self._forget(key)
            return None
        self._seen[key] = value
        self._sizes[key] = _stored_chars(key, value if isinstance(value, str) else json.dumps(value))
        try:
            document = _decode_from_prefs(value)
        except (ValueError, UnicodeDecodeError) as error:
            self._values.pop(key, None)
            if key not in self._unreadable or self._unreadable[key] != value:
                self._to_move[key] = (value, str(error))
            self._unreadable[key] = value
            return None
        self._values[key] = value
        self._unreadable.pop(key, None)
        return document

    async def _move_aside_unreadable(self) -> None:
        """Move every entry found unreadable to its kept-aside key and report it."""
        while self._to_move:
            key, (value, reason) = self._to_move.popitem()
            self._problems.append(await self._move_aside(key, value, reason))

    async def _move_aside(self, key: str, value: Any, reason: str) -> StoreProblem:
        """Write ``value`` untouched under a kept-aside key, then remove ``key``;
        if the browser refuses (full), or another tab changed the entry meanwhile,
        it stays where it is, skipped."""
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        kept_as = f"{self.namespace}{KEPT_ASIDE}{key[len(self.namespace):]}.unreadable-{stamp}"
        try:
            if await self.prefs.get(key) != value or await self.prefs.set(kept_as, value) is False:
                return StoreProblem(key, reason, None)
            await self.prefs.remove(key)
        except Exception:  # a full localStorage refuses with a RuntimeError; the entry stays, skipped
            return StoreProblem(key, reason, None)
        self._forget(key)
        self._sizes[kept_as] = _stored_chars(kept_as, value if isinstance(value, str) else json.dumps(value))
        return StoreProblem(key, reason, kept_as)

    def _forget(self, key: str) -> None:
        self._seen[key] = None
        self._values.pop(key, None)
        self._sizes.pop(key, None)
        self._unreadable.pop(key, None)

    def _key(self, collection: str, doc_id: str) -> str:
        return f"{self.namespace}{collection}/{doc_id}"

    async def _read(self, collection: str, doc_id: str) -> Optional[Document]:
        key = self._key(collection, doc_id)
        document = self._remember(key, await self.prefs.get(key))
        await self._move_aside_unreadable()
        return document

    async def _stored_revision(self, collection: str, doc_id: str) -> Optional[int]:
        """Off the entry's first characters (a long log is not unpacked and parsed to be
        written again); what is read is what a refused write puts back (:meth:`_put_back`)."""
        key = self._key(collection, doc_id)
        value = await self.prefs.get(key)
        if value is None:
            return None  # read as a whole: a missing entry is forgotten as a read forgets it
        self._seen[key] = value
        return revision_in_head(_head_from_prefs(value))

    async def _keep_aside(self, collection: str, doc_id: str, reason: str) -> StoreProblem:
        key = self._key(collection, doc_id)
        return await self._move_aside(key, await self.prefs.get(key), reason)

    async def _write(self, collection: str, doc_id: str, text: str, document: Document) -> None:
        key = self._key(collection, doc_id)
        value = _encode_for_prefs(text)
        size = _stored_chars(key, value)
        try:
            accepted = await self.prefs.set(key, value)
        except Exception as error:  # the browser's QuotaExceededError arrives as RuntimeError
            await self._put_back(key)
            if "quota" in str(error).lower():
                raise StorageFullError(
                    f"Browser storage is full: could not save {collection}/{doc_id} ({size} bytes)"
                ) from error
            raise StoreWriteError(f"Could not save {collection}/{doc_id}: {error}") from error
        if accepted is False:
            await self._put_back(key)
            raise StoreWriteError(f"The browser refused to save {collection}/{doc_id} ({size} bytes)")
        self._seen[key], self._values[key], self._sizes[key] = value, value, size  # ours: no need to read it back
        self._unreadable.pop(key, None)

    async def _put_back(self, key: str) -> None:
        """After a refused write: Flutter's ``SharedPreferences`` caches a value before it
        writes it and keeps it when ``localStorage`` throws, so this tab would go on reading
        a save that never happened (a new game listed on Home, a revision check failing).
        Give it back what is stored: the value read by the revision check just before (as
        large as what the full storage holds already, so it is taken), or no entry."""
        if key not in self._seen:
            return  # never read here (an unconditional write): nothing known to put back
        previous = self._seen[key]
        try:
            if previous is None:
                await self.prefs.remove(key)
            else:
                await self.prefs.set(key, previous)
        except Exception:  # noqa: BLE001 - nothing more to do; the save is refused all the same
            pass

    async def _remove(self, collection: str, doc_id: str) -> bool:
        key = self._key(collection, doc_id)
        existed = await self.prefs.get(key) is not None  # another tab may have removed it already
        if existed:
            await self.prefs.remove(key)
        self._forget(key)
        return existed

    async def _ids(self, collection: str) -> list[str]:
        prefix = self._key(collection, "")
        return [
            key[len(prefix):]
            for key in await self.prefs.get_keys(prefix)
            if key not in self._unreadable and is_usable_id(key[len(prefix):])
        ]

    async def load_all(self, collection: str) -> dict[str, Document]:
        """Every readable document of a collection, by id: a listing, served from the
        entries kept in memory; only entries this store has not seen are fetched
        (all at once)."""
        doc_ids = await self.list_ids(collection)
        unseen = [self._key(collection, doc_id) for doc_id in doc_ids
                  if self._key(collection, doc_id) not in self._values]
        for key, value in zip(unseen, await asyncio.gather(*(self.prefs.get(key) for key in unseen))):
            self._remember(key, value)
        await self._move_aside_unreadable()
        documents: dict[str, Document] = {}
        for doc_id in doc_ids:
            value = self._values.get(self._key(collection, doc_id))
            if value is not None:
                document = await self._usable(collection, doc_id, _decode_from_prefs(value))
                if document is not None:
                    documents[doc_id] = document
        return documents

    async def _stamps(self, collection: str) -> dict[str, Optional[str]]:
        """A digest of each entry's value as this store last read it (another tab's
        save reaches this store as :meth:`load_all` sees it: when it first reads that entry)."""
        prefix = self._key(collection, "")
        keys = [key for key in await self.prefs.get_keys(prefix)
                if is_usable_id(key[len(prefix):]) and key not in self._unreadable]
        unseen = [key for key in keys if key not in self._values]
        for key, value in zip(unseen, await asyncio.gather(*(self.prefs.get(key) for key in unseen))):
            self._remember(key, value)
        await self._move_aside_unreadable()
        return {key[len(prefix):]: hashlib.blake2b(self._values[key].encode("utf-8"), digest_size=16).hexdigest()
                for key in keys if key in self._values}

    async def _read_index(self, collection: str) -> Optional[str]:
        try:
            return _text_from_prefs(await self.prefs.get(f"{self.namespace}{INDEX}{collection}"))
        except (ValueError, UnicodeDecodeError):
            return None

    async def _write_index(self, collection: str, text: str) -> None:
        """Kept compressed, and only while the games keep room to grow: in a nearly full
        browser storage the index is dropped (rebuilt as each tab opens) before a game is."""
        key = f"{self.namespace}{INDEX}{collection}"
        value = _encode_for_prefs(text)
        size = _stored_chars(key, value)
        others = sum(self._sizes.values()) - self._sizes.get(key, 0)
        try:
            if others + size <= self.quota_bytes * NEARLY_FULL_FRACTION and await self.prefs.set(key, value) is not False:
                self._sizes[key] = size
                return
            await self.prefs.remove(key)
        except Exception:  # noqa: BLE001 - a full storage refuses; the index is only a cache
            try:
                await self.prefs.remove(key)
            except Exception:  # noqa: BLE001 - nothing more to do
                pass
        self._sizes.pop(key, None)

    async def usage(self) -> StorageUsage:
        return StorageUsage(sum(self._sizes.values()), self.quota_bytes)
