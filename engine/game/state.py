"""A game's state at one moment, and :func:`apply`: the state one event leads to.

The state after ``n`` events is a fold of :func:`apply` over them. Each step costs the
same however long the game has run: the parts that grow (the turns played, the throws
of a turn, the roll-off rounds) are :class:`~engine.game.trail.Trail` values that share
their past with the state before, and a step copies only the fields of one state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from engine.dice import MAX_DICE, Dice, format_dice, missing_from
from engine.errors import IllegalAction, InvalidInput
from engine.events import (
    Banked,
    Built,
    EntrySwitched,
    Event,
    GameStarted,
    Kept,
    PointsBanked,
    PointsFarkled,
    Rolled,
    RolledOff,
    RulesChanged,
)
from engine.frozen import evolved
from engine.game.points import passed_refusal, points_refusal
from engine.game.trail import Trail
from engine.game.farkle_words import farkle_words
from engine.rules import Rules
from engine.scoring import best_score, score
from engine.words import Words, all_of, say, say_n

__all__ = [
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
    "start",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 8
_NUMBER_WORDS = {1: say("ONE"), 2: say("TWO"), 3: say("THREE"), 4: say("FOUR"), 5: say("FIVE"), 6: say("SIX")}

Phase = Literal["throw", "keep", "choose", "roll_off", "over"]
"""What the table waits for: a throw, dice set aside, roll or bank, a roll-off, nothing."""


@dataclass(frozen=True)
class Offer:
    """Points and dice the next player may build on (progressive) or steal (steal)."""

    points: int
    dice: int

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> Words:
        """The offer as the table says it: "1,500 with TWO dice"."""
        return say_n("{points:,} with {number} die", "{points:,} with {number} dice", self.dice, points=self.points,
                     number=_NUMBER_WORDS[self.dice])


@dataclass(frozen=True)
class Throw:
    """A throw in the current turn and the dice set aside from it (empty until chosen)."""

    dice: Dice
    kept: Dice = ()


@dataclass(frozen=True)
class TurnRecord:
    """How one turn ended, for the turn-by-turn history."""

    seat: int
    throws: tuple[Throw, ...]
    outcome: Literal["banked", "farkled"]
    points: int
    """Points banked, or the turn points lost to the farkle."""
    penalty: int
    total: int
    built_on: Offer | None = None


@dataclass(frozen=True)
class Notice:
    """Something the table should be told plainly: a farkle, hot dice, the final round..."""

    kind: Literal[
        "farkle", "hot_dice", "banked", "on_board", "offer", "built",
        "final_round", "tie", "roll_off", "won", "rules", "undone", "entry",
    ]
    text: str


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one moment; produced only by :func:`apply`."""

    players: tuple[str, ...]
    rules: Rules
    scores: tuple[int, ...]
    on_board: tuple[bool, ...]
    farkle_streak: tuple[int, ...]
    current: int
    turn_points: int = 0
    dice_in_hand: int = MAX_DICE
    offer: Offer | None = None
    building: bool = False
    throws: Trail[Throw] = Trail()
    """The throws of the turn being played (reads as a tuple)."""
    points_before_throw: int = 0
    pending_rules: Rules | None = None
    final_round: bool = False
    last_turns: tuple[int, ...] = ()
    tied: tuple[int, ...] = ()
    winner: int | None = None
    roll_offs: Trail[tuple[tuple[int, int], ...]] = Trail()
    """Each round of the roll-off for the win: (seat, face) pairs (reads as a tuple)."""
    history: Trail[TurnRecord] = Trail()
    """Every turn ended, first to last (reads as a tuple)."""
    notices: tuple[Notice, ...] = ()
    points_only: bool = False
    """Turns are entered as their banked points or a farkle, not die by die."""

    @property
    def phase(self) -> Phase:
        if self.winner is not None:
            return "over"
        if self.tied:
            return "roll_off"
        if not self.throws:
            return "throw"
        return "keep" if not self.throws[-1].kept else "choose"

    @property
    def open_offer(self) -> Offer | None:
        """The offer the player to throw may build on now (None: none, or already built on)."""
        return self.offer if self.phase == "throw" and not self.building else None

    @property
    def dice_to_throw(self) -> int | None:
        """How many dice the next throw must have, or None when no throw is allowed now."""
        phase = self.phase
        if phase == "throw":
            return self.offer.dice if self.building and self.offer else MAX_DICE
        if phase == "choose":
            return self.dice_in_hand
        return None

    @property
    def last_throw(self) -> Dice | None:
        return self.throws[-1].dice if self.throws else None

    @property
    def kept(self) -> Dice:
        return self.throws[-1].kept if self.throws else ()

    @property
    def hot_dice(self) -> bool:
        """Every die of the last throw is set aside: six fresh dice may be thrown."""
        return bool(self.throws) and len(self.kept) == len(self.throws[-1].dice)

    def name(self, seat: int) -> str:
        return self.players[seat]


