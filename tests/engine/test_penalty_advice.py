"""Turn advice under the three-farkle penalty: the farkle streak is part of the state.

Busche's published "bank at" figures, streak by streak; the engine's values against a
small solver of the same model written here (policy iteration over the three streaks, not
the engine's secant on the points per turn), on and off the board; Ann's turns at an
`official` table, in words.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest

from engine import InvalidInput, Rules, advise, bank_thresholds, best_score, judge_decisions, roll_value, \
    scoring_options, turn_advice
from tests.support.game_play import ann_on_two_farkles

OFFICIAL = Rules.preset("official")
BUSCHE = Rules(entry_threshold=0, n_of_a_kind="multiply", straight=1500, three_pairs=750, two_triplets=None,
               triple_farkle_penalty=500)
"""Busche's scoring as his generator was run for issue 26: k of a kind (k - 2) x the triple,
a straight 1,500, three pairs 750, a 500 penalty for three farkles in a row."""
HOUSE_PENALTY_NO_FLOOR = dataclasses.replace(Rules.preset("house"), triple_farkle_penalty=500, lowest_total=None)
"""An entry threshold of 500 and a penalty that may take a total below 0: a player not on
the board has something to lose by the streak."""

BUSCHE_BANK_AT = {  # Busche's strategy generator (mattbusche.org/blog/article/zilch/), six dice to one
    0: (16_400, 3_050, 1_050, 400, 250, 300),
    1: (16_350, 3_000, 950, 350, 200, 250),
    2: (15_900, 2_550, 550, 0, 0, 0),
}


@pytest.mark.parametrize("streak", [0, 1, 2])
def test_the_bank_thresholds_move_with_the_streak_as_in_buschés_generator(streak: int) -> None:
    published = dict(zip(range(6, 0, -1), BUSCHE_BANK_AT[streak]))
    smallest_bank = 50  # Busche's 0, "bank whatever the total", is the least a turn can hold here
    assert bank_thresholds(BUSCHE, streak=streak) == {dice: at or smallest_bank for dice, at in published.items()}


# -- a small solver of the same model, written apart from the engine's ------------------------------------------------

CEILING = 20_000
"""Totals solved here: above every threshold of these rules (16,400 at most), so banking there is exact."""


@lru_cache(maxsize=4)
def outcomes(rules: Rules) -> dict[int, list[tuple[float, frozenset[tuple[int, int]]]]]:
    """For each number of dice, every distinct throw's chance and its keeps (points, dice left)."""
    found: dict[int, list[tuple[float, frozenset[tuple[int, int]]]]] = {}
    for dice in range(1, 7):
        grouped: Counter[frozenset[tuple[int, int]]] = Counter()
        for roll in combinations_with_replacement(range(1, 7), dice):
            ways = math.factorial(dice)
            for count in Counter(roll).values():
                ways //= math.factorial(count)
            grouped[frozenset((o.points, o.dice_left) for o in scoring_options(roll, rules))] += ways
        found[dice] = [(ways / 6**dice, keeps) for keeps, ways in grouped.items()]
    return found


