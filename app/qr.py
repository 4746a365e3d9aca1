"""QR codes for the tournament: PNG images to show, camera frames to read.

Drawing needs only pure Python (``qrcode`` with ``pypng``), so it works everywhere the
app runs, the in-browser build included. Reading a camera frame needs zxing-cpp and
Pillow, which exist only as desktop wheels: they are imported on first use, and
:func:`scanner_available` says whether this host can read frames at all.

    >>> image = qr_image("FR1:ABC")
    >>> image.png[:4] == b"\\x89PNG", image.version, image.alphanumeric
    (True, 1, True)
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import qrcode
import qrcode.constants
import qrcode.util
from qrcode.image.pure import PyPNGImage

from engine import B45_ALPHABET

__all__ = ["QrImage", "qr_image", "scanner_available", "read_qr_texts", "ALPHANUMERIC"]

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
    """Whether this host can read QR codes from pictures (zxing-cpp and Pillow installed)."""
    try:
        import zxingcpp  # noqa: F401
        from PIL import Image  # noqa: F401
    except ImportError:
        return False
    return True


def read_qr_texts(picture: bytes) -> list[str]:
    """The texts of the QR codes in a picture (JPEG or PNG bytes); [] for none or an unreadable picture.

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
    return [str(found.text) for found in zxingcpp.read_barcodes(image) if found.text]
