"""What the engine says reaches a person in their language, with numbers as that language
writes them: a refusal, a notice, the rules' line and the advice, through the real screens.

The catalogue here is a tiny German one written for the test (not shipped): what it lacks
shows in English, as every missing message does.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from app.i18n import tr, tr_words, use_language
from app.i18n.template import app_messages
from app.storage import MemoryStore
from app.table.scorekeeper import Scorekeeper
from engine import FarkleError, Game, IllegalAction, Rules, prepare, roll_value
from engine.words import LISTING, Phrases, Words, say
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.tournament_support import TWO_ROUNDS, default_totals, event

GERMAN = {
    "{who} has nothing to bank yet: throw the dice first.": "{who} hat noch nichts zu sichern: erst würfeln.",
    "{who} banks {points:,}: total {total:,}.": "{who} sichert {points:,}: insgesamt {total:,}.",
    "{name}: {settings}": "{name} – {settings}",
    "House": "Hausregeln",
    "to {target:,}": "bis {target:,}",
    "{who} is on the board with {points:,}.": "{who} ist mit {points:,} im Spiel.",
}


def catalogue(folder: Path, messages: dict[str, str]) -> Path:
    """A ``de.po`` in ``folder`` with these translations."""
    entries = ['msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n'
               'Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n']
    entries += [f'msgid "{english}"\nmsgstr "{german}"\n' for english, german in messages.items()]
    (folder / "de.po").write_text("\n".join(entries), encoding="utf-8")
    return folder


def stored_game(*steps: str) -> tuple[MemoryStore, str]:
    """A house-rules game of Ann, Bob and Cy with these steps played ("roll 1 2 3", "keep 1", "bank")."""
    store = MemoryStore()
    keeper = Scorekeeper(store)

    async def play() -> str:
        game_id = await keeper.start_game(["Ann", "Bob", "Cy"], Rules.preset("house"))
        for step in steps:
            verb, _, dice = step.partition(" ")
            await keeper.act(lambda game, v=verb, d=dice: getattr(game, v)(*([d] if d else [])))
        return game_id

    return store, asyncio.run(play())


def test_the_table_says_the_engines_notices_refusals_and_totals_in_german_with_german_numbers(tmp_path: Path) -> None:
    store, game_id = stored_game("roll 1 1 1 5 2 3", "keep 1 1 1 5", "bank")
    folder = catalogue(tmp_path, GERMAN)

    async def test(ui: FletHarness) -> None:
        assert "Ann banks 1,050: total 1,050." in ui.texts()  # English until a language is chosen
        use_language(ui.page, ["de-DE"], folder)
        await ui.navigate("/")
        await ui.navigate(f"/game/{game_id}")
        assert "Ann sichert 1.050: insgesamt 1.050." in ui.texts()
        assert "Ann ist mit 1.050 im Spiel." in ui.texts()
        assert "1.050" in ui.texts()  # Ann's total on the scoreboard
        before = await store.load("games", game_id)
        await ui.press_key("B")
        assert ui.text_of("refusal") == "Bob hat noch nichts zu sichern: erst würfeln."
        assert await store.load("games", game_id) == before

    run(test, route=f"/game/{game_id}", store=store)


def test_the_rules_line_is_said_in_german_with_what_the_catalogue_lacks_in_english(tmp_path: Path) -> None:
    folder = catalogue(tmp_path, GERMAN)

    async def test(ui: FletHarness) -> None:
        use_language(ui.page, ["de"], folder)
        await ui.navigate("/new")
        assert ui.text_of("rules-summary") == (
            "Hausregeln – bis 10.000, 500 to get on the board, 4/5/6 of a kind 1,000/2,000/3,000, "
            "straight 1.500, three pairs 1.500, two triplets 2.500")  # untranslated parts still write numbers in German

    run(test, route="/")


@pytest.mark.parametrize(("language", "shown"), [
    ("de", "Ann sichert 10.050: insgesamt 12.500."),
    ("fr", "Ann sichert 10\u202f050: insgesamt 12\u202f500."),
    ("pl", "Ann sichert 10\u00a0050: insgesamt 12\u00a0500."),
])
def test_grouped_numbers_follow_the_sessions_language(tmp_path: Path, language: str, shown: str) -> None:
    (tmp_path / f"{language}.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "{who} banks {points:,}: total {total:,}."\nmsgstr "{who} sichert {points:,}: insgesamt {total:,}."\n',
        encoding="utf-8")
    store, game_id = stored_game()

    async def test(ui: FletHarness) -> None:
        use_language(ui.page, [language], tmp_path)
        said = say("{who} banks {points:,}: total {total:,}.", who="Ann", points=10050, total=12500)
        assert tr_words(said) == shown

    run(test, route=f"/game/{game_id}", store=store)


TEMPLATES = {(message.msgid, message.plural) for message in app_messages()}
"""Every message of the template (tests/app/test_i18n_wrapped.py checks messages.pot is this list)."""


def phrases_of(words: Words) -> list[Words]:
    """``words`` and every phrase said inside it."""
    inner = [phrase for value in words.values.values()
             for phrase in ((value,) if isinstance(value, Words) else value if isinstance(value, Phrases) else ())]
    return [words, *(found for phrase in inner for found in phrases_of(phrase))]
ACTIONS = ("roll", "keep", "bank", "build", "farkle", "bank_points", "switch_entry", "roll_off", "undo")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(["house", "progressive", "official", "classic"]))
def test_every_refusal_and_notice_of_a_random_game_is_a_message_of_the_template(seed: int, preset: str) -> None:
    chance = random.Random(seed)
    game = Game(["Ann", "Bob", "Cy"][:chance.randint(2, 3)], Rules.preset(preset))
    said: list[Words] = []
    for _ in range(120):
        action = chance.choice(ACTIONS)
        try:
            if action == "roll":
                size = chance.choice([game.dice_in_hand, game.dice_in_hand, chance.randint(1, 7)])
                game.roll([chance.randint(1, 7 if chance.random() < 0.05 else 6) for _ in range(size)])
            elif action == "keep":
                throw = game.state.last_throw or (1,)
                game.keep(chance.sample(list(throw), chance.randint(1, len(throw))))
            elif action in ("bank", "build", "farkle", "undo"):
                getattr(game, action)()
            elif action == "bank_points":
                game.bank_points(chance.choice([50, 350, 1_050, 75, 0, -50, 10_000_000]))
            elif action == "switch_entry":
                game.switch_entry(chance.random() < 0.5)
            else:
                game.roll_off({seat: chance.randint(1, 6) for seat in game.tied or (0,)})
        except FarkleError as refusal:
            said.append(refusal.words)
        said += [notice.text for notice in game.notices]  # type: ignore[misc]
        said += [refusal for refusal in (game.bank_refusal(), game.unchecked) if refusal]  # type: ignore[misc]
    for words in said:
        assert isinstance(words, Words), f"said as plain text, not engine words: {words!r}"
        for phrase in phrases_of(words):
            assert phrase.template == LISTING or (phrase.template, phrase.plural) in TEMPLATES, \
                f"not in messages.pot (run python -m app.i18n.template): {phrase.template!r}"


def said_of(refusal: FarkleError) -> list[Words]:
    """A refusal's words and every phrase inside them."""
    return phrases_of(refusal.words)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_refusal_of_a_random_tournament_is_a_message_of_the_template(seed: int) -> None:
    chance = random.Random(seed)
    t = event(chance.randint(0, 8), TWO_ROUNDS, checked_in=chance.random() < 0.7)
    refused: list[FarkleError] = []
    numbers = [*range(0, 16), -1]
    for _ in range(60):
        table = chance.randint(0, 4)
        steps = [
            lambda: t.sign_up(chance.choice(["Player 01", "player 01", "Ann", " ", "Bob"]), chance.choice([None, 0, 3, 999999])),
            lambda: t.check_in(chance.choice(numbers)),
            lambda: t.withdraw(chance.choice(numbers), chance.choice(["", "ill"])),
            lambda: t.take_place(chance.choice(numbers)),
            lambda: t.mark_missing(chance.choice(numbers), chance.choice(["", "late"])),
            lambda: t.draw_seats(seed=chance.choice([1, 2, -1])),
            lambda: t.cancel_draw(),
            lambda: t.record_result(table, default_totals(t.seating()[table - 1]) if t.round_open and 0 < table <= len(
                t.seating()) else [chance.choice([0, 75, 10_000])] * chance.randint(1, 4), reason=chance.choice(["", "paper"])),
            lambda: t.import_result(chance.choice(["", "FT1:NOTACODE", "hello"])),
            lambda: t.record_roll_off(table, {chance.choice(numbers): chance.randint(0, 7)}),
            lambda: t.close_round(),
            lambda: t.void_result(chance.randint(0, 3), table, chance.choice(["", "wrong"])),
            lambda: t.lookup(chance.choice(["", "zz", 99])),
            lambda: t.award_prize(chance.choice([0, 100]), split={chance.choice(numbers): 100}),
            lambda: t.switch_rules(),
            lambda: t.settle_held(table, True, chance.choice(["", "sure"])),
        ]
        try:
            chance.choice(steps)()
        except FarkleError as refusal:
            refused.append(refusal)
    for refusal in refused:
        for phrase in said_of(refusal):
            assert phrase.template == LISTING or (phrase.template, phrase.plural) in TEMPLATES, \
                f"not a message of the template: {phrase.template!r} (said {str(refusal)!r})"