def start(event: GameStarted) -> GameState:
    """The state of a game just started; :class:`InvalidInput` if it cannot start so."""
    players = tuple(name.strip() if isinstance(name, str) else name for name in event.players)
    for name in players:
        if not isinstance(name, str) or not name:
            raise InvalidInput(say("Every player needs a name; got {players!r}.", players=list(event.players)))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidInput(say("{count} players entered: a game has {least} to {most} players.", count=len(players),
                               least=MIN_PLAYERS, most=MAX_PLAYERS))
    seen = Counter(name.casefold() for name in players)
    twice = [name for name in players if seen[name.casefold()] > 1]
    if twice:
        raise InvalidInput(say("{name!r} is entered twice: give each player a different name.", name=twice[0]))
    if isinstance(event.first, bool) or not isinstance(event.first, int) or not 0 <= event.first < len(players):
        raise InvalidInput(say("Seat {seat!r} cannot start: seats are 0 to {last}.", seat=event.first, last=len(players) - 1))
    count = len(players)
    return GameState(
        players=players,
        rules=event.rules,
        scores=(0,) * count,
        on_board=(event.rules.entry_threshold == 0,) * count,
        farkle_streak=(0,) * count,
        current=event.first,
        points_only=bool(event.points_only),
    )


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``; raises :class:`IllegalAction` (state untouched) if not allowed."""
    if isinstance(event, Rolled):
        return _roll(state, event.dice)
    if isinstance(event, Kept):
        return _keep(state, event.dice)
    if isinstance(event, Banked):
        return _bank(state)
    if isinstance(event, Built):
        return _build(state)
    if isinstance(event, RulesChanged):
        return _change_rules(state, event.rules)
    if isinstance(event, RolledOff):
        return _roll_off(state, dict(event.faces))
    if isinstance(event, PointsBanked):
        return _bank_points(state, event.points, event.passed)
    if isinstance(event, PointsFarkled):
        return _farkle_points(state)
    if isinstance(event, EntrySwitched):
        return _switch_entry(state, event.points_only)
    raise InvalidInput(say("A game is started once; {event!r} cannot come later.", event=event))


def _playable(state: GameState) -> None:
    if state.winner is not None:
        raise IllegalAction(say("The game is over: {name} won. Undo to change it, or start a new game.",
                                name=state.name(state.winner)))
    if state.tied:
        raise IllegalAction(say("{names} are tied for the win: enter their roll-off dice first.",
                                names=_names(state, state.tied)))


def _by_dice(state: GameState) -> None:
    if state.points_only:
        raise IllegalAction(_points_only(state.name(state.current)))


def _points_only(who: str) -> Words:
    return say("This game is kept in points only: enter {who}'s bank or a farkle, "
               "or switch to entering dice at the start of a turn.", who=who)


def _roll(state: GameState, dice: Dice) -> GameState:
    _playable(state)
    _by_dice(state)
    phase = state.phase
    if phase == "keep":
        raise IllegalAction(say("{who} must set aside at least one scoring die from {dice} before throwing again.",
                                who=state.name(state.current), dice=format_dice(state.throws[-1].dice)))
    wanted = state.dice_to_throw
    if len(dice) != wanted:
        offer = state.open_offer
        said = say_n("{dice} is {count} die, but {who} throws {wanted} now.",
                     "{dice} is {count} dice, but {who} throws {wanted} now.", len(dice), dice=format_dice(dice),
                     count=len(dice), who=state.name(state.current), wanted=wanted)
        if offer is not None and len(dice) == offer.dice:
            said = say("{said} To throw the {passed} passed, choose Build first.", said=said, passed=offer.dice)
        raise IllegalAction(said)
    fresh = phase == "throw" and not state.building
    if best_score(dice, state.rules) == 0:
        if fresh:
            state = evolved(state, offer=None, turn_points=0, points_before_throw=0)
        return _farkle(state, dice)
    if fresh:
        return evolved(
            state, offer=None, turn_points=0, throws=state.throws.then(Throw(dice)), points_before_throw=0,
            dice_in_hand=len(dice), notices=(),
        )
    return evolved(
        state,
        throws=state.throws.then(Throw(dice)),
        points_before_throw=state.turn_points,
        dice_in_hand=len(dice),
        notices=(),
    )


def _keep(state: GameState, dice: Dice) -> GameState:
    _playable(state)
    _by_dice(state)
    if not state.throws:
        raise IllegalAction(say("{who} has not thrown yet: enter the throw first.", who=state.name(state.current)))
    throw = state.throws[-1]
    absent = missing_from(dice, throw.dice)
    if absent:
        raise IllegalAction(say_n("{absent} was not thrown: the throw was {dice}.",
                                  "{absent} were not thrown: the throw was {dice}.", len(absent),
                                  absent=format_dice(absent), dice=format_dice(throw.dice)))
    points = score(dice, state.rules)
    left = len(throw.dice) - len(dice)
    notices: tuple[Notice, ...] = ()
    turn_points = state.points_before_throw + points
    if left == 0:
        notices = (Notice("hot_dice", say("Hot dice! All six dice scored: {who} may throw six again on {points:,}.",
                                          who=state.name(state.current), points=turn_points)),)
    return evolved(
        state,
        throws=state.throws.but_last(Throw(throw.dice, dice)),
        turn_points=turn_points,
        dice_in_hand=left or MAX_DICE,
        notices=notices,
    )


def bank_refusal(state: GameState) -> Words | None:
    """Why the current player may not bank now, or None if they may."""
    who = state.name(state.current)
    if state.winner is not None or state.tied:
        try:
            _playable(state)
        except IllegalAction as refusal:
            return refusal.words
    if state.points_only:
        return _points_only(who)
    if not state.throws:
        offer = state.open_offer
        if offer is not None:
            return say("{who} has nothing to bank yet: build on {points:,}, or throw six fresh dice.", who=who,
                       points=offer.points)
        return say("{who} has nothing to bank yet: throw the dice first.", who=who)
    if not state.kept:
        return say("{who} must set aside scoring dice from {dice} before banking.", who=who,
                   dice=format_dice(state.throws[-1].dice))
    if state.hot_dice and state.rules.must_roll_after_hot_dice:
        return say("All six dice scored: under these rules the player must throw again.")
    return _short_bank(state)


def _short_bank(state: GameState) -> Words | None:
    """Why the turn's points are too few to bank (getting on the board, the minimum bank), or None."""
    who, points = state.name(state.current), state.turn_points
    threshold, minimum, on_board = state.rules.entry_threshold, state.rules.minimum_bank, state.on_board[state.current]
    if not on_board and points < threshold:
        return say("{who} needs {threshold:,} in one turn to get on the board: {points:,} is not enough (a turn "
                   "stopped short of it scores nothing: enter a farkle).", who=who, threshold=threshold, points=points) \
            if state.points_only else say("{who} needs {threshold:,} in one turn to get on the board: {points:,} is "
                                          "not enough, throw again.", who=who, threshold=threshold, points=points)
    if on_board and points < minimum:
        return say("{who} is on the board: a bank needs at least {minimum:,}; this turn has {points:,} (a turn "
                   "stopped short of it scores nothing: enter a farkle).", who=who, minimum=minimum, points=points) \
            if state.points_only else say("{who} is on the board: a bank needs at least {minimum:,}; this turn has "
                                          "{points:,}. Throw on.", who=who, minimum=minimum, points=points)
    return None


