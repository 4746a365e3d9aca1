"""One process per data folder: an OS lock, held as long as any store uses the folder.

Two copies of the app writing one folder would each check revisions against what
they last read and could still interleave their writes; so the first process to
open a folder locks the folder itself (``flock`` on the directory, on POSIX) and
``.farkle-table.lock`` in it (``filelock``: ``flock`` on POSIX, ``msvcrt`` on
Windows); the OS drops both if the process dies.  It writes who it is beside them
(``.farkle-table.lock.json``: pid, command line, since when).  Another process is
then refused with :class:`~app.storage.DataFolderInUse` naming that holder.

The folder's own lock is what keeps a second writer out: a cleanup tool can delete
the lock file while it is held (the old lock then guards a file nobody opens any
more), but not the folder the documents are in.  The lock file stays for copies of
the app from before, which know only it, and for Windows, which has no ``flock`` but
refuses to delete a file that is open.

The lock is on the folder the process opened, and its documents are written by path:
a folder moved away and copied back (a restore from a backup while the app runs) is a
new folder that a second process may lock.  So every write first checks that the path
still leads to the folder locked (its device and inode, one ``stat``:
:meth:`FolderClaim.check_in_place`), and a process that finds another folder there
writes nothing more to it (:class:`~app.storage.DataFolderReplaced`).

Within one process the claim is counted, not exclusive: the app keeps a store per
folder and tests open a second one to look at what the app saved, so every
:func:`claim_folder` of a folder already held here just adds one to its count, and
the lock is let go when the last claim is released.

A claim is also released by the garbage collector (a store dropped without
``close``), which may run that release in the middle of this module's own critical
section, on the same thread: a release never waits for the registry, it queues itself
and whoever holds the registry lets it go on the way out.
"""

from __future__ import annotations

import json
import os
import sys
from collections import deque
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import filelock

from app.storage.atomic import atomic_write_bytes
from app.storage.documents import utc_now_iso
from app.storage.errors import FULL_DISK_ERRNOS, DataFolderInUse, DataFolderReplaced, DataFolderUnusable
from app.storage.location import DATA_DIR_ENV

__all__ = ["HOLDER_FILE_NAME", "LOCK_FILE_NAME", "FolderClaim", "claim_folder", "held_folders"]

LOCK_FILE_NAME: Final = ".farkle-table.lock"
HOLDER_FILE_NAME: Final = ".farkle-table.lock.json"
_COMMAND_SHOWN: Final = 200
_DELETED: Final = " (deleted)"
"""How Linux ends the path of a folder deleted while open."""

_HOW_TO_CHOOSE: Final = (
    f"Choose another data folder with --data-dir FOLDER or the {DATA_DIR_ENV} environment variable."
)


FolderIdentity = tuple[int, int]
"""A folder's device and inode: what a path must still lead to for this process to write there."""


@dataclass
class _Held:
    folder_lock: int | None
    """The open descriptor of the folder, ``flock``-ed (None where there is no ``flock``)."""
    identity: FolderIdentity
    lock: filelock.BaseFileLock
    claims: int


_held: dict[str, _Held] = {}
_registry_lock = threading.Lock()
_releases_due: deque[FolderClaim] = deque()
"""Claims released while the registry was busy (appending is atomic: no lock needed)."""


def held_folders() -> list[str]:
    """The folders this process holds now (real paths), for tests and diagnostics."""
    with _registry_lock:
        return sorted(_held)


