"""A tournament on the organizer's device: what happened is logged, the state is its replay.

Every organizer action is checked, recorded as a small past-tense event and applied;
results arrive from the tables as signed codes (:mod:`engine.codec`) and are checked
before they count. One concept per module:

* :mod:`~engine.tournament.format`: the format, and the rounds it plans for the
  players who signed up (cuts scaled to the field);
* :mod:`~engine.tournament.events`: the events and how the log keeps them;
* :mod:`~engine.tournament.state`: the state, frozen values;
* :mod:`~engine.tournament.replay`: the state as a fold over the events (``apply``, ``replay``);
* :mod:`~engine.tournament.seating`: the reproducible seat draw;
* :mod:`~engine.tournament.cards`: each table's card, its key, and cards that no
  longer count (a cancelled draw's, a revoked one);
* :mod:`~engine.tournament.checks`: whether a result may count;
* :mod:`~engine.tournament.standings`: cuts and standings;
* :mod:`~engine.tournament.corrections`: what a correction does to what was decided on
  the result (the cut taken again, the round open again, flags, the prize withdrawn);
* :mod:`~engine.tournament.exports`: standings and results as CSV;
* :mod:`~engine.tournament.signups`: a sign-up list read, and its preview;
* :mod:`~engine.tournament.describe`: what an action was, in words (Undo);
* :mod:`~engine.tournament.summary`: a table's result and where the event stands, in a line;
* :mod:`~engine.tournament.history`: the log and its replay: created, rebuilt, undone, copied;
* :mod:`~engine.tournament.tournament`: :class:`Tournament`, the organizer's actions.

>>> t = Tournament("Club night", event_id="CLUB-1", secret=bytes(16))
>>> for name in ("Ann", "Bob", "Cy"):
...     t.check_in(t.sign_up(name))
>>> t.draw_seats(seed=1)
((1, 2, 3),)
>>> t.record_result(1, [7_500, 10_050, 4_000], reason="paper score sheet").places
(2, 1, 3)
>>> t.close_round(), t.player(t.champion).name
((2,), 'Bob')
"""

from engine.tournament.cards import RevokedCard
from engine.tournament.checks import (
    ImportReport,
    VoidedResult,
    WrongEvent,
    WrongPlayers,
    WrongRound,
    WrongTable,
    check_possible,
)
from engine.tournament.tournament import Tournament
from engine.tournament.format import Cut, RoundPlan, RoundSpec, TournamentFormat, table_sizes
from engine.tournament.corrections import Flag
from engine.tournament.standings import PlayerLookup, RollOffNeeded, StandingRow
from engine.tournament.state import Correction, Player, Prize, Revocation, WithdrawnPrize

__all__ = [
    "Cut",
    "RoundSpec",
    "TournamentFormat",
    "RoundPlan",
    "Tournament",
    "Player",
    "ImportReport",
    "RollOffNeeded",
    "Correction",
    "Flag",
    "StandingRow",
    "PlayerLookup",
    "Prize",
    "WithdrawnPrize",
    "WrongEvent",
    "WrongRound",
    "WrongTable",
    "WrongPlayers",
    "RevokedCard",
    "VoidedResult",
    "Revocation",
    "table_sizes",
    "check_possible",
]
