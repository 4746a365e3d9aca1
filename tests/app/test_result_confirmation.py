"""Second-person confirmation: each player confirms a tournament table's final totals.

The table asks every seated player before the result code shows; the answers are saved
with the game, signed into the code (a format bit in the player count, then the seats
that confirmed and those that declined), and the organizer sees how each result was
confirmed. Codes made before the table asked read and count exactly as before.
"""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import json
import random
import zlib
from pathlib import Path

import pytest

from app.qr import qr_image
from app.table.scorekeeper import Scorekeeper
from app.storage import ChangedElsewhere, MemoryStore, StoreWriteError
from app.table.tournament_table import CONFIRMATIONS, answers_of, signed_result, tournament_meta, with_answer
from engine import Game, IllegalAction, InvalidInput, Rules, Tournament, decode_setup
from engine.codec import (
    CONFIRMATIONS_FLAG,
    CodeAltered,
    CodeDamaged,
    TableResult,
    b45decode,
    b45encode,
    decode_result,
    describe_confirmations,
    encode_result,
    result_from_game,
)
from tests.support.app_driver import FailingStore, run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game

HOUSE = Rules.preset("house")
KEY = bytes(range(16))
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def result_of(count: int, answers: tuple[bool | None, ...] | None) -> TableResult:
    totals = tuple(10_000 - 50 * seat for seat in range(count))
    return TableResult("MAYOR-26", 2, 3, tuple(range(11, 11 + count)), totals, tuple(range(1, count + 1)), (),
                       HOUSE, bytes(range(16)), answers)


def with_crc(body: bytes) -> str:
    """A result code around ``body`` (prefix included), with its CRC made right."""
    sealed = body + zlib.crc32(body).to_bytes(4, "big")
    return "FR1:" + b45encode(sealed[3:])


def body_of(code: str) -> bytes:
    """The code's bytes, prefix included, without the CRC."""
    return b"FR1" + b45decode(code[4:])[:-4]


# -- the code ---------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 9))
def test_every_combination_of_answers_round_trips_signed_for_2_to_8_players(count: int) -> None:
    for answers in itertools.product((True, False, None), repeat=count):
        result = result_of(count, answers)
        signed = decode_result(encode_result(result, KEY))
        assert signed.verify(KEY) == result and signed.result.confirmations == answers


def test_a_result_without_answers_is_written_without_the_flag_and_reads_as_not_confirmed() -> None:
    plain, asked = encode_result(result_of(4, None), KEY), encode_result(result_of(4, (True,) * 4), KEY)
    assert len(body_of(asked)) == len(body_of(plain)) + 2  # the two seat masks
    assert decode_result(plain).result.confirmations is None
    assert decode_result(plain).result.confirmation_line(["Ann", "Bob", "Cy", "Di"]) == "not confirmed (older table app)"


def test_an_old_result_code_still_reads_as_not_confirmed() -> None:
    codes = json.loads((FIXTURES / "codes_v1.json").read_text(encoding="utf-8"))
    result = decode_result(codes["result_code"]).verify(bytes.fromhex(codes["table_key"]))
    assert result.confirmations is None
    game = Game.from_events(codes["final_game_events"])
    setup = decode_setup(codes["setup_code"])
    assert encode_result(result_from_game(game, setup), setup.key) == codes["result_code"]


def test_confirmation_bits_changed_after_signing_are_refused_as_altered() -> None:
    genuine = decode_result(encode_result(result_of(4, (True, True, True, False)), KEY))
    wanted = decode_result(encode_result(result_of(4, (True, True, True, True)), KEY))
    assert len(genuine.signed) == len(wanted.signed) and genuine.signed != wanted.signed
    forged = with_crc(wanted.signed + genuine.signature)  # Di's "declined" turned into "confirmed"
    read = decode_result(forged)
    assert read.result.confirmations == (True, True, True, True)
    with pytest.raises(CodeAltered, match="does not carry that table's signature"):
        read.verify(KEY)


def test_dropping_the_answers_from_a_signed_code_is_refused_as_altered() -> None:
    genuine = decode_result(encode_result(result_of(4, (True, False, True, True)), KEY))
    old_style = decode_result(encode_result(result_of(4, None), KEY))
    read = decode_result(with_crc(old_style.signed + genuine.signature))
    with pytest.raises(CodeAltered):
        read.verify(KEY)