def _bank(state: GameState) -> GameState:
    refusal = bank_refusal(state)
    if refusal:
        raise IllegalAction(refusal)
    return _banked(state, state.dice_in_hand)


def _bank_points(state: GameState, points: int, passed: int | None) -> GameState:
    """A turn entered as its bank: every rule the points alone can break is checked."""
    _playable(state)
    who = state.name(state.current)
    if not state.points_only:
        raise IllegalAction(say("This game is entered die by die: enter {who}'s throw, or switch to points only first.",
                                who=who))
    built_on = state.offer.points if state.building and state.offer else None
    refusal = points_refusal(who, points, state.rules, built_on) or passed_refusal(passed, state.rules)
    state = evolved(state, turn_points=points)
    refusal = refusal or _short_bank(state)
    if refusal:
        raise IllegalAction(refusal)
    return _banked(state, passed)


def _farkle_points(state: GameState) -> GameState:
    _playable(state)
    if not state.points_only:
        raise IllegalAction(say("This game is entered die by die: enter {who}'s throw; a throw with nothing to set "
                                "aside is the farkle.", who=state.name(state.current)))
    return _farkle(state, None)


def _switch_entry(state: GameState, points_only: bool) -> GameState:
    """Points only or die by die from the turn now starting (never halfway through a turn)."""
    _playable(state)
    who = state.name(state.current)
    if points_only == state.points_only:
        raise IllegalAction(say("This game is already entered {entry}.", entry=_ENTRY[points_only]))
    if state.throws:
        raise IllegalAction(say("{who}'s turn has begun with dice: switch to points only when {who} banks or "
                                "farkles.", who=who))
    words = say("From {who}'s turn on, turns are entered {entry}.", who=who, entry=_ENTRY[points_only])
    return evolved(state, points_only=points_only, notices=(Notice("entry", words),))


