"""How one collection sits in the local data folder.

:class:`~app.storage.FileStore` maps each collection to one :class:`Layout` when it
opens and then only ever calls that layout: no method asks which collection it has.
Two layouts exist: :class:`OneFilePerDocument` (a small JSON file each, for what is
written after every action) and :class:`TinyDBTable` (a table in one TinyDB
database, for small documents written now and then).  Both write atomically.
"""

from __future__ import annotations

import hashlib
import os
import stat
from abc import ABC, abstractmethod
from collections.abc import Callable, MutableMapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Final, Optional, cast

from tinydb import TinyDB
from tinydb.table import Document as TinyDocument
from tinydb.table import Table

from app.storage.atomic import TEMP_SUFFIX, FaultHook, atomic_write_bytes, fsync_directory
from app.storage.base import StoreProblem
from app.storage.documents import HEAD_CHARS, Document, decode_document, encode_compact, is_usable_id, revision_in_head
from app.storage.limits import size_problem

__all__ = [
    "UNREADABLE_MARK",
    "Layout",
    "OneFilePerDocument",
    "TinyDBTable",
    "Unusable",
    "keep_aside",
    "read_document_file",
    "remove_stale_temp_files",
]

UNREADABLE_MARK: Final = ".unreadable-"

ProblemSink = Callable[[StoreProblem], None]
InPlace = Callable[[], bool]
"""Whether the store may still change its folder (it is the one it locked); asked before a
damaged file found on a read is renamed aside."""


def _always() -> bool:
    return True


