"""What the tournament tests share: an event of numbered players, a round played with
default totals, and a result code as a table's device makes it."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Rules
from engine.codec import TableResult, encode_result, places_from
from engine.tournament import Cut, RoundSpec, Tournament, TournamentFormat

__all__ = ["SECRET", "TWO_ROUNDS", "event", "default_totals", "play_round", "result_code"]

SECRET = bytes(range(16))
TWO_ROUNDS = TournamentFormat(
    "Two rounds", 8, (RoundSpec("house", Cut.per_table(2)), RoundSpec("house", Cut.final(), switch_to="progressive"))
)


def event(players: int, fmt: TournamentFormat | None = None, checked_in: bool = True) -> Tournament:
    t = Tournament("Mayor House Farkle", fmt, event_id="MAYOR-26", secret=SECRET)
    for index in range(players):
        number = t.sign_up(f"Player {index + 1:02}")
        if checked_in:
            t.check_in(number)
    return t


def default_totals(numbers: Sequence[int]) -> list[int]:
    """First seat wins with 10,000+; the others get distinct totals by player number."""
    return [10_000 + 50 * numbers[0] if seat == 0 else 5_000 + 50 * n for seat, n in enumerate(numbers)]


def play_round(t: Tournament, seed: int = 1) -> tuple[int, ...]:
    t.draw_seats(seed=seed)
    for table, numbers in enumerate(t.seating(), 1):
        t.record_result(table, default_totals(numbers), reason="paper score sheet")
    return t.close_round()


def result_code(
    t: Tournament, table: int, totals: Sequence[int] | None = None, *, round_: int | None = None,
    numbers: Sequence[int] | None = None, rules: Rules | None = None, key: bytes | None = None,
) -> str:
    """A result code as a table's device would make it (signed with its table's current card)."""
    round_ = round_ or t.round
    seated = tuple(numbers) if numbers is not None else t.seating(round_)[table - 1]
    scores = tuple(totals) if totals is not None else tuple(default_totals(seated))
    result = TableResult(
        t.event_id, round_, table, seated, scores, places_from(scores, ()), (),
        rules or t.rules_for(round_), bytes(16),
    )
    return encode_result(result, key or t.card_key(table, round_))
