"""Where games, tournaments and settings are kept, behind one small async interface.

The app never talks to a file or to ``localStorage`` directly: it asks a
:class:`Store` to ``save``/``load``/``list_ids``/``delete`` JSON documents by
collection and id.  Three backends share that interface:

- :class:`MemoryStore`: the twin for tests (documents still go through JSON, so
  a test catches what a real store would refuse).
- :class:`FileStore`: the local app.  One small JSON file per game, written
  atomically (temp file, fsync, ``os.replace``), so a write stays cheap late in
  a long game and a crash never leaves half a file.  Tournaments and settings
  are small and rarely written: they live in one TinyDB database whose storage
  (:class:`AtomicJSONStorage`) writes the same atomic way, never TinyDB's
  in-place rewrite.
- :class:`PrefsStore`: the browser (PWA) build, over ``ft.SharedPreferences``
  (``localStorage``, about 5 MB per origin): documents are stored compressed and
  the store counts what it uses so the app can warn long before space runs out.

A file or entry that cannot be read never stops a store from opening: it is kept
aside untouched and listed in :attr:`Store.problems` so the app can name it.

Methods are async because the browser backend is; the file backend does its
(millisecond) I/O inline so that writes keep their order.

Typical use::

    store = FileStore(data_dir or default_data_dir())         # local app
    store = await PrefsStore.open(shared_preferences)          # browser build
    for problem in store.problems:                             # damaged files
        show(problem.message())
    await store.save("games", game_id, {"id": game_id, "events": game.events, ...})
    if (await store.usage()).nearly_full:
        offer_export_or_cleanup()
"""

from __future__ import annotations

import asyncio
import base64
import errno
import json
import os
import re
import secrets
import shutil
import sys
import threading
import zlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Final, Optional, Protocol, TypedDict, cast

from tinydb import TinyDB
from tinydb.storages import Storage
from tinydb.table import Document as TinyDocument
from tinydb.table import Table

__all__ = [
    "APP_DIR_NAME",
    "COLLECTIONS",
    "DATA_DIR_ENV",
    "FLET_DATA_DIR_ENV",
    "NEARLY_FULL_FRACTION",
    "PREFS_QUOTA_ESTIMATE_BYTES",
    "AtomicJSONStorage",
    "Document",
    "FileStore",
    "GameDocument",
    "MemoryPrefs",
    "MemoryStore",
    "PrefsLike",
    "PrefsStore",
    "StorageFullError",
    "StorageUsage",
    "Store",
    "StoreError",
    "StoreProblem",
    "StoreWriteError",
    "atomic_write_bytes",
    "default_data_dir",
    "encode_compact",
    "new_id",
    "utc_now_iso",
]

COLLECTIONS: Final = ("games", "tournaments", "settings")
"""Every collection a store holds; anything else is refused so a typo cannot
silently create a new, never-read place."""

APP_DIR_NAME: Final = "farkle-table"
DATA_DIR_ENV: Final = "FARKLE_TABLE_DATA"
FLET_DATA_DIR_ENV: Final = "FLET_APP_STORAGE_DATA"
"""Set by Flet in packaged (``flet build``) apps and by ``flet run``: the
app's durable data folder on a phone, where a home folder is not usable."""

PREFS_QUOTA_ESTIMATE_BYTES: Final = 5_000_000
"""What we assume ``localStorage`` grants one origin.  Chromium and Firefox
allow 5 MiB of characters, Safari 5 MB of (here ASCII) bytes; we count stored
characters and stay below all three."""

NEARLY_FULL_FRACTION: Final = 0.8

Document = dict[str, Any]
"""A JSON object: what every collection stores."""

_ID_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")
_UNREADABLE_MARK: Final = ".unreadable-"
_TEMP_SUFFIX: Final = ".tmp"


class GameDocument(TypedDict, total=False):
    """The shape the app saves in ``games`` (the store itself accepts any JSON
    object; this names the fields so every writer and reader agrees)."""

    id: str
    players: list[str]
    rules: dict[str, Any]
    events: list[dict[str, Any]]
    created: str
    updated: str
    finished: bool


class StoreError(Exception):
    """Base of every storage failure the app should show to a person."""


class StoreWriteError(StoreError):
    """A document could not be saved: the action must not be shown as accepted."""


class StorageFullError(StoreWriteError):
    """The browser refused the write for lack of space: offer export or cleanup."""


