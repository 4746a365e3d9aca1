"""Why a store refused: every error the app may show to a person."""

from __future__ import annotations

import errno
from collections.abc import Mapping
from typing import Any, Final

from app.i18n import tr
from app.storage.documents import Document, revision_of

__all__ = [
    "FULL_DISK_ERRNOS",
    "DataFolderError",
    "DataFolderInUse",
    "DataFolderReplaced",
    "DataFolderUnusable",
    "DocumentChanged",
    "DocumentTooLarge",
    "StorageFullError",
    "StoreError",
    "StoreWriteError",
    "failure_in_words",
]


FULL_DISK_ERRNOS: Final = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
"""The OS's ways of saying a disk (or the person's share of it) has no room left."""


class StoreError(Exception):
    """Base of every storage failure the app should show to a person."""


class StoreWriteError(StoreError):
    """A document could not be saved: the action must not be shown as accepted."""


class StorageFullError(StoreWriteError):
    """The disk or the browser refused the write for lack of space: offer export or cleanup."""


def failure_in_words(failure: BaseException, then: str) -> str:
    """Why a save failed, for the end of a sentence that says what did not happen; a full
    storage also says how to make room (every screen's message reads the same), then ``then``.

    >>> print(failure_in_words(StorageFullError("The disk is full"), "start again"))  # doctest: +NORMALIZE_WHITESPACE
    the storage is full (The disk is full). Export your games and delete finished ones on Home,
    then start again.
    >>> failure_in_words(StoreWriteError("disk unplugged"), "start again")
    'disk unplugged'
    """
    if isinstance(failure, StorageFullError):
        return tr("the storage is full ({failure}). Export your games and delete finished ones on Home, "
                  "then {then}.", failure=failure, then=then)
    return str(failure)


class DocumentChanged(StoreError):
    """A save expected the stored document at one revision and found another: some
    other screen (tab, device) saved it meanwhile.  Nothing was written.

    :param collection: where the document is.
    :param doc_id: its id.
    :param expected: the revision the writer had read.
    :param stored: the document as stored now (``None`` if it was deleted), so the
        writer can show it instead of writing over it.
    """

    def __init__(self, collection: str, doc_id: str, expected: int, stored: Document | None) -> None:
        self.collection = collection
        self.doc_id = doc_id
        self.expected = expected
        self.stored = stored
        now = "it was deleted" if stored is None else f"it is at revision {revision_of(stored)}"
        super().__init__(
            f"{collection}/{doc_id} was changed elsewhere: this screen had revision {expected}, {now}"
        )


class DocumentTooLarge(StoreWriteError):
    """A document past :data:`~app.storage.limits.MAX_DOCUMENT_BYTES` or
    :data:`~app.storage.limits.MAX_EVENTS`: refused whole, nothing was written."""


class DataFolderError(StoreError):
    """The data folder cannot be used; the message says which, why, and how to choose
    another.

    :param folder: the folder that was refused.
    """

    def __init__(self, folder: str, message: str) -> None:
        self.folder = folder
        super().__init__(message)


class DataFolderUnusable(DataFolderError):
    """The data folder cannot be created, or nothing can be written in it (read-only
    disk, no permission)."""


class DataFolderInUse(DataFolderError):
    """Another running copy of the app holds the data folder.

    :param holder: what that process wrote about itself (pid, command line), or an
        empty mapping when it could not be read.
    """

    def __init__(self, folder: str, message: str, holder: Mapping[str, Any]) -> None:
        self.holder = dict(holder)
        super().__init__(folder, message)


class DataFolderReplaced(DataFolderError, StoreWriteError):
    """The data folder this process locked is no longer at its path (moved away, deleted,
    or replaced by a copy) while the app ran: nothing more is written there, for another
    copy of the app may now hold what is at that path.  Restarting opens what is there."""
