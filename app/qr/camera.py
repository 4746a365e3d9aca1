"""Reading a QR code with the device's camera (a picture loop) or from a photo: the service
the scan screens draw (:mod:`app.views.scanner`), beside the decoder it calls (:mod:`app.qr`).

Both go through :func:`app.qr.read_qr`, the same ZXing-C++ decoder in both builds:
zxing-cpp on the host in local mode, zxing-wasm inside the offline PWA's Python worker.

- **Camera.** flet-camera shows the preview in the page; ``take_picture()`` hands a JPEG to
  Python. Image streaming is not implemented on the web, so :class:`QrScan` takes a
  picture every ~300 ms and reads it. A single scan stops at the first code it wants and
  gives up after ~10 s with a message. A continuous scan (the organizer's inbox, table
  after table) hands every new code to the screen as it is read, ignores a code it already
  read (it is still in front of the lens) and turns the camera off after a minute without
  a new code or when Stop is pressed. A code of the wrong kind is named ("That is a
  table's setup code…") and the scan goes on.
- **Photo** (any phone, even without camera access in the browser): :func:`read_photo`
  reads the picture a file picker handed over, with the same messages.

The camera is offered where it can work (a reader in this build, flet-camera importable,
a client with cameras: web, Android, iOS); the photo wherever a reader is. The loop's clock
and pause come from a :class:`ScanTiming` (the app's services carry it), so a test runs a
whole give-up on a fake clock without waiting.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import flet as ft

from app.qr import prepare_reader, read_qr, scanner_available
from app.i18n import ntr, tr, translatable
from engine import RESULT_PREFIX, SETUP_PREFIX

__all__ = [
    "QrScan", "ScanOutcome", "ScanReply", "ScanState", "ScanTiming", "CameraLike", "Found", "camera_offered",
    "photo_offered", "read_photo", "DEFAULT_TIMING", "not_a_setup_code", "not_a_result_code", "camera_trouble",
]

Reader = Callable[[bytes], "list[str] | Awaitable[list[str]]"]
logger = logging.getLogger(__name__)

# What the camera plugin's errors name (``CameraException(cameraNotFound, ...)`` on the web), and what
# each means to a person holding the phone.
_CAMERA_TROUBLES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("accessdenied", "permission", "notallowed"),
     translatable("This browser was not allowed to use the camera (allow it in the site's settings, then scan "
                  "again)")),
    (("notfound",), translatable("No camera was found on this device")),
    (("notreadable", "abort"), translatable("The camera is in use by another app, or could not be read")),
    (("notsupported", "security", "unsupported"),
     translatable("This browser offers no camera to this page (browsers give it only to pages opened over https "
                  "or on this device's own address)")),
    (("timeout",), translatable("The camera did not answer in time")),
)


@dataclass(frozen=True)
class ScanTiming:
    """How often a scan takes a picture and when it gives up, on which clock.

    :param clock: seconds, monotonic (``time.monotonic``; a test passes a fake).
    :param sleep: waits that many seconds on the same clock (``asyncio.sleep``).
    :param give_up_after: a single scan's limit without the wanted code.
    :param idle_after: a continuous scan turns the camera off after this long without a new code.
    """

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    interval: float = 0.3
    give_up_after: float = 10.0
    idle_after: float = 60.0


DEFAULT_TIMING = ScanTiming()
"""The timing of every scan the screens start (a test may put a fake clock here)."""


class CameraLike(Protocol):
    """What a scan needs of a camera (``flet_camera.Camera`` is one)."""

    async def get_available_cameras(self) -> Sequence[Any]: ...

    async def initialize(self, description: Any, resolution_preset: Any, enable_audio: bool = True) -> Any: ...

    async def take_picture(self) -> bytes: ...


@dataclass(frozen=True)
class ScanOutcome:
    """How a scan ended (or a code it read): the wanted text (or ``None``), and the message when it was not.

    ``seconds`` counts from the camera's start (for a continuous scan's later codes: from
    the code before); ``source`` is ``"camera"`` or ``"photo"``.
    """

    text: str | None
    message: str | None
    shots: int
    seconds: float
    source: str = "camera"

    @property
    def report(self) -> str:
        """What a screen says of a successful read."""
        if self.source == "photo":
            return tr("Read from the photo.")
        return tr("Read by the camera in {seconds:.1f} s (picture {shots}).", seconds=self.seconds, shots=self.shots)


@dataclass(frozen=True)
class ScanReply:
    """What a screen made of a code a continuous scan read: shown as that code's signal."""

    text: str
    error: bool = False


Found = Callable[[str, ScanOutcome], Awaitable["ScanReply | None"]]


