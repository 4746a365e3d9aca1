"""The three later rule options (engine/RULES.md §2.4, §3.2, §3.4): a minimum bank once on the
board, a floor for totals, the end rule. Checked alone, with the other rules, in the log, in
setup codes, and in Busche's "Facebook Farkle" played to the end."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import InvalidInput, Rules
from engine.codec import SeatedPlayer, TableSetup, b45decode, decode_setup, encode_setup
from engine.codec.keys import KEY_SIZE

FACEBOOK = Rules(
    entry_threshold=0,
    n_of_a_kind="multiply",
    straight=1500,
    three_pairs=750,
    two_triplets=None,
    triple_farkle_penalty=500,
    minimum_bank=300,
    lowest_total=-2500,
    end_rule="first_to_target",
)
"""Busche's "Facebook Farkle" expressed as options."""

LATER = ("minimum_bank", "lowest_total", "end_rule")


@pytest.mark.parametrize("name", ["house", "progressive", "official", "classic"])
def test_a_preset_is_written_exactly_as_before_the_options_existed(name: str) -> None:
    assert not set(LATER) & set(Rules.preset(name).to_dict())


@pytest.mark.parametrize(
    "change",
    [{"minimum_bank": 300}, {"lowest_total": -2500, "triple_farkle_penalty": 500},
     {"lowest_total": None, "triple_farkle_penalty": 500}, {"end_rule": "first_to_target"}],
)
def test_each_option_set_is_written_and_read_back(change: dict[str, object]) -> None:
    rules = dataclasses.replace(Rules.preset("house"), **change)
    written = json.loads(json.dumps(rules.to_dict()))
    assert {key: written[key] for key in change if key in LATER} == {k: v for k, v in change.items() if k in LATER}
    assert Rules.from_dict(written) == rules
    assert rules.preset_name is None


@pytest.mark.parametrize(
    "change, message",
    [
        ({"minimum_bank": -50}, "minimum bank must be at least 0, not -50"),
        ({"minimum_bank": "300"}, "minimum bank must be a whole number, not '300'"),
        ({"minimum_bank": 12_000}, "The minimum bank 12,000 is above the target 10,000"),
        ({"entry_threshold": 200, "minimum_bank": 300}, "entry threshold 200 is below the minimum bank 300"),
        ({"lowest_total": 500, "triple_farkle_penalty": 500}, "lowest total must be 0 or below.*not 500"),
        ({"lowest_total": -2.5, "triple_farkle_penalty": 500}, "lowest total must be a whole number or none"),
        ({"lowest_total": -2500}, "Only the three-farkle penalty takes a total below 0"),
        ({"lowest_total": None}, "Only the three-farkle penalty takes a total below 0"),
        ({"end_rule": "sudden death"}, "'sudden death' is not an end rule: choose final round or first to target"),
    ],
)
def test_a_nonsense_option_is_refused_saying_what_and_why(change: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        dataclasses.replace(Rules.preset("house"), **change)


@pytest.mark.parametrize(
    "change, words",
    [
        ({"minimum_bank": 300}, "banks of at least 300 once on the board"),
        ({"triple_farkle_penalty": 500, "lowest_total": -2500}, "three farkles -500, totals may go down to -2,500"),
        ({"triple_farkle_penalty": 500, "lowest_total": None}, "totals may go below 0 without limit"),
        ({"end_rule": "first_to_target"}, "Custom: first to bank 10,000 wins, no final round"),
    ],
)
def test_the_rules_line_names_each_option(change: dict[str, object], words: str) -> None:
    assert words in dataclasses.replace(Rules.preset("house"), **change).describe()


def make_setup(rules: Rules) -> TableSetup:
    return TableSetup("CUP-1", 1, 2, (SeatedPlayer(1, "Ann"), SeatedPlayer(2, "Bob")), rules, bytes(KEY_SIZE))


@pytest.mark.parametrize("rules", [FACEBOOK, dataclasses.replace(Rules.preset("official"), minimum_bank=300)])
def test_a_setup_code_carries_the_options(rules: Rules) -> None:
    assert decode_setup(encode_setup(make_setup(rules))).rules == rules


@pytest.mark.parametrize("rules", [Rules.preset("house"), dataclasses.replace(Rules.preset("official"), target=5000)])
def test_a_setup_code_without_the_options_does_not_mention_them(rules: Rules) -> None:
    payload = b45decode(encode_setup(make_setup(rules))[4:])
    assert not any(name.encode() in payload for name in LATER)
