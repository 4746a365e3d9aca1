"""A tournament's format, and the rounds it plans for the players who signed up.

A format is written for a full event (the house tournament's 40 players); most events
are smaller, so the plan scales it to the players there are:

* Players sit at tables of the round's size or one less, as even as possible (a lone
  table of 5 only for exactly 5 players).
* A cut of *best k per table* scales by itself with the number of tables. A cut of
  *best N totals overall* keeps the share of the field the format has at full size (the
  house tournament's 32 of 40 is 80 %: 23 players keep 18), rounded to nearest, at least
  2, and lowered when the count could not be seated at the next round's tables (5
  players for tables of 4 become 4).
* As soon as the players left fit at one table, the next round is the final.

>>> for plan in TournamentFormat.house().plan(23):
...     print(plan.describe())
Round 1: 23 players, 5 tables of 4 and 1 table of 3, house rules; the 18 best totals over all tables go on.
Round 2: 18 players, 3 tables of 4 and 2 tables of 3, progressive rules; places 1 to 2 of each table go on.
Round 3: 10 players, 1 table of 4 and 2 tables of 3, house rules; each table's winner goes on.
Final: 3 players, 1 table of 3, house rules; the winner is the champion.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass
from typing import Any, Literal

from engine.errors import IllegalAction, InvalidInput
from engine.game import MAX_PLAYERS, MIN_PLAYERS
from engine.rules import Rules, preset_words
from engine.words import Words, all_of, say, say_n

__all__ = ["CutKind", "Cut", "RoundSpec", "RoundPlan", "TournamentFormat", "table_sizes"]

CutKind = Literal["overall", "per_table", "final"]
_CUT_KINDS: tuple[CutKind, ...] = ("overall", "per_table", "final")


@dataclass(frozen=True)
class Cut:
    """Who goes on after a round: best ``count`` totals overall, best ``count`` of each table, or the final's winner."""

    kind: CutKind
    count: int = 1

    @classmethod
    def overall(cls, count: int) -> Cut:
        return cls("overall", count)

    @classmethod
    def per_table(cls, count: int) -> Cut:
        return cls("per_table", count)

    @classmethod
    def table_winners(cls) -> Cut:
        return cls("per_table", 1)

    @classmethod
    def final(cls) -> Cut:
        return cls("final", 1)

    def advancing(self, sizes: Sequence[int]) -> int:
        """How many go on from tables of these sizes (1 from the final: the champion).

        >>> Cut.per_table(2).advancing((4, 4, 3)), Cut.overall(7).advancing((4, 3)), Cut.final().advancing((4,))
        (6, 7, 1)
        """
        if self.kind == "final":
            return 1
        if self.kind == "overall":
            return min(self.count, sum(sizes))
        return sum(min(self.count, size) for size in sizes)

    def describe(self) -> Words:
        if self.kind == "overall":
            return say("the {count} best totals over all tables go on", count=self.count)
        if self.kind == "final":
            return say("the winner is the champion")
        if self.count == 1:
            return say("each table's winner goes on")
        return say("places 1 to {count} of each table go on", count=self.count)

    def to_list(self) -> list[Any]:
        """``[kind, count]``, as formats and seat draws keep it in the log."""
        return [self.kind, self.count]

    @classmethod
    def from_list(cls, value: Sequence[Any]) -> Cut:
        kind, count = value
        if kind not in _CUT_KINDS:
            raise InvalidInput(say("{kind!r} is not a kind of cut: {names}.", kind=kind, names=', '.join(_CUT_KINDS)))
        return cls(kind, int(count))


