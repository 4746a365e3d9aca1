"""After the game: the decisions that cost each player most against the most-points play."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.advice.advisor import DICE_WORDS, advise
from engine.dice import format_dice
from engine.game import Game, GameState
from engine.words import Words, listed, say

__all__ = ["CostlyDecision", "CostlyTurn", "costly_decisions", "judge_decisions", "costliest"]


@dataclass(frozen=True)
class CostlyDecision:
    """A decision that gave away points on average against the most-points play."""

    seat: int
    turn: int
    """The game's turn number (from 1) it was taken in."""
    taken: Words
    better: Words
    cost: float

    @property
    def words(self) -> Words:
        """What was done and what was worth more: ``kept 1 1 1 (1,000); keeping 1 1 1 5 was
        worth 1,050 (+50 on average)``."""
        return say("{taken}; {better} (+{cost:,.0f} on average)", taken=self.taken, better=self.better, cost=self.cost)


@dataclass(frozen=True)
class CostlyTurn:
    """One player's turn and its decisions that gave away points, in the order taken."""

    seat: int
    turn: int
    """The game's turn number (from 1), as the history numbers it."""
    decisions: tuple[CostlyDecision, ...]

    @property
    def cost(self) -> float:
        """What the turn's decisions gave away together, on average."""
        return sum(decision.cost for decision in self.decisions)

    def describe(self) -> Words:
        """The turn in one line: ``Turn 4: kept ...; keeping ... (+20 on average). Then threw ...``."""
        first, *later = [decision.words for decision in self.decisions]
        return say("Turn {turn}: {decisions}.", turn=self.turn,
                   decisions=listed([first, *(say("Then {decision}", decision=words) for words in later)], ". "))


def costly_decisions(game: Game, per_player: int = 3, at_least: float = 10.0) -> dict[int, tuple[CostlyTurn, ...]]:
    """For each seat, the turns of the game whose decisions cost most against
    expected-score play (at most ``per_player`` turns, each costing at least ``at_least``
    points on average), costliest first. A last turn of the final round plays for the
    lead, not for points, so its decisions are not judged here."""
    found = [decision for decision in judge_decisions(game) if decision is not None]
    return costliest(found, len(game.players), per_player, at_least)


def judge_decisions(game: Game) -> Iterator[CostlyDecision | None]:
    """Every decision of the game judged in turn: the decision when it cost points, else
    None, once per event, so a screen can judge a long game between taps."""
    events = game.events
    replay = Game.from_events(events[:1])
    for event in events[1:]:
        state = replay.state
        if state.phase not in ("over", "roll_off") and event.get("type") in ("kept", "banked", "rolled", "built"):
            yield from _judge(state, event, len(state.history) + 1) or (None,)
        else:
            yield None
        replay.redo(event)


def costliest(decisions: Iterable[CostlyDecision], seats: int, per_player: int = 3,
              at_least: float = 10.0) -> dict[int, tuple[CostlyTurn, ...]]:
    """Each seat's ``per_player`` costliest turns of at least ``at_least`` points: a turn's
    decisions (a keep, then a throw that should have been a bank) make one line."""
    turns: dict[tuple[int, int], list[CostlyDecision]] = {}
    for decision in decisions:
        turns.setdefault((decision.seat, decision.turn), []).append(decision)
    found = [CostlyTurn(seat, turn, tuple(taken)) for (seat, turn), taken in turns.items()]
    by_seat: dict[int, tuple[CostlyTurn, ...]] = {}
    for seat in range(seats):
        mine = sorted((t for t in found if t.seat == seat and t.cost >= at_least), key=lambda t: -t.cost)
        by_seat[seat] = tuple(mine[:per_player])
    return by_seat


def _judge(state: GameState, event: dict[str, object], turn: int) -> list[CostlyDecision]:
    advice = advise(state)
    if advice.goal != "points":
        return []
    seat, kind = state.current, event.get("type")
    if advice.action == "keep" and kind == "kept":
        kept = tuple(sorted(event.get("dice") or ()))  # type: ignore[call-overload]
        chosen = next((c for c in advice.keeps if tuple(sorted(c.keep)) == kept), None)
        best = advice.keeps[0]
        if chosen is None or chosen.value >= best.value:
            return []
        return [CostlyDecision(seat, turn, say("kept {keep} ({points:,})", keep=format_dice(chosen.keep), points=chosen.points),
                               say("keeping {keep} was worth {value:,.0f}", keep=format_dice(best.keep), value=best.value),
                               best.value - chosen.value)]
    if advice.bank is not None and advice.throw_on is not None and state.phase == "choose":
        dice = DICE_WORDS[advice.dice]
        if kind == "banked" and advice.throw_on > advice.bank:
            return [CostlyDecision(seat, turn, say("banked {points:,} with {dice} left", points=state.turn_points, dice=dice),
                                   say("throwing on was worth {value:,.0f}", value=advice.throw_on),
                                   advice.throw_on - advice.bank)]
        if kind == "rolled" and advice.bank > advice.throw_on:
            return [CostlyDecision(seat, turn, say("threw {dice} holding {points:,}", dice=dice, points=state.turn_points),
                                   say("banking was worth {value:,.0f}", value=advice.bank), advice.bank - advice.throw_on)]
    if advice.build is not None and advice.fresh is not None:
        if kind == "built" and advice.fresh > advice.build:
            return [CostlyDecision(seat, turn, say("built on the offer"),
                                   say("six fresh dice were worth {value:,.0f}", value=advice.fresh), advice.fresh - advice.build)]
        if kind == "rolled" and advice.build > advice.fresh:
            return [CostlyDecision(seat, turn, say("threw six fresh dice"),
                                   say("building on the offer was worth {value:,.0f}", value=advice.build),
                                   advice.build - advice.fresh)]
    return []
