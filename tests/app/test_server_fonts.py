"""The local server answers the client's fallback-font requests from the fonts folder, by path
or through aliases.json, and passes every other request on (nothing outside the folder)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest

from app.venue.server import FallbackFonts

EMOJI_PART = "notocoloremoji/v32/part.4.woff2"
EMOJI = "notoemoji/farkle/noto-emoji-mono.woff2"
CJK = "notosanssc/v37/slice.116.woff2"


@pytest.fixture
def fonts(tmp_path: Path) -> FallbackFonts:
    folder = tmp_path / "assets" / "fonts"
    for rel, body in ((EMOJI, b"emoji"), (CJK, b"cjk")):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(body)
    (folder / "aliases.json").write_text(json.dumps({EMOJI_PART: EMOJI}))
    (tmp_path / "secret.woff2").write_bytes(b"secret")
    return FallbackFonts(_passed_on, tmp_path)


async def _passed_on(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 404, "headers": []})
    await send({"type": "http.response.body", "body": b"passed on"})


def get(app: FallbackFonts, path: str, method: str = "GET") -> tuple[int, dict[bytes, bytes], bytes]:
    sent: list[MutableMapping[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    async def receive() -> MutableMapping[str, Any]:
        return {"type": "http.request"}

    asyncio.run(app({"type": "http", "method": method, "path": path, "headers": []}, receive, send))
    return sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def test_a_font_of_the_folder_is_served_by_its_path_or_its_alias(fonts: FallbackFonts) -> None:
    status, headers, body = get(fonts, "/assets/fonts/" + CJK)
    assert (status, headers[b"content-type"], body) == (200, b"font/woff2", b"cjk")
    assert get(fonts, "/apps/farkle/assets/fonts/" + EMOJI_PART)[::2] == (200, b"emoji")  # under an app path
    assert get(fonts, "/assets/fonts/" + CJK, "HEAD")[::2] == (200, b"")


@pytest.mark.parametrize("path", ["/assets/fonts/roboto.woff2", "/assets/fonts/notosanssc/v37/missing.woff2",
                                  "/assets/fonts/notosanssc/../../secret.woff2", "/assets/fonts/" + CJK + "x",
                                  "/main.dart.js"])
def test_anything_else_is_passed_on(fonts: FallbackFonts, path: str) -> None:
    assert get(fonts, path)[::2] == (404, b"passed on")