@dataclass(frozen=True)
class StoreProblem:
    """A stored file or entry that could not be read, and where it was kept.

    :param location: the file path or storage key that failed.
    :param reason: why it could not be read (parser message).
    :param kept_as: where the untouched bytes now are, or ``None`` when they
        were left in place.
    """

    location: str
    reason: str
    kept_as: Optional[str] = None

    def message(self) -> str:
        """A sentence for the person at the table."""
        where = f"kept aside as {self.kept_as}" if self.kept_as else "left where it was"
        return f"Could not read {self.location} ({self.reason}); it was {where}."


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


def utc_now_iso() -> str:
    """The current time as an ISO 8601 UTC string, for ``created``/``updated``."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_id() -> str:
    """A fresh document id that sorts by creation time and is safe as a file
    name and storage key, e.g. ``20261129-160700-3fa9c2``."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{secrets.token_hex(3)}"


def encode_compact(document: Mapping[str, Any]) -> str:
    """Compact, ASCII-only JSON; refuses NaN and infinities, which JSON cannot
    carry and which would come back as something else."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _check_key(collection: str, doc_id: str) -> None:
    if collection not in COLLECTIONS:
        raise ValueError(f"Unknown collection {collection!r}: expected one of {', '.join(COLLECTIONS)}")
    if not isinstance(doc_id, str) or not _ID_PATTERN.fullmatch(doc_id):
        raise ValueError(
            f"Document id {doc_id!r} is not usable: use 1 to 80 letters, digits, '-' or '_',"
            " starting with a letter or digit"
        )


def _encode_for_save(document: Mapping[str, Any]) -> str:
    if not isinstance(document, Mapping):
        raise TypeError(f"A document must be a JSON object (dict), not {type(document).__name__}")
    try:
        return encode_compact(document)
    except (TypeError, ValueError) as error:
        raise StoreWriteError(f"Document cannot be stored as JSON: {error}") from error


def _decode_document(text: str) -> Document:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, found {type(value).__name__}")
    return value


def _unreadable_stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


class Store(ABC):
    """Save, load, list and delete JSON documents by collection and id.

    Every ``save`` is durable when it returns: the caller may show the action
    as accepted.  A refused save raises :class:`StoreWriteError`.
    """

    def __init__(self) -> None:
        self._problems: list[StoreProblem] = []

    @property
    def problems(self) -> tuple[StoreProblem, ...]:
        """Files or entries that could not be read since the store opened."""
        return tuple(self._problems)

    @abstractmethod
    async def save(self, collection: str, doc_id: str, document: Mapping[str, Any]) -> None:
        """Create or replace one document."""

    @abstractmethod
    async def load(self, collection: str, doc_id: str) -> Optional[Document]:
        """The document, or ``None`` if there is none (or it was unreadable)."""

    @abstractmethod
    async def list_ids(self, collection: str) -> list[str]:
        """Ids of the readable documents in a collection, sorted."""

    @abstractmethod
    async def delete(self, collection: str, doc_id: str) -> bool:
        """Remove a document; ``False`` if there was none."""

    @abstractmethod
    async def usage(self) -> StorageUsage:
        """Space used and available, so the app can warn before it runs out."""

    async def bytes_used(self) -> int:
        """Shortcut for ``(await usage()).bytes_used``."""
        return (await self.usage()).bytes_used

    async def load_all(self, collection: str) -> dict[str, Document]:
        """Every readable document of a collection, by id (e.g. the home list)."""
        documents: dict[str, Document] = {}
        for doc_id in await self.list_ids(collection):
            document = await self.load(collection, doc_id)
            if document is not None:
                documents[doc_id] = document
        return documents

    def close(self) -> None:
        """Release resources; every save is already durable, so nothing is lost."""


class MemoryStore(Store):
    """The in-memory twin for tests: same rules and errors as the real stores
    (documents are kept as JSON text, so later changes to a saved dict do not
    leak in and non-JSON values are refused)."""

    def __init__(self) -> None:
        super().__init__()
        self._texts: dict[tuple[str, str], str] = {}

    async def save(self, collection: str, doc_id: str, document: Mapping[str, Any]) -> None:
        _check_key(collection, doc_id)
        self._texts[(collection, doc_id)] = _encode_for_save(document)

    async def load(self, collection: str, doc_id: str) -> Optional[Document]:
        _check_key(collection, doc_id)
        text = self._texts.get((collection, doc_id))
        return None if text is None else _decode_document(text)

    async def list_ids(self, collection: str) -> list[str]:
        _check_key(collection, "x")
        return sorted(doc_id for (coll, doc_id) in self._texts if coll == collection)

    async def delete(self, collection: str, doc_id: str) -> bool:
        _check_key(collection, doc_id)
        return self._texts.pop((collection, doc_id), None) is not None

    async def usage(self) -> StorageUsage:
        return StorageUsage(sum(len(text) for text in self._texts.values()), None)


def _fsync_directory(directory: Path) -> None:
    """Make a rename durable (POSIX); Windows has no directory handles to sync."""
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash at any moment leaves
    either the old file or the new one, never a mix.

    Writes a temp file in the same folder, fsyncs it, ``os.replace``s it over
    the target, then fsyncs the folder so the rename itself survives power loss.
    """
    directory = path.parent
    temp_path = directory / f".{path.name}.{secrets.token_hex(4)}{_TEMP_SUFFIX}"
    try:
        with open(temp_path, "wb") as temp_file:
            temp_file.write(data)
            temp_file.flush()
            os.fsync(temp_file.fileno())
        os.replace(temp_path, path)
    except BaseException:
        temp_path.unlink(missing_ok=True)
        raise
    _fsync_directory(directory)


