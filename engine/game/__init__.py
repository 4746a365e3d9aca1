"""One game at one table: its state (:mod:`~engine.game.state`) and the :class:`Game` that plays it.

* :mod:`~engine.game.state`: the values a game is made of, :class:`GameState`, and
  :func:`apply`, the state one event leads to;
* :mod:`~engine.game.trail`: the append-only sequence that keeps replay linear;
* :mod:`~engine.game.game`: :class:`Game`, the actions, the log, undo and replay.
"""

from engine.game.game import Game
from engine.game.state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    Notice,
    Offer,
    Phase,
    Throw,
    TurnRecord,
    apply,
    bank_refusal,
)

__all__ = [
    "Game",
    "GameState",
    "Offer",
    "Throw",
    "TurnRecord",
    "Notice",
    "Phase",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "apply",
    "bank_refusal",
]
