"""The tournament as CSV, for the organizer's records and the notice board.

Plain CSV (comma, quoted where needed, one line per row) that any spreadsheet opens;
rows follow the standings and the tables, so two exports of one log are identical.
"""

from __future__ import annotations

import csv
import io

from engine.tournament.standings import standings
from engine.tournament.state import Recorded, TournamentState

__all__ = ["standings_csv", "results_csv"]


def standings_csv(state: TournamentState) -> str:
    """Rank, number, name, status and each round's total ("" where there is none)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names = [state.format.round_name(r.number, r.spec_index) for r in state.rounds]
    writer.writerow(["Rank", "Number", "Name", "Status", *names])
    for row in standings(state):
        writer.writerow([row.rank, row.number, row.name, row.status, *("" if t is None else t for t in row.totals)])
    return out.getvalue()


def results_csv(state: TournamentState) -> str:
    """One row per seat of every result counted or held, with its source and the reason kept.

    Once a result arrived with the players' confirmations (a table app that asks for
    them), a last column ``Confirmation`` says for every result how it was confirmed
    (``confirmed by 3 of 4 · Bob declined``, ``not confirmed (older table app)``,
    ``entered by hand``); an event without any keeps the columns it always had.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    listed: list[tuple[int, int, str, Recorded]] = []
    for round_ in state.rounds:
        for table in range(1, len(round_.tables) + 1):
            entries = [("counted", round_.results[table])] if table in round_.results else []
            entries += [("held", held) for held in round_.held.get(table, ())]
            listed += [(round_.number, table, status, recorded) for status, recorded in entries]
    confirmed = any(recorded.result.confirmations is not None for *_, recorded in listed)
    writer.writerow(["Round", "Table", "Seat", "Number", "Name", "Total", "Place", "Source", "Status", "Reason"]
                    + (["Confirmation"] if confirmed else []))
    for round_number, table, status, recorded in listed:
        result = recorded.result
        extra = [recorded.confirmation_line(state.players)] if confirmed else []
        for seat, (n, total, place) in enumerate(zip(result.numbers, result.totals, result.places), 1):
            writer.writerow([
                round_number, table, seat, n, state.players[n].name, total, place,
                "code" if recorded.code else "entered", status, recorded.reason, *extra,
            ])
    return out.getvalue()
