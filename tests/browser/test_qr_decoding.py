"""Reading QR codes: the one entry point (:func:`app.qr.read_qr`) in both builds, the photo
path and the continuous camera scan through the screens, and the PWA's decoder files.

- Host build: zxing-cpp reads the PNGs ``qrcode`` draws (setup codes, result codes, links).
- PWA build: ``read_qr`` calls the worker's ``fletReadQr`` through Pyodide's ``js`` module
  (faked here; run for real in Node.js with the site's own Pyodide and zxing-wasm below,
  and in Chromium by tests/browser/test_browser_phones_event.py).
- Photos: the button is a ``PickFiles`` client action (the picker opens inside the tap, as
  iOS Safari requires); the test answers as the client does, with the picker's ``result``
  event carrying the picked file's bytes.
- The site: the pinned zxing-wasm (version, npm integrity, wasm SHA-256) is in it, pre-cached,
  and its loader is in the Python worker.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
import qrcode
from PIL import Image

import flet as ft
import app.qr as qr
from app.qr import prepare_reader, qr_image, read_qr, scanner_available
from app.storage import MemoryStore
from app.qr.camera import QrScan, ScanReply, ScanState, ScanTiming, not_a_result_code, not_a_setup_code, read_photo
from engine import Tournament, read_code
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.pwa_harness import ROOT, load_build_module
from tests.app.test_organizer import (
    BACK_CAMERA,
    Desk,
    FakeClock,
    blank_frame,
    camera_frame,
    camera_services,
    drawn_event,
    fake_clock,
    notice,
    played_code,
)

__all__ = ["fake_clock"]

needs_zxing = pytest.mark.skipif(not scanner_available(), reason="zxing-cpp is not installed here")


def event(name: str = "Mayor's cup", event_id: str = "MAYOR-26") -> Tournament:
    t = Tournament(name, event_id=event_id, secret=(event_id * 4).encode())
    for player in ("Ann", "Bob", "Cy", "Di"):
        t.check_in(t.sign_up(player))
    t.draw_seats(3)
    return t


def jpeg_of(png: bytes, size: tuple[int, int] = (1200, 900), at: tuple[int, int] = (300, 150)) -> bytes:
    """A phone photo of a card: the QR somewhere on a larger picture, as a JPEG."""
    photo = Image.new("RGB", size, (235, 235, 228))
    photo.paste(Image.open(io.BytesIO(png)), at)
    out = io.BytesIO()
    photo.save(out, "JPEG", quality=85)
    return out.getvalue()


# ----------------------------------------------------------------- the host decoder


@needs_zxing
def test_the_host_decoder_reads_setup_codes_result_codes_and_links_drawn_by_qrcode() -> None:
    t = event()
    setup = t.setup_code(1)
    linked = t.setup_code(1, "http://192.168.1.20:8550")
    result = played_code(t, 1, seed=3)
    for text in (setup, linked, result):
        png = qr_image(text).png
        assert asyncio.run(read_qr(png)) == [text]
        assert asyncio.run(read_qr(jpeg_of(png))) == [text]


# qrcode draws this setup code with modules that zxing-cpp, asked for any format, also reads
# as an ITF barcode "7608" (CI met it once in a random key); a camera reads one code.
PHANTOM_ITF_SETUP = ("FT1:A21YB8B1A5W5A$6V50100V50 M0:71PVDRFFBJE846+50N7ANEC5$C534%86:71PVDRFFBJEA46CH0N7ANEC5"
                     "$C534IN6XA2:2MTIHWQTJSFU22:4E2ICA9DIWE0G7L/5HA7Z$5K%6Z$5 $5G46Y47QW6PLA1VB")


@needs_zxing
def test_a_qr_code_whose_modules_also_look_like_a_bar_code_reads_as_its_one_text() -> None:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, box_size=3, border=4)
    code.add_data(PHANTOM_ITF_SETUP)
    png = io.BytesIO()
    code.make_image().save(png)
    assert asyncio.run(read_qr(png.getvalue())) == [PHANTOM_ITF_SETUP]


@needs_zxing
def test_a_picture_without_a_code_or_not_a_picture_reads_nothing() -> None:
    blank = io.BytesIO()
    Image.new("RGB", (320, 240), "white").save(blank, "PNG")
    assert asyncio.run(read_qr(blank.getvalue())) == []
    assert asyncio.run(read_qr(b"not a picture")) == []
    assert asyncio.run(read_qr(b"")) == []


# ------------------------------------------------------------ the PWA's decoder, faked


class FakeJsException(Exception):
    pass


class FakeProxy:
    def __init__(self, value: list[str]) -> None:
        self.value = value

    def to_py(self) -> list[str]:
        return list(self.value)


def fake_pyodide(monkeypatch: pytest.MonkeyPatch, reader: Any) -> list[Any]:
    """``js`` and ``pyodide.ffi`` as the worker has them; returns what ``to_js`` was given."""
    given: list[Any] = []
    js = types.ModuleType("js")
    if reader is not None:
        js.fletReadQr = reader  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.JsException = FakeJsException  # type: ignore[attr-defined]

    def to_js(value: Any) -> Any:
        given.append(value)
        return ("Uint8Array", value)

    ffi.to_js = to_js  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", pyodide)
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.setattr(qr, "in_browser", lambda: True)
    return given


def test_in_the_pwa_read_qr_hands_the_bytes_to_the_workers_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    async def fletReadQr(data: Any) -> FakeProxy:  # noqa: N802 - the JavaScript name
        calls.append(data)
        return FakeProxy(["FT1-ABC"])

    given = fake_pyodide(monkeypatch, fletReadQr)
    loads: list[str] = []

    async def fletQrLoad() -> None:  # noqa: N802 - the JavaScript name
        loads.append("zxing-wasm")

    sys.modules["js"].fletQrLoad = fletQrLoad  # type: ignore[attr-defined]
    asyncio.run(prepare_reader())  # a scan loads the decoder while the camera starts
    assert loads == ["zxing-wasm"]
    assert scanner_available()
    assert asyncio.run(read_qr(b"\xff\xd8jpeg")) == ["FT1-ABC"]
    assert given == [b"\xff\xd8jpeg"] and type(given[0]) is bytes
    assert calls == [("Uint8Array", b"\xff\xd8jpeg")]


def test_in_the_pwa_a_decoder_that_fails_or_is_missing_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(data: Any) -> FakeProxy:
        raise FakeJsException("QR decoder: HTTP 404 for qr/zxing-wasm/zxing_reader.wasm.gz")

    fake_pyodide(monkeypatch, broken)
    with pytest.raises(RuntimeError, match="could not run: QR decoder: HTTP 404"):
        asyncio.run(read_qr(b"x"))
    fake_pyodide(monkeypatch, None)
    with pytest.raises(RuntimeError, match="no QR decoder"):
        asyncio.run(read_qr(b"x"))
    outcome = asyncio.run(read_photo(b"x", "setup code", lambda text: True, not_a_setup_code))
    assert outcome.text is None and outcome.message is not None
    assert outcome.message.startswith("The QR decoder could not run (This build has no QR decoder")


# ------------------------------------------------------------------------ photos


def test_a_photo_of_the_wrong_kind_of_code_or_of_no_code_is_named() -> None:
    def read(texts: list[str]) -> Any:
        return lambda picture: texts

    wants_setup = lambda text: "FT1" in text  # noqa: E731
    wants_result = lambda text: "FR1" in text  # noqa: E731
    got = asyncio.run(read_photo(b"p", "setup code", wants_setup, not_a_setup_code, read(["FR1-XYZ"])))
    assert got.message == ("That is a table's result code (from a finished game): here, scan the setup code on "
                           "the table's card.")
    got = asyncio.run(read_photo(b"p", "result code", wants_result, not_a_result_code, read(["FT1-XYZ"])))
    assert got.message == ("That is a table's setup code (from its card), not a result: scan the result code on "
                           "the table's game-over screen.")
    got = asyncio.run(read_photo(b"p", "result code", wants_result, not_a_result_code, read(["HELLO"])))
    assert got.message == "That QR code is not a result code: scan the result code on the table's game-over screen."
    got = asyncio.run(read_photo(b"p", "result code", wants_result, not_a_result_code, read([])))
    assert got.message is not None and got.message.startswith("No QR code was found in that photo")
    got = asyncio.run(read_photo(None, "result code", wants_result, not_a_result_code, read([])))
    assert got.message == "The photo could not be opened: pick it again."
    got = asyncio.run(read_photo(b"p", "result code", wants_result, not_a_result_code, read(["HI", "FR1-A"])))
    assert got.text == "FR1-A" and got.message is None and got.report == "Read from the photo."


def photo_button(ui: FletHarness, key: str) -> tuple[ft.OutlinedButton, ft.FilePicker]:
    """The photo button and its picker; the button opens the picker on the client, inside the tap."""
    button = ui.find(key, ft.OutlinedButton)
    action = button.action
    assert isinstance(action, ft.PickFiles), action
    assert action.with_data and action.file_type == ft.FilePickerFileType.IMAGE and not action.allow_multiple
    assert action.method == "pick_files" and action.args["with_data"] is True
    return button, action.file_picker


async def pick_photo(ui: FletHarness, key: str, picture: bytes | None, name: str = "card.jpg") -> None:
    """What the client does for a PickFiles action: the picker's ``result`` event with the file."""
    _, picker = photo_button(ui, key)
    files = [] if picture is None else [{"id": 0, "name": name, "size": len(picture), "bytes": picture}]
    await ui.dispatch(picker, "result", {"files": files})
    for _ in range(300):
        await asyncio.sleep(0.01)
        await ui.settle()
        if not ui.find(key, ft.OutlinedButton).disabled:
            return
    raise AssertionError("the photo was still being read")


