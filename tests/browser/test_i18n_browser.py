"""The language path in a real browser: Chromium reports its language, Flutter's client
passes it on (``page.get_device_info``), and the app shows that language's catalogue.

The app runs from a copy of app/ and engine/ that holds a test catalogue (the app ships
English only), on one server for two phones at once.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.browser_support import REPO_ROOT, FlutterPage, start_app_server
from tests.browser.test_i18n import PORTUGUESE

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.support.browser_support import AppServer


@pytest.fixture
def server_with_portuguese(tmp_path: Path) -> Iterator[AppServer]:
    copy = tmp_path / "tree"
    for part in ("app", "engine"):
        shutil.copytree(REPO_ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "app" / "i18n" / "locale" / "pt.po").write_text(PORTUGUESE, encoding="utf-8")
    with start_app_server(tmp_path / "data", cwd=copy) as server:
        yield server


@pytest.mark.browser
def test_a_portuguese_and_a_german_browser_on_one_server_each_see_their_language(
        chromium_browser: Browser, server_with_portuguese: AppServer) -> None:
    portuguese = FlutterPage.new_phone(chromium_browser, locale="pt-BR")
    german = FlutterPage.new_phone(chromium_browser, locale="de-DE")
    try:
        portuguese.open(server_with_portuguese.url)
        german.open(server_with_portuguese.url)
        portuguese.button("Novo jogo").wait_for()
        portuguese.wait_for_text("Jogos por terminar")
        assert portuguese.page.title() == "Mesa de Farkle"
        german.button("New game").wait_for()  # no German catalogue: English
        german.wait_for_text("Unfinished games")
        assert german.page.title() == "Farkle Table"
    finally:
        portuguese.close()
        german.close()
