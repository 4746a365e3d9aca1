"""Where games, tournaments and settings are kept, behind one small async interface.

The app never talks to a file or to ``localStorage`` directly: it asks a
:class:`Store` to ``save``/``load``/``list_ids``/``delete`` JSON documents by
collection and id.  Three backends share that interface (one module each):

- :class:`MemoryStore`: the twin for tests (documents still go through JSON, so
  a test catches what a real store would refuse).
- :class:`FileStore`: the local app.  One small JSON file per game and per
  tournament (both written after every action or result), and a TinyDB database
  for settings; every file is replaced atomically (temp file, fsync,
  ``os.replace``), so a crash never leaves half a file.
- :class:`PrefsStore`: the browser (PWA) build, over ``ft.SharedPreferences``
  (``localStorage``, about 5 MB per origin): documents are stored compressed and
  the store counts what it uses so the app can warn long before space runs out.

Every document carries an integer ``"revision"``.  A writer that read revision
*n* saves with ``expect_revision=n``: the store writes revision *n + 1* only if
the stored one is still *n*, else raises :class:`DocumentChanged` with the
stored document, so one screen never writes over another's newer save.

A file or entry that cannot be read never stops a store from opening: it is kept
aside untouched and listed in :attr:`Store.problems` so the app can name it.  So is
a document that fails its checks when it is read (:meth:`Store.check_with`: a
:class:`DocumentSchema` per collection, to which the app adds the engine's replay
of the log), or one past the limits (:data:`MAX_DOCUMENT_BYTES`,
:data:`MAX_EVENTS`; a save past them raises :class:`DocumentTooLarge`).

A :class:`FileStore` holds its data folder for its process (an OS file lock): a
second process is refused with :class:`DataFolderInUse`; a folder that cannot be
created or written raises :class:`DataFolderUnusable`; a folder moved or replaced while
it is held gets no more writes (:class:`DataFolderReplaced`).  All say what to do.

A listing of many documents (Home's games) comes from a small index kept with the
store (:meth:`Store.summaries` with a :class:`Listing`): only documents stored since
their summary was made are read and checked again.

Methods are async because the browser backend is; the file backend does its
(millisecond) I/O inline so that writes keep their order.

Typical use::

    store = FileStore(data_dir or default_data_dir())         # local app
    store = await PrefsStore.open(shared_preferences)          # browser build
    for problem in store.problems:                             # damaged files
        show(problem_line(problem))                            # app.views.widgets: in words
    revision = await store.save("games", game_id, {"id": game_id, "events": [...]})
    try:
        revision = await store.save("games", game_id, later, expect_revision=revision)
    except DocumentChanged as changed:
        show(changed.stored)                                   # theirs, not ours
    if (await store.usage()).nearly_full:
        offer_export_or_cleanup()
"""

from app.storage.atomic import CRASH_POINTS, AtomicJSONStorage, FaultHook, atomic_write_bytes
from app.storage.base import NEARLY_FULL_FRACTION, StorageUsage, Store, StoreProblem
from app.storage.documents import (
    COLLECTIONS,
    DIGEST_FIELD,
    REVISION_FIELD,
    Document,
    Seal,
    encode_compact,
    new_id,
    revision_of,
    seal,
    utc_now_iso,
)
from app.storage.errors import (
    DataFolderError,
    DataFolderInUse,
    DataFolderReplaced,
    DataFolderUnusable,
    DocumentChanged,
    DocumentTooLarge,
    StorageFullError,
    StoreError,
    StoreWriteError,
)
from app.storage.file import FileStore
from app.storage.index import Listing, Summary
from app.storage.limits import MAX_DOCUMENT_BYTES, MAX_EVENTS
from app.storage.location import APP_DIR_NAME, DATA_DIR_ENV, FLET_DATA_DIR_ENV, default_data_dir
from app.storage.lock import FolderClaim, claim_folder
from app.storage.memory import MemoryStore
from app.storage.prefs import PREFS_QUOTA_ESTIMATE_BYTES, MemoryPrefs, PrefsLike, PrefsStore
from app.storage.session import BESIDE, ChangedElsewhere, DocumentKind, DocumentSession, keep_beside, merge
from app.storage.schema import (
    BOOLEAN,
    DOCUMENT_SCHEMAS,
    INTEGER,
    NULL,
    STRING,
    DocumentCheck,
    DocumentSchema,
    JSONType,
    list_of,
)

__all__ = [
    "APP_DIR_NAME",
    "BESIDE",
    "BOOLEAN",
    "INTEGER",
    "NULL",
    "STRING",
    "COLLECTIONS",
    "CRASH_POINTS",
    "DATA_DIR_ENV",
    "DIGEST_FIELD",
    "DOCUMENT_SCHEMAS",
    "FLET_DATA_DIR_ENV",
    "MAX_DOCUMENT_BYTES",
    "MAX_EVENTS",
    "NEARLY_FULL_FRACTION",
    "PREFS_QUOTA_ESTIMATE_BYTES",
    "REVISION_FIELD",
    "AtomicJSONStorage",
    "ChangedElsewhere",
    "DataFolderError",
    "DataFolderInUse",
    "DataFolderReplaced",
    "DataFolderUnusable",
    "Document",
    "DocumentChanged",
    "DocumentCheck",
    "DocumentKind",
    "DocumentSchema",
    "DocumentSession",
    "DocumentTooLarge",
    "FaultHook",
    "FileStore",
    "FolderClaim",
    "JSONType",
    "Listing",
    "MemoryPrefs",
    "MemoryStore",
    "PrefsLike",
    "PrefsStore",
    "Seal",
    "StorageFullError",
    "StorageUsage",
    "Store",
    "StoreError",
    "StoreProblem",
    "StoreWriteError",
    "Summary",
    "atomic_write_bytes",
    "claim_folder",
    "default_data_dir",
    "encode_compact",
    "keep_beside",
    "list_of",
    "merge",
    "new_id",
    "revision_of",
    "seal",
    "utc_now_iso",
]
