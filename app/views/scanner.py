"""The scan area a screen shows: camera buttons, the preview and what the scan sees, the
signal of each code read, and a photo button. It draws :class:`app.qr.camera.ScanState`; the
scan itself (picture loop, photo reading, messages) is :mod:`app.qr.camera`.

The photo button uses ``ft.FilePicker`` as the client action ``ft.PickFiles``, which opens
the picker inside the tap: iOS Safari ignores a picker opened later.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import flet as ft

from app.qr.camera import Found, QrScan, ScanOutcome, ScanReply, ScanState, camera_offered, photo_offered, read_photo
from app.context import use_model, use_services
from flet.components.hooks.use_ref import MutableRef

from app.views.widgets import TAP_HEIGHT, big_button, on
from app.i18n import tr

__all__ = ["CameraScan"]


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


def _signal(text: str, error: bool, key: str) -> ft.Control:
    """The visible signal of one code read (a flash of colour with a mark and what became of it)."""
    return ft.Container(
        ft.Row([ft.Icon(ft.Icons.ERROR if error else ft.Icons.CHECK_CIRCLE, color=ft.Colors.WHITE, size=28),
                ft.Text(text, color=ft.Colors.WHITE, size=16, weight=ft.FontWeight.W_500, expand=True)],
               spacing=10),
        bgcolor=ft.Colors.RED_700 if error else ft.Colors.GREEN_700,
        padding=10,
        border_radius=8,
        key=key,
        width=320,
        animate=ft.Animation(250, ft.AnimationCurve.EASE_OUT),
    )


@ft.component
def CameraScan(what: str, prefix: str, wanted: Callable[[str], bool], found: Found, *,
               refuse: Callable[[str], str] | None = None, continuous_label: str | None = None) -> ft.Control:
    """A screen's code reader: camera buttons, then the preview and the scan's status; a photo button.

    ``found`` gets each code read (text and outcome); in a continuous scan what it returns
    is shown as that code's signal. With ``continuous_label`` a second button starts a
    continuous scan. Control keys start with ``prefix``: ``-start`` (one code),
    ``-continuous``, ``-preview``, ``-status``, ``-signal``, ``-stop``, ``-message``, ``-photo``.
    """
    page = ft.context.page
    timing = use_services().scan_timing
    scan = use_model(ScanState)
    refusal = refuse or (lambda text: tr("That QR code is not a {what}: show the {what}.", what=what))
    camera_ref: MutableRef[Any] = ft.use_ref(None)
    running_ref: MutableRef[QrScan] = ft.use_ref(None)
    task_ref: MutableRef[asyncio.Task[None]] = ft.use_ref(None)
    found_ref: MutableRef[Found] = ft.use_ref(None)
    found_ref.current = found
    picker_ref: MutableRef[ft.FilePicker] = ft.use_ref(None)
    picked_ref: MutableRef[Callable[[ft.FilePickerResultEvent], Awaitable[None]]] = ft.use_ref(None)

    async def hit(text: str, outcome: ScanOutcome) -> None:
        """A continuous scan read a new code: the screen takes it, the scan shows the signal."""
        reply = await found_ref.current(text, outcome) if found_ref.current is not None else None
        scan.read_one(reply or ScanReply(tr("{what} read.", what=what)))

    async def loop(running: QrScan) -> None:
        outcome = await running.run()
        camera_ref.current = running_ref.current = None
        scan.end(outcome)
        if outcome.text is not None and found_ref.current is not None:
            await found_ref.current(outcome.text, outcome)

    def begin() -> None:
        """Once the preview is on the page (an effect runs after the render): the loop."""
        if scan.scanning and camera_ref.current is not None and running_ref.current is None:
            running = QrScan(_LatestCamera(camera_ref), what, wanted, timing=timing, on_status=scan.see,
                             refuse=refusal, on_hit=hit if scan.continuous else None)
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

    async def photo_picked(event: ft.FilePickerResultEvent) -> None:
        files = event.files or []
        if not files:
            return  # cancelled
        scan.photo(True)
        outcome = await read_photo(files[0].bytes, what, wanted, refusal)
        scan.photo(False, outcome.message)
        if outcome.text is not None and found_ref.current is not None:
            await found_ref.current(outcome.text, outcome)

    async def picked(event: ft.FilePickerResultEvent) -> None:
        if picked_ref.current is not None:
            await picked_ref.current(event)

    picked_ref.current = photo_picked
    ft.use_effect(begin, dependencies=[scan.scanning])
    ft.use_effect(lambda: None, dependencies=[], cleanup=unmounted)

    controls: list[ft.Control] = []
    if camera_offered(page):
        if scan.scanning:
            import flet_camera

            # Each render makes the preview anew and Flet moves the client's camera onto it: the
            # scan always calls the one last rendered (the earlier ones are off the page).
            camera_ref.current = flet_camera.Camera(width=320, height=240, preview_enabled=True,
                                                    key=f"{prefix}-preview")
            controls += [
                ft.Container(camera_ref.current, width=320, height=240, bgcolor=ft.Colors.BLACK),
                ft.Text(scan.status, key=f"{prefix}-status"),
            ]
            if scan.signal:
                controls.append(_signal(scan.signal, scan.signal_error, f"{prefix}-signal"))
            controls.append(big_button(tr("Stop scanning"), on(stop), filled=False, key=f"{prefix}-stop",
                                       icon=ft.Icons.STOP))
        else:
            if continuous_label:
                controls.append(big_button(continuous_label, on(scan.start, True), key=f"{prefix}-continuous",
                                           icon=ft.Icons.QR_CODE_SCANNER))
            controls.append(big_button(tr("Scan the {what} with the camera", what=what) if not continuous_label
                                       else tr("Scan one {what}", what=what), on(scan.start), filled=False,
                                       key=f"{prefix}-start", icon=ft.Icons.QR_CODE_SCANNER))
    if photo_offered() and not scan.scanning:
        if picker_ref.current is None:  # held by the ref: the page drops a service nothing holds
            picker_ref.current = ft.FilePicker(on_result=picked)
        controls.append(ft.OutlinedButton(
            tr("Reading the photo…") if scan.reading_photo else tr("Read a photo of the {what}", what=what),
            icon=ft.Icons.PHOTO_CAMERA,
            action=ft.PickFiles(picker_ref.current, file_type=ft.FilePickerFileType.IMAGE, with_data=True,
                                dialog_title=tr("A photo of the {what}", what=what)),
            key=f"{prefix}-photo",
            disabled=scan.reading_photo,
            height=TAP_HEIGHT,
        ))
    if scan.refusal and not scan.scanning:
        controls.append(ft.Text(scan.refusal, key=f"{prefix}-message", color=ft.Colors.ERROR))
    if scan.signal and not scan.scanning and scan.continuous:
        controls.append(ft.Text(tr("Last: {signal}", signal=scan.signal), key=f"{prefix}-last", size=13))
    if not controls:
        return ft.Column([], key=f"{prefix}-none")
    return ft.Column(controls, spacing=8)
