"""A farkle is told in one sentence that ends on the total the scoreboard shows: the turn's
points lost and, for a third farkle in a row, what the penalty took (issue 26)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Rules
from tests.support.app_driver import keep, run, start_game, throw
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_turn, played
from tests.engine.test_game_properties import random_game, rules

OFFICIAL = Rules.preset("official")
HOUSE = Rules.preset("house")
PROGRESSIVE_PENALTY = dataclasses.replace(Rules.preset("progressive"), triple_farkle_penalty=1000)

BANK_1050 = ("roll 1 1 1 5 2 3", "keep 1 1 1 5", "bank")
BANK_600 = ("roll 5 5 5 1 2 3", "keep 5 5 5 1", "bank")
BANK_50 = ("roll 5 2 3 4 6 6", "keep 5", "bank")
FARKLE = ("roll 2 2 3 3 4 6",)
TWO_FARKLES_EACH = FARKLE * 4  # Bob, Ann, Bob, Ann: Bob is to throw, each has farkled twice
HOLDING_300 = ("roll 3 3 3 2 4 6", "keep 3 3 3", "roll 2 2 4")


@pytest.mark.parametrize(
    ("rules", "steps", "said", "ann"),
    [
        (OFFICIAL, (*BANK_1050, *TWO_FARKLES_EACH, *FARKLE, *HOLDING_300),
         ["Farkle! 2 2 4 has nothing to set aside: Ann loses the 300 of this turn, and a third farkle in a row "
          "costs 1,000 more: total 50."], 50),
        (OFFICIAL, (*BANK_1050, *TWO_FARKLES_EACH, *FARKLE, *FARKLE),
         ["Farkle! 2 2 3 3 4 6 has nothing to set aside: a third farkle in a row costs Ann 1,000: total 50."], 50),
        (OFFICIAL, (*BANK_600, *TWO_FARKLES_EACH, *FARKLE, *HOLDING_300),
         ["Farkle! 2 2 4 has nothing to set aside: Ann loses the 300 of this turn, and a third farkle in a row "
          "costs 600 more (the penalty is 1,000): total 0, as low as a total may go."], 0),
        (OFFICIAL, (*FARKLE, *TWO_FARKLES_EACH),
         ["Farkle! 2 2 3 3 4 6 has nothing to set aside: a third farkle in a row would cost 1,000, but Ann's "
          "total stays 0, as low as a total may go."], 0),
        (dataclasses.replace(OFFICIAL, lowest_total=-500), (*BANK_50, *TWO_FARKLES_EACH, *FARKLE, *FARKLE),
         ["Farkle! 2 2 3 3 4 6 has nothing to set aside: a third farkle in a row costs Ann 550 (the penalty is "
          "1,000): total -500, as low as a total may go."], -500),
        (dataclasses.replace(OFFICIAL, lowest_total=None), (*FARKLE, *TWO_FARKLES_EACH),
         ["Farkle! 2 2 3 3 4 6 has nothing to set aside: a third farkle in a row costs Ann 1,000: total -1,000."],
         -1000),
        (dataclasses.replace(HOUSE, triple_farkle_penalty=500), (*BANK_1050, *TWO_FARKLES_EACH, *FARKLE, *HOLDING_300),
         ["Farkle! 2 2 4 has nothing to set aside: Ann loses the 300 of this turn, and a third farkle in a row "
          "costs 500 more: total 550."], 550),
        (HOUSE, (*BANK_1050, *TWO_FARKLES_EACH, *FARKLE, *HOLDING_300),
         ["Farkle! 2 2 4 has nothing to set aside: Ann loses the 300 of this turn; Ann's total stays 1,050 "
          "(a third farkle in a row: no penalty under these rules)."], 1050),
        (dataclasses.replace(OFFICIAL, steal=True), (*BANK_1050, *TWO_FARKLES_EACH, *FARKLE, *HOLDING_300),
         ["Farkle! 2 2 4 has nothing to set aside: Ann loses the 300 of this turn, and a third farkle in a row "
          "costs 1,000 more: total 50.", "Next player may steal 300 by throwing the 3 dice."], 50),
        # Bob passes 1,050 with two dice; Ann builds on it and farkles for the third time in a row.
        (PROGRESSIVE_PENALTY, (*BANK_1050, *TWO_FARKLES_EACH, *BANK_1050, "build", "roll 2 3"),
         ["Farkle! 2 3 has nothing to set aside: Ann loses the 1,050 of this turn, and a third farkle in a row "
          "costs 1,000 more: total 50."], 50),
    ],
    ids=["official", "official-first-throw", "more-than-the-total", "at-zero", "lowest-500", "no-lowest",
         "custom-500", "house",
         "steal", "progressive-built"],
)
def test_a_third_farkle_is_one_sentence_ending_on_the_total_the_scoreboard_shows(
        rules: Rules, steps: tuple[str, ...], said: list[str], ann: int) -> None:
    game = played(rules, *steps)
    assert [notice.text for notice in game.notices] == said
    assert game.scores[0] == ann and game.history[-1].total == ann and game.farkle_streak[0] == 0


TOTAL_SAID = re.compile(r"total (?:stays )?(-?[\d,]+)")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), rules.filter(lambda r: r.triple_farkle_penalty > 0))
def test_every_total_a_farkle_names_is_the_one_the_scoreboard_shows(seed: int, rule_set: Rules) -> None:
    game, rng = random_game(seed, rule_set, 2)
    for _ in range(60):
        if game.is_over or game.tied:
            break
        play_turn(game, rng)
        record = game.history[-1]
        if record.outcome == "farkled":
            said = [int(number.replace(",", "")) for number in TOTAL_SAID.findall(game.notices[0].text)]
            assert said in ([], [game.scores[record.seat]]), game.notices[0].text


def test_the_table_tells_the_third_farkle_as_the_scoreboard_shows_it(data_dir) -> None:
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", preset="official")
        await throw(ui, "1 1 1 5 2 3")
        await keep(ui, 0, 1, 2, 3)
        await ui.click("bank")  # Ann 1,050
        for _ in range(5):  # Bob, Ann, Bob, Ann, Bob farkle
            await throw(ui, "2 2 3 3 4 6")
        await throw(ui, "3 3 3 2 4 6")
        await keep(ui, 0, 1, 2)
        await ui.click("roll")
        await throw(ui, "2 2 4")
        assert ui.text_of("notice") == ("Farkle! 2 2 4 has nothing to set aside: Ann loses the 300 of this turn, "
                                        "and a third farkle in a row costs 1,000 more: total 50.")
        assert ui.text_of("total-0") == "50"

    run(test)
