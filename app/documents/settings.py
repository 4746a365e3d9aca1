"""The app's settings: one document, merged rather than revised.

Settings are not a screen's state: two screens that change them (one remembers the
names just played, another the theme) both keep their change, so a change is applied to
whatever is stored (:func:`app.storage.merge`), never refused as changed elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from app.storage import DOCUMENT_SCHEMAS, REVISION_FIELD, Document, Store, merge

__all__ = ["COLLECTION", "CHECKS", "RECENT_NAMES_KEPT", "change_settings", "read_settings", "remember_names"]

COLLECTION: Final = "settings"
CHECKS: Final = DOCUMENT_SCHEMAS[COLLECTION]
RECENT_NAMES_KEPT: Final = 16
_SETTINGS_ID: Final = "app"


async def read_settings(store: Store) -> Document:
    """The stored settings (an empty document is the defaults)."""
    settings = await store.load(COLLECTION, _SETTINGS_ID) or {}
    settings.pop(REVISION_FIELD, None)
    return settings


async def change_settings(store: Store, change: Callable[[Document], Any]) -> None:
    """Apply ``change`` to the stored settings (again to another screen's, should it save first).

    :raises StoreError: they were not saved.
    """
    await merge(store, COLLECTION, _SETTINGS_ID, change)


async def remember_names(store: Store, names: list[str]) -> None:
    """Put these names first in the recent list offered on the next new game."""
    recent = [name.strip() for name in names if name.strip()]
    seen = {name.casefold() for name in recent}

    def put_first(settings: Document) -> None:
        kept = recent + [name for name in settings.get("recent_names", []) if name.casefold() not in seen]
        settings["recent_names"] = kept[:RECENT_NAMES_KEPT]

    await change_settings(store, put_first)