_ENTRY = {True: say("as points only (the throws are not checked)"), False: say("die by die")}


def _banked(state: GameState, passed: int | None) -> GameState:
    """The turn's points banked: the total, getting on the board, the offer, the final round."""
    seat, points = state.current, state.turn_points
    who = state.name(seat)
    total = state.scores[seat] + points
    notices = [Notice("banked", say("{who} banks {points:,}: total {total:,}.", who=who, points=points, total=total))]
    if not state.on_board[seat]:
        notices.append(Notice("on_board", say("{who} is on the board with {points:,}.", who=who, points=points)))
    wins_now = not state.final_round and total >= state.rules.target and state.rules.end_rule == "first_to_target"
    offer = Offer(points, passed) if state.rules.progressive and passed and not wins_now else None
    if offer:
        notices.append(Notice("offer", say_n("{who}: bank {points:,} with {number} die to pass.",
                                             "{who}: bank {points:,} with {number} dice to pass.", offer.dice, who=who,
                                             points=offer.points, number=_NUMBER_WORDS[offer.dice])))
    record = TurnRecord(seat, state.throws.as_tuple(), "banked", points, 0, total, _built_on(state))
    state = evolved(
        state,
        scores=_set(state.scores, seat, total),
        on_board=_set(state.on_board, seat, True),
        farkle_streak=_set(state.farkle_streak, seat, 0),
    )
    if wins_now:
        notices.append(Notice("won", say("{who} is the first to bank {target:,} and wins with {total:,}!", who=who,
                                         target=state.rules.target, total=total)))
        return evolved(_end_turn(state, record, None, "progressive", notices), winner=seat)
    if not state.final_round and total >= state.rules.target:
        count = len(state.players)
        others = tuple((seat + step) % count for step in range(1, count))
        notices.append(Notice("final_round", say("{who} reached {total:,}. Final round: last turns for {names}.",
                                                 who=who, total=total, names=_names(state, others))))
        state = evolved(state, final_round=True, last_turns=others)
    return _end_turn(state, record, offer, "progressive", notices)


def _farkle(state: GameState, dice: Dice | None) -> GameState:
    """A farkle on ``dice``, or one entered without its dice (points only)."""
    seat = state.current
    lost = state.turn_points
    streak = state.farkle_streak[seat] + 1
    penalty = 0
    if streak == 3:
        penalty = state.rules.penalty_on(state.scores[seat])
        streak = 0
    total = state.scores[seat] - penalty
    words = farkle_words(state.name(seat), dice, lost, state.rules.triple_farkle_penalty, penalty, total,
                         third=streak == 0)
    notices = [Notice("farkle", words)]
    offer = Offer(lost, len(dice)) if state.rules.steal and lost and dice else None
    if offer:
        notices.append(Notice("offer", say("Next player may steal {lost:,} by throwing the {dice} dice.", lost=lost,
                                           dice=offer.dice)))
    throws = state.throws.then(Throw(dice)) if dice else state.throws
    record = TurnRecord(seat, throws.as_tuple(), "farkled", lost, penalty, total, _built_on(state))
    state = evolved(
        state,
        scores=_set(state.scores, seat, total),
        farkle_streak=_set(state.farkle_streak, seat, streak),
    )
    return _end_turn(state, record, offer, "steal", notices)


