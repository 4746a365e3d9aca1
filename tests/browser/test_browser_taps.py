"""Fast taps all land: 30 taps 80 ms apart on a phone (390x844), on the table's face pad
and on the score lookup, served by ``python -m app`` and as the offline PWA; 20 runs of
each, every tap of every run must land.

How a run counts (every one of the 30 taps changes what is shown):

- Before the run the screen holds the dice 1 2 3 (tapped in one by one, each awaited).
- The 30 taps are sent from inside the page (``setTimeout``, 80 ms apart, so Playwright's
  round trips do not space them): even taps add a face ("Face N" on the table, "Add N" on
  the lookup), odd taps tap the first entered die ("Entered N, tap to remove" /
  "Remove N"), which takes it out. The dice are a queue: three or four of them at any
  time, never more than six, and a "first die" to tap is there even when the previous
  tap has not been drawn yet.
- A MutationObserver on Flutter's accessibility tree records every distinct list of
  entered dice, with its time. A landed tap adds or removes exactly one die, a lost tap
  changes nothing: :func:`landed` replays the 30 taps (each landed or lost) against the
  lists shown and the times the taps were sent, and gives the most taps that can have
  landed. When every change is drawn that is the exact count; when the app draws
  several taps in one frame it is the count most favourable to the app, so a run under
  30 always means lost taps. The added faces are chosen so that the final list (6 6 6)
  is shown only once all 30 taps are in: the run is over (settled) when it is shown and
  stays for 300 ms, or when nothing has changed for 3 s.
- Between runs the app's own Clear button empties the screen; one browser (one
  profile) and one page per screen and mode serve all 20 runs.

``FARKLE_APP_COMMIT=b9d2d65 pytest tests/browser/test_browser_taps.py`` drives that commit's app
(tests/support/baseline_app.py) instead of the working tree's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.baseline_app import AppSource, app_source, served
from tests.support.browser_support import AppServer, FlutterPage, new_game
from tests.support.pwa_harness import BOOT_TIMEOUT_MS, Browser, Server, built_site, serving

pytestmark = pytest.mark.browser

RUNS = int(os.environ.get("FARKLE_TAP_RUNS", "20"))  # fewer only to try the test out
TAPS = 30
INTERVAL_MS = 80
PREFILL = (1, 2, 3)
# Faces added by the even taps: the list left at the end (6 6 6) is never shown earlier.
ADDED = (4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 6, 6, 6)
assert len(ADDED) * 2 == TAPS
EXPECTED_FINAL = list((PREFILL + ADDED)[len(ADDED):])


@dataclass(frozen=True)
class Screen:
    name: str
    add: str  # "Face {}" / "Add {}"
    chip: str  # how an entered die's name starts: "Entered " / "Remove "

    def plan(self) -> list[dict[str, Any]]:
        taps: list[dict[str, Any]] = []
        for face in ADDED:
            taps.append({"name": self.add.format(face), "face": face})
            taps.append({"first_chip": True})
        return taps


SCREENS = {
    "table": Screen("table", "Face {}", "Entered "),
    "lookup": Screen("lookup", "Add {}", "Remove "),
}

# Send the taps `interval` ms apart; watch the entered dice until the app settles.
_TAPS = """async ([chip, taps, interval, expected, settledMs, quietMs, giveUpMs]) => {
  const host = document.querySelector('flt-semantics-host');
  const label = (e) => (e.getAttribute('aria-label') || e.textContent || '').trim();
  const buttons = () => [...host.querySelectorAll('flt-semantics[role=button]')];
  const chips = () => buttons().filter(e => label(e).startsWith(chip));
  const faces = () => chips().map(e => parseInt(label(e).slice(chip.length), 10));
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const start = performance.now();
  const states = [{t: 0, faces: faces()}];
  let changed = start;
  const observer = new MutationObserver(() => {
    const now = faces();
    if (!same(now, states[states.length - 1].faces)) {
      changed = performance.now();
      states.push({t: changed - start, faces: now});
    }
  });
  observer.observe(host, {subtree: true, childList: true, characterData: true, attributes: true});
  const sent = [];
  await new Promise(resolve => taps.forEach((tap, i) => setTimeout(() => {
    const target = tap.first_chip ? chips()[0] : buttons().find(e => label(e) === tap.name);
    sent.push({i, t: performance.now() - start, target: target ? label(target) : null});
    if (target) target.click();
    if (i === taps.length - 1) resolve();
  }, i * interval)));
  const lastTap = performance.now();
  await new Promise(resolve => {
    const check = () => {
      const now = performance.now();
      const quiet = now - changed;
      const atEnd = same(faces(), expected) && quiet >= settledMs;
      if (atEnd || (now - lastTap >= quietMs && quiet >= quietMs) || now - lastTap >= giveUpMs) resolve();
      else setTimeout(check, 50);
    };
    check();
  });
  observer.disconnect();
  return {states, sent, final: faces(), settled_ms: Math.round(performance.now() - lastTap)};
}"""


def landed(shown: list[tuple[float, list[int]]], sent: list[tuple[float, bool]],
           plan: list[dict[str, Any]], prefill: tuple[int, ...] = PREFILL, capacity: int = 6) -> int:
    """The most taps that can have landed, given what was shown: -1 if nothing explains it.

    ``shown``: (ms, entered dice) each time the list changed, the first at 0 ms before any
    tap; ``sent``: (ms, a target was there) per tap of ``plan``. A tap that lands adds its
    face at the end (refused when ``capacity`` dice are in) or takes the first die away;
    a lost tap changes nothing; landed taps act in order. Every list shown must be the
    state after some number of taps, all sent before it was shown, in the order shown,
    and the last list is the state after the 30th tap. Usually that pins the count down
    exactly (each change is seen); when the app draws several taps in one frame, this is
    the count most favourable to the app, so a count under 30 proves taps were lost."""
    times = [t for t, _ in shown]
    states = [tuple(faces) for _, faces in shown]
    sent_times = [t for t, _ in sent]
    if states[0] != tuple(prefill):
        return -1

    def sent_before(t: float) -> int:
        return sum(1 for s in sent_times if s < t)

    def keep(layer: dict[tuple[int, tuple[int, ...]], int], key: tuple[int, tuple[int, ...]], value: int) -> bool:
        if layer.get(key, -1) >= value:
            return False
        layer[key] = value
        return True

    layer: dict[tuple[int, tuple[int, ...]], int] = {(0, states[0]): 0}  # (lists seen, dice) -> taps landed
    for done in range(len(plan) + 1):
        todo = list(layer.items())
        while todo:  # the dice after `done` taps may be the next list shown
            (seen, dice), count = todo.pop()
            if seen + 1 < len(states) and states[seen + 1] == dice and done <= sent_before(times[seen + 1]):
                if keep(layer, (seen + 1, dice), count):
                    todo.append(((seen + 1, dice), count))
        if done == len(plan):
            break
        tap, (_, made) = plan[done], sent[done]
        following: dict[tuple[int, tuple[int, ...]], int] = {}
        for (seen, dice), count in layer.items():
            keep(following, (seen, dice), count)  # lost
            if not made:
                continue
            if "name" in tap:
                if len(dice) < capacity:
                    keep(following, (seen, dice + (tap["face"],)), count + 1)
            elif dice:
                keep(following, (seen, dice[1:]), count + 1)
        layer = following
    return max((count for (seen, dice), count in layer.items()
                if seen == len(states) - 1 and dice == states[-1]), default=-1)


def chips_locator(page: FlutterPage, screen: Screen) -> Any:
    return page.page.get_by_role("button", name=re.compile("^" + re.escape(screen.chip) + r"\d"))


def press_until(page: FlutterPage, name: str, chips: Any, count: int) -> None:
    """Tap ``name`` until ``count`` dice are entered (one tap, awaited; again if lost)."""
    for attempt in range(3):
        page.click_button(name)
        try:
            expect(chips).to_have_count(count, timeout=5_000)
            return
        except AssertionError:
            if attempt == 2:
                raise


def reset(page: FlutterPage, screen: Screen) -> None:
    """The app's own Clear, then the dice 1 2 3, each tap awaited."""
    chips = chips_locator(page, screen)
    if chips.count():
        press_until(page, "Clear", chips, 0)
    for count, face in enumerate(PREFILL, start=1):
        press_until(page, screen.add.format(face), chips, count)


