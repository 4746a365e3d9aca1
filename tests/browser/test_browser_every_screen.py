"""Every screen and route, at a phone's 390x844 and a laptop's 1366x800, in one Chromium
against one server, in English and again in the shipped language whose translations are
longest (the browser's own locale; in 2026-12 French): no Flutter error box, no blank region,
and every control a finger and a screen reader can use. The texts the survey waits for and
the controls it counts are read from the same catalogue (:func:`app.i18n.speaking`).

The data folder is seeded through the app's stores (tests/support/every_screen_seed.py): games in
play, tied, over and handed over; an event seated at ten tables with results coming in,
one being signed up (its format editor) and one with a champion. The app is loaded once;
each further route is reached as the browser's Back and Forward reach it (the address
changes, the app follows), so a screen costs its own drawing, not a new start of the
client. Each screen is looked at in both sizes (the window is resized between them); the
findings of the whole survey are then judged by two tests:

- **Layout**: the page's scroll extent (read from the scrollable's accessibility node,
  which Flutter sizes to the real extent) is sane; screenshots taken a screen at a time
  down the whole page show no grey error box (a release build of Flutter paints
  ``0xF0C0C0C0`` where a widget fails to lay out) and no blank band taller than most of
  a screen between contents.
- **Targets**: every node a person can press or type into is at least 48x48 px and has a
  name of its own (a control inside another is named too, and so is a read-only text box),
  and no node says the same words twice.

Screenshots go to a temporary folder, named in the failure message.

    .venv/bin/python -m pytest tests/browser/test_browser_every_screen.py
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFilter
from playwright.sync_api import Browser, Locator

from app.i18n import CATALOGUE_FOLDER, ENGLISH, available_languages, ntr, po_messages, speaking, tr
from engine.words import say
from tests.support.browser_support import FlutterPage, free_port, start_app_server
from tests.support.every_screen_seed import Seeded, seed_every_screen

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}
MAX_EXTENT_PX = 20_000
"""Taller than this, a screen is a layout failure (or a list nobody scrolls through)."""
BLANK_SHARE = 0.75
"""A band of nothing but background taller than this share of the screen, between contents, is a blank region."""
MIN_TARGET_PX = 48
ERROR_GREY = (188, 203)
"""The channel range of Flutter's release error box (0xC0C0C0 at 94% over a light background)."""
ERROR_BLOCK = 8
"""The grey must fill whole blocks of this many pixels, three by three (a 32 px square at least)."""

Ready = tuple[str, str]
"""What shows a screen is drawn with its data: ("text", its words) or (a control's role, its name)."""


def ready(screen: str, seeded: Seeded) -> Ready:
    """What ``screen`` alone shows once it is drawn with its data, in the language being spoken
    (called within :func:`app.i18n.speaking`): never something the screen before it shows too."""
    controls: dict[str, Ready] = {
        "history": ("button", tr("Back to the table")),  # "Result" is on the finished game before it
        "room lookup": ("textbox", tr("Name or number")),  # "Find a player" is in every event page's row
    }
    if screen in controls:
        return controls[screen]
    round_1 = say("Round {number}", number=1)
    texts: dict[str, Callable[[], str]] = {
        "home": lambda: tr("Unfinished games"),
        "new game": lambda: tr("Players in seat order"),
        "rematch": lambda: tr("Rematch of {game}: same players and rules.", game="Ann, Bob, Cy"),
        "table": lambda: tr("Enter throw"),
        "follower": lambda: tr("{name} to play", name="Bob"),
        "follower at the end": lambda: tr("{name} wins with {score:,}", name=seeded.winner[0],
                                          score=seeded.winner[1]),
        "roll-off": lambda: tr("Tie for the win at {score:,}: each tied player throws one die.", score=2100),
        "game over": lambda: tr("Final standings"),
        "player": lambda: tr("Average final score"),
        "lookup": lambda: tr("Chance of a farkle"),
        "lookup of a game": lambda: tr("This game's rules"),
        "join": lambda: tr("Join a tournament table"),
        "table result": lambda: tr("Hand the result to the organizer"),
        "organizer list and new event format": lambda: tr("New tournament"),
        "event with its format editor": lambda: tr("Sign-up: {count} signed up, {checked} checked in.",
                                                   count=5, checked=0),
        "event": lambda: tr("{round} at a glance", round=round_1),
        "players": lambda: tr("{players} · {checked_in} checked in", checked_in=40,
                              players=ntr("{count} player", "{count} players", 40, count=40)),
        "seating": lambda: tr("Table {table} · {name}", table=10, name=round_1),
        "print": lambda: tr("Open to print"),  # its own: the seating page before it says "Printable cards"
        "seat list": lambda: tr("Every player of the round, alphabetically, in large type with their table and "
                                "seat, for the wall; the players' page QR on top when it is open."),
        "result slips": lambda: tr("One slip per table: the seats and names, a box for each final total and the "
                                   "player's initials, and the event code, for a table without its phone."),
        "standings to print": lambda: tr("Everyone, best first, with each round's total and their standing; a "
                                         "line under those who go on at the cut."),
        "results": lambda: tr("{name}: {count} of {tables} tables in", name=round_1, count=2, tables=10),
        "standings": lambda: tr("Rounds and cuts"),
        "room display": lambda: tr("{round}: seating", round=round_1),
        "final": lambda: tr("Record the prize"),
        "import link": lambda: tr("Imported from a link."),
        "players' page": lambda: tr("{name} · {code}", name="Big cup", code="BIG-26"),
        "not found": lambda: tr("There is nothing at {shown!r} on this device: the address may be mistyped, or "
                                "the game or event was deleted.", shown="/no/such/screen"),
    }
    return "text", texts[screen]()


