"""Bad input to the advice: the lookup's typed total and choices, the engine's questions asked
with nonsense, and rules too costly to work out, each refused in words that change nothing."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.storage import MemoryStore
from engine import (Game, IllegalAction, InvalidInput, Rules, advise, catch_up_chance, prepare, roll_value,
                    scoring_options, throw_advice, turn_advice)
from engine.advice.values import MOST_TURN_POINTS
from tests.support.app_driver import run, throw
from tests.support.flet_harness import FletHarness
from tests.app.test_lookup_advice import advice_shown
from tests.app.test_table_advice import advice_shown as table_advice_shown
from tests.app.test_table_refusals import stored_game

HOUSE = Rules.preset("house")
ABSURD_TARGET = dataclasses.replace(HOUSE, target=999_999)
TEN_THOUSAND_DIGITS = "5" * 9_999 + "0"


# -- the engine, asked nonsense ---------------------------------------------------------------


@pytest.mark.parametrize(("call", "message"), [
    (lambda: turn_advice(HOUSE, 55 * 10**9_998, 6),  # 10,000 digits: too long for str()
     "A number of about 10,000 digits is more points than a turn total is advised on"),
    (lambda: throw_advice(HOUSE, 10**400, (1, 5, 2, 3, 4, 4)), "more points than a turn total is advised on"),
    (lambda: turn_advice(HOUSE, (MOST_TURN_POINTS // 50 + 1) * 50, 6),
     "9,007,199,254,741,000 is more points than a turn total is advised on: at most 9,007,199,254,740,992."),
    (lambda: turn_advice(HOUSE, -50, 6), "-50 is not a turn total"),
    (lambda: turn_advice(HOUSE, "350", 6), "'350' is not a turn total"),  # type: ignore[arg-type]
    (lambda: turn_advice(HOUSE, "350", 6, need=500), "'350' is not a turn total"),  # type: ignore[arg-type]
    (lambda: turn_advice(HOUSE, 350, 6, need="500"), "'500' is not a number of points to reach"),  # type: ignore[arg-type]
    (lambda: turn_advice(HOUSE, 35, 6), "35 is no turn total under these rules: every score is a multiple of 50"),
    (lambda: turn_advice(HOUSE, 0, 0), "0 dice: a throw is of 1 to 6 dice"),
    (lambda: turn_advice(HOUSE, 0, 7), "7 dice: a throw is of 1 to 6 dice"),
    (lambda: throw_advice(HOUSE, 0, ()), "No dice entered in (): enter the faces thrown, 1 to 6."),
    (lambda: throw_advice(HOUSE, 0, (1, 1, 1, 1, 1, 1, 1)), "1 1 1 1 1 1 1 is 7 dice: a throw has at most 6."),
    (lambda: throw_advice(HOUSE, 0, (1, 9)), "9 in [1, 9] is not a die face: a die shows 1 to 6."),
    (lambda: catch_up_chance(HOUSE, 10**12),
     "1,000,000,000,000 is more points to reach than a chance is worked out for under these rules: at most 2,000,000"),
])
def test_a_question_with_a_nonsense_number_is_refused_with_what_was_asked(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        call()
    assert message in str(refused.value)


@pytest.mark.parametrize(("rules", "message"), [
    (ABSURD_TARGET, "No advice under these rules: a target of 999,999 with scores in steps of 50 is 79,999 turn "
                    "totals to work out, too many for this device (at most 40,000: a target of 500,000 in steps of 50)."),
    (dataclasses.replace(HOUSE, single_five=33, target=10_050), "a target of 10,050 with scores in steps of 1 is 40,200"),
])
def test_rules_whose_tables_would_hold_the_device_for_minutes_are_refused_before_any_work(rules: Rules,
                                                                                         message: str) -> None:
    with pytest.raises(InvalidInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        next(prepare(rules))
    with pytest.raises(InvalidInput, match="No advice under these rules"):
        roll_value(rules)


def test_every_rule_set_to_10000_is_advised_whatever_its_scores() -> None:
    steps_of_one = dataclasses.replace(HOUSE, single_five=33)
    assert 0 <= next(prepare(steps_of_one)) < 1  # the first slice of the work (40,000 totals), not a refusal


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(["house", "progressive", "official", "classic"]), seed=st.integers(0, 2**32 - 1),
       players=st.integers(2, 4))
def test_every_state_of_a_game_played_at_random_is_advised_or_said_to_have_nothing_to_advise(
        preset: str, seed: int, players: int) -> None:
    rules = dataclasses.replace(Rules.preset(preset), target=2_000)
    rng = random.Random(seed)
    game = Game([f"P{n}" for n in range(players)], rules)
    for _ in range(400):
        state = game.state
        if state.phase in ("over", "roll_off"):
            with pytest.raises(IllegalAction, match="There is no throw to advise on"):
                advise(state)
        else:
            assert advise(state).describe()
        if game.is_over:
            return
        if game.tied:
            game.roll_off({seat: rng.randint(1, 6) for seat in game.tied})
        elif state.phase == "keep":
            game.keep(rng.choice(scoring_options(state.last_throw or (), rules)).keep)
        elif state.offer is not None and not state.building and rng.random() < 0.5:
            game.build()
        elif state.phase == "choose" and game.bank_refusal() is None and rng.random() < 0.4:
            game.bank()
        else:
            game.roll([rng.randint(1, 6) for _ in range(state.dice_to_throw or 6)])


# -- the lookup's "Roll or bank?" --------------------------------------------------------------


@pytest.mark.parametrize(("typed", "refusal"), [
    ("-50", "Turn total so far: '-50' is not a whole number."),
    ("abc", "Turn total so far: 'abc' is not a whole number."),
    ("²", "Turn total so far: '²' is not a whole number."),
    ("1e5", "Turn total so far: '1e5' is not a whole number."),
    ("1234567", "Turn total so far: '1234567' has 7 digits: enter at most 6."),
    (TEN_THOUSAND_DIGITS, "Turn total so far: '55555555555555555...' has 10,000 digits: enter at most 6."),
    ("75", "75 is no turn total under these rules: every score is a multiple of 50."),
])
def test_a_turn_total_the_lookup_cannot_advise_on_is_refused_in_words_and_kept_as_typed(typed: str,
                                                                                       refusal: str) -> None:
    async def test(ui: FletHarness) -> None:
        await ui.set_value("lookup-dice-left", "2", event="select")
        await ui.type_text("lookup-held", "350")
        advised = await advice_shown(ui)
        await ui.type_text("lookup-held", typed)
        assert ui.text_of("lookup-advice") == refusal
        assert ui.find("lookup-held").value == typed  # nothing typed is lost
        await ui.type_text("lookup-held", "350")
        assert ui.text_of("lookup-advice") == advised  # and nothing else changed

    run(test, route="/lookup", store=MemoryStore())


@pytest.mark.parametrize(("field", "sent", "refusal"), [
    ("lookup-dice-left", "0", "“0” is not a number of dice to throw: pick 1 to 6."),
    ("lookup-dice-left", "7", "“7” is not a number of dice to throw: pick 1 to 6."),
    ("lookup-dice-left", "two", "“two” is not a number of dice to throw: pick 1 to 6."),
    ("lookup-on-board", "maybe", "“maybe” is not a place on the board: pick on the board or not on it yet."),
    ("lookup-rules", "vegas", "“vegas” is not a rule set here: pick one from the list."),
    ("lookup-rules", "game", "“game” is not a rule set here: pick one from the list."),  # no game opened it
])
def test_a_choice_the_lookup_does_not_offer_is_refused_and_the_advice_stays_as_it_was(field: str, sent: str,
                                                                                     refusal: str) -> None:
    async def test(ui: FletHarness) -> None:
        await ui.set_value("lookup-rules", "official", event="select")
        await ui.set_value("lookup-dice-left", "2", event="select")
        await ui.set_value("lookup-on-board", "off", event="select")
        await ui.type_text("lookup-held", "350")
        advised = await advice_shown(ui)
        rules = [text for text in ui.texts() if text.startswith("Official: ")]
        await ui.set_value(field, sent, event="select")
        assert ui.text_of("lookup-refusal") == refusal
        assert ui.text_of("lookup-advice") == advised
        assert [text for text in ui.texts() if text.startswith("Official: ")] == rules

    run(test, route="/lookup", store=MemoryStore())


# -- a game whose rules are too costly to advise on ------------------------------------------------


def test_a_game_to_999999_says_at_its_table_and_in_its_lookup_why_it_gets_no_advice() -> None:
    store, game_id = stored_game(ABSURD_TARGET)
    refusal = ("No advice under these rules: a target of 999,999 with scores in steps of 50 is 79,999 turn totals "
               "to work out, too many for this device (at most 40,000: a target of 500,000 in steps of 50).")

    async def at_the_table(ui: FletHarness) -> None:
        await ui.click("advice-switch")
        assert await table_advice_shown(ui) == refusal
        await throw(ui, "1 2 3 4 6 6")  # the table plays on, and says it again at the keep
        assert ui.exists("keep-panel") and ui.text_of("advice-line") == refusal

    async def in_the_lookup(ui: FletHarness) -> None:
        assert await advice_shown(ui) == refusal
        await ui.set_value("lookup-rules", "house", event="select")
        assert (await advice_shown(ui)).startswith("Throw six dice: worth ")

    run(at_the_table, route=f"/game/{game_id}", store=store)
    run(in_the_lookup, route=f"/lookup/{game_id}", store=store)
