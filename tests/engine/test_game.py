"""Whole turns and games: every rule of engine/RULES.md sections 2-4, and the examples it takes
from its source texts."""

from __future__ import annotations

import dataclasses

import pytest

import engine.game
from engine import Game, IllegalAction, InvalidInput, Rules, bank_refusal

HOUSE = Rules.preset("house")
PROGRESSIVE = Rules.preset("progressive")
OFFICIAL = Rules.preset("official")


def bank_points(game: Game, points_throw: str = "1 1 1 5 2 3", keep: str = "1 1 1 5") -> None:
    """Play one turn that banks 1,050 with the given throw."""
    game.roll(points_throw)
    game.keep(keep)
    game.bank()


def farkle(game: Game) -> None:
    game.roll("2 2 3 3 4 6")


def test_the_official_example_round_banks_350():
    """engine/RULES.md §1.6, from Farkle Official Rules."""
    game = Game(["Ann", "Bob"], OFFICIAL)
    game.roll("1 2 3 3 5 6")
    game.keep("1 5")
    assert (game.turn_points, game.dice_in_hand) == (150, 4)
    game.roll("2 2 2 6")
    game.keep("2 2 2")
    game.bank()
    assert game.scores == (350, 0)
    assert game.current == 1


def test_two_ones_set_aside_then_a_third_thrown_is_300():
    game = Game(["Ann", "Bob"], HOUSE)
    game.roll("1 1 2 3 4 6")
    game.keep("1 1")
    game.roll("1 2 3 4")
    game.keep("1")
    assert game.turn_points == 300


def test_1_2_4_4_4_5_then_a_scoring_last_die_is_hot_dice():
    game = Game(["Ann", "Bob"], HOUSE)
    game.roll("1 2 4 4 4 5")
    game.keep("1 4 4 4 5")
    assert (game.turn_points, game.dice_in_hand) == (550, 1)
    game.roll("5")
    game.keep("5")
    assert (game.turn_points, game.dice_in_hand) == (600, 6)
    assert [notice.kind for notice in game.notices] == ["hot_dice"]
    game.roll("1 2 3 4 6 6")
    game.keep("1")
    assert (game.turn_points, game.dice_in_hand) == (700, 5)


def test_keeping_again_replaces_the_selection():
    game = Game(["Ann", "Bob"], HOUSE)
    game.roll("1 2 3 3 3 5")
    game.keep("1")
    game.keep("3 3 3 1")
    assert (game.turn_points, game.dice_in_hand) == (400, 2)


def test_a_farkle_loses_the_turn_points_and_passes_the_dice():
    game = Game(["Ann", "Bob"], HOUSE)
    game.roll("1 2 3 3 3 5")
    game.keep("1 3 3 3 5")
    game.roll("2")
    assert game.scores == (0, 0) and game.current == 1
    assert game.notices[0].kind == "farkle"
    assert "Ann loses the 450 of this turn; Ann's total stays 0." in game.notices[0].text
    assert game.history[-1].outcome == "farkled" and game.history[-1].points == 450


def test_banking_below_the_entry_threshold_is_refused_and_changes_nothing():
    game = Game(["Ann", "Bob"], HOUSE)
    game.roll("1 2 3 3 3 5")
    game.keep("3 3 3 5")
    before = game.state
    assert game.bank_refusal() == (
        "Ann needs 500 in one turn to get on the board: 350 is not enough, throw again."
    )
    with pytest.raises(IllegalAction, match="350 is not enough"):
        game.bank()
    assert game.state == before


def test_once_on_the_board_any_amount_can_be_banked():
    game = Game(["Ann", "Bob"], HOUSE)
    bank_points(game)
    farkle(game)
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    game.bank()
    assert game.scores == (1100, 0)


