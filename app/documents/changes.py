""""This document changed", told to every other screen showing it: the room display and the players'
page follow the organizer's event, a follower (the second screen) follows a table's game.

On the local server every browser tab is a Flet session of one process, and the sessions
share one ``PubSubHub``: a save is published on the document's topic (:func:`announce`, called
by :class:`app.event.organizer.Organizer` and :class:`app.table.scorekeeper.Scorekeeper` after each
action they stored) and every other session subscribed to it (:func:`listen`) reads it again.

In the offline PWA each tab runs its own Python; the tabs already tell each other of every
save over a ``BroadcastChannel`` (:mod:`app.storage.tabs`). The shell hands each message it
hears to :func:`heard_from_tab`, which wakes this tab's listeners of that document.

>>> woken = []
>>> async def wake() -> None:
...     woken.append("EVT1")
>>> async def hear() -> None:
...     stop = listen_in_tab("tournaments", "EVT1", wake)
...     heard_from_tab('{"key": "farkle-table/tournaments/EVT1", "value": "{}"}')
...     heard_from_tab('{"key": "farkle-table/games/EVT1", "value": "{}"}')
...     stop()
...     heard_from_tab('{"key": "farkle-table/tournaments/EVT1", "value": "{}"}')
...     await asyncio.sleep(0)
>>> asyncio.run(hear())
>>> woken
['EVT1']
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, cast

import flet as ft

from app.runtime import in_browser

__all__ = ["TOPIC", "announce", "listen", "listen_in_tab", "heard_from_tab", "use_saves_of"]

logger = logging.getLogger(__name__)

TOPIC: Final = "farkle-changed/"
"""The PubSub topic of a document is this, its collection, ``/`` and its stored id."""

Listener = Callable[[], Awaitable[None]]
_tab_listeners: dict[str, list[Listener]] = {}
"""This tab's listeners by ``collection/id`` (the PWA: one Python per tab)."""
_waking: set[asyncio.Task[None]] = set()
"""Listeners woken and still running (held, so none is dropped half-way)."""


def _name(collection: str, doc_id: str) -> str:
    return f"{collection}/{doc_id}"


def announce(page: ft.Page, collection: str, doc_id: str) -> None:
    """Tell the other sessions of the local server that ``doc_id`` of ``collection`` was saved (in the
    PWA the tabs' channel says it already, with the save itself)."""
    if in_browser():
        return
    try:
        page.pubsub.send_others_on_topic(TOPIC + _name(collection, doc_id), doc_id)
    except RuntimeError as error:  # a page whose session is gone: nobody to tell from it
        logger.info("Could not announce a change of %s (%s)", _name(collection, doc_id), error)


def listen(page: ft.Page, collection: str, doc_id: str, handler: Listener) -> Callable[[], None]:
    """Call ``handler`` on ``page`` whenever another session or tab saves ``doc_id`` of ``collection``;
    returns what stops it. The handler runs as a task of ``page`` (the announcing session's context is
    not this one's: what the handler changes is drawn on this page)."""

    async def on_page() -> None:
        page.run_task(_run, handler)

    if in_browser():
        return listen_in_tab(collection, doc_id, on_page)
    topic = TOPIC + _name(collection, doc_id)

    async def heard(_topic: str, _message: Any) -> None:
        await on_page()

    page.pubsub.subscribe_topic(topic, heard)
    return lambda: page.pubsub.unsubscribe_topic(topic)


def use_saves_of(collection: str, doc_id: str, handler: Listener) -> None:
    """A screen's hook: call ``handler`` whenever another screen saves ``doc_id`` of ``collection``,
    while this one is shown."""
    page = ft.context.page
    stops = cast(list[Callable[[], None]], ft.use_state(cast(Callable[[], Any], list))[0])

    def shown() -> None:
        stops.append(listen(page, collection, doc_id, handler))

    def left() -> None:
        while stops:
            stops.pop()()

    ft.use_effect(shown, dependencies=[], cleanup=left)


def listen_in_tab(collection: str, doc_id: str, handler: Listener) -> Callable[[], None]:
    """Call ``handler`` when another tab of this browser saves ``doc_id`` of ``collection`` (see
    :func:`heard_from_tab`)."""
    name = _name(collection, doc_id)
    _tab_listeners.setdefault(name, []).append(handler)

    def stop() -> None:
        listeners = _tab_listeners.get(name, [])
        if handler in listeners:
            listeners.remove(handler)

    return stop


def heard_from_tab(message: str) -> None:
    """A save another tab announced (:class:`app.storage.tabs.TabSharedPrefs`' message): wake the
    listeners of the document it saved (its key ends in ``<collection>/<id>``)."""
    try:
        key = json.loads(message)["key"]
    except (TypeError, ValueError, KeyError):
        return  # not one of ours
    parts = key.rsplit("/", 2) if isinstance(key, str) else []
    if len(parts) != 3:
        return
    for handler in list(_tab_listeners.get(_name(parts[1], parts[2]), ())):
        task = asyncio.ensure_future(_run(handler))
        _waking.add(task)
        task.add_done_callback(_waking.discard)


async def _run(handler: Listener) -> None:
    """Run a listener; a failure is logged (the screen stays as it was), never raised into the hub."""
    try:
        await handler()
    except Exception:  # noqa: BLE001 - a listener's failure must not stop the others
        logger.warning("A screen could not follow a change of what it shows", exc_info=True)
