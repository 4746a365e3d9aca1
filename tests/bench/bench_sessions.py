"""What a crowd costs the local server, and what a passphrase brute force gets
(docs/threat-model.md; figures in docs/measurements.md). Loopback only; a script, not a test
(it takes a few minutes):

    .venv/bin/python tests/bench/bench_sessions.py [--cycles 1000] [--concurrent 200] [--brute-seconds 60] [--json FILE]

The real ``python -m app`` runs with only 127.0.0.1 as the organizer's address, so clients bound
to other loopback addresses (127.0.x.y) are phones. Each "session" is what a browser's Flet
client does on the wire (tests/support/flet_wire.py): a websocket, the registration, the app's first
screen. Memory is the server process's resident size (VmRSS).

1. **Connect and close**, ``--cycles`` times from one address, then as many from 100 addresses:
   how many were served or refused, how long it took, memory after, and once Flet has dropped
   the disconnected sessions (30 s, then its 10-second sweep).
2. **Concurrent sessions**: ``--concurrent`` held open at once (10 per address), memory with
   them and after they closed and expired.
3. **Brute force**: 16 addresses (127.0.0.2 to 127.0.0.17) each typing wrong passphrases
   into the event's sign-in as fast as the answers come, for ``--brute-seconds``; meanwhile
   the organizer's device opens the event every 5 s (time to its page), and a venue phone in
   another /24 gives the right passphrase every 10 s (what it is told, how fast).

Figures are reported, never asserted on time. The one check: after the second round of
connect-and-close cycles has expired, memory is within 40 MB of where the first round's left it
(the sessions are let go, not kept).
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
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from websockets.exceptions import InvalidStatus  # noqa: E402

from app.venue.client_address import ORGANIZER_ADDRESSES_ENV  # noqa: E402
from app.event.passphrase import hash_passphrase  # noqa: E402
from app.event.organizer import Organizer  # noqa: E402
from app.venue.server_limits import FLET_SWEEP_SECONDS, SESSION_KEEP_SECONDS  # noqa: E402
from app.storage import FileStore  # noqa: E402
from tests.support.browser_support import AppServer, start_app_server  # noqa: E402
from tests.support.flet_wire import WirePage, open_session  # noqa: E402

PASSPHRASE = "harbour 9"
EXPIRY_SECONDS = SESSION_KEEP_SECONDS + FLET_SWEEP_SECONDS + 3
ROUND_TWO_BOUND_MB = 40.0


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def rss_mb(server: AppServer) -> float:
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def seed(data_dir: Path) -> str:
    async def run() -> str:
        store = FileStore(data_dir)
        try:
            return await Organizer(store).create("Harbour cup", event_id="HARBOUR-26",
                                                 passphrase_hash=hash_passphrase(PASSPHRASE))
        finally:
            store.close()

    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, run()).result()


async def cycles(port: int, sources: list[str], count: int) -> dict[str, Any]:
    """``count`` connect-register-close cycles, round robin over ``sources``, 8 at a time."""
    answers: Counter[str] = Counter()
    started = time.monotonic()
    queue = iter(range(count))

    async def worker() -> None:
        for n in queue:
            try:
                session = await open_session(port, sources[n % len(sources)])
            except InvalidStatus as refused:
                answers[f"refused {refused.response.status_code}"] += 1
            except (OSError, asyncio.TimeoutError) as failed:
                answers[type(failed).__name__] += 1
            else:
                answers["served"] += 1
                await session.close()

    await asyncio.gather(*(worker() for _ in range(8)))
    return {"answers": dict(answers), "seconds": round(time.monotonic() - started, 1)}


async def concurrent(port: int, count: int) -> tuple[dict[str, Any], list[Any]]:
    held: list[Any] = []
    refused = 0
    started = time.monotonic()
    for n in range(count):
        try:
            held.append(await open_session(port, f"127.0.2.{n // 10 + 1}"))
        except InvalidStatus:
            refused += 1
    return {"held": len(held), "refused": refused, "seconds": round(time.monotonic() - started, 1)}, held


async def answer(page: WirePage) -> str:
    """Tap "Open" and read the answer: the event's page, or the gate's notice (Flet sends the
    notice again only when its text changes; every answer clears the typed field)."""
    page.mark()
    await page.click("gate-sign-in")
    if await page.wait_for("'value', ''", "event-state") == "event-state":
        return "event-state"
    return page.latest("opens no event", "Too many wrong") or "no notice"


async def brute_force(port: int, tournament_id: str, seconds: float) -> dict[str, Any]:
    route = f"/organizer/{tournament_id}"
    deadline = time.monotonic() + seconds
    answers: Counter[str] = Counter()
    first_pause: list[float] = []
    organizer_times: list[float] = []
    phone: list[tuple[float, str]] = []
    started = time.monotonic()

    async def attacker(source: str) -> None:
        page = await WirePage.open(port, source, route)
        await page.wait_for("gate-passphrase")
        n = 0
        while time.monotonic() < deadline:
            n += 1
            await page.type("gate-passphrase", f"{source} guess {n}")
            hit = await answer(page)
            answers[{"opens no event": "checked", "Too many wrong": "refused: paused"}.get(hit, "opened")] += 1
            if hit == "Too many wrong" and not first_pause:
                first_pause.append(time.monotonic() - started)
        await page.close()

    async def organizer() -> None:
        while time.monotonic() < deadline:
            begun = time.monotonic()
            page = await WirePage.open(port, "127.0.0.1", route)
            await page.wait_for("event-state")
            organizer_times.append(time.monotonic() - begun)
            await page.close()
            await asyncio.sleep(5)

    async def venue_phone() -> None:
        while time.monotonic() < deadline:
            begun = time.monotonic()
            page = await WirePage.open(port, "127.0.5.9", route)
            await page.wait_for("gate-passphrase")
            await page.type("gate-passphrase", PASSPHRASE)
            hit = await answer(page)
            phone.append((round(time.monotonic() - begun, 2), hit))
            await page.close()
            await asyncio.sleep(10)

    await asyncio.gather(*(attacker(f"127.0.0.{n}") for n in range(2, 18)), organizer(), venue_phone())
    minutes = (time.monotonic() - started) / 60
    total = sum(answers.values())
    return {
        "answers": dict(answers),
        "answered_per_minute": round(total / minutes),
        "checked_per_minute": round(answers["checked"] / minutes, 1),
        "first_pause_after_s": round(first_pause[0], 1) if first_pause else None,
        "organizer_page_s": {"median": round(statistics.median(organizer_times), 2),
                             "max": round(max(organizer_times), 2), "n": len(organizer_times)},
        "venue_phone": phone,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--concurrent", type=int, default=200)
    parser.add_argument("--brute-seconds", type=float, default=60.0)
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"load_before": load()}
    with tempfile.TemporaryDirectory(prefix="bench-sessions-") as tmp:
        data_dir = Path(tmp) / "data"
        tournament_id = seed(data_dir)
        with start_app_server(data_dir, env={ORGANIZER_ADDRESSES_ENV: "127.0.0.1"}) as server:
            port = server.port

            def measure(label: str, figures: dict[str, Any] | None = None) -> None:
                entry = {**(figures or {}), "rss_mb": round(rss_mb(server), 1), "load": load()}
                report[label] = entry
                print(f"{label}: {json.dumps(entry)}", flush=True)

            asyncio.run(cycles(port, ["127.0.0.1"], 3))  # the first screens imported
            measure("baseline")
            measure("one address, connect and close",
                    asyncio.run(cycles(port, ["127.0.0.2"], args.cycles)))
            crowd = [f"127.0.1.{n}" for n in range(1, 101)]
            measure("100 addresses, connect and close", asyncio.run(cycles(port, crowd, args.cycles)))
            time.sleep(EXPIRY_SECONDS)
            measure("after expiry")

            async def hold() -> dict[str, Any]:
                figures, held = await concurrent(port, args.concurrent)
                figures["rss_mb_held"] = round(rss_mb(server), 1)
                for session in held:
                    await session.close()
                return figures

            measure("concurrent sessions, closed", asyncio.run(hold()))
            time.sleep(EXPIRY_SECONDS)
            measure("after expiry (2)")
            measure("100 addresses, connect and close (round 2)", asyncio.run(cycles(port, crowd, args.cycles)))
            time.sleep(EXPIRY_SECONDS)
            measure("after expiry (3)")
            measure("brute force", asyncio.run(brute_force(port, tournament_id, args.brute_seconds)))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    grown = report["after expiry (3)"]["rss_mb"] - report["after expiry"]["rss_mb"]
    print(f"memory after round 2 expired minus after round 1 expired: {grown:+.1f} MB "
          f"(bound {ROUND_TWO_BOUND_MB} MB)")
    return 0 if grown <= ROUND_TWO_BOUND_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