@needs_zxing
def test_a_photo_of_the_tables_card_opens_its_game_and_a_result_code_photo_is_named() -> None:
    store = MemoryStore()
    t = event()
    code = t.setup_code(1)
    result = played_code(t, 1, seed=5)

    async def test(ui: FletHarness) -> None:
        await ui.click("join-table")
        assert "join-scan-photo" in [getattr(c.key, "value", c.key) for c, _ in ui.walk() if c.key]
        await pick_photo(ui, "join-scan-photo", None)  # cancelled: nothing happens
        assert not ui.exists("join-scan-message")
        await pick_photo(ui, "join-scan-photo", jpeg_of(qr_image(result).png))
        assert ui.text_of("join-scan-message").startswith("That is a table's result code")
        assert not ui.exists("start-tournament-game")
        blank = io.BytesIO()
        Image.new("RGB", (800, 600), "white").save(blank, "JPEG")
        await pick_photo(ui, "join-scan-photo", blank.getvalue())
        assert ui.text_of("join-scan-message").startswith("No QR code was found in that photo")
        await pick_photo(ui, "join-scan-photo", jpeg_of(qr_image(code).png))
        assert not ui.exists("join-scan-message")
        assert "MAYOR-26 · Final · Table 1" in ui.texts()
        assert read_code(ui.find("setup-code", ft.TextField).value or "") == read_code(code)
        assert ui.exists("start-tournament-game")

    run(test, store=store)


