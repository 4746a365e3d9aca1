"""The local app's store: documents in one data folder on disk."""

from __future__ import annotations

import errno
import os
import shutil
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final, Optional

from tinydb import TinyDB

from app.storage.atomic import AtomicJSONStorage, FaultHook
from app.storage.base import StorageUsage, Store
from app.storage.documents import COLLECTIONS, Document, encode_compact
from app.storage.errors import StorageFullError, StoreWriteError
from app.storage.layouts import Layout, OneFilePerDocument, TinyDBTable, keep_aside, remove_stale_temp_files

__all__ = ["FileStore"]


class FileStore(Store):
    """Documents on disk under one data folder.

    Layout (each collection's place is chosen once, in :meth:`_layouts`)::

        games/<id>.json          one small file per game: written after every action
        tournaments/<id>.json    one small file per event: written after every result
        farkle-table.json        TinyDB database, table "settings" (small, seldom written)

    Every file is replaced atomically (temp file, fsync, rename).  Folders written
    before tournaments had their own files kept them in a ``tournaments`` table of
    ``farkle-table.json``: opening moves them out (each file written before the
    table is dropped, so a crash in between loses nothing).

    Opening checks every file; one that cannot be read is renamed
    ``<name>.unreadable-<UTC time>`` (bytes untouched) and reported in
    :attr:`problems`.  The store's I/O runs inline (milliseconds) and never yields
    to the event loop, so one thread lock makes each revision check and its write
    a single step for coroutines and threads alike.

    :param data_dir: the data folder, e.g. :func:`~app.storage.default_data_dir()`.
    :param faults: called at each crash point of every atomic write (tests).
    """

    DATABASE_FILE_NAME: Final = "farkle-table.json"
    PER_FILE_COLLECTIONS: Final = ("games", "tournaments")

    def __init__(self, data_dir: str | os.PathLike[str], *, faults: Optional[FaultHook] = None) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self._thread_lock = threading.RLock()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        remove_stale_temp_files(self.data_dir)
        self._database = self._open_database(self.data_dir / self.DATABASE_FILE_NAME, faults)
        self._layout: Mapping[str, Layout] = self._layouts(faults)
        self._move_tournaments_out_of_the_database(faults)

    def _layouts(self, faults: Optional[FaultHook]) -> dict[str, Layout]:
        """Where each collection lives: the one place this store looks at its name."""
        layouts: dict[str, Layout] = {
            collection: OneFilePerDocument(self.data_dir / collection, self._problems.append, faults)
            for collection in self.PER_FILE_COLLECTIONS
        }
        layouts["settings"] = TinyDBTable(self._database, "settings")
        assert set(layouts) == set(COLLECTIONS)
        return layouts

    def _open_database(self, path: Path, faults: Optional[FaultHook]) -> TinyDB:
        try:
            AtomicJSONStorage(path).read()
        except (ValueError, UnicodeDecodeError) as error:
            self._problems.append(keep_aside(path, str(error)))
        return TinyDB(path, storage=AtomicJSONStorage, faults=faults)

    def _move_tournaments_out_of_the_database(self, faults: Optional[FaultHook]) -> None:
        """Read the first layout, which kept tournaments in the TinyDB database: write
        each to its own file (unless one is there already: it is newer), then drop
        the table.  A crash in between is finished at the next open."""
        if "tournaments" not in self._database.tables():
            return
        legacy = TinyDBTable(self._database, "tournaments")
        target = self._layout["tournaments"]
        for doc_id in legacy.ids():
            document = legacy.read(doc_id)
            if document is not None and target.read(doc_id) is None:
                target.write(doc_id, encode_compact(document))
        legacy.drop()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        with self._thread_lock:
            yield

    async def _read(self, collection: str, doc_id: str) -> Optional[Document]:
        with self._thread_lock:
            return self._layout[collection].read(doc_id)

    async def _write(self, collection: str, doc_id: str, text: str) -> None:
        try:  # under _exclusive, like _remove
            self._layout[collection].write(doc_id, text)
        except OSError as error:
            if error.errno == errno.ENOSPC:
                raise StorageFullError(f"The disk is full: could not save {collection}/{doc_id}") from error
            raise StoreWriteError(f"Could not save {collection}/{doc_id}: {error}") from error

    async def _remove(self, collection: str, doc_id: str) -> bool:
        return self._layout[collection].remove(doc_id)

    async def _ids(self, collection: str) -> list[str]:
        with self._thread_lock:
            return self._layout[collection].ids()

    async def usage(self) -> StorageUsage:
        used = sum(path.stat().st_size for path in self.data_dir.rglob("*") if path.is_file())
        free = shutil.disk_usage(self.data_dir).free
        return StorageUsage(used, used + free)

    def close(self) -> None:
        self._database.close()