def camera_trouble(error: BaseException, what: str) -> str:
    """Why the camera did not start, in words, and what to do instead; the raw error goes to the log.

    >>> camera_trouble(RuntimeError("CameraException(cameraNotFound, No camera found.)"), "result code")
    'No camera was found on this device: read a photo of the result code instead, or type or paste it.'
    """
    logger.warning("The camera could not start: %r", error)
    named = f"{type(error).__name__} {error}".lower()
    reason = next((tr(said) for words, said in _CAMERA_TROUBLES if any(word in named for word in words)),
                  tr("The camera could not start"))
    return tr("{reason}: read a photo of the {what} instead, or type or paste it.", reason=reason, what=what)


def not_a_setup_code(text: str) -> str:
    """What the join screen says of a QR code that is not a setup code."""
    if RESULT_PREFIX in text.upper():
        return tr("That is a table's result code (from a finished game): here, scan the setup code on the "
                  "table's card.")
    return tr("That QR code is not a setup code: scan the setup code on the table's card.")


def not_a_result_code(text: str) -> str:
    """What the results inbox says of a QR code that is not a result code."""
    if SETUP_PREFIX in text.upper():
        return tr("That is a table's setup code (from its card), not a result: scan the result code on the "
                  "table's game-over screen.")
    return tr("That QR code is not a result code: scan the result code on the table's game-over screen.")


def _page_has_cameras(page: ft.Page) -> bool:
    platform = str(getattr(page.platform, "value", page.platform) or "").lower()
    return bool(page.web) or platform in ("android", "ios")


def camera_offered(page: ft.Page) -> bool:
    """Whether a camera scan can work for this page (see the module docstring)."""
    if not scanner_available():
        return False
    try:
        import flet_camera  # noqa: F401
    except ImportError:
        return False
    return _page_has_cameras(page)


def photo_offered() -> bool:
    """Whether a photo can be read here (a decoder in this build: always in the PWA)."""
    return scanner_available()


async def _texts(read: Reader, picture: bytes) -> list[str]:
    result = read(picture)
    if inspect.isawaitable(result):
        return list(await result)
    return list(result)


class QrScan:
    """One scan: start the camera, take pictures until the wanted code shows, or give up.

    :param camera: the camera (its preview is on the page before :meth:`run`).
    :param what: what is sought, in the messages ("result code").
    :param wanted: whether a text read from a picture is the kind of code sought.
    :param on_status: told what the scan sees meanwhile ("That QR code is not a ...").
    :param read: the texts of the QR codes in a picture (:func:`app.qr.read_qr`; sync or async).
    :param refuse: what to say of a code of the wrong kind.
    :param on_hit: with it, the scan is continuous: each new wanted code goes there and the
        scan goes on (until :meth:`stop` or ``timing.idle_after`` without a new code).
    """

    def __init__(self, camera: CameraLike, what: str, wanted: Callable[[str], bool], *,
                 timing: ScanTiming = DEFAULT_TIMING, on_status: Callable[[str], None] = lambda text: None,
                 read: Reader = read_qr, refuse: Callable[[str], str] | None = None,
                 on_hit: Callable[[str, ScanOutcome], Awaitable[None]] | None = None) -> None:
        self.camera = camera
        self.what = what
        self.wanted = wanted
        self.timing = timing
        self.on_status = on_status
        self.read = read
        self.refuse = refuse or (lambda text: tr("That QR code is not a {what}: show the {what}.", what=what))
        self.on_hit = on_hit
        self.shots = 0
        self.hits = 0
        self.seen: set[str] = set()
        self.stopped = False

    @property
    def continuous(self) -> bool:
        return self.on_hit is not None

    def stop(self) -> None:
        """End the loop after the picture being read (the person pressed Stop)."""
        self.stopped = True

    async def run(self) -> ScanOutcome:
        timing = self.timing
        started = timing.clock()
        # The decoder loads while the camera starts (zxing-wasm in the PWA: fetched and compiled once).
        warming = asyncio.ensure_future(prepare_reader()) if self.read is read_qr else None
        try:
            import flet_camera

            cameras = await self.camera.get_available_cameras()
            if not cameras:
                return self._ended(started, tr("No camera was found on this device: read a photo of the {what} "
                                               "instead, or type or paste it.",
                                               what=self.what))
            await self.camera.initialize(cameras[0], flet_camera.ResolutionPreset.MEDIUM, enable_audio=False)
        except Exception as error:  # noqa: BLE001 - camera missing, permission refused, unsupported platform
            return self._ended(started, camera_trouble(error, self.what))
        if warming is not None:
            await warming
        self.on_status(tr("Hold the {what} in front of the camera…", what=self.what))
        since, since_shots = started, 0
        limit = timing.idle_after if self.continuous else timing.give_up_after
        deadline = started + limit
        while not self.stopped and timing.clock() < deadline:
            shot_at = timing.clock()
            try:
                picture: bytes | None = await self.camera.take_picture()
            except Exception:  # noqa: BLE001 - one failed picture: take the next
                picture = None
            self.shots += 1
            try:
                texts = await _texts(self.read, bytes(picture)) if picture else []
            except Exception as error:  # noqa: BLE001 - the decoder itself failed: say so, never crash
                return self._ended(started, tr("The QR decoder could not run ({error}): type or paste the {what} "
                                               "instead.",
                                               error=error, what=self.what))
            if self.stopped:
                break
            fresh = [text for text in texts if text not in self.seen]
            hit = next((text for text in fresh if self.wanted(text)), None)
            if hit is not None:
                outcome = ScanOutcome(hit, None, self.shots - since_shots, timing.clock() - since)
                if self.on_hit is None:
                    return outcome
                self.seen.add(hit)
                self.hits += 1
                await self.on_hit(hit, outcome)
                self.on_status(tr("Hold the next {what} in front of the camera…", what=self.what))
                since, since_shots = timing.clock(), self.shots
                deadline = since + limit
            elif fresh:
                self.on_status(self.refuse(fresh[0]))
            elif texts:
                self.on_status(tr("That {what} was read already: hold up the next one.", what=self.what))
            await timing.sleep(max(0.0, timing.interval - (timing.clock() - shot_at)))
        read = ntr(" {count} code read.", " {count} codes read.", self.hits, count=self.hits) if self.continuous else ""
        if self.stopped:
            return self._ended(started, tr("Scanning stopped.") + read)
        if self.continuous:
            return self._ended(started, tr("No new {what} for {limit:.0f} seconds: the camera is off.{read}",
                                           what=self.what, limit=limit, read=read))
        return self._ended(
            started,
            tr("No {what} was read in {give_up_after:.0f} seconds: hold it flat and steady, in good light, "
               "filling most of the preview, and scan again, or type its text form.",
               what=self.what, give_up_after=timing.give_up_after),
        )

    def _ended(self, started: float, message: str) -> ScanOutcome:
        return ScanOutcome(None, message, self.shots, self.timing.clock() - started)


