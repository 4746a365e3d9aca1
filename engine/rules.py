"""Rule sets: the presets of engine/RULES.md (§1.2, §3.6), their options (§1.4), and plain-dict round trips."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

from engine.errors import InvalidInput
from engine.words import Phrases, Words, as_words, say

__all__ = ["Rules", "NOfAKind", "N_OF_A_KIND_MODELS", "EndRule", "END_RULES", "PRESET_NAMES", "preset_words"]

NOfAKind = Literal["fixed", "double", "multiply", "none"]
N_OF_A_KIND_MODELS: tuple[NOfAKind, ...] = ("fixed", "double", "multiply", "none")
"""How four, five and six of a kind score.

``fixed``: 1000 / 2000 / 3000 whatever the face; ``double``: three of a kind x2, x4, x8;
``multiply``: three of a kind x2, x3, x4; ``none``: no such sets, extra dice score only
as single 1s or 5s (six of a face is two triples).
"""
EndRule = Literal["final_round", "first_to_target"]
END_RULES: tuple[EndRule, ...] = ("final_round", "first_to_target")
"""How a game ends once a bank reaches the target (engine/RULES.md §3.2).

``final_round``: every other player has one last turn, the highest total wins;
``first_to_target``: the player who banks the target wins at once.
"""


@dataclass(frozen=True)
class Rules:
    """Everything a table agrees on before the first throw.

    >>> Rules.preset("official").three_pairs
    750
    >>> import dataclasses
    >>> dataclasses.replace(Rules.preset("house"), target=5000).target
    5000
    """

    target: int = 10_000
    entry_threshold: int = 500
    single_one: int = 100
    single_five: int = 50
    three_ones: int = 1000
    n_of_a_kind: NOfAKind = "fixed"
    straight: int | None = 1500
    three_pairs: int | None = 1500
    two_triplets: int | None = 2500
    four_kind_with_pair: int | None = None
    triple_farkle_penalty: int = 0
    must_roll_after_hot_dice: bool = False
    progressive: bool = False
    steal: bool = False
    minimum_bank: int = 0
    """The least a player on the board may bank (0: any amount)."""
    lowest_total: int | None = 0
    """How far the three-farkle penalty may take a total: 0 or below, None for no floor."""
    end_rule: EndRule = "final_round"
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """What the engine worked out once for these rules (the scoring table): never part of their value."""

    def __post_init__(self) -> None:
        self._check()

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset; an unknown name lists the known ones."""
        key = name.strip().lower() if isinstance(name, str) else name
        if key not in _PRESETS:
            known = ", ".join(PRESET_NAMES)
            raise InvalidInput(say("There is no rule preset called {name!r}: choose one of {known}.", name=name, known=known))
        return _PRESETS[key]

    @property
    def preset_name(self) -> str | None:
        """The preset these rules are exactly, or None for a table's own variant."""
        return next((name for name, rules in _PRESETS.items() if rules == self), None)

    def penalty_on(self, total: int) -> int:
        """What a third farkle in a row takes from ``total``: the penalty, or only what is
        left above the lowest total (nothing from a total already at or below it).

        >>> official = Rules.preset("official")
        >>> official.penalty_on(2500), official.penalty_on(400), official.penalty_on(-100)
        (1000, 400, 0)
        >>> dataclasses.replace(official, lowest_total=-2500).penalty_on(-2000)
        500
        """
        if self.lowest_total is None:
            return self.triple_farkle_penalty
        return max(0, min(self.triple_farkle_penalty, total - self.lowest_total))

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain values; a later setting is written only when it is not its
        default, so rules without it are written exactly as before it existed."""
        return {
            name: getattr(self, name)
            for name in _SETTINGS
            if name not in _LATER_DEFAULTS or getattr(self, name) != _LATER_DEFAULTS[name]
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a plain dict; missing fields take the house value, unknown ones are refused."""
        if not isinstance(data, dict):
            raise InvalidInput(say("Rules must be a mapping of settings, not {data!r}.", data=data))
        unknown = sorted(set(data).difference(_SETTINGS))
        if unknown:
            raise InvalidInput(say("Unknown rule setting {names}.", names=", ".join(map(repr, unknown))))
        return cls(**data)

    def describe(self) -> Words:
        """One line a player reads to check the table's rules."""
        name = _PRESET_TITLES[self.preset_name] if self.preset_name else say("Custom")
        parts = [
            say("to {target:,}", target=self.target) if self.end_rule == "final_round"
            else say("first to bank {target:,} wins, no final round", target=self.target)
        ]
        parts.append(say("{points:,} to get on the board", points=self.entry_threshold) if self.entry_threshold
                     else say("no entry minimum"))
        parts.append(_N_OF_A_KIND_TEXT[self.n_of_a_kind])
        parts.append(say("straight {points:,}", points=self.straight) if self.straight is not None
                     else say("no straight"))
        parts.append(say("three pairs {points:,}", points=self.three_pairs) if self.three_pairs is not None
                     else say("no three pairs"))
        parts.append(say("two triplets {points:,}", points=self.two_triplets) if self.two_triplets is not None
                     else say("no two triplets"))
        if self.four_kind_with_pair is not None:
            parts.append(say("four of a kind + pair {points:,}", points=self.four_kind_with_pair))
        if self.minimum_bank:
            parts.append(say("banks of at least {points:,} once on the board", points=self.minimum_bank)
                         if self.entry_threshold else say("banks of at least {points:,}", points=self.minimum_bank))
        if self.triple_farkle_penalty:
            parts.append(say("three farkles -{points:,}", points=self.triple_farkle_penalty))
            if self.lowest_total is None:
                parts.append(say("totals may go below 0 without limit"))
            elif self.lowest_total:
                parts.append(say("totals may go down to {points:,}", points=self.lowest_total))
        if self.must_roll_after_hot_dice:
            parts.append(say("must roll after hot dice"))
        if self.progressive:
            parts.append(say("progressive passing"))
        if self.steal:
            parts.append(say("steal after a farkle"))
        return say("{name}: {settings}", name=name, settings=Phrases(parts))

    def _check(self) -> None:
        _whole("target", self.target, 50)
        _whole("entry_threshold", self.entry_threshold, 0)
        if self.entry_threshold > self.target:
            raise InvalidInput(say("The entry threshold {threshold:,} is above the target {target:,}.",
                                   threshold=self.entry_threshold, target=self.target))
        _whole("single_one", self.single_one, 1)
        _whole("single_five", self.single_five, 1)
        _whole("three_ones", self.three_ones, 1)
        _whole("triple_farkle_penalty", self.triple_farkle_penalty, 0)
        if self.n_of_a_kind not in N_OF_A_KIND_MODELS:
            raise InvalidInput(say("{model!r} is not a four-of-a-kind model: choose one of {known}.",
                                   model=self.n_of_a_kind, known=", ".join(N_OF_A_KIND_MODELS)))
        for name in ("straight", "three_pairs", "two_triplets", "four_kind_with_pair"):
            value = getattr(self, name)
            if value is not None:
                _whole(name, value, 1)
        for name in ("must_roll_after_hot_dice", "progressive", "steal"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidInput(say("{setting} must be on or off, not {value!r}.",
                                       setting=name.replace("_", " "), value=getattr(self, name)))
        self._check_later_settings()

    def _check_later_settings(self) -> None:
        """The minimum bank, the lowest total and the end rule, alone and with the rest."""
        _whole("minimum_bank", self.minimum_bank, 0)
        if self.minimum_bank > self.target:
            raise InvalidInput(say("The minimum bank {minimum:,} is above the target {target:,}: "
                                   "lower it, or raise the target.", minimum=self.minimum_bank, target=self.target))
        if 0 < self.entry_threshold < self.minimum_bank:
            raise InvalidInput(say("The entry threshold {threshold:,} is below the minimum bank {minimum:,}: "
                                   "getting on the board would take less than any later bank. Raise it, or set it to 0.",
                                   threshold=self.entry_threshold, minimum=self.minimum_bank))
        if self.lowest_total is not None:
            if isinstance(self.lowest_total, bool) or not isinstance(self.lowest_total, int):
                raise InvalidInput(say("lowest total must be a whole number or none, not {value!r}.",
                                       value=self.lowest_total))
            if self.lowest_total > 0:
                raise InvalidInput(say("The lowest total must be 0 or below (how far a penalty may take a total), "
                                       "not {value:,}.", value=self.lowest_total))
        if self.lowest_total != 0 and not self.triple_farkle_penalty:
            raise InvalidInput(say("Only the three-farkle penalty takes a total below 0: set a penalty, "
                                   "or keep the lowest total at 0."))
        if self.end_rule not in END_RULES:
            raise InvalidInput(say("{rule!r} is not an end rule: choose {known}.", rule=self.end_rule,
                                   known=" or ".join(rule.replace("_", " ") for rule in END_RULES)))


def _whole(name: str, value: object, minimum: int) -> None:
    """Refuse a setting that is not a whole number of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(say("{setting} must be a whole number, not {value!r}.", setting=name.replace("_", " "),
                                value=value))
    if value < minimum:
        raise InvalidInput(say("{setting} must be at least {minimum}, not {value!r}.", setting=name.replace("_", " "),
                                minimum=minimum, value=value))


_SETTINGS: Final = tuple(setting.name for setting in dataclasses.fields(Rules) if setting.init)
"""The names of a rule set's settings, in the order they are written."""

_LATER_DEFAULTS: Final[Mapping[str, Any]] = MappingProxyType(
    {name: getattr(Rules(), name) for name in ("minimum_bank", "lowest_total", "end_rule")}
)
"""Settings added after games and codes were first stored, with the value they had before."""

_N_OF_A_KIND_TEXT: dict[str, Words] = {
    "fixed": say("4/5/6 of a kind 1,000/2,000/3,000"),
    "double": say("4/5/6 of a kind double the triple each die"),
    "multiply": say("4/5/6 of a kind triple x2/x3/x4"),
    "none": say("no 4/5/6 of a kind"),
}
_PRESET_TITLES: dict[str, Words] = {
    "house": say("House"), "progressive": say("Progressive"), "official": say("Official"), "classic": say("Classic"),
}
"""A preset's name as :meth:`Rules.describe` starts with it."""


def preset_words(name: str) -> Words:
    """A preset's name inside a sentence (``house`` in "house rules"), translatable, never its key as
    data; a name no preset has, as it is."""
    return _PRESET_IN_SENTENCE.get(name) or as_words(name)


_PRESET_IN_SENTENCE: dict[str, Words] = {
    "house": say("house"), "progressive": say("progressive"), "official": say("official"), "classic": say("classic"),
}

_HOUSE = Rules()
_PRESETS: Final[Mapping[str, Rules]] = MappingProxyType({
    "house": _HOUSE,
    "progressive": dataclasses.replace(_HOUSE, progressive=True),
    "official": Rules(
        entry_threshold=0,
        n_of_a_kind="none",
        straight=1000,
        three_pairs=750,
        two_triplets=None,
        triple_farkle_penalty=1000,
    ),
    "classic": Rules(
        entry_threshold=0,
        n_of_a_kind="double",
        straight=3000,
        three_pairs=1500,
        two_triplets=None,
        progressive=True,
    ),
})
"""The rule presets by name, in the order a table is offered them: the one registry."""
PRESET_NAMES: Final = tuple(_PRESETS)
