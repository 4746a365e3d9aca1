"""Start-up of the offline PWA in each browser engine (Chromium, WebKit, Firefox), this
build's boot order against `flet publish`'s, and where the time goes.

    .venv/bin/python tests/bench/bench_engines.py [--runs 3] [--engines chromium,webkit,firefox] [--json FILE]

For each engine and each build (this one; the same app built the way `flet publish` boots it:
Flutter first, Python once Flutter is up, no bytecode, no Python snapshot), each run takes a
fresh profile through three starts:

- cold: the first visit, nothing cached (the service worker installs meanwhile, and this
  build then makes its Python memory snapshot in the background);
- warm: the second start, from the service worker's cache (and this build's snapshot).
  Chromium and Firefox are closed and started again on the same profile; WebKit's
  automation session is ephemeral (tests/support/webkit_support.py), so there the page is opened
  again in the same session;
- offline: a reload with the server stopped.

Time to interactive is measured in the page itself: from navigation start until the home
screen's "New game" button is in Flutter's accessibility tree (the same for every driver, with
no polling delay). The breakdown comes from two probes the benchmark adds to its served copy
of the site (never to the built site; the copy's service worker pre-caches them): PROBE, first
in the page, wraps ``Worker`` so that the Python worker starts through WORKER_PROBE, which
posts the worker's own times (kept from Flet by PROBE), and listens for ``flutter-first-frame``.
The phases, in seconds:

- worker_at: the page creates the Python worker (this build: at once; flet publish: once
  Flutter is up), worker_up: its scripts are loaded;
- python_start: Pyodide's own start, or its restore from this build's memory snapshot; of it,
  wasm: until pyodide.asm.wasm is compiled and instantiated (after a snapshot start, this
  includes reading and unzipping the snapshot, which python-snapshot.js does first), and
  python_init: the rest (Python's own start, or the restore);
- archive: app.tar.gz fetched (archive_fetch) and unpacked (unpack); imports: the app's main
  module run (its imports, ``ft.run``) until the worker says "initialized";
- first_frame_at: Flutter's first frame; register_at: Flutter asks the app for its page;
  first_reply_at: the app sends it; home_after_reply: Flutter draws the home screen from it.

Medians are printed with the load average (the machine is shared: the spread matters), as a
Markdown table with the ratio of this build's time to flet publish's. ``make bench`` runs
:func:`test_start_up_in_each_engine_is_timed_against_flet_publish_boot_order` (one run): it
reports, and fails only when a start never reaches the home screen or loses a mark.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.pwa_harness import FILES_CACHE, built_site, precache_size, serving  # noqa: E402

ENGINES = ("chromium", "webkit", "firefox")
STARTS = ("cold", "warm", "offline")
THIS_BUILD = "this build"
FLET_PUBLISH = "flet publish"
BOOT_TIMEOUT_S = 150.0
BACKGROUND_TIMEOUT_S = 180.0
"""The service worker's pre-cache and the Python snapshot after a cold start (WebKit's
snapshot took 11 to 25 s of worker time alone, issue 17)."""

PROBE = """<script>
// tests/bench/bench_engines.py's probe (only in the benchmark's copy of the site): start-up marks in
// ms since navigation start, read back as globalThis.__farkleBench. The Python worker is
// started through WORKER_PROBE, whose marks (its own clock) are kept from Flet here.
(() => {
  const bench = globalThis.__farkleBench = {marks: {}, python: null, error: null, ready: false};
  const mark = (name, at = performance.now()) => {
    if (!(name in bench.marks)) bench.marks[name] = Math.round(at);
  };
  addEventListener("flutter-first-frame", () => mark("first_frame"));
  const NativeWorker = globalThis.Worker;
  globalThis.Worker = class extends NativeWorker {
    constructor(url, options) {
      const python = /python-worker\\.js$/.test(String(url));
      super(python ? String(url).replace(/python-worker\\.js$/, "bench-python-worker.js") : url, options);
      this.benchPython = python;
      if (!python) return;
      const app = !("worker" in bench.marks);  // the app's; a later one makes the snapshot
      mark("worker");
      // Added before python-early.js's listener: it must never see the probe's messages.
      this.addEventListener("message", (event) => {
        const data = event.data;
        if (data && data.farkleBench) {
          event.stopImmediatePropagation();
          if (app) mark(data.farkleBench, data.at - performance.timeOrigin);
        } else if (data && data.fletEarly === "pyodide-loaded") {
          bench.python = {snapshot: data.snapshot, reason: data.reason, ms: data.ms};
        } else if (typeof data === "string" && data !== "initialized") bench.error = data;
      });
    }
    postMessage(...args) {
      const data = args[0];
      if (this.benchPython && !(data && (data.pyodideUrl || data.fletMakeSnapshot))) mark("register");
      return super.postMessage(...args);
    }
  };
  const named = (e) => (e.getAttribute("aria-label") || e.textContent || "").replace(/\\s+/g, " ").trim();
  let asked = 0;
  const check = () => {
    if (bench.ready) return;
    const placeholder = document.querySelector("flt-semantics-placeholder");
    if (placeholder && performance.now() - asked > 250) {  // Flutter's accessibility tree, as the tests ask
      asked = performance.now();
      placeholder.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
    for (const button of document.querySelectorAll("flt-semantics-host [role=button]")) {
      if (named(button) === "New game") {
        mark("ready");
        bench.ready = true;
        observer.disconnect();
        clearInterval(timer);
        return;
      }
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, {childList: true, subtree: true, characterData: true,
                              attributes: true, attributeFilter: ["aria-label", "role"]});
  const timer = setInterval(check, 100);
})();
</script>
"""
WORKER_PROBE = """// tests/bench/bench_engines.py's worker probe (bench-python-worker.js, only in the benchmark's copy
// of the site): the Python worker, with its own times posted to the page as epoch ms.
import "./python-worker.js";  // evaluated first: it only defines things until its init message

const post = self.postMessage.bind(self);
const mark = (name) => post({farkleBench: name, at: performance.timeOrigin + performance.now()});
mark("worker_up");
for (const name of ["compileStreaming", "instantiateStreaming", "compile", "instantiate"]) {
  const original = WebAssembly[name];  // Pyodide's pyodide.asm.wasm (9.6 MB): fetched and compiled
  WebAssembly[name] = function (source, ...rest) {
    const result = original.call(this, source, ...rest);
    if (name.endsWith("Streaming") || (source && source.byteLength > 1e6)) result.then(() => mark("wasm"), () => {});
    return result;
  };
}
const body = Response.prototype.arrayBuffer;  // the app archive's bytes, read by pyfetch
Response.prototype.arrayBuffer = function (...args) {
  const result = body.apply(this, args);
  if (/app\\.tar\\.gz$/.test(this.url)) result.then(() => mark("archive_fetched"), () => {});
  return result;
};
let pyodide = undefined, replied = false;
Object.defineProperty(self, "pyodide", {configurable: true, get: () => pyodide, set: (value) => {
  pyodide = value;  // Pyodide started (or restored from the snapshot)
  mark("python");
  const starting = self.flet_js.userAppStarting;  // the app archive is unpacked: the app's main module runs
  self.flet_js.userAppStarting = (...args) => { mark("app_start"); return starting(...args); };
}});
self.postMessage = (data, ...rest) => {
  if (data === "initialized") mark("initialized");  // imported, ft.run() called, connection open
  else if (!replied && data instanceof Uint8Array) {
    replied = true;
    mark("first_reply");  // the app's first page, sent
  }
  return post(data, ...rest);
};
"""
MARKS = ("worker", "worker_up", "wasm", "python", "app_start", "initialized", "first_frame", "register",
         "first_reply", "ready")
BENCH_STATE = "globalThis.__farkleBench && __farkleBench.ready ? __farkleBench : null"
SNAPSHOT_SETTLED = """(() => {
  const start = globalThis.fletPythonStart, state = globalThis.fletSnapshotState || "";
  if (!start) return null;
  if (start.snapshot) return "used";
  return state === "saved" || state === "failed" ? state : null;
})()"""
CONTROLLED = "!!(navigator.serviceWorker && navigator.serviceWorker.controller)"
CACHED_FILES = f"caches.open({FILES_CACHE!r}).then((c) => c.keys()).then((k) => k.length)"


# ----------------------------------------------------------------------------- the site


def sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def probed_site(site: Path, copy: Path) -> Path:
    """A copy of ``site`` whose pages carry :data:`PROBE` first thing in <head>, with
    :data:`WORKER_PROBE` beside python-worker.js, and whose service worker pre-caches the
    probe and expects the pages' new content (it checks every file's integrity)."""
    shutil.copytree(site, copy, symlinks=True)
    page = (site / "index.html").read_bytes()
    head = page.index(b"<head>") + len(b"<head>")
    probed = page[:head] + b"\n" + PROBE.encode() + page[head:]
    for name in ("index.html", "404.html"):
        assert (site / name).read_bytes() == page, f"{site / name}: expected the same page as index.html"
        (copy / name).write_bytes(probed)
    (copy / "bench-python-worker.js").write_text(WORKER_PROBE, encoding="utf-8")
    worker = (site / "sw.js").read_text(encoding="utf-8")
    assert worker.count(json.dumps(sri(page))) == 2, "sw.js: expected index.html's and 404.html's integrity"
    assert worker.count("const PRECACHE = [") == 1, "sw.js: expected its PRECACHE list"
    worker = worker.replace(json.dumps(sri(page)), json.dumps(sri(probed))).replace(
        "const PRECACHE = [", "const PRECACHE = [" + json.dumps(
            ["bench-python-worker.js", sri(WORKER_PROBE.encode())]) + ",")
    (copy / "sw.js").write_text(worker, encoding="utf-8")
    return copy


# ----------------------------------------------------------------------------- the engines


@dataclass
class Tab:
    """One page of an engine, as the benchmark drives it: navigate, reload, evaluate."""

    navigate: Callable[[str], object]
    reload: Callable[[], object]
    evaluate: Callable[[str], Any]
    """The JSON value of a JavaScript expression (a promise is awaited)."""


def wait_for(tab: Tab, expr: str, timeout_s: float, what: str) -> Any:
    deadline = time.monotonic() + timeout_s
    while not (value := tab.evaluate(expr)):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} after {timeout_s:.0f} s")
        time.sleep(0.1)
    return value


@contextmanager
def chromium_tab(profile: Path, work: Path) -> Iterator[Tab]:
    """Debian's Chromium through Playwright on a persistent profile (tests/support/pwa_harness.py)."""
    from tests.support.pwa_harness import Browser

    with Browser(profile) as browser:
        page = browser.page
        yield Tab(navigate=lambda url: page.goto(url, wait_until="commit", timeout=BOOT_TIMEOUT_S * 1000),
                  reload=lambda: page.reload(wait_until="commit", timeout=BOOT_TIMEOUT_S * 1000),
                  evaluate=page.evaluate)


@contextmanager
def webkit_tab(profile: Path, work: Path) -> Iterator[Tab]:
    """WebKitGTK's MiniBrowser through WebKitWebDriver under Xvfb (tests/support/webkit_support.py).
    Its session is ephemeral: ``profile`` is not used."""
    from tests.support.webkit_support import webkit_session

    with webkit_session(work / "webkit-logs") as page:
        yield Tab(navigate=page.driver.get, reload=page.driver.refresh,
                  evaluate=lambda expr: page.driver.execute_async_script(
                      "const [expr, done] = arguments;"
                      " Promise.resolve(eval(expr)).then(done, (err) => done({error: String(err)}));", expr))


@contextmanager
def firefox_tab(profile: Path, work: Path) -> Iterator[Tab]:
    """Debian's firefox-esr through tests/browser/firefox/driver.mjs on a persistent profile:
    ``Firefox.launch`` always starts a throwaway one, so the driver is asked for this
    ``userDataDir`` here (its ``launch`` command takes one)."""
    from tests.support.firefox_support import FIREFOX_DIR, FIREFOX_PATH, Firefox

    log_path = work / "firefox-driver.log"
    with open(log_path, "a") as log:
        process = subprocess.Popen(["node", str(FIREFOX_DIR / "driver.mjs")], cwd=FIREFOX_DIR, text=True,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                   start_new_session=True)
    firefox = Firefox(process, log_path)
    try:
        firefox.call("launch", timeout_ms=90_000, executablePath=FIREFOX_PATH, userDataDir=str(profile))
        page = firefox.new_page(isolated=False)  # the profile's own storage, kept across restarts
        timeout_ms = int(BOOT_TIMEOUT_S * 1000)
        yield Tab(navigate=lambda url: firefox.call("open", timeout_ms, page=page.page_id, url=url),
                  reload=lambda: firefox.call("reload", timeout_ms, page=page.page_id),
                  evaluate=page.evaluate)
    finally:
        firefox.close()


ENGINE_TABS: dict[str, Callable[[Path, Path], Any]] = {
    "chromium": chromium_tab, "webkit": webkit_tab, "firefox": firefox_tab}
RESTARTS = {"chromium": True, "webkit": False, "firefox": True}
"""Whether the warm start closes the browser and starts it again on the profile."""


def engine_missing_reason(engine: str) -> Optional[str]:
    """Why ``engine`` cannot run here (``None``: it can)."""
    if engine == "chromium":
        from tests.support.browser_support import chromium_missing_reason

        missing = chromium_missing_reason()
        return missing[1] if missing else None
    if engine == "webkit":
        from tests.support.webkit_support import webkit_missing_reason

        return webkit_missing_reason()
    from tests.support.firefox_support import ensure_node_modules, firefox_missing_reason

    return firefox_missing_reason() or ensure_node_modules()


# ----------------------------------------------------------------------------- one run


@dataclass
class Start:
    """One start of the app: the wall time the driver saw and the page's own marks."""

    wall_s: float
    marks: dict[str, int]
    python: dict[str, Any]
    error: Optional[str]

    def phases(self) -> dict[str, float]:
        """Seconds: time to interactive, and the parts of it (see the module docstring)."""
        m = {name: at / 1000 for name, at in self.marks.items()}
        fetched = {"archive_fetch": m["archive_fetched"] - m["python"], "unpack": m["app_start"] - m["archive_fetched"]
                   } if "archive_fetched" in m else {}
        return {**fetched, "tti": m["ready"], "worker_at": m["worker"], "worker_up": m["worker_up"] - m["worker"],
                "python_start": m["python"] - m["worker_up"], "wasm": m["wasm"] - m["worker_up"],
                "python_init": m["python"] - m["wasm"], "archive": m["app_start"] - m["python"],
                "imports": m["initialized"] - m["app_start"], "first_frame_at": m["first_frame"],
                "register_at": m["register"], "first_reply_at": m["first_reply"],
                "home_after_reply": m["ready"] - m["first_reply"]}


def timed_start(tab: Tab, url: Optional[str] = None) -> Start:
    """Navigate to ``url`` (or reload) and wait until the probe says the home screen answers."""
    started = time.monotonic()
    if url:
        tab.navigate(url)
    else:
        tab.reload()
    state = wait_for(tab, BENCH_STATE, BOOT_TIMEOUT_S, "the home screen never answered")
    start = Start(time.monotonic() - started, dict(state["marks"]), dict(state["python"] or {}), state["error"])
    missing = set(MARKS) - set(start.marks)
    assert not missing and not start.error, f"start without {sorted(missing)} (worker said {start.error!r})"
    return start


def settle_after_cold_start(tab: Tab, site: Path, makes_snapshot: bool) -> dict[str, Any]:
    """Until the service worker holds every file and (this build) the Python snapshot is
    made: what the first visit leaves behind for the next start."""
    wait_for(tab, CONTROLLED, BACKGROUND_TIMEOUT_S, "no service worker took the page")
    wanted = precache_size(site)
    wait_for(tab, f"{CACHED_FILES}.then((n) => n >= {wanted})", BACKGROUND_TIMEOUT_S,
             f"the service worker never held the site's {wanted} files")
    if not makes_snapshot:
        return {}
    state = wait_for(tab, SNAPSHOT_SETTLED, BACKGROUND_TIMEOUT_S, "the Python snapshot was never made")
    detail = tab.evaluate("globalThis.fletSnapshotDetail || {}") or {}
    return {"state": state, **{k: detail[k] for k in ("ms", "bytes", "error") if k in detail}}


def one_run(engine: str, site: Path, work: Path, makes_snapshot: bool) -> dict[str, Any]:
    """Cold, warm and offline starts of one fresh profile in ``engine``."""
    open_tab = ENGINE_TABS[engine]
    profile = work / "profile"
    profile.mkdir()
    with serving(site, work / "www") as server:
        with open_tab(profile, work) as tab:
            cold = timed_start(tab, server.url)
            snapshot = settle_after_cold_start(tab, site, makes_snapshot)
            time.sleep(1.0)  # as tests/bench/bench_pwa.py: let the browser write its caches before closing
            if not RESTARTS[engine]:
                warm = timed_start(tab, server.url)
                server.stop()
                offline = timed_start(tab)
        if RESTARTS[engine]:
            with open_tab(profile, work) as tab:
                warm = timed_start(tab, server.url)
                server.stop()
                offline = timed_start(tab)
    return {"starts": {"cold": cold, "warm": warm, "offline": offline}, "snapshot": snapshot,
            "load": os.getloadavg()[0]}


# ----------------------------------------------------------------------------- report


@dataclass
class Samples:
    """Every start's phases of one engine and build, by start kind."""

    phases: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    snapshot_used: dict[str, list[Optional[bool]]] = field(default_factory=dict)
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)

    def add(self, run: dict[str, Any]) -> None:
        for kind, start in run["starts"].items():
            for name, value in start.phases().items():
                self.phases.setdefault(kind, {}).setdefault(name, []).append(value)
            self.snapshot_used.setdefault(kind, []).append(start.python.get("snapshot"))
        if run["snapshot"]:
            self.snapshots.append(run["snapshot"])
        self.loads.append(run["load"])

    def median(self, kind: str, name: str) -> Optional[float]:
        values = self.phases.get(kind, {}).get(name)
        return statistics.median(values) if values else None


