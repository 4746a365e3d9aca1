"""Play advice (engine/advice.py): exact values, their invariants, and a seeded Monte Carlo check."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Game,
    IllegalAction,
    InvalidInput,
    Rules,
    advise,
    bank_thresholds,
    catch_up_chance,
    costly_decisions,
    expected_turn,
    farkle_chance,
    keep_values,
    prepare,
    roll_value,
    scoring_options,
    throw_advice,
    turn_advice,
    win_chance,
)

HOUSE = Rules.preset("house")
OPEN_HOUSE = dataclasses.replace(HOUSE, entry_threshold=0)
PRESETS = [Rules.preset(name) for name in ("house", "progressive", "official", "classic")]


@pytest.mark.parametrize(("dice", "chance"), [
    (1, Fraction(2, 3)), (2, Fraction(4, 9)), (3, Fraction(5, 18)),
    (4, Fraction(17, 108)), (5, Fraction(25, 324)), (6, Fraction(5, 216)),
])
def test_the_farkle_chances_are_the_rule_books_with_three_pairs_scoring(dice: int, chance: Fraction) -> None:
    assert farkle_chance(dice, HOUSE) == chance


@pytest.mark.parametrize(("turn_points", "dice", "need", "chance"), [
    (0, 6, 50, 1 - 5 / 216),  # any score will do
    (300, 1, 350, 1 / 3),  # a 1 or a 5, and that is hot dice: bank
    (300, 1, 400, 1 / 6 + 1 / 6 * (1 - 5 / 216)),  # a 1; or a 5, then any score from six dice
    (400, 3, 400, 1.0),  # already there: bank
])
def test_the_catch_up_chance_is_exact_where_it_can_be_worked_out_by_hand(
        turn_points: int, dice: int, need: int, chance: float) -> None:
    assert catch_up_chance(HOUSE, need, turn_points, dice) == pytest.approx(chance, abs=1e-12)


def test_with_one_die_a_throw_is_worth_its_hot_dice_chance_plus_what_six_fresh_dice_bring() -> None:
    held = 400
    fresh_six = roll_value(HOUSE, held + 100, 6), roll_value(HOUSE, held + 50, 6)
    by_hand = (max(fresh_six[0], held + 100) + max(fresh_six[1], held + 50)) / 6
    assert roll_value(HOUSE, held, 1) == pytest.approx(by_hand, rel=1e-12)


def test_350_with_two_dice_banks_and_350_with_six_throws_on() -> None:
    assert expected_turn(HOUSE, 350, 2) == 350 > roll_value(HOUSE, 350, 2)
    assert roll_value(HOUSE, 350, 6) > 350


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.preset_name)
def test_at_every_bank_threshold_banking_is_best_and_just_below_it_throwing_on_is(rules: Rules) -> None:
    for dice, threshold in bank_thresholds(rules).items():
        assert roll_value(rules, threshold, dice) <= threshold
        assert roll_value(rules, threshold + 1000, dice) <= threshold + 1000
        if threshold > 50:
            assert roll_value(rules, threshold - 50, dice) > threshold - 50
        assert threshold < 4 * rules.target / 2, "far below where the table stops"


def test_a_player_not_on_the_board_never_banks_short_of_the_entry_threshold() -> None:
    assert all(threshold >= 500 for threshold in bank_thresholds(HOUSE, on_board=False).values())
    assert expected_turn(HOUSE, 350, 2, on_board=False) == roll_value(HOUSE, 350, 2, on_board=False) < 350


def test_hot_dice_that_must_be_thrown_are_worth_less_than_hot_dice_that_may_be_banked() -> None:
    must_roll = dataclasses.replace(HOUSE, must_roll_after_hot_dice=True)
    assert expected_turn(must_roll) < expected_turn(HOUSE)
    assert catch_up_chance(must_roll, 3000) < catch_up_chance(HOUSE, 3000)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: expected_turn(HOUSE, 75), "multiple of 50"),
    (lambda: expected_turn(HOUSE, -50), "not a turn total"),
    (lambda: expected_turn(HOUSE, 0, 7), "1 to 6 dice"),
    (lambda: catch_up_chance(HOUSE, "500"), "not a number of points"),  # type: ignore[arg-type]
])
def test_a_question_no_turn_can_ask_is_refused_with_what_was_asked(call, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        call()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 300), st.integers(1, 6), st.booleans())
def test_a_turn_is_worth_at_least_what_it_may_bank_and_more_points_never_hurt(steps: int, dice: int,
                                                                             on_board: bool) -> None:
    points = steps * 50
    value = expected_turn(HOUSE, points, dice, on_board)
    if points and (on_board or points >= HOUSE.entry_threshold):
        assert value >= points
    assert expected_turn(HOUSE, points + 50, dice, on_board) >= value


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 80), st.integers(0, 20), st.integers(1, 6))
def test_the_catch_up_chance_is_a_probability_that_never_rises_as_the_need_grows(need_steps: int, held_steps: int,
                                                                               dice: int) -> None:
    need, held = need_steps * 50, held_steps * 50
    chance = catch_up_chance(HOUSE, need, held, dice)
    assert 0.0 <= chance <= 1.0
    assert catch_up_chance(HOUSE, need + 50, held, dice) <= chance


def test_the_keep_values_pick_the_keep_a_strong_player_would() -> None:
    options = scoring_options("1 5 2 3 4 6", HOUSE)
    values = dict(zip((option.keep for option in options), keep_values(HOUSE, 0, (1, 5, 2, 3, 4, 6))))
    assert values[(1,)] > values[(1, 5)], "keep the 1 alone and throw five dice"


def play_expected_score_turn(rules: Rules, rng: random.Random) -> int:
    """One turn of a new game, played through the real game, each decision the one the
    tables call best; what it banked."""
    game = Game(["Ann", "Bob"], rules)
    while True:
        dice = game.state.dice_to_throw or 6
        held = game.turn_points
        game.roll([rng.randint(1, 6) for _ in range(dice)])
        if game.current != 0:
            return 0  # a farkle
        throw = game.state.last_throw or ()
        options = scoring_options(throw, rules)
        values = keep_values(rules, held, throw)
        best = max(range(len(options)), key=values.__getitem__)
        game.keep(options[best].keep)
        left = options[best].dice_left or 6
        if game.turn_points >= roll_value(rules, game.turn_points, left):
            game.bank()
            return game.scores[0]


def test_turns_played_through_the_game_bank_what_the_tables_expect_within_the_sampling_error() -> None:
    rng = random.Random(2026)
    rules = OPEN_HOUSE  # each turn is a new game's first: a bank past the target still counts
    banked = [play_expected_score_turn(rules, rng) for _ in range(4000)]
    mean = sum(banked) / len(banked)
    spread = (sum((b - mean) ** 2 for b in banked) / (len(banked) - 1)) ** 0.5
    error = spread / len(banked) ** 0.5
    assert abs(mean - expected_turn(rules)) < 4 * error, (mean, expected_turn(rules), error)


# -- advice in a live game ---------------------------------------------------------------------


def test_at_the_start_of_a_turn_the_advice_is_to_throw_six_with_what_the_turn_is_worth() -> None:
    advice = advise(Game(["Ann", "Bob"], HOUSE))
    assert (advice.action, advice.dice, advice.bank) == ("throw", 6, None)
    assert advice.throw_on == roll_value(HOUSE, 0, 6, on_board=False)
    assert advice.win_chance == win_chance(HOUSE, (0, 0), 0)  # a game of two to 10,000: the shipped table
    wins = f"{advice.win_chance:.0%}".replace("%", " %")
    assert advice.describe() == (f"Throw six dice: worth {advice.throw_on:,.0f} on average (2 % farkle). "
                                 f"Ann wins {wins} of the time.")


def test_every_keep_of_the_throw_is_valued_and_the_lone_1_beats_the_1_and_5() -> None:
    game = Game(["Ann", "Bob"], OPEN_HOUSE)
    game.roll("1 5 2 3 4 4")
    advice = advise(game)
    assert advice.action == "keep" and advice.best_keep is not None and advice.best_keep.keep == (1,)
    values = {choice.keep: choice for choice in advice.keeps}
    assert set(values) == {option.keep for option in scoring_options("1 5 2 3 4 4", OPEN_HOUSE)}
    assert values[(1,)].throw_on == roll_value(OPEN_HOUSE, 100, 5) and values[(1,)].bank == 100
    assert values[(1,)].value > values[(1, 5)].value
    assert advice.describe().startswith("Keep 1 and throw five dice: worth ")


def test_350_with_two_dice_is_advised_to_bank_in_words_with_the_numbers() -> None:
    game = Game(["Ann", "Bob"], OPEN_HOUSE)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.roll("1 2 3")
    game.keep("1")
    assert (game.turn_points, game.dice_in_hand) == (350, 2)
    advice = advise(game)
    assert advice.action == "bank" and advice.bank == 350
    assert advice.describe() == (f"Bank: 350 now; throwing two dice is worth {roll_value(OPEN_HOUSE, 350, 2):,.0f} "
                                 "on average (44 % farkle).")


def test_a_progressive_offer_is_weighed_against_six_fresh_dice() -> None:
    game = Game(["A", "B", "C"], Rules.preset("progressive"))
    for throw, keep in [("2 2 2 3 4 6", "2 2 2"), ("3 3 3", "3 3 3"), ("1 1 1 2 3 4", "1 1 1"), ("1 2 3", "1")]:
        game.roll(throw)
        game.keep(keep)
    game.bank()
    advice = advise(game)
    rules = game.rules
    assert advice.build == roll_value(rules, 1600, 2, on_board=False)
    assert advice.fresh == roll_value(rules, 0, 6, on_board=False)
    assert advice.action == ("build" if advice.build > advice.fresh else "fresh")


def test_a_last_turn_in_the_final_round_plays_for_the_lead_with_its_chance() -> None:
    rules = dataclasses.replace(OPEN_HOUSE, target=1000)
    game = Game(["Ann", "Bob"], rules)
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()
    assert game.final_round
    advice = advise(game)
    assert (advice.goal, advice.need) == ("lead", 1050)
    assert advice.throw_on == catch_up_chance(rules, 1050)
    assert advice.describe() == f"Bob needs 1,050 to lead: {advice.throw_on:.0%} throwing six dice.".replace("%", " %")


@pytest.mark.parametrize("need, minimum_bank", [(50, 300), (100, 300), (300, 300), (350, 300), (200, 500)])
def test_the_catch_up_chance_needs_at_least_the_minimum_bank_on_the_board(need: int, minimum_bank: int) -> None:
    rules = dataclasses.replace(OPEN_HOUSE, minimum_bank=minimum_bank)
    assert catch_up_chance(rules, need) == catch_up_chance(OPEN_HOUSE, max(need, minimum_bank))
    assert catch_up_chance(rules, need, on_board=False) == catch_up_chance(OPEN_HOUSE, need, on_board=False)


def test_a_last_turn_50_behind_under_a_minimum_bank_plays_for_the_minimum_bank() -> None:
    rules = dataclasses.replace(OPEN_HOUSE, target=1000, minimum_bank=300)
    game = Game(["Ann", "Bob"], rules)
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()
    state = dataclasses.replace(game.state, scores=(1000, 950), on_board=(True, True))
    advice = advise(state)
    assert (advice.goal, advice.need) == ("lead", 100)
    assert advice.throw_on == catch_up_chance(OPEN_HOUSE, 300) < catch_up_chance(OPEN_HOUSE, 100)


def test_a_finished_game_has_nothing_to_advise() -> None:
    game = Game(["Ann", "Bob"], dataclasses.replace(OPEN_HOUSE, target=1000))
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()
    game.roll("2 2 3 3 4 6")  # Bob's last turn farkles
    assert game.is_over
    with pytest.raises(IllegalAction, match="the game is over"):
        advise(game)


def test_after_the_game_a_bank_of_50_with_five_dice_is_named_as_the_costly_decision() -> None:
    game = Game(["Ann", "Bob"], OPEN_HOUSE)
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    game.bank()
    game.roll("2 2 3 3 4 6")  # Bob farkles: no decision
    ann = costly_decisions(game)[0]
    assert len(ann) == 1 and ann[0].turn == 1
    assert ann[0].cost == pytest.approx(roll_value(OPEN_HOUSE, 50, 5) - 50)
    assert ann[0].describe().startswith("Turn 1: banked 50 with five dice left; throwing on was worth ")
    assert costly_decisions(game)[1] == ()


def test_the_lookups_questions_are_answered_without_a_game() -> None:
    assert turn_advice(HOUSE, 350, 2).describe() == advise_350_with_two_dice().describe()
    keep = throw_advice(HOUSE, 0, (1, 5, 2, 3, 4, 4))
    assert keep.best_keep is not None and keep.best_keep.keep == (1,)
    with pytest.raises(IllegalAction, match="2 2 3 3 4 6 is a farkle"):
        throw_advice(HOUSE, 0, (2, 2, 3, 3, 4, 6))


def advise_350_with_two_dice():
    game = Game(["Ann", "Bob"], OPEN_HOUSE)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.roll("1 2 3")
    game.keep("1")
    return advise(game)


def test_the_tables_are_solved_a_slice_at_a_time_and_then_kept() -> None:
    rules = dataclasses.replace(HOUSE, target=5000)
    shares = list(prepare(rules))
    assert len(shares) > 10 and shares == sorted(shares) and shares[-1] == 1.0
    assert list(prepare(rules)) == [1.0], "solved once per rule set"
