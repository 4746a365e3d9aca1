"""Reading a QR code through the device's camera: a preview and a picture loop.

flet-camera shows the preview in the page; in local web mode its ``take_picture()``
hands a JPEG to Python on the host, where zxing-cpp reads it (:mod:`app.qr`). Image
streaming is not implemented on the web, so :class:`QrScan` takes a picture every
~300 ms, reads it in a worker thread, stops at the first code it wants and gives up
after ~10 s with a message. :func:`CameraScan` is the component a screen shows: the
scan button, then the preview, what the scan sees and a stop button. It is offered only
where it can work: flet-camera and zxing-cpp importable here, and a client with
cameras (web, Android, iOS), not the in-browser Python build (no zxing-cpp there).

The loop's clock and pause come from a :class:`ScanTiming`, so a test runs a whole
give-up on a fake clock without waiting.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import flet as ft

from app.context import use_model
from flet.components.hooks.use_ref import MutableRef

from app.qr import read_qr_texts, scanner_available
from app.views.widgets import big_button, on

__all__ = [
    "CameraScan", "QrScan", "ScanOutcome", "ScanState", "ScanTiming", "CameraLike", "camera_offered",
    "DEFAULT_TIMING",
]




@dataclass(frozen=True)
class ScanTiming:
    """How often a scan takes a picture and when it gives up, on which clock.

    :param clock: seconds, monotonic (``time.monotonic``; a test passes a fake).
    :param sleep: waits that many seconds on the same clock (``asyncio.sleep``).
    """

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    interval: float = 0.3
    give_up_after: float = 10.0


DEFAULT_TIMING = ScanTiming()
"""The timing of every scan the screens start (a test may put a fake clock here)."""


class CameraLike(Protocol):
    """What a scan needs of a camera (``flet_camera.Camera`` is one)."""

    async def get_available_cameras(self) -> Sequence[Any]: ...

    async def initialize(self, description: Any, resolution_preset: Any, enable_audio: bool = True) -> Any: ...

    async def take_picture(self) -> bytes: ...


@dataclass(frozen=True)
class ScanOutcome:
    """How a scan ended: the wanted text read (or ``None``), and the message when it was not."""

    text: str | None
    message: str | None
    shots: int
    seconds: float

    @property
    def report(self) -> str:
        """What a screen says of a successful read."""
        return f"Read by the camera in {self.seconds:.1f} s (picture {self.shots})."


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


class QrScan:
    """One scan: start the camera, take pictures until the wanted code shows, or give up.

    :param camera: the camera (its preview is on the page before :meth:`run`).
    :param what: what is sought, in the messages ("result code").
    :param wanted: whether a text read from a picture is the kind of code sought.
    :param on_status: told what the scan sees meanwhile ("That QR code is not a ...").
    :param read: the texts of the QR codes in a picture (zxing-cpp; blocking, run in a thread).
    """

    def __init__(self, camera: CameraLike, what: str, wanted: Callable[[str], bool], *,
                 timing: ScanTiming = DEFAULT_TIMING, on_status: Callable[[str], None] = lambda text: None,
                 read: Callable[[bytes], list[str]] = read_qr_texts) -> None:
        self.camera = camera
        self.what = what
        self.wanted = wanted
        self.timing = timing
        self.on_status = on_status
        self.read = read
        self.shots = 0
        self.stopped = False

    def stop(self) -> None:
        """End the loop after the picture being read (the person pressed Stop)."""
        self.stopped = True

    async def run(self) -> ScanOutcome:
        timing = self.timing
        started = timing.clock()
        try:
            import flet_camera

            cameras = await self.camera.get_available_cameras()
            if not cameras:
                return self._ended(started, f"No camera was found on this device: type or paste the {self.what} instead.")
            await self.camera.initialize(cameras[0], flet_camera.ResolutionPreset.MEDIUM, enable_audio=False)
        except Exception as error:  # noqa: BLE001 - camera missing, permission refused, unsupported platform
            return self._ended(started, f"The camera could not start ({error}): type or paste the {self.what} instead.")
        self.on_status(f"Hold the {self.what} in front of the camera…")
        deadline = started + timing.give_up_after
        while not self.stopped and timing.clock() < deadline:
            shot_at = timing.clock()
            try:
                picture: bytes | None = await self.camera.take_picture()
            except Exception:  # noqa: BLE001 - one failed picture: take the next
                picture = None
            self.shots += 1
            texts = await asyncio.to_thread(self.read, bytes(picture)) if picture else []
            hit = next((text for text in texts if self.wanted(text)), None)
            if hit is not None and not self.stopped:
                return ScanOutcome(hit, None, self.shots, timing.clock() - started)
            if self.stopped:
                break
            if texts:
                self.on_status(f"That QR code is not a {self.what}: show the {self.what}.")
            await timing.sleep(max(0.0, timing.interval - (timing.clock() - shot_at)))
        if self.stopped:
            return self._ended(started, "Scanning stopped.")
        return self._ended(
            started,
            f"No {self.what} was read in {timing.give_up_after:.0f} seconds: hold it flat and steady, in good light, "
            f"filling most of the preview, and scan again, or type its text form.",
        )

    def _ended(self, started: float, message: str) -> ScanOutcome:
        return ScanOutcome(None, message, self.shots, self.timing.clock() - started)


@dataclass
class ScanState(ft.Observable):
    """What the scan area shows: scanning or not, what the scan sees, how the last one ended."""

    scanning: bool = False
    status: str = ""
    message: str | None = None

    def start(self) -> None:
        if not self.scanning:
            self.scanning, self.status, self.message = True, "Starting the camera…", None

    def see(self, text: str) -> None:
        self.status = text

    def end(self, outcome: ScanOutcome) -> None:
        self.scanning, self.message = False, outcome.message


class _LatestCamera:
    """The camera preview rendered last (see :func:`CameraScan`)."""

    def __init__(self, ref: MutableRef[Any]) -> None:
        self.ref = ref

    @property
    def camera(self) -> Any:
        if self.ref.current is None:
            raise RuntimeError("The camera preview is not on the page any more.")
        return self.ref.current

    async def get_available_cameras(self) -> Sequence[Any]:
        cameras: Sequence[Any] = await self.camera.get_available_cameras()
        return cameras

    async def initialize(self, description: Any, resolution_preset: Any, enable_audio: bool = True) -> Any:
        return await self.camera.initialize(description, resolution_preset, enable_audio=enable_audio)

    async def take_picture(self) -> bytes:
        picture: bytes = await self.camera.take_picture()
        return picture




@ft.component
def CameraScan(what: str, prefix: str, wanted: Callable[[str], bool],
               found: Callable[[str, ScanOutcome], Awaitable[None]]) -> ft.Control:
    """The camera scan of a screen: a button, then the preview and the scan's status; ``found`` gets the text.

    Control keys start with ``prefix``: ``-start``, ``-preview``, ``-status``, ``-stop``, ``-message``.
    """
    page = ft.context.page
    scan = use_model(ScanState)
    camera_ref: MutableRef[Any] = ft.use_ref(None)
    running_ref: MutableRef[QrScan] = ft.use_ref(None)
    task_ref: MutableRef[asyncio.Task[None]] = ft.use_ref(None)
    found_ref: MutableRef[Callable[[str, ScanOutcome], Awaitable[None]]] = ft.use_ref(None)
    found_ref.current = found

    async def loop(running: QrScan) -> None:
        outcome = await running.run()
        camera_ref.current = running_ref.current = None
        scan.end(outcome)
        if outcome.text is not None and found_ref.current is not None:
            await found_ref.current(outcome.text, outcome)

    def begin() -> None:
        """Once the preview is on the page (an effect runs after the render): the loop."""
        if scan.scanning and camera_ref.current is not None and running_ref.current is None:
            running = QrScan(_LatestCamera(camera_ref), what, wanted, timing=DEFAULT_TIMING, on_status=scan.see)
            running_ref.current = running
            task_ref.current = asyncio.create_task(loop(running))

    def stop() -> None:
        if running_ref.current is not None:
            running_ref.current.stop()

    def unmounted() -> None:
        stop()
        task = task_ref.current
        if task is not None and not task.done():
            task.cancel()

    ft.use_effect(begin, dependencies=[scan.scanning])
    ft.use_effect(lambda: None, dependencies=[], cleanup=unmounted)

    if not camera_offered(page):
        return ft.Column([], key=f"{prefix}-none")
    controls: list[ft.Control]
    if scan.scanning:
        import flet_camera

        # Each render makes the preview anew and Flet moves the client's camera onto it: the
        # scan always calls the one last rendered (the earlier ones are off the page).
        camera_ref.current = flet_camera.Camera(width=320, height=240, preview_enabled=True, key=f"{prefix}-preview")
        controls = [
            ft.Container(camera_ref.current, width=320, height=240, bgcolor=ft.Colors.BLACK),
            ft.Text(scan.status, key=f"{prefix}-status"),
            big_button("Stop scanning", on(stop), filled=False, key=f"{prefix}-stop", icon=ft.Icons.STOP),
        ]
    else:
        controls = [big_button(f"Scan the {what} with the camera", on(scan.start), filled=False,
                               key=f"{prefix}-start", icon=ft.Icons.QR_CODE_SCANNER)]
        if scan.message:
            controls.append(ft.Text(scan.message, key=f"{prefix}-message", color=ft.Colors.ERROR))
    return ft.Column(controls, spacing=8)