def test_a_seat_both_confirmed_and_declined_or_beyond_the_table_is_refused_as_damaged() -> None:
    signed = decode_result(encode_result(result_of(4, (True, None, None, None)), KEY)).signed
    at = signed.index(bytes([4 | CONFIRMATIONS_FLAG, 0b0001, 0b0000]))
    for masks in (bytes([0b0001, 0b0001]), bytes([0b10000, 0])):
        broken = signed[: at + 1] + masks + signed[at + 3 :] + bytes(16)
        with pytest.raises(CodeDamaged, match="confirmations name a seat twice or a seat the table does not have"):
            decode_result(with_crc(broken))


def test_a_format_flag_this_app_does_not_know_is_refused_as_from_a_newer_table_app() -> None:
    signed = decode_result(encode_result(result_of(4, None), KEY)).signed
    at = signed.index(bytes([4, 11, 12, 13, 14]))
    broken = signed[:at] + bytes([4 | 0x20]) + signed[at + 1 :] + bytes(16)
    with pytest.raises(CodeDamaged, match="newer table app"):
        decode_result(with_crc(broken))


def test_a_result_needs_one_answer_per_player() -> None:
    with pytest.raises(InvalidInput, match="4 players but 3 answers"):
        result_of(4, (True, True, True))
    with pytest.raises(InvalidInput, match="not an answer"):
        result_of(2, (True, 1))  # type: ignore[arg-type]


def test_a_table_of_4_with_its_answers_still_fits_a_version_5_qr_code_at_level_m() -> None:
    t, code = final_of_four()
    setup = decode_setup(code)
    game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(4))
    plain = encode_result(result_from_game(game, setup), setup.key)
    asked = encode_result(result_from_game(game, setup, (True, False, True, True)), setup.key)
    assert len(asked) == len(plain) + 3  # two mask bytes: three Base45 characters
    image = qr_image(asked)
    assert image.alphanumeric and image.version <= 5


def test_answers_are_described_in_a_few_words() -> None:
    names = ["Ann", "Bob", "Cy", "Di"]
    assert describe_confirmations((True,) * 4, names) == "confirmed by 4 of 4"
    assert describe_confirmations((True, False, True, True), names) == "confirmed by 3 of 4 · Bob declined"
    assert describe_confirmations((False, False, True, None), names) == (
        "confirmed by 1 of 4 · Ann and Bob declined · Di did not answer")


# -- the tournament ------------------------------------------------------------------------


def final_of_four(link_base: str = "") -> tuple[Tournament, str]:
    t = Tournament("Mayor's cup", event_id="MAYOR-26", secret=b"mayor-house-2026")
    for name in ("Ann", "Bob", "Cy", "Di"):
        t.check_in(t.sign_up(name))
    t.draw_seats(3)
    return t, t.setup_code(1, link_base)


def confirmed_code(t: Tournament, answers: tuple[bool | None, ...], seed: int = 4) -> tuple[str, Game]:
    setup = decode_setup(t.setup_code(1))
    game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(seed))
    return encode_result(result_from_game(game, setup, answers), setup.key), game


def test_a_final_one_player_declined_is_held_for_the_organizer_and_once_counted_says_who_declined() -> None:
    t, _ = final_of_four()
    code, _ = confirmed_code(t, (True, False, True, True))
    names = [t.player(n).name for n in t.seating()[0]]
    report = t.import_result(code)
    assert report.status == "held"
    assert report.message.startswith(f"Final, table 1: result confirmed by 3 of 4 · {names[1]} declined, so it is "
                                     "held for the organizer: count it, or ask the table to confirm again (1. ")
    assert t.results() == {} and t.missing_tables() == (1,)
    t.settle_held(1, take=True, reason="the table agreed the sheet")
    assert t.confirmation(1, 1) == f"confirmed by 3 of 4 · {names[1]} declined"
    again = Tournament.from_events(json.loads(json.dumps(t.events)))
    assert again == t and again.confirmation(1, 1) == t.confirmation(1, 1)
    assert t.events[-2]["result"]["confirmations"] == [True, False, True, True]


