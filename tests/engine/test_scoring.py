"""Every combination under every preset, table-driven (engine/RULES.md §1); the worked examples of
its source texts (§1.6); options."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from engine import IllegalAction, InvalidInput, Rules, best_score, farkle_chance, score, scoring_options
from engine.scoring import scoring_chart, scoring_dice

HOUSE = Rules.preset("house")
PROGRESSIVE = Rules.preset("progressive")
OFFICIAL = Rules.preset("official")
CLASSIC = Rules.preset("classic")

# keep, house, official, classic (engine/RULES.md §1.2 and §1.3)
COMBINATIONS = [
    ("1", 100, 100, 100),
    ("5", 50, 50, 50),
    ("1 1", 200, 200, 200),
    ("1 5", 150, 150, 150),
    ("1 1 1", 1000, 1000, 1000),
    ("2 2 2", 200, 200, 200),
    ("3 3 3", 300, 300, 300),
    ("4 4 4", 400, 400, 400),
    ("5 5 5", 500, 500, 500),
    ("6 6 6", 600, 600, 600),
    ("2 2 2 2", 1000, None, 400),
    ("2 2 2 2 2", 2000, None, 800),
    ("2 2 2 2 2 2", 3000, 400, 1600),
    ("6 6 6 6", 1000, None, 1200),
    ("6 6 6 6 6", 2000, None, 2400),
    ("6 6 6 6 6 6", 3000, 1200, 4800),
    ("5 5 5 5", 1000, 550, 1000),
    ("5 5 5 5 5", 2000, 600, 2000),
    ("1 1 1 1", 1100, 1100, 2000),
    ("1 1 1 1 1", 2000, 1200, 4000),
    ("1 1 1 1 1 1", 3000, 2000, 8000),
    ("1 2 3 4 5 6", 1500, 1000, 3000),
    ("2 2 3 3 4 4", 1500, 750, 1500),
    ("1 1 5 5 6 6", 1500, 750, 1500),
    ("2 2 2 3 3 3", 2500, 500, 500),
    ("1 1 1 5 5 5", 2500, 1500, 1500),
    ("3 3 3 1 5", 450, 450, 450),
    ("4 4 4 1 5", 550, 550, 550),
    ("2 2 2 2 3 3", None, None, None),
    ("1 1 1 1 5 5", 1200, 1200, 2100),
]


@pytest.mark.parametrize("keep, house, official, classic", COMBINATIONS)
def test_each_combination_scores_what_rules_md_tabulates(keep, house, official, classic):
    for rules, expected in ((HOUSE, house), (PROGRESSIVE, house), (OFFICIAL, official), (CLASSIC, classic)):
        if expected is None:
            with pytest.raises(IllegalAction, match="(does|do) not score"):
                score(keep, rules)
        else:
            assert score(keep, rules) == expected, (keep, rules.preset_name)


@pytest.mark.parametrize(
    "model, four, five, six",
    [("fixed", 1000, 2000, 3000), ("double", 800, 1600, 3200), ("multiply", 800, 1200, 1600)],
)
def test_four_of_a_kind_models_score_fours_as_the_option_says(model, four, five, six):
    rules = dataclasses.replace(HOUSE, n_of_a_kind=model)
    assert [score("4" * n, rules) for n in (4, 5, 6)] == [four, five, six]


def test_four_of_a_kind_and_a_pair_counts_only_with_its_option():
    with pytest.raises(IllegalAction, match="3 3 do not score"):
        score("2 2 2 2 3 3", dataclasses.replace(HOUSE, n_of_a_kind="none"))
    assert score("2 2 2 2 3 3", dataclasses.replace(HOUSE, n_of_a_kind="none", four_kind_with_pair=1500)) == 1500


def test_six_of_a_kind_is_never_three_pairs():
    rules = dataclasses.replace(OFFICIAL, three_pairs=5000)
    assert score("3 3 3 3 3 3", rules) == 600


def test_switched_off_combinations_do_not_score():
    rules = dataclasses.replace(HOUSE, straight=None, three_pairs=None, two_triplets=None)
    assert score("2 2 2 3 3 3", rules) == 500
    with pytest.raises(IllegalAction, match="2 2 3 3 4 4 do not score"):
        score("2 2 3 3 4 4", rules)
    assert best_score("1 2 3 4 5 6", rules) == 150


def test_three_ones_can_be_worth_another_value():
    assert score("1 1 1", dataclasses.replace(HOUSE, three_ones=300)) == 300


def test_keeping_a_die_that_does_not_score_names_it():
    with pytest.raises(IllegalAction, match=r"^2 does not score in 2 3 3 3"):
        score("2 3 3 3", HOUSE)
    with pytest.raises(IllegalAction, match=r"^4 6 do not score in 1 4 6"):
        score([6, 1, 4], HOUSE)


def test_badly_formed_keeps_are_invalid_input():
    with pytest.raises(InvalidInput, match="7"):
        score("1 7", HOUSE)
    with pytest.raises(InvalidInput, match="at most 6"):
        score([1] * 7, HOUSE)


def test_the_throw_1_2_3_3_3_5_offers_the_keeps_the_tournament_lists():
    """engine/RULES.md §1.6, from The Tournament."""
    options = {option.keep: option for option in scoring_options("1 2 3 3 3 5", HOUSE)}
    assert options[(3, 3, 3)].points == 300 and options[(3, 3, 3)].dice_left == 3
    assert options[(1,)].points == 100 and options[(1,)].dice_left == 5
    assert options[(5,)].points == 50 and options[(5,)].dice_left == 5
    best = scoring_options("1 2 3 3 3 5", HOUSE)[0]
    assert (best.keep, best.points, best.dice_left) == ((1, 3, 3, 3, 5), 450, 1)
    assert best.breakdown == "three 3s 300 + 1 100 + 5 50"
    assert (2,) not in options


def test_1_2_4_4_4_5_is_550_with_one_die_left():
    """engine/RULES.md §1.6, from Farkle – The Exciting Dice Sport Intended for Grownups plus Little ones."""
    best = scoring_options("1 2 4 4 4 5", HOUSE)[0]
    assert (best.points, best.dice_left, best.hot_dice) == (550, 1, False)


def test_options_are_distinct_best_first_and_score_what_they_claim():
    options = scoring_options("1 1 5 5 2 3", HOUSE)
    assert len({option.keep for option in options}) == len(options)
    assert [option.points for option in options] == sorted((option.points for option in options), reverse=True)
    for option in options:
        assert score(option.keep, HOUSE) == option.points


def test_a_farkle_throw_has_no_options():
    assert scoring_options("2 3 4 6 6 2", HOUSE) == ()
    assert best_score("2 3 4 6 6 2", HOUSE) == 0


def test_scoring_dice_marks_every_die_some_keep_can_use():
    assert scoring_dice("1 2 3 3 3 5", HOUSE) == (1, 3, 3, 3, 5)
    assert scoring_dice("2 2 2 2 4 6", OFFICIAL) == (2, 2, 2)


@pytest.mark.parametrize("rules", [HOUSE, OFFICIAL, CLASSIC])
def test_farkle_chances_are_the_exact_figures_of_rules_md(rules):
    """engine/RULES.md §1.5."""
    percent = [round(float(farkle_chance(n, rules)) * 100, 2) for n in range(1, 7)]
    assert percent == [66.67, 44.44, 27.78, 15.74, 7.72, 2.31]
    assert farkle_chance(1, rules) == Fraction(2, 3)


def test_farkle_chance_refuses_a_number_of_dice_that_cannot_be_thrown():
    with pytest.raises(InvalidInput, match="1 to 6"):
        farkle_chance(7, HOUSE)


def test_the_scoring_chart_follows_the_rules():
    chart = {line.combination: line.points for line in scoring_chart(HOUSE)}
    assert chart["Straight 1-2-3-4-5-6"] == "1,500"
    assert chart["Four of a kind"] == "1,000"
    assert "Two triplets" not in {line.combination for line in scoring_chart(OFFICIAL)}
