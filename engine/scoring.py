"""What dice set aside from one throw are worth, and the odds of a farkle.

There are only 923 multisets of one to six dice, so each rule set gets a table of every
reading once (the first time it is used) and every later question is a dictionary look-up.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Iterable

from engine.dice import FACES, MAX_DICE, Dice, format_dice, parse_dice
from engine.errors import IllegalAction
from engine.words import Words, as_words, listed, say, say_n
from engine.rules import Rules

__all__ = [
    "Part",
    "ScoringOption",
    "ChartLine",
    "score",
    "best_score",
    "scoring_options",
    "scoring_dice",
    "farkle_chance",
    "scoring_chart",
    "breakdown",
]

_OF_A_KIND = {4: say("Four of a kind"), 5: say("Five of a kind"), 6: say("Six of a kind")}


@dataclass(frozen=True)
class Part:
    """One scoring combination inside a keep: ``Part(say("three {face}s", face=3), 300)``."""

    label: Words
    points: int

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> Words:
        """``three 3s 300``: the dice and what they bring."""
        return say("{dice} {points:,}", dice=self.label, points=self.points)


@dataclass(frozen=True)
class ScoringOption:
    """A legal set of dice to set aside from a throw, and what it brings."""

    keep: Dice
    points: int
    dice_left: int
    breakdown: Words
    """``three 3s 300 + 1 100``: English, and the phrases a screen translates (``tr_words``)."""

    @property
    def hot_dice(self) -> bool:
        """Every die of the throw scores: the player may throw all six again."""
        return self.dice_left == 0


@dataclass(frozen=True)
class ChartLine:
    """One line of a scoring chart: what to throw and what it is worth."""

    combination: str
    points: str


Reading = tuple[int, tuple[Part, ...]]


class _ScoreTable:
    """Every multiset of one to six dice, read under one rule set."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.readings: dict[Dice, Reading | None] = {}
        self.best: dict[Dice, int] = {}
        for size in range(1, MAX_DICE + 1):
            for dice in combinations_with_replacement(FACES, size):
                self.readings[dice] = _read(dice, rules)
        for dice in self.readings:
            self.best[dice] = max(
                (reading[0] for sub in _sub_multisets(dice) if (reading := self.readings[sub])),
                default=0,
            )


def _table(rules: Rules) -> _ScoreTable:
    """The table for these rules, kept in their memo (hashing a rule set on every score costs more than scoring)."""
    cached: _ScoreTable | None = rules.memo.get("score_table")
    if cached is None:
        cached = rules.memo["score_table"] = _build_table(rules)
    return cached


@lru_cache(maxsize=32)
def _build_table(rules: Rules) -> _ScoreTable:
    return _ScoreTable(rules)


def _sub_multisets(dice: Dice) -> Iterable[Dice]:
    """Every non-empty sub-multiset of ``dice``, each once."""
    counts = sorted(Counter(dice).items())
    for taken in product(*(range(count + 1) for _, count in counts)):
        sub = tuple(face for (face, _), n in zip(counts, taken) for _ in range(n))
        if sub:
            yield sub


def _set_value(face: int, size: int, rules: Rules) -> int | None:
    """Points for ``size`` dice of one face taken as one set, or None if no such set exists."""
    triple = rules.three_ones if face == 1 else face * 100
    if size == 3:
        return triple
    model = rules.n_of_a_kind
    if model == "fixed":
        return {4: 1000, 5: 2000, 6: 3000}[size]
    if model == "double":
        return triple * (1 << (size - 3))
    if model == "multiply":
        return triple * (size - 2)
    return None


def _read_face(face: int, count: int, rules: Rules) -> Reading | None:
    """Best reading of ``count`` dice of one face using every die, or None."""
    if count == 0:
        return (0, ())
    best: Reading | None = None
    single = {1: rules.single_one, 5: rules.single_five}.get(face)
    choices: list[tuple[int, Part]] = []
    if single is not None:
        choices.append((1, Part(as_words(str(face)), single)))
    for size in range(3, count + 1):
        value = _set_value(face, size, rules)
        if value is not None:
            choices.append((size, Part(_set_label(face, size), value)))
    for used, part in choices:
        rest = _read_face(face, count - used, rules)
        if rest is not None:
            candidate = (part.points + rest[0], (part, *rest[1]))
            if best is None or candidate[0] > best[0]:
                best = candidate
    return best


