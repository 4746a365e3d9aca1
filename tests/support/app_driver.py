"""Driving the real app without a browser: one place for what every app test needs.

``data_dir`` (a fixture in conftest) points the app at an empty folder; :func:`run` opens
the app in a client-less Flet session; the rest are the taps a scorekeeper makes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from app.qr.camera import DEFAULT_TIMING, ScanTiming
from app.main import app_on, main
from app.storage import MemoryStore, Store, StoreWriteError
from tests.support.flet_harness import FletHarness

__all__ = ["run", "start_game", "throw", "keep", "saved_events", "FailingStore"]


def run(test: Callable[[FletHarness], Awaitable[Any]], route: str = "/", *, store: Store | None = None,
        scan_timing: ScanTiming | None = None, **options: Any) -> Any:
    """Open the app on ``route`` and run ``test`` against it (options go to the harness).

    With ``store`` the app runs over that store, so the test can read and write what the
    screens do through a ``Scorekeeper`` or ``Organizer`` of its own on the same store.
    ``scan_timing`` gives the camera scans a clock of the test's (needs ``store``).
    """
    if scan_timing is not None and store is None:
        raise ValueError("a scan timing needs the store the app runs over")
    app = main if store is None else app_on(store, scan_timing or DEFAULT_TIMING)

    async def session() -> Any:
        async with FletHarness(app, route=route, **options) as ui:
            return await test(ui)

    return asyncio.run(session())


async def start_game(ui: FletHarness, *names: str, preset: str | None = None, target: str | None = None) -> None:
    await ui.click("new-game")
    for _ in range(len(names) - 2):
        await ui.click("add-player")
    for seat, name in enumerate(names, start=1):
        await ui.type_text(f"player-name-{seat}", name)
    if preset:
        await ui.set_value("preset", preset, event="select")
    if target:
        await ui.type_text("rule-target", target)
    await ui.click("start-game")


async def throw(ui: FletHarness, faces: str) -> None:
    for face in faces.split():
        await ui.click(f"face-{face}")
    await ui.click("enter-throw")


async def keep(ui: FletHarness, *positions: int) -> None:
    for position in positions:
        await ui.click(f"die-{position}")


def saved_events(data_dir: Path) -> list[dict[str, Any]]:
    (game_file,) = (data_dir / "games").glob("*.json")
    events: list[dict[str, Any]] = json.loads(game_file.read_text())["events"]
    return events


class FailingStore(MemoryStore):
    """A store whose writes fail ("disk unplugged") while ``fail`` is set."""

    fail = False

    async def save(self, collection: str, doc_id: str, document: Any, *,
                   expect_revision: int | None = None) -> int:
        if self.fail:
            raise StoreWriteError("disk unplugged")
        return await super().save(collection, doc_id, document, expect_revision=expect_revision)
