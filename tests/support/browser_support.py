"""Real-browser test helpers: the app server as a subprocess, Debian's Chromium
through Playwright, and a few reliable ways to act on a Flutter page.

Flutter paints on a canvas; what a test can see and press is its accessibility
tree, which :meth:`FlutterPage.open` switches on.  Buttons and fields are then
found by the names a screen reader would read (``label=``/button text), which
is also why every control of the app must be labelled.

Never ``playwright install``: Chromium comes from apt (``/usr/bin/chromium``).

Example (sync Playwright; see tests/conftest.py for the fixtures)::

    with start_app_server(data_dir=tmp_path / "data") as server, launch_chromium() as browser:
        page = FlutterPage.new_phone(browser)
        page.open(server.url)
        page.click_button("New game")
        page.type_into("Player 1", "Ann")
        page.wait_for_text("Ann")
        page.screenshot(Path("assets/screenshots/new-game.png"))
"""

from __future__ import annotations

import asyncio
import io
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

__all__ = [
    "BOOT_TIMEOUT_MS",
    "CHROMIUM_ARGS",
    "CHROMIUM_PATH",
    "PHONE_VIEWPORT",
    "REPO_ROOT",
    "AppServer",
    "FlutterPage",
    "app_command",
    "chromium_available",
    "chromium_missing_reason",
    "free_port",
    "launch_chromium",
    "start_app_server",
    "wait_until",
]

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE_VIEWPORT = {"width": 390, "height": 844}

SCREENSHOTS_ENV = "FARKLE_SCREENSHOTS"
README_SCREENSHOTS = Path(__file__).resolve().parents[2] / "assets" / "screenshots"


def screenshots_dir(fallback: Optional[Path] = None) -> Path:
    """Where a journey puts its pictures: the README's folder under ``make screenshots``
    (``FARKLE_SCREENSHOTS=1``), else ``fallback`` or a new temporary folder, so that
    ``make test`` leaves the checkout as it found it."""
    if os.environ.get(SCREENSHOTS_ENV) == "1":
        return README_SCREENSHOTS
    if fallback is not None:
        return fallback
    import tempfile

    return Path(tempfile.mkdtemp(prefix="farkle-screenshots-"))
BOOT_TIMEOUT_MS = 60_000
"""First paint of the Flutter client on 2 busy cores can take several seconds."""
SERVER_READY_TIMEOUT_S = 60.0
ACTION_TIMEOUT_MS = 30_000

_Seen = TypeVar("_Seen")


def wait_until(condition: Callable[[], _Seen], ceiling_s: float, reason: Callable[[], str], *,
               pause: Callable[[float], None] = time.sleep, every_s: float = 0.1, required: bool = True) -> _Seen:
    """``condition()`` once it is true, asked every ``every_s``; past ``ceiling_s`` (sized for
    a machine other work keeps busy) ``reason()`` is printed with the load, and the test
    fails with it (unless not ``required``: then the last answer is returned).

    ``pause``: how to wait between two looks (:meth:`FlutterPage.pause` lets the page's
    events arrive meanwhile, which ``time.sleep`` holds back)."""
    deadline = time.monotonic() + ceiling_s
    while True:
        seen = condition()
        if seen:
            return seen
        if time.monotonic() >= deadline:
            why = f"{reason()} (after {ceiling_s:.0f} s, load average {os.getloadavg()[0]:.1f})"
            print(why)
            if required:
                raise AssertionError(why)
            return seen
        pause(every_s)

TYPING_ATTEMPTS = 3
TYPING_LANDS_MS = 5_000
"""How long a tap, a field or a text may take to appear. Only a failing test waits this long,
so it is set for a CI machine busier than this one (a 10 s wait failed there)."""


def chromium_available() -> bool:
    """Whether Debian's Chromium is installed where the tests expect it."""
    return os.access(CHROMIUM_PATH, os.X_OK)


def chromium_missing_reason(environ: Optional[dict[str, str]] = None) -> Optional[tuple[bool, str]]:
    """What to do with a browser test here: ``None`` to run it, else
    ``(must_fail, reason)``; on CI (env ``CI`` set) a missing browser is an error,
    elsewhere a skip that says how to get it."""
    if chromium_available():
        return None
    env = os.environ if environ is None else environ
    if env.get("CI"):
        return True, f"CI is set but {CHROMIUM_PATH} is missing: the browser tests cannot run"
    return False, f"{CHROMIUM_PATH} not found: install it with 'sudo apt-get install chromium' (or 'make browser')"