def _set_label(face: int, size: int) -> Words:
    """``three 3s``: a whole phrase per size, so a language words each count with its own noun form."""
    if size == 3:
        return say("three {face}s", face=face)
    if size == 4:
        return say("four {face}s", face=face)
    if size == 5:
        return say("five {face}s", face=face)
    return say("six {face}s", face=face)


def _read(dice: Dice, rules: Rules) -> Reading | None:
    """The best reading of a keep in which every die scores, or None."""
    counts = Counter(dice)
    best: Reading | None = None
    total, parts = 0, list[Part]()
    for face in sorted(counts):
        reading = _read_face(face, counts[face], rules)
        if reading is None:
            break
        total += reading[0]
        parts.extend(reading[1])
    else:
        best = (total, tuple(sorted(parts, key=lambda part: -part.points)))
    if len(dice) == MAX_DICE:
        for whole in _six_dice_readings(counts, rules):
            if best is None or whole[0] > best[0]:
                best = whole
    return best


def _six_dice_readings(counts: Counter[int], rules: Rules) -> Iterable[Reading]:
    shape = sorted(counts.values())
    if shape == [1] * 6 and rules.straight is not None:
        yield (rules.straight, (Part(say("straight"), rules.straight),))
    if shape == [2, 2, 2] and rules.three_pairs is not None:
        yield (rules.three_pairs, (Part(say("three pairs"), rules.three_pairs),))
    if shape == [3, 3] and rules.two_triplets is not None:
        yield (rules.two_triplets, (Part(say("two triplets"), rules.two_triplets),))
    if shape == [2, 4] and rules.four_kind_with_pair is not None:
        points = rules.four_kind_with_pair
        yield (points, (Part(say("four of a kind and a pair"), points),))


def score(keep: str | Iterable[int], rules: Rules) -> int:
    """Points for dice set aside from one throw; every die must score.

    >>> score("3 3 3 1 5", Rules.preset("house"))
    450
    """
    table = _table(rules)
    dice = _canonical(keep)
    reading = table.readings.get(dice)
    if reading is None:
        dice = parse_dice(keep if isinstance(keep, str) else dice)
        reading = table.readings[dice]
        if reading is None:
            raise IllegalAction(_not_scoring_message(dice, table))
    return reading[0]


def breakdown(keep: Dice, rules: Rules) -> Words:
    """How a keep scores, as a person reads it: ``"three 3s 300 + 1 100 + 5 50"``."""
    reading = _table(rules).readings.get(keep)
    if reading is None:
        score(keep, rules)  # raises the player's message
        raise AssertionError("unreachable")
    return _listed(reading[1])


def _listed(parts: Iterable[Part]) -> Words:
    """The parts of a keep one after another: ``three 3s 300 + 1 100``."""
    return listed([part.describe() for part in parts], " + ")


def best_score(roll: str | Iterable[int], rules: Rules) -> int:
    """The most a throw can bring if the player sets aside its best dice; 0 is a farkle.

    >>> best_score("2 3 4 6 6 2", Rules.preset("house"))
    0
    """
    best: int | None = _table(rules).best.get(_canonical(roll))
    if best is None:
        return _table(rules).best[parse_dice(roll)]
    return best


def scoring_options(roll: str | Iterable[int], rules: Rules) -> tuple[ScoringOption, ...]:
    """Every distinct legal keep from a throw, best first (most points, then most dice left)."""
    return _options(parse_dice(roll), rules)


