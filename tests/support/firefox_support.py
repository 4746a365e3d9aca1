"""Firefox journeys' helpers: Debian's firefox-esr driven by Puppeteer-core over WebDriver
BiDi (no geckodriver, no downloaded browser), through a small Node process,
tests/browser/firefox/driver.mjs, that answers one JSON line per command.

:class:`FirefoxPage` has the verbs of tests/support/browser_support.py's ``FlutterPage`` (open,
click_button, type_into, wait_for_text, texts, reload), so tests/support/browser_support.py's
``new_game`` and the journeys read the same in both browsers.

Puppeteer-core is pinned in tests/browser/firefox/package-lock.json and installed there with
``npm ci`` once per lock file (:func:`ensure_node_modules`, under a lock, as build/cache is).

    with Firefox.launch() as firefox:
        page = firefox.new_page()
        page.open(url)
        page.click_button("New game")
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import selectors
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

FIREFOX_PATH = "/usr/bin/firefox-esr"
FIREFOX_DIR = Path(__file__).resolve().parents[1] / "browser" / "firefox"
NODE_MODULES = FIREFOX_DIR / "node_modules"
STAMP = NODE_MODULES / ".farkle-installed"
"""Holds the hash of the package-lock.json it was installed from (npm ci removes it first)."""
INSTALL_LOCK = FIREFOX_DIR.parents[2] / "build" / "cache" / "firefox-npm.lock"
"""One install at a time across processes (outside node_modules, which npm ci deletes)."""
BOOT_TIMEOUT_MS = 120_000
"""Firefox headless has no WebGL here: Flutter paints through CanvasKit on the CPU."""
ACTION_TIMEOUT_MS = 30_000
REPLY_MARGIN_S = 60.0
"""How much longer than a command's own timeout the driver may take to answer."""


class FirefoxError(RuntimeError):
    """The driver could not do what it was asked (its message says why)."""


def firefox_missing_reason() -> Optional[str]:
    """Why the Firefox journeys cannot run here (``None``: they can)."""
    if not os.access(FIREFOX_PATH, os.X_OK):
        return f"{FIREFOX_PATH} not found: install it with 'sudo apt-get install firefox-esr' (or 'make browser')"
    if shutil.which("node") is None:
        return "node not found: the Firefox journeys drive Firefox through Puppeteer-core (install Node.js and npm)"
    return None


def lock_hash() -> str:
    return hashlib.sha256((FIREFOX_DIR / "package-lock.json").read_bytes()).hexdigest()[:16]


