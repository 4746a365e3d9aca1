"""The chance to win a game of two (engine/advice/win.py): values worked out by hand, the
Bellman equation the solution must satisfy, properties, the shipped tables, and a seeded
Monte Carlo game of two optimal players."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import zlib
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, InvalidInput, Rules, advise, catch_up_chance, farkle_chance, scoring_options
from engine.advice.values import bank_allowed
from engine.advice.win import prepare_win_chance, solve_win_table, win_chance, win_table_ready
from engine.advice.win_format import TABLES_FILE, read_tables, write_tables
from engine.advice.win_tables import FACEBOOK_FARKLE, SHIPPED, busche_neller_rules, fairest_compensation
from tests.support.app_driver import run, start_game, throw
from tests.support.flet_harness import FletHarness
from tests.app.test_table_advice import advice_shown

HOUSE = Rules.preset("house")
TINY = dataclasses.replace(HOUSE, target=50, entry_threshold=0)
"""Any scoring throw reaches the target."""
SMALL = dataclasses.replace(HOUSE, target=300, entry_threshold=0)
SMALL_ENTRY = dataclasses.replace(HOUSE, target=400, entry_threshold=200)
SMALL_SCORES = st.integers(0, 5).map(lambda level: level * 50)
SMALL_MINIMUM = dataclasses.replace(SMALL, target=400, minimum_bank=200)
"""Every bank on the board at least 200: half the target."""
SMALL_PROGRESSIVE = dataclasses.replace(Rules.preset("progressive"), target=500, entry_threshold=200)
"""A bank passes its points and the dice left; solved exactly on first use."""
OFFICIAL_4000 = dataclasses.replace(Rules.preset("official"), target=4000)
"""A shipped table under a three-farkle penalty of 1,000: both players' streaks count."""
OFFICIAL_SCORES = st.integers(0, 79).map(lambda level: level * 50)


def test_a_target_one_scoring_throw_reaches_is_won_by_the_first_to_score_when_the_first_to_bank_wins() -> None:
    farkle = float(farkle_chance(6, TINY))
    # W = (1 - f) + f (1 - W): score now, or the other player starts in the same place.
    assert win_chance(dataclasses.replace(TINY, end_rule="first_to_target"), (0, 0), 0) == pytest.approx(1 / (1 + farkle), abs=1e-9)


@pytest.mark.parametrize(("turn_points", "dice", "chance"), [
    (200, 2, 1.0),            # 9,850 + 200 passes 10,000: bank
    (150, 2, 1 - 4 / 9),      # a tie if banked (a half): throwing two dice scores 5/9 of the time
    (150, 1, 0.5),            # one die scores 1/3 of the time: bank the tie
    (0, 6, None),             # far behind: the final round's one-turn chance
])
def test_the_last_turn_of_the_final_round_is_won_by_banking_more_than_the_leader(
        turn_points: int, dice: int, chance: float | None) -> None:
    scores = (9_850, 10_000) if turn_points else (7_000, 10_000)
    found = win_chance(HOUSE, scores, 0, turn_points, dice)
    if chance is not None:
        assert found == pytest.approx(chance, abs=1e-12)
    else:
        assert catch_up_chance(HOUSE, 3_050) <= found <= catch_up_chance(HOUSE, 3_000)


@pytest.mark.parametrize(("scores", "turn_points", "dice", "need"), [
    ((350, 400), 0, 6, 200),    # 100 would lead, but a bank is at least 200
    ((350, 400), 150, 1, 200),  # 150 held: one die to reach 200
    ((150, 400), 0, 6, 300),    # 300 leads: more than the minimum bank
])
def test_a_last_turn_short_by_less_than_the_minimum_bank_must_reach_the_minimum_bank(
        scores: tuple[int, int], turn_points: int, dice: int, need: int) -> None:
    found = win_chance(SMALL_MINIMUM, scores, 0, turn_points, dice)
    if need == SMALL_MINIMUM.minimum_bank:
        assert found == catch_up_chance(SMALL_MINIMUM, need, turn_points, dice)
    else:  # a tie at 250 is worth a half
        assert catch_up_chance(SMALL_MINIMUM, need, turn_points, dice) <= found
        assert found <= catch_up_chance(SMALL_MINIMUM, need - 50, turn_points, dice)


@pytest.mark.parametrize(("rules", "scores"), [(SMALL, (100, 150)), (SMALL_ENTRY, (0, 250)),
                                               (SMALL_MINIMUM, (100, 250))])
