"""40 phones opening the players' page at once on the local server: how long each waits. Loopback
only; a script, not a test (about a minute):

    .venv/bin/python tests/bench/bench_players_page.py [--phones 40] [--waves 3] [--json FILE]

The real ``python -m app`` serves a 40-player event (round 1 drawn, half the tables' results
counted) with only 127.0.0.1 as the organizer's address; each phone is its own loopback address
(127.0.3.N), as each player's phone is its own device on the venue's Wi-Fi. In each wave every
phone, all let go at the same instant:

1. **shell**: asks for ``/players/MAYOR-26`` over HTTP (the page a QR opens): time to the whole
   answer (the app's shell; the Flutter client's files after it are static and cached by then);
2. **page**: opens the app's websocket on that address, as the browser's Flet client does
   (tests/support/flet_wire.py): time until the event's name and stage are shown;
3. **search**: types its player's number and taps "Find me": time until its seat is shown.

Median and worst of each, with the load average before and after, per wave (the first wave
also starts Python's imports of the players' page). Figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.event.organizer import Organizer  # noqa: E402
from app.routes import players_path  # noqa: E402
from app.storage import FileStore  # noqa: E402
from app.venue.client_address import ORGANIZER_ADDRESSES_ENV  # noqa: E402
from tests.support.browser_support import start_app_server  # noqa: E402
from tests.support.flet_wire import WirePage  # noqa: E402
from tests.support.tournament_support import default_totals  # noqa: E402

CODE = "MAYOR-26"


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def seed(data_dir: Path, players: int) -> None:
    """A full event: ``players`` checked in, round 1 drawn, the first half of its tables counted."""
    async def run() -> None:
        store = FileStore(data_dir)
        try:
            organizer = Organizer(store)
            await organizer.create("Mayor House Farkle", event_id=CODE)
            await organizer.act(lambda t: [t.check_in(t.sign_up(f"Player {n:02}")) for n in range(1, players + 1)])
            await organizer.act(lambda t: t.draw_seats(2026))
            tables = organizer.open_tournament.seating()
            for table, numbers in enumerate(tables[:len(tables) // 2], 1):
                await organizer.act(lambda t, table=table, numbers=numbers: t.record_result(
                    table, default_totals(numbers), reason="paper score sheet"))
        finally:
            store.close()

    with ThreadPoolExecutor(max_workers=1) as worker:
        worker.submit(asyncio.run, run()).result()


async def shell(port: int, source: str, start: asyncio.Event) -> float:
    """One HTTP GET of the players' page's address from ``source``: seconds to the whole answer."""
    await start.wait()
    begun = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"GET {players_path(CODE)} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                 .encode("ascii"))
    await writer.drain()
    answer = await reader.read()
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
    return time.monotonic() - begun


async def phone(port: int, source: str, number: int, start: asyncio.Event) -> tuple[float, float]:
    """A phone opening the page and finding its player: (seconds to the page, seconds to its seat)."""
    await start.wait()
    begun = time.monotonic()
    page = await WirePage.open(port, source, players_path(CODE))
    try:
        await page.wait_for("players-stage", timeout=120)
        shown = time.monotonic() - begun
        await page.type("players-query", str(number))
        asked = time.monotonic()
        page.mark()
        await page.click("players-find")
        await page.wait_for(f"players-seat-{number}", timeout=120)
        return shown, time.monotonic() - asked
    finally:
        await page.close()


def figures(seconds: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(seconds), 3), "worst_s": round(max(seconds), 3)}


async def wave(port: int, phones: int) -> dict[str, Any]:
    sources = [f"127.0.3.{n}" for n in range(1, phones + 1)]
    before = load()
    start = asyncio.Event()
    shells = [asyncio.create_task(shell(port, source, start)) for source in sources]
    await asyncio.sleep(0.2)
    start.set()
    shell_times = await asyncio.gather(*shells)
    start = asyncio.Event()
    pages = [asyncio.create_task(phone(port, source, n, start)) for n, source in enumerate(sources, 1)]
    await asyncio.sleep(0.2)
    start.set()
    answers = await asyncio.gather(*pages)
    return {"load_before": before, "shell": figures(shell_times), "page": figures([a[0] for a in answers]),
            "search": figures([a[1] for a in answers]), "load_after": load()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=40)
    parser.add_argument("--waves", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"phones": args.phones, "cores": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="bench-players-") as tmp:
        data_dir = Path(tmp) / "data"
        seed(data_dir, args.phones)
        with start_app_server(data_dir, env={ORGANIZER_ADDRESSES_ENV: "127.0.0.1"}) as server:
            for number in range(1, args.waves + 1):
                report[f"wave {number}"] = asyncio.run(wave(server.port, args.phones))
                print(f"wave {number}: {json.dumps(report[f'wave {number}'])}", flush=True)
                time.sleep(2)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
