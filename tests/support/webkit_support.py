"""WebKit (the engine inside Safari and every iPhone browser) for the browser tests, from
Debian's packages only: Selenium drives WebKitGTK's MiniBrowser through WebKitWebDriver
(``webkit2gtk-driver``) on a private Xvfb display (``xvfb``). Nothing is downloaded;
``make browser`` installs the packages.

Example (see tests/browser/test_browser_webkit.py)::

    with webkit_session() as page:       # Xvfb + WebKitWebDriver + one MiniBrowser window
        page.open(url)                   # loads, switches on Flutter's accessibility tree
        page.click_button("New game")
        page.type_into("Player 1 name", "Ann")
        page.wait_for_text("Enter Ann's throw")

:class:`WebKitPage` has the verbs of tests/support/browser_support.py's ``FlutterPage`` (open,
reload, click_button, type_into, wait_for_text, texts), found by the names a screen
reader reads, plus what the PWA tests need (service worker, Python start, snapshot).

What differs from Chromium/Playwright, and is worked around here (never in the app):

- Locale: MiniBrowser takes ``navigator.language`` from ``LANGUAGE``/``LC_ALL``/
  ``LC_MESSAGES``/``LANG`` as they are written, without checking the locale exists. Under
  ``LANG=C.UTF-8`` it reports ``"C"``, and a Flutter client without app/web/locale.js hung
  on "invalid language tag". The browser therefore runs with ``LANG=en_US.UTF-8`` and no
  ``LC_*``/``LANGUAGE`` (the locale need not be installed: only the name is read), so a
  test does not depend on that fix; tests/browser/test_locale.py checks the fix itself.
- No ``get_by_role``: buttons are ``[role=button]`` nodes of ``flt-semantics-host``, named
  by ``aria-label`` or their text (whitespace collapsed), text fields are ``input``/
  ``textarea`` named by ``aria-label``; found by script, then clicked with WebDriver's
  real (pointer) click, retried while Flutter replaces the node under us.
- Typing: WebDriver "send keys" to the focused input (real key events, which Flutter's
  editing listens to), after clicking the field and waiting until it has the focus;
  Ctrl+A then Delete to replace. Retried like FlutterPage.type_into when Flutter drops
  the first keys of a field it started listening to a moment late.
- No file chooser: :meth:`WebKitPage.choose_file` keeps the picker's ``<input type=file>``
  from opening its dialog and gives it the file with "send keys" (the path as it is:
  WebKitWebDriver has no Selenium upload endpoint).
- A node WebKitWebDriver calls "not interactable" (a list row outside the window, which
  it cannot scroll Flutter's canvas to) gets its click dispatched in the page.
- ``innerText`` of the semantics host runs every node together in WebKit (they are
  inline custom elements): :meth:`WebKitPage.texts` reads each node's own text instead.
- No console access: WebKitWebDriver has no log endpoint, and asking Debian's 2.50.6 for
  WebDriver BiDi (``webSocketUrl: true``) fails the session ("Failed to match
  capabilities"), so no init script and no console events; the PWA's own globals are read instead (``fletPythonStart``,
  ``fletSnapshotState``/``fletSnapshotDetail``, set by build/templates/python-early.js
  from the Python worker's messages, which a page console hook could not see anyway),
  plus a hook for the page's own ``console.warn``/``error`` installed after each load
  (:meth:`WebKitPage.console`): it misses what is logged before it is installed.
- Each session is a fresh, ephemeral profile (MiniBrowser's automation mode): service
  worker, Cache Storage and localStorage last for the session, across reloads, not across
  sessions. A "browser restart" journey is therefore not possible here.
"""

from __future__ import annotations

import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar

from tests.support.browser_support import FIELD_FOCUSED, FIELD_HOLDS, free_port

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