@pytest.mark.parametrize(
    "actions, message",
    [
        (["keep:1"], "Ann has not thrown yet"),
        (["roll:1 2 3 3 3 5", "keep:6"], r"6 was not thrown: the throw was 1 2 3 3 3 5"),
        (["roll:1 2 3 3 3 5", "keep:2 3 3 3"], "2 does not score"),
        (["roll:1 2 3 3 3 5", "roll:1 2 3 4 5 6"], "must set aside at least one scoring die"),
        (["roll:1 2 3 3 3 5", "keep:1", "roll:1 2 3"], "1 2 3 is 3 dice, but Ann throws 5 now"),
        (["bank"], "Ann has nothing to bank yet"),
        (["roll:1 2 3 3 3 5", "bank"], "must set aside scoring dice"),
        (["build"], "nothing for Ann to build on"),
        (["undo"], "Nothing to undo"),
    ],
)
def test_refused_actions_say_why_and_change_nothing(actions, message):
    game = Game(["Ann", "Bob"], HOUSE)
    *setup, refused = actions
    for action in setup:
        do(game, action)
    before, events = game.state, game.events
    with pytest.raises(IllegalAction, match=message):
        do(game, refused)
    assert game.state == before and game.events == events


def test_a_seventh_die_is_invalid_input():
    game = Game(["Ann", "Bob"], HOUSE)
    with pytest.raises(InvalidInput, match="at most 6"):
        game.roll("1 2 3 4 5 6 6")


def do(game: Game, action: str) -> None:
    name, _, dice = action.partition(":")
    method = getattr(game, name)
    method(dice) if dice else method()


def test_three_farkles_in_a_row_cost_1000_and_the_count_starts_again():
    game = Game(["Ann", "Bob"], OFFICIAL)
    bank_points(game)  # Ann 1050
    for _ in range(3):
        farkle(game)  # Bob
        farkle(game)  # Ann
    assert game.scores == (50, 0)
    assert game.farkle_streak == (0, 0)
    assert [n.text for n in game.notices] == [
        "Farkle! 2 2 3 3 4 6 has nothing to set aside: a third farkle in a row costs Ann 1,000: total 50."]


def test_three_farkles_never_take_a_total_below_zero():
    game = Game(["Ann", "Bob"], OFFICIAL)
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    game.bank()  # Ann 50
    for _ in range(3):
        farkle(game)
        farkle(game)
    assert game.scores == (0, 0)


def test_a_banked_turn_resets_the_farkle_streak():
    game = Game(["Ann", "Bob"], OFFICIAL)
    farkle(game), farkle(game), farkle(game), farkle(game)
    assert game.farkle_streak == (2, 2)
    bank_points(game)
    assert game.farkle_streak == (0, 2)


def test_without_a_penalty_the_streak_still_starts_again_after_three():
    game = Game(["Ann", "Bob"], HOUSE)
    for _ in range(3):
        farkle(game), farkle(game)
    assert game.farkle_streak == (0, 0) and game.scores == (0, 0)
    assert "no penalty" in game.notices[-1].text


def play_to(game: Game, seat_points: dict[int, int]) -> None:
    """Bank exactly 1,050 per turn for listed seats, farkle for others, one round."""
    for seat in range(len(game.players)):
        assert game.current == seat
        if seat_points.get(seat):
            bank_points(game)
        else:
            farkle(game)


def test_the_final_round_gives_every_other_player_exactly_one_turn():
    rules = dataclasses.replace(HOUSE, target=2000)
    game = Game(["Ann", "Bob", "Cy"], rules)
    play_to(game, {0: 1, 1: 1})
    bank_points(game)  # Ann reaches 2100
    assert game.final_round and game.last_turns == (1, 2)
    assert "Final round: last turns for Bob and Cy" in game.notices[-1].text
    bank_points(game)  # Bob 2100 too
    assert game.last_turns == (2,)
    game.roll("1 1 1 1 1 1")
    game.keep("1 1 1 1 1 1")
    game.roll("6 6 6 6 6 6")
    game.keep("6 6 6 6 6 6")
    game.bank()  # Cy 6000, nobody gets another turn
    assert game.is_over and game.winner == 2
    assert game.standings == (2, 0, 1)
    with pytest.raises(IllegalAction, match="The game is over: Cy won"):
        game.roll("1 2 3 4 5 6")