@dataclass(frozen=True)
class RoundSpec:
    """One round of a format: its rules preset, table size and cut."""

    rules: str
    cut: Cut
    table_size: int = 4
    spread: bool = True
    """Keep apart, where possible, players who shared a table in the round before."""
    switch_to: str | None = None
    """A preset the organizer may switch the tables to during the game (the final)."""

    def __post_init__(self) -> None:
        Rules.preset(self.rules)
        if self.switch_to is not None:
            Rules.preset(self.switch_to)
        if not MIN_PLAYERS <= self.table_size <= MAX_PLAYERS:
            raise InvalidInput(say("Tables seat {min_players} to {max_players} players, not {table_size}.",
                                   min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, table_size=self.table_size))
        if self.cut.kind not in _CUT_KINDS or self.cut.count < 1:
            raise InvalidInput(say("{cut!r} is not a cut.", cut=self.cut))


@dataclass(frozen=True)
class RoundPlan:
    """A round as planned or played, shown to the room before it starts."""

    number: int
    name: str
    rules: str
    players: int
    table_sizes: tuple[int, ...]
    cut: Cut
    advancing: int
    """How many go on (1 for the final: the champion)."""
    spec_index: int
    """Which round of the format this is (the final is always the last)."""

    @property
    def is_final(self) -> bool:
        return self.cut.kind == "final"

    def describe(self) -> Words:
        tables = Counter(self.table_sizes)
        seating = all_of([say_n("{count} table of {size}", "{count} tables of {size}", count, count=count, size=size)
                          for size, count in sorted(tables.items(), reverse=True)])
        return say("{round}: {players} players, {seating}, {rules} rules; {cut}.", round=self.name, players=self.players,
                   seating=seating, rules=preset_words(self.rules), cut=self.cut.describe())


def table_sizes(players: int, size: int) -> tuple[int, ...]:
    """Tables of ``size`` or ``size - 1`` as even as possible, biggest first.

    >>> table_sizes(23, 4), table_sizes(10, 4), table_sizes(5, 4)
    ((4, 4, 4, 4, 4, 3), (4, 3, 3), (5,))
    """
    count, small, extra = _table_shape(players, size)
    return (small + 1,) * extra + (small,) * (count - extra)