__all__ = [
    "MINIBROWSER",
    "WEBKIT_DRIVER",
    "XVFB",
    "WebKitPage",
    "webkit_missing_reason",
    "webkit_session",
]

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
XVFB = "/usr/bin/Xvfb"
PHONE_WINDOW = (390, 844)
BOOT_TIMEOUT_S = 90.0
ACTION_TIMEOUT_S = 30.0
TYPING_ATTEMPTS = 3
TYPING_LANDS_S = 5.0
POLL_S = 0.1
SETTLE_MS = 250
BROWSER_LANG = "en_US.UTF-8"

T = TypeVar("T")


def webkit_missing_reason() -> Optional[str]:
    """``None`` when WebKitWebDriver, MiniBrowser, Xvfb and Selenium are all here, else why
    not and how to get them."""
    missing = [path for path in (WEBKIT_DRIVER, MINIBROWSER, XVFB) if not os.access(path, os.X_OK)]
    if missing:
        return (f"WebKit tests need {', '.join(missing)}: install them with 'make browser' "
                "(apt-get install webkit2gtk-driver xvfb)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is missing: pip install -e '.[test]' (or 'make browser' then 'make test')"
    return None


def wait_until(what: Callable[[], Optional[T]], timeout_s: float, describe: str | Callable[[], str]) -> T:
    """Poll ``what`` until it returns something truthy; ``TimeoutError`` naming ``describe``."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > deadline:
            text = describe() if callable(describe) else describe
            raise TimeoutError(f"{text} (after {timeout_s:.0f} s)")
        time.sleep(POLL_S)


def browser_environment(display: str) -> dict[str, str]:
    """WebKitWebDriver's (and so MiniBrowser's) environment: this display, English (see the
    module docstring: never ``C``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(DISPLAY=display, LANG=BROWSER_LANG)
    env.pop("WAYLAND_DISPLAY", None)
    return env


@contextmanager
def xvfb_display(log: Path) -> Iterator[str]:
    """A private X display (``":N"``): Xvfb picks a free number itself (``-displayfd``) and
    is stopped at the end."""
    read_end, write_end = os.pipe()
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [XVFB, "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write_end,), stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + 20
        while not number.endswith(b"\n"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Xvfb did not start (see {log})")
            chunk = os.read(read_end, 16)
            if not chunk:
                raise RuntimeError(f"Xvfb did not report its display (see {log})")
            number += chunk
        yield f":{number.decode().strip()}"
    finally:
        os.close(read_end)
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a helper process: politely, then for good after 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def webkit_driver(display: str, log: Path) -> Iterator[str]:
    """WebKitWebDriver on a free local port; yields its URL once it answers ``/status``."""
    port = free_port()
    with open(log, "ab") as out:
        process = subprocess.Popen([WEBKIT_DRIVER, f"--port={port}"], env=browser_environment(display),
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"WebKitWebDriver exited with {process.returncode} (see {log})")
        try:
            with urllib.request.urlopen(url + "/status", timeout=2) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    try:
        wait_until(ready, 20, f"WebKitWebDriver did not answer on {url}")
        yield url
    finally:
        stop(process)


@contextmanager
def webkit_session(log_dir: Optional[Path] = None) -> Iterator[WebKitPage]:
    """Xvfb, WebKitWebDriver and one MiniBrowser window (phone-sized), closed at the end.
    Logs (Xvfb, driver and browser output) go to ``log_dir``."""
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.common.options import ArgOptions
    from selenium.webdriver.remote.client_config import ClientConfig
    from selenium.webdriver.remote.remote_connection import RemoteConnection

    logs = log_dir or Path(tempfile.mkdtemp(prefix="farkle-webkit-"))
    logs.mkdir(parents=True, exist_ok=True)
    with xvfb_display(logs / "xvfb.log") as display, webkit_driver(display, logs / "webkitwebdriver.log") as url:
        options = ArgOptions()
        options.set_capability("browserName", "MiniBrowser")
        options.set_capability("webkitgtk:browserOptions", {"binary": MINIBROWSER, "args": ["--automation"]})
        # A RemoteConnection, not the URL: Selenium 4.51 warns that a URL is deprecated there.
        connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=url))
        driver = webdriver.Remote(command_executor=connection, options=options)
        try:
            driver.set_script_timeout(ACTION_TIMEOUT_S)
            driver.set_window_size(*PHONE_WINDOW)
            yield WebKitPage(driver, logs)
        finally:
            driver.quit()


# Every button of the accessibility tree with its name (aria-label, else its text, whitespace
# collapsed) and whether it is enabled; arguments[0] is a name (or null for all).
_FIND_BUTTONS = """
const [name, exact] = arguments;
const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
const found = [];
for (const e of document.querySelectorAll('flt-semantics-host [role=button]')) {
  const label = norm(e.getAttribute('aria-label') || e.textContent);
  if (name === null || (exact ? label === norm(name) : label.includes(norm(name))))
    found.push([e, label, e.getAttribute('aria-disabled') !== 'true']);
}
return found;
"""
_FIND_FIELD = """
const [name] = arguments;
for (const e of document.querySelectorAll('flt-semantics-host input, flt-semantics-host textarea'))
  if ((e.getAttribute('aria-label') || '').replace(/\\s+/g, ' ').trim() === name) return e;
return null;
"""
# Each node's own text once, in document order (WebKit's innerText runs them together).
_TEXTS = """
const host = document.querySelector('flt-semantics-host');
if (!host) return [];
const seen = new Set(), lines = [];
const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (!parent || seen.has(parent) || !node.textContent.trim()) continue;
  seen.add(parent);
  lines.push(parent.textContent.replace(/\\s+/g, ' ').trim());
}
return lines;
"""
_FOCUSED = f"return ({FIELD_FOCUSED})(...arguments);"
_LANDED = f"return ({FIELD_HOLDS})(...arguments);"
# A pointer's press and release, then a click, at the element's centre (arguments[0]).
_DISPATCH_CLICK = """
const el = arguments[0];
const r = el.getBoundingClientRect();
const at = {bubbles: true, cancelable: true, composed: true, clientX: r.left + r.width / 2,
            clientY: r.top + r.height / 2, button: 0, pointerType: 'mouse', isPrimary: true};
for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
  el.dispatchEvent(new (type.startsWith('pointer') ? PointerEvent : MouseEvent)(
    type, {...at, buttons: type.endsWith('down') ? 1 : 0}));
"""
# A file input's click() records the input instead of opening the dialog WebDriver cannot
# answer; it is put in the document if the picker left it out, where WebDriver can send keys
# to it (a pixel, nearly transparent: displayed, so never "not interactable").
_HOLD_FILE_PICKER = """
if (!globalThis.__farkleHoldsPickers) {
  globalThis.__farkleHoldsPickers = true;
  const click = HTMLInputElement.prototype.click;
  HTMLInputElement.prototype.click = function () {
    if (this.type !== 'file') return click.call(this);
    this.style.cssText = 'position: fixed; left: 0; top: 0; width: 1px; height: 1px; opacity: 0.01';
    if (!this.isConnected) document.body.appendChild(this);
    globalThis.__farklePicker = this;
  };
}
"""
_CONSOLE_HOOK = """
if (!globalThis.__farkleConsole) {
  globalThis.__farkleConsole = [];
  for (const level of ['warn', 'error']) {
    const original = console[level].bind(console);
    console[level] = (...args) => {
      globalThis.__farkleConsole.push(level + ': ' + args.map(String).join(' '));
      original(...args);
    };
  }
  addEventListener('error', (e) => globalThis.__farkleConsole.push('pageerror: ' + e.message));
}
"""


class WebKitPage:
    """The MiniBrowser window showing a Flet app, acted on through Flutter's accessibility
    tree, with the verbs of ``FlutterPage``."""

    def __init__(self, driver: WebDriver, log_dir: Path) -> None:
        self.driver = driver
        self.log_dir = log_dir

    # ---------------------------------------------------------------- loading

    def script(self, source: str, *args: Any) -> Any:
        return self.driver.execute_script(source, *args)

    def open(self, url: str, timeout_s: float = BOOT_TIMEOUT_S) -> float:
        """Load ``url``, switch on the accessibility tree, wait until it shows something;
        returns the seconds it took."""
        started = time.monotonic()
        self.driver.get(url)
        self.enable_semantics(timeout_s)
        return time.monotonic() - started

    def reload(self, timeout_s: float = BOOT_TIMEOUT_S) -> float:
        """Reload and switch the accessibility tree on again; returns the seconds it took."""
        started = time.monotonic()
        self.driver.refresh()
        self.enable_semantics(timeout_s)
        return time.monotonic() - started

    def enable_semantics(self, timeout_s: float = BOOT_TIMEOUT_S) -> None:
        """Flutter builds its accessibility DOM once its placeholder is clicked (FLET_NOTES)."""
        self.script(_CONSOLE_HOOK)
        wait_until(lambda: self.script(
            "const p = document.querySelector('flt-semantics-placeholder');"
            " if (p) p.dispatchEvent(new MouseEvent('click', {bubbles: true})); return !!p;"),
            timeout_s, lambda: f"Flutter never offered its accessibility tree at {self.url}")
        wait_until(lambda: self.texts(), timeout_s,
                   lambda: f"the accessibility tree stayed empty at {self.url}")

    @property
    def url(self) -> str:
        return str(self.driver.current_url)

    # ---------------------------------------------------------------- reading

    def texts(self) -> list[str]:
        """Every text of the accessibility tree, one per node, in reading order."""
        return [str(line) for line in self.script(_TEXTS)]

    def button_names(self) -> list[str]:
        return [str(label) for _, label, _ in self.script(_FIND_BUTTONS, None, True)]

    def wait_for_text(self, text: str, timeout_s: float = ACTION_TIMEOUT_S, exact: bool = False) -> None:
        """Wait until a node shows ``text`` (a substring of its text unless ``exact``)."""
        wait_until(lambda: any(line == text if exact else text in line for line in self.texts()),
                   timeout_s, lambda: f"{text!r} never shown; shown: {self.texts()}")

    def wait_for_text_gone(self, text: str, timeout_s: float = ACTION_TIMEOUT_S) -> None:
        wait_until(lambda: not any(text in line for line in self.texts()),
                   timeout_s, lambda: f"{text!r} still shown")

    def console(self) -> list[str]:
        """The page's console warnings and errors since the last load finished booting."""
        return [str(m) for m in self.script("return globalThis.__farkleConsole || []")]

    # ---------------------------------------------------------------- acting

    def button(self, name: str, exact: bool = True, timeout_s: float = ACTION_TIMEOUT_S) -> WebElement:
        found: list[Any] = wait_until(lambda: self.script(_FIND_BUTTONS, name, exact), timeout_s,
                                      lambda: f"no button {name!r}; buttons: {self.button_names()}")
        element: WebElement = found[0][0]
        return element

    def is_button_enabled(self, name: str, exact: bool = True) -> bool:
        found = self.script(_FIND_BUTTONS, name, exact)
        assert found, f"no button {name!r}; buttons: {self.button_names()}"
        return bool(found[0][2])

    def count_buttons(self, prefix: str) -> int:
        return sum(1 for name in self.button_names() if name.startswith(prefix))

    def click_button(self, name: str, exact: bool = True, timeout_s: float = ACTION_TIMEOUT_S) -> None:
        """Press the button a screen reader calls ``name`` (a real click, retried while
        Flutter swaps the node or something covers it for a moment). A node WebKitWebDriver
        will not click ("not interactable": e.g. a list row Flutter placed outside the window,
        which WebDriver cannot scroll to) gets the click dispatched to it in the page, where
        Flutter listens, as the Firefox driver does."""
        from selenium.common.exceptions import ElementNotInteractableException, WebDriverException

        deadline = time.monotonic() + timeout_s
        while True:
            try:
                element = self.button(name, exact, max(0.0, deadline - time.monotonic()))
                try:
                    element.click()
                except ElementNotInteractableException:
                    self.script(_DISPATCH_CLICK, element)
                return
            except WebDriverException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(POLL_S)

    def field(self, name: str, timeout_s: float = ACTION_TIMEOUT_S) -> WebElement:
        element: WebElement = wait_until(lambda: self.script(_FIND_FIELD, name), timeout_s,
                                         lambda: f"no text field {name!r}")
        return element

    def field_value(self, name: str) -> str:
        return str(self.field(name).get_property("value") or "")

    def type_into(self, name: str, text: str, replace: bool = True, timeout_s: float = ACTION_TIMEOUT_S) -> None:
        """Type into the field labelled ``name``: click it, wait until it has the focus, send
        the keys, see them in the input; typed again if Flutter dropped them."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.keys import Keys

        last = text.splitlines()[-1] if text.strip() else text
        wanted = (name, text, True) if replace else (name, last, False)
        for attempt in range(TYPING_ATTEMPTS):
            if attempt == 0 or not self.script(_FOCUSED, name):
                try:
                    self.field(name, timeout_s).click()
                except WebDriverException:
                    self.field(name, timeout_s).click()  # the node was replaced under us: once more
            wait_until(lambda: self.script(_FOCUSED, name), timeout_s, lambda: f"field {name!r} never focused")
            focused = self.driver.switch_to.active_element
            if replace:
                focused.send_keys(Keys.CONTROL, "a")
                focused.send_keys(Keys.DELETE)
            focused.send_keys(text)
            try:
                wait_until(lambda: self.script(_LANDED, *wanted),
                    TYPING_LANDS_S if attempt + 1 < TYPING_ATTEMPTS else timeout_s,
                    lambda: f"{text!r} never reached field {name!r}")
            except TimeoutError:
                if attempt + 1 == TYPING_ATTEMPTS:
                    raise
                continue
            self.settle()
            # Still there once the screen settled: a field Flutter had not yet taken over shows
            # the keys for a frame, then puts back its own value (as browser_support's type_into).
            if attempt + 1 == TYPING_ATTEMPTS or self.script(_LANDED, *wanted):
                return

    def settle(self, ms: int = SETTLE_MS) -> None:
        """Two painted frames and ``ms`` more. Key-by-key typing ends with a change the app
        may not have had yet when the next click arrives: once (under load, while the first
        load made its Python snapshot) "Bob" reached Python as "Bo" although the input showed
        "Bob". Playwright's insert_text is one input event; WebDriver types key by key."""
        self.driver.execute_async_script(
            "const [ms, done] = arguments;"
            " requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, ms)));", ms)

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(path))
        return path

    # ---------------------------------------------------------------- the PWA

    def wait_sw_control(self, timeout_s: float = 60.0) -> str:
        """The script URL of the service worker controlling the page, once one does."""
        return str(wait_until(lambda: self.script(
            "const c = navigator.serviceWorker && navigator.serviceWorker.controller;"
            " return c ? c.scriptURL : null;"), timeout_s,
            lambda: f"no service worker controls {self.url}: {self.service_worker_state()}"))

    def service_worker_state(self) -> dict[str, Any]:
        """What WebKit says about service workers here (for a failure message)."""
        state: dict[str, Any] = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            " if (!('serviceWorker' in navigator)) { done({supported: false, secure: isSecureContext}); return; }"
            " navigator.serviceWorker.getRegistrations().then((rs) => done({supported: true,"
            " secure: isSecureContext, controller: !!navigator.serviceWorker.controller,"
            " registrations: rs.map((r) => [r.scope, !!r.active, !!r.installing, !!r.waiting])}),"
            " (err) => done({supported: true, error: String(err)}));")
        return state

    def cached_files(self, cache_name: str) -> int:
        """How many entries the Cache Storage cache ``cache_name`` holds."""
        return int(self.driver.execute_async_script(
            "const [name, done] = arguments;"
            " caches.open(name).then((c) => c.keys()).then((k) => done(k.length), () => done(-1));",
            cache_name))

    def python_start(self) -> dict[str, Any]:
        """How Python started on this page: {"snapshot": bool, "reason": str, "ms": int}, once
        the worker said so (python-early.js); {} before."""
        return dict(self.script("return globalThis.fletPythonStart || {}") or {})

    def wait_python_start(self, timeout_s: float = BOOT_TIMEOUT_S) -> dict[str, Any]:
        return dict(wait_until(self.python_start, timeout_s, "the Python worker never said how it started"))

    def wait_python_snapshot(self, timeout_s: float = 120.0) -> str:
        """After a start without a snapshot the page makes one (python-snapshot.js): wait until
        it is "saved" or "failed". "used" when this start came from one."""
        start = self.wait_python_start(timeout_s)
        if start.get("snapshot"):
            return "used"
        return str(wait_until(
            lambda: (state if (state := self.script("return globalThis.fletSnapshotState || ''"))
                     in ("saved", "failed") else None),
            timeout_s, lambda: f"Python snapshot still {self.script('return globalThis.fletSnapshotState')!r}"))

    def snapshot_detail(self) -> dict[str, Any]:
        return dict(self.script("return globalThis.fletSnapshotDetail || {}") or {})

    # ---------------------------------------------------------------- files and storage

    def choose_file(self, button_name: str, path: Path, timeout_s: float = ACTION_TIMEOUT_S) -> None:
        """Press the button that opens a file picker and pick ``path`` in it. WebDriver has no
        file chooser: the picker's ``<input type=file>`` is kept from opening its dialog (its
        ``click()`` only records it) and the file is given to it with "send keys", which sets
        its files and fires its change event, as a pick does."""
        self.script(_HOLD_FILE_PICKER)
        self.click_button(button_name, timeout_s=timeout_s)
        picker: WebElement = wait_until(lambda: self.script("return globalThis.__farklePicker || null"),
                                        timeout_s, f"{button_name!r} opened no file picker")
        self.script("globalThis.__farklePicker = null;")
        # The path as it is: WebKitWebDriver runs here and has no Selenium upload endpoint.
        from selenium.webdriver.remote.file_detector import UselessFileDetector

        with self.driver.file_detector_context(UselessFileDetector):
            picker.send_keys(str(path))

    def storage_notice(self) -> str:
        """The page's notice that the browser may delete the site's storage ("" when none is
        shown; build/templates/register-sw.html)."""
        return str(self.script("const n = document.getElementById('farkle-storage');"
                               " return n ? n.textContent : '';"))

    def wait_storage_notice(self, timeout_s: float = ACTION_TIMEOUT_S) -> str:
        return wait_until(self.storage_notice, timeout_s, "the page never said whether its storage is kept")

    def evaluate(self, function: str, *args: Any) -> Any:
        """The value of a JavaScript function (``(a, b) => ...``) called with ``args``."""
        return self.script(f"return ({function})(...arguments);", *args)


