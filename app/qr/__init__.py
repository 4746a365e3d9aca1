"""QR codes for the tournament: PNG images to show, camera frames and photos to read.

Drawing needs only pure Python (``qrcode`` with ``pypng``), so it works everywhere the
app runs, the in-browser build included. Reading a picture (:func:`read_qr`, the one
entry point the screens use) goes to one of two builds of the same decoder, ZXing-C++:

- on a host (local mode: ``python -m app``), zxing-cpp with Pillow (desktop wheels only),
  imported on first use, in a worker thread (:func:`read_qr_texts`);
- in the offline PWA (Python in Pyodide, ``sys.platform == "emscripten"``), zxing-wasm,
  which the build ships with the site and loads into the Python worker as the async
  JavaScript function ``fletReadQr`` (``build/qr_decoder.py``), called through Pyodide's
  ``js`` module.

:func:`scanner_available` says whether this build can read pictures at all.

    >>> image = qr_image("FR1:ABC")
    >>> image.png[:4] == b"\\x89PNG", image.version, image.alphanumeric
    (True, 1, True)
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import qrcode
import qrcode.constants
import qrcode.util
from qrcode.image.pure import PyPNGImage

from app.runtime import in_browser
from engine import B45_ALPHABET

__all__ = ["QrImage", "qr_image", "scanner_available", "read_qr", "prepare_reader", "read_qr_texts",
           "ALPHANUMERIC"]

logger = logging.getLogger(__name__)

ALPHANUMERIC: Final = frozenset(B45_ALPHABET)
"""What QR's alphanumeric mode holds (5.5 bits a character instead of 8)."""


@dataclass(frozen=True)
class QrImage:
    """A drawn QR code: the PNG, the version it took (size 17 + 4 x version modules) and its mode."""

    png: bytes
    version: int
    alphanumeric: bool
    text: str


@lru_cache(maxsize=256)
def qr_image(text: str, box_size: int = 6, border: int = 4) -> QrImage:
    """Draw ``text`` as a QR code at error correction M.

    Text made only of the alphanumeric set (every code in QR form, an upper-case link)
    is put in alphanumeric mode; anything else in byte mode.
    """
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        box_size=box_size,
        border=border,
        image_factory=PyPNGImage,
    )
    alphanumeric = bool(text) and set(text) <= ALPHANUMERIC
    if alphanumeric:
        code.add_data(qrcode.util.QRData(text.encode("ascii"), mode=qrcode.util.MODE_ALPHA_NUM))
    else:
        code.add_data(text)
    code.make(fit=True)
    out = io.BytesIO()
    code.make_image().save(out)
    return QrImage(out.getvalue(), int(code.version), alphanumeric, text)


def scanner_available() -> bool:
    """Whether this build can read QR codes from pictures: always in the PWA (zxing-wasm ships
    with it), on a host when zxing-cpp and Pillow are installed."""
    if in_browser():
        return True
    try:
        import zxingcpp  # noqa: F401
        from PIL import Image  # noqa: F401
    except ImportError:
        return False
    return True


async def read_qr(picture: bytes) -> list[str]:
    """The texts of the QR codes in a picture (JPEG or PNG bytes); [] for none or an unreadable picture.

    The same answer in both builds: zxing-cpp in a worker thread on a host, zxing-wasm in the
    PWA. Raises :class:`ImportError` on a host without zxing-cpp, :class:`RuntimeError` when
    the PWA's decoder cannot be loaded (see :func:`scanner_available`).
    """
    if not picture:
        return []
    if in_browser():
        return await _read_in_browser(bytes(picture))
    return await asyncio.to_thread(read_qr_texts, bytes(picture))


async def prepare_reader() -> None:
    """Load the decoder ahead of the first picture (a scan calls it while the camera starts).

    In the PWA the worker fetches and compiles zxing-wasm on first use (a few hundred ms);
    on a host zxing-cpp and Pillow are imported. Failures are left to :func:`read_qr` to report.
    """
    try:
        if in_browser():
            import js  # type: ignore[import-not-found,unused-ignore]  # Pyodide only

            load = getattr(js, "fletQrLoad", None)
            if load is not None:
                await load()
        else:
            await asyncio.to_thread(scanner_available)
    except Exception:  # noqa: BLE001 - warming up only: read_qr says what went wrong, with the picture in hand
        logger.info("The QR reader could not be made ready ahead of a scan", exc_info=True)


async def _read_in_browser(picture: bytes) -> list[str]:
    """zxing-wasm through the worker's ``fletReadQr`` (build/templates/qr/qr-worker.js)."""
    import js  # type: ignore[import-not-found,unused-ignore]  # Pyodide only
    from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found,unused-ignore]

    reader = getattr(js, "fletReadQr", None)
    if reader is None:
        raise RuntimeError("This build has no QR decoder (fletReadQr is missing from the Python worker).")
    try:
        found = await reader(to_js(picture))
    except JsException as error:  # loading the decoder failed (an unreadable image just reads nothing)
        raise RuntimeError(f"The QR decoder could not run: {error}") from error
    texts = found.to_py() if hasattr(found, "to_py") else list(found)
    return [str(text) for text in texts if text]


def read_qr_texts(picture: bytes) -> list[str]:
    """The host decoder behind :func:`read_qr`: zxing-cpp on a JPEG or PNG; [] for none or an
    unreadable picture.

    Blocking (tens of milliseconds): run it with ``asyncio.to_thread``. Raises
    :class:`ImportError` where zxing-cpp is missing (see :func:`scanner_available`).
    """
    import zxingcpp
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(picture))
        image.load()
    except (UnidentifiedImageError, OSError, ValueError):
        return []
    # QR only, as the PWA's worker asks zxing-wasm: the finder patterns of a QR code can also
    # read as a short ITF barcode, a second "code" no card carries.
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode))
    return [str(code.text) for code in found if code.text]
