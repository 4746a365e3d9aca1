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
