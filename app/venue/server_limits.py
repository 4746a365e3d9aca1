"""What one device on the venue network may cost the server: sessions, sockets, time.

Each Flet session costs about 140 KB and Flet keeps a disconnected one for an hour by
default, so anyone could fill the memory by connecting and closing; a socket that never
finishes its headers was held forever. :mod:`app.venue.server` therefore runs with:

* :data:`SESSION_KEEP_SECONDS`: a disconnected session is dropped this long after its
  socket closed (Flet's own ``FLET_SESSION_TIMEOUT``; its sweep runs every 10 s). A
  reloaded tab reattaches within it; a later one starts afresh from what is stored.
* :class:`SessionLimits`: at most :data:`SESSIONS_PER_ADDRESS` sessions held for one
  address and :data:`SESSIONS_OVERALL` in all (a session counts from its socket's opening
  until Flet may have dropped it); past that a new websocket is refused (403). It also
  keeps a client that closes at once from leaving a session Flet never expires.
* :func:`guarded_http`: uvicorn's HTTP protocol with a deadline for a request's headers
  (:data:`HEADER_SECONDS`), a cap on their size (:data:`HEADER_BYTES`) and on the
  sockets one address holds open (:data:`SOCKETS_PER_ADDRESS`), besides uvicorn's own
  keep-alive timeout and ``limit_concurrency``.

The organizer's own addresses (:func:`app.venue.client_address.is_organizer_address`) are never refused.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

__all__ = [
    "SESSION_KEEP_SECONDS", "SESSIONS_PER_ADDRESS", "SESSIONS_OVERALL", "HEADER_SECONDS", "HEADER_BYTES",
    "SOCKETS_PER_ADDRESS", "KEEP_ALIVE_SECONDS", "CONCURRENCY", "SessionLimits", "guarded_http",
]

SESSION_KEEP_SECONDS: Final = 30
"""How long Flet keeps a disconnected session (its default is an hour)."""
FLET_SWEEP_SECONDS: Final = 10
"""How often Flet's app manager drops expired sessions."""
SESSIONS_PER_ADDRESS: Final = 12
"""Sessions one device may hold: a few tabs, each reloaded a few times within :data:`SESSION_KEEP_SECONDS`."""
SESSIONS_OVERALL: Final = 500
"""Sessions the server holds in all (about 70 MB): a venue's phones with room to spare."""
HEADER_SECONDS: Final = 10.0
"""A request's headers must be complete this long after its socket opened (or the last answer)."""
HEADER_BYTES: Final = 64 * 1024
"""A request's headers may not be longer (Flet's are under 2 KB)."""
SOCKETS_PER_ADDRESS: Final = 32
"""HTTP sockets one address may hold open at once (a browser opens about 6)."""
KEEP_ALIVE_SECONDS: Final = 5
"""An idle keep-alive socket is closed after this (uvicorn's ``timeout_keep_alive``)."""
CONCURRENCY: Final = 1000
"""uvicorn's ``limit_concurrency``: past this many sockets and tasks, a new request gets 503."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
logger = logging.getLogger(__name__)


def _is_organizer(address: str) -> bool:
    from app.venue.client_address import is_organizer_address

    return is_organizer_address(address)


class SessionLimits:
    """Refuses a websocket (a Flet session) from an address, or from anyone, holding too many.

    A session is counted from its socket's opening until ``keep`` seconds after it closed
    (when Flet may have dropped it): a reload counts twice for a while, which only errs on
    the safe side.
    """

    def __init__(self, app: ASGIApp, per_address: int = SESSIONS_PER_ADDRESS, overall: int = SESSIONS_OVERALL,
                 keep: float = SESSION_KEEP_SECONDS + FLET_SWEEP_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 exempt: Callable[[str], bool] = _is_organizer) -> None:
        self.app = app
        self.per_address = per_address
        self.overall = overall
        self.keep = keep
        self.clock = clock
        self.exempt = exempt
        self.open: Counter[str] = Counter()
        self.closed: dict[str, deque[float]] = {}

    def held(self, address: str | None = None) -> int:
        """Sessions held now by ``address`` (by everyone counted, when None)."""
        horizon = self.clock() - self.keep
        for key in list(self.closed):
            times = self.closed[key]
            while times and times[0] < horizon:
                times.popleft()
            if not times:
                del self.closed[key]
        if address is None:
            return sum(self.open.values()) + sum(map(len, self.closed.values()))
        return self.open[address] + len(self.closed.get(address, ()))

    def refusal(self, address: str) -> str | None:
        """Why a new session from ``address`` is refused now, or None."""
        if self.exempt(address):
            return None
        if self.held(address) >= self.per_address:
            return f"{address} holds {self.per_address} sessions already"
        if self.held() >= self.overall:
            return f"the server holds {self.overall} sessions already"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        reason = self.refusal(address)
        if reason is not None:
            logger.warning("Refused a session: %s", reason)
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1013, "reason": "too many sessions"})
            return
        counted = not self.exempt(address)
        if counted:
            self.open[address] += 1

        async def send_while_connected(message: Message) -> None:
            """Flet's send loop stops on an error without marking its session disconnected, so
            a client that closes while the first screen is sent left a session that never
            expires: a send to a closed socket is dropped instead (the receive side ends it)."""
            try:
                await send(message)
            except OSError:
                if message.get("type") != "websocket.send":
                    raise

        try:
            await self.app(scope, receive, send_while_connected)
        finally:
            if counted:
                self.open[address] -= 1
                if not self.open[address]:
                    del self.open[address]
                self.closed.setdefault(address, deque()).append(self.clock())


def guarded_http(header_seconds: float = HEADER_SECONDS, header_bytes: int = HEADER_BYTES,
                 per_address: int = SOCKETS_PER_ADDRESS,
                 exempt: Callable[[str], bool] = _is_organizer) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (``http=``) that closes a socket whose request headers are late
    or too long, and refuses a socket from an address already holding ``per_address``.

    uvicorn arms its keep-alive timeout only after an answer, so a socket that sends its
    headers a byte at a time (or nothing) was otherwise held for ever.
    """
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    held: Counter[str] = Counter()

    class GuardedHttp(AutoHTTPProtocol):  # type: ignore[valid-type,misc]
        """One HTTP socket, with a deadline for each request's headers."""

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            self.guard_address = str(peer[0]) if peer else ""
            self.guard_counted = False
            self.guard_timer: asyncio.TimerHandle | None = None
            if not exempt(self.guard_address):
                if held[self.guard_address] >= per_address:
                    transport.close()
                    return
                held[self.guard_address] += 1
                self.guard_counted = True
            self.guard_wait_for_headers()

        def guard_wait_for_headers(self) -> None:
            self.guard_bytes = 0
            self.guard_stop_waiting()
            self.guard_timer = asyncio.get_running_loop().call_later(header_seconds, self.guard_late)

        def guard_stop_waiting(self) -> None:
            if self.guard_timer is not None:
                self.guard_timer.cancel()
                self.guard_timer = None

        def guard_awaiting_headers(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def guard_late(self) -> None:
            if self.guard_awaiting_headers() and not self.transport.is_closing():
                self.transport.close()

        def guard_release(self) -> None:
            self.guard_stop_waiting()
            if self.guard_counted:
                self.guard_counted = False
                held[self.guard_address] -= 1
                if not held[self.guard_address]:
                    del held[self.guard_address]

        def data_received(self, data: bytes) -> None:
            if self.guard_timer is not None and self.guard_awaiting_headers():
                self.guard_bytes += len(data)
                if self.guard_bytes > header_bytes:
                    self.guard_release()
                    self.transport.close()
                    return
            super().data_received(data)
            if not self.guard_awaiting_headers():
                self.guard_stop_waiting()  # the request is in: the app answers in its own time

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self.guard_wait_for_headers()

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self.guard_release()  # a websocket is counted by SessionLimits from here
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self.guard_release()
            super().connection_lost(exc)

    return GuardedHttp