def test_a_tie_for_the_win_is_settled_by_a_roll_off_repeated_among_the_tied():
    rules = dataclasses.replace(HOUSE, target=2000)
    game = Game(["Ann", "Bob", "Cy"], rules)
    play_to(game, {0: 1, 1: 1, 2: 1})
    play_to(game, {0: 1, 1: 1, 2: 1})
    assert game.tied == (0, 1, 2) and not game.is_over
    with pytest.raises(IllegalAction, match="tied for the win"):
        game.roll("1 2 3 4 5 6")
    with pytest.raises(IllegalAction, match="Enter one die for each of Ann, Bob and Cy"):
        game.roll_off({0: 5, 1: 5})
    game.roll_off({0: 5, 1: 5, 2: 2})
    assert game.tied == (0, 1)
    game.roll_off({0: 3, 1: 6})
    assert game.winner == 1
    assert game.standings == (1, 0, 2)
    assert game.places == (2, 1, 3)


def test_each_seats_roll_off_faces_name_what_split_their_equal_totals():
    rules = dataclasses.replace(HOUSE, target=2000)
    game = Game(["Ann", "Bob", "Cy"], rules)
    play_to(game, {0: 1, 1: 1, 2: 1})
    play_to(game, {0: 1, 1: 1, 2: 1})
    game.roll_off({0: 5, 1: 5, 2: 2})
    game.roll_off({0: 3, 1: 6})
    assert [game.roll_off_faces(seat) for seat in range(3)] == [(5, 3), (5, 6), (2,)]
    assert Game(["Ann", "Bob"], rules).roll_off_faces(0) == ()


def test_only_a_throw_of_the_passed_dice_fewer_than_six_is_taken_as_building_on_the_offer():
    game = Game(["A", "B"], PROGRESSIVE)
    bank_points(game)  # 1,050 with two dice passed
    assert game.throw_builds_on_offer(2)
    assert not game.throw_builds_on_offer(6) and not game.throw_builds_on_offer(1)
    game.build()
    assert not game.throw_builds_on_offer(2)


def test_a_die_no_keep_uses_is_refused_with_the_reason_while_a_triple_being_tapped_in_is_not():
    game = Game(["A", "B"], HOUSE)
    game.roll("1 2 3 3 3 5")
    assert game.set_aside_refusal([3]) is None and game.set_aside_refusal([1, 3, 3, 3, 5]) is None
    assert game.set_aside_refusal([1, 2]) == "2 does not score in 1 2 3 3 3 5: set aside only dice that score."


def test_progressive_passing_follows_the_tournament_example_1600_1650_1750():
    """engine/RULES.md §4.1, from The Tournament."""
    game = Game(["A", "B", "C"], PROGRESSIVE)
    for throw, keep in [("2 2 2 3 4 6", "2 2 2"), ("3 3 3", "3 3 3"), ("1 1 1 2 3 4", "1 1 1"), ("1 2 3", "1")]:
        game.roll(throw)
        game.keep(keep)
    assert (game.turn_points, game.dice_in_hand) == (1600, 2)
    game.bank()
    assert "A: bank 1,600 with TWO dice to pass." in [notice.text for notice in game.notices]
    assert (game.offer.points, game.offer.dice) == (1600, 2)
    game.build()
    assert (game.turn_points, game.dice_in_hand) == (1600, 2)
    game.roll("5 2")
    game.keep("5")
    game.bank()
    assert (game.offer.points, game.offer.dice) == (1650, 1)
    game.build()
    game.roll("1")
    game.keep("1")
    assert (game.turn_points, game.dice_in_hand) == (1750, 6)
    assert game.scores == (1600, 1650, 0)
    assert game.history[-1].built_on.points == 1600


def test_declining_an_offer_starts_from_zero_with_six_dice():
    game = Game(["A", "B"], PROGRESSIVE)
    bank_points(game)
    assert game.offer.dice == 2
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    assert game.turn_points == 50 and game.offer is None


def test_a_builder_who_farkles_loses_the_offer_and_the_passer_keeps_their_bank():
    game = Game(["A", "B"], PROGRESSIVE)
    bank_points(game)
    game.build()
    with pytest.raises(IllegalAction, match="B throws 2 now"):
        game.roll("1 2 3 4 5 6")
    game.roll("2 3")
    assert game.scores == (1050, 0) and game.offer is None and game.current == 0
    assert game.notices[0].text == (
        "Farkle! 2 3 has nothing to set aside: B loses the 1,050 of this turn; B's total stays 0.")


