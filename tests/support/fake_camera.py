"""Chromium's fake camera for the scanning journeys: videos made of pictures, and phones
(persistent profiles) whose camera plays one.

Chromium plays a ``--use-file-for-fake-video-capture`` y4m file in a loop from its first
frame when a page opens the camera; the file is fixed when the browser starts.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from tests.support.browser_support import CHROMIUM_ARGS, PHONE_VIEWPORT, FlutterPage
from tests.support.pwa_harness import CHROMIUM, cut_network

__all__ = ["FAKE_CAMERA_ARGS", "SETUP_CARD_TABLE", "Phone", "launch_phone", "is_setup_card", "picture_of",
           "qr_on_screen", "setup_card_photo", "write_y4m"]

FAKE_CAMERA_ARGS = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
FRAME_SIZE = (640, 480)
SETUP_CARD_TABLE = "MAYOR-26 · Round 1 · Table 3"
"""What a table that joined by :func:`setup_card_photo` shows."""


def write_y4m(pictures: Sequence[Image.Image], path: Path, seconds_each: float = 1.0, fps: int = 10,
              size: tuple[int, int] = FRAME_SIZE) -> Path:
    """A video that shows each picture in turn, centred on white (scaled down to fit, never
    up), for ``seconds_each`` seconds; YUV 4:2:0 as Chromium's fake camera reads it."""
    frames_each = max(1, round(seconds_each * fps))
    half = (size[0] // 2, size[1] // 2)
    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{size[0]} H{size[1]} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for picture in pictures:
            shown = picture.convert("RGB")
            shown.thumbnail((size[0] - 40, size[1] - 40))
            canvas = Image.new("RGB", size, "white")
            canvas.paste(shown, ((size[0] - shown.width) // 2, (size[1] - shown.height) // 2))
            y, cb, cr = canvas.convert("YCbCr").split()
            frame = b"FRAME\n" + y.tobytes() + cb.resize(half).tobytes() + cr.resize(half).tobytes()
            out.write(frame * frames_each)
    return path


@dataclass
class Phone:
    """One phone: a persistent Chromium profile (its storage and service worker stay between
    launches) on a phone-sized screen, with every request it made."""

    context: Any
    flutter: FlutterPage
    requests: list[str] = field(default_factory=list)

    @property
    def page(self) -> Any:
        return self.flutter.page

    def outside_requests(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(("http://127.0.0.1", "data:", "blob:"))]

    def cut_network(self) -> None:
        cut_network(self.context)

    def close(self) -> None:
        self.context.close()


def launch_phone(playwright: Any, profile: Path, video: Path | None = None) -> Phone:
    """A phone on ``profile``; with ``video``, its camera (allowed) shows that video."""
    camera = [*FAKE_CAMERA_ARGS, f"--use-file-for-fake-video-capture={video}"] if video else []
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *camera],
        viewport={"width": PHONE_VIEWPORT["width"], "height": PHONE_VIEWPORT["height"]},
        permissions=["camera"] if video else [],
    )
    page = context.pages[0] if context.pages else context.new_page()
    phone = Phone(context, FlutterPage(page))
    context.on("request", lambda request: phone.requests.append(request.url))
    return phone


def picture_of(flutter: FlutterPage, image_name: str, margin: int = 16, timeout_s: float = 30) -> Image.Image:
    """A screenshot of the image a screen reader calls ``image_name`` (a QR code on screen),
    scrolled into view first, taken once two shots in a row are alike."""
    page = flutter.page
    image = page.get_by_role("img", name=image_name, exact=True)
    image.wait_for(state="attached", timeout=timeout_s * 1000)
    viewport = page.viewport_size
    deadline = time.monotonic() + timeout_s
    while True:  # Flutter scrolls its own list: wheel it until the image is wholly on screen
        box = image.bounding_box()
        assert box is not None, f"{image_name} has no place on screen"
        if box["y"] >= margin and box["y"] + box["height"] <= viewport["height"] - margin:
            break
        assert time.monotonic() < deadline, f"{image_name} could not be scrolled into view"
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        page.mouse.wheel(0, box["y"] - (viewport["height"] - box["height"]) / 2)
        while image.bounding_box() == box and time.monotonic() < deadline:
            time.sleep(0.05)  # until the list has moved
    clip = {"x": max(0, box["x"] - margin), "y": box["y"] - margin,
            "width": box["width"] + 2 * margin, "height": box["height"] + 2 * margin}
    previous = b""
    while True:
        # Two frames drawn since the list moved: a screenshot before then may show the page as
        # it was painted before the scroll, where the image's place now holds something else.
        flutter.wait_frames()
        shot = page.screenshot(clip=clip)
        if shot == previous and image.bounding_box() == box:
            return Image.open(io.BytesIO(shot))
        assert time.monotonic() < deadline, f"{image_name} never stopped changing"
        if image.bounding_box() != box:  # still moving: measure it again
            return picture_of(flutter, image_name, margin, max(1.0, deadline - time.monotonic()))
        previous = shot


def qr_on_screen(flutter: FlutterPage, image_name: str, wanted: Callable[[str], bool] = lambda _: True,
                 timeout_s: float = 60) -> tuple[Image.Image, str]:
    """The QR code a screen reader calls ``image_name``, pictured and read as a camera held to
    the screen reads it: looked at again until it reads as one code that is the ``wanted`` one
    (a phone's camera does the same; a picture taken while a long list still settles can hold
    the card above), or the reads seen are the failure, with the last picture kept in a
    temporary folder to look at."""
    from app.qr import read_qr_texts

    deadline = time.monotonic() + timeout_s
    while True:
        picture = picture_of(flutter, image_name, timeout_s=max(1.0, deadline - time.monotonic()))
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG")
        texts = read_qr_texts(buffer.getvalue())
        if len(texts) == 1 and wanted(texts[0]):
            return picture, texts[0]
        if time.monotonic() >= deadline:
            kept = Path(tempfile.mkdtemp(prefix="farkle-unread-qr-")) / "picture.png"
            picture.save(kept)
            raise AssertionError(f"{image_name} never read as one QR code in {timeout_s:.0f} s (load average "
                                 f"{os.getloadavg()[0]:.1f}): read as {texts}; the last picture is {kept}")


def is_setup_card(link: str, round_number: int, table: int) -> bool:
    """A join link (``http://host/join/FT1-...``, any case, ``#/join/`` too) holding the setup
    of this round's table."""
    from engine import decode_setup

    found = re.search(r"/join/(FT1-.+)$", link, re.IGNORECASE)
    if not found:
        return False
    setup = decode_setup(found.group(1))
    return (setup.round, setup.table) == (round_number, table)


def setup_card_photo(path: Path) -> Path:
    """A phone's photo (JPEG) of a table's setup card: the QR of tests/support/pwa_links_support.py's
    setup code (event MAYOR-26, round 1, table 3, Ann, Bob, Zoë and Di) on a larger grey
    picture, as the join screen's "Read a photo of the setup code" takes it."""
    from app.qr import qr_image
    from tests.support.pwa_links_support import setup_code

    photo = Image.new("RGB", (1200, 900), (235, 235, 228))
    photo.paste(Image.open(io.BytesIO(qr_image(setup_code()).png)), (300, 150))
    photo.save(path, "JPEG", quality=85)
    return path
