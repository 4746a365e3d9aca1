"""The three later rule options (engine/RULES.md §2.4, §3.2, §3.4): a minimum bank once on the
board, a floor for totals, the end rule. Checked alone, with the other rules, in the log, in
setup codes, and in Busche's "Facebook Farkle" played to the end."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, IllegalAction, InvalidInput, Rules
from engine.dice import parse_dice
from engine.rules import END_RULES
from engine.scoring import score
from engine.codec import SeatedPlayer, TableSetup, b45decode, decode_setup, encode_setup
from engine.codec.keys import KEY_SIZE
from tests.support.game_play import play_game, play_turn

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
        ({"minimum_bank": 300, "entry_threshold": 0}, "no entry minimum, 4/5/6 of a kind 1,000/2,000/3,000, "
         "straight 1,500, three pairs 1,500, two triplets 2,500, banks of at least 300"),
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


# -- the game keeps them ---------------------------------------------------------------

NOTHING = "2 2 3 3 4 6"
"""A throw of six that scores nothing under every rule set here: a farkle."""


def bank(game: Game, throw: str, keep: str) -> None:
    game.roll(throw)
    game.keep(keep)
    game.bank()


def game_with(**change: object) -> Game:
    return Game(["Ann", "Bob"], dataclasses.replace(Rules.preset("house"), **change))


@pytest.mark.parametrize(
    "change, throw, keep, refusal",
    [
        ({"entry_threshold": 0, "minimum_bank": 300}, "5 2 3 4 6 6", "5",
         "Ann is on the board: a bank needs at least 300; this turn has 50. Throw on."),
        ({"entry_threshold": 0, "minimum_bank": 300}, "1 1 2 3 4 6", "1 1",
         "Ann is on the board: a bank needs at least 300; this turn has 200. Throw on."),
        ({"entry_threshold": 0, "minimum_bank": 300}, "3 3 3 2 4 6", "3 3 3", None),
        ({"entry_threshold": 500, "minimum_bank": 300}, "3 3 3 2 4 6", "3 3 3",
         "Ann needs 500 in one turn to get on the board: 300 is not enough, throw again."),
        ({"entry_threshold": 0, "minimum_bank": 0}, "5 2 3 4 6 6", "5", None),
    ],
)
def test_a_bank_below_the_minimum_is_refused_once_on_the_board(
    change: dict[str, object], throw: str, keep: str, refusal: str | None
) -> None:
    game = game_with(**change)
    game.roll(throw)
    game.keep(keep)
    assert game.bank_refusal() == refusal
    if refusal:
        with pytest.raises(IllegalAction, match=re.escape(refusal)):
            game.bank()
        assert game.scores == (0, 0) and game.current == 0
    else:
        game.bank()
        assert game.scores[0] > 0


def test_the_minimum_bank_applies_after_the_entry_bank() -> None:
    game = game_with(entry_threshold=500, minimum_bank=300)
    bank(game, "5 5 5 2 3 4", "5 5 5")
    game.roll(NOTHING)
    game.roll("1 1 2 3 4 6")
    game.keep("1 1")
    assert game.bank_refusal() == "Ann is on the board: a bank needs at least 300; this turn has 200. Throw on."
    game.roll("1 2 3 4")
    game.keep("1")
    game.bank()
    assert game.scores == (800, 0)


def test_points_built_on_count_toward_the_minimum_bank() -> None:
    game = game_with(entry_threshold=0, minimum_bank=300, progressive=True)
    bank(game, "5 5 5 2 3 4", "5 5 5")
    game.build()
    game.roll("5 2 3")
    game.keep("5")
    game.bank()
    assert game.scores == (500, 550)


def test_points_stolen_count_toward_the_minimum_bank() -> None:
    game = game_with(entry_threshold=0, minimum_bank=300, steal=True)
    game.roll("1 2 2 3 4 6")
    game.keep("1")
    game.roll("2 2 3 4 6")
    game.build()
    game.roll("5 2 3 4 6")
    game.keep("5")
    assert game.bank_refusal() == "Bob is on the board: a bank needs at least 300; this turn has 150. Throw on."


@pytest.mark.parametrize(
    "lowest, banked, thirds, total",
    [
        (0, 0, 1, 0),
        (0, 300, 1, 0),
        (0, 1000, 1, 500),
        (-2500, 300, 1, -200),
        (-2500, 0, 1, -500),
        (-700, 0, 2, -700),
        (-2500, 0, 6, -2500),
        (None, 0, 6, -3000),
    ],
)
def test_a_third_farkle_takes_a_total_down_to_the_lowest_total_and_no_further(
    lowest: int | None, banked: int, thirds: int, total: int
) -> None:
    game = game_with(entry_threshold=0, triple_farkle_penalty=500, lowest_total=lowest)
    if banked:
        keep = {300: "3 3 3", 1000: "1 1 1"}[banked]
        bank(game, f"{keep} 2 4 6", keep)
        game.roll(NOTHING)
    for _ in range(3 * thirds):
        game.roll(NOTHING)
        game.roll(NOTHING)
    assert game.scores[0] == total
    assert all(turn.total >= (lowest if lowest is not None else -10**9) for turn in game.history)


@pytest.mark.parametrize(
    "lowest, banked, said, given_back",
    [
        (0, 1000, "Undone: Ann's farkle on 2 2 3 3 4 6 and the 500 it cost", 500),
        (0, 300, "Undone: Ann's farkle on 2 2 3 3 4 6 and the 300 it cost", 300),
        (0, 0, "Undone: Ann's farkle on 2 2 3 3 4 6", 0),
        (-2500, 0, "Undone: Ann's farkle on 2 2 3 3 4 6 and the 500 it cost", 500),
    ],
)
def test_undoing_a_third_farkle_says_what_it_gave_back(lowest: int, banked: int, said: str, given_back: int) -> None:
    game = game_with(entry_threshold=0, triple_farkle_penalty=500, lowest_total=lowest)
    if banked:
        keep = {300: "3 3 3", 1000: "1 1 1"}[banked]
        bank(game, f"{keep} 2 4 6", keep)
        game.roll(NOTHING)
    for _ in range(2):
        game.roll(NOTHING)
        game.roll(NOTHING)
    game.roll(NOTHING)
    penalised = game.scores[0]
    assert game.undo().text == said
    assert game.scores[0] == penalised + given_back


def test_a_total_below_a_floor_raised_in_play_loses_nothing_more() -> None:
    game = game_with(entry_threshold=0, triple_farkle_penalty=500, lowest_total=-2500)
    for _ in range(3):
        game.roll(NOTHING)
        game.roll(NOTHING)
    game.set_rules(dataclasses.replace(game.rules, lowest_total=0))
    for _ in range(3):
        game.roll(NOTHING)
        game.roll(NOTHING)
    assert game.scores == (-500, -500)


@pytest.mark.parametrize("change", [{}, {"progressive": True}, {"steal": True}, {"entry_threshold": 0}])
def test_under_first_to_target_the_first_bank_to_reach_it_wins_at_once(change: dict[str, object]) -> None:
    game = game_with(target=1000, end_rule="first_to_target", **change)
    bank(game, "1 1 1 2 3 4", "1 1 1")
    assert game.is_over and game.winner == 0 and not game.final_round
    assert game.notices[-1].text == "Ann is the first to bank 1,000 and wins with 1,000!"
    assert game.offer is None
    with pytest.raises(IllegalAction, match="The game is over: Ann won"):
        game.roll("1 2 3 4 5 6")
    assert game.bank_refusal() is not None


def test_under_the_final_round_the_others_still_play_after_the_target() -> None:
    game = game_with(target=1000)
    bank(game, "1 1 1 2 3 4", "1 1 1")
    assert not game.is_over and game.final_round and game.last_turns == (1,)


def test_a_win_at_once_is_undone_redone_and_replayed_as_one_mechanism() -> None:
    game = game_with(target=1000, end_rule="first_to_target")
    bank(game, "1 1 1 2 3 4", "1 1 1")
    won = game.state
    event = game.peek()
    assert game.undo().text == "Undone: Ann's bank of 1,000"
    assert not game.is_over and game.bank_refusal() is None
    game.redo(event)
    assert game.state == won
    assert Game.from_events(json.loads(json.dumps(game.events))) == game


def test_the_end_rule_cannot_change_once_the_final_round_has_started() -> None:
    game = game_with(target=1000)
    bank(game, "1 1 1 2 3 4", "1 1 1")
    with pytest.raises(IllegalAction, match="The final round has started: how the game ends can no longer change"):
        game.set_rules(dataclasses.replace(game.rules, end_rule="first_to_target"))


# -- invariants --------------------------------------------------------------------------

OPTIONS = st.fixed_dictionaries({
    "target": st.sampled_from([1000, 3000]),
    "entry_threshold": st.sampled_from([0, 500]),
    "minimum_bank": st.sampled_from([0, 300, 500]),
    "triple_farkle_penalty": st.sampled_from([500, 1000]),
    "lowest_total": st.sampled_from([0, -500, -2500, None]),
    "end_rule": st.sampled_from(END_RULES),
    "progressive": st.booleans(),
    "steal": st.booleans(),
})


@settings(max_examples=60, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32), players=st.integers(2, 4), greed=st.sampled_from([0.3, 0.8]))
def test_every_game_keeps_the_floor_the_minimum_bank_and_the_end_rule(
    options: dict[str, Any], seed: int, players: int, greed: float
) -> None:
    rules = Rules(**options)
    game = Game(["Ann", "Bob", "Cy", "Di"][:players], rules)
    rng = random.Random(seed)
    for _ in range(400):
        if game.is_over:
            break
        if game.tied:
            game.roll_off({seat: rng.randint(1, 6) for seat in game.tied})
        else:
            play_turn(game, rng, greed)
    floor = rules.lowest_total if rules.lowest_total is not None else -(10**9)
    first_banks: set[int] = set()
    for turn in game.history:
        assert turn.total >= min(floor, 0)
        if turn.outcome == "banked":
            if turn.seat in first_banks or not rules.entry_threshold:
                assert turn.points >= rules.minimum_bank
            first_banks.add(turn.seat)
    if rules.end_rule == "first_to_target" and game.is_over:
        last = game.history[-1]
        assert (last.seat, last.outcome) == (game.winner, "banked") and last.total >= rules.target
        assert [turn.total >= rules.target for turn in game.history].count(True) == 1
        assert not game.tied and not game.final_round


# -- Busche's "Facebook Farkle" ----------------------------------------------------------

@pytest.mark.parametrize(
    "keep, points",
    [("2 2 2", 200), ("2 2 2 2", 400), ("2 2 2 2 2", 600), ("2 2 2 2 2 2", 800), ("1 1 1 1", 2000),
     ("1 2 3 4 5 6", 1500), ("2 2 3 3 4 4", 750), ("2 2 2 3 3 3", 500)],
)
def test_facebook_farkle_scores_as_busche_gives_it(keep: str, points: int) -> None:
    assert score(parse_dice(keep), FACEBOOK) == points


@pytest.mark.parametrize("seed", range(5))
def test_a_game_of_facebook_farkle_is_played_to_the_end_saved_and_replayed(seed: int, tmp_path: Path) -> None:
    game = play_game(Game(["Ann", "Bob"], FACEBOOK), random.Random(seed))
    assert game.is_over and not game.final_round
    winner = game.winner
    assert winner is not None and game.scores[winner] >= 10_000 > game.scores[1 - winner]
    assert min(turn.total for turn in game.history) >= -2500
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps({"rules": game.rules.to_dict(), "events": game.events}))
    stored = json.loads(saved.read_text())
    assert Rules.from_dict(stored["rules"]) == FACEBOOK
    assert Game.from_events(stored["events"]) == game
