"""The results page's camera: frames read until a result code shows, no camera, a scan that gives up
or stops when asked, each on a clock the test moves."""

from __future__ import annotations

import asyncio
from typing import Any

from app.qr.camera import QrScan, ScanTiming
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import (BACK_CAMERA, Desk, FakeClock, blank_frame, camera_frame, camera_services, drawn_event,
                                  fake_clock, notice, played_code, scan)


def test_the_camera_reads_frames_until_a_result_code_shows_and_imports_it(fake_clock: FakeClock):
    desk = Desk()
    frames = [blank_frame()]

    async def test(ui: FletHarness) -> None:
        t = await drawn_event(ui, desk, 8)
        frames.extend([camera_frame("HELLO WORLD"), camera_frame(played_code(t, 1, seed=2))])
        await scan(ui, "organizer-notice")
        assert notice(ui).startswith("Round 1, table 1: result counted")
        assert "Read by the camera in 0.6 s (picture 3)." in notice(ui)  # a blank frame, another QR code, the result
        assert not ui.exists("result-scan-preview") and ui.exists("result-scan-start")

    services = {
        ("Camera", "get_available_cameras"): lambda ui, service, args: [BACK_CAMERA],
        ("Camera", "initialize"): lambda ui, service, args: None,
        ("Camera", "take_picture"): lambda ui, service, args: frames.pop(0),
    }
    desk.run(test, services=services, scan_timing=fake_clock.timing)


def test_without_a_camera_the_scan_says_so_and_the_code_can_still_be_typed(fake_clock: FakeClock):
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await drawn_event(ui, desk, 8)
        await scan(ui, "result-scan-message")
        assert ui.text_of("result-scan-message") == (
            "No camera was found on this device: read a photo of the result code instead, or type or paste it.")
        assert ui.exists("result-code")

    desk.run(test, services={("Camera", "get_available_cameras"): lambda ui, service, args: []},
             scan_timing=fake_clock.timing)


def test_the_scan_gives_up_after_ten_seconds_without_a_code(fake_clock: FakeClock):
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        await drawn_event(ui, desk, 8)
        started = fake_clock.now
        await scan(ui, "result-scan-message")
        assert ui.text_of("result-scan-message").startswith("No result code was read in 10 seconds: hold it flat")
        assert 10 <= fake_clock.now - started < 10.5
        assert (await desk.now()).results() == {}

    desk.run(test, services=camera_services([BACK_CAMERA], [blank_frame((64, 48))]), scan_timing=fake_clock.timing)


def test_a_scan_takes_a_picture_every_interval_and_stops_when_asked():
    class Camera:
        def __init__(self) -> None:
            self.pictures = 0

        async def get_available_cameras(self) -> list[str]:
            return ["back"]

        async def initialize(self, description: Any, resolution_preset: Any, enable_audio: bool = True) -> None:
            pass

        async def take_picture(self) -> bytes:
            self.pictures += 1
            if self.pictures == 4:
                running.stop()
            return b"picture"

    clock = FakeClock()
    seen: list[str] = []
    running = QrScan(Camera(), "setup code", lambda text: text.startswith("FT1"), on_status=seen.append,
                     timing=ScanTiming(clock=clock, sleep=clock.sleep, interval=0.5),
                     read=lambda picture: ["HELLO"])
    outcome = asyncio.run(running.run())
    assert outcome.text is None and outcome.message == "Scanning stopped." and outcome.shots == 4
    assert outcome.seconds == 1.5  # three pauses of 0.5 s between four pictures
    assert seen == ["Hold the setup code in front of the camera…"] + [
        "That QR code is not a setup code: show the setup code."] * 3