class FolderClaim:
    """One claim on a data folder; :meth:`release` it once (later calls do nothing).

    :param folder: the folder's real path.
    :param held: the process's hold on it, shared by its claims.
    """

    def __init__(self, folder: str, held: _Held) -> None:
        self.folder = folder
        self._held = held
        self._released = False

    def in_place(self, path: Path) -> bool:
        """Whether ``path`` still leads to the folder this claim locked (one ``stat``)."""
        return _identity_of(path) == self._held.identity

    def check_in_place(self, path: Path) -> None:
        """Check that ``path`` still leads to the folder this claim locked (one ``stat``),
        before anything is written there by that path.

        :raises DataFolderReplaced: the folder was moved away, deleted or replaced (by a
            copy restored from a backup, say) since it was claimed: the message says so,
            where the folder locked is now (where the OS can tell), and to restart.
        """
        if not self.in_place(path):
            raise DataFolderReplaced(str(path), _replaced_message(path, None if self._released else self._held))

    def release(self) -> None:
        """Give the claim back; the last one of the process lets the OS lock go, now,
        or, when the registry is busy, as soon as its holder is done with it."""
        _releases_due.append(self)
        _release_due_claims()

    def _release_now(self) -> None:
        """Called with the registry held."""
        if self._released:
            return
        self._released = True
        held = _held.get(self.folder)
        if held is None:
            return
        held.claims -= 1
        if held.claims > 0:
            return
        del _held[self.folder]
        if _identity_of(Path(self.folder)) == held.identity:  # not another process's, in a folder put in its place
            try:
                (Path(self.folder) / HOLDER_FILE_NAME).unlink(missing_ok=True)
            except OSError:
                pass
        held.lock.release(force=True)
        _unlock_folder(held.folder_lock)


def _release_due_claims() -> None:
    """Release the queued claims, unless the registry is held: by another thread, or by
    this one when the collector ran a release inside :func:`claim_folder` (waiting would
    then never end). The holder calls this again once it lets the registry go."""
    while _releases_due and _registry_lock.acquire(blocking=False):
        try:
            while _releases_due:
                _releases_due.popleft()._release_now()
        finally:
            _registry_lock.release()


def claim_folder(folder: str | os.PathLike[str]) -> FolderClaim:
    """Create ``folder`` if needed and hold it for this process.

    :raises DataFolderUnusable: it cannot be created or written (read-only disk, no
        permission, a file in the way); the message says which folder, why and how to
        choose another.
    :raises DataFolderInUse: another process holds it; the message names that process.
    """
    path = Path(folder).expanduser().absolute()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DataFolderUnusable(
            str(path), f"Cannot create the data folder {path}: {_why(error)}. {_HOW_TO_CHOOSE}"
        ) from error
    if not path.is_dir():
        raise DataFolderUnusable(
            str(path), f"Cannot use {path} as the data folder: it is a file, not a folder. {_HOW_TO_CHOOSE}"
        )
    try:
        with _registry_lock:
            return _claim(path, os.path.realpath(path))
    finally:
        _release_due_claims()


def _claim(path: Path, key: str) -> FolderClaim:
    """:func:`claim_folder`'s registry step, with the registry held."""
    held = _held.get(key)
    if held is not None:
        held.claims += 1
        return FolderClaim(key, held)
    import filelock  # only a folder on a disk is locked; the browser build never imports it

    try:
        folder_lock = _lock_folder(Path(key))
        identity = _identity(os.stat(key) if folder_lock is None else os.fstat(folder_lock))
    except BlockingIOError as busy:
        holder = read_holder(Path(key))
        raise DataFolderInUse(str(path), _in_use_message(path, holder), holder) from busy
    except OSError as error:
        raise DataFolderUnusable(
            str(path), f"Cannot lock the data folder {path}: {_why(error)}. {_HOW_TO_CHOOSE}"
        ) from error
    lock = filelock.FileLock(Path(key) / LOCK_FILE_NAME, timeout=0, thread_local=False)
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout as timeout:
        _unlock_folder(folder_lock)
        holder = read_holder(Path(key))
        raise DataFolderInUse(str(path), _in_use_message(path, holder), holder) from timeout
    except OSError as error:
        _unlock_folder(folder_lock)
        raise DataFolderUnusable(
            str(path), f"Cannot write in the data folder {path}: {_why(error)}. {_HOW_TO_CHOOSE}"
        ) from error
    try:
        _write_holder(Path(key))
    except OSError as error:
        lock.release(force=True)
        _unlock_folder(folder_lock)
        raise DataFolderUnusable(
            str(path), f"Cannot write in the data folder {path}: {_why(error)}. {_HOW_TO_CHOOSE}"
        ) from error
    held = _held[key] = _Held(folder_lock, identity, lock, 1)
    return FolderClaim(key, held)


