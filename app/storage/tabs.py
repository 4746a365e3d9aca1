"""Browser tabs of the offline app telling each other what they saved.

Each tab's ``ft.SharedPreferences`` keeps its own copy of ``localStorage``, so a tab never
sees another tab's save by reading, and the revision check could not notice that it is
behind. :class:`TabSharedPrefs` wraps the tab's preferences: every write is also announced
on a ``BroadcastChannel`` (which web workers have, and Python runs in one), and every
announcement heard is what this tab reads for that key from then on. Two tabs of one game
then refuse each other's stale actions exactly as two screens on the local server do.

>>> from app.storage.prefs import MemoryPrefs
>>> bus = []
>>> a = TabSharedPrefs(MemoryPrefs(), bus.append)
>>> b = TabSharedPrefs(MemoryPrefs(), lambda message: a.receive(message))
>>> import asyncio; _ = asyncio.run(b.set("farkle-table/games/g1", "v2"))
>>> asyncio.run(a.get("farkle-table/games/g1"))
'v2'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from app.storage.prefs import PrefsLike

__all__ = ["TabSharedPrefs", "CHANNEL_NAME"]

CHANNEL_NAME = "farkle-table-store"
_GONE = object()


class TabSharedPrefs:
    """A :class:`PrefsLike` that hears the other tabs' writes (see the module's docstring).

    :param prefs: this tab's own preferences (``ft.SharedPreferences``).
    :param post: sends a message to the other tabs (``BroadcastChannel.postMessage``).
    """

    def __init__(self, prefs: PrefsLike, post: Callable[[str], None]) -> None:
        self.prefs = prefs
        self.post = post
        self._heard: dict[str, Any] = {}

    def receive(self, message: str) -> None:
        """Another tab saved (or removed) a key: read that from now on."""
        try:
            data = json.loads(message)
            key, value = data["key"], data["value"]
        except (TypeError, ValueError, KeyError):
            return  # not one of ours
        if isinstance(key, str):
            self._heard[key] = _GONE if value is None else value

    async def get(self, key: str) -> Any:
        if key in self._heard:
            value = self._heard[key]
            return None if value is _GONE else value
        return await self.prefs.get(key)

    async def set(self, key: str, value: Any) -> bool:
        accepted = await self.prefs.set(key, value)
        if accepted is not False:
            self._heard.pop(key, None)
            self.post(json.dumps({"key": key, "value": value}))
        return accepted

    async def remove(self, key: str) -> bool:
        removed = await self.prefs.remove(key)
        self._heard.pop(key, None)
        self.post(json.dumps({"key": key, "value": None}))
        return removed

    async def get_keys(self, key_prefix: str) -> list[str]:
        keys = set(await self.prefs.get_keys(key_prefix))
        for key, value in self._heard.items():
            if key.startswith(key_prefix):
                (keys.discard if value is _GONE else keys.add)(key)
        return sorted(keys)
