"""Benchmarks of an event run with phones alone (README, "With phones alone";
figures in docs/measurements.md).

    .venv/bin/python tests/bench/bench_phones.py [--runs 3] [--scans 2] [--blank 4] [--json FILE]

On a shared machine, run it as ``flock /tmp/farkle-browser.lock .venv/bin/python ...`` so
that no other browser run overlaps it (about 5 minutes with the defaults at load 4-5).
Each run takes a new Chromium profile (390x844, headless, Debian's /usr/bin/chromium)
through what an organizer's phone does with the offline PWA (built as tests/bench/bench_pwa.py
builds it, served under a sub-path by a static host that counts the bytes it sends,
tests/support/pwa_links_support.py):

1. **First visit**: the new profile opens the site and stays until the service worker holds
   every file (and Python's memory snapshot is made). Bytes and requests the host served,
   how much of it before the app answered, and any content sent in full twice (the page's
   load and the worker's pre-cache; also under two names). Baseline in the same run: the
   same app built the way ``flet publish`` boots it (``bench_pwa.py --compare``).
2. **QR entering the camera -> result counted**, ``--scans`` times per run: the organizer's
   event (8 players, round 1 drawn, no result yet) is put in ``localStorage`` exactly as
   the app's PrefsStore writes it (``"flutter." + key`` = JSON of the value, as Flutter's
   shared_preferences_web does), the results screen opens (served by the service worker)
   and the continuous scan starts. Chromium's fake camera plays a video: ``--blank``
   seconds of white, then as long table 2's result QR as the table's screen draws it.
   A script in the page records when ``getUserMedia`` hands each stream over and, from
   the stream's own pixels, when the QR shows in it; a MutationObserver records when
   "Round 1, table 2: result counted" enters the page. The figure is counted - (stream
   start + blank), in page time. Checked each time: the pixels show the QR at stream start
   + blank (Chromium plays the file from its first frame for each stream), the scan was
   ready before that ("Hold the result code in front of the camera"), and nothing was
   counted during the white frames. Baseline in the same run: the local server mode
   (``python -m app``, zxing-cpp on the host), same timing, its own QR (its link).
3. **Update of one file**: python.js of the deployed site changes and sw.js is written
   again (as tests/browser/test_browser_pwa_links.py does); the open page's worker checks for the
   update; bytes served until "A new version is ready: Reload" shows, against the first
   visit's.

Prints every run, then medians with min-max and the load average: the machine is shared,
so the ratios, measured side by side in the same run, are the figures to compare.

A script, not a test: pytest imports this file (pyproject's ``python_files`` takes
``bench_*.py``) but finds no test in it, so ``make test`` never runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import io
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.bench_pwa import FILL_LOCAL_STORAGE  # noqa: E402
from tests.support.browser_support import PHONE_VIEWPORT, FlutterPage  # noqa: E402
from tests.support.fake_camera import Phone, launch_phone, write_y4m  # noqa: E402
from tests.support.pwa_harness import (  # noqa: E402
    BOOT_TIMEOUT_MS,
    SUB_PATH,
    app_ready,
    built_site,
    load_build_module,
    wait_precached,
)
from tests.support.pwa_links_support import StaticHost, static_host  # noqa: E402

if TYPE_CHECKING:
    from engine import Tournament

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
TABLE = 2
SCAN = "Scan the tables' result codes, one after another"
COUNTED = f"Round 1, table {TABLE}: result counted"
READY = "result code in front of the camera"  # the scan's status once camera and decoder are ready

# Init script: when does the camera stream start, and when does the QR show in it?
# getUserMedia is wrapped (flet-camera's web plugin calls it); each video stream it hands
# over gets a muted <video> of its own, whose pixels are sampled every 10 ms (64x48).
CAMERA_PROBE = """(() => {
  if (window !== window.top || !navigator.mediaDevices || globalThis.benchCamera) return;
  const probe = globalThis.benchCamera = { streams: [], marks: {} };
  const media = navigator.mediaDevices;
  const open = media.getUserMedia.bind(media);
  media.getUserMedia = async (constraints) => {
    const asked = performance.now();
    const stream = await open(constraints);
    const entry = { asked, opened: performance.now(), video: stream.getVideoTracks().length > 0,
                    stopped: null, firstFrame: null, qrSeen: null };
    probe.streams.push(entry);
    for (const track of stream.getTracks()) {
      const stop = track.stop.bind(track);
      track.stop = () => { if (entry.stopped === null) entry.stopped = performance.now(); stop(); };
    }
    if (entry.video) {
      const video = document.createElement("video");
      video.muted = true;
      video.srcObject = stream;
      video.play().catch(() => {});
      const canvas = new OffscreenCanvas(64, 48);
      const context = canvas.getContext("2d", { willReadFrequently: true });
      const timer = setInterval(() => {
        if (entry.stopped !== null || stream.getVideoTracks().every((t) => t.readyState === "ended")) {
          clearInterval(timer);
          video.srcObject = null;
          return;
        }
        if (video.readyState < 2) return;
        if (entry.firstFrame === null) entry.firstFrame = performance.now();
        context.drawImage(video, 0, 0, 64, 48);
        const pixels = context.getImageData(0, 0, 64, 48).data;
        let dark = 0;
        for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 100) dark++;
        if (dark > 64 && entry.qrSeen === null) entry.qrSeen = performance.now();
      }, 10);
    }
    return stream;
  };
})();"""

# When each text first shows in Flutter's accessibility tree (page time), from now on.
WATCH_TEXTS = """(texts) => {
  const marks = globalThis.benchCamera.marks = { watching: performance.now() };
  const check = () => {
    const host = document.querySelector("flt-semantics-host");
    const text = host ? host.textContent : "";
    const now = performance.now();
    for (const [name, wanted] of Object.entries(texts)) {
      if (marks[name] === undefined && text.includes(wanted)) marks[name] = now;
    }
    if (Object.keys(texts).every((name) => marks[name] !== undefined)) {
      observer.disconnect();
      clearInterval(timer);
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  const timer = setInterval(check, 5);
}"""


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


# -- the event and the camera's video --------------------------------------------------------


@dataclass
class PwaEvent:
    entries: dict[str, str]  # localStorage of the organizer's phone, as PrefsStore writes it
    tournament_id: str
    qr_text: str  # what table 2's result screen shows as a QR code


def sign_up_and_check_in(t: Tournament, name: str) -> None:
    t.check_in(t.sign_up(name))


def pwa_event(site_url: str) -> PwaEvent:
    """The organizer's event as the PWA keeps it after sign-up and the seat draw, and table
    2's result QR as that table's phone (which read its card from this site) shows it."""
    from app.event.organizer import Organizer
    from app.storage import MemoryPrefs, PrefsStore
    from app.table.tournament_table import card_link_base, result_qr_text
    from app.venue.addresses import link_base_of
    from engine import Game, decode_setup, encode_result, result_from_game
    from tests.support.game_play import play_game

    async def seed() -> PwaEvent:
        prefs = MemoryPrefs()
        organizer = Organizer(await PrefsStore.open(prefs))
        stored_base = link_base_of(site_url)
        tournament_id = await organizer.create("Mayor's cup", event_id="MAYOR-26", link_base=stored_base)
        for name in NAMES:
            await organizer.act(partial(sign_up_and_check_in, name=name))
        await organizer.act(lambda t: t.draw_seats(2026))
        t = organizer.open_tournament
        assert t is not None
        card = card_link_base(stored_base, site_url + f"organizer/{tournament_id}/seating", True)
        setup = decode_setup(t.setup_code(TABLE, card))
        game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(6))
        code = encode_result(result_from_game(game, setup), setup.key)
        return PwaEvent(dict(prefs.values), tournament_id, result_qr_text(code, setup.link_base))

    return asyncio.run(seed())


def camera_video(qr_text: str, blank_s: float, path: Path) -> Path:
    """A y4m for Chromium's fake camera: ``blank_s`` seconds of white, then as long the QR
    as a table's result screen draws it (app.qr.qr_image); then it loops."""
    from PIL import Image

    from app.qr import qr_image

    return write_y4m([Image.new("RGB", (1, 1), "white"), Image.open(io.BytesIO(qr_image(qr_text).png))],
                     path, seconds_each=blank_s)


@contextmanager
def phone_on(profile: Path, video: Path | None = None) -> Iterator[Phone]:
    """A phone (tests/support/fake_camera.py) whose pages carry CAMERA_PROBE."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        phone = launch_phone(playwright, profile, video)
        try:
            phone.context.add_init_script(CAMERA_PROBE)
            yield phone
        finally:
            phone.close()


# -- measuring a scan ------------------------------------------------------------------------


def scan_once(page: Any, click: Callable[[], None], blank_s: float) -> dict[str, float]:
    """Start the continuous scan (``click``) and wait until the result is counted; the scan's
    times in seconds, all from the page's clock (``performance.now()``)."""
    page.evaluate(WATCH_TEXTS, {"ready": READY, "counted": COUNTED})
    tapped = page.evaluate("performance.now()")
    click()
    page.wait_for_function("globalThis.benchCamera.marks.counted !== undefined", timeout=60_000, polling=50)
    probe = page.evaluate("globalThis.benchCamera")
    streams = [s for s in probe["streams"] if s["video"] and s["opened"] >= tapped]
    assert streams, f"no camera stream was opened after the tap: {probe}"
    counted, ready = probe["marks"]["counted"], probe["marks"].get("ready")
    # flet-camera opens the camera three times (two short looks while listing the cameras,
    # then the preview's stream): the frames read are the last stream's opened before the count.
    stream = [s for s in streams if s["opened"] <= counted][-1]
    qr_due = stream["opened"] + blank_s * 1000
    if counted < qr_due:
        raise AssertionError(f"counted {(qr_due - counted) / 1000:.2f} s BEFORE the QR was in the video: {probe}")
    if stream["qrSeen"] is None or abs(stream["qrSeen"] - qr_due) > 150:
        print(f"    (the QR showed in the stream's pixels at {stream['qrSeen']}, not at stream start + "
              f"{blank_s:g} s = {qr_due:.0f}: the video clock is off)")
    if ready is None or ready > qr_due:
        print(f"    (the scan was ready only {((ready or counted) - qr_due) / 1000:.2f} s after the QR showed: "
              "raise --blank)")
    nan = float("nan")
    return {
        "qr_to_counted": (counted - qr_due) / 1000,
        "tap_to_counted": (counted - tapped) / 1000,
        "tap_to_stream": (stream["opened"] - tapped) / 1000,
        "stream_to_ready": (ready - stream["opened"]) / 1000 if ready is not None else nan,
        "stream_to_qr_seen": (stream["qrSeen"] - stream["opened"]) / 1000 if stream["qrSeen"] else nan,
        "camera_opened": float(len(streams)),
    }


# -- the PWA: first visit, scan, update --------------------------------------------------------


@dataclass
class SiteFiles:
    """What each file of a deployed site is (its SHA-256) and weighs, as is and gzipped."""

    digest: dict[str, str]
    size: dict[str, int]
    gzip_bytes: dict[str, int]

    @classmethod
    def of(cls, site: Path) -> SiteFiles:
        files = cls({}, {}, {})
        for path in site.rglob("*"):
            if path.is_file():
                data, rel = path.read_bytes(), path.relative_to(site).as_posix()
                files.digest[rel], files.size[rel] = hashlib.sha256(data).hexdigest(), len(data)
                files.gzip_bytes[rel] = len(gzip.compress(data, 6, mtime=0))
        return files

    @staticmethod
    def rel(path: str) -> str:
        rel = path.removeprefix(SUB_PATH)
        return rel + "index.html" if rel == "" or rel.endswith("/") else rel


@dataclass
class Visit:
    """A first visit: every answer of the host (path, status, bytes) and its times."""

    transfers: list[tuple[str, int, int]]
    interactive_s: float
    bytes_interactive: int
    precached_s: float

    @property
    def bytes(self) -> int:
        return sum(size for _, _, size in self.transfers)

    def statuses(self) -> dict[int, int]:
        return dict(sorted(Counter(status for _, status, _ in self.transfers).items()))

    def not_found(self) -> list[str]:
        return sorted({path.removeprefix(SUB_PATH) for path, status, _ in self.transfers if status == 404})

    def twice(self, files: SiteFiles) -> dict[str, int]:
        """Contents sent in full (200) more than once, under one name or two (index.html is
        also 404.html): their names -> the bytes sent beyond the first."""
        sent: dict[str, list[tuple[str, int]]] = {}
        for path, status, size in self.transfers:
            if status == 200:
                rel = files.rel(path)
                sent.setdefault(files.digest.get(rel, rel), []).append((rel, size))
        return {" = ".join(sorted({rel for rel, _ in copies})): sum(size for _, size in copies[1:])
                for copies in sent.values() if len(copies) > 1}

    def gzipped(self, files: SiteFiles) -> int:
        """The same visit from a host that gzips every file it sends (headers as sent)."""
        total = 0
        for path, status, size in self.transfers:
            rel = files.rel(path)
            total += size - files.size[rel] + files.gzip_bytes[rel] if status == 200 and rel in files.size else size
        return total


def first_visit(phone: FlutterPage, host: StaticHost, site: Path, snapshot: bool) -> Visit:
    """A new profile's first visit, until every file is pre-cached (and Python's memory
    snapshot made, if the build makes one)."""
    page = phone.page
    host.transfers.clear()
    started = time.monotonic()
    phone.open(host.url, BOOT_TIMEOUT_MS)
    app_ready(phone)
    interactive = time.monotonic() - started
    bytes_interactive = host.bytes_sent()
    wait_precached(page, site, timeout_s=120)
    precached = time.monotonic() - started
    deadline = time.monotonic() + 120
    while snapshot and page.evaluate("globalThis.fletSnapshotState || ''") not in ("saved", "failed"):
        if time.monotonic() > deadline:
            raise TimeoutError("the Python snapshot was not made in 120 s")
        time.sleep(0.2)
    time.sleep(1.0)  # anything still on its way
    return Visit(list(host.transfers), interactive, bytes_interactive, precached)


def update_one_file(page: Any, host: StaticHost, deployed: Path, changed: str = "python.js") -> dict[str, Any]:
    """Deploy a build where ``changed`` differs; what is served until the page offers it."""
    target = deployed / changed
    target.write_bytes(target.read_bytes() + b"\n// build B\n")
    load_build_module().write_service_worker(deployed)
    host.transfers.clear()
    started = time.monotonic()
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.get_by_role("button", name="Reload").wait_for(timeout=90_000)
    offered = time.monotonic() - started
    time.sleep(1.0)  # anything still on its way
    transfers = list(host.transfers)
    return {"bytes": sum(size for _, _, size in transfers), "offered_s": offered, "requests": len(transfers),
            "files": sorted({path.removeprefix(SUB_PATH) for path, status, _ in transfers if status == 200}),
            "changed": changed, "changed_bytes": target.stat().st_size,
            "sw_bytes": (deployed / "sw.js").stat().st_size}


def pwa_run(deployed: Path, host: StaticHost, event: PwaEvent, video: Path, profile: Path,
            blank_s: float, scans: int) -> dict[str, Any]:
    """One new profile: the first visit; ``scans`` scans on the results screen (each time the
    event as it was before any result, the page served by the service worker); one update."""
    pristine = {name: (deployed / name).read_bytes() for name in ("python.js", "sw.js")}
    times: list[dict[str, float]] = []
    try:
        with phone_on(profile, video) as organizer:
            page, phone = organizer.page, organizer.flutter
            visit = first_visit(phone, host, deployed, snapshot=True)
            for _ in range(scans):
                assert page.evaluate(FILL_LOCAL_STORAGE, event.entries) >= len(event.entries)
                phone.open(host.url + f"organizer/{event.tournament_id}/results", BOOT_TIMEOUT_MS)
                phone.button(SCAN).wait_for(timeout=BOOT_TIMEOUT_MS)
                before = len(host.transfers)
                times.append(scan_once(page, lambda: phone.click_button(SCAN), blank_s))
                served = host.transfers[before:]  # at most the worker's own update check
                assert all(path.endswith("/sw.js") for path, _, _ in served), served
                phone.click_button("Stop scanning")
                phone.wait_for_text("1 read", timeout_ms=30_000)
            update = update_one_file(page, host, deployed)
    finally:
        for name, data in pristine.items():
            (deployed / name).write_bytes(data)
    return {"visit": visit, "scans": times, "update": update}


def baseline_visit(site: Path, host: StaticHost, profile: Path) -> Visit:
    with phone_on(profile) as phone:
        return first_visit(phone.flutter, host, site, snapshot=False)


# -- the local server mode: the same scan, decoded on the host --------------------------------


def server_scan(work: Path, blank_s: float) -> dict[str, float]:
    """The organizer's results screen served by ``python -m app`` (a new data folder with
    the event seeded as tests/browser/test_browser_organizer.py does), the same video timing."""
    from app.table.tournament_table import result_qr_text
    from tests.support.browser_support import free_port, start_app_server
    from tests.browser.test_browser_organizer import Event, seed_event

    port = free_port()
    tournament_id, tournament, game_id = seed_event(work / "data", f"http://127.0.0.1:{port}")
    with start_app_server(work / "data", port=port) as server:
        event = Event(server, tournament_id, tournament, game_id)
        video = camera_video(result_qr_text(event.result_code(TABLE, seed=6), event.base), blank_s,
                             work / "server-result.y4m")
        with phone_on(work / "server-profile", video) as organizer:
            phone = organizer.flutter
            phone.open(event.url(f"/organizer/{tournament_id}/results"), BOOT_TIMEOUT_MS)
            phone.button(SCAN).wait_for(timeout=BOOT_TIMEOUT_MS)
            scan = scan_once(phone.page, lambda: phone.click_button(SCAN), blank_s)
            phone.click_button("Stop scanning")
        return scan


# -- the report --------------------------------------------------------------------------------


def spread(values: list[float], unit: str = " s", digits: int = 2) -> str:
    """Median (min-max)."""
    text = f"{statistics.median(values):.{digits}f}{unit}"
    return text if len(values) == 1 else text + f" ({min(values):.{digits}f}-{max(values):.{digits}f})"


def mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--blank", type=float, default=4.0,
                        help="seconds of white before the QR shows in the camera's video (longer than the "
                             "scan takes to start: the camera and, in the PWA, the decoder)")
    parser.add_argument("--scans", type=int, default=2,
                        help="scans per run in each mode (a picture every 0.3 s: the phase varies)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)

    started = time.monotonic()
    site, report = built_site(label="bench-app")  # bench_pwa's cache slots
    base_site, base_report = built_site(label="bench-app", no_precompile=True, early_python=False)
    print(f"sites built or reused in {time.monotonic() - started:.1f} s (load {load()})", flush=True)
    pwa: list[dict[str, Any]] = []
    baseline: list[Visit] = []
    server: list[list[dict[str, float]]] = []
    with tempfile.TemporaryDirectory(prefix="bench-phones-") as tmp_name:
        tmp = Path(tmp_name)
        # Copies: the update rewrites python.js and sw.js, and build/cache/ is shared.
        deployed, base_deployed = tmp / "site", tmp / "base-site"
        shutil.copytree(site, deployed)
        shutil.copytree(base_site, base_deployed)
        files = {"pwa": SiteFiles.of(deployed), "baseline": SiteFiles.of(base_deployed)}
        with static_host(deployed, tmp / "www") as host, static_host(base_deployed, tmp / "www-base") as base_host:
            event = pwa_event(host.url)
            video = camera_video(event.qr_text, args.blank, tmp / "result.y4m")
            print(f"table {TABLE}'s result QR: {len(event.qr_text)} characters; the camera shows {args.blank:g} s "
                  f"of white, then {args.blank:g} s of the QR, in a loop", flush=True)
            for run in range(1, args.runs + 1):
                work = tmp / f"run-{run}"
                pwa.append(pwa_run(deployed, host, event, video, work / "pwa-profile", args.blank, args.scans))
                visit, update = pwa[-1]["visit"], pwa[-1]["update"]
                print(f"run {run}/{args.runs} [PWA] first visit {mb(visit.bytes)} in {len(visit.transfers)} "
                      f"requests, interactive {visit.interactive_s:.1f} s, pre-cached {visit.precached_s:.1f} s; "
                      f"update {update['bytes']:,} B {update['files']} in {update['offered_s']:.2f} s (load {load()})",
                      flush=True)
                for scan in pwa[-1]["scans"]:
                    print("    scan " + ", ".join(f"{k} {v:.2f}" for k, v in scan.items()), flush=True)
                baseline.append(baseline_visit(base_deployed, base_host, work / "base-profile"))
                print(f"run {run}/{args.runs} [flet publish boot order] first visit {mb(baseline[-1].bytes)} in "
                      f"{len(baseline[-1].transfers)} requests, interactive {baseline[-1].interactive_s:.1f} s, "
                      f"pre-cached {baseline[-1].precached_s:.1f} s (load {load()})", flush=True)
                server.append([server_scan(work / f"server-{scan}", args.blank) for scan in range(args.scans)])
                print(f"run {run}/{args.runs} [local server] (load {load()})", flush=True)
                for scan in server[-1]:
                    print("    scan " + ", ".join(f"{k} {v:.2f}" for k, v in scan.items()), flush=True)
                shutil.rmtree(work, ignore_errors=True)

    visits = {"pwa": [r["visit"] for r in pwa], "baseline": baseline}
    rows: list[tuple[str, str, str, str]] = []

    def row(label: str, values: dict[str, list[float]], unit: str = " s", digits: int = 2) -> None:
        a, b = values["pwa"], values["baseline"]
        rows.append((label, spread(a, unit, digits), spread(b, unit, digits),
                     ratio(statistics.median(a), statistics.median(b))))

    rows.append(("QR entering the camera -> result counted", "", "(local server mode)", ""))
    for key, label in (("qr_to_counted", "  QR in the video -> 'result counted' shown"),
                       ("tap_to_counted", "  tap on Scan -> 'result counted' shown"),
                       ("tap_to_stream", "  tap -> camera stream open"),
                       ("stream_to_ready", "  stream open -> scan ready (camera, decoder)"),
                       ("stream_to_qr_seen", f"  stream open -> QR in its pixels (video: {args.blank:g} s)")):
        row(label, {"pwa": [s[key] for r in pwa for s in r["scans"]],
                    "baseline": [s[key] for scans in server for s in scans]})
    rows.append(("First visit of a new profile, until all pre-cached", "", "(flet publish boot order)", ""))
    row("  bytes served (MB)", {v: [x.bytes / 1e6 for x in visits[v]] for v in visits}, "", 2)
    row("  the same from a host that gzips (MB)", {v: [x.gzipped(files[v]) / 1e6 for x in visits[v]]
                                                    for v in visits}, "", 2)
    row("  served before the app answered (MB)", {v: [x.bytes_interactive / 1e6 for x in visits[v]]
                                                  for v in visits}, "", 2)
    row("  requests", {v: [float(len(x.transfers)) for x in visits[v]] for v in visits}, "", 0)
    rows.append(("  answers by status (first run)", str(visits["pwa"][0].statuses()),
                 str(visits["baseline"][0].statuses()), ""))
    rows.append(("  not found (404)", ", ".join(visits["pwa"][0].not_found()) or "none",
                 ", ".join(visits["baseline"][0].not_found()) or "none", ""))
    for variant in visits:
        twice = [x.twice(files[variant]) for x in visits[variant]]
        text = "; ".join(f"{names}: {extra:,} B" for names, extra in sorted({k: v for t in twice for k, v in t.items()}
                                                                           .items())) or "none"
        rows.append(("  sent twice (" + ("this build" if variant == "pwa" else "baseline") + ")",
                     f"{sum(1 for t in twice if t)} of {len(twice)} runs: {text}", "", ""))
    row("  time to interactive", {v: [x.interactive_s for x in visits[v]] for v in visits})
    row("  time until all pre-cached", {v: [x.precached_s for x in visits[v]] for v in visits})
    rows.append(("Site on disk (gzipped)", f"{mb(report['total_bytes'])} ({mb(report['total_gzip_bytes'])}), "
                 f"{report['files']} files", f"{mb(base_report['total_bytes'])} ({mb(base_report['total_gzip_bytes'])})"
                 f", {base_report['files']} files", ratio(report["total_bytes"], base_report["total_bytes"])))
    updates = [r["update"] for r in pwa]
    first_bytes = statistics.median(x.bytes for x in visits["pwa"])
    update_bytes = statistics.median(u["bytes"] for u in updates)
    rows.append((f"Update of one file ({updates[0]['changed']}, {updates[0]['changed_bytes'] / 1e3:.1f} kB; "
                 f"sw.js {updates[0]['sw_bytes'] / 1e3:.1f} kB)", "", "(this build's first visit)", ""))
    rows.append(("  bytes served until 'Reload' shows", f"{update_bytes / 1e3:.1f} kB in "
                 f"{statistics.median(u['requests'] for u in updates):.0f} requests: {', '.join(updates[0]['files'])}",
                 mb(first_bytes), f"{update_bytes / first_bytes:.5f}"))
    rows.append(("  time from the check to 'Reload'", spread([u["offered_s"] for u in updates]), "", ""))

    width = max(len(r[0]) for r in rows)
    col = max(34, *(len(r[1]) for r in rows if len(r[1]) < 60))
    print(f"\nAn event with phones alone: the offline PWA in headless Chromium at {PHONE_VIEWPORT['width']}x"
          f"{PHONE_VIEWPORT['height']}, median (min-max) of {args.runs} run(s), {args.runs * args.scans} scan(s) per mode")
    print(f"{'':<{width}}  {'this build':<{col}}  {'baseline':<26}  ratio")
    for label, a, b, r in rows:
        print(f"{label:<{width}}  {a:<{col}}  {b:<26}  {r}".rstrip())
    print(f"Load average at the end: {load()} (1/5/15 min; {os.cpu_count()} cores); "
          f"took {(time.monotonic() - started) / 60:.1f} min")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({
            "runs": args.runs, "scans": args.scans, "blank_s": args.blank, "load_avg": os.getloadavg(),
            "pwa": [{"visit": {**vars(r["visit"]), "twice": r["visit"].twice(files["pwa"])}, "scans": r["scans"],
                     "update": r["update"]} for r in pwa],
            "baseline_visit": [{**vars(v), "twice": v.twice(files["baseline"])} for v in baseline],
            "server_scan": server,
            "site": {k: report[k] for k in ("total_bytes", "total_gzip_bytes", "files")},
            "baseline_site": {k: base_report[k] for k in ("total_bytes", "total_gzip_bytes", "files")},
        }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