def open_screen(page: FlutterPage, url: str, screen: Screen, timeout_ms: int) -> None:
    try:
        page.open(url, timeout_ms)
        page.button("New game").wait_for(timeout=timeout_ms)
    except Exception as error:  # say what the page shows instead
        shown = page.texts() if page.page.locator("flt-semantics-host").count() else []
        raise AssertionError(f"the home screen never answered at {url}: {error}\nshown: {shown}\n"
                             f"console: {page.console[-10:]}") from error
    if screen.name == "table":
        new_game(page, "Ann", "Bob")
    else:
        page.click_button("Score lookup")
        page.button("Add 1").wait_for()


# --------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def source() -> AppSource:
    return app_source()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One Chromium (one profile) for every run of the module, server and PWA alike."""
    with Browser(tmp_path_factory.mktemp("taps-profile")) as b:
        yield b


@pytest.fixture(scope="module")
def app_server(source: AppSource, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    with served(source, tmp_path_factory.mktemp("taps-server") / "data") as server:
        yield server


@pytest.fixture(scope="module")
def pwa_server(source: AppSource, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    site, _ = built_site(source.app_dir, source.engine_dir, label=source.cache_label)
    with serving(site, tmp_path_factory.mktemp("taps-www")) as server:
        yield server


@pytest.fixture
def url(request: pytest.FixtureRequest, mode: str) -> str:
    server = request.getfixturevalue("app_server" if mode == "server" else "pwa_server")
    return str(server.url)


# --------------------------------------------------------------------- the test


@pytest.mark.parametrize("screen_name", ["table", "lookup"])
@pytest.mark.parametrize("mode", ["server", "pwa"])
def test_thirty_fast_taps_all_land(browser: Browser, url: str, mode: str, screen_name: str,
                                   source: AppSource) -> None:
    screen = SCREENS[screen_name]
    page = FlutterPage(browser.context.new_page())
    try:
        open_screen(page, url, screen, BOOT_TIMEOUT_MS)
        if mode == "pwa":  # the first visit makes a Python snapshot in the background: not during the runs
            browser.wait_python_snapshot(page=page.page)
        results = []
        plan = screen.plan()
        for _ in range(RUNS):
            reset(page, screen)
            result = page.page.evaluate(_TAPS, [screen.chip, plan, INTERVAL_MS, EXPECTED_FINAL,
                                                300, 3_000, 30_000])
            shown = [(s["t"], s["faces"]) for s in result["states"]]
            sent = [(s["t"], s["target"] is not None) for s in sorted(result["sent"], key=lambda s: s["i"])]
            results.append({"landed": landed(shown, sent, plan), "final": result["final"],
                            "missing": [s["i"] for s in result["sent"] if s["target"] is None],
                            "settled_ms": result["settled_ms"]})
    finally:
        page.page.close()  # the page only: FlutterPage.close() would close the shared context
    counts = [r["landed"] for r in results]
    print(f"\n[{source.label}, {mode}, {screen_name}] taps landed per run (of {TAPS}): {counts}")
    bad = [r for r in results if r["landed"] != TAPS or r["final"] != EXPECTED_FINAL or r["missing"]]
    assert not bad, (
        f"{len(bad)} of {RUNS} runs lost taps on the {screen_name} ({mode}, {source.label}): "
        f"landed per run {counts} (of {TAPS}); first bad run {bad[0]}")