def sign_on(page: FlutterPage, sign: Ready) -> Locator:
    """Where ``page`` shows ``sign`` (nothing when it does not)."""
    role, name = sign
    if role == "text":
        return page.page.get_by_text(name)
    return page.page.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]


def press_first(screen: str) -> tuple[str, str] | None:
    """A button to press on a screen before looking at it (what it opens is part of the screen),
    and a text it then shows."""
    return (tr("Set a passphrase"), tr("Set the passphrase")) if screen == "event" else None


def must_have(screen: str) -> list[tuple[str, str, int]]:
    """Controls a screen must offer (role, accessible name, how many): a control that failed to lay
    out has no accessibility node at all."""
    return {
        "seating": [("button", tr("Revoke card, issue a new one"), 10),
                    ("textbox", tr("Why revoke this card (phone lost...)"), 10),
                    ("img", tr("Setup QR code for table {table}", table=10), 1)],
        "room lookup": [("textbox", tr("Name or number"), 1)],
        "room display": [("button", tr("Pause paging"), 1), ("button", tr("Next"), 1)],
        "players' page": [("textbox", tr("Your name or number"), 1), ("button", tr("Find me"), 1)],
    }.get(screen, [])


# The page's vertical scrollables (Flutter sizes each one's overflow to the real extent).
_SCROLLERS = """() => [...document.querySelectorAll('flt-semantics')]
  .filter(e => getComputedStyle(e).overflowY === 'scroll')
  .map(e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, width: e.clientWidth, height: e.clientHeight,
            extent: e.scrollHeight, at: e.scrollTop}; })
  .sort((a, b) => b.width * b.height - a.width * a.height)"""

_SCROLL_TO = """async (y) => {
  const main = [...document.querySelectorAll('flt-semantics')]
    .filter(e => getComputedStyle(e).overflowY === 'scroll')
    .sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
  main.scrollTop = y;
  for (let i = 0; i < 3; i++) await new Promise(requestAnimationFrame);  // the scroll event, Flutter's frame
  return main.scrollTop;
}"""

_GO_TO = """(route) => { history.pushState(null, '', route);
  window.dispatchEvent(new PopStateEvent('popstate', {state: null})); }"""

_BUSY = "() => (document.querySelector('flt-semantics-host') || {innerText: ''}).innerText.includes('Working...')"

# Whether the text node ``title`` lies inside the visible part of the page's main scrollable.
_TITLE_ON_SCREEN = """(title) => {
  const main = [...document.querySelectorAll('flt-semantics')]
    .filter(e => getComputedStyle(e).overflowY === 'scroll')
    .sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
  const node = [...document.querySelectorAll('flt-semantics')].find(e => e.textContent.trim() === title);
  if (!main || !node) return false;
  const box = node.getBoundingClientRect(), view = main.getBoundingClientRect();
  return box.top >= view.top && box.bottom <= view.bottom;
}"""

