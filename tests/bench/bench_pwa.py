"""Benchmarks of the offline PWA: site size, and time to interactive in Chromium.

    .venv/bin/python tests/bench/bench_pwa.py [--runs 3] [--json build/out/bench-pwa.json]

Builds the site (cached by input hash, like tests/browser/test_pwa.py), serves it with http.server
under a sub-path, and for each run takes a fresh browser profile through:

- cold: first visit, empty profile, nothing cached (the service worker installs meanwhile);
- warm: the browser closed and started again on the same profile (service worker cache);
- offline: a reload with the server stopped and the network cut.

Time to interactive = from navigation until the home screen's "New game" button is in
the accessibility tree. Prints medians (and every sample) and the load average: the
machine is shared, so the spread matters.

    .venv/bin/python tests/bench/bench_pwa.py --compare --runs 3

times this build and, interleaved run by run, the same app built the way `flet publish`
boots it (Flutter first, no bytecode, hence no Python snapshot either).

A script, not a test: pytest does import this file (pyproject's ``python_files`` takes
``bench_*.py``) but finds no test in it, so ``make test`` never runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.pwa_harness import Browser, built_site, serving, time_to_interactive  # noqa: E402


def stored_games(count: int) -> dict[str, str]:
    """``count`` finished four-player games (played by the engine to 10,000) as the app's
    PrefsStore writes them: the ft.SharedPreferences keys and values."""
    import asyncio
    import random

    from app.storage import MemoryPrefs, PrefsStore
    from engine import Game, Rules
    from tests.support.game_play import play_game

    async def fill() -> dict[str, str]:
        prefs = MemoryPrefs()
        store = await PrefsStore.open(prefs)
        played = [play_game(Game(["Ann", "Bob", "Cy", "Di"], Rules.preset("house")), random.Random(seed))
                  for seed in range(min(count, 20))]
        for number in range(count):
            game = played[number % len(played)]
            doc_id = f"20261129-{number:06d}-bench0"
            await store.save("games", doc_id, {
                "id": doc_id, "players": list(game.players), "rules": game.rules.to_dict(),
                "events": game.events, "created": "2026-11-29T16:07:00+00:00",
                "updated": "2026-11-29T18:07:00+00:00", "finished": True})
        return {k: v for k, v in prefs.values.items()}

    return asyncio.run(fill())


# What shared_preferences_web does: localStorage["flutter." + key] = JSON of the value.
FILL_LOCAL_STORAGE = """(entries) => {
  for (const [key, value] of Object.entries(entries)) localStorage.setItem("flutter." + key, JSON.stringify(value));
  return Object.keys(localStorage).length;
}"""


def one_run(site: Path, work: Path, games: dict[str, str] | None = None,
            snapshot: bool = True) -> dict[str, float]:
    """Cold, warm and offline-reload times of one fresh profile. ``snapshot``: the build
    makes a Python memory snapshot after the first visit (its report's
    ``options.snapshot``); a build without one never says so, so it is not waited for."""
    profile = work / "profile"
    with serving(site, work / "www") as server:
        with Browser(profile) as b:
            cold = time_to_interactive(b, server.url)
            b.wait_sw_control()
            # the first visit's background set-up: the Python snapshot (if the build has them)
            if snapshot:
                b.wait_python_snapshot()
            if games:
                assert b.page.evaluate(FILL_LOCAL_STORAGE, games) >= len(games)
            # let the pre-cache finish and the browser settle before closing
            time.sleep(1.0)
        with Browser(profile) as b:
            warm = time_to_interactive(b, server.url)
            warm_start = b.python_start()
            if games:  # the stored games are listed
                b.flutter.wait_for_text("Delete the game Ann")
            server.stop()
            b.cut_network()
            offline = time_to_interactive(b, reload=True)
            offline_start = b.python_start()
    if warm_start.get("snapshot") is False or offline_start.get("snapshot") is False:
        print(f"  (Python started without its snapshot: warm {warm_start}, offline {offline_start})")
    times = {"cold": cold, "warm": warm, "offline_reload": offline}
    if "ms" in warm_start and "ms" in offline_start:  # Python's own start, in the worker
        times.update(warm_python=warm_start["ms"] / 1000, offline_python=offline_start["ms"] / 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--games", type=int, default=0,
                        help="warm and offline runs with this many finished games stored, as on a "
                             "phone that kept them (the app reads them all at start)")
    parser.add_argument("--compare", action="store_true",
                        help="also time the site booted as `flet publish` does (Flutter first, no "
                             "bytecode), interleaving runs of both so machine load hits both alike")
    parser.add_argument("--compare-snapshot", action="store_true",
                        help="also time the same build without the Python memory snapshot, "
                             "interleaving runs of both")
    parser.add_argument("--app-commit", metavar="COMMIT",
                        help="build the app/ and engine/ of this commit (git archive, see "
                             "tests/support/baseline_app.py) instead of the working tree's")
    args = parser.parse_args(argv)

    # Its own build/cache/ slots: a test run building the working tree meanwhile (its
    # slot "pwa-app-...") cannot replace the site under a running benchmark.
    source: dict[str, Any] = {"label": "bench-app"}
    if args.app_commit:
        from tests.support.baseline_app import export_commit

        exported = export_commit(args.app_commit)
        source = {"app_dir": exported.app_dir, "engine_dir": exported.engine_dir, "label": f"bench-{exported.cache_label}"}
        print(f"app and engine of {exported.label} ({exported.root})")
    started = time.monotonic()
    site, report = built_site(**source)
    build_s = time.monotonic() - started
    variants = {"this build": (site, report)}
    if args.compare:
        variants["flet publish boot order, no bytecode"] = built_site(**source, no_precompile=True,
                                                                      early_python=False)
    if args.compare_snapshot:
        variants["without the Python snapshot"] = built_site(**source, snapshot=False)
    games = stored_games(args.games) if args.games else None
    if games:
        print(f"{args.games} stored games: {sum(len(k) + len(v) for k, v in games.items()) / 1e6:.2f} MB "
              f"of localStorage, {len(games)} entries")
    all_samples: dict[str, dict[str, list[float]]] = {v: {} for v in variants}
    for run in range(args.runs):
        for variant, (variant_site, variant_report) in variants.items():
            samples = all_samples[variant]
            makes_snapshot = bool(variant_report.get("options", {}).get("snapshot", True))
            with tempfile.TemporaryDirectory(prefix="bench-pwa-") as tmp:
                for name, value in one_run(variant_site, Path(tmp), games, makes_snapshot).items():
                    samples.setdefault(name, []).append(value)
            print(f"run {run + 1}/{args.runs} [{variant}]: "
                  + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in samples.items())
                  + f" (load {os.getloadavg()[0]:.2f})", flush=True)

    mb = 1e6
    print(f"\nSite {site} (build {report['build_hash']}; built or reused in {build_s:.1f} s)")
    print(f"  total {report['total_bytes'] / mb:.2f} MB ({report['total_gzip_bytes'] / mb:.2f} MB gzipped), "
          f"{report['files']} files")
    print(f"  downloaded by Chromium {report['downloaded_by']['chromium'] / mb:.2f} MB, "
          f"by Firefox/Safari {report['downloaded_by']['firefox_safari'] / mb:.2f} MB")
    for name, row in sorted(report["categories"].items(), key=lambda kv: -kv[1]["bytes"]):
        print(f"    {name:<52} {row['bytes'] / mb:6.2f} MB")
    medians: dict[str, dict[str, float]] = {}
    for variant, samples in all_samples.items():
        print(f"Time to interactive [{variant}], median of {args.runs} (samples):")
        medians[variant] = {}
        for name, values in samples.items():
            medians[variant][name] = statistics.median(values)
            print(f"  {name:<15} {medians[variant][name]:5.2f} s   ({', '.join(f'{v:.2f}' for v in values)})")
    load = os.getloadavg()
    print(f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1/5/15 min; "
          f"{os.cpu_count()} cores)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"size": {k: report[k] for k in (
            "total_bytes", "total_gzip_bytes", "files", "downloaded_by", "categories")},
            "tti_median_s": medians, "tti_samples_s": all_samples, "load_avg": load}, indent=2))
    return 0


if __name__ == "__main__":
    shutil.which("chromium") or print("warning: chromium not on PATH; using /usr/bin/chromium")
    sys.exit(main())