@needs_zxing
def test_the_organizer_imports_a_result_from_a_photo_and_refuses_a_setup_code_photo() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        await ui.click("nav-results")
        await pick_photo(ui, "result-scan-photo", jpeg_of(qr_image(t.setup_code(2)).png))
        assert ui.text_of("result-scan-message").startswith("That is a table's setup code (from its card)")
        await pick_photo(ui, "result-scan-photo", jpeg_of(qr_image(played_code(t, 2, seed=4)).png))
        assert notice(ui).startswith("Round 1, table 2: result counted")
        assert "Read from the photo." in notice(ui)
        assert set((await desk.now()).results()) == {2}

    desk.run(test)


# -------------------------------------------------------------- the continuous scan


def test_a_continuous_scan_hands_over_each_new_code_skips_repeats_and_names_wrong_kinds() -> None:
    pictures = ["blank", "setup", "result-1", "result-1", "result-2", "result-2"]
    texts = {"blank": [], "setup": ["FT1-T1"], "result-1": ["FR1-T1"], "result-2": ["FR1-T2"]}

    class Camera:
        async def get_available_cameras(self) -> list[str]:
            return ["back"]

        async def initialize(self, description: Any, resolution_preset: Any, enable_audio: bool = True) -> None:
            pass

        async def take_picture(self) -> bytes:
            return (pictures.pop(0) if pictures else "result-2").encode()

    clock = FakeClock()
    seen: list[str] = []
    hits: list[tuple[str, int, float]] = []

    async def on_hit(text: str, outcome: Any) -> None:
        hits.append((text, outcome.shots, round(outcome.seconds, 6)))

    running = QrScan(Camera(), "result code", lambda text: text.startswith("FR1"), on_status=seen.append,
                     timing=ScanTiming(clock=clock, sleep=clock.sleep, interval=0.5, idle_after=5.0),
                     read=lambda picture: texts[picture.decode()], refuse=not_a_result_code, on_hit=on_hit)
    outcome = asyncio.run(running.run())
    assert hits == [("FR1-T1", 3, 1.0), ("FR1-T2", 2, 1.0)]  # the second counted from the first
    assert outcome.text is None
    assert outcome.message == "No new result code for 5 seconds: the camera is off. 2 codes read."
    assert seen[:4] == ["Hold the result code in front of the camera…", not_a_result_code("FT1-T1"),
                        "Hold the next result code in front of the camera…",
                        "That result code was read already: hold up the next one."]


