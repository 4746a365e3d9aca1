"""The offline PWA on plain static hosts, in Chromium: join links open the app on a first
visit under a sub-path (on `python -m http.server`, which has no 404.html, and on a host
that serves 404.html as GitHub Pages does), before and after the service worker is
installed; a new deployment is offered with a banner, downloads only the files that
changed, and one tap reloads into it; the fallback fonts the client asks for (CJK
included) come from the site.

The site is built once per input hash (build/cache/, tests/support/pwa_harness.py).
"""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from engine import safe_form
from tests.support.browser_support import FlutterPage, new_game, wait_until
from tests.support.pwa_harness import (
    BOOT_TIMEOUT_MS, FILES_CACHE, Browser, app_ready, built_site, load_build_module, precache_size,
    time_to_interactive, wait_precached,
)
from tests.support.pwa_links_support import SUB_PATH, setup_code, static_host

bp = load_build_module()
CODE = safe_form(setup_code())
TABLE = "MAYOR-26 · Round 1 · Table 3"


@pytest.fixture(scope="module")
def site() -> tuple[Path, dict[str, Any]]:
    return built_site()


def shows_the_join_screen_on_the_code(page: FlutterPage) -> None:
    """The join screen has read the link's code: the table and its seats are shown."""
    page.wait_for_text(TABLE, BOOT_TIMEOUT_MS)
    page.wait_for_text("Seat 3: Zoë (number 31)")
    page.button("Start the table's game").wait_for(timeout=10_000)


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.mark.browser
def test_join_links_open_on_python_http_server_before_and_after_the_service_worker(
        site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """`python -m http.server` answers only real files: the link a card carries is
    <site>/#/join/CODE, which the page turns into the app's /join/CODE route at start.
    Once the service worker is installed, the path form <site>/join/CODE opens too."""
    root, _ = site
    with static_host(root, tmp_path / "www") as host, Browser(tmp_path / "profile") as b:
        assert status_of(host.url + "join/" + CODE) == 404  # no shell for a path link here
        b.flutter.open(host.url + "#/join/" + CODE)
        shows_the_join_screen_on_the_code(b.flutter)
        assert b.page.url == host.url + "join/" + CODE  # the route is a path from here on
        assert b.wait_sw_control() == host.url + "sw.js"

        b.flutter.open(host.url + "join/" + CODE)  # the service worker answers the path link
        shows_the_join_screen_on_the_code(b.flutter)
        b.flutter.open(host.url + "?join=" + CODE)  # the query form, for links that cannot carry '#'
        shows_the_join_screen_on_the_code(b.flutter)
        b.flutter.open(host.url)  # and the app's own start is untouched
        app_ready(b.flutter)
        assert b.external_requests() == []


@pytest.mark.browser
def test_a_path_link_opens_on_a_first_visit_where_the_host_serves_404_html(
        site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """GitHub Pages and most static hosts answer a missing path with the site's 404.html:
    the app shell finds the site's folder in the path and opens the join screen."""
    root, _ = site
    with static_host(root, tmp_path / "www", pages=True) as host, Browser(tmp_path / "profile") as b:
        assert status_of(host.url + "join/" + CODE) == 404
        b.flutter.open(host.url + "join/" + CODE)
        shows_the_join_screen_on_the_code(b.flutter)
        assert b.wait_sw_control() == host.url + "sw.js"  # registered for the site, not /join/
        b.flutter.reload()
        shows_the_join_screen_on_the_code(b.flutter)
        assert ("/apps/farkle-table/join/" + CODE, 404) not in host.log[-5:]  # answered by the worker




@pytest.mark.browser
def test_a_new_deployment_is_offered_and_downloads_only_what_changed(
        site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """Deploy build A and open it; deploy build B (one file changed) while it is open: B's
    worker fetches that file only, the page shows "A new version is ready: Reload", A keeps
    running until the tap, and the tap reloads into B."""
    root, report = site
    deployed = tmp_path / "deployed"
    shutil.copytree(root, deployed)
    precache_a = precache_size(deployed)
    with static_host(deployed, tmp_path / "www") as host, Browser(tmp_path / "profile") as b:
        time_to_interactive(b, host.url)
        wait_precached(b.page, deployed, timeout_s=60)
        count = f"caches.open({FILES_CACHE!r}).then(c => c.keys()).then(k => k.length)"
        new_game(b.flutter, "Ann", "Bob")  # a game in progress while the update arrives

        changed = deployed / "python.js"
        changed.write_text(changed.read_text() + "\n// build B\n")
        build_b = bp.write_service_worker(deployed)
        assert build_b != report["build_hash"]
        host.log.clear()
        b.page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        reload = b.page.get_by_role("button", name="Reload")
        reload.wait_for(timeout=90_000)
        assert b.page.inner_text("#farkle-update").startswith("A new version is ready:")
        assert sorted(set(host.downloads())) == ["python.js", "sw.js"], host.log  # nothing else again
        b.page.wait_for_function(  # nothing happens by itself: B waits for the tap, A still runs the game
            "async () => { const r = await navigator.serviceWorker.getRegistration(); return !!(r && r.waiting); }",
            timeout=60_000, polling=250)
        b.flutter.wait_for_text("Enter Ann's throw")
        assert "// build B" not in b.page.evaluate("fetch('python.js').then(r => r.text())")

        with b.page.expect_navigation(timeout=60_000):
            reload.click()
        b.flutter.enable_semantics(BOOT_TIMEOUT_MS)
        b.flutter.wait_for_text("Enter Ann's throw", BOOT_TIMEOUT_MS)  # same game, new build
        assert "// build B" in b.page.evaluate("fetch('python.js').then(r => r.text())")
        assert b.page.evaluate("document.getElementById('farkle-update')") is None
        assert b.page.evaluate(f"caches.keys().then(k => k.filter(n => n.startsWith('farkle-table:{SUB_PATH}')))") \
            == [FILES_CACHE]
        assert b.page.evaluate(count) == precache_a  # A's copy of python.js is gone
        assert sorted(set(host.downloads()) - {"python.js", "sw.js"}) == []


@pytest.mark.browser
def test_names_in_any_script_get_their_fonts_from_the_site(
        site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """Names with accents, Greek, Cyrillic, a symbol, emoji, Chinese and Korean: the client
    fetches the shipped fallback fonts (never a missing one, never another site's), the
    parts of the CJK fonts that have those characters among them, and the service worker
    keeps those parts for offline use."""
    from fontTools.ttLib import TTFont

    root, report = site
    shipped = {"assets/fonts/" + path for path in report["fallback_fonts"]}
    names = ("Zoë Ωμέγα 王小明", "Жанна 🎲😀 → 김민준")
    with static_host(root, tmp_path / "www") as host, Browser(tmp_path / "profile") as b:
        time_to_interactive(b, host.url)
        new_game(b.flutter, *names)
        b.flutter.wait_for_text(names[1])

        def fetched() -> set[tuple[str, int]]:
            return {(path.removeprefix(SUB_PATH), status) for path, status in host.log if "/assets/fonts/" in path}

        def cjk_without_a_font() -> str:
            cmaps = [TTFont(root / path).getBestCmap() for path, status in fetched()
                     if bp.is_on_demand(path) and status in (200, 304)]
            return "".join(char for char in "王小明김민준" if not any(ord(char) in cmap for cmap in cmaps))

        wait_until(lambda: not cjk_without_a_font(), 90,  # the parts of the CJK fonts load after the first layout
                   lambda: f"no font part fetched has {cjk_without_a_font()!r} (fetched: {sorted(fetched())})",
                   pause=b.flutter.pause, every_s=0.25)
        fonts = fetched()
        missing = {path for path, status in fonts if status not in (200, 304)}
        assert missing == set(), fonts
        assert {path for path, _ in fonts} & shipped, fonts
        cjk = {path for path, _ in fonts if bp.is_on_demand(path)}
        cmaps = [TTFont(root / path).getBestCmap() for path in cjk]
        assert [char for char in "王小明김민준" if not any(ord(char) in cmap for cmap in cmaps)] == [], cjk
        keys = [host.url + "__content__/" + bp.sri((root / path).read_bytes()).removeprefix("sha256-")
                .replace("+", "-").replace("/", "_").rstrip("=") for path in cjk]
        wait_precached(b.page, root)
        b.page.wait_for_function(
            "async ([name, keys]) => { const cache = await caches.open(name);"
            " return (await Promise.all(keys.map((key) => cache.match(key)))).every(Boolean); }",
            arg=[FILES_CACHE, keys], timeout=60_000, polling=500)
        assert b.external_requests() == []
