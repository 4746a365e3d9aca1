import dataclasses

import pytest

from engine import InvalidInput, Rules, score


def test_presets_keep_the_game_settings_of_rules_md():
    table = {
        name: (r.target, r.entry_threshold, r.triple_farkle_penalty, r.progressive)
        for name in ("house", "progressive", "official", "classic")
        for r in [Rules.preset(name)]
    }
    assert table == {
        "house": (10_000, 500, 0, False),
        "progressive": (10_000, 500, 0, True),
        "official": (10_000, 0, 1000, False),
        "classic": (10_000, 0, 0, True),
    }


def test_progressive_is_house_with_passing_and_nothing_else():
    assert dataclasses.replace(Rules.preset("progressive"), progressive=False) == Rules.preset("house")


def test_an_unknown_preset_lists_the_known_ones():
    with pytest.raises(InvalidInput, match="'yahtzee'.*house, progressive, official, classic"):
        Rules.preset("yahtzee")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"target": -10}, "target must be at least 50, not -10"),
        ({"target": "lots"}, "target must be a whole number, not 'lots'"),
        ({"n_of_a_kind": "triple"}, "'triple' is not a four-of-a-kind model"),
        ({"entry_threshold": 20_000}, "entry threshold 20,000 is above the target 10,000"),
        ({"straight": 0}, "straight must be at least 1"),
        ({"steal": "yes"}, "steal must be on or off"),
    ],
)
def test_nonsense_settings_are_refused_with_a_clear_message(change, message):
    with pytest.raises(InvalidInput, match=message):
        dataclasses.replace(Rules.preset("house"), **change)


def test_rules_round_trip_through_a_plain_dict():
    variant = dataclasses.replace(Rules.preset("official"), target=5000, steal=True)
    assert Rules.from_dict(variant.to_dict()) == variant
    with pytest.raises(InvalidInput, match="Unknown rule setting 'colour'"):
        Rules.from_dict({"colour": "red"})


def test_each_preset_knows_its_name_and_a_variant_is_custom():
    assert Rules.preset("classic").preset_name == "classic"
    variant = dataclasses.replace(Rules.preset("house"), target=4000)
    assert variant.preset_name is None
    assert variant.describe().startswith("Custom: to 4,000, 500 to get on the board")
    assert "progressive passing" in Rules.preset("progressive").describe()


def test_scoring_under_a_rule_set_writes_nothing_beside_its_declared_fields() -> None:
    """The scoring table is kept in the rule set's declared memo, outside its value."""
    rules = dataclasses.replace(Rules.preset("house"), target=7_500)
    assert score("1 1 1 5", rules) == 1_050
    assert set(vars(rules)) == {setting.name for setting in dataclasses.fields(rules)}
    assert rules == dataclasses.replace(Rules.preset("house"), target=7_500) and "memo" not in rules.to_dict()