def test_the_organizer_scans_table_after_table_without_a_tap_between(monkeypatch: pytest.MonkeyPatch,
                                                                      fake_clock: FakeClock) -> None:
    if not scanner_available():
        pytest.skip("zxing-cpp is not installed here")
    desk = Desk()
    signals: list[str] = []
    original = ScanState.read_one

    def read_one(self: ScanState, reply: ScanReply) -> None:
        original(self, reply)
        signals.append(f"{'!' if reply.error else ''}{self.signal}")

    monkeypatch.setattr(ScanState, "read_one", read_one)
    other = event("Other town", "OTHER-7")
    frames: list[bytes] = []

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        frames.extend([blank_frame(), camera_frame(t.setup_code(1)), camera_frame(played_code(other, 1, seed=2)),
                       camera_frame(played_code(t, 1, seed=2)), camera_frame(played_code(t, 1, seed=2)),
                       camera_frame(played_code(t, 2, seed=3))])
        await ui.click("nav-results")
        await ui.click("result-scan-continuous")
        for _ in range(1500):
            if ui.exists("result-scan-message"):
                break
            await asyncio.sleep(0.01)
            await ui.settle()
        assert ui.text_of("result-scan-message") == (
            "No new result code for 60 seconds: the camera is off. 3 codes read.")
        assert set((await desk.now()).results()) == {1, 2}
        assert ui.exists("refused-0")  # the other event's result, kept with the reason
        assert ui.text_of("result-scan-last").startswith("Last: Code 3 read: Round 1, table 2: result counted")

    desk.run(test, services=camera_services([BACK_CAMERA], frames), scan_timing=fake_clock.timing)
    assert len(signals) == 3
    assert signals[0].startswith("!Code 1 read: This result is from event OTHER-7, not this one")
    assert signals[1].startswith("Code 2 read: Round 1, table 1: result counted")
    assert signals[2].startswith("Code 3 read: Round 1, table 2: result counted")


# ------------------------------------------------------------------ the PWA's site


def load_qr_decoder() -> Any:
    import runpy

    return types.SimpleNamespace(**runpy.run_path(str(ROOT / "build" / "qr_decoder.py")))


