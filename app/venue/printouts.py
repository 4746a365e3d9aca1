"""Printables handed from an organizer's session to a browser tab: ``/printout/<token>``.

The app draws on a canvas, which prints as one picture of the window; a printable is a plain
HTML document instead (:mod:`app.views.organizer.paper`), which the browser pages itself. The
organizer's session (behind the organizer's gate) keeps the document here under a fresh
unguessable token and opens it in a new tab; :class:`Printouts` serves it to whoever holds the
token, for a few minutes. Nothing else is reachable by it: no event, no other document.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

__all__ = ["PRINTOUT_PATH", "KEEP_SECONDS", "keep", "Printouts"]

PRINTOUT_PATH: Final = "/printout/"
KEEP_SECONDS: Final = 15 * 60
"""How long a printable stays reachable: long enough to print it, not to pass its address around."""
_MOST: Final = 64
"""Printables kept at once (the oldest goes first): a few per organizer, never the server's memory."""
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{32}")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]

_kept: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
_lock = threading.Lock()


def keep(html: str, *, now: float | None = None) -> str:
    """Keep ``html`` for :data:`KEEP_SECONDS`; the path a browser opens it at."""
    token = secrets.token_urlsafe(24)
    with _lock:
        _kept[token] = ((time.monotonic() if now is None else now) + KEEP_SECONDS, html.encode("utf-8"))
        while len(_kept) > _MOST:
            _kept.popitem(last=False)
    return PRINTOUT_PATH + token


def _kept_for(token: str) -> bytes | None:
    with _lock:
        found = _kept.get(token)
        if found is None:
            return None
        if found[0] < time.monotonic():
            del _kept[token]
            return None
        return found[1]


class Printouts:
    """Answers ``GET /printout/<token>`` with the printable kept under it, 404 for any other token."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                      send: Callable[[Message], Awaitable[None]]) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or not path.startswith(PRINTOUT_PATH):
            await self.app(scope, receive, send)
            return
        token = path[len(PRINTOUT_PATH):]
        body = _kept_for(token) if _TOKEN.fullmatch(token) and scope.get("method") == "GET" else None
        status, kind = (200, b"text/html; charset=utf-8") if body is not None else (404, b"text/plain; charset=utf-8")
        body = body if body is not None else b"This printable is no longer kept: print it again from the organizer's page."
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                                (b"cache-control", b"no-store"), (b"referrer-policy", b"no-referrer"),
                                (b"x-robots-tag", b"noindex")]})
        await send({"type": "http.response.body", "body": body})
