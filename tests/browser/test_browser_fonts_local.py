"""Names in any script on the local server: the Flutter client asks the server for a fallback
font for each character Roboto lacks, and the server answers from the fonts `make run` made
(build/build_pwa.py --local-fonts, the PWA's pinned npm packages), never a font CDN."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.browser_support import FlutterPage, new_game, start_app_server, wait_until
from tests.support.pwa_harness import load_build_module

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

NAMES = ("王小明 राम", "김민준 🎲 → שרה")

FONTS_CEILING_S = 90
"""How long the last fallback fonts may take to arrive on a busy machine (they load after the first layout)."""


def test_names_in_any_script_get_their_fonts_from_the_local_server(
        chromium_browser: Browser, tmp_path: Path) -> None:
    """Every font the client asks for is answered 200 by the server itself, and for each
    character of the names one of the fonts it fetched has that character."""
    from fontTools.ttLib import TTFont

    fonts = tmp_path / "fonts"
    load_build_module().write_local_fonts(fonts)
    aliases = json.loads((fonts / "assets/fonts/aliases.json").read_text(encoding="utf-8"))
    with start_app_server(tmp_path / "data", env={"FARKLE_FONTS_DIR": str(fonts)}) as server:
        page = FlutterPage.new_phone(chromium_browser)
        answered: dict[str, int] = {}
        elsewhere: list[str] = []
        page.page.on("response", lambda r: answered.__setitem__(r.url, r.status) if "/assets/fonts/" in r.url else None)
        page.page.on("request", lambda r: None if r.url.startswith((server.url, "data:", "blob:"))
                     else elsewhere.append(r.url))
        cmaps: dict[str, set[int]] = {}

        def without_a_font() -> str:
            """The names' characters no font fetched so far has."""
            for url, status in list(answered.items()):
                path = url.split("/assets/fonts/", 1)[1]
                if status == 200 and path.endswith(".woff2") and path != "roboto.woff2" and path not in cmaps:
                    cmaps[path] = set(TTFont(fonts / "assets/fonts" / aliases.get(path, path)).getBestCmap())
            return "".join(char for char in "".join(NAMES) if char != " " and not any(ord(char) in cmap
                                                                                     for cmap in cmaps.values()))

        try:
            page.open(server.url)
            new_game(page, *NAMES)
            page.wait_for_text(NAMES[1])
            wait_until(lambda: not without_a_font(), FONTS_CEILING_S,  # fonts load after the first layout
                       lambda: f"no font fetched has {without_a_font()!r} (fetched: {sorted(cmaps)})", pause=page.pause)
        finally:
            page.close()
    assert [url for url in elsewhere if "font" in url] == []  # (Flet's client loads a rive script from a CDN)
    assert {url: status for url, status in answered.items() if status != 200} == {}
    fetched = [url.split("/assets/fonts/", 1)[1] for url in answered]
    cmaps = [TTFont(fonts / "assets/fonts" / aliases.get(path, path)).getBestCmap() for path in fetched
             if path.endswith(".woff2") and path != "roboto.woff2"]
    assert [char for char in "".join(NAMES) if char != " " and not any(ord(char) in cmap for cmap in cmaps)] == [], fetched
