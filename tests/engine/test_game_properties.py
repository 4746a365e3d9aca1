"""Invariants that must hold for every throw, every rule set and every legal game."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import N_OF_A_KIND_MODELS, Game, IllegalAction, Rules, best_score, farkle_chance, score, scoring_options
from engine.events import Built, GameStarted, event_from_dict
from engine.game import apply
from engine.game.state import start
from tests.support.game_play import play_game, play_turn

dice = st.lists(st.integers(1, 6), min_size=1, max_size=6)
rules = st.builds(
    Rules,
    target=st.sampled_from([1000, 2000, 4000, 10_000]),
    entry_threshold=st.sampled_from([0, 250, 500]),
    three_ones=st.sampled_from([1000, 300]),
    n_of_a_kind=st.sampled_from(N_OF_A_KIND_MODELS),
    straight=st.sampled_from([None, 1000, 1500, 3000]),
    three_pairs=st.sampled_from([None, 500, 750, 1500]),
    two_triplets=st.sampled_from([None, 2500]),
    four_kind_with_pair=st.sampled_from([None, 1500]),
    triple_farkle_penalty=st.sampled_from([0, 500, 1000]),
    must_roll_after_hot_dice=st.booleans(),
    progressive=st.booleans(),
    steal=st.booleans(),
)


# No deadline: the first throw under a new rule set builds its scoring table, slow on a busy machine.
@settings(deadline=None)
@given(dice, rules)
def test_every_option_scores_what_it_claims_and_fits_in_the_throw(roll, rule_set):
    for option in scoring_options(roll, rule_set):
        assert score(option.keep, rule_set) == option.points
        assert not Counter(option.keep) - Counter(roll)
        assert option.dice_left == len(roll) - len(option.keep)


@settings(deadline=None)
@given(dice, rules)
def test_best_score_is_the_best_option(roll, rule_set):
    options = scoring_options(roll, rule_set)
    assert best_score(roll, rule_set) == (options[0].points if options else 0)


@settings(max_examples=20, deadline=None)
@given(rules, st.integers(1, 5))
def test_farkle_chance_equals_a_brute_force_count(rule_set, n):
    farkles = sum(best_score(roll, rule_set) == 0 for roll in product(range(1, 7), repeat=n))
    assert farkle_chance(n, rule_set) == Fraction(farkles, 6**n)


def random_game(seed: int, rule_set: Rules, players: int) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], rule_set, first=rng.randrange(players))
    return game, rng


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), rules, st.integers(2, 5))
def test_random_legal_games_end_with_a_winner_and_no_negative_total(seed, rule_set, players):
    game, rng = random_game(seed, dataclasses.replace(rule_set, target=min(rule_set.target, 4000)), players)
    play_game(game, rng)
    assert game.is_over and game.winner is not None
    assert min(game.scores) >= 0
    assert game.scores[game.winner] == max(game.scores) >= game.rules.target
    assert 0 <= max(game.farkle_streak) < 3
    turns_after_final = Counter(record.seat for record in game.history[-(players - 1):])
    assert all(count == 1 for count in turns_after_final.values())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), rules, st.integers(1, 40))
def test_undo_after_any_action_gives_back_an_equal_game(seed, rule_set, turns):
    game, rng = random_game(seed, rule_set, 3)
    for _ in range(turns):
        if game.is_over or game.tied:
            break
        play_turn(game, rng)
    before = Game.from_events(game.events)
    for action in (lambda: game.set_rules(rule_set), lambda: play_turn(game, rng)):
        if game.is_over or game.tied:
            break
        length = len(game.events)
        action()
        while len(game.events) > length:
            game.undo()
        assert game == before


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), rules)
def test_a_game_replayed_from_its_log_equals_the_game(seed, rule_set):
    game, rng = random_game(seed, rule_set, 4)
    play_game(game, rng, max_turns=rng.randint(0, 60))
    assert Game.from_events(game.events) == game


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), rules, st.integers(2, 4))
def test_an_offer_is_open_exactly_when_the_engine_accepts_building_on_it(seed, rule_set, players):
    game, rng = random_game(seed, dataclasses.replace(rule_set, target=min(rule_set.target, 4000)), players)
    play_game(game, rng)
    first = event_from_dict(game.events[0])
    assert isinstance(first, GameStarted)
    state = start(first)
    for entry in game.events[1:]:
        try:
            apply(state, Built())
        except IllegalAction:
            assert state.open_offer is None
        else:
            assert state.open_offer is state.offer is not None
        state = apply(state, event_from_dict(entry))
