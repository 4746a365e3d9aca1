"""What Undo took back, said to the table: each event in the words of the turn it undid."""

from __future__ import annotations

from engine.dice import format_dice
from engine.events import (
    Banked, Built, EntrySwitched, Event, Kept, PointsBanked, PointsFarkled, Rolled, RolledOff, RulesChanged,
)
from engine.game.state import GameState, Notice
from engine.words import say

__all__ = ["undone"]


def undone(event: Event, before: GameState, after: GameState) -> Notice:
    """What Undo took back, for the table: ``Undone: Bob's bank of 650``, ``Undone: Ann's
    farkle on 2 2 4 and the 1,000 it cost`` (a third farkle in a row); ``before`` and
    ``after`` are the states either side of ``event``."""
    name = before.name(before.current)
    if isinstance(event, Rolled | PointsFarkled):
        ended = len(after.history) > len(before.history)
        if isinstance(event, PointsFarkled):
            words = say("{name}'s farkle", name=name)
        else:
            thrown = format_dice(event.dice)
            words = say("{name}'s farkle on {dice}", name=name, dice=thrown) if ended else \
                say("{name}'s throw {dice}", name=name, dice=thrown)
        if ended and after.history[-1].penalty:
            words = say("{undone} and the {penalty:,} it cost", undone=words, penalty=after.history[-1].penalty)
    elif isinstance(event, Kept):
        words = say("{name} setting aside {dice}", name=name, dice=format_dice(event.dice))
    elif isinstance(event, Banked | PointsBanked):
        turn = after.history[-1]
        words = say("{name}'s bank of {points:,}", name=before.name(turn.seat), points=turn.points)
    elif isinstance(event, Built):
        words = say("{name} building on {points:,}", name=name, points=before.offer.points) if before.offer else \
            say("{name} building on the turn before", name=name)
    elif isinstance(event, RulesChanged):
        words = say("the change of rules")
    elif isinstance(event, RolledOff):
        words = say("the roll-off")
    elif isinstance(event, EntrySwitched):
        words = say("the switch to points only") if event.points_only else say("the switch to entering dice")
    else:  # the start of the game: peek() refuses to take it back
        words = say("the start of the game")
    return Notice("undone", say("Undone: {undone}", undone=words))