def test_an_old_code_and_a_paper_result_say_how_they_came() -> None:
    t, _ = final_of_four()
    setup = decode_setup(t.setup_code(1))
    game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(4))
    t.import_result(encode_result(result_from_game(game, setup), setup.key))
    assert t.confirmation(1, 1) == "not confirmed (older table app)"
    assert "confirmations" not in t.events[-1]["result"]
    assert "Confirmation" not in t.results_csv().splitlines()[0]  # the export keeps its columns
    t.void_result(1, 1, "test")
    t.replace_result(1, 1, "paper sheet", totals=(10_000, 9_000, 8_000, 0))
    assert t.confirmation(1, 1) == "entered by hand"


def test_the_results_csv_names_how_each_result_was_confirmed_once_one_was() -> None:
    t, _ = final_of_four()
    code, _ = confirmed_code(t, (True,) * 4)
    t.import_result(code)
    other, _ = confirmed_code(t, (True, True, False, True), seed=9)
    assert t.import_result(other).status == "held"
    rows = list(csv.reader(io.StringIO(t.results_csv())))
    assert rows[0][-1] == "Confirmation" and len(rows) == 9
    names = [t.player(n).name for n in t.seating()[0]]
    assert {row[-1] for row in rows[1:5]} == {"confirmed by 4 of 4"}
    assert {row[-1] for row in rows[5:]} == {f"confirmed by 3 of 4 · {names[2]} declined"}
    assert [row[7:9] for row in rows[1:]] == [["code", "counted"]] * 4 + [["code", "held"]] * 4


# -- the table's answers, without the screen ------------------------------------------------


def test_answers_are_kept_for_the_final_totals_and_can_change_until_every_seat_answered() -> None:
    t, code = final_of_four()
    setup = decode_setup(code)
    meta = tournament_meta(setup, code)["tournament"]
    game = Game(list(setup.names), setup.rules, 0)
    with pytest.raises(IllegalAction, match="not over yet"):
        with_answer(game, meta, 0, True)
    play_game(game, random.Random(4))
    assert answers_of(game, meta) == (None,) * 4
    meta = with_answer(game, meta, 0, False)
    meta = with_answer(game, meta, 0, True)
    assert answers_of(game, meta) == (True, None, None, None)
    for seat in (1, 2, 3):
        meta = with_answer(game, meta, seat, seat != 2)
    with pytest.raises(IllegalAction, match="Every player has answered already"):
        with_answer(game, meta, 2, True)
    signed = signed_result(game, meta)
    assert signed.confirmation == f"confirmed by 3 of 4 · {setup.names[2]} declined"
    assert t.import_result(signed.code).status == "held"  # a player declined: the organizer decides
    t.settle_held(1, take=True, reason="the table agreed the sheet")
    assert t.confirmation(1, 1) == signed.confirmation


def test_answers_given_to_other_totals_are_not_these_totals_answers() -> None:
    _, code = final_of_four()
    setup = decode_setup(code)
    meta = tournament_meta(setup, code)["tournament"]
    game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(4))
    meta = with_answer(game, meta, 0, True)
    other = play_game(Game(list(setup.names), setup.rules, 0), random.Random(5))
    assert answers_of(other, meta) == (None,) * 4
    assert answers_of(game, {**meta, CONFIRMATIONS: {"digest": "x", "answers": "yes"}}) == (None,) * 4


def test_the_scorekeeper_saves_meta_over_the_revision_it_read_and_restores_it_on_a_failed_write() -> None:
    async def test() -> None:
        store = FailingStore()
        _, code = final_of_four()
        setup = decode_setup(code)
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(list(setup.names), setup.rules, meta=tournament_meta(setup, code))
        await keeper.update_meta("tournament", {**keeper.meta["tournament"], "note": 1})
        assert (await store.load("games", game_id) or {})["tournament"]["note"] == 1
        store.fail = True
        with pytest.raises(StoreWriteError):
            await keeper.update_meta("tournament", {**keeper.meta["tournament"], "note": 2})
        assert keeper.meta["tournament"]["note"] == 1
        store.fail = False
        other = Scorekeeper(store)
        await other.open_game(game_id)
        await other.update_meta("title", "elsewhere")
        with pytest.raises(ChangedElsewhere):
            await keeper.update_meta("tournament", {**keeper.meta["tournament"], "note": 3})
        stored = await store.load("games", game_id) or {}
        assert stored["tournament"]["note"] == 1 and keeper.meta["title"] == "elsewhere"

    asyncio.run(test())


# -- the table's screen ------------------------------------------------------------------------


