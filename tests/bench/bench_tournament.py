"""Benchmarks (pytest-benchmark): code sizes and QR versions, and the cost of importing a result.

Run with ``pytest tests/bench/bench_tournament.py``; the figures asked for are kept in each
benchmark's ``extra_info`` (``--benchmark-json`` writes them out).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import qrcode

from engine import Rules
from engine.codec import (
    SeatedPlayer,
    TableResult,
    TableSetup,
    decode_setup,
    encode_setup,
    decode_result,
    encode_result,
    link_form,
    log_digest,
    places_from,
    safe_form,
    table_key,
)
from engine.tournament import Cut, RoundSpec, Tournament, TournamentFormat

SECRET = b"benchmark-secret"
HOUSE = Rules.preset("house")
BIG = TournamentFormat(
    "Open", 2000,
    (
        RoundSpec("house", Cut.overall(1600)),
        RoundSpec("progressive", Cut.per_table(2)),
        RoundSpec("house", Cut.table_winners()),
        RoundSpec("house", Cut.table_winners()),
        RoundSpec("house", Cut.table_winners()),
        RoundSpec("house", Cut.table_winners()),
        RoundSpec("house", Cut.final(), switch_to="progressive"),
    ),
)


def qr_version(text: str) -> int:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    return int(code.version)


def totals_for(numbers: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    winner = rng.randrange(len(numbers))
    scores = [50 * rng.randrange(10, 200) for _ in numbers]
    scores[winner] = 10_000 + 50 * rng.randrange(0, 40)
    return tuple(scores)


def result_for(t: Tournament, table: int, rng: random.Random) -> TableResult:
    numbers = t.seating()[table - 1]
    scores = totals_for(numbers, rng)
    tied = [seat for seat, total in enumerate(scores) if total == max(scores)]
    roll_offs = (tuple((seat, 1 + index) for index, seat in enumerate(tied)),) if len(tied) > 1 else ()
    return TableResult(
        t.event_id, t.round, table, numbers, scores, places_from(scores, roll_offs), roll_offs,
        t.rules_for(), log_digest([{"type": "example", "table": table}]),
    )


@pytest.mark.parametrize("players", [3, 4])
def test_bench_result_code_size_and_qr_version(benchmark: Any, players: int) -> None:
    rng = random.Random(players)
    numbers = tuple(rng.sample(range(1, 41), players))
    scores = (10_450, 9_800, 8_150, 7_600)[:players]
    result = TableResult("FT-7Q2K9X", 1, 10, numbers, scores, places_from(scores, ()), (), HOUSE, bytes(range(16)))
    key = table_key(SECRET, result.event_id, 1, 10)
    code = benchmark(encode_result, result, key)
    assert decode_result(code).verify(key) == result
    info = {
        "payload_bytes": len(code[4:]) * 2 // 3,
        "qr_chars": len(code),
        "qr_version_M": qr_version(code),
        "safe_chars": len(safe_form(code)),
        "safe_version_M": qr_version(safe_form(code)),
        "link_chars": len(link_form(code, "http://192.168.1.20:8550")),
        "link_version_M": qr_version(link_form(code, "http://192.168.1.20:8550")),
    }
    benchmark.extra_info.update(info)
    assert info["qr_version_M"] <= 10 and info["link_version_M"] <= 10


@pytest.mark.parametrize("name_length", [9, 40])
def test_bench_setup_code_size_and_qr_version(benchmark: Any, name_length: int) -> None:
    players = tuple(SeatedPlayer(n, f"Player {n:02}".ljust(name_length, "x")) for n in (12, 7, 31, 4))
    setup = TableSetup("FT-7Q2K9X", 4, 1, players, HOUSE, table_key(SECRET, "FT-7Q2K9X", 4, 1),
                       Rules.preset("progressive"), "http://192.168.1.20:8550")
    code = benchmark(encode_setup, setup)
    assert decode_setup(code) == setup
    benchmark.extra_info.update({"qr_chars": len(code), "qr_version_M": qr_version(code)})
    assert qr_version(code) <= 15


def event_waiting_for_one_result(players: int, fmt: TournamentFormat | None) -> tuple[list[dict[str, Any]], str]:
    """A round-1 log with every table but the last counted, and the last table's code."""
    rng = random.Random(players)
    t = Tournament("Bench", fmt, event_id="BENCH", secret=SECRET)
    for index in range(players):
        t.check_in(t.sign_up(f"Player {index + 1}"))
    t.draw_seats(seed=1)
    tables = len(t.seating())
    for table in range(1, tables):
        t.record_result(table, totals_for(t.seating()[table - 1], rng), reason="paper score sheet")
    last = result_for(t, tables, rng)
    return t.events, encode_result(last, t.card_key(tables))


def import_and_rank(t: Tournament, code: str) -> int:
    report = t.import_result(code)
    assert report.status == "accepted"
    return len(t.standings()) + len(t.pending_roll_offs())


@pytest.mark.parametrize(("players", "fmt"), [(40, None), (2000, BIG)], ids=["40-players", "2000-players"])
def test_bench_import_one_result_and_recompute_standings(benchmark: Any, players: int, fmt: TournamentFormat | None) -> None:
    events, code = event_waiting_for_one_result(players, fmt)
    fresh: Callable[[], tuple[tuple[Tournament, str], dict[str, Any]]] = lambda: ((Tournament.from_events(events), code), {})
    ranked = benchmark.pedantic(import_and_rank, setup=fresh, rounds=5 if players > 100 else 30, iterations=1)
    assert ranked >= players
    benchmark.extra_info["players"] = players


def whole_event_log(players: int, fmt: TournamentFormat) -> list[dict[str, Any]]:
    """Every round of an event to its champion: draws, typed results, roll-offs at the cuts, closes."""
    rng = random.Random(players)
    t = Tournament("Bench", fmt, event_id="BENCH", secret=SECRET)
    for index in range(players):
        t.check_in(t.sign_up(f"Player {index + 1}"))
    while t.champion is None:
        t.draw_seats(seed=t.round + 1)
        for table, numbers in enumerate(t.seating(), 1):
            t.record_result(table, totals_for(numbers, rng), reason="paper score sheet")
        while pending := t.pending_roll_offs():
            for tie in pending:
                t.record_roll_off(tie.table, {n: rng.randint(1, 6) for n in tie.numbers})
        t.close_round()
    return t.events


def open_and_rank(events: list[dict[str, Any]]) -> int:
    t = Tournament.from_events(events)
    return len(t.standings())


@pytest.mark.parametrize("players", [1000, 2000], ids=["1000-players", "2000-players"])
def test_bench_replay_a_whole_event_and_rank_everyone(benchmark: Any, players: int) -> None:
    """The tournament's fold is linear too: the cost per log entry (``extra_info``) stays flat as the event doubles."""
    events = whole_event_log(players, TournamentFormat("Open", players, BIG.rounds))
    ranked = benchmark.pedantic(open_and_rank, args=(events,), rounds=5, iterations=1)
    assert ranked == players
    benchmark.extra_info.update({
        "players": players, "log_entries": len(events),
        "us_per_entry": round(benchmark.stats.stats.mean / len(events) * 1e6, 2),
    })