def ensure_node_modules() -> Optional[str]:
    """Install the pinned Puppeteer-core into tests/browser/firefox/node_modules with ``npm ci``
    unless this lock file's install is there already. One install at a time across
    processes. Returns ``None`` when installed, else why not (no npm, npm failed)."""
    wanted = lock_hash()
    if STAMP.is_file() and STAMP.read_text().strip() == wanted:
        return None
    npm = shutil.which("npm")
    if npm is None:
        return ("npm not found: the Firefox journeys need Puppeteer-core from tests/browser/firefox/package-lock.json "
                "(install Node.js and npm, or run 'cd tests/browser/firefox && npm ci')")
    INSTALL_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(INSTALL_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if STAMP.is_file() and STAMP.read_text().strip() == wanted:
            return None  # another process installed it meanwhile
        proc = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=FIREFOX_DIR, capture_output=True, text=True, timeout=600,
            env={**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"},
        )
        if proc.returncode != 0:
            return f"npm ci in tests/browser/firefox failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        STAMP.write_text(wanted + "\n")
    return None


@dataclass
class Firefox:
    """One headless firefox-esr behind tests/browser/firefox/driver.mjs."""

    process: subprocess.Popen[str]
    log_path: Path
    version: str = ""
    _ids: Iterator[int] = field(default_factory=lambda: iter(range(1, 1 << 62)))

    @classmethod
    @contextmanager
    def launch(cls, log_dir: Optional[Path] = None, prefs: Optional[dict[str, Any]] = None) -> Iterator[Firefox]:
        log_dir = log_dir or Path(tempfile.mkdtemp(prefix="farkle-firefox-"))
        log_path = log_dir / "firefox-driver.log"
        with open(log_path, "a") as log:
            process = subprocess.Popen(
                ["node", str(FIREFOX_DIR / "driver.mjs")], cwd=FIREFOX_DIR, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, start_new_session=True,
            )
        firefox = cls(process, log_path)
        try:
            firefox.version = firefox.call("launch", timeout_ms=90_000, executablePath=FIREFOX_PATH,
                                           prefs=prefs or {})["version"]
            yield firefox
        finally:
            firefox.close()

    def call(self, cmd: str, timeout_ms: int = ACTION_TIMEOUT_MS, **args: Any) -> Any:
        """Send one command and wait for its answer (the driver's own timeout, plus a margin)."""
        ident = next(self._ids)
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps({"id": ident, "cmd": cmd, "timeout_ms": timeout_ms, **args}) + "\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout_ms / 1000 + REPLY_MARGIN_S
        with selectors.DefaultSelector() as sel:
            sel.register(self.process.stdout, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise FirefoxError(f"{cmd}: no answer from the driver in time (log: {self.log_path})")
                line = self.process.stdout.readline()
                if not line:
                    raise FirefoxError(f"{cmd}: the driver exited ({self.process.poll()}); log: "
                                       f"{self.log_path}\n{self.log_path.read_text()[-3000:]}")
                reply = json.loads(line)
                if reply.get("id") != ident:
                    continue  # the late answer of a command given up on
                if not reply["ok"]:
                    raise FirefoxError(f"{cmd} {args}: {reply['error']}")
                return reply["result"]

    def new_page(self, isolated: bool = True, same_context_as: Optional[FirefoxPage] = None) -> FirefoxPage:
        """A new tab, phone-sized: in the browser context of ``same_context_as`` if given
        (the same storage, caches and service workers), else in a new context of its own
        (``isolated``) or in the default one."""
        args: dict[str, Any] = {"isolated": isolated}
        if same_context_as is not None:
            args["same_context_as"] = same_context_as.page_id
        return FirefoxPage(self, str(self.call("new_page", **args)))

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.call("close", timeout_ms=20_000)
            except (FirefoxError, OSError, ValueError):
                pass
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)  # the driver and the Firefox it started
                self.process.wait()


@dataclass
class FirefoxPage:
    """A Firefox tab showing a Flet app, acted on through its accessibility tree, with the
    verbs of ``FlutterPage``."""

    firefox: Firefox
    page_id: str

    def _call(self, cmd: str, timeout_ms: int = ACTION_TIMEOUT_MS, **args: Any) -> Any:
        return self.firefox.call(cmd, timeout_ms=timeout_ms, page=self.page_id, **args)

    def open(self, url: str, timeout_ms: int = BOOT_TIMEOUT_MS) -> float:
        """Load the app, switch on Flutter's accessibility tree, and wait until it shows
        something; returns the seconds it took."""
        started = time.monotonic()
        self._call("open", timeout_ms=timeout_ms, url=url)
        self.enable_semantics(timeout_ms)
        return time.monotonic() - started

    def reload(self, timeout_ms: int = BOOT_TIMEOUT_MS) -> float:
        started = time.monotonic()
        self._call("reload", timeout_ms=timeout_ms)
        self.enable_semantics(timeout_ms)
        return time.monotonic() - started

    def enable_semantics(self, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
        self._call("semantics", timeout_ms=timeout_ms)

    def click_button(self, name: str, exact: bool = True, timeout_ms: int = ACTION_TIMEOUT_MS) -> str:
        """Press the button a screen reader calls ``name``; returns how ("mouse": a real
        click at its centre, "dispatched": the click sent to it in the page)."""
        return str(self._call("click", timeout_ms=timeout_ms, name=name, exact=exact))

    def type_into(self, name: str, text: str, replace: bool = True, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        self._call("type", timeout_ms=timeout_ms, name=name, text=text, replace=replace)

    def choose_file(self, button_name: str, path: Path, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        """Press the button that opens a file picker and pick ``path`` in it."""
        self._call("choose_file", timeout_ms=timeout_ms, name=button_name, path=str(path))

    def add_init_script(self, source: str) -> None:
        """Run ``source`` in the page (not in its workers) before the page's own scripts,
        at every load from now on."""
        self._call("init_script", source=source)

    def wait_for_text(self, text: str, timeout_ms: int = ACTION_TIMEOUT_MS, exact: bool = False) -> None:
        try:
            self._call("wait_text", timeout_ms=timeout_ms, text=text, exact=exact)
        except FirefoxError as err:
            if timeout_ms == 0:
                raise
            try:
                shown = self.texts()
            except FirefoxError:
                raise err from None
            raise FirefoxError(f"{err}\nthe page shows instead: {shown}") from None

    def has_text(self, text: str, exact: bool = False) -> bool:
        try:
            self.wait_for_text(text, timeout_ms=0, exact=exact)
        except FirefoxError:
            return False
        return True

    def texts(self) -> list[str]:
        return [str(t) for t in self._call("texts")]

    def buttons(self) -> list[str]:
        """The names of every button shown."""
        return [str(t) for t in self._call("buttons")]

    def button_matching(self, pattern: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> str:
        """The name of the first button whose name matches ``pattern`` (a regex), once shown."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            names = self.buttons()
            for name in names:
                if re.search(pattern, name):
                    return name
            if time.monotonic() > deadline:
                raise FirefoxError(f"no button matching {pattern!r} in {names}")
            time.sleep(0.2)

    def evaluate(self, expr: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> Any:
        """The JSON value of a JavaScript expression in the page (promises are awaited)."""
        return self._call("eval", timeout_ms=timeout_ms, expr=expr)

    def wait_for_function(self, expr: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> Any:
        """Until the expression is truthy (polled every 0.1 s); returns its value."""
        return self._call("wait_function", timeout_ms=timeout_ms, expr=expr)

    @property
    def url(self) -> str:
        return str(self.evaluate("location.href"))

    @property
    def console(self) -> list[str]:
        return [str(m) for m in self._call("console")]

    @property
    def requests(self) -> list[str]:
        return [str(u) for u in self._call("requests")]

    def close(self) -> None:
        self._call("close_page")