def _write_holder(folder: Path) -> None:
    """Say who holds ``folder`` beside its locks.  On a full disk the note is left out (and
    an old one removed, lest it name another process): the locks are what keep a second
    writer out, and the app still opens, so its games can be seen, exported and deleted to
    make room; every save then says the disk is full."""
    try:
        atomic_write_bytes(folder / HOLDER_FILE_NAME, json.dumps(_about_this_process()).encode("utf-8"))
    except OSError as error:
        if error.errno not in FULL_DISK_ERRNOS:
            raise
        (folder / HOLDER_FILE_NAME).unlink(missing_ok=True)


def _lock_folder(folder: Path) -> int | None:
    """``flock`` the folder itself for this process: its open descriptor, or None where
    the OS has no ``flock`` (Windows).

    :raises BlockingIOError: another process holds it.
    """
    try:
        import fcntl
    except ImportError:
        return None
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _identity(info: os.stat_result) -> FolderIdentity:
    return info.st_dev, info.st_ino


def _identity_of(folder: Path) -> FolderIdentity | None:
    """The identity of the folder ``folder`` leads to now, or None if it leads nowhere."""
    try:
        return _identity(os.stat(folder))
    except OSError:
        return None


def _where_now(held: _Held) -> str | None:
    """Where the folder locked is now, as the OS tells it (Linux: ``/proc/self/fd``);
    ``" (deleted)"`` ends the path of one deleted, None where it cannot be told."""
    if held.folder_lock is None:
        return None
    try:
        return os.readlink(f"/proc/self/fd/{held.folder_lock}")
    except OSError:
        return None


def _unlock_folder(descriptor: int | None) -> None:
    """Let the folder's own lock go (closing the descriptor drops its ``flock``)."""
    if descriptor is not None:
        os.close(descriptor)


def read_holder(folder: Path) -> dict[str, Any]:
    """What the process holding ``folder`` wrote about itself; empty if unreadable."""
    try:
        about = json.loads((folder / HOLDER_FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return about if isinstance(about, dict) else {}


def _about_this_process() -> dict[str, Any]:
    command = " ".join(" ".join(str(part) for part in sys.orig_argv).split())  # on one line
    if len(command) > _COMMAND_SHOWN:
        command = command[: _COMMAND_SHOWN - 3] + "..."
    return {"pid": os.getpid(), "command": command, "since": utc_now_iso()}


def _in_use_message(path: Path, holder: dict[str, Any]) -> str:
    if "pid" in holder:
        who = f"process {holder['pid']}"
        if holder.get("command"):
            who += f" ({holder['command']})"
        if holder.get("since"):
            who += f", since {holder['since']}"
    else:
        who = "a process that did not say which"
    return (
        f"The data folder {path} is in use by another copy of Farkle Table: {who}. "
        f"Close that one, or: {_HOW_TO_CHOOSE[0].lower()}{_HOW_TO_CHOOSE[1:]}"
    )


def _replaced_message(path: Path, held: _Held | None) -> str:
    where = None if held is None else _where_now(held)
    if where is None:
        now = ""
    elif where.endswith(_DELETED):
        now = " (the folder it was using was deleted)"
    else:
        now = f" (the folder it was using is now {where})"
    return (
        f"The data folder {path} was moved or replaced while Farkle Table was running{now}, so nothing "
        "more is written there: another copy of the app may be using what is there now. Everything saved "
        "before is kept in the folder it was using. Close Farkle Table and start it again."
    )


def _why(error: OSError) -> str:
    """An OS refusal in words (``error.strerror``: "Read-only file system", ...)."""
    return error.strerror.lower() if error.strerror else str(error)