def _built_on(state: GameState) -> Offer | None:
    return state.offer if state.building else None


def _end_turn(
    state: GameState,
    record: TurnRecord,
    offer: Offer | None,
    passing: Literal["progressive", "steal"],
    notices: list[Notice],
) -> GameState:
    """Close the turn, hand the dice on, and end the game when nobody is owed a turn."""
    last_turns = state.last_turns
    if state.final_round and record.seat in last_turns:
        last_turns = tuple(seat for seat in last_turns if seat != record.seat)
    rules = state.pending_rules or state.rules
    if offer and not getattr(rules, passing):
        offer = None
    state = evolved(
        state,
        rules=rules,
        pending_rules=None,
        current=(state.current + 1) % len(state.players),
        turn_points=0,
        dice_in_hand=MAX_DICE,
        offer=offer,
        building=False,
        throws=Trail(),
        points_before_throw=0,
        last_turns=last_turns,
        history=state.history.then(record),
    )
    if state.final_round and not last_turns:
        state = evolved(state, offer=None)
        return _decide(state, notices)
    return evolved(state, notices=tuple(notices))


def _decide(state: GameState, notices: list[Notice]) -> GameState:
    """Everybody has had their last turn: the highest total wins, or a roll-off is due."""
    top = max(state.scores)
    leaders = tuple(seat for seat, total in enumerate(state.scores) if total == top)
    if len(leaders) > 1:
        notices.append(
            Notice("tie", say("{names} are tied at {top:,}: each throws one die, highest wins.",
                              names=_names(state, leaders), top=top))
        )
        return evolved(state, tied=leaders, notices=tuple(notices))
    notices.append(Notice("won", say("{who} wins with {top:,}!", who=state.name(leaders[0]), top=top)))
    return evolved(state, winner=leaders[0], notices=tuple(notices))


def _build(state: GameState) -> GameState:
    _playable(state)
    who = state.name(state.current)
    offer = state.open_offer
    if offer is None:
        raise IllegalAction(say("There is nothing for {who} to build on: throw six fresh dice.", who=who))
    return evolved(
        state,
        building=True,
        turn_points=offer.points,
        points_before_throw=offer.points,
        dice_in_hand=offer.dice,
        notices=(Notice("built", say("{who} builds on {offer}.", who=who, offer=offer.describe())),),
    )


def _change_rules(state: GameState, rules: Rules) -> GameState:
    _playable(state)
    if state.final_round and rules.target != state.rules.target:
        raise IllegalAction(say("The final round has started: the target can no longer change."))
    if state.final_round and rules.end_rule != state.rules.end_rule:
        raise IllegalAction(say("The final round has started: how the game ends can no longer change."))
    return evolved(
        state,
        pending_rules=rules,
        notices=(Notice("rules", say("From the next turn: {rules}", rules=rules.describe())),),
    )


def _roll_off(state: GameState, faces: dict[int, int]) -> GameState:
    if not state.tied:
        raise IllegalAction(say("There is no tie for the win to roll off."))
    if set(faces) != set(state.tied):
        raise IllegalAction(say("Enter one die for each of {names}, and only for them.", names=_names(state, state.tied)))
    for seat, face in faces.items():
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise InvalidInput(say("{face!r} for {who} is not a die face: a die shows 1 to 6.", face=face,
                                    who=state.name(seat)))
    high = max(faces.values())
    still = tuple(seat for seat in state.tied if faces[seat] == high)
    round_ = tuple(sorted(faces.items()))
    state = evolved(state, roll_offs=state.roll_offs.then(round_))
    if len(still) > 1:
        notice = Notice("tie", say("{names} tied again with {high}s: throw again.", names=_names(state, still), high=high))
        return evolved(state, tied=still, notices=(notice,))
    winner = still[0]
    notice = Notice("won", say("{who} wins the roll-off with a {high} and the game with {total:,}!",
                               who=state.name(winner), high=high, total=state.scores[winner]))
    return evolved(state, tied=(), winner=winner, notices=(notice,))


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def _names(state: GameState, seats: Iterable[int]) -> str:
    names = [state.name(seat) for seat in seats]
    return all_of(names)