@lru_cache(maxsize=4096)
def _options(roll: Dice, rules: Rules) -> tuple[ScoringOption, ...]:
    readings = _table(rules).readings
    options = []
    for keep in _sub_multisets(roll):
        reading = readings[keep]
        if reading is not None:
            options.append(ScoringOption(keep, reading[0], len(roll) - len(keep), _listed(reading[1])))
    options.sort(key=lambda option: (-option.points, -option.dice_left, option.keep))
    return tuple(options)


def scoring_dice(roll: str | Iterable[int], rules: Rules) -> Dice:
    """The dice of a throw that some legal keep can use (all of them for hot dice)."""
    most: Counter[int] = Counter()
    for option in scoring_options(roll, rules):
        most |= Counter(option.keep)
    return tuple(sorted(most.elements()))


def farkle_chance(dice: int, rules: Rules) -> Fraction:
    """Exact chance that a throw of ``dice`` dice has nothing to set aside.

    >>> farkle_chance(6, Rules.preset("house"))
    Fraction(5, 216)
    """
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
        from engine.errors import InvalidInput

        raise InvalidInput(say("{dice!r} dice: a throw is of 1 to {most} dice.", dice=dice, most=MAX_DICE))
    best = _table(rules).best
    farkles = sum(
        _arrangements(roll) for roll in combinations_with_replacement(FACES, dice) if best[roll] == 0
    )
    return Fraction(farkles, 6**dice)


def _arrangements(dice: Dice) -> int:
    """How many ordered throws show this multiset."""
    ways = math.factorial(len(dice))
    for count in Counter(dice).values():
        ways //= math.factorial(count)
    return ways


def scoring_chart(rules: Rules) -> tuple[ChartLine, ...]:
    """The scoring chart of a rule set, as a table would print it."""
    lines = [
        ChartLine(say("Each 1"), _points(rules.single_one)),
        ChartLine(say("Each 5"), _points(rules.single_five)),
        ChartLine(say("Three 1s"), _points(rules.three_ones)),
    ]
    lines += [ChartLine(say("Three {face}s", face=face), _points(face * 100)) for face in range(2, 7)]
    model = rules.n_of_a_kind
    if model == "fixed":
        lines += [ChartLine(_OF_A_KIND[n], _points(_set_value(2, n, rules) or 0)) for n in (4, 5, 6)]
    elif model == "double":
        lines += [ChartLine(_OF_A_KIND[n], say("three of a kind x{times}", times=2 ** (n - 3))) for n in (4, 5, 6)]
    elif model == "multiply":
        lines += [ChartLine(_OF_A_KIND[n], say("three of a kind x{times}", times=n - 2)) for n in (4, 5, 6)]
    else:
        lines.append(ChartLine(say("Four or more of a kind"), say("a triple; extra 1s and 5s count singly")))
    for label, value in (
        (say("Straight 1-2-3-4-5-6"), rules.straight),
        (say("Three pairs"), rules.three_pairs),
        (say("Two triplets"), rules.two_triplets),
        (say("Four of a kind and a pair"), rules.four_kind_with_pair),
    ):
        if value is not None:
            lines.append(ChartLine(label, _points(value)))
    return tuple(lines)


def _points(points: int) -> Words:
    """Points as the chart shows them (grouped: 1,000), in the reader's language."""
    return say("{points:,}", points=points)


def _canonical(dice: str | Iterable[int]) -> Dice:
    """A sorted tuple for the fast look-up; anything odd falls through to :func:`parse_dice`."""
    if isinstance(dice, str):
        return parse_dice(dice)
    try:
        return tuple(sorted(dice))
    except TypeError:
        return ()


def _not_scoring_message(keep: Dice, table: _ScoreTable) -> Words:
    """Name the dice that cannot score: the keep minus its largest scoring part."""
    scoring: Dice = max(
        (sub for sub in _sub_multisets(keep) if table.readings[sub] is not None),
        key=len,
        default=(),
    )
    idle = tuple(sorted((Counter(keep) - Counter(scoring)).elements()))
    return say_n("{idle} does not score in {keep}: set aside only dice that score.",
                 "{idle} do not score in {keep}: set aside only dice that score.", len(idle),
                 idle=format_dice(idle), keep=format_dice(keep))
