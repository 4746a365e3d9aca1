"""A player's name comes in through every door under the one rule New game uses (engine.names).

A table's setup code comes from anyone who can show a QR code or send a link: it is checked
for damage (a CRC), not signed, and its key travels in it. So the join screen takes its
names as New game takes typed ones (:func:`engine.names.table_names`), refusing with the
code's own message and starting nothing. A table's game already started from such a code,
on a device from before the rule, still opens and signs its result: stored data is kept as
it is, only new entries are checked.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore
from app.table.tournament_table import signed_result, tournament_meta
from engine import InvalidInput, Rules, Tournament, table_names
from engine.codec import KEY_SIZE, SeatedPlayer, TableSetup, decode_setup, encode_setup, safe_form, setup_to_join
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game

NOT_STARTED = "Nothing was started: ask the organizer for this table's card."


def setup_code(*names: str) -> str:
    """A setup code seating ``names`` as players 1, 2, …, packed as anyone could pack one."""
    players = tuple(SeatedPlayer(number, name) for number, name in enumerate(names, 1))
    return encode_setup(TableSetup("CUP-1", 1, 2, players, Rules.preset("house"), bytes(KEY_SIZE)))


REFUSED = {  # each was seated as written before issue 25, and the table's game started with it
    "a Hangul filler after Ann": (
        ("Bob", "Ann\u3164"),
        'This setup code names a player that could not be shown, at seat 2 (number 2). The name "Ann[hangul '
        'jungseong filler]" holds an invisible or control character, U+1160 hangul jungseong filler. Type it again '
        f"without it. {NOT_STARTED}"),
    "a Hangul filler alone": (
        ("\u3164", "Bob"),
        'This setup code names a player that could not be shown, at seat 1 (number 1). The name entered, "[hangul '
        "jungseong filler]\", is only invisible characters (U+1160 hangul jungseong filler): type the player's name. "
        f"{NOT_STARTED}"),
    "a right-to-left override": (
        ("Ann", "\u202eBob"),
        'This setup code names a player that could not be shown, at seat 2 (number 2). The name "[right-to-left '
        'override]Bob" holds an invisible or control character, U+202E right-to-left override. Type it again without '
        f"it. {NOT_STARTED}"),
    "a NUL": (
        ("A\x00nn", "Bob"),
        'This setup code names a player that could not be shown, at seat 1 (number 1). The name "A[control '
        'character]nn" holds an invisible or control character, U+0000 control character. Type it again without it. '
        f"{NOT_STARTED}"),
    "a name longer than any sign-up takes": (
        ("Ann", "B" * 41),
        f'This setup code names a player that could not be shown, at seat 2 (number 2). "{"B" * 41}" has 41 '
        f"characters: a name has at most 40. Shorten it (a middle name to its initial, say). {NOT_STARTED}"),
    "an Armenian look-alike of Ann": (
        ("Ann", "Bob", "An\u0578"),
        'This setup code seats players nobody could tell apart. "An\u0578" looks like Ann, already at this table. Add '
        f"something to tell them apart. {NOT_STARTED}"),
    "a Cyrillic look-alike of Ann": (
        ("\u0410nn", "Ann"),
        'This setup code seats players nobody could tell apart. "Ann" looks like \u0410nn, already at this table. Add '
        f"something to tell them apart. {NOT_STARTED}"),
    "the same name in capitals": (
        ("Ann", "ANN"),
        f'This setup code seats players nobody could tell apart. "ANN" is Ann, already at this table. Add something to '
        f"tell them apart. {NOT_STARTED}"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_setup_code_naming_a_player_new_game_would_refuse_is_refused_saying_which_seat_and_why(case: str) -> None:
    names, message = REFUSED[case]
    with pytest.raises(InvalidInput) as refused:
        setup_to_join(setup_code(*names))
    assert str(refused.value) == message


@pytest.mark.parametrize("case", REFUSED)
def test_the_join_screen_refuses_such_a_code_typed_or_opened_as_a_link_and_starts_nothing(case: str) -> None:
    names, message = REFUSED[case]
    code = setup_code(*names)
    store = MemoryStore()

    async def typed(ui: FletHarness) -> None:
        await ui.click("join-table")
        await ui.type_text("setup-code", code)
        await ui.click("read-setup")
        assert ui.text_of("join-refusal") == message
        assert not ui.exists("start-tournament-game")
        assert not any(text.startswith("Seat ") for text in ui.texts())

    async def linked(ui: FletHarness) -> None:
        assert ui.text_of("join-refusal") == message
        assert not ui.exists("start-tournament-game")

    run(typed, store=store)
    run(linked, route="/join/" + safe_form(code), store=store)
    assert asyncio.run(store.load_all("games")) == {}
    assert asyncio.run(Scorekeeper(store).recent_names()) == []  # nor offered at New game


KEPT = {
    "plain names": ("Ann", "Bob"),
    "a Persian name with its non-joiner and an emoji": ("می\u200cخواهم", "\u2764\ufe0f Ann"),
    "names in other scripts": ("王小明", "Νίκος", "Анна"),
    "the longest name": ("Ann", "B" * 40),
}


@pytest.mark.parametrize("case", KEPT)
def test_a_setup_code_whose_names_new_game_takes_is_read_with_its_names_as_written(case: str) -> None:
    names = KEPT[case]
    assert setup_to_join(setup_code(*names)).names == names


NAME_PARTS = st.sampled_from(["Ann", "ANN", "Bob", "A", "\u0410", "\u0578", "n", "\u3164", "\u200b", "\u200c",
                              "\u202e", "\ufe0f", "\u2764", " ", "\u0301", "王", "B" * 12, "\x00"])
NAMES = st.lists(st.lists(NAME_PARTS, min_size=1, max_size=4).map("".join).filter(str.strip), min_size=2, max_size=8)


@given(NAMES)
def test_a_setup_code_is_refused_exactly_when_new_game_would_refuse_its_names_and_kept_as_written_otherwise(
        names: list[str]) -> None:
    code = setup_code(*names)
    try:
        table_names(names)
    except InvalidInput:
        with pytest.raises(InvalidInput) as refused:
            setup_to_join(code)
        assert str(refused.value).startswith("This setup code ") and str(refused.value).endswith(NOT_STARTED)
    else:
        assert setup_to_join(code).names == tuple(names)


def old_event_with_a_hangul_filler() -> Tournament:
    """An event whose log signed up "Ann" + a Hangul filler before issue 25 refused it, drawn to one table of four."""
    t = Tournament("Cup", event_id="CUP-1", secret=b"cup-2026-secret!")
    signed = [{"type": "player_signed_up", "number": number, "name": name}
              for number, name in enumerate(("Ann\u3164", "Bob", "Cy", "Di"), 1)]
    old = Tournament.from_events(t.events + signed)
    for player in old.players:
        old.check_in(player.number)
    old.draw_seats(3)
    return old


def test_an_old_events_card_naming_a_name_refused_now_is_refused_at_a_new_join_but_its_game_started_before_still_signs(
        ) -> None:
    event = old_event_with_a_hangul_filler()
    code = event.setup_code(1)
    with pytest.raises(InvalidInput, match=r"^This setup code names a player that could not be shown, at seat \d "
                                           r"\(number 1\)\. The name \"Ann\[hangul jungseong filler\]\""):
        setup_to_join(code)

    async def joined_before_the_rule() -> None:
        store = MemoryStore()
        setup = decode_setup(code)  # what the join screen did before it checked names
        table = Scorekeeper(store)
        game_id = await table.start_game(list(setup.names), setup.rules, meta=tournament_meta(setup, code))
        reopened = Scorekeeper(store)
        game = await reopened.open_game(game_id)
        assert game is not None and "Ann\u3164" in game.players
        await reopened.act(lambda game: play_game(game, random.Random(5)) and None)
        assert reopened.game is not None and reopened.game.is_over
        result = signed_result(reopened.game, reopened.meta["tournament"])
        assert event.import_result(result.safe).status == "accepted"

    asyncio.run(joined_before_the_rule())
