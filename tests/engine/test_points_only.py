"""Points only: a turn entered as its bank or a farkle keeps every rule the points can still be
checked against (engine/RULES.md §3.8), and says plainly that the throws are not checked."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, IllegalAction, Rules
from engine.events import GAME_LOG, GameStarted
from engine.stats import player_stats

HOUSE = Rules.preset("house")
OFFICIAL = Rules.preset("official")


def points_game(rules: Rules = HOUSE, players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Game:
    return Game(players, rules, points_only=True)


def play(game: Game, turns: list[int | str]) -> None:
    """Each turn as a table says it: a bank's points, or "farkle"."""
    for turn in turns:
        if turn == "farkle":
            game.farkle()
        else:
            assert isinstance(turn, int)
            game.bank_points(turn)


def test_a_three_player_game_in_points_only_ends_after_the_final_round() -> None:
    game = points_game(dataclasses.replace(HOUSE, target=3000))
    play(game, [1000, 600, "farkle", 900, 750, 500, 1200])
    assert game.scores == (3100, 1350, 500) and game.final_round and game.last_turns == (1, 2)
    assert game.notices[-1].text == "Ann reached 3,100. Final round: last turns for Bob and Cy."
    game.bank_points(2000)
    assert not game.is_over
    game.farkle()
    assert game.is_over and game.winner == 1 and game.scores == (3100, 3350, 500)
    assert game.notices[-1].text == "Bob wins with 3,350!"
    with pytest.raises(IllegalAction, match="The game is over: Bob won"):
        game.bank_points(500)


def test_a_third_farkle_in_a_row_costs_the_official_penalty_and_the_undo_says_so() -> None:
    game = points_game(OFFICIAL, ("Ann", "Bob"))
    play(game, [2500, 300, "farkle", 300, "farkle", 300])
    assert game.farkle_streak == (2, 0)
    game.farkle()
    assert game.scores == (1500, 900) and game.farkle_streak == (0, 0)
    assert game.notices[0].text == "Farkle for Ann: a third farkle in a row costs Ann 1,000: total 1,500."
    assert game.history[-1].penalty == 1000 and game.history[-1].throws == ()
    assert game.undo().text == "Undone: Ann's farkle and the 1,000 it cost"
    assert game.scores == (2500, 900) and game.farkle_streak == (2, 0)


def test_a_tie_for_the_win_is_settled_by_a_roll_off() -> None:
    game = points_game(dataclasses.replace(HOUSE, target=1000), ("Ann", "Bob"))
    play(game, [1000, 1000])
    assert game.tied == (0, 1) and game.phase == "roll_off"
    with pytest.raises(IllegalAction, match="tied for the win: enter their roll-off dice first"):
        game.bank_points(500)
    game.roll_off({0: 4, 1: 6})
    assert game.winner == 1 and game.places == (2, 1)


@pytest.mark.parametrize(
    ("rules", "before", "points", "refusal"),
    [
        (HOUSE, [], 300, "Ann needs 500 in one turn to get on the board: 300 is not enough (a turn stopped short of it scores nothing: enter a farkle)."),
        (HOUSE, [], 325, "325 cannot be banked under these rules: every score is a multiple of 50 (300 or 350?)."),
        (HOUSE, [], 20, "20 cannot be banked under these rules: every score is a multiple of 50 (50?)."),
        (HOUSE, [], 0, "0 cannot be banked: a bank is more than 0. If Ann scored nothing, enter a farkle."),
        (HOUSE, [], -50, "-50 cannot be banked: a bank is more than 0. If Ann scored nothing, enter a farkle."),
        (HOUSE, [], 5_000_000, "5,000,000 is more than any turn scores: check the number Ann banked."),
        (dataclasses.replace(OFFICIAL, minimum_bank=300), [], 250,
         "Ann is on the board: a bank needs at least 300; this turn has 250 (a turn stopped short of it scores nothing: enter a farkle)."),
        (dataclasses.replace(HOUSE, single_five=25), [], 510, "510 cannot be banked under these rules: every score is a multiple of 25 (500 or 525?)."),
    ],
)
def test_a_bank_the_rules_refuse_is_refused_in_words_and_changes_nothing(
    rules: Rules, before: list[int | str], points: int, refusal: str
) -> None:
    game = points_game(rules, ("Ann", "Bob"))
    play(game, before)
    events = game.events
    with pytest.raises(IllegalAction) as raised:
        game.bank_points(points)
    assert str(raised.value) == refusal
    assert game.events == events


def test_a_game_says_plainly_that_it_cannot_check_the_throws_in_points_only() -> None:
    assert points_game().unchecked is not None and "the throws are not entered" in points_game().unchecked
    assert Game(["Ann", "Bob"]).unchecked is None
    assert points_game().points_step == 50


@pytest.mark.parametrize(
    ("action", "refusal"),
    [
        (lambda game: game.roll("1 2 3 4 4 6"), "This game is kept in points only: enter Ann's bank or a farkle"),
        (lambda game: game.keep("1"), "This game is kept in points only"),
        (lambda game: game.bank(), "This game is kept in points only"),
        (lambda game: game.switch_entry(True), "This game is already entered as points only"),
    ],
)
def test_entering_dice_in_a_points_only_game_is_refused(action: Callable[[Game], None], refusal: str) -> None:
    game = points_game()
    with pytest.raises(IllegalAction, match=refusal):
        action(game)
    assert game.bank_refusal() is not None and game.bank_refusal().startswith("This game is kept in points only")


