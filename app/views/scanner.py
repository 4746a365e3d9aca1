"""Reading a QR code through the device's camera: a preview and a picture loop.

flet-camera shows the preview in the page; in local web mode its ``take_picture()``
hands a JPEG to Python on the host, where zxing-cpp reads it (:mod:`app.qr`). Image
streaming is not implemented on the web, so the scanner takes a picture every
~300 ms, reads it in a worker thread, stops at the first code it wants and gives up
after ~10 s with a message. It is offered only where it can work: flet-camera and
zxing-cpp importable here, and a client with cameras (web, Android, iOS), not the
in-browser Python build (no zxing-cpp there).
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from app.qr import read_qr_texts, scanner_available
from app.views.widgets import big_button, on

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["CameraScanner", "camera_offered", "SHOT_INTERVAL_S", "GIVE_UP_AFTER_S"]

SHOT_INTERVAL_S: Final = 0.3
GIVE_UP_AFTER_S: Final = 10.0


def camera_offered(page: ft.Page) -> bool:
    """Whether a camera scan can work for this page (see the module docstring)."""
    if sys.platform == "emscripten" or not scanner_available():
        return False
    try:
        import flet_camera  # noqa: F401
    except ImportError:
        return False
    platform = str(getattr(page.platform, "value", page.platform) or "").lower()
    return bool(page.web) or platform in ("android", "ios")


class CameraScanner:
    """One scan at a time: start, preview, picture loop, first wanted code, stop.

    :param wanted: whether a text read from a picture is the kind of code sought.
    :param found: called with that text once it is read (the scan has stopped).
    """

    def __init__(
        self,
        app: FarkleApp,
        what: str,
        wanted: Callable[[str], bool],
        found: Callable[[str], Awaitable[None]],
        key: str,
    ) -> None:
        self.app = app
        self.what = what
        self.wanted = wanted
        self.found = found
        self.key = key
        self.camera: Any = None
        self.scanning = False
        self.message: str | None = None
        self.status = ft.Text("", key=f"{key}-status")
        self.shots = 0
        self.seconds: float | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def offered(self) -> bool:
        return camera_offered(self.app.page)

    async def start(self) -> None:
        if self.scanning:
            return
        import flet_camera

        self.camera = flet_camera.Camera(width=320, height=240, preview_enabled=True, key=f"{self.key}-preview")
        self.scanning, self.message, self.shots, self.seconds = True, None, 0, None
        self.status.value = "Starting the camera…"
        await self.app.render()  # the preview must be on the page before the camera is used
        self._task = asyncio.create_task(self._scan())

    async def stop(self) -> None:
        """Stop scanning now (the person pressed Stop)."""
        if self.scanning:
            await self._finish("Scanning stopped.")

    async def _scan(self) -> None:
        import flet_camera

        started = time.monotonic()
        try:
            cameras = await self.camera.get_available_cameras()
            if not cameras:
                await self._finish(f"No camera was found on this device: type or paste the {self.what} instead.")
                return
            await self.camera.initialize(cameras[0], flet_camera.ResolutionPreset.MEDIUM, enable_audio=False)
        except Exception as error:  # camera missing, permission refused, unsupported platform
            await self._finish(f"The camera could not start ({error}): type or paste the {self.what} instead.")
            return
        self._show(f"Hold the {self.what} in front of the camera…")
        deadline = time.monotonic() + GIVE_UP_AFTER_S
        while self.scanning and time.monotonic() < deadline:
            shot_at = time.monotonic()
            try:
                picture = await self.camera.take_picture()
            except Exception:
                picture = None
            self.shots += 1
            texts = await asyncio.to_thread(read_qr_texts, bytes(picture)) if picture else []
            hit = next((text for text in texts if self.wanted(text)), None)
            if hit is not None and self.scanning:
                self.seconds = time.monotonic() - started
                self.scanning, self.camera = False, None
                await self.found(hit)
                return
            if texts and self.scanning:
                self._show(f"That QR code is not a {self.what}: show the {self.what}.")
            await asyncio.sleep(max(0.0, SHOT_INTERVAL_S - (time.monotonic() - shot_at)))
        if self.scanning:
            await self._finish(
                f"No {self.what} was read in {GIVE_UP_AFTER_S:.0f} seconds: hold it flat and steady, in good light, "
                f"filling most of the preview, and scan again, or type its text form."
            )

    def _show(self, text: str) -> None:
        self.status.value = text
        try:
            self.status.update()
        except Exception:  # not on the page any more (the person left the screen)
            pass

    async def _finish(self, message: str) -> None:
        self.scanning, self.camera, self.message = False, None, message
        await self.app.render()

    def controls(self) -> list[ft.Control]:
        """The scan button, or the preview and a stop button while scanning; the last message."""
        if not self.offered:
            return []
        out: list[ft.Control] = []
        if self.scanning and self.camera is not None:
            out += [
                ft.Container(self.camera, width=320, height=240, bgcolor=ft.Colors.BLACK),
                self.status,
                big_button("Stop scanning", on(self.stop), filled=False, key=f"{self.key}-stop",
                           icon=ft.Icons.STOP),
            ]
        else:
            out.append(big_button(f"Scan the {self.what} with the camera", on(self.start), filled=False,
                                  key=f"{self.key}-start", icon=ft.Icons.QR_CODE_SCANNER))
            if self.message:
                out.append(ft.Text(self.message, key=f"{self.key}-message", color=ft.Colors.ERROR))
        return out