# What a person can press or type into, with its accessible name and its size.
_TARGETS = """() => {
  const roles = new Set(['button', 'checkbox', 'switch', 'radio', 'slider', 'link', 'tab', 'menuitem',
                         'combobox', 'option', 'spinbutton']);
  const found = [];
  for (const e of document.querySelectorAll('flt-semantics-host flt-semantics')) {
    const input = e.querySelector(':scope > input, :scope > textarea');
    const role = e.getAttribute('role');
    let kind = null;
    if (input) kind = input.disabled || input.readOnly ? 'read-only textbox' : 'textbox';
    else if (roles.has(role)) kind = role;
    else if (e.hasAttribute('flt-tappable')) kind = 'tappable';
    if (!kind) continue;
    const r = e.getBoundingClientRect();
    let label = (input && input.getAttribute('aria-label')) || e.getAttribute('aria-label') || e.textContent;
    // Named by a plain node around it (a tooltip's), not by a control around it: a control
    // inside another is a second stop for a screen reader, and needs its own name.
    const outer = e.parentElement && e.parentElement.closest('flt-semantics[aria-label]:not([role])');
    if (!(label || '').trim() && outer) {  // a tappable inside the node that names it, covering the same box
      const o = outer.getBoundingClientRect();
      if (Math.abs(o.width - r.width) < 1 && Math.abs(o.height - r.height) < 1) label = outer.getAttribute('aria-label');
    }
    found.push({id: e.id, kind, name: (label || '').trim().slice(0, 60), width: r.width, height: r.height,
                top: r.top, bottom: r.bottom});
  }
  return found;
}"""

# Nodes that say the same words twice over (a tooltip read beside the text it repeats: "Ann\nAnn").
_DOUBLED = """() => {
  const found = [];
  for (const e of document.querySelectorAll('flt-semantics-host flt-semantics')) {
    const said = [e.getAttribute('aria-label') || '',
                  ...[...e.querySelectorAll(':scope > span')].map(span => span.textContent)];
    for (const text of said) {
      const lines = text.split('\\n').map(line => line.trim()).filter(line => line);
      if (lines.length > 1 && lines.every(line => line === lines[0])) found.push(text.trim().slice(0, 60));
    }
  }
  return found;
}"""

# A control's box once it is scrolled to the middle of the page's main scrollable (a person
# scrolls a control into view before tapping it); null when the node is gone.
_CENTRED_BOX = """async (id) => {
  const node = document.getElementById(id);
  const main = [...document.querySelectorAll('flt-semantics')]
    .filter(e => getComputedStyle(e).overflowY === 'scroll')
    .sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
  if (!node) return null;
  if (main) {
    const n = node.getBoundingClientRect(), m = main.getBoundingClientRect();
    main.scrollTop += (n.top + n.height / 2) - (m.top + m.height / 2);
    for (let i = 0; i < 3; i++) await new Promise(requestAnimationFrame);
  }
  return true;
}"""

_BOX_OF = """(id) => { const node = document.getElementById(id); if (!node) return null;
  const r = node.getBoundingClientRect(); return {width: r.width, height: r.height}; }"""

_VIEW_SIZED = """([width, height]) => {
  const view = document.querySelector('flutter-view') || document.querySelector('flt-glass-pane');
  const host = document.querySelector('flt-semantics-host');
  const box = view && view.getBoundingClientRect();
  return !!box && !!host && window.innerWidth === width && box.width === width && box.height === height;
}"""


@dataclass
class Survey:
    """What was found on the screens: layout problems and unusable targets, one line each."""

    shots: Path
    layout: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    last_card_reached: str = "not tried"
    """What choosing the last table in the seating page's "Go to table" did at phone size."""


def size_name(size: dict[str, int]) -> str:
    return f"{size['width']}x{size['height']}"


def grey_error_box(shot: Image.Image) -> tuple[int, int] | None:
    """Where a solid patch of Flutter's error grey is, or None."""
    low, high = ERROR_GREY
    red, green, blue = shot.split()

    def within(band: Image.Image) -> Image.Image:
        return band.point(lambda v: 255 if low <= v <= high else 0)

    def alike(one: Image.Image, other: Image.Image) -> Image.Image:
        return ImageChops.difference(one, other).point(lambda v: 255 if v <= 4 else 0)

    mask = ImageChops.multiply(ImageChops.multiply(within(red), within(green)), within(blue))
    mask = ImageChops.multiply(mask, ImageChops.multiply(alike(red, green), alike(green, blue)))
    blocks = mask.reduce(ERROR_BLOCK).point(lambda v: 255 if v == 255 else 0).filter(ImageFilter.MinFilter(3))
    box = blocks.getbbox()
    return None if box is None else (box[0] * ERROR_BLOCK, box[1] * ERROR_BLOCK)