def test_the_inherited_total_counts_toward_the_entry_threshold():
    game = Game(["A", "B"], PROGRESSIVE)
    bank_points(game)
    game.build()
    game.roll("5 3")
    game.keep("5")
    assert game.bank_refusal() is None


def test_the_steal_example_wins_1000_plus_50():
    """engine/RULES.md §4.2, from Basic Farkle Rules."""
    game = Game(["Jim", "Evan"], dataclasses.replace(HOUSE, steal=True))
    game.roll("1 1 1 2 4 6")
    game.keep("1 1 1")
    game.roll("2 4 6")
    assert (game.offer.points, game.offer.dice) == (1000, 3)
    game.build()
    game.roll("5 2 3")
    game.keep("5")
    assert game.turn_points == 1050
    game.bank()
    assert game.scores == (0, 1050)


def test_a_farkle_on_the_first_throw_offers_nothing_to_steal():
    game = Game(["Jim", "Evan"], dataclasses.replace(HOUSE, steal=True))
    farkle(game)
    assert game.offer is None


def test_a_failed_steal_passes_the_points_on_again():
    game = Game(["Jim", "Evan", "Al"], dataclasses.replace(HOUSE, steal=True))
    game.roll("1 1 1 2 4 6")
    game.keep("1 1 1")
    game.roll("2 4 6")
    game.build()
    game.roll("2 3 4")
    assert (game.offer.points, game.offer.dice) == (1000, 3) and game.current == 2


def test_must_roll_after_hot_dice_refuses_the_bank():
    game = Game(["A", "B"], dataclasses.replace(OFFICIAL, must_roll_after_hot_dice=True))
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")
    assert "must throw again" in game.bank_refusal()


def test_new_rules_take_effect_from_the_next_turn():
    game = Game(["A", "B"], HOUSE)
    game.set_rules(PROGRESSIVE)
    game.roll("1 1 1 5 2 3")
    game.keep("1 1 1 5")
    assert game.rules == HOUSE
    game.bank()
    assert game.rules == PROGRESSIVE and game.offer is None
    bank_points(game)
    assert game.offer is not None


def test_undo_walks_back_to_the_start_one_action_at_a_time():
    game = Game(["A", "B"], HOUSE)
    states = [game.state]
    for action in ["roll:1 2 3 3 3 5", "keep:3 3 3 1 5", "roll:5", "keep:5", "bank"]:
        do(game, action)
        states.append(game.state)
    while len(states) > 1:
        states.pop()
        game.undo()
        assert game.state == states[-1]


def test_a_game_is_rebuilt_from_its_json_log():
    import json

    game = Game(["A", "B"], PROGRESSIVE, first=1)
    bank_points(game)
    game.build()
    game.roll("5 5")
    log = json.loads(json.dumps(game.events))
    assert Game.from_events(log) == game


def test_a_damaged_log_is_refused():
    with pytest.raises(InvalidInput, match="must begin with the start"):
        Game.from_events([{"type": "banked"}])
    with pytest.raises(InvalidInput, match="unknown kind"):
        Game.from_events([Game(["A", "B"]).events[0], {"type": "teleported"}])


@pytest.mark.parametrize(
    "players, first, message",
    [
        (["Ann"], 0, "1 players entered: a game has 2 to 8"),
        (["Ann", " ann "], 0, "'Ann' is entered twice"),
        (["Ann", ""], 0, "Every player needs a name"),
        (["Ann", "Bob"], 2, "Seat 2 cannot start"),
        ("AnnBob", 0, "list of names"),
    ],
)
def test_a_game_needs_two_to_eight_named_players(players, first, message):
    with pytest.raises(InvalidInput, match=message):
        Game(players, HOUSE, first)


def test_a_keep_preview_shows_points_and_bank_refusal_without_recording():
    game = Game(["Ann", "Bob"], HOUSE)
    game.roll("1 2 3 3 3 5")
    events = game.events
    preview = game.preview_keep("3 3 3 1 5")
    assert (preview.turn_points, preview.dice_in_hand) == (450, 1)
    assert "450 is not enough" in bank_refusal(preview)
    assert game.events == events and game.turn_points == 0


def test_the_bank_refusal_of_any_state_is_public_and_stays_where_it_was() -> None:
    assert "bank_refusal" in engine.__all__ and bank_refusal is engine.game.bank_refusal