def test_the_start_of_a_turn_is_worth_its_throw_under_the_best_keep_and_the_other_player_after_a_farkle(
        rules: Rules, scores: tuple[int, int]) -> None:
    for end_rule in ("first_to_target", "final_round"):
        rules = dataclasses.replace(rules, end_rule=end_rule)
        total = Fraction(0)
        expected = 0.0
        for roll in combinations_with_replacement(range(1, 7), 6):
            options = scoring_options(roll, rules)
            if not options:
                continue
            chance = Fraction(math.factorial(6), math.prod(math.factorial(n) for n in Counter(roll).values())) / 6**6
            total += chance
            expected += float(chance) * max(
                win_chance(rules, scores, 0, option.points, option.dice_left or 6)
                for option in options)
        expected += float(1 - total) * (1 - win_chance(rules, scores, 1))
        assert win_chance(rules, scores, 0) == pytest.approx(expected, abs=1e-8)


def farkle_and_after(rules: Rules, scores: tuple[int, int], streaks: tuple[int, int]) -> tuple[tuple[int, int],
                                                                                              tuple[int, int]]:
    """The totals and streaks after the mover (seat 0) farkles: a third takes the penalty."""
    if streaks[0] == 2:
        return (scores[0] - rules.penalty_on(scores[0]), scores[1]), (0, streaks[1])
    return scores, (streaks[0] + 1, streaks[1])


@pytest.mark.parametrize(("scores", "streaks"), [((0, 0), (0, 0)), ((1500, 2500), (2, 0)), ((3000, 500), (1, 2)),
                                                 ((0, 3500), (2, 2)), ((3900, 3900), (0, 1))])
def test_a_shipped_penalty_table_is_worth_its_first_throw_with_a_third_farkle_costing_the_penalty(
        scores: tuple[int, int], streaks: tuple[int, int]) -> None:
    rules = OFFICIAL_4000
    total = Fraction(0)
    expected = 0.0
    for roll in combinations_with_replacement(range(1, 7), 6):
        options = scoring_options(roll, rules)
        if options:
            chance = Fraction(math.factorial(6), math.prod(math.factorial(n) for n in Counter(roll).values())) / 6**6
            total += chance
            expected += float(chance) * max(
                win_chance(rules, scores, 0, option.points, option.dice_left or 6, streaks) for option in options)
    after, streaks_after = farkle_and_after(rules, scores, streaks)
    expected += float(1 - total) * (1 - win_chance(rules, after, 1, streaks=streaks_after))
    assert win_chance(rules, scores, 0, streaks=streaks) == pytest.approx(expected, abs=3 / 65535)  # stored to 2 bytes


@settings(max_examples=80, deadline=None)
@given(OFFICIAL_SCORES, OFFICIAL_SCORES, st.integers(0, 1), st.integers(0, 2))
def test_a_farkle_more_in_the_streak_never_raises_a_chance_under_the_penalty(mine: int, other: int, streak: int,
                                                                              theirs: int) -> None:
    before = win_chance(OFFICIAL_4000, (mine, other), 0, streaks=(streak, theirs))
    after = win_chance(OFFICIAL_4000, (mine, other), 0, streaks=(streak + 1, theirs))
    assert 0.0 <= after <= before + 1 / 65535
    assert win_chance(OFFICIAL_4000, (other, mine), 1, streaks=(theirs, streak + 1)) == after


def test_the_first_player_wins_facebook_farkle_53_487_percent_of_the_time_as_busche_found() -> None:
    assert f"{win_chance(FACEBOOK_FARKLE, (0, 0), 0):.3%}" == "53.487%"


@settings(max_examples=60, deadline=None)
@given(SMALL_SCORES, SMALL_SCORES, st.sampled_from([SMALL, SMALL_ENTRY]))
def test_a_win_chance_is_a_chance_and_the_same_from_either_seat(mine: int, other: int, rules: Rules) -> None:
    chance = win_chance(rules, (mine, other), 0)
    assert 0.0 <= chance <= 1.0
    assert win_chance(rules, (other, mine), 1) == chance


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4).map(lambda level: level * 50), SMALL_SCORES, st.integers(0, 6).map(lambda level: level * 50),
       st.integers(1, 6), st.booleans())
def test_a_win_chance_never_falls_as_the_movers_own_score_rises(mine: int, other: int, turn_points: int,
                                                               dice: int, final_round: bool) -> None:
    rules = SMALL if final_round else dataclasses.replace(SMALL, end_rule="first_to_target")
    if final_round:  # at the start of a turn (mid-turn, see the test below)
        turn_points, dice = 0, 6
    lower = win_chance(rules, (mine, other), 0, turn_points, dice)
    assert win_chance(rules, (mine + 50, other), 0, turn_points, dice) >= lower - 1e-9


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 9).map(lambda level: level * 50), st.integers(0, 9).map(lambda level: level * 50),
       st.integers(1, 10).map(lambda level: level * 50), st.integers(1, 6))
