"""The local app's store: documents in one data folder on disk."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import secrets
import shutil
import threading
import weakref
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final, Optional

from tinydb import TinyDB

from app.storage.atomic import TEMP_SUFFIX, AtomicJSONStorage, FaultHook
from app.storage.base import StorageUsage, Store, StoreProblem
from app.storage.documents import COLLECTIONS, Document, encode_compact
from app.storage.errors import FULL_DISK_ERRNOS, StorageFullError, StoreWriteError
from app.storage.layouts import Layout, OneFilePerDocument, TinyDBTable, keep_aside, remove_stale_temp_files
from app.storage.limits import MAX_DOCUMENT_BYTES, size_problem
from app.storage.lock import HOLDER_FILE_NAME, LOCK_FILE_NAME, claim_folder

__all__ = ["FileStore"]

_NOT_WRITABLE: Final = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
"""A read-only disk (or one remounted so after an error), or a folder made not ours to write."""


class FileStore(Store):
    """Documents on disk under one data folder.

    Layout (each collection's place is chosen once, in :meth:`_layouts`)::

        games/<id>.json          one small file per game: written after every action
        tournaments/<id>.json    one small file per event: written after every result
        beside/<id>.json         what the device keeps beside a game or event of that id
        farkle-table.json        TinyDB database, table "settings" (small, seldom written)
        .games-index.json        Home's list (:meth:`summaries`): a cache, rebuilt from the games

    Every document is replaced atomically (temp file, fsync, rename).  Folders written
    before tournaments had their own files kept them in a ``tournaments`` table of
    ``farkle-table.json``: opening moves them out (each file written before the
    table is dropped, so a crash in between loses nothing).

    Opening checks every file; one that cannot be read (not JSON, nested absurdly
    deep, past the size limit, a folder where a file belongs) is renamed
    ``<name>.unreadable-<UTC time>`` (bytes untouched) and reported in
    :attr:`problems`; so is one that later fails its checks (:meth:`check_with`).
    The store's I/O runs inline (milliseconds) and never yields to the event loop,
    so one thread lock makes each revision check and its write a single step for
    coroutines and threads alike.

    Opening claims the folder for this process (:func:`~app.storage.lock.claim_folder`,
    an OS file lock): another process opening it is refused; other stores of this
    process on the same folder share the claim.  :meth:`close` (or the store being
    garbage-collected) gives it back.  Every write, removal or renaming first checks that
    the folder's path still leads to the folder claimed (one ``stat``), so a folder moved
    away and copied back while the app runs, which another process may then open, gets
    no write from this one (:class:`~app.storage.DataFolderReplaced`).

    :param data_dir: the data folder, e.g. :func:`~app.storage.default_data_dir()`.
    :param faults: called at each crash point of every atomic write (tests).
    :raises DataFolderUnusable: the folder cannot be created or written.
    :raises DataFolderInUse: another process holds the folder.
    """

    DATABASE_FILE_NAME: Final = "farkle-table.json"
    PER_FILE_COLLECTIONS: Final = ("games", "tournaments", "beside")

    def __init__(self, data_dir: str | os.PathLike[str], *, faults: Optional[FaultHook] = None) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self._thread_lock = threading.RLock()
        self._claim = claim_folder(self.data_dir)
        self._release_claim = weakref.finalize(self, self._claim.release)
        try:
            remove_stale_temp_files(self.data_dir)
            self._database_path = self.data_dir / self.DATABASE_FILE_NAME
            self._database = self._open_database(self._database_path, faults)
            self._layout: Mapping[str, Layout] = self._layouts(faults)
            self._move_tournaments_out_of_the_database(faults)
        except BaseException:
            self._release_claim()
            raise

    def _layouts(self, faults: Optional[FaultHook]) -> dict[str, Layout]:
        """Where each collection lives: the one place this store looks at its name."""
        in_place = functools.partial(self._claim.in_place, self.data_dir)  # not a method: no cycle to the store
        layouts: dict[str, Layout] = {
            collection: OneFilePerDocument(self.data_dir / collection, self._problems.append, faults, in_place)
            for collection in self.PER_FILE_COLLECTIONS
        }
        layouts["settings"] = TinyDBTable(self._database, "settings", self._database_path, self._problems.append,
                                          in_place)
        assert set(layouts) == set(COLLECTIONS)
        return layouts

    def _open_database(self, path: Path, faults: Optional[FaultHook]) -> TinyDB:
        try:
            if path.exists() or path.is_symlink():
                if not path.is_file():
                    raise ValueError("not a file (a folder or a special file has its name)")
                too_large = size_problem(path.stat().st_size)
                if too_large is not None:
                    raise ValueError(too_large)
            AtomicJSONStorage(path).read()
        except (ValueError, UnicodeDecodeError, OSError) as error:
            self._problems.append(keep_aside(path, str(error)))
        return TinyDB(path, storage=AtomicJSONStorage, faults=faults)

    def _move_tournaments_out_of_the_database(self, faults: Optional[FaultHook]) -> None:
        """Read the first layout, which kept tournaments in the TinyDB database: write
        each to its own file (unless one is there already: it is newer), then drop
        the table.  A crash in between is finished at the next open."""
        if "tournaments" not in self._database.tables():
            return
        legacy = TinyDBTable(self._database, "tournaments", self._database_path, self._problems.append)
        target = self._layout["tournaments"]
        for doc_id in legacy.ids():
            document = legacy.read(doc_id)
            if document is not None and target.read(doc_id) is None:
                target.write(doc_id, encode_compact(document), document)
        legacy.drop()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        with self._thread_lock:
            yield

    async def _read(self, collection: str, doc_id: str) -> Optional[Document]:
        with self._thread_lock:
            return self._layout[collection].read(doc_id)

    async def _stored_revision(self, collection: str, doc_id: str) -> Optional[int]:
        return self._layout[collection].stored_revision(doc_id)

    async def _write(self, collection: str, doc_id: str, text: str, document: Document) -> None:
        try:  # under _exclusive, like _remove, after _check_writable
            self._layout[collection].write(doc_id, text, document)
        except OSError as error:
            raise self._refused(error, f"{collection}/{doc_id}", "save", "saved") from error

    def _refused(self, error: OSError, what: str, verb: str, done: str) -> StoreWriteError:
        """Why the disk refused to ``verb`` ``what`` (``done``: the verb's past participle),
        in words that say what to do."""
        why = error.strerror.lower() if error.strerror else str(error)
        if error.errno in FULL_DISK_ERRNOS:
            return StorageFullError(f"The disk is full: could not {verb} {what}")
        if error.errno in _NOT_WRITABLE:
            return StoreWriteError(
                f"The data folder {self.data_dir} cannot be written now ({why}): {what} was not {done}, and "
                "everything saved before is kept. Try again once the folder can be written."
            )
        return StoreWriteError(f"Could not {verb} {what} in the data folder {self.data_dir}: {why}.")

    def _check_writable(self) -> None:
        """One ``stat``: the folder's path still leads to the folder this store locked."""
        self._claim.check_in_place(self.data_dir)

    async def _remove(self, collection: str, doc_id: str) -> bool:
        try:
            return self._layout[collection].remove(doc_id)
        except OSError as error:
            raise self._refused(error, f"{collection}/{doc_id}", "delete", "deleted") from error

    async def _keep_aside(self, collection: str, doc_id: str, reason: str) -> StoreProblem:
        if not self._claim.in_place(self.data_dir):  # a folder put in place of its own: not its to change
            return StoreProblem(f"{collection}/{doc_id}", reason)
        return self._layout[collection].keep_aside(doc_id, reason)

    async def _stamps(self, collection: str) -> dict[str, Optional[str]]:
        with self._thread_lock:
            return self._layout[collection].stamps()

    def _index_path(self, collection: str) -> Path:
        """``.games-index.json`` beside the collections: a cache, never a document."""
        return self.data_dir / f".{collection}-index.json"

    async def _read_index(self, collection: str) -> Optional[str]:
        path = self._index_path(collection)
        try:
            if not path.is_file() or path.stat().st_size > MAX_DOCUMENT_BYTES:
                return None
            return path.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            return None

    async def _write_index(self, collection: str, text: str) -> None:
        """Renamed into place but not synced: a cache need not survive a power cut (one
        cut short fails its checksum and is rebuilt), and a sync would hold up the loop."""
        path = self._index_path(collection)
        temp_path = path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
        if not self._claim.in_place(self.data_dir):  # the next save says why
            return
        try:
            temp_path.write_bytes(text.encode("ascii"))
            os.replace(temp_path, path)
        except OSError:  # rebuilt from the documents next time
            with contextlib.suppress(OSError):
                temp_path.unlink(missing_ok=True)

    async def usage(self) -> StorageUsage:
        ours = {str(self.data_dir / LOCK_FILE_NAME), str(self.data_dir / HOLDER_FILE_NAME)}  # the claim's, not data
        used = sum(size for path, size in _file_sizes(str(self.data_dir)) if path not in ours)
        free = shutil.disk_usage(self.data_dir).free
        return StorageUsage(used, used + free)

    def close(self) -> None:
        """Close the database and give back this store's claim on the folder (once)."""
        if self._release_claim.alive:
            self._database.close()
            self._release_claim()


def _file_sizes(folder: str) -> Iterator[tuple[str, int]]:
    """Every regular file under ``folder`` with its size; one system call per file
    (``os.scandir`` knows each entry's type), so Home's storage line stays quick with
    thousands of games."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                yield from _file_sizes(entry.path)
            elif entry.is_file():
                yield entry.path, entry.stat().st_size
        except OSError:
            continue  # removed meanwhile
