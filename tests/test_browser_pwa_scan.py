"""The offline PWA reads a table's setup QR code through the camera, in Chromium.

Chromium's fake camera plays a y4m video of the table card's QR code. The built site is
served under a sub-path and visited once (the service worker pre-caches everything,
zxing-wasm included); then the server is stopped and the network cut, the page is
reloaded; a photo of the wrong kind of code is picked and named; then the join screen's
camera scan reads the code: Python in the Pyodide worker
takes pictures with flet-camera and decodes them with the worker's zxing-wasm. The time
from the tap on the scan button to the table's screen is printed (``-s``).

    .venv/bin/pytest -m browser tests/test_browser_pwa_scan.py -s
"""

from __future__ import annotations

import base64
import hashlib
import io
import time
from pathlib import Path

import pytest
from PIL import Image

from app.qr import qr_image
from engine import Tournament
from tests.fake_camera import launch_phone, write_y4m
from tests.pwa_harness import BOOT_TIMEOUT_MS, app_ready, load_build_module, serving
from tests.test_organizer import played_code

pytestmark = pytest.mark.browser


def content_key(path: Path) -> str:
    """The name the service worker caches a file under (its SHA-256, base64url)."""
    return base64.urlsafe_b64encode(hashlib.sha256(path.read_bytes()).digest()).decode().rstrip("=")


def test_the_offline_pwa_reads_a_tables_setup_qr_through_the_camera(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    site = tmp_path / "site"  # a build of its own: build/cache/ is shared with other runs, which replace it
    report = load_build_module().build(out=site, quiet=True).report
    t = Tournament("Mayor's cup", event_id="MAYOR-26", secret=b"mayor-house-2026")
    for name in ("Ann", "Bob", "Cy", "Di"):
        t.check_in(t.sign_up(name))
    t.draw_seats(3)
    code = t.setup_code(1)
    card = Image.open(io.BytesIO(qr_image(code, box_size=6).png)).convert("RGB")
    video = write_y4m([card], tmp_path / "card.y4m")

    with sync_playwright() as playwright:
        table = launch_phone(playwright, tmp_path / "profile", video)
        phone, page = table.flutter, table.page
        with serving(site, tmp_path / "www") as server:
            phone.open(server.url, BOOT_TIMEOUT_MS)
            app_ready(phone)
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
            # Let the first visit's background work finish (pre-cache, Python snapshot).
            deadline = time.monotonic() + 90
            while page.evaluate("globalThis.fletSnapshotState || ''") not in ("saved", "failed", "") \
                    and time.monotonic() < deadline:
                time.sleep(0.2)
            cached = page.evaluate(
                "async () => { const out = []; for (const name of await caches.keys()) {"
                " const cache = await caches.open(name); for (const r of await cache.keys()) out.push(r.url); }"
                " return out; }")
            for rel in ("qr/zxing-wasm/zxing_reader.wasm.gz", "qr/zxing-wasm/es/reader/index.js"):
                assert content_key(site / rel) in {url.rsplit("/", 1)[-1] for url in cached}, f"{rel} not cached"
        # The server is stopped: no network at all from here on.
        table.cut_network()
        phone.reload(BOOT_TIMEOUT_MS)
        app_ready(phone)
        phone.click_button("Join a tournament table")
        phone.wait_for_text("Scan the QR code on your table's card", timeout_ms=30_000)
        # A photo first (the file picker opened by the client inside the tap): a result code, the wrong kind.
        photo = tmp_path / "result.png"
        photo.write_bytes(qr_image(played_code(t, 1, seed=2)).png)
        with page.expect_file_chooser(timeout=15_000) as chooser:
            phone.click_button("Read a photo of the setup code")
        chooser.value.set_files(str(photo))
        phone.wait_for_text("That is a table's result code (from a finished game)", timeout_ms=30_000)
        started = time.monotonic()
        phone.click_button("Scan the setup code with the camera")
        phone.wait_for_text("MAYOR-26 · Round 1 · Table 1", timeout_ms=30_000)
        seconds = time.monotonic() - started
        assert phone.button("Start the table's game").is_visible()
        for seat, number in enumerate(t.seating()[0], 1):
            phone.wait_for_text(f"Seat {seat}: {t.player(number).name} (number {number})", timeout_ms=5_000)
        assert table.outside_requests() == []
        print(f"\nPWA offline, camera scan of a setup code: {seconds:.2f} s from the tap to the table's screen "
              f"(site {report['total_bytes'] / 1e6:.2f} MB)")
        phone.screenshot(tmp_path / "joined.png")
        table.close()