def keep_aside(path: Path, reason: str) -> StoreProblem:
    """Rename an unreadable file ``<name>.unreadable-<UTC time>`` (bytes untouched)
    and say where it went; it stays in place if it cannot be renamed."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    kept_as = path.with_name(f"{path.name}{UNREADABLE_MARK}{stamp}")
    try:
        os.replace(path, kept_as)
    except OSError:
        return StoreProblem(str(path), reason, None)
    return StoreProblem(str(path), reason, str(kept_as))


def remove_stale_temp_files(folder: Path) -> None:
    """A temp file left by a crash belongs to a save that never returned, so its
    action was never shown as accepted: drop it.  One that cannot be removed
    (read-only disk) is left: it is never read as a document."""
    for temp_path in folder.glob(f".*{TEMP_SUFFIX}"):
        try:
            temp_path.unlink(missing_ok=True)
        except OSError:
            pass


class Unusable(ValueError):
    """A stored file that is no document: the message is the reason shown."""


def read_document_file(path: Path) -> Document:
    """The document in the file at ``path``.

    :raises FileNotFoundError: there is none.
    :raises Unusable: it is not a regular file, is past the size limit, cannot be
        read, or is not a JSON object; or it is a link to nothing (a game moved away
        or a sync tool's leftover), which is named rather than passed over in silence.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            raise Unusable("a link to a file that is not there") from None
        raise
    if not stat.S_ISREG(info.st_mode):
        raise Unusable("not a file (a folder or a special file has its name)")
    too_large = size_problem(info.st_size)
    if too_large is not None:
        raise Unusable(too_large)
    try:
        return decode_document(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except (ValueError, UnicodeDecodeError, OSError) as error:
        raise Unusable(str(error)) from error


class Layout(ABC):
    """One collection's documents on disk.  Called under the store's lock only."""

    @abstractmethod
    def read(self, doc_id: str) -> Optional[Document]:
        """The document, ``None`` if missing (or unreadable: then kept aside and reported)."""

    def stored_revision(self, doc_id: str) -> Optional[int]:
        """The document's revision from the start of its text alone (0: there is none),
        ``None`` when it cannot be read so (:meth:`~app.storage.Store._stored_revision`)."""
        return None

    @abstractmethod
    def write(self, doc_id: str, text: str, document: Document) -> None:
        """Replace the document atomically with ``text`` (compact JSON of ``document``)."""

    @abstractmethod
    def remove(self, doc_id: str) -> bool:
        """Remove the document durably; ``False`` if there was none."""

    @abstractmethod
    def keep_aside(self, doc_id: str, reason: str) -> StoreProblem:
        """Move the document out of the way, bytes untouched; where it went."""

    @abstractmethod
    def stamps(self) -> dict[str, Optional[str]]:
        """Every stored document's id with a stamp that changes whenever its bytes do
        (``None`` where none can be taken), for :meth:`~app.storage.Store.summaries`."""


class OneFilePerDocument(Layout):
    """``<folder>/<id>.json``, one small file per document, so a write late in a
    long game or tournament costs one small file.  Opening drops stale temp files
    and keeps aside unreadable files.

    :param folder: the collection's folder (created if missing).
    :param report: told of every unreadable file.
    :param faults: passed to :func:`~app.storage.atomic.atomic_write_bytes`.
    :param in_place: asked before an unreadable file found on a read is renamed aside
        (if not, it is left where it is and reported so).
    """

    def __init__(self, folder: Path, report: ProblemSink, faults: Optional[FaultHook] = None,
                 in_place: InPlace = _always) -> None:
        self.folder = folder
        self._report = report
        self._faults = faults
        self._in_place = in_place
        if (folder.exists() or folder.is_symlink()) and not folder.is_dir():
            report(keep_aside(folder, "not a folder (a file has the collection's name)"))
        folder.mkdir(parents=True, exist_ok=True)
        remove_stale_temp_files(folder)
        for path in sorted(folder.glob("*.json")):
            try:
                read_document_file(path)
            except FileNotFoundError:
                continue
            except Unusable as error:
                report(keep_aside(path, str(error)))

    def _path(self, doc_id: str) -> Path:
        return self.folder / f"{doc_id}.json"

    def read(self, doc_id: str) -> Optional[Document]:
        path = self._path(doc_id)
        try:
            return read_document_file(path)
        except FileNotFoundError:
            return None
        except Unusable as error:
            self._report(keep_aside(path, str(error)) if self._in_place() else StoreProblem(str(path), str(error)))
            return None

    def keep_aside(self, doc_id: str, reason: str) -> StoreProblem:
        return keep_aside(self._path(doc_id), reason)

    def stored_revision(self, doc_id: str) -> Optional[int]:
        """Read off the file's first bytes: a save late in a long game need not parse the log."""
        path = self._path(doc_id)
        try:
            if not stat.S_ISREG(path.stat().st_mode):
                return None
            with path.open("rb") as file:
                head = file.read(HEAD_CHARS)
        except FileNotFoundError:
            return None if path.is_symlink() else 0
        except OSError:
            return None
        return revision_in_head(head.decode("ascii", errors="replace"))

    def write(self, doc_id: str, text: str, document: Document) -> None:
        atomic_write_bytes(self._path(doc_id), text.encode("ascii"), self._faults)

    def remove(self, doc_id: str) -> bool:
        path = self._path(doc_id)
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        fsync_directory(self.folder)
        return True

    def stamps(self) -> dict[str, Optional[str]]:
        """The file's inode, size and modification time: every save renames a new file
        into place, so each one changes the inode (and the time, to the nanosecond)."""
        found: dict[str, Optional[str]] = {}
        with os.scandir(self.folder) as entries:
            for entry in entries:
                doc_id = entry.name[: -len(".json")]
                if not entry.name.endswith(".json") or not is_usable_id(doc_id):
                    continue
                try:
                    info = entry.stat()  # through a link, as a read goes
                except OSError:
                    found[doc_id] = None
                    continue
                found[doc_id] = f"{info.st_ino}:{info.st_size}:{info.st_mtime_ns}"
        return found


class _StrIdTable(Table):
    """A TinyDB table whose document ids are our string ids."""

    document_id_class = str  # type: ignore[assignment]


def _tinydb_id(doc_id: str) -> int:
    """TinyDB's annotations say ids are ints; :class:`_StrIdTable` uses strings."""
    return cast(int, doc_id)


class TinyDBTable(Layout):
    """One table of a TinyDB database (keyed by our ids).  TinyDB rewrites the whole
    database on each write, so this suits small, seldom-written documents
    (settings); the database's storage must write atomically
    (:class:`~app.storage.atomic.AtomicJSONStorage`).

    A document that fails its checks cannot be moved out of the database without
    rewriting it, so the whole database file is kept aside (bytes untouched) and the
    table starts empty: the app's defaults.  So is a database found damaged.

    :param database: the open database.
    :param name: the table's name.
    :param path: the database's file.
    :param report: told when the database file is kept aside because it is damaged.
    :param in_place: asked before the damaged database is renamed aside (if not, it is left).
    """

    def __init__(self, database: TinyDB, name: str, path: Path, report: Optional[ProblemSink] = None,
                 in_place: InPlace = _always) -> None:
        self.database = database
        self.name = name
        self.path = path
        self._report = report
        self._in_place = in_place

    def _table(self) -> Table:
        # No query cache: the file is the truth, read afresh on every call.
        return _StrIdTable(self.database.storage, self.name, cache_size=0)

    def read(self, doc_id: str) -> Optional[Document]:
        try:
            found = self._table().get(doc_id=_tinydb_id(doc_id))
        except (ValueError, UnicodeDecodeError, OSError) as error:
            self._damaged(str(error))
            return None
        return None if found is None else dict(found)

    def _damaged(self, reason: str) -> None:
        problem = keep_aside(self.path, reason) if self._in_place() else StoreProblem(str(self.path), reason)
        if self._report is not None:
            self._report(problem)

    def keep_aside(self, doc_id: str, reason: str) -> StoreProblem:
        return keep_aside(self.path, f"{self.name}/{doc_id}: {reason}; the defaults are used")

    def write(self, doc_id: str, text: str, document: Document) -> None:
        """The document itself into the table (the database file is encoded whole, once)."""
        table = self._table()
        if table.contains(doc_id=_tinydb_id(doc_id)):
            table.update(_replace_with(document), doc_ids=[_tinydb_id(doc_id)])
        else:
            table.insert(TinyDocument(document, doc_id=_tinydb_id(doc_id)))

    def remove(self, doc_id: str) -> bool:
        table = self._table()
        if not table.contains(doc_id=_tinydb_id(doc_id)):
            return False
        table.remove(doc_ids=[_tinydb_id(doc_id)])
        return True

    def ids(self) -> list[str]:
        try:
            return [str(document.doc_id) for document in self._table().all()]
        except (ValueError, UnicodeDecodeError, OSError) as error:
            self._damaged(str(error))
            return []

    def stamps(self) -> dict[str, Optional[str]]:
        """A digest of each document (the table is small and read whole anyway)."""
        try:
            documents = self._table().all()
        except (ValueError, UnicodeDecodeError, OSError) as error:
            self._damaged(str(error))
            return {}
        return {str(document.doc_id): hashlib.blake2b(encode_compact(document).encode("ascii"),
                                                        digest_size=16).hexdigest() for document in documents}

    def drop(self) -> None:
        """Remove the whole table from the database."""
        self.database.drop_table(self.name)


def _replace_with(new_document: Document) -> Callable[[MutableMapping[Any, Any]], None]:
    """A TinyDB update that replaces the whole document (TinyDB's ``update``
    only merges fields, which would keep fields the app removed)."""

    def replace(stored: MutableMapping[Any, Any]) -> None:
        stored.clear()
        stored.update(new_document)

    return replace