def test_a_game_switches_to_dice_at_a_turn_start_and_back_and_undo_crosses_the_switch() -> None:
    game = points_game(players=("Ann", "Bob"))
    game.bank_points(600)
    game.switch_entry(False)
    assert game.notices[0].text == "From Bob's turn on, turns are entered die by die."
    with pytest.raises(IllegalAction, match="This game is entered die by die: enter Bob's throw"):
        game.bank_points(500)
    game.roll("1 1 1 2 3 4")
    with pytest.raises(IllegalAction, match="Bob's turn has begun with dice: switch to points only when Bob banks"):
        game.switch_entry(True)
    game.keep("1 1 1")
    game.bank()
    game.switch_entry(True)
    assert game.points_only and game.notices[0].text.startswith("From Ann's turn on, turns are entered as points only")
    game.bank_points(350)
    assert game.scores == (950, 1000)
    assert [game.undo().text for _ in range(3)] == [
        "Undone: Ann's bank of 350",
        "Undone: the switch to points only",
        "Undone: Bob's bank of 1,000",
    ]
    assert not game.points_only and game.phase == "choose"
    game.bank()
    game.switch_entry(True)
    assert game.points_only and game.scores == (600, 1000)


def test_progressive_passing_offers_the_dice_a_bank_leaves_and_a_build_must_add_to_the_offer() -> None:
    game = points_game(Rules.preset("progressive"), ("Ann", "Bob"))
    game.bank_points(600, passed=2)
    assert game.offer is not None and (game.offer.points, game.offer.dice) == (600, 2)
    game.build()
    with pytest.raises(IllegalAction, match="Bob built on 600: the bank is those points and what Bob added, so more than 600, not 600"):
        game.bank_points(600)
    game.bank_points(700)
    assert game.scores == (600, 700) and game.offer is None
    assert game.history[-1].built_on is not None and game.history[-1].built_on.points == 600
    with pytest.raises(IllegalAction, match="a bank leaves 1 to 6 dice to pass"):
        game.bank_points(500, passed=7)


def test_a_build_that_farkles_loses_the_points_built_on() -> None:
    game = points_game(Rules.preset("progressive"), ("Ann", "Bob"))
    game.bank_points(600, passed=3)
    game.build()
    game.farkle()
    assert game.scores == (600, 0) and game.history[-1].points == 600
    assert game.notices[0].text == "Farkle for Bob: Bob loses the 600 of this turn; Bob's total stays 0."


def test_dice_passed_under_rules_that_do_not_pass_them_are_refused() -> None:
    with pytest.raises(IllegalAction, match="These rules do not pass dice to the next player: enter only the points"):
        points_game().bank_points(500, passed=2)


def test_a_die_by_die_game_logs_its_start_as_before_and_a_points_only_game_says_so() -> None:
    assert "points_only" not in Game(["Ann", "Bob"]).events[0]
    assert points_game().events[0]["points_only"] is True
    assert GAME_LOG.from_dict(points_game().events[0]) == GameStarted(("Ann", "Bob", "Cy"), HOUSE, 0, True)


def test_the_figures_of_a_points_only_game_count_its_turns_and_farkles() -> None:
    game = points_game(players=("Ann", "Bob"))
    play(game, [600, "farkle", "farkle", 800])
    ann, bob = player_stats(game)
    assert (ann.turns, ann.farkles, ann.best_turn, ann.on_board_turn) == (2, 1, 600, 1)
    assert (bob.turns, bob.banked_points, bob.on_board_turn, bob.hot_dice) == (2, 800, 2, None)


def random_points_turn(game: Game, rng: random.Random) -> None:
    """A legal points-only turn: a farkle, or a bank in the rules' step big enough to count."""
    if game.tied:
        game.roll_off({seat: rng.randint(1, 6) for seat in game.tied})
        return
    if game.state.open_offer is not None and rng.random() < 0.5:
        game.build()
    if rng.random() < 0.3:
        game.farkle()
        return
    floor = max(game.rules.entry_threshold, game.rules.minimum_bank, game.turn_points + 50)
    passed = rng.randint(1, 6) if game.rules.progressive and rng.random() < 0.5 else None
    game.bank_points(floor + 50 * rng.randint(0, 20), passed)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["house", "progressive", "official", "classic"]), st.integers(2, 4))
def test_replaying_a_points_only_log_gives_the_same_game_and_undo_everywhere_gives_it_back(
    seed: int, preset: str, players: int
) -> None:
    rng = random.Random(seed)
    game = points_game(dataclasses.replace(Rules.preset(preset), target=3000), ("Ann", "Bob", "Cy", "Dee")[:players])
    played = [game.copy()]
    while not game.is_over and len(played) < 200:
        if rng.random() < 0.05 and not game.tied:
            game.switch_entry(False)
            game.switch_entry(True)
        random_points_turn(game, rng)
        played.append(game.copy())
    again = Game.from_events(game.events)
    assert again == game and again.state == game.state
    for before in reversed(played[:-1]):
        while len(game.events) > len(before.events):
            game.undo()
        assert game == before
