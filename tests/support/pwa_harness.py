"""Shared by tests/browser/test_pwa.py and tests/bench/bench_pwa.py: build the PWA once (cached by the
hash of its inputs), serve it under a sub-path with http.server, drive it in Debian's
Chromium through Playwright (never `playwright install`).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import importlib
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.support.browser_support import CHROMIUM_ARGS, PHONE_VIEWPORT, FlutterPage

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "cache"
CHROMIUM = "/usr/bin/chromium"
SUB_PATH = "/apps/farkle-table/"  # served under a sub-path: proves the site uses relative URLs
BOOT_TIMEOUT_MS = 90_000


def load_build_module() -> ModuleType:
    """build/build_pwa.py, the build's API; its modules import each other from build/, the
    script's folder when it runs, so build/ goes on sys.path as it does then."""
    if str(ROOT / "build") not in sys.path:
        sys.path.insert(0, str(ROOT / "build"))
    return importlib.import_module("build_pwa")


def built_site(app_dir: Path = ROOT / "app", engine_dir: Path = ROOT / "engine",
               label: str | None = None, **options: Any) -> tuple[Path, dict[str, Any]]:
    """The built site for these inputs (and build options): reused from build/cache/ when
    nothing changed. ``label`` names the cache slot (default: the app folder's name); a
    new build replaces the older builds of the same slot only, so the working tree's and
    another commit's builds (tests/support/baseline_app.py) are both kept."""
    import json

    bp = load_build_module()
    key = bp.input_fingerprint(app_dir, engine_dir)
    variant = "".join(f"-{k}={v}" for k, v in sorted(options.items()))
    slot = f"pwa-{label or app_dir.name}{variant}-"
    out = CACHE / f"{slot}{key}" / "site"
    report_file = out.with_name("site-report.json")
    CACHE.mkdir(parents=True, exist_ok=True)
    # One build of a slot at a time, across processes (two test runs at once would
    # otherwise wipe each other's staging folder).
    with open(CACHE / f"{slot}lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "sw.js").is_file() or not report_file.is_file():
            for stale in CACHE.glob(f"{slot}*"):  # not another variant's slot (same prefix)
                if stale.is_dir() and re.fullmatch(r"[0-9a-f]+", stale.name.removeprefix(slot)):
                    shutil.rmtree(stale, ignore_errors=True)
            bp.build(app_dir, engine_dir, out, quiet=True, **options)
    return out, json.loads(report_file.read_text(encoding="utf-8"))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@dataclass
class Server:
    """`python -m http.server` equivalent over a folder where the site sits at SUB_PATH."""

    site: Path
    root: Path
    httpd: http.server.ThreadingHTTPServer | None = None
    port: int = 0

    def start(self) -> "Server":
        mount = self.root / SUB_PATH.strip("/")
        mount.parent.mkdir(parents=True, exist_ok=True)
        if not mount.exists():
            mount.symlink_to(self.site, target_is_directory=True)
        handler = functools.partial(_QuietHandler, directory=str(self.root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.port = self.httpd.server_port
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{SUB_PATH}"

    def stop(self) -> None:
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


@contextlib.contextmanager
def serving(site: Path, root: Path) -> Iterator[Server]:
    server = Server(site, root).start()
    try:
        yield server
    finally:
        server.stop()


def cut_network(context: Any) -> None:
    """No network at all for this browser context: offline emulation, and every request
    that would leave this machine aborted."""
    context.set_offline(True)

    def block(route: Any) -> None:
        host = route.request.url.split("/")[2].split(":")[0]
        if host == "127.0.0.1":
            route.continue_()
        else:
            route.abort("internetdisconnected")

    context.route("**/*", block)


@dataclass
class Browser:
    """One persistent Chromium profile; records every request and console message."""

    profile: Path
    offline: bool = False
    requests: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def __enter__(self) -> "Browser":
        from playwright.sync_api import sync_playwright

        self.playwright = sync_playwright().start()
        self.context = self.playwright.chromium.launch_persistent_context(
            str(self.profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            offline=self.offline, viewport=PHONE_VIEWPORT,
        )
        self.context.on("request", lambda r: self.requests.append(r.url))
        if self.offline:
            self.cut_network()
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.flutter = FlutterPage(self.page)
        return self

    def __exit__(self, *exc: object) -> None:
        self.context.close()
        self.playwright.stop()

    def cut_network(self) -> None:
        cut_network(self.context)

    def wait_sw_control(self, timeout_ms: int = 60_000) -> str:
        self.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=timeout_ms)
        return str(self.page.evaluate("navigator.serviceWorker.controller.scriptURL"))

    def wait_python_snapshot(self, timeout_s: float = 90, page: Any = None) -> str:
        """Once Python started without a memory snapshot, the page (``page``, by default
        this browser's first) makes one in the background (build/templates/python-snapshot.js):
        wait until it is saved or failed. Returns the final state ("" for a build without
        snapshots). A build without the early Python start (``early_python=False``) never
        says how Python started: do not wait on it (it would time out)."""
        page = page or self.page
        deadline = time.monotonic() + timeout_s
        while True:
            start = page.evaluate("globalThis.fletPythonStart || null")
            if start is not None and "snapshot" not in start:
                return ""  # built without snapshots
            state = page.evaluate("globalThis.fletSnapshotState || ''")
            if start is not None and (start.get("snapshot") or state in ("saved", "failed")):
                return state or "used"
            if time.monotonic() > deadline:
                raise TimeoutError(f"Python snapshot still {state!r} after {timeout_s} s")
            time.sleep(0.2)

    def python_start(self) -> dict[str, Any]:
        """How Python started on this page: {"snapshot": bool, "reason": str, "ms": int}."""
        return dict(self.page.evaluate("globalThis.fletPythonStart || {}"))

    def external_requests(self) -> list[str]:
        return [u for u in self.requests
                if not u.startswith(("http://127.0.0.1", "data:", "blob:", "chrome-extension:"))]


def app_ready(page: FlutterPage) -> None:
    """The home screen answers: its "New game" button is in the accessibility tree."""
    page.button("New game").wait_for(state="visible", timeout=BOOT_TIMEOUT_MS)


def time_to_interactive(browser: Browser, url: str | None = None, reload: bool = False,
                        ready: Callable[[FlutterPage], None] = app_ready) -> float:
    """Seconds from navigation until ``ready`` returns (the app answers to input)."""
    start = time.monotonic()
    if reload:
        browser.flutter.reload(BOOT_TIMEOUT_MS)
    else:
        assert url
        browser.flutter.open(url, BOOT_TIMEOUT_MS)
    ready(browser.flutter)
    return time.monotonic() - start


def precache_size(site: Path) -> int:
    """How many files the site's service worker keeps: one per content (index.html and
    404.html are one)."""
    import json

    precache = re.search(r"const PRECACHE = (\[.*?\]);", (site / "sw.js").read_text(encoding="utf-8"), re.S)
    assert precache, "sw.js has no PRECACHE list"
    return len({integrity for _, integrity in json.loads(precache[1])})


FILES_CACHE = f"farkle-table:{SUB_PATH}:files"


def wait_precached(page: Any, site: Path, timeout_s: float = 90) -> None:
    """Until the page's service worker controls it and holds every file of ``site``: from
    then on the phone needs no network."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=timeout_s * 1000)
    page.wait_for_function(
        "async ([name, size]) => (await (await caches.open(name)).keys()).length >= size",
        arg=[FILES_CACHE, precache_size(site)], timeout=timeout_s * 1000, polling=250)


PYODIDE_RUNNER = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [site] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(site, "pyodide/pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(site, "pyodide") + "/", stdout: () => {}, stderr: console.error });
pyodide.FS.writeFile("/app.tar.gz", fs.readFileSync(path.join(site, "app.tar.gz")));
console.log(await pyodide.runPythonAsync(`
import os, shutil, sys
os.chdir("/home/pyodide")
shutil.unpack_archive("/app.tar.gz", ".", "gztar")
sys.path.insert(0, ".")
{python}
`));
"""


def run_in_pwa_pyodide(tmp_path_factory: Any, python: str, timeout_s: float) -> Any:
    """Run ``python`` in the PWA's own Python (its Pyodide, with app.tar.gz unpacked and on
    sys.path, run by Node.js) and return the JSON its last expression gives; skips without Node.js."""
    import json
    import subprocess

    import pytest

    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed")
    site = tmp_path_factory.mktemp("pwa") / "site"
    load_build_module().build(out=site, quiet=True)
    script = site.parent / "timings.mjs"
    script.write_text(PYODIDE_RUNNER.replace("{python}", python.strip("\n")), encoding="utf-8")
    done = subprocess.run(["node", str(script), str(site)], capture_output=True, text=True, timeout=timeout_s)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