def turn(rules: Rules, farkle: float, lowest_bank: int) -> tuple[list[list[float]], list[list[float]]]:
    """Best play of one turn where a farkle is worth ``farkle`` and a bank of at least
    ``lowest_bank`` (and more than 0) is allowed: for each total (in 50s) and dice to throw,
    what throwing is worth and the chance it ends in a farkle."""
    levels = CEILING // 50
    worth = [[0.0] * 7 for _ in range(levels + 1)]
    farkles = [[0.0] * 7 for _ in range(levels + 1)]

    def after(level: int, left: int) -> tuple[float, float]:
        total = level * 50
        if level > levels:
            return float(total), 0.0
        dice = left or 6
        may_bank = total >= max(lowest_bank, 50) and not (left == 0 and rules.must_roll_after_hot_dice)
        if may_bank and total >= worth[level][dice]:
            return float(total), 0.0
        return worth[level][dice], farkles[level][dice]

    for level in range(levels, -1, -1):
        for dice in range(1, 7):
            value = chance_farkle = 0.0
            scoring = 0.0
            for chance, keeps in outcomes(rules)[dice]:
                if not keeps:
                    continue
                scoring += chance
                best = max((after(level + points // 50, left) for points, left in keeps), key=lambda pair: pair[0])
                value += chance * best[0]
                chance_farkle += chance * best[1]
            worth[level][dice] = value + (1 - scoring) * farkle
            farkles[level][dice] = chance_farkle + (1 - scoring)
    return worth, farkles


@lru_cache(maxsize=4)
def streak_worth(rules: Rules) -> tuple[tuple[float, float, float], list[list[list[float]]]]:
    """Policy iteration on the long-run score per turn ``g``: for the current worth of each
    streak, each streak's best turn (its expected bank ``B`` and farkle chance ``Q``), then
    the worth those turns give (``h(s) + g = B(s) + Q(s) F(s)``, ``F`` the streak a farkle
    leaves: ``h(1)``, ``h(2)``, then the penalty), until it holds still; with each streak's turn values."""
    penalty = rules.triple_farkle_penalty
    h1 = h2 = 0.0
    for _ in range(20):
        leaves = (h1, h2, -float(penalty))
        banks, farkles, tables = [], [], []
        for farkle in leaves:
            worth, chance = turn(rules, farkle, rules.minimum_bank)
            tables.append(worth)
            farkles.append(chance[0][6])
            banks.append(worth[0][6] - chance[0][6] * farkle)
        (b0, b1, b2), (q0, q1, q2) = banks, farkles
        new_h1 = (b1 - b0 + q1 * (b2 - q2 * penalty - b0)) / (1 + q0 + q1 * q0)
        new_h2 = b2 - q2 * penalty - b0 - q0 * new_h1
        if abs(new_h1 - h1) < 1e-9 and abs(new_h2 - h2) < 1e-9:
            return (0.0, h1, h2), tables
        h1, h2 = new_h1, new_h2
    raise AssertionError("policy iteration did not settle")


@pytest.fixture(scope="module")
def official_by_hand() -> dict[int, list[list[float]]]:
    """The official preset's turn values for each streak, a total the whole 1,000 comes out of."""
    _, tables = streak_worth(OFFICIAL)
    return dict(enumerate(tables))


@pytest.mark.parametrize(("points", "dice"), [(0, 6), (100, 5), (300, 3), (350, 2), (1000, 4), (2500, 5), (900, 1)])
def test_the_official_advice_counts_the_streak_as_an_independent_solver_does(official_by_hand, points: int,
                                                                              dice: int) -> None:
    for streak in range(3):
        mine = roll_value(OFFICIAL, points, dice, streak=streak)
        assert mine == pytest.approx(official_by_hand[streak][points // 50][dice], abs=1e-6), f"streak {streak}"


def test_the_official_thresholds_are_where_the_independent_solver_stops_throwing(official_by_hand) -> None:
    for streak, worth in official_by_hand.items():
        by_hand = {}
        for dice in range(1, 7):
            level = CEILING // 50
            while level > 1 and worth[level - 1][dice] <= (level - 1) * 50:
                level -= 1
            by_hand[dice] = level * 50
        assert bank_thresholds(OFFICIAL, streak=streak) == by_hand


def test_a_third_farkle_out_of_a_small_total_costs_only_that_total_as_a_solver_of_that_turn_says() -> None:
    worth, _ = turn(OFFICIAL, -300.0, 0)
    assert roll_value(OFFICIAL, 300, 3, streak=2, total=300) == pytest.approx(worth[6][3], abs=1e-6)
    assert roll_value(OFFICIAL, 300, 3, streak=2, total=300) > roll_value(OFFICIAL, 300, 3, streak=2, total=5000)


def test_off_the_board_a_penalty_that_may_go_below_0_counts_the_streak_as_the_solver_does() -> None:
    (_, h1, h2), _ = streak_worth(HOUSE_PENALTY_NO_FLOOR)
    for streak, leaves in enumerate((h1, h2, -500.0)):
        off, _ = turn(HOUSE_PENALTY_NO_FLOOR, leaves, HOUSE_PENALTY_NO_FLOOR.entry_threshold)
        for points, dice in [(0, 6), (300, 3), (450, 2), (600, 4)]:
            assert roll_value(HOUSE_PENALTY_NO_FLOOR, points, dice, on_board=False, streak=streak, total=0) == \
                pytest.approx(off[points // 50][dice], abs=1e-6), f"streak {streak}, {points} with {dice} dice"


def test_off_the_board_under_a_floor_of_0_the_streak_risks_nothing() -> None:
    rules = dataclasses.replace(HOUSE_PENALTY_NO_FLOOR, lowest_total=0)
    plain = dataclasses.replace(rules, triple_farkle_penalty=0, lowest_total=0)
    for streak in range(3):
        assert roll_value(rules, 300, 3, on_board=False, streak=streak) == roll_value(plain, 300, 3, on_board=False)


# -- Ann at an official table -----------------------------------------------------------------------------------------

def test_ann_on_two_farkles_keeps_3_3_3_and_banks_for_a_third_farkle_would_also_cost_1000() -> None:
    game = ann_on_two_farkles()
    game.roll("3 3 3 2 4 6")
    advice = advise(game)
    assert advice.best_keep is not None and advice.best_keep.keep == (3, 3, 3) and advice.best_keep.banks
    assert advice.describe().startswith("Keep 3 3 3 and bank: a third farkle would also cost 1,000; worth 300")
    game.keep("3 3 3")
    bank = advise(game)
    assert bank.action == "bank" and bank.penalty == 1000
    assert bank.describe().startswith("Bank: a third farkle would also cost 1,000; 300 now; throwing three dice is ")


def test_ann_on_two_farkles_with_a_1_kept_throws_five_dice_on_for_even_one_throw_beats_banking_100() -> None:
    """The issue expected Bank here; the model says throw, and one throw then a bank shows why:
    a third farkle now and a bank of 100 both leave Ann on no farkles, so the throw risks the
    100 and the 1,000 (7.7 %) against what five dice add (92.3 %)."""
    game = ann_on_two_farkles()
    game.roll("1 2 3 4 6 6")
    game.keep("1")
    advice = advise(game)
    once_then_bank = 0.0
    for roll in combinations_with_replacement(range(1, 7), 5):
        ways = math.factorial(5) // math.prod(math.factorial(c) for c in Counter(roll).values())
        points = best_score(roll, OFFICIAL)
        once_then_bank += ways / 6**5 * (100 + points if points else -1000)
    assert once_then_bank > 100
    assert advice.action == "throw" and advice.throw_on is not None and advice.throw_on >= once_then_bank
    assert advice.describe().startswith(f"Throw five dice: worth {advice.throw_on:,.0f} on average, a third "
                                        "farkle's 1,000 counted (8 % farkle); banking gives 100.")


def test_after_the_game_throwing_on_from_3_3_3_on_two_farkles_is_judged_with_that_streak() -> None:
    game = ann_on_two_farkles()
    game.roll("3 3 3 2 4 6")
    game.keep("3 3 3")
    game.roll("1 2 3")
    game.keep("1")
    game.bank()
    judged = [decision for decision in judge_decisions(game) if decision is not None and decision.seat == 0]
    assert [decision.taken for decision in judged] == ["threw three dice holding 300"]
    cost = 300 - roll_value(OFFICIAL, 300, 3, streak=2, total=1000)
    assert judged[0].cost == pytest.approx(cost)
    assert (judged[0].turn, judged[0].better) == (7, "banking was worth 300")


def test_a_third_farkle_costs_only_what_the_total_has_and_nothing_at_0() -> None:
    assert turn_advice(OFFICIAL, 300, 3, streak=2, total=250).describe().startswith(
        "Bank: a third farkle would also cost 250; 300 now")
    at_nothing = turn_advice(OFFICIAL, 300, 3, streak=2, total=0)
    assert at_nothing.penalty == 0 and at_nothing.action == "throw"
    assert at_nothing.throw_on == roll_value(dataclasses.replace(OFFICIAL, triple_farkle_penalty=0), 300, 3)


def test_a_streak_that_is_not_0_to_2_is_refused_with_what_was_asked() -> None:
    with pytest.raises(InvalidInput, match="3 farkles in a row: give 0, 1 or 2"):
        turn_advice(OFFICIAL, 300, 3, streak=3)


def test_below_the_minimum_bank_the_advice_is_to_throw_on() -> None:
    rules = dataclasses.replace(Rules.preset("house"), minimum_bank=300)
    advice = turn_advice(rules, 250, 2)
    assert advice.bank is None and advice.action == "throw"
    assert min(bank_thresholds(rules).values()) >= 300
