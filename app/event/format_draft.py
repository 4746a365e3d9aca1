"""A tournament format as the organizer edits it: the player cap and rounds as typed.

The format editor keeps a :class:`FormatDraft` in the screen's state; :meth:`FormatDraft.build`
hands it to the engine (:class:`engine.TournamentFormat`), which refuses an impossible format
in its own words. Nothing here decides what is possible.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final, Literal

from app.event.number_entry import ORGANIZER_DIGITS, parse_number
from app.i18n import tr
from engine import Cut, InvalidInput, RoundSpec, TournamentFormat

__all__ = ["FormatDraft", "RoundDraft", "TABLE_SIZES", "OWN_FORMAT"]

TABLE_SIZES: Final = (3, 4, 5, 6)
CutChoice = Literal["overall", "per_table", "winners", "final"]
OWN_FORMAT: Final = "Own format"  # the stored name of a format made here (the event's data, in English)


@dataclass
class RoundDraft:
    """One round of a format as the organizer edits it (the count as typed)."""

    rules: str = "house"
    table_size: int = 4
    cut: CutChoice = "overall"
    count: str = ""
    """Best N overall, or places per table; unused for table winners and the final."""
    switch_to: str = ""
    """The final only: a preset the organizer may switch the table to ("" for none)."""
    spread: bool = True

    @classmethod
    def of(cls, spec: RoundSpec) -> RoundDraft:
        cut: CutChoice
        if spec.cut.kind == "final":
            cut = "final"
        elif spec.cut.kind == "per_table" and spec.cut.count == 1:
            cut = "winners"
        else:
            cut = spec.cut.kind
        count = "" if cut in ("winners", "final") else str(spec.cut.count)
        return cls(spec.rules, spec.table_size, cut, count, spec.switch_to or "", spec.spread)

    def spec(self, number: int) -> RoundSpec:
        """The engine's round (its checks and messages); ``number`` names it in a refusal."""
        if self.cut == "final":
            return RoundSpec(self.rules, Cut.final(), self.table_size, self.spread, self.switch_to or None)
        if self.cut == "winners":
            return RoundSpec(self.rules, Cut.table_winners(), self.table_size, self.spread)
        what = (tr("Round {number}, the number of best totals going on", number=number) if self.cut == "overall"
                else tr("Round {number}, the places per table going on", number=number))
        count = parse_number(what, self.count, minimum=1, digits=ORGANIZER_DIGITS)
        cut = Cut.overall(count) if self.cut == "overall" else Cut.per_table(count)
        return RoundSpec(self.rules, cut, self.table_size, self.spread)


@dataclass
class FormatDraft:
    """A tournament format being edited: player cap and rounds, the last being the final.

    :meth:`build` hands it to the engine, which refuses an impossible format with its
    message; nothing here decides what is possible.
    """

    cap: str
    rounds: list[RoundDraft] = field(default_factory=list)
    name: str = ""

    @classmethod
    def of(cls, fmt: TournamentFormat) -> FormatDraft:
        return cls(str(fmt.cap), [RoundDraft.of(spec) for spec in fmt.rounds], fmt.name)

    @classmethod
    def house(cls) -> FormatDraft:
        return cls.of(TournamentFormat.house())

    def build(self) -> TournamentFormat:
        cap = parse_number(tr("The player cap"), self.cap, digits=ORGANIZER_DIGITS)
        rounds = tuple(draft.spec(number) for number, draft in enumerate(self.rounds, 1))
        house = TournamentFormat.house()
        if rounds == house.rounds:
            name = house.name
        elif self.name and self.name != house.name:
            name = self.name
        else:
            name = OWN_FORMAT
        return TournamentFormat(name, cap, rounds)

    def add_round(self) -> None:
        """A round before the final, like the one before it (the first: table winners, the final's rules and size)."""
        before = self.rounds[:-1]
        if before:
            self.rounds.insert(len(self.rounds) - 1, replace(before[-1]))
        else:
            final = self.rounds[-1]
            self.rounds.insert(0, RoundDraft(final.rules, final.table_size, "winners"))

    def remove_round(self, index: int) -> None:
        if not 0 <= index < len(self.rounds) - 1:
            raise InvalidInput(tr("The final cannot be removed: a format ends with a final round."))
        del self.rounds[index]

    def set_cut(self, index: int, cut: str) -> None:
        """Another kind of cut for a round before the final (2 places per table; best N overall: N to type)."""
        draft = self.rounds[index]
        choices: dict[str, CutChoice] = {"overall": "overall", "per_table": "per_table", "winners": "winners"}
        if cut not in choices or draft.cut == "final":
            raise InvalidInput(tr("{cut!r} is not a cut for round {number}.", cut=cut, number=index + 1))
        if choices[cut] != draft.cut:
            draft.count = {"overall": "", "per_table": "2", "winners": ""}[cut]
            draft.cut = choices[cut]

    def set_rules(self, index: int, rules: str) -> None:
        draft = self.rounds[index]
        draft.rules = rules
        if draft.switch_to == rules:
            draft.switch_to = ""