def seconds(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:.2f}"


def markdown_table(results: dict[str, dict[str, Samples]]) -> str:
    """The table in docs/measurements.md: per engine and start, the medians of this build /
    flet publish's."""
    both = ("tti", "python_start", "wasm", "imports", "first_frame_at")
    lines = ["| Engine | Start | Ready (s) | Ratio | Python start (s) | of which wasm (+ snapshot read) (s) | App imports (s) "
             "| Flutter first frame (s) | Python snapshot | Load (1 min) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    for engine, by_build in results.items():
        ours, theirs = by_build[THIS_BUILD], by_build[FLET_PUBLISH]
        load = statistics.median(ours.loads + theirs.loads)
        for kind in STARTS:
            pairs = {name: (ours.median(kind, name), theirs.median(kind, name)) for name in both}
            mine, flet = pairs["tti"]
            used = ours.snapshot_used.get(kind, [])
            cells = " | ".join(f"{seconds(a)} / {seconds(b)}" for a, b in (pairs[n] for n in both[1:]))
            lines.append(f"| {engine} | {kind} | {seconds(mine)} / {seconds(flet)} | "
                         f"{mine / flet if mine and flet else float('nan'):.2f} | {cells} | "
                         f"{sum(1 for u in used if u)}/{len(used)} restored | {load:.1f} |")
    return "\n".join(lines)


def print_details(results: dict[str, dict[str, Samples]]) -> None:
    for engine, by_build in results.items():
        for build, samples in by_build.items():
            print(f"\n{engine} [{build}]: medians in s (samples); marks are since navigation start")
            for kind in STARTS:
                row = samples.phases.get(kind, {})
                print(f"  {kind:<8} " + ", ".join(
                    f"{name} {statistics.median(values):.2f}" for name, values in row.items()))
                print(f"           tti samples {', '.join(f'{v:.2f}' for v in row.get('tti', []))}; "
                      f"snapshot used {samples.snapshot_used.get(kind)}")
            for snapshot in samples.snapshots:
                print(f"  after the cold start, the Python snapshot: {snapshot}")


def built_sites(prebuilt: Optional[list[Path]]) -> dict[str, tuple[Path, dict[str, Any]]]:
    """This build's site and the flet publish boot order's, with their build reports: built
    (or reused) in build/cache/, or ``prebuilt`` (two sites, as build/build_pwa.py wrote
    them, each with its site-report.json beside it)."""
    if prebuilt:
        return {build: (site, json.loads(site.with_name(site.name + "-report.json").read_text(encoding="utf-8")))
                for build, site in zip((THIS_BUILD, FLET_PUBLISH), prebuilt)}
    label = "bench-engines"  # its own build/cache/ slots (tests/bench/bench_pwa.py)
    return {THIS_BUILD: built_site(label=label),
            FLET_PUBLISH: built_site(label=label, no_precompile=True, early_python=False)}


def run_benchmark(runs: int, engines: list[str], prebuilt: Optional[list[Path]] = None) -> dict[str, dict[str, Samples]]:
    """Every engine and build, ``runs`` times, interleaved run by run so that the machine's
    load hits both builds alike."""
    builds = built_sites(prebuilt)
    results = {engine: {build: Samples() for build in builds} for engine in engines}
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        sites = {build: probed_site(site, Path(tmp) / build.replace(" ", "-"))
                 for build, (site, _) in builds.items()}
        for run in range(runs):
            for engine in engines:
                for build, (_, report) in builds.items():
                    makes_snapshot = bool(report.get("options", {}).get("snapshot", True))
                    with tempfile.TemporaryDirectory(prefix=f"{engine}-", dir=tmp) as work:
                        outcome = one_run(engine, sites[build], Path(work), makes_snapshot)
                    results[engine][build].add(outcome)
                    print(f"run {run + 1}/{runs} {engine} [{build}]: " + ", ".join(
                        f"{kind} {start.marks['ready'] / 1000:.2f} s" for kind, start in outcome["starts"].items())
                        + f" (load {outcome['load']:.2f})", flush=True)
    return results


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help="comma-separated, among " + ", ".join(ENGINES))
    parser.add_argument("--json", type=Path, help="also write every sample to this file")
    parser.add_argument("--sites", type=Path, nargs=2, metavar=("THIS", "FLET_PUBLISH"),
                        help="time these two built sites (build/build_pwa.py's output, and its "
                             "--no-early-python --no-precompile one) instead of building them")
    args = parser.parse_args(argv)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        parser.error(f"unknown engine(s) {unknown}: choose among {', '.join(ENGINES)}")
    for engine in list(engines):
        reason = engine_missing_reason(engine)
        if reason:
            print(f"{engine}: not measured ({reason})")
            engines.remove(engine)
    results = run_benchmark(args.runs, engines, args.sites)
    print_details(results)
    load = os.getloadavg()
    print(f"\nMedians of {args.runs} run(s); load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"(1/5/15 min, {os.cpu_count()} cores)\n")
    print(markdown_table(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({engine: {build: {
            "phases_s": s.phases, "snapshot_used": s.snapshot_used, "snapshots": s.snapshots, "loads": s.loads}
            for build, s in by_build.items()} for engine, by_build in results.items()}, indent=2))
    return 0


@pytest.mark.browser
def test_start_up_in_each_engine_is_timed_against_flet_publish_boot_order() -> None:
    """One run in every engine installed here (a missing one is named and left out): the six
    starts of each reach the home screen with every mark. Prints the figures; never judges them."""
    missing = {engine: reason for engine in ENGINES if (reason := engine_missing_reason(engine))}
    engines = [engine for engine in ENGINES if engine not in missing]
    if not engines:
        pytest.skip(f"no browser engine here: {missing}")
    results = run_benchmark(1, engines)
    print_details(results)
    print(f"\n(load average {os.getloadavg()[0]:.2f}; left out: {missing or 'none'})\n{markdown_table(results)}")
    assert {engine: {build: sorted(samples.phases) for build, samples in by_build.items()}
            for engine, by_build in results.items()} == {
        engine: {THIS_BUILD: sorted(STARTS), FLET_PUBLISH: sorted(STARTS)} for engine in engines}


if __name__ == "__main__":
    sys.exit(main())