def test_with_passing_an_offer_never_lowers_a_chance_nor_does_a_higher_total_or_a_lower_one_for_the_other(
        mine: int, other: int, points: int, dice: int) -> None:
    rules = SMALL_PROGRESSIVE
    fresh = win_chance(rules, (mine, other), 0)
    assert 0.0 <= fresh <= win_chance(rules, (mine, other), 0, offer=(points, dice)) <= 1.0
    assert win_chance(rules, (other, mine), 1) == fresh
    if mine + 50 < rules.target:
        assert win_chance(rules, (mine + 50, other), 0) >= fresh - 1e-9
    if other + 50 < rules.target:
        assert win_chance(rules, (mine, other + 50), 0) <= fresh + 1e-9


def test_mid_turn_a_bank_that_reaches_the_target_can_be_worth_less_than_one_just_short_of_it() -> None:
    # 250 banked at 0-0 keeps the game going (51 %); at 50-0 it makes 300, the target, and
    # the other player's one last turn catches up 78 % of the time: throwing two dice on
    # is better than that bank (50 %), and worse than banking short of the target.
    short = win_chance(SMALL, (0, 0), 0, 250, 2)
    reaching = win_chance(SMALL, (50, 0), 0, 250, 2)
    assert short == 1 - win_chance(SMALL, (250, 0), 1)
    assert 1 - win_chance(SMALL, (300, 0), 1) < reaching < short


def test_moving_first_is_an_advantage_and_a_head_start_can_make_up_for_it() -> None:
    first = win_chance(SMALL_ENTRY, (0, 0), 0)
    assert first > 0.5
    points, chance = fairest_compensation(solve_win_table(SMALL_ENTRY))
    assert points > 0 and abs(chance - 0.5) <= abs(first - 0.5)