def test_the_pin_names_an_exact_version_and_a_tampered_download_is_refused(tmp_path: Path) -> None:
    qd = load_qr_decoder()
    pin = qd.pin()
    assert pin["package"] == "zxing-wasm" and re.fullmatch(r"\d+\.\d+\.\d+", pin["version"])
    assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", pin["integrity"])
    assert re.fullmatch(r"[0-9a-f]{64}", pin["wasm_sha256"])
    cached = ROOT / "build" / "cache" / "npm" / f"zxing-wasm-{pin['version']}.tgz"
    if not cached.is_file():
        pytest.skip("the pinned tarball is not cached yet (build the site once)")
    bad = bytearray(cached.read_bytes())
    bad[-100] ^= 0xFF
    (tmp_path / cached.name).write_bytes(bytes(bad))
    with pytest.raises(qd.QrDecoderError, match="is not the pinned"):
        qd.fetch_package(tmp_path)
    assert not (tmp_path / cached.name).exists(), "a bad download must not be kept"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build of its own (build/cache/ is shared with other test runs, which replace it)."""
    out = tmp_path_factory.mktemp("pwa") / "site"
    load_build_module().build(out=out, quiet=True)
    return out


def test_the_site_ships_the_pinned_reader_build_pre_cached_with_its_loader_in_the_worker(site: Path) -> None:
    qd = load_qr_decoder()
    pin = qd.pin()
    base = site / "qr" / "zxing-wasm"
    assert sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file()) == [
        "LICENSE", "es/reader/index.js", "es/share.js", "zxing_reader.wasm.gz"]
    wasm = gzip.decompress((base / "zxing_reader.wasm.gz").read_bytes())
    assert wasm[:4] == b"\0asm" and hashlib.sha256(wasm).hexdigest() == pin["wasm_sha256"]
    share = (base / "es/share.js").read_text(encoding="utf-8")
    assert f'"{pin["version"]}"' in share  # ZXING_WASM_VERSION
    reader = (base / "es/reader/index.js").read_text(encoding="utf-8")
    assert pin["wasm_sha256"] in reader  # ZXING_WASM_SHA256
    tarball = ROOT / "build" / "cache" / "npm" / f"zxing-wasm-{pin['version']}.tgz"
    assert "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode() == pin["integrity"]
    worker = (site / "python-worker.js").read_text(encoding="utf-8")
    assert worker.count("self.fletReadQr = async function") == 1
    assert f"zxing-wasm {pin['version']}" in worker and "wasmBinary" in worker
    sw = (site / "sw.js").read_text(encoding="utf-8")
    for rel in ("qr/zxing-wasm/es/reader/index.js", "qr/zxing-wasm/es/share.js", "qr/zxing-wasm/zxing_reader.wasm.gz"):
        assert f'"{rel}"' in sw, f"{rel} is not pre-cached"
    shipped = sum(p.stat().st_size for p in base.rglob("*") if p.is_file())
    assert shipped < 520_000, shipped  # reader only, wasm gzipped
    assert not list(site.rglob("zxing_full*")) and not list(site.rglob("*writer*"))


NODE_CHECK = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
const [site, pictureFile] = process.argv.slice(2);
globalThis.self = globalThis;
self.location = { href: pathToFileURL(path.join(site, "python-worker.js")).href };
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  const u = String(url);
  if (!u.startsWith("file:")) throw new Error("no network in this test: " + u);
  return new Response(fs.readFileSync(fileURLToPath(u)));
};
const worker = fs.readFileSync(path.join(site, "python-worker.js"), "utf8");
const snippet = worker.slice(worker.indexOf("// ---- Farkle Table: QR codes"));
(0, eval)(snippet);
const { loadPyodide } = await import(pathToFileURL(path.join(site, "pyodide/pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(site, "pyodide") + "/", stdout: () => {}, stderr: console.error });
pyodide.FS.writeFile("/app.tar.gz", fs.readFileSync(path.join(site, "app.tar.gz")));
pyodide.FS.writeFile("/picture", fs.readFileSync(pictureFile));
const out = await pyodide.runPythonAsync(`
import json, os, shutil, sys, time
os.chdir("/home/pyodide")
shutil.unpack_archive("/app.tar.gz", ".", "gztar")
sys.path.insert(0, "__pypackages__"); sys.path.insert(0, ".")
from app.qr import read_qr, scanner_available
picture = open("/picture", "rb").read()
started = time.monotonic()
first = await read_qr(picture)
middle = time.monotonic()
second = await read_qr(picture)
json.dumps({"available": scanner_available(), "first": first, "second": second,
            "nothing": await read_qr(b"not a picture"), "platform": sys.platform,
            "first_ms": round((middle - started) * 1000), "second_ms": round((time.monotonic() - middle) * 1000)})
`);
console.log(out);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_sites_own_pyodide_reads_a_photo_through_the_workers_zxing_wasm(site: Path, tmp_path: Path) -> None:
    """The real chain without a browser: the site's Pyodide, its app.tar.gz, app.qr.read_qr,
    Pyodide's js module, the worker's fletReadQr and the shipped zxing-wasm."""
    code = event().setup_code(1)
    (tmp_path / "photo.jpg").write_bytes(jpeg_of(qr_image(code).png))
    (tmp_path / "check.mjs").write_text(NODE_CHECK, encoding="utf-8")
    done = subprocess.run(["node", str(tmp_path / "check.mjs"), str(site), str(tmp_path / "photo.jpg")],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["platform"] == "emscripten" and answer["available"] is True
    assert answer["first"] == [code] and answer["second"] == [code] and answer["nothing"] == []
    print(f"zxing-wasm in Pyodide (Node.js): first read {answer['first_ms']} ms (loads the decoder), "
          f"then {answer['second_ms']} ms")
