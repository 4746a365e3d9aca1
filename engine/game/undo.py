"""What Undo took back, said to the table: each event in the words of the turn it undid."""

from __future__ import annotations

from engine.dice import format_dice
from engine.events import (
    Banked, Built, EntrySwitched, Event, Kept, PointsBanked, PointsFarkled, Rolled, RolledOff, RulesChanged,
)
from engine.game.state import GameState, Notice

__all__ = ["undone"]


def undone(event: Event, before: GameState, after: GameState) -> Notice:
    """What Undo took back, for the table: ``Undone: Bob's bank of 650``, ``Undone: Ann's
    farkle on 2 2 4 and the 1,000 it cost`` (a third farkle in a row); ``before`` and
    ``after`` are the states either side of ``event``."""
    name = before.name(before.current)
    if isinstance(event, Rolled | PointsFarkled):
        ended = len(after.history) > len(before.history)
        if isinstance(event, PointsFarkled):
            words = f"{name}'s farkle"
        else:
            thrown = format_dice(event.dice)
            words = f"{name}'s farkle on {thrown}" if ended else f"{name}'s throw {thrown}"
        if ended and after.history[-1].penalty:
            words += f" and the {after.history[-1].penalty:,} it cost"
    elif isinstance(event, Kept):
        words = f"{name} setting aside {format_dice(event.dice)}"
    elif isinstance(event, Banked | PointsBanked):
        turn = after.history[-1]
        words = f"{before.name(turn.seat)}'s bank of {turn.points:,}"
    elif isinstance(event, Built) and before.offer is not None:
        words = f"{name} building on {before.offer.points:,}"
    elif isinstance(event, RulesChanged):
        words = "the change of rules"
    elif isinstance(event, RolledOff):
        words = "the roll-off"
    elif isinstance(event, EntrySwitched):
        words = "the switch to points only" if event.points_only else "the switch to entering dice"
    else:
        words = f"the last action ({event.TYPE})"
    return Notice("undone", f"Undone: {words}")