@pytest.mark.parametrize(("scores", "to_move", "words"), [
    ((0, 0, 0), 0, "two players"),
    ((0, 75), 0, "steps of 50"),
    ((0, -50), 0, "0 or more"),
    ((0, 0), 2, "0 or 1"),
    ((300, 0), 0, "the other player has the last turn"),
    ((300, 300), 1, "the game is over"),
])
def test_a_state_no_game_of_two_can_reach_is_refused_in_words(scores: tuple[int, ...], to_move: int,
                                                             words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        win_chance(SMALL, scores, to_move)


@pytest.mark.parametrize("rules", [dataclasses.replace(HOUSE, steal=True),
                                   dataclasses.replace(Rules.preset("progressive"), triple_farkle_penalty=500),
                                   dataclasses.replace(Rules.preset("official"), lowest_total=None),
                                   dataclasses.replace(Rules.preset("official"), entry_threshold=500)])
def test_rules_the_win_chance_is_not_solved_for_are_refused_with_the_reason(rules: Rules) -> None:
    with pytest.raises(InvalidInput, match="steal|passing dice beside|no lowest total|an entry threshold"):
        win_chance(rules, (0, 0), 0)
    assert not win_table_ready(rules) and not prepare_win_chance(rules)


def test_a_large_target_without_a_shipped_table_is_not_solved_on_the_way() -> None:
    rules = dataclasses.replace(HOUSE, target=9_950)
    assert not prepare_win_chance(rules) and not win_table_ready(rules)
    with pytest.raises(InvalidInput, match="takes minutes to solve"):
        win_chance(rules, (0, 0), 0)


def test_a_table_written_and_read_keeps_every_chance_to_two_bytes() -> None:
    table = solve_win_table(SMALL_ENTRY)
    (read,) = read_tables(write_tables([table])).values()
    assert max(abs(a - b) for a, b in zip(table.start, read.start)) <= 0.5 / 65535


@pytest.mark.parametrize(("name", "rules"), SHIPPED)
def test_every_shipped_table_is_read_for_its_rules(name: str, rules: Rules) -> None:
    target = rules.target
    assert rules in read_tables(TABLES_FILE.read_bytes())
    assert win_table_ready(rules)
    assert 0.5 < win_chance(rules, (0, 0), 0) < 0.6
    assert win_chance(rules, (target - 50, 0), 0) > 0.9


def test_busche_and_nellers_simplest_game_favours_the_first_player_and_a_head_start_evens_it() -> None:
    rules = busche_neller_rules(500)
    first = win_chance(rules, (0, 0), 0)
    points, chance = fairest_compensation(solve_win_table(rules))
    assert first > 0.5 and points > 0 and abs(chance - 0.5) < abs(first - 0.5)


@pytest.mark.parametrize("rules", [SMALL, SMALL_MINIMUM, dataclasses.replace(SMALL_MINIMUM, end_rule="first_to_target"),
                                   SMALL_PROGRESSIVE, dataclasses.replace(SMALL_PROGRESSIVE, end_rule="first_to_target"),
                                   dataclasses.replace(Rules.preset("classic"), target=400, minimum_bank=150)])
def test_two_optimal_players_simulated_win_as_often_as_the_table_says(rules: Rules) -> None:
    games = 3000
    rng = random.Random(18)
    first_wins = sum(_first_player_wins(rules, rng) for _ in range(games))
    expected = win_chance(rules, (0, 0), 0)
    error = math.sqrt(expected * (1 - expected) / games)
    assert abs(first_wins / games - expected) <= 4 * error


def _first_player_wins(rules: Rules, rng: random.Random) -> bool:
    """One game of two players who each keep, bank or throw for the best win chance (and,
    with passing, build on an offer or throw six fresh dice)."""
    scores, mover, last_turn, offer = [0, 0], 0, False, None
    while True:
        turn, dice = 0, 6
        if offer is not None and _built(rules, tuple(scores), mover, *offer) > _chance(rules, tuple(scores), mover, 0, 6):
            turn, dice = offer
        while True:
            roll = tuple(sorted(rng.randint(1, 6) for _ in range(dice)))
            options = scoring_options(roll, rules)
            if not options:
                turn = -1
                break
            best = max(options, key=lambda option: _chance(rules, tuple(scores), mover, turn + option.points,
                                                         option.dice_left or 6))
            turn, dice = turn + best.points, best.dice_left or 6
            allowed = bank_allowed(rules, turn, scores[mover] > 0 or rules.entry_threshold == 0)
            if allowed and _bank_value(rules, scores, mover, turn, dice) >= _chance(rules, tuple(scores), mover, turn,
                                                                                      dice) - 1e-12:
                break
        if last_turn:
            total = scores[mover] + max(turn, 0)
            leader = scores[1 - mover]
            return (total > leader or total == leader and rng.random() < 0.5) == (mover == 0)
        offer = (turn, dice) if rules.progressive and turn > 0 else None
        if turn > 0:
            scores[mover] += turn
            if scores[mover] >= rules.target and rules.end_rule == "first_to_target":
                return mover == 0
            last_turn = scores[mover] >= rules.target
        mover = 1 - mover


def _bank_value(rules: Rules, scores: list[int], mover: int, turn: int, dice: int) -> float:
    total, leader = scores[mover] + turn, scores[1 - mover]
    if leader >= rules.target:
        return 1.0 if total > leader else 0.5 if total == leader else 0.0
    if total >= rules.target and rules.end_rule == "first_to_target":
        return 1.0
    banked = list(scores)
    banked[mover] += turn
    fresh = _chance(rules, tuple(banked), 1 - mover, 0, 6)
    return 1 - (max(fresh, _built(rules, tuple(banked), 1 - mover, turn, dice)) if rules.progressive else fresh)


@lru_cache(maxsize=None)
def _chance(rules: Rules, scores: tuple[int, ...], mover: int, turn: int, dice: int) -> float:
    return win_chance(rules, scores, mover, turn, dice)


@lru_cache(maxsize=None)
def _built(rules: Rules, scores: tuple[int, ...], mover: int, points: int, dice: int) -> float:
    """Building on an offer: its dice must be thrown before anything is banked."""
    return win_chance(rules, scores, mover, points, dice, may_bank=False)


def test_the_advice_in_a_game_of_two_says_how_often_the_player_to_act_wins() -> None:
    assert prepare_win_chance(SMALL) and win_table_ready(SMALL)
    game = Game(["Ann", "Bob"], SMALL)
    game.roll("1 5 2 2 3 4")
    advice = advise(game)
    keeps = ((100, 5), (50, 5), (150, 4))
    assert advice.win_chance == max(win_chance(SMALL, (0, 0), 0, points, left) for points, left in keeps)
    assert advice.describe().endswith(f"Ann wins {advice.win_chance:.0%} of the time.".replace("%", " %"))


def test_a_game_of_three_has_no_win_chance_in_its_advice() -> None:
    game = Game(["Ann", "Bob", "Cy"], SMALL)
    assert advise(game).win_chance is None


def test_the_tables_advice_line_says_the_win_chance_in_a_game_of_two_to_a_shipped_target(data_dir: object) -> None:
    rules = dataclasses.replace(HOUSE, target=4000)

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", target="4000")
        await ui.click("advice-switch")
        await throw(ui, "1 5 2 3 4 4")
        chance = max(win_chance(rules, (0, 0), 0, points, left) for points, left in ((100, 5), (50, 5), (150, 4)))
        line = await advice_shown(ui)
        assert line.startswith("Advice: Keep 1")
        assert line.endswith(f"Ann wins {chance:.0%} of the time.".replace("%", " %"))

    run(test)


@pytest.mark.parametrize("preset", ["progressive", "classic"])
@pytest.mark.parametrize(("scores", "to_move", "offer", "builds"), [
    ((0, 1500), 0, (1500, 6), True),        # hot dice passed: more than six fresh dice are worth
    ((2000, 3050), 0, (50, 1), False),      # one die for 50: six fresh dice are worth more
    ((9500, 10_300), 0, (300, 3), False),   # the last turn: 550 more with three dice, or 850 with six
    ((9500, 10_300), 0, (600, 4), True),    # 250 more with four dice
])
def test_a_shipped_passing_tables_offer_is_worth_the_better_of_building_on_it_and_six_fresh_dice(
        preset: str, scores: tuple[int, int], to_move: int, offer: tuple[int, int], builds: bool) -> None:
    rules = Rules.preset(preset)
    assert win_table_ready(rules)
    fresh = win_chance(rules, scores, to_move)
    built = win_chance(rules, scores, to_move, *offer, may_bank=False)
    assert win_chance(rules, scores, to_move, offer=offer) == max(fresh, built)
    assert 0 < built < 1 and 0 < fresh < 1
    assert (built > fresh) == builds


def test_the_advice_in_a_progressive_game_of_two_counts_the_offer_and_building_on_it() -> None:
    rules = Rules.preset("progressive")
    game = Game(["Ann", "Bob"], rules)
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()  # Bob is offered 1,000 with three dice
    offered = advise(game).win_chance
    assert offered == win_chance(rules, (1000, 0), 1, offer=(1000, 3)) > win_chance(rules, (1000, 0), 1)
    game.build()
    assert advise(game).win_chance == win_chance(rules, (1000, 0), 1, 1000, 3, may_bank=False) <= offered


def test_the_tables_advice_line_in_a_progressive_game_of_two_says_the_win_chance_with_the_offer(data_dir: object) -> None:
    rules = Rules.preset("progressive")

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", preset="progressive")
        await ui.click("advice-switch")
        await throw(ui, "1 1 1 2 3 4")
        await ui.click("best-option")
        await ui.click("bank")  # Bob is offered 1,000 with three dice
        chance = win_chance(rules, (1000, 0), 1, offer=(1000, 3))
        line = await advice_shown(ui)
        assert line.startswith("Advice: Build")
        assert line.endswith(f"Bob wins {chance:.0%} of the time.".replace("%", " %"))

    run(test)


@pytest.mark.parametrize("rules", [SMALL_ENTRY, OFFICIAL_4000], ids=["no streaks", "a penalty's three streaks"])
def test_a_file_whose_heads_still_say_the_streaks_reads_as_before(rules: Rules) -> None:
    table = solve_win_table(rules) if rules is SMALL_ENTRY else read_tables(TABLES_FILE.read_bytes())[rules]
    head, values = zlib.decompress(write_tables([table])).split(b"\n", 1)
    written_before = json.dumps(json.loads(head) | {"streaks": 3 if rules.triple_farkle_penalty else 1}).encode()
    (read,) = read_tables(zlib.compress(written_before + b"\n" + values)).values()
    assert read.rules == rules and read.streaks == table.streaks
    assert max(abs(a - b) for a, b in zip(read.start, table.start)) <= 0.5 / 65535


def test_the_shipped_tables_together_fit_the_pwas_budget_of_2_mb() -> None:
    assert TABLES_FILE.stat().st_size <= 2_000_000


def test_a_last_turn_built_on_an_offer_past_the_leader_must_still_score_with_the_dice_passed() -> None:
    rules = dataclasses.replace(Rules.preset("classic"), minimum_bank=300)
    # 9,900 against 10,000: the offer of 300 puts Ann ahead, but its two dice must be thrown first.
    assert win_chance(rules, (9_900, 10_000), 0, 300, 2, may_bank=False) == pytest.approx(5 / 9)
    assert win_chance(rules, (9_900, 10_000), 0, 300, 2) == 1.0  # kept, not passed: bank and lead
