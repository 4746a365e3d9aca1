"""Replacing a file so that a crash leaves the old bytes or the new, never a mix.

:func:`atomic_write_bytes` names the moments a crash may hit (:data:`CRASH_POINTS`)
and calls an optional :data:`FaultHook` at each, so a test can end the process at
exactly one of them.  :class:`AtomicJSONStorage` is a TinyDB storage writing
the same way.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Optional

from tinydb.storages import Storage

from app.storage.documents import encode_compact

__all__ = [
    "CRASH_POINTS",
    "TEMP_SUFFIX",
    "AtomicJSONStorage",
    "FaultHook",
    "atomic_write_bytes",
    "fsync_directory",
]

CRASH_POINTS: Final = ("before-write", "after-temp-file", "after-fsync", "after-rename")
"""Where :func:`atomic_write_bytes` calls its fault hook, in order: before
anything is written; once the temp file holds the bytes (not yet synced); once
they are synced; once the temp file has replaced the target (folder not yet
synced)."""

TEMP_SUFFIX: Final = ".tmp"
"""Temp files are ``.<target name>.<random>.tmp``: hidden, and never a document."""

FaultHook = Callable[[str, Path], None]
"""Called with a crash point and the target path; may end the process (tests)."""


def _no_fault(point: str, path: Path) -> None:
    """The default hook: nothing happens."""


def fsync_directory(directory: Path) -> None:
    """Make a rename or unlink durable (POSIX); Windows has no directory handles to sync."""
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, faults: Optional[FaultHook] = None) -> None:
    """Replace ``path`` with ``data`` so that a crash at any moment leaves
    either the old file or the new one, never a mix.

    Writes a temp file in the same folder, fsyncs it, ``os.replace``s it over
    the target, then fsyncs the folder so the rename itself survives power loss.

    :param faults: called at each of :data:`CRASH_POINTS` (tests inject crashes).
    """
    hook = faults or _no_fault
    hook("before-write", path)
    directory = path.parent
    temp_path = directory / f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
    try:
        with open(temp_path, "wb") as temp_file:
            temp_file.write(data)
            temp_file.flush()
            hook("after-temp-file", path)
            os.fsync(temp_file.fileno())
        hook("after-fsync", path)
        os.replace(temp_path, path)
    except BaseException:
        temp_path.unlink(missing_ok=True)
        raise
    hook("after-rename", path)
    fsync_directory(directory)


class AtomicJSONStorage(Storage):
    """A TinyDB storage that replaces its file atomically on every write.

    TinyDB's own ``JSONStorage`` rewrites the file in place (seek, write,
    truncate): a crash mid-write leaves broken JSON.  This one reads the whole
    file and writes through :func:`atomic_write_bytes`; unreadable content
    (not JSON, or not an object of tables of objects) raises ``ValueError`` instead
    of being overwritten.

    :param path: the database file.
    :param faults: passed to :func:`atomic_write_bytes` (tests).
    """

    def __init__(self, path: str | os.PathLike[str], faults: Optional[FaultHook] = None) -> None:
        self.path = Path(path)
        self.faults = faults

    def read(self) -> Optional[dict[str, dict[str, Any]]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        if not text.strip():
            return None
        try:
            data = json.loads(text)
        except RecursionError as error:
            raise ValueError("JSON nested too deeply to be a database") from error
        if not isinstance(data, dict) or not all(isinstance(table, dict) for table in data.values()):
            raise ValueError("not a TinyDB database (expected an object of tables)")
        for name, table in data.items():
            for doc_id, document in table.items():
                if not isinstance(document, dict):
                    raise ValueError(f"not a TinyDB database: {name}/{doc_id} is not an object")
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write_bytes(self.path, encode_compact(data).encode("ascii"), self.faults)