def free_port() -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def app_command(port: int, data_dir: Path) -> list[str]:
    """The real app's command line: ``python -m app --port N --data-dir DIR``."""
    return [sys.executable, "-m", "app", "--port", str(port), "--data-dir", str(data_dir)]


@dataclass
class AppServer:
    """An app server subprocess on 127.0.0.1; its output goes to ``log_path``.

    ``restart()`` and ``kill()`` exist for the "kill the server mid-game and
    start it again" journeys: the same port and data folder are reused, so a
    reload in the browser reaches the new process with the old data.
    """

    command: list[str]
    port: int
    data_dir: Path
    log_path: Path
    env: dict[str, str] = field(default_factory=dict)
    process: Optional[subprocess.Popen[bytes]] = None
    cwd: Path = REPO_ROOT
    """Where the command runs: ``python -m app`` imports the ``app`` and ``engine`` found
    there (tests/support/baseline_app.py serves another commit's copy this way)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout_s: float = SERVER_READY_TIMEOUT_S) -> None:
        """Start the process and return once it answers HTTP."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.command, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT,
                env={**os.environ, **self.env}, start_new_session=True,
            )
        self.wait_until_ready(timeout_s)

    def wait_until_ready(self, timeout_s: float = SERVER_READY_TIMEOUT_S) -> None:
        """Poll the URL; fail with the server's log if it exits or never answers."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(
                    f"App server exited with {self.process.returncode}: {self.command}\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(self.url, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise TimeoutError(f"App server did not answer {self.url} within {timeout_s:.0f} s\n{self.log_tail()}")

    def stop(self, grace_s: float = 5.0) -> None:
        """Ask the server to stop (SIGTERM), then force it after ``grace_s``."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def kill(self) -> None:
        """Kill the server without warning (SIGKILL), as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def restart(self, crash: bool = True) -> None:
        """Kill (or stop) the server and start it again on the same port and data."""
        if crash:
            self.kill()
        else:
            self.stop()
        self.start()

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"


@contextmanager
def start_app_server(
    data_dir: Path,
    command: Optional[Sequence[str]] = None,
    port: Optional[int] = None,
    env: Optional[dict[str, str]] = None,
    cwd: Optional[Path] = None,
) -> Iterator[AppServer]:
    """Run the app (or ``command``, where ``{port}`` and ``{data_dir}`` are
    filled in) until the block ends.

    :param data_dir: the temporary data folder handed to ``--data-dir``.
    :param command: another server command, e.g. a stand-in app.
    :param port: a fixed port; a free one by default.
    :param env: extra environment variables for the server.
    :param cwd: where to run it (the repository by default).
    """
    chosen_port = port or free_port()
    if command is None:
        argv = app_command(chosen_port, data_dir)
    else:
        argv = [part.format(port=chosen_port, data_dir=data_dir) for part in command]
    server = AppServer(argv, chosen_port, data_dir, data_dir.parent / f"server-{chosen_port}.log", dict(env or {}),
                       cwd=cwd or REPO_ROOT)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def launch_chromium() -> Iterator[Browser]:
    """Headless Debian Chromium through Playwright (no downloaded browser)."""
    from playwright.sync_api import sync_playwright

    from playwright.sync_api import expect

    expect.set_options(timeout=ACTION_TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


FIELD_FOCUSED = """(name) => { const e = document.activeElement;
  if (!e || !['INPUT', 'TEXTAREA'].includes(e.tagName)) return false;
  const label = e.getAttribute('aria-label'); return !label || label.startsWith(name); }"""
"""A script: the focus is in a text input, the one labelled ``name`` (its label starts with the name
and goes on with the hint) or one with no label; shared by the Chromium and WebKit helpers."""

FIELD_HOLDS = """(name, text, exact) => { const squash = s => (s || '').replace(/\\s+/g, '');
  return Array.from(document.querySelectorAll('input, textarea')).some(
    e => (e.getAttribute('aria-label') || '').startsWith(name)
      && (exact ? squash(e.value) === squash(text) : (e.value || '').includes(text))); }"""
"""A script: the field labelled ``name`` (wherever the focus went since) holds ``text``, and only
``text`` if ``exact`` (typed to replace what was there: a Control+A that came before Flutter
listened selects nothing, and "1000" typed over "10000" then reads "100001000")."""


class FlutterPage:
    """A Playwright page showing a Flet app, acted on through its
    accessibility tree (button and field names, visible texts)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))

    @classmethod
    def new_phone(cls, browser: Browser, **context_options: Any) -> FlutterPage:
        """A fresh context and page, 390x844 like a phone."""
        context = browser.new_context(viewport=PHONE_VIEWPORT, **context_options)
        return cls(context.new_page())

    def close(self) -> None:
        self.page.context.close()

    def open(self, url: str, timeout_ms: int = BOOT_TIMEOUT_MS) -> float:
        """Load the app, switch on Flutter's accessibility tree, and wait until
        it shows something; returns the seconds it took."""
        started = time.monotonic()
        self.page.goto(url, wait_until="commit")
        self.enable_semantics(timeout_ms)
        return time.monotonic() - started

    def reload(self, timeout_ms: int = BOOT_TIMEOUT_MS) -> float:
        """Reload (e.g. after a server restart) and re-enable semantics."""
        started = time.monotonic()
        self.page.reload(wait_until="commit")
        self.enable_semantics(timeout_ms)
        return time.monotonic() - started

    def enable_semantics(self, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
        """Flutter only builds its accessibility DOM once asked (FLET_NOTES)."""
        self.page.locator("flt-semantics-placeholder").dispatch_event("click", timeout=timeout_ms)
        self.page.wait_for_function(
            "() => { const host = document.querySelector('flt-semantics-host');"
            " return !!host && host.innerText.trim().length > 0; }",
            timeout=timeout_ms,
        )

    def button(self, name: str, exact: bool = True) -> Locator:
        return self.page.get_by_role("button", name=name, exact=exact)

    def click_button(self, name: str, exact: bool = True, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        """Press the button a screen reader calls ``name``, where it is drawn once the screen has
        settled (a person taps what they see, not where it was a frame ago)."""
        self.settle(timeout_ms)
        self.button(name, exact).click(timeout=timeout_ms)

    def settle(self, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        """Wait until every node of the accessibility tree keeps its place for 50 ms: after typing grows a field or a list arrives, Flutter lays the screen out again, and
        a tap aimed at the old place of a button would land on whatever moved there."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        mark = time.monotonic_ns()  # this wait's own: it never counts looks left over from an earlier one
        try:
            self.page.wait_for_function(  # looked at every 25 ms: true once the places held for two looks
                """(mark) => {
                    const places = Array.from(document.querySelectorAll('flt-semantics'), node => {
                        const r = node.getBoundingClientRect();
                        return `${r.x},${r.y},${r.width},${r.height}`;
                    }).join(';');
                    const seen = window.__farkleSettle;
                    window.__farkleSettle = seen && seen.mark === mark && seen.places === places
                        ? { mark, places, frames: seen.frames + 1 } : { mark, places, frames: 0 };
                    return window.__farkleSettle.frames >= 2;
                }""",
                arg=mark, timeout=timeout_ms, polling=25,
            )
        except PlaywrightTimeoutError:
            raise AssertionError(f"the screen never held still for {timeout_ms} ms ({self._answering()}; load "
                                 f"average {os.getloadavg()[0]:.1f})") from None

    def _answering(self) -> str:
        """Whether the page still runs its scripts: a page that stopped answering (its renderer
        hung) would otherwise hold an untimed ``evaluate`` until the test's own timeout."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        try:
            self.page.wait_for_function("() => true", timeout=5_000)
            return f"the page answers; it shows {self.texts()}"
        except PlaywrightTimeoutError:
            return "the page did not answer for 5 s: its renderer hung"

    def wait_frames(self, count: int = 2) -> None:
        """Wait until the browser has drawn ``count`` more animation frames: Flutter paints what a
        message or a scroll brought within the next frames."""
        self.page.evaluate("async (count) => { for (let i = 0; i < count; i++) await new Promise(requestAnimationFrame); }",
                           count)

    def is_button_enabled(self, name: str, exact: bool = True) -> bool:
        return self.button(name, exact).is_enabled()

    def switch_on(self, name: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        """Turn on the switch a screen reader calls ``name`` and see it on."""
        switch = self.page.get_by_role("switch", name=name, exact=True)
        self._tap_until_seen(switch, self.page.get_by_role("switch", name=name, exact=True, checked=True), timeout_ms)

    def click_button_until(self, name: str, shown: str, exact: bool = False, timeout_ms: int = ACTION_TIMEOUT_MS,
                           answer_ms: int = TYPING_LANDS_MS) -> None:
        """Press the button ``name`` and see ``shown`` appear (the answer to that one tap; a whole
        line if ``exact``), tapping again when nothing answered in ``answer_ms``."""
        self._tap_until_seen(self.button(name), self.page.get_by_text(shown, exact=exact).first, timeout_ms,
                             answer_ms)

    def tap_to_count(self, name: str, counted: Locator, count: int, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        """Press the button ``name`` (adding a die, say) and see ``counted`` hold ``count`` items: a tap
        Flutter dropped is tapped again, and a tap that answered twice fails the count."""
        from playwright.sync_api import expect

        self._tap_until_seen(self.button(name), counted.nth(count - 1), timeout_ms)
        expect(counted).to_have_count(count, timeout=timeout_ms)

    def _tap_until_seen(self, target: Locator, seen: Locator, timeout_ms: int,
                        answer_ms: int = TYPING_LANDS_MS) -> None:
        """Tap ``target`` once the screen has settled, and wait for ``seen``; a tap Flutter dropped
        (it came while the screen was laid out again) is tapped again, as a person would, while
        ``target`` is still there and nothing answered it."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        for attempt in range(TYPING_ATTEMPTS):
            self.settle(timeout_ms)
            if attempt == 0 or (not seen.is_visible() and target.is_visible()):
                target.click(timeout=timeout_ms)
            last = attempt + 1 == TYPING_ATTEMPTS
            try:
                seen.wait_for(state="visible", timeout=timeout_ms if last else answer_ms)
                return
            except PlaywrightTimeoutError:
                if last:
                    raise AssertionError(f"no answer to {target} after {TYPING_ATTEMPTS} looks (load average "
                                         f"{os.getloadavg()[0]:.1f}); the screen shows {self.texts()}, its fields hold "
                                         f"{self.fields()}") from None

    def text_field(self, name: str) -> Locator:
        """The field labelled ``name``: a text box, or a hidden-text (password) input, which has no role."""
        hidden = self.page.locator("input[type=password]").and_(self.page.get_by_label(name, exact=True))
        return self.page.get_by_role("textbox", name=name, exact=True).or_(hidden).first

    def type_into(self, name: str, text: str, replace: bool = True, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        """Type into the field labelled ``name`` the reliable way: click it, wait until the
        browser focuses its input, insert the text, and see it in the input (``fill()`` on an
        unfocused Flutter field is flaky). A field focused a moment before Flutter listens to
        it drops the text: then it is typed again, as a person would."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        landed = f"(wanted) => ({FIELD_HOLDS})(...wanted)"
        wanted = [name, text, True] if replace else [name, text.splitlines()[-1] if text.strip() else text, False]
        for attempt in range(TYPING_ATTEMPTS):
            # A focused field names itself by its label and its hint: click it only when it is not focused.
            if attempt == 0 or not self.page.evaluate(FIELD_FOCUSED, name):
                self.text_field(name).click(timeout=timeout_ms)
            # The focus must have moved to this field, not stayed on the one typed into before. A tap
            # that came before Flutter listened to the field focuses nothing: tap it again, as a
            # person would (the next attempt clicks, the field not being focused).
            try:
                self.page.wait_for_function(FIELD_FOCUSED, arg=name,
                                            timeout=TYPING_LANDS_MS if attempt + 1 < TYPING_ATTEMPTS else timeout_ms)
            except PlaywrightTimeoutError:
                if attempt + 1 == TYPING_ATTEMPTS:
                    raise
                continue
            if replace:
                self.page.keyboard.press("Control+A")
                self.page.keyboard.press("Delete")
            self.page.keyboard.insert_text(text)
            try:
                self.page.wait_for_function(landed, arg=wanted,
                                            timeout=TYPING_LANDS_MS if attempt + 1 < TYPING_ATTEMPTS else timeout_ms)
                self.settle(timeout_ms)
                # Still there once the screen settled: a field Flutter had not yet taken over
                # shows the text for a frame, then puts back its own (empty) value.
                if self.page.evaluate(landed, wanted) or attempt + 1 == TYPING_ATTEMPTS:
                    return
                continue
            except PlaywrightTimeoutError:
                if attempt + 1 == TYPING_ATTEMPTS:
                    raise
                if self.page.evaluate(landed, wanted):  # it landed late: typing again would double it
                    self.settle(timeout_ms)
                    return

    def press(self, key: str) -> None:
        """A key on the physical keyboard (``"Enter"``, ``"Digit5"``...)."""
        self.page.keyboard.press(key)

    def texts(self) -> list[str]:
        """Every line of text in the accessibility tree, in reading order."""
        text: str = self.page.evaluate(
            "() => { const host = document.querySelector('flt-semantics-host');"
            " return host ? host.innerText : ''; }"
        )
        return [line.strip() for line in text.splitlines() if line.strip()]

    def fields(self) -> dict[str, str]:
        """Each field's text as the browser holds it, by its label (what a failure reports)."""
        held: dict[str, str] = self.page.evaluate(
            "() => Object.fromEntries(Array.from(document.querySelectorAll('input, textarea'),"
            " e => [e.getAttribute('aria-label') || e.tagName, e.type === 'password' ? '(hidden)' : e.value]))")
        return held

    def field_value(self, name: str) -> str:
        """What a text field currently holds."""
        return self.page.get_by_role("textbox", name=name, exact=True).input_value()

    def pause(self, seconds: float) -> None:
        """Let ``seconds`` pass with the page's events arriving: :func:`wait_until`'s look between looks."""
        self.page.wait_for_timeout(seconds * 1000)

    def wait_for_text(self, text: str, timeout_ms: int = ACTION_TIMEOUT_MS, exact: bool = False) -> None:
        """Wait until ``text`` is shown (a substring of a line unless ``exact``)."""
        self.page.get_by_text(text, exact=exact).first.wait_for(state="visible", timeout=timeout_ms)

    def wait_for_text_gone(self, text: str, timeout_ms: int = ACTION_TIMEOUT_MS, exact: bool = False) -> None:
        self.page.get_by_text(text, exact=exact).first.wait_for(state="detached", timeout=timeout_ms)

    def screenshot(self, path: Path, settle_s: float = 0.4, ceiling_s: float = 30) -> Path:
        """A PNG once painting has settled: two shots in a row alike, more than a few colours,
        and no "Working..." (a busy machine paints late, and headless Chromium may not paint
        a page it does not count as in front)."""
        from PIL import Image

        self.page.bring_to_front()
        shots = [b""]

        def settled() -> bool:
            busy = self.page.evaluate("() => (document.querySelector('flt-semantics-host') || {innerText: ''})"
                                      ".innerText.includes('Working...')")
            shots.append(self.page.screenshot())
            colours = Image.open(io.BytesIO(shots[-1])).getcolors(maxcolors=4096)
            return shots[-1] == shots[-2] and not busy and (colours is None or len(colours) > 8)

        wait_until(settled, ceiling_s, lambda: f"{path.name}: the page never painted the same twice in a row with "
                   "more than a few colours and no \"Working...\"; the last shot is kept", pause=self.pause,
                   every_s=settle_s, required=False)  # a picture for a person to judge, never a verdict
        shot = shots[-1]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(shot)
        return path


def new_game(page: FlutterPage, *names: str, target: str | None = None) -> None:
    """Start a game from the home screen as a person does: names in seat order, a target."""
    page.click_button("New game")
    for seat, name in enumerate(names, start=1):
        page.type_into(f"Player {seat} name", name)
    if target:
        page.type_into("Target", target)
    start_game(page, f"Enter {names[0]}'s throw")


def start_game(page: FlutterPage, first_screen: str, exact: bool = False) -> None:
    """Tap Start game until the game's first screen shows ``first_screen`` (a whole line if ``exact``):
    the first game on a busy server is slow to come, and a tap Flutter dropped is tapped again (the
    form starts one game however often it is tapped)."""
    page.click_button_until("Start game", first_screen, exact=exact, timeout_ms=30_000, answer_ms=15_000)


def throw(page: FlutterPage, faces: str) -> None:
    """Tap the faces in, waiting for each to show before the next tap, then enter the throw."""
    import re

    entered = page.page.get_by_role("button", name=re.compile(r"^Entered \d"))
    for count, face in enumerate(faces.split(), start=1):
        page.tap_to_count(f"Face {face}", entered, count)
    page.click_button("Enter throw")


def confirm_every_seat(page: FlutterPage) -> None:
    """Each player at a finished tournament table confirms the final totals with one tap, each
    tap seen taken ("Ann 12,000 · confirmed") before the next; the last shows the result code."""
    page.wait_for_text("Confirm the final totals")
    waiting = " · not answered yet"
    seats = [line.removesuffix(waiting) for line in page.texts() if line.endswith(waiting)]  # "Ann 12,000"
    assert seats, page.texts()
    for seat, name_and_total in enumerate(seats, 1):
        name, total = name_and_total.rsplit(" ", 1)
        page.click_button_until(f"{name} confirms {total}", f"{name_and_total} · confirmed" if seat < len(seats)
                                else f"confirmed by {len(seats)} of {len(seats)}")


_Result = TypeVar("_Result")


def in_thread(coroutine: Coroutine[Any, Any, _Result]) -> _Result:
    """Run ``coroutine`` to its end in another thread: Playwright's sync API runs a loop in this one
    (seeding an event or a game before a journey)."""
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, coroutine).result()
