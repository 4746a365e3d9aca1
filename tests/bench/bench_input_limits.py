"""Home on a second device while the organizer's device previews a huge paste or opens a huge
copy of an event: the commit before the input limits against this tree, in one run
(docs/threat-model.md, "What bounds every device"; figures in docs/measurements.md).
Loopback only; a few minutes:

    .venv/bin/python -m tests.bench.bench_input_limits [--before 073a412^] [--samples 7]   # or: make bench

Each tree's real ``python -m app`` serves a fresh data folder holding one event, with only
127.0.0.1 the organizer's address. Its Flet clients are what a browser's is on the wire
(tests/support/flet_wire.py): the organizer's device (127.0.0.1) types a 6 MB one-line list into the
players page and taps Preview, then picks copies of an event of 15 and 50 MB on the
tournaments list (a log of legal actions, so a tree that replays before it measures does the
whole work). Meanwhile a second device (another loopback address each time: a phone) opens
Home again and again until the organizer's device is answered: the time from its websocket
to Home's first screen, against the same with nothing else going on.

Uvicorn refuses a websocket message over 16 MiB (its ``ws_max_size``) and closes that socket:
the 50 MB copy never reaches the app in either tree. Figures are printed with the load
average, never asserted on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from itertools import count
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.venue.client_address import ORGANIZER_ADDRESSES_ENV  # noqa: E402
from engine import Tournament, TournamentFormat  # noqa: E402
from tests.support.baseline_app import WORKING_TREE, AppSource, export_commit  # noqa: E402
from tests.bench.bench_sessions import seed  # noqa: E402
from tests.support.browser_support import start_app_server  # noqa: E402
from tests.support.flet_wire import WirePage  # noqa: E402

BEFORE_THE_LIMITS = "073a412^"
"""The last commit before the sign-up list's, the sign-up file's and the event copy's limits."""
PASTE_BYTES = 6_000_000
COPY_SIZES = (15_000_000, 50_000_000)
"""A copy that still fits a websocket message, and one that does not."""
ANSWER_TIMEOUT = 600.0
HOME_EVERY = 0.25
"""Seconds between two Homes opened (a closed session is kept 30 s: at most about 120 at a time)."""
_NOTICE = re.compile(r"""'value': ['"]((?:The list|Nothing to add|Ready to add|This file|This event|Something|Not saved)"""
                     r"""[^'"]{0,110})""")


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def pasted_list(size: int) -> str:
    """One line of names and no line break: a whole document pasted by mistake."""
    return ("Ann Lee, Bob Roy, Cy Ode, " * (size // 26 + 1))[:size]


def copy_of_size(size: int) -> bytes:
    """An event copy of about ``size`` bytes whose log is legal: the format switched back and forth."""
    house = TournamentFormat.house()
    tournament = Tournament("Bench", event_id="BENCH-99", secret=bytes(16))
    tournament.change_format(TournamentFormat(house.name, 41, house.rounds))
    tournament.change_format(house)
    first, there, back = tournament.events
    pair = len(json.dumps([there, back], separators=(",", ":")))  # and a comma
    envelope = {"kind": "farkle-table-event-copy", "version": 1, "saved": "2026-12-05T00:00:00Z",
                "tournament_id": "20261205-000000-b1b1b1", "event": {"name": "Bench", "events": [first]}}
    pairs = (size - len(json.dumps(envelope, separators=(",", ":")))) // pair
    envelope["event"] = {"name": "Bench", "events": [first] + [there, back] * pairs}
    return json.dumps(envelope, separators=(",", ":")).encode()


def phones() -> Iterator[str]:
    """A new loopback address for every Home opened (one address keeps at most 12 sessions)."""
    for n in count():
        yield f"127.0.{3 + n // 250}.{1 + n % 250}"


async def home_seconds(port: int, source: str) -> float:
    begun = time.monotonic()
    page = await WirePage.open(port, source, "/")
    await page.wait_for("new-game", timeout=ANSWER_TIMEOUT)
    seconds = time.monotonic() - begun
    await page.close()
    return seconds


async def answered(page: WirePage, begun: float) -> tuple[float, str]:
    """Seconds until the organizer's device shows its notice (or the server closes its socket), and the words."""
    waiting = asyncio.ensure_future(page.wait_for("organizer-notice", timeout=ANSWER_TIMEOUT))
    done, _ = await asyncio.wait({waiting, page.reader}, return_when=asyncio.FIRST_COMPLETED)
    seconds = time.monotonic() - begun
    if waiting not in done:
        waiting.cancel()
        return seconds, "the server closed the organizer's socket (a message over 16 MiB)"
    words = _NOTICE.findall(page.seen)
    return seconds, words[-1] if words else "a notice"


def preview_paste(text: str) -> Callable[[int, str], Awaitable[tuple[float, str]]]:
    async def run(port: int, tournament_id: str) -> tuple[float, str]:
        page = await WirePage.open(port, "127.0.0.1", f"/organizer/{tournament_id}/players")
        await page.wait_for("preview-list")
        begun = time.monotonic()
        await page.type("signup-list", text)
        page.mark()
        await page.click("preview-list")
        result = await answered(page, begun)
        await page.close()
        return result

    return run


def open_copy(data: bytes) -> Callable[[int, str], Awaitable[tuple[float, str]]]:
    async def run(port: int, tournament_id: str) -> tuple[float, str]:
        page = await WirePage.open(port, "127.0.0.1", "/organizer")
        await page.wait_for("open-copy")
        await page.wait_for("'_c': 'FilePicker'")  # the service may come after the view
        service = re.findall(r"\{[^{}]*'_c': 'FilePicker'[^{}]*\}", page.log)[-1]
        picker = int(re.findall(r"'_i': (\d+)", service)[0])
        begun = time.monotonic()
        page.mark()
        files = {"files": [{"id": 0, "name": "event-copy.json", "size": len(data), "bytes": data}]}
        try:
            await page.event(picker, "result", files)
        except Exception:  # noqa: BLE001 - the server may close the socket while it is still sending
            pass
        result = await answered(page, begun)
        await page.close()
        return result

    return run


async def while_busy(port: int, tournament_id: str, addresses: Iterator[str],
                     work: Callable[[int, str], Awaitable[tuple[float, str]]]) -> dict[str, Any]:
    """Home opened again and again on other devices until the organizer's device is answered."""
    busy = asyncio.ensure_future(work(port, tournament_id))
    times: list[float] = []
    while not busy.done():
        times.append(await home_seconds(port, next(addresses)))
        await asyncio.wait({busy}, timeout=HOME_EVERY)  # paced: the server keeps 500 sessions at most
    seconds, words = await busy
    print(f"  {len(times)} Homes opened, the organizer answered in {seconds:.2f} s: {words!r}", flush=True)
    return {"home_median_s": round(statistics.median(times), 2), "home_max_s": round(max(times), 2),
            "homes": len(times), "organizer_answer_s": round(seconds, 2), "answer": words, "load": load()}


def measure(source: AppSource, samples: int, paste: int, copy_sizes: tuple[int, ...]) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    copies = {size: copy_of_size(size) for size in copy_sizes}
    with tempfile.TemporaryDirectory(prefix="bench-input-limits-") as tmp:
        data_dir = Path(tmp) / "data"
        tournament_id = seed(data_dir)
        env = {**source.env, ORGANIZER_ADDRESSES_ENV: "127.0.0.1"}
        with start_app_server(data_dir, cwd=source.root, env=env) as server:
            port, addresses = server.port, phones()

            async def run() -> None:
                for _ in range(3):  # the first screens imported
                    await home_seconds(port, next(addresses))
                idle = [await home_seconds(port, next(addresses)) for _ in range(samples)]
                figures["Home alone"] = {"home_median_s": round(statistics.median(idle), 2),
                                         "home_max_s": round(max(idle), 2), "homes": samples, "load": load()}
                print(f"{source.label}: Home alone {figures['Home alone']}", flush=True)
                figures[f"a {paste / 1_000_000:g} MB one-line paste previewed"] = await while_busy(
                    port, tournament_id, addresses, preview_paste(pasted_list(paste)))
                for size in copy_sizes:
                    label = f"a {size / 1_000_000:g} MB copy opened"
                    figures[label] = await while_busy(port, tournament_id, addresses, open_copy(copies[size]))

            asyncio.run(run())
    return figures


def compare(before: str, samples: int, paste: int = PASTE_BYTES,
            copy_sizes: tuple[int, ...] = COPY_SIZES) -> dict[str, dict[str, dict[str, Any]]]:
    results = {source.label: measure(source, samples, paste, copy_sizes)
               for source in (export_commit(before), WORKING_TREE)}
    (then_label, then), (now_label, now) = results.items()
    print(f"\nHome on a second device (loopback) while the organizer's device works: {then_label} (before) / "
          f"{now_label} (after); seconds from the websocket to Home's first screen")
    for what in now:
        old, new = then[what], now[what]
        print(f"  {what}:")
        for label, figures in ((then_label, old), (now_label, new)):
            answer = (f"; the organizer answered in {figures['organizer_answer_s']} s: {figures['answer']!r}"
                      if "answer" in figures else "")
            print(f"    {label:>16}: Home median {figures['home_median_s']} s, at most {figures['home_max_s']} s "
                  f"({figures['homes']} opened){answer}; load {figures['load']}")
        print(f"    {'':>16}  worst Home before/after: {old['home_max_s'] / max(new['home_max_s'], 0.01):.1f}x")
    return results


def test_bench_home_on_another_device_while_the_organizer_reads_huge_input() -> None:
    """The figures of the module docstring, printed (``make bench`` shows them); none asserted."""
    results = compare(BEFORE_THE_LIMITS, samples=7)
    assert len(results) == 2


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE_THE_LIMITS, help="the earlier commit (default: before the limits)")
    parser.add_argument("--samples", type=int, default=7, help="Home opened with nothing else going on")
    parser.add_argument("--paste", type=int, default=PASTE_BYTES, help="bytes of the one-line paste")
    parser.add_argument("--copies", type=int, nargs="+", default=COPY_SIZES, help="bytes of each copy opened")
    arguments = parser.parse_args()
    compare(arguments.before, arguments.samples, arguments.paste, tuple(arguments.copies))