async def finished_table(store: MemoryStore, seed: int = 4) -> tuple[str, Game, Tournament]:
    t, code = final_of_four()
    setup = decode_setup(code)
    keeper = Scorekeeper(store)
    game_id = await keeper.start_game(list(setup.names), setup.rules, meta=tournament_meta(setup, code))

    def play(game: Game) -> None:
        play_game(game, random.Random(seed))

    await keeper.act(play)
    assert keeper.game is not None and keeper.game.is_over
    return game_id, keeper.game, t


def test_the_result_code_shows_once_every_player_has_confirmed_the_final_totals() -> None:
    store = MemoryStore()
    game_id, game, t = asyncio.run(finished_table(store))
    names, totals = game.players, game.scores

    async def test(ui: FletHarness) -> None:
        assert ui.exists("confirm-panel") and not ui.exists("result-panel") and not ui.exists("result-qr")
        assert ui.unlabelled_controls() == []
        for seat, (name, total) in enumerate(zip(names, totals), 1):
            assert ui.text_of(f"confirm-line-{seat}") == f"{name} {total:,} · not answered yet"
            assert ui.accessible_name(ui.find(f"confirm-seat-{seat}")) == f"{name} confirms {total:,}"
            assert ui.accessible_name(ui.find(f"decline-seat-{seat}")) == f"{name} declines {total:,}"
            assert (ui.find(f"confirm-seat-{seat}").height or 0) >= 48
            assert (ui.find(f"decline-seat-{seat}").height or 0) >= 48
        for seat in range(1, 4):
            await ui.click(f"confirm-seat-{seat}")
            assert ui.text_of(f"confirm-line-{seat}").endswith(" · confirmed")
            assert not ui.exists("result-panel")
        await ui.click("confirm-seat-4")
        assert ui.text_of("result-confirmation") == "Final totals confirmed by 4 of 4"
        assert not ui.exists("confirm-panel")
        code = ui.text_of("result-code-text")
        assert decode_result(code).result.confirmations == (True,) * 4
        report = t.import_result(code)
        assert report.status == "accepted" and report.message.endswith("Confirmed by 4 of 4.")

    run(test, f"/game/{game_id}", store=store)


def test_a_decline_is_named_and_answers_survive_reopening_the_game() -> None:
    store = MemoryStore()
    game_id, game, _ = asyncio.run(finished_table(store))
    names = game.players

    async def first(ui: FletHarness) -> None:
        await ui.click("decline-seat-1")
        await ui.click("confirm-seat-1")  # changed her mind: answers change until all are in
        await ui.click("decline-seat-2")
        assert ui.text_of("confirm-line-1").endswith(" · confirmed")
        assert ui.text_of("confirm-line-2").endswith(" · declined")
        stored = (await store.load("games", game_id) or {})["tournament"][CONFIRMATIONS]
        assert stored["answers"] == [True, False, None, None]

    run(first, f"/game/{game_id}", store=store)

    async def reopened(ui: FletHarness) -> None:
        assert ui.text_of("confirm-line-1").endswith(" · confirmed")
        assert ui.text_of("confirm-line-2").endswith(" · declined")
        assert ui.text_of("confirm-line-3").endswith(" · not answered yet")
        await ui.click("confirm-seat-3")
        await ui.click("confirm-seat-4")
        assert ui.text_of("result-confirmation") == f"Final totals confirmed by 3 of 4 · {names[1]} declined"

    run(reopened, f"/game/{game_id}", store=store)

    async def again(ui: FletHarness) -> None:
        assert not ui.exists("confirm-panel")
        assert ui.text_of("result-confirmation") == f"Final totals confirmed by 3 of 4 · {names[1]} declined"
        assert decode_result(ui.text_of("result-code-text")).result.confirmations == (True, False, True, True)

    run(again, f"/game/{game_id}", store=store)


def test_an_answer_the_store_did_not_keep_is_not_shown() -> None:
    store = FailingStore()
    game_id, _, _ = asyncio.run(finished_table(store))

    async def test(ui: FletHarness) -> None:
        store.fail = True
        await ui.click("confirm-seat-1")
        assert ui.text_of("confirm-line-1").endswith(" · not answered yet")
        assert any(text.startswith("The answer was not saved: ") and "disk unplugged" in text for text in ui.texts())
        store.fail = False
        await ui.click("confirm-seat-1")
        assert ui.text_of("confirm-line-1").endswith(" · confirmed") and not ui.exists("confirm-problem")

    run(test, f"/game/{game_id}", store=store)