async def read_photo(picture: bytes | None, what: str, wanted: Callable[[str], bool],
                     refuse: Callable[[str], str], read: Reader = read_qr,
                     clock: Callable[[], float] = time.monotonic) -> ScanOutcome:
    """Read a photo's QR code: the wanted text, or the message saying why there is none."""
    started = clock()
    if not picture:
        return ScanOutcome(None, tr("The photo could not be opened: pick it again."), 1, 0.0, "photo")
    try:
        texts = await _texts(read, bytes(picture))
    except Exception as error:  # noqa: BLE001 - the decoder itself failed
        return ScanOutcome(None, tr("The QR decoder could not run ({error}): type or paste the {what} instead.",
                                    error=error, what=what),
                           1, clock() - started, "photo")
    hit = next((text for text in texts if wanted(text)), None)
    if hit is not None:
        return ScanOutcome(hit, None, 1, clock() - started, "photo")
    message = refuse(texts[0]) if texts else (
        tr("No QR code was found in that photo: take it closer, flat and sharp, in good light, so that the {what} "
           "fills most of the picture, or type the code.",
           what=what))
    return ScanOutcome(None, message, 1, clock() - started, "photo")


@dataclass
class ScanState(ft.Observable):
    """What the scan area shows: scanning or not (and how), what the scan sees, how the last one
    ended (``refusal``: why no code came of it), and the signal of the last code a continuous scan read."""

    scanning: bool = False
    continuous: bool = False
    status: str = ""
    refusal: str | None = None
    reads: int = 0
    signal: str | None = None
    signal_error: bool = False
    reading_photo: bool = False

    def start(self, continuous: bool = False) -> None:
        if not self.scanning:
            self.scanning, self.continuous, self.refusal = True, continuous, None
            self.status = tr("Starting the camera…")
            self.reads, self.signal, self.signal_error = 0, None, False

    def see(self, text: str) -> None:
        self.status = text

    def read_one(self, reply: ScanReply) -> None:
        """One more code read by a continuous scan: its signal."""
        self.reads += 1
        self.signal, self.signal_error = tr("Code {reads} read: {text}",
                                            reads=self.reads, text=reply.text), reply.error

    def end(self, outcome: ScanOutcome) -> None:
        self.scanning, self.refusal = False, outcome.message

    def photo(self, reading: bool, refusal: str | None = None) -> None:
        self.reading_photo, self.refusal = reading, refusal