def _table_shape(players: int, size: int) -> tuple[int, int, int]:
    """(tables, players at the smaller tables, how many tables have one more)."""
    if players < MIN_PLAYERS:
        raise IllegalAction(
            say_n("{players} player cannot make a table: a game needs {min_players}.",
                  "{players} players cannot make a table: a game needs {min_players}.", players, players=players,
                  min_players=MIN_PLAYERS)
        )
    count = -(-players // size)
    while count > 1 and players // count < size - 1:
        count -= 1
    return count, players // count, players % count


@dataclass(frozen=True)
class TournamentFormat:
    """Player cap and rounds; the last round is the final (one table)."""

    name: str
    cap: int
    rounds: tuple[RoundSpec, ...]
    check_plans: InitVar[bool] = True
    """Refuse a format that would bring too many players to the final, for any number of
    sign-ups. A format read back from a log was checked when it was put in place, and a
    later planner must not refuse an old log: the log is read with ``False``."""

    def __post_init__(self, check_plans: bool) -> None:
        if not 2 <= self.cap <= 10_000:
            raise InvalidInput(say("A player cap of {cap} is not possible: 2 to 10,000.", cap=self.cap))
        if not self.rounds or self.rounds[-1].cut.kind != "final":
            raise InvalidInput(say("A format ends with a final round."))
        if any(spec.cut.kind == "final" for spec in self.rounds[:-1]):
            raise InvalidInput(say("Only the last round of a format can be the final."))
        if not check_plans:
            return
        for players in range(2, self.cap + 1):
            plans = self.plan(players)
            if plans[-1].players > self.rounds[-1].table_size:
                raise InvalidInput(
                    say("With {players} players this format brings {finalists} to a final table of {table_size}: "
                        "cut more before the final.",
                        players=players, finalists=plans[-1].players, table_size=self.rounds[-1].table_size)
                )

    @classmethod
    def house(cls, *, check_plans: bool = True) -> TournamentFormat:
        """The Tournament's event (engine/RULES.md §5.2): 40 players; house to top 32; progressive, 2 per table;
        house, winners; final."""
        return cls(
            "House tournament",
            40,
            (
                RoundSpec("house", Cut.overall(32)),
                RoundSpec("progressive", Cut.per_table(2)),
                RoundSpec("house", Cut.table_winners()),
                RoundSpec("house", Cut.final(), switch_to="progressive"),
            ),
            check_plans,
        )

    @property
    def final_size(self) -> int:
        return self.rounds[-1].table_size

    def round_name(self, number: int, spec_index: int) -> Words:
        return say("Final") if spec_index == len(self.rounds) - 1 else say("Round {number}", number=number)

    def nominal_players(self, spec_index: int) -> int:
        """Players entering round ``spec_index`` when the event is full: the base for scaling."""
        players = self.cap
        for index in range(spec_index):
            players = self._advancing(index, players, scale=False)
        return players

    def scaled_cut(self, spec_index: int, players: int) -> Cut:
        """The round's cut for ``players`` entrants (see the module docstring)."""
        spec = self.rounds[spec_index]
        if spec.cut.kind != "overall":
            return spec.cut
        nominal = self.nominal_players(spec_index)
        count = (2 * players * spec.cut.count + nominal) // (2 * nominal)
        count = max(2, min(count, spec.cut.count, players))
        next_size = self.rounds[min(spec_index + 1, len(self.rounds) - 1)].table_size
        while count > 2 and count > self.final_size and not self._seatable(count, next_size):
            count -= 1
        return Cut.overall(count)

    def plan(self, players: int, first_number: int = 1, spec_index: int = 0) -> tuple[RoundPlan, ...]:
        """The rounds ahead for ``players`` entrants, from round ``first_number`` on."""
        plans: list[RoundPlan] = []
        number = first_number
        while True:
            if players <= self.final_size or spec_index >= len(self.rounds) - 1:
                spec_index = len(self.rounds) - 1
            spec = self.rounds[spec_index]
            cut = self.scaled_cut(spec_index, players)
            sizes = (players,) if cut.kind == "final" else table_sizes(players, spec.table_size)
            advancing = self._advancing(spec_index, players)
            plans.append(
                RoundPlan(number, self.round_name(number, spec_index), spec.rules, players, sizes, cut, advancing, spec_index)
            )
            if cut.kind == "final":
                return tuple(plans)
            players, number, spec_index = advancing, number + 1, spec_index + 1

    def _advancing(self, spec_index: int, players: int, scale: bool = True) -> int:
        spec = self.rounds[spec_index]
        if spec.cut.kind == "per_table":
            return spec.cut.advancing(table_sizes(players, spec.table_size))
        if spec.cut.kind == "overall" and scale:
            return self.scaled_cut(spec_index, players).count
        return spec.cut.advancing((players,))

    @staticmethod
    def _seatable(players: int, size: int) -> bool:
        _, small, extra = _table_shape(players, size)
        return small >= size - 1 and small + (1 if extra else 0) <= size

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cap": self.cap,
            "rounds": [
                {
                    "rules": spec.rules,
                    "cut": spec.cut.to_list(),
                    "table_size": spec.table_size,
                    "spread": spec.spread,
                    "switch_to": spec.switch_to,
                }
                for spec in self.rounds
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, check_plans: bool = True) -> TournamentFormat:
        try:
            rounds = tuple(
                RoundSpec(
                    spec["rules"],
                    Cut(spec["cut"][0], int(spec["cut"][1])),
                    int(spec["table_size"]),
                    bool(spec["spread"]),
                    spec["switch_to"],
                )
                for spec in data["rounds"]
            )
            return cls(str(data["name"]), int(data["cap"]), rounds, check_plans)
        except (KeyError, TypeError, IndexError) as error:
            raise InvalidInput(say("The tournament format {data!r} is damaged: {error}.",
                                   data=dict(data), error=error)) from error