class AtomicJSONStorage(Storage):
    """A TinyDB storage that replaces its file atomically on every write.

    TinyDB's own ``JSONStorage`` rewrites the file in place (seek, write,
    truncate): a crash mid-write leaves broken JSON.  This one reads the whole
    file and writes through :func:`atomic_write_bytes`; unreadable content
    raises ``ValueError`` instead of being overwritten.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def read(self) -> Optional[dict[str, dict[str, Any]]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        if not text.strip():
            return None
        data = json.loads(text)
        if not isinstance(data, dict) or not all(isinstance(table, dict) for table in data.values()):
            raise ValueError("not a TinyDB database (expected an object of tables)")
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write_bytes(self.path, encode_compact(data).encode("ascii"))


class _StrIdTable(Table):
    """A TinyDB table whose document ids are our string ids."""

    document_id_class = str  # type: ignore[assignment]


def _tinydb_id(doc_id: str) -> int:
    """TinyDB's annotations say ids are ints; :class:`_StrIdTable` uses strings."""
    return cast(int, doc_id)


class FileStore(Store):
    """Documents on disk under one data folder.

    Layout: ``games/<id>.json`` (one file per game, so a write late in a long
    game costs one small file) and ``farkle-table.json``, a TinyDB database
    with the ``tournaments`` and ``settings`` tables.  Opening checks every
    file; one that cannot be read is renamed ``<name>.unreadable-<UTC time>``
    (bytes untouched) and reported in :attr:`problems`.
    """

    PER_FILE_COLLECTIONS: Final = ("games",)
    DATABASE_FILE_NAME: Final = "farkle-table.json"

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        """Open (creating if needed) the store in ``data_dir``.

        :param data_dir: the data folder, e.g. :func:`default_data_dir()`.
        """
        super().__init__()
        self.data_dir = Path(data_dir)
        # Two sessions (tabs) share one store; TinyDB's read-modify-write and
        # the keep-aside rename must not interleave if a caller uses threads.
        self._lock = threading.RLock()
        for collection in self.PER_FILE_COLLECTIONS:
            (self.data_dir / collection).mkdir(parents=True, exist_ok=True)
        self._remove_stale_temp_files()
        self._check_per_file_documents()
        database_path = self.data_dir / self.DATABASE_FILE_NAME
        self._open_database(database_path)

    def _open_database(self, database_path: Path) -> None:
        try:
            AtomicJSONStorage(database_path).read()
        except (ValueError, UnicodeDecodeError) as error:
            self._keep_aside(database_path, str(error))
        self._database = TinyDB(database_path, storage=AtomicJSONStorage)

    def _table(self, collection: str) -> Table:
        return _StrIdTable(self._database.storage, collection, cache_size=0)

    def _remove_stale_temp_files(self) -> None:
        """A temp file left by a crash belongs to a save that never returned,
        so its action was never shown as accepted: drop it."""
        for folder in [self.data_dir, *(self.data_dir / c for c in self.PER_FILE_COLLECTIONS)]:
            for temp_path in folder.glob(f".*{_TEMP_SUFFIX}"):
                temp_path.unlink(missing_ok=True)

    def _check_per_file_documents(self) -> None:
        for collection in self.PER_FILE_COLLECTIONS:
            for path in sorted((self.data_dir / collection).glob("*.json")):
                try:
                    _decode_document(path.read_text(encoding="utf-8"))
                except (ValueError, UnicodeDecodeError) as error:
                    self._keep_aside(path, str(error))

    def _keep_aside(self, path: Path, reason: str) -> None:
        kept_as = path.with_name(f"{path.name}{_UNREADABLE_MARK}{_unreadable_stamp()}")
        try:
            os.replace(path, kept_as)
        except OSError:
            self._problems.append(StoreProblem(str(path), reason, None))
            return
        self._problems.append(StoreProblem(str(path), reason, str(kept_as)))

    def _document_path(self, collection: str, doc_id: str) -> Path:
        return self.data_dir / collection / f"{doc_id}.json"

    async def save(self, collection: str, doc_id: str, document: Mapping[str, Any]) -> None:
        _check_key(collection, doc_id)
        text = _encode_for_save(document)
        try:
            with self._lock:
                if collection in self.PER_FILE_COLLECTIONS:
                    atomic_write_bytes(self._document_path(collection, doc_id), text.encode("ascii"))
                    return
                stored = json.loads(text)
                table = self._table(collection)
                if table.contains(doc_id=_tinydb_id(doc_id)):
                    table.update(_replace_with(stored), doc_ids=[_tinydb_id(doc_id)])
                else:
                    table.insert(TinyDocument(stored, doc_id=_tinydb_id(doc_id)))
        except OSError as error:
            if error.errno == errno.ENOSPC:
                raise StorageFullError(f"The disk is full: could not save {collection}/{doc_id}") from error
            raise StoreWriteError(f"Could not save {collection}/{doc_id}: {error}") from error

    async def load(self, collection: str, doc_id: str) -> Optional[Document]:
        _check_key(collection, doc_id)
        with self._lock:
            if collection not in self.PER_FILE_COLLECTIONS:
                found = self._table(collection).get(doc_id=_tinydb_id(doc_id))
                return None if found is None else dict(found)
            path = self._document_path(collection, doc_id)
            try:
                return _decode_document(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                return None
            except (ValueError, UnicodeDecodeError) as error:
                self._keep_aside(path, str(error))
                return None

    async def list_ids(self, collection: str) -> list[str]:
        _check_key(collection, "x")
        with self._lock:
            if collection not in self.PER_FILE_COLLECTIONS:
                return sorted(str(document.doc_id) for document in self._table(collection).all())
            return sorted(
                path.stem
                for path in (self.data_dir / collection).glob("*.json")
                if _ID_PATTERN.fullmatch(path.stem)
            )

    async def delete(self, collection: str, doc_id: str) -> bool:
        _check_key(collection, doc_id)
        with self._lock:
            if collection not in self.PER_FILE_COLLECTIONS:
                table = self._table(collection)
                if not table.contains(doc_id=_tinydb_id(doc_id)):
                    return False
                table.remove(doc_ids=[_tinydb_id(doc_id)])
                return True
            path = self._document_path(collection, doc_id)
            try:
                path.unlink()
            except FileNotFoundError:
                return False
            _fsync_directory(path.parent)
            return True

    async def usage(self) -> StorageUsage:
        used = sum(path.stat().st_size for path in self.data_dir.rglob("*") if path.is_file())
        free = shutil.disk_usage(self.data_dir).free
        return StorageUsage(used, used + free)

    def close(self) -> None:
        self._database.close()


def _replace_with(new_document: Document) -> Any:
    """A TinyDB update that replaces the whole document (TinyDB's ``update``
    only merges fields, which would keep fields the app removed)."""

    def replace(stored: dict[str, Any]) -> None:
        stored.clear()
        stored.update(new_document)

    return replace


class PrefsLike(Protocol):
    """What :class:`PrefsStore` needs: ``ft.SharedPreferences`` has exactly this."""

    async def get(self, key: str) -> Any: ...

    async def set(self, key: str, value: Any) -> bool: ...

    async def remove(self, key: str) -> bool: ...

    async def get_keys(self, key_prefix: str) -> list[str]: ...


def _stored_chars(key: str, value: str) -> int:
    """Characters ``localStorage`` holds for one entry: Flutter's web plugin
    stores ``"flutter." + key`` and the JSON encoding of the value."""
    return len("flutter.") + len(key) + len(json.dumps(value))


class MemoryPrefs:
    """An in-memory stand-in for ``ft.SharedPreferences`` (tests, and the app's
    own client-less tests).  With ``quota_bytes`` it refuses writes past that
    many stored characters, the way a full ``localStorage`` does."""

    def __init__(self, quota_bytes: Optional[int] = None) -> None:
        self.values: dict[str, Any] = {}
        self.quota_bytes = quota_bytes

    def stored_chars(self) -> int:
        """Characters all entries take, counted like :func:`_stored_chars`."""
        return sum(_stored_chars(k, v if isinstance(v, str) else json.dumps(v)) for k, v in self.values.items())

    async def get(self, key: str) -> Any:
        return self.values.get(key)

    async def set(self, key: str, value: Any) -> bool:
        if self.quota_bytes is not None:
            previous = self.values.get(key)
            before = self.stored_chars() - (0 if previous is None else _stored_chars(key, str(previous)))
            if before + _stored_chars(key, str(value)) > self.quota_bytes:
                raise RuntimeError("QuotaExceededError: Failed to execute 'setItem' on 'Storage'")
        self.values[key] = value
        return True

    async def remove(self, key: str) -> bool:
        return self.values.pop(key, None) is not None

    async def get_keys(self, key_prefix: str) -> list[str]:
        return [key for key in self.values if key.startswith(key_prefix)]


_PLAIN_TAG: Final = "j:"
_ZLIB_TAG: Final = "z:"


def _encode_for_prefs(text: str) -> str:
    """The shorter of plain JSON and base64 zlib (an event log of a finished
    game shrinks about tenfold); base64 needs no escaping in ``localStorage``,
    whereas JSON's quotes double up when the plugin JSON-encodes the string."""
    plain = _PLAIN_TAG + text
    packed = _ZLIB_TAG + base64.b64encode(zlib.compress(text.encode("ascii"), 9)).decode("ascii")
    return min(plain, packed, key=lambda value: len(json.dumps(value)))


def _decode_from_prefs(value: Any) -> Document:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, found {type(value).__name__}")
    if value.startswith(_PLAIN_TAG):
        return _decode_document(value[len(_PLAIN_TAG):])
    if value.startswith(_ZLIB_TAG):
        try:
            raw = zlib.decompress(base64.b64decode(value[len(_ZLIB_TAG):], validate=True))
        except (zlib.error, ValueError) as error:
            raise ValueError(f"damaged compressed data: {error}") from error
        return _decode_document(raw.decode("ascii"))
    raise ValueError("unknown format")


class PrefsStore(Store):
    """Documents in the browser's ``localStorage`` through ``ft.SharedPreferences``.

    One entry per document, key ``<namespace><collection>/<id>``, value
    compressed (see :func:`_encode_for_prefs`).  Open it with
    ``await PrefsStore.open(prefs)``: that reads every entry once (each read is
    a round trip to the client), reports the unreadable ones (left in place,
    skipped), counts the space used, and keeps the stored strings in memory
    (a few KB per game), so later loads and :meth:`usage` cost no round trip.
    Only ``save`` and ``delete`` talk to the browser after that.  One tab per
    origin is assumed: another tab's later writes are not seen until reopening.
    """

    def __init__(self, prefs: PrefsLike, namespace: str = f"{APP_DIR_NAME}/",
                 quota_bytes: int = PREFS_QUOTA_ESTIMATE_BYTES) -> None:
        """Prefer :meth:`open`; this constructor reads nothing (loads then
        fetch each entry on first use)."""
        super().__init__()
        self.prefs = prefs
        self.namespace = namespace
        self.quota_bytes = quota_bytes
        self._values: dict[str, str] = {}
        self._sizes: dict[str, int] = {}
        self._unreadable: set[str] = set()

    @classmethod
    async def open(cls, prefs: PrefsLike, namespace: str = f"{APP_DIR_NAME}/",
                   quota_bytes: int = PREFS_QUOTA_ESTIMATE_BYTES) -> PrefsStore:
        """Open the store, checking, measuring and caching every entry it owns."""
        store = cls(prefs, namespace, quota_bytes)
        keys = sorted(await prefs.get_keys(namespace))
        values = await asyncio.gather(*(prefs.get(key) for key in keys))  # one round trip's wait, not one each
        for key, value in zip(keys, values):
            store._remember(key, value)
        return store

    def _remember(self, key: str, value: Any) -> Optional[Document]:
        """Record one stored entry; returns it decoded, or ``None`` if unreadable."""
        if value is None:
            return None
        self._sizes[key] = _stored_chars(key, value if isinstance(value, str) else json.dumps(value))
        try:
            document = _decode_from_prefs(value)
        except (ValueError, UnicodeDecodeError) as error:
            self._unreadable.add(key)
            self._problems.append(StoreProblem(key, str(error), None))
            return None
        self._values[key] = value
        return document

    def _key(self, collection: str, doc_id: str) -> str:
        return f"{self.namespace}{collection}/{doc_id}"

    async def save(self, collection: str, doc_id: str, document: Mapping[str, Any]) -> None:
        _check_key(collection, doc_id)
        key = self._key(collection, doc_id)
        value = _encode_for_prefs(_encode_for_save(document))
        size = _stored_chars(key, value)
        try:
            accepted = await self.prefs.set(key, value)
        except Exception as error:  # the browser's QuotaExceededError arrives as RuntimeError
            if "quota" in str(error).lower():
                raise StorageFullError(
                    f"Browser storage is full: could not save {collection}/{doc_id} ({size} bytes)"
                ) from error
            raise StoreWriteError(f"Could not save {collection}/{doc_id}: {error}") from error
        if accepted is False:
            raise StoreWriteError(f"The browser refused to save {collection}/{doc_id} ({size} bytes)")
        self._values[key] = value
        self._sizes[key] = size
        self._unreadable.discard(key)

    async def load(self, collection: str, doc_id: str) -> Optional[Document]:
        _check_key(collection, doc_id)
        key = self._key(collection, doc_id)
        if key in self._unreadable:
            return None
        if key in self._values:
            return _decode_from_prefs(self._values[key])
        return self._remember(key, await self.prefs.get(key))

    async def list_ids(self, collection: str) -> list[str]:
        _check_key(collection, "x")
        prefix = self._key(collection, "")
        return sorted(
            key[len(prefix):]
            for key in await self.prefs.get_keys(prefix)
            if key not in self._unreadable and _ID_PATTERN.fullmatch(key[len(prefix):])
        )

    async def delete(self, collection: str, doc_id: str) -> bool:
        _check_key(collection, doc_id)
        key = self._key(collection, doc_id)
        existed = key in self._values or key in self._unreadable or await self.prefs.get(key) is not None
        if existed:
            await self.prefs.remove(key)
        self._values.pop(key, None)
        self._sizes.pop(key, None)
        self._unreadable.discard(key)
        return existed

    async def usage(self) -> StorageUsage:
        return StorageUsage(sum(self._sizes.values()), self.quota_bytes)


def default_data_dir(environ: Optional[Mapping[str, str]] = None,
                     platform: Optional[str] = None,
                     home: Optional[Path] = None) -> Path:
    """The per-user folder for the local app's data.

    ``$FARKLE_TABLE_DATA`` wins; then ``$FLET_APP_STORAGE_DATA/farkle-table``
    (a packaged Flet app on a phone, or ``flet run``); otherwise
    ``$XDG_DATA_HOME/farkle-table`` or
    ``~/.local/share/farkle-table`` on Linux, ``~/Library/Application
    Support/farkle-table`` on macOS, ``%LOCALAPPDATA%\\farkle-table`` on
    Windows.  The parameters exist for tests; the app passes none.
    """
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if env.get(DATA_DIR_ENV):
        return Path(env[DATA_DIR_ENV]).expanduser()
    if env.get(FLET_DATA_DIR_ENV):
        return Path(env[FLET_DATA_DIR_ENV]) / APP_DIR_NAME
    if platform == "darwin":
        return home / "Library" / "Application Support" / APP_DIR_NAME
    if platform.startswith("win"):
        base = env.get("LOCALAPPDATA") or env.get("APPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / APP_DIR_NAME
    xdg = env.get("XDG_DATA_HOME")
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base_dir / APP_DIR_NAME