def throw(page: WebKitPage, faces: str) -> None:
    """Tap the faces in, waiting for each to show as entered, then enter the throw (as
    tests/support/browser_support.py's ``throw``)."""
    for count, face in enumerate(faces.split(), start=1):
        page.click_button(f"Face {face}")
        wait_until(lambda: page.count_buttons("Entered ") == count, ACTION_TIMEOUT_S,
                   lambda: f"face {face} not entered: buttons {page.button_names()}")
    page.click_button("Enter throw")


def new_game(page: WebKitPage, *names: str) -> None:
    """Start a game from the home screen: names in seat order (as browser_support.new_game)."""
    page.click_button("New game")
    for seat, name in reversed(list(enumerate(names, start=1))):
        page.type_into(f"Player {seat} name", name)
    # The app's own answer to the name typed last, the first seat's: under load WebKit's input
    # showed "Bob" while the app had "Bo" when "Start game" came (typed key by key, the last
    # change came late). The other seats were typed before it, so their changes reached the
    # app before the first seat's, which "Who starts" shows whole.
    page.wait_for_text(f"Who starts: {names[0]}")
    page.click_button("Start game")
    page.wait_for_text(f"Enter {names[0]}'s throw")
    page.wait_for_text(" · ".join(names), exact=True)  # every name as typed (the table's title)
