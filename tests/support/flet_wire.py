"""A Flet client as the browser's is on the wire: a websocket to ``/ws`` from a chosen loopback
address, the registration message, the session id the server answers with.

Enough to open, reattach and abandon sessions the way a phone (or an attacker) does, without a
browser: each registration runs the app's ``main`` on the server.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import msgpack
import websockets
from websockets.asyncio.client import ClientConnection

__all__ = ["WireSession", "open_session", "REGISTER_CLIENT"]

REGISTER_CLIENT = 1
"""Flet's ``MessageAction.REGISTER_CLIENT``."""


def _frame(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


@dataclass
class WireSession:
    """One registered session on its socket."""

    socket: ClientConnection
    session_id: str

    async def close(self) -> None:
        await self.socket.close()


async def open_session(port: int, source: str = "127.0.0.1", session_id: str = "", route: str = "/",
                       timeout: float = 30.0) -> WireSession:
    """Connect from ``source`` and register (``session_id``: reattach to that session, as a reload does).

    :raises websockets.exceptions.InvalidStatus: the server refused the websocket.
    """
    socket = await websockets.connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                                      local_addr=(source, 0), open_timeout=timeout, max_size=None)
    page = {"route": route, "width": 390, "height": 844, "platform": "linux", "web": True, "pwa": False,
            "debug": False, "multi_view": False}
    await socket.send(_frame(REGISTER_CLIENT, {"session_id": session_id, "page_name": "", "page": page}))
    while True:
        data = await asyncio.wait_for(socket.recv(), timeout)
        assert isinstance(data, bytes)
        if data[:1] != b"\x00":
            continue
        action, body = msgpack.unpackb(data[1:], strict_map_key=False)
        if action == REGISTER_CLIENT:
            return WireSession(socket, str(body["session_id"]))


PATCH_CONTROL = 2
CONTROL_EVENT = 3
UPDATE_CONTROL_PROPS = 4
INVOKE_METHOD = 5


class WirePage:
    """A registered session driven as a person would: it answers the app's service calls (client
    storage is empty), learns the ids of keyed controls from what the server sends, types and taps.

    ``seen`` is every message's text since the last :meth:`mark`, for :meth:`wait_for`.
    """

    def __init__(self, session: WireSession) -> None:
        self.session = session
        self.ids: dict[str, int] = {}
        self.seen = ""
        self.log = ""
        """Everything received, for :meth:`latest` (Flet sends a text again only when it changes)."""
        self.messages = 0
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, source: str, route: str) -> WirePage:
        return cls(await open_session(port, source, route=route))

    async def _read(self) -> None:
        socket = self.session.socket
        async for data in socket:
            if not isinstance(data, bytes) or data[:1] != b"\x00":
                continue
            action, body = msgpack.unpackb(data[1:], strict_map_key=False)
            if action == INVOKE_METHOD:
                result = True if body.get("name") == "set" else None
                await socket.send(_frame(INVOKE_METHOD, {"control_id": body["control_id"], "call_id": body["call_id"],
                                                         "result": result, "error": None}))
                continue
            self._learn(body)
            self.seen += repr(body)
            self.log += repr(body)
            self.messages += 1
            self.changed.set()

    def _learn(self, value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("key"), str) and isinstance(value.get("_i"), int):
                self.ids[value["key"]] = value["_i"]
            for item in value.values():
                self._learn(item)
        elif isinstance(value, list):
            for item in value:
                self._learn(item)

    def mark(self) -> None:
        """Forget what was seen so far (the next :meth:`wait_for` looks at what comes after)."""
        self.seen = ""

    async def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        """The first of ``texts`` to arrive (or be seen since :meth:`mark`)."""
        async def found() -> str:
            while True:
                hit = next((text for text in texts if text in self.seen), None)
                if hit is not None:
                    return hit
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(found(), timeout)

    async def next_message(self, after: int, timeout: float = 30.0) -> None:
        """Until a message later than the ``after``-th has come."""
        async def arrived() -> None:
            while self.messages <= after:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(arrived(), timeout)

    def latest(self, *texts: str) -> str | None:
        """Which of ``texts`` was received last (None: none yet)."""
        found = max(((self.log.rfind(text), text) for text in texts), default=(-1, None))
        return found[1] if found[0] >= 0 else None

    async def type(self, key: str, text: str) -> None:
        control = self.ids[key]
        await self.session.socket.send(_frame(UPDATE_CONTROL_PROPS, {"id": control, "props": {"value": text}}))
        await self.session.socket.send(_frame(CONTROL_EVENT, {"target": control, "name": "change", "data": text}))

    async def click(self, key: str) -> None:
        await self.session.socket.send(_frame(CONTROL_EVENT, {"target": self.ids[key], "name": "click", "data": None}))

    async def event(self, control: int, name: str, data: Any) -> None:
        """A client event for the control of id ``control`` (a service, such as a file picker, has no key)."""
        await self.session.socket.send(_frame(CONTROL_EVENT, {"target": control, "name": name, "data": data}))

    async def close(self) -> None:
        await self.session.close()
        self.reader.cancel()