def test_the_lookups_advice_is_said_in_german_with_german_numbers(tmp_path: Path, data_dir: Path) -> None:
    house = Rules.preset("house")
    list(prepare(house))  # the advice tables solved before the tap, so the advice shows at once
    folder = catalogue(tmp_path, {
        "Bank: {risk}{points:,} now; throwing {dice} is worth {value:,.0f} on average{counted} ({farkle}).":
            "Sichern: {risk}{points:,} jetzt; {dice} zu werfen bringt im Schnitt {value:,.0f}{counted} ({farkle}).",
        "two dice": "zwei Würfel",
        "{chance} farkle": "{chance} Farkle",
    })
    worth = f"{roll_value(house, 1050, 2):,.0f}".replace(",", ".")

    async def test(ui: FletHarness) -> None:
        use_language(ui.page, ["de"], folder)
        await ui.click("lookup")
        await ui.type_text("lookup-held", "1050")
        await ui.set_value("lookup-dice-left", "2", event="select")
        assert ui.text_of("lookup-advice") == \
            f"Sichern: 1.050 jetzt; zwei Würfel zu werfen bringt im Schnitt {worth} (44 % Farkle)."

    run(test)


def test_an_engine_refusal_put_into_an_app_sentence_is_said_in_the_sessions_language(tmp_path: Path) -> None:
    folder = catalogue(tmp_path, {"{who} has nothing to bank yet: throw the dice first.":
                                  "{who} hat noch nichts zu sichern: erst würfeln."})
    refusal = IllegalAction(say("{who} has nothing to bank yet: throw the dice first.", who="Ann"))

    async def test(ui: FletHarness) -> None:
        assert tr("This game cannot be opened: {problem}", problem=refusal) == \
            "This game cannot be opened: Ann has nothing to bank yet: throw the dice first."
        use_language(ui.page, ["de"], folder)
        assert tr("This game cannot be opened: {problem}", problem=refusal) == \
            "This game cannot be opened: Ann hat noch nichts zu sichern: erst würfeln."

    run(test)