def content_rows(shot: Image.Image, background: tuple[int, int, int]) -> list[bool]:
    """For each row of ``shot``: whether anything but the background is drawn in it."""
    plain = Image.new("RGB", shot.size, background)
    drawn = ImageChops.difference(shot, plain).convert("L").point(lambda v: 255 if v > 16 else 0)
    return [bool(row) for row in drawn.getprojection()[1]]


def longest_blank_band(rows: dict[int, bool], scrolls: bool) -> tuple[int, int]:
    """(start, length) of the tallest run of empty rows that has content above it and, unless the
    page fits its screen (the rest of the screen is then simply unused), below it."""
    ordered = [rows[y] for y in sorted(rows)]
    best, start, run = (0, 0), None, 0
    seen_content = False
    for y, drawn in enumerate(ordered):
        if drawn:
            if seen_content and run > best[1]:
                best = (start or 0, run)
            seen_content, run, start = True, 0, None
        elif seen_content:
            start = y if start is None else start
            run += 1
    if scrolls and seen_content and run > best[1]:
        best = (start or 0, run)
    return best


class Surveyor:
    """Looks at one screen in one window size, a screen's height at a time down the page, and
    writes down what is wrong with it."""

    def __init__(self, page: FlutterPage, survey: Survey, language: str) -> None:
        self.page = page
        self.survey = survey
        self.language = language

    def shot(self) -> Image.Image:
        return Image.open(io.BytesIO(self.page.page.screenshot())).convert("RGB")

    def settled_shot(self) -> Image.Image:
        """A screenshot once painting has settled: two in a row alike, with more than a few
        colours (the canvas is drawn, not only the page behind it), and Flet's "Working..."
        cover (a reply from the server taking long) gone."""
        last = self.shot()
        for _ in range(30):
            self.page.wait_frames(3)
            again = self.shot()
            colours = again.getcolors(64)
            if (ImageChops.difference(last, again).getbbox() is None and (colours is None or len(colours) > 8)
                    and not self.page.page.evaluate(_BUSY)):
                return again
            last = again
        return last

    def scrolled_shot(self, before: Image.Image | None) -> Image.Image:
        """A screenshot after a scroll (Flutter has had its frames): one is enough unless it still
        shows the page as it was before the scroll."""
        if before is not None:
            shot = self.shot()
            if ImageChops.difference(before, shot).getbbox() is not None and not self.page.page.evaluate(_BUSY):
                return shot
        return self.settled_shot()

    def look(self, screen: str, size: dict[str, int]) -> None:
        where = f"{screen} at {size_name(size)}"
        self.page.settle()  # the screen laid out: its scrollable is the one it keeps
        scrollers = self.page.page.evaluate(_SCROLLERS)
        for scroller in scrollers:
            if scroller["extent"] > MAX_EXTENT_PX:
                self.survey.layout.append(
                    f"{where}: a scrollable {scroller['width']}x{scroller['height']} px holds "
                    f"{scroller['extent']:,} px (more than {MAX_EXTENT_PX:,}): something failed to lay out")
        main = scrollers[0] if scrollers else None
        if main is None:
            area = (0, 64, size["width"], size["height"])  # below the app bar
            stops = [0]
        else:
            area = (round(main["left"]), round(main["top"]), round(main["left"] + main["width"]),
                    round(main["top"] + main["height"]))
            last = max(0, main["extent"] - main["height"])
            if main["extent"] > MAX_EXTENT_PX:
                stops = [0, main["extent"] // 2]  # already failed: its first screen and its middle show why
            else:
                stops = list(range(0, last, main["height"])) + [last]
        pictures: dict[int, Image.Image] = {}
        targets: dict[str, dict[str, Any]] = {}
        doubled: set[str] = set()
        before: Image.Image | None = None
        for stop in stops:
            at = self.page.page.evaluate(_SCROLL_TO, stop) if main is not None else 0
            if at in pictures:
                continue  # the page scrolls no further
            pictures[at] = before = self.scrolled_shot(before)
            self.page.settle()  # measured once every control holds its place, not mid-layout
            doubled.update(self.page.page.evaluate(_DOUBLED))
            for target in self.page.page.evaluate(_TARGETS):
                cut = abs(target["top"] - area[1]) < 1 or abs(target["bottom"] - area[3]) < 1
                seen = targets.get(target["id"])
                if seen is None or (seen["cut"] and not cut):
                    targets[target["id"]] = {**target, "cut": cut}
        for target in targets.values():  # small where seen: seen again in the middle of the page
            if not target["cut"] and min(target["width"], target["height"]) < MIN_TARGET_PX - 0.5 \
                    and self.page.page.evaluate(_CENTRED_BOX, target["id"]):
                self.page.settle()
                box = self.page.page.evaluate(_BOX_OF, target["id"])
                if box is not None:
                    target.update(box)
        self.check_pictures(where, area, pictures, scrolls=main is not None)
        self.check_targets(where, screen, targets.values())
        self.survey.targets += [f"{where}: {text!r} is said twice" for text in sorted(doubled)]

    def check_pictures(self, where: str, area: tuple[int, int, int, int], pictures: dict[int, Image.Image],
                       scrolls: bool) -> None:
        """Grey boxes in each picture; blank bands down the whole page (the pictures by scroll offset)."""
        rows: dict[int, bool] = {}
        background: tuple[int, int, int] | None = None
        problems = len(self.survey.layout)
        for at, picture in sorted(pictures.items()):
            body = picture.crop(area)
            if background is None:
                background = max(body.getcolors(body.width * body.height) or [(0, (255, 255, 255))])[1]
            grey = grey_error_box(body)
            if grey is not None:
                self.survey.layout.append(f"{where}: a grey error box at {grey[0]},{grey[1] + area[1]} px "
                                          f"scrolled to {at} px")
            for y, drawn in enumerate(content_rows(body, background)):
                rows[at + y] = rows.get(at + y, False) or drawn
        if not any(rows.values()):
            self.survey.layout.append(f"{where}: nothing is drawn")
        else:
            start, length = longest_blank_band(rows, scrolls)
            if length > BLANK_SHARE * (area[3] - area[1]):
                self.survey.layout.append(f"{where}: a blank band {length} px tall at {start} px down the page")
        if len(self.survey.layout) > problems:
            for at, picture in pictures.items():
                picture.save(self.survey.shots / f"{where.replace(' ', '-')}-at-{at}.png")
            self.survey.layout.append(f"    (screenshots of {where}: {self.survey.shots})")

    def check_targets(self, where: str, screen: str, targets: Iterable[dict[str, Any]]) -> None:
        """Each control's size where it was seen whole (a control cut by the screen's edge is
        measured cut), and its name; then the controls the screen must offer."""
        problems: dict[str, int] = {}
        for target in targets:
            small = not target["cut"] and target["kind"] != "read-only textbox" and (
                target["width"] < MIN_TARGET_PX - 0.5 or target["height"] < MIN_TARGET_PX - 0.5)
            if small or not target["name"]:
                line = (f"{target['kind']} {target['name']!r}"
                        + (f" is {target['width']:.0f}x{target['height']:.0f} px" if small else "")
                        + ("" if target["name"] else " has no name"))
                problems[line] = problems.get(line, 0) + 1
        for line, count in problems.items():
            self.survey.targets.append(f"{where}: {line}" + (f" (x{count})" if count > 1 else ""))
        with speaking(self.language):
            wanted = must_have(screen)
        for role, name, count in wanted:
            shown = self.page.page.get_by_role(role, name=name, exact=True).count()  # type: ignore[arg-type]
            if shown != count:
                self.survey.layout.append(f"{where}: {count} {role} {name!r} expected, {shown} in the "
                                          "accessibility tree")


def open_screen(page: FlutterPage, url: str, sign: Ready) -> None:
    """Load the app at ``url`` (its first screen costs the client's start)."""
    page.page.goto(url, wait_until="commit")
    page.enable_semantics()
    sign_on(page, sign).first.wait_for(state="visible", timeout=30_000)


def go_to(page: FlutterPage, route: str, sign: Ready) -> None:
    """Move the loaded app to ``route`` as the browser's Back and Forward do (the app follows the
    address), which costs a screen, not a new start of the client. ``sign`` must be the new
    screen's own: one the screen before already shows would be found before the move."""
    already = sign_on(page, sign).count()
    assert not already, f"{sign!r} is already shown before the move to {route}: it cannot tell that screen came"
    page.page.evaluate(_GO_TO, route)
    sign_on(page, sign).first.wait_for(state="visible", timeout=30_000)


def go_to_the_last_table(page: FlutterPage, tables: int) -> str:
    """From the top of the page, choose the last table in "Go to table"; "shown" once its card's
    title is on the screen (called within :func:`app.i18n.speaking`)."""
    try:
        page.page.evaluate(_SCROLL_TO, 0)
        page.click_button(tr("Go to table"))
        page.click_button(tr("Table {table}", table=tables))
        title = tr("Table {table} · {name}", table=tables, name=say("Round {number}", number=1))
        page.page.wait_for_function(_TITLE_ON_SCREEN, arg=title, timeout=15_000)
    except Exception as failure:  # noqa: BLE001 - reported by its test
        return f"not shown: {failure}"
    return "shown"


def resize(page: FlutterPage, size: dict[str, int]) -> None:
    page.page.set_viewport_size(size)  # type: ignore[arg-type]
    page.page.wait_for_function(_VIEW_SIZED, arg=[size["width"], size["height"]], timeout=10_000)
    page.wait_frames(3)


def longest_language() -> str:
    """The shipped language whose translations are longest in all: where a screen would overflow first."""
    def length(language: str) -> int:
        return sum(map(len, po_messages((CATALOGUE_FOLDER / f"{language}.po").read_text(encoding="utf-8")).values()))

    return max(sorted(available_languages()), key=length)


@pytest.fixture(scope="module", params=[ENGLISH, longest_language()])
def survey(request: pytest.FixtureRequest, chromium_browser: Browser,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Survey]:
    """Open every route once, in English and in the longest language (the browser's own locale);
    look at it at phone size and desktop size (alternating the order, so each route costs one resize)."""
    language: str = request.param
    folder = tmp_path_factory.mktemp("every-screen")
    port = free_port()
    seeded = seed_every_screen(folder / "data", f"http://127.0.0.1:{port}")
    # Out of pytest's numbered folders, which other runs on this machine rotate away.
    found = Survey(Path(tempfile.mkdtemp(prefix="farkle-every-screen-")))
    with start_app_server(folder / "data", port=port) as server:
        context = chromium_browser.new_context(viewport=PHONE, locale=language.replace("_", "-"))  # type: ignore[arg-type]
        page = FlutterPage(context.new_page())
        surveyor = Surveyor(page, found, language)
        loaded = False
        try:
            for index, (screen, route) in enumerate(seeded.routes()):
                sizes = [PHONE, DESKTOP] if index % 2 == 0 else [DESKTOP, PHONE]
                if page.page.viewport_size != sizes[0]:
                    page.page.set_viewport_size(sizes[0])  # type: ignore[arg-type]
                with speaking(language):
                    sign, pressed = ready(screen, seeded), press_first(screen)
                try:
                    if loaded:
                        go_to(page, route, sign)
                    else:
                        open_screen(page, server.url.rstrip("/") + route, sign)
                    loaded = True
                    if pressed is not None:
                        page.click_button(pressed[0])
                        page.wait_for_text(pressed[1])
                except Exception as failure:  # noqa: BLE001 - one screen that does not show is one finding
                    found.layout.append(f"{screen} ({route}) did not show {sign!r}: {failure}")
                    loaded = False  # start the client again for the next screen
                    continue
                for number, size in enumerate(sizes):
                    if number:
                        resize(page, size)
                    surveyor.look(screen, size)
                    if screen == "seating" and size == PHONE:
                        with speaking(language):
                            found.last_card_reached = go_to_the_last_table(page, tables=10)
        finally:
            context.close()
    yield found


def test_every_screen_at_phone_and_desktop_size_is_free_of_error_boxes_and_blank_regions(survey: Survey) -> None:
    assert not survey.layout, "\n".join(survey.layout)


def test_every_control_on_every_screen_is_at_least_48_px_square_and_named_and_nothing_is_said_twice(
        survey: Survey) -> None:
    assert not survey.targets, "\n".join(survey.targets)


def test_the_seating_pages_go_to_table_brings_the_last_card_into_view_on_a_phone(survey: Survey) -> None:
    assert survey.last_card_reached == "shown"
