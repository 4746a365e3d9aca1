"""Whole events end to end: every game played through the engine, every code a real QR image.

The organizer's side is :class:`engine.tournament.Tournament`; each table's device is a
:class:`engine.Game` opened from its setup code. Codes cross between them only as PNG
images drawn by ``qrcode`` and read back by zxing-cpp, as a camera would.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random

import pytest
import qrcode

from app.qr import read_qr_texts
from engine import Game, IllegalAction, Rules, scoring_options
from engine.codec import (
    CodeAltered,
    CodeDamaged,
    ResultImpossible,
    TableSetup,
    decode_result,
    decode_setup,
    encode_result,
    link_form,
    result_from_game,
    typing_form,
)
from engine.tournament import RevokedCard, Tournament, WrongEvent, WrongRound, WrongTable

SECRET = b"mayor-house-2026"
ORGANIZER = "http://192.168.1.20:8550"


def qr_png(text: str) -> tuple[bytes, int]:
    """A PNG of ``text`` at error correction M, and the QR version it took."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, box_size=3, border=4)
    code.add_data(text)
    code.make(fit=True)
    out = io.BytesIO()
    code.make_image().save(out)
    return out.getvalue(), int(code.version)


def scan(png: bytes) -> str:
    """What the app's camera reader reads from the PNG: exactly one code."""
    [text] = read_qr_texts(png)
    return text


def through_qr(text: str, versions: list[int] | None = None) -> str:
    png, version = qr_png(text)
    if versions is not None:
        versions.append(version)
    read = scan(png)
    assert read == text
    return read


def play(setup: TableSetup, rng: random.Random, switch_after: int | None = None) -> Game:
    """A table's game with seeded dice and a plain strategy: keep the best, bank at 1,000 or 2 dice."""
    game = Game(list(setup.names), setup.rules, first=rng.randrange(len(setup.players)))
    turns = 0
    while not game.is_over:
        state = game.state
        if game.tied:
            game.roll_off({seat: rng.randint(1, 6) for seat in game.tied})
        elif state.phase == "throw":
            if switch_after is not None and turns == switch_after and setup.switch_to is not None:
                game.set_rules(setup.switch_to)
            turns += 1
            if state.offer and not state.building and state.offer.dice >= 3:
                game.build()
            game.roll([rng.randint(1, 6) for _ in range(game.state.dice_to_throw or 6)])
        elif state.phase == "keep":
            game.keep(scoring_options(state.throws[-1].dice, game.rules)[0].keep)
        else:
            seat, points = game.current, game.turn_points
            behind = game.final_round and game.scores[seat] + points <= max(game.scores)
            if game.bank_refusal() is None and not behind and (game.dice_in_hand <= 2 or points >= 1000):
                game.bank()
            else:
                game.roll([rng.randint(1, 6) for _ in range(game.dice_in_hand)])
    return game


def table_plays(t: Tournament, table: int, rng: random.Random, versions: list[int], switch_after: int | None = None) -> str:
    """Setup QR to the table, a game, and the result QR back; returns what the organizer scans."""
    setup = decode_setup(through_qr(t.setup_code(table, ORGANIZER)))
    assert setup.link_base == ORGANIZER
    game = play(setup, rng, switch_after)
    result = result_from_game(game, setup)
    return through_qr(encode_result(result, setup.key), versions)


def settle_ties_and_close(t: Tournament, rng: random.Random) -> tuple[int, ...]:
    while pending := t.pending_roll_offs():
        for tie in pending:
            t.record_roll_off(tie.table, {n: rng.randint(1, 6) for n in tie.numbers})
    return t.close_round()


def sign_up(t: Tournament, players: int) -> None:
    for index in range(players):
        t.check_in(t.sign_up(f"Player {index + 1:02}"))


def test_a_40_player_event_runs_to_the_champion_with_bad_codes_refused_or_held() -> None:
    rng = random.Random(2018)
    t = Tournament("Mayor House Farkle", event_id="MAYOR-26", secret=SECRET)
    sign_up(t, 40)
    versions: list[int] = []
    outsider = Tournament("Another bar", event_id="OTHER-26", secret=b"another-secret-0")
    sign_up(outsider, 8)
    outsider.draw_seats(seed=1)
    foreign = table_plays(outsider, 1, rng, versions)

    # Round 1: a stale setup code from a cancelled draw, then the real draw.
    t.draw_seats(seed=11)
    stale = decode_setup(through_qr(t.setup_code(1)))
    t.cancel_draw()
    t.draw_seats(seed=12)
    assert t.seating()[0] != stale.numbers
    stale_result = result_from_game(play(stale, rng), stale)
    with pytest.raises(RevokedCard, match="signed by a card from a cancelled seat draw of round 1"):
        t.import_result(through_qr(encode_result(stale_result, stale.key)))

    scanned = {table: table_plays(t, table, rng, versions) for table in range(1, 11)}
    assert t.import_result(scanned[1]).status == "accepted"
    assert t.import_result(typing_form(scanned[2]).lower()).status == "accepted"
    assert t.import_result(link_form(scanned[3], ORGANIZER)).status == "accepted"
    for table in range(4, 11):
        assert t.import_result(scanned[table]).status == "accepted"

    assert t.import_result(scanned[1]).status == "duplicate"
    assert t.import_result(link_form(scanned[1])).status == "duplicate"

    at = len(scanned[5]) // 2
    misread = scanned[5][:at] + ("7" if scanned[5][at] != "7" else "8") + scanned[5][at + 1 :]
    with pytest.raises(CodeDamaged, match="misread or mistyped"):
        t.import_result(misread)
    with pytest.raises(CodeDamaged):
        t.import_result(scanned[5][:-10])

    genuine = decode_result(scanned[6]).result
    boosted = dataclasses.replace(genuine, totals=tuple(total + 500 for total in genuine.totals))
    with pytest.raises(CodeAltered, match="round 1, table 6 does not carry that table's signature"):
        t.import_result(through_qr(encode_result(boosted, bytes(16))))

    with pytest.raises(WrongEvent, match="from event OTHER-26, not this one"):
        t.import_result(foreign)

    replay_setup = t.setup(4)
    second_game = through_qr(encode_result(result_from_game(play(replay_setup, rng), replay_setup), replay_setup.key))
    assert t.import_result(second_game).status == "held"
    with pytest.raises(IllegalAction, match="held results for table 4"):
        t.close_round()
    t.settle_held(4, take=False, reason="second game was a practice game")
    round_1 = settle_ties_and_close(t, rng)
    assert len(round_1) == 32

    # Round 2, progressive: stale and forged codes.
    t.draw_seats(seed=21)
    assert t.draw_info()[1] == 0, "players of one round-1 table sit apart"
    assert t.setup(1).rules == Rules.preset("progressive")
    assert t.import_result(scanned[1]).status == "duplicate", "a counted code scanned again is harmless"
    with pytest.raises(WrongRound, match="round 1, table 4, which is closed"):
        t.import_result(second_game)
    seated = t.seating()[0]
    forged_table = dataclasses.replace(decode_result(scanned[7]).result, round=2, table=9, numbers=seated,
                                       rules=Rules.preset("progressive"))
    with pytest.raises(WrongTable, match="for table 9, but round 2 has 8 tables"):
        t.import_result(encode_result(forged_table, t.card_key(9)))
    odd = dataclasses.replace(forged_table, table=1, totals=(10_020, 5_000, 4_000, 3_000), places=(1, 2, 3, 4))
    with pytest.raises(ResultImpossible, match="10,020, which is not a multiple of 50"):
        t.import_result(encode_result(odd, t.card_key(1)))
    for table in range(1, 9):
        assert t.import_result(table_plays(t, table, rng, versions)).status == "accepted"
    assert len(settle_ties_and_close(t, rng)) == 16

    # Round 3, house: each table's winner.
    t.draw_seats(seed=31)
    for table in range(1, 5):
        t.import_result(table_plays(t, table, rng, versions))
    finalists = settle_ties_and_close(t, rng)
    assert len(finalists) == 4

    # The final: the organizer switches to progressive during the game.
    t.draw_seats(seed=41)
    assert set(t.seating()[0]) == set(finalists)
    t.switch_rules()
    final_code = table_plays(t, 1, rng, versions, switch_after=8)
    assert decode_result(final_code).result.rules == Rules.preset("progressive")
    t.import_result(final_code)
    (champion,) = settle_ties_and_close(t, rng)
    prize = t.award_prize(500, "$", split={n: 125 for n in finalists}, note="the final table agreed to split")

    assert t.champion == champion == prize.champion == t.standings()[0].number
    assert t.lookup(champion)[0].status == "champion"
    assert t.flags() == () and t.held_results() == ()
    assert max(versions) <= 10
    assert Tournament.from_events(json.loads(json.dumps(t.events))) == t
    assert len(t.standings_csv().splitlines()) == 41


def test_a_23_player_event_seats_tables_of_3_and_4_and_crowns_a_champion() -> None:
    rng = random.Random(23)
    t = Tournament("Small night", event_id="SMALL-23", secret=SECRET)
    sign_up(t, 23)
    versions: list[int] = []
    shapes = []
    while t.champion is None:
        t.draw_seats(seed=rng.randrange(2**32))
        shapes.append(tuple(len(table) for table in t.seating()))
        for table in range(1, len(t.seating()) + 1):
            assert t.import_result(table_plays(t, table, rng, versions)).status == "accepted"
        settle_ties_and_close(t, rng)
    assert shapes == [(4, 4, 4, 4, 4, 3), (4, 4, 4, 3, 3), (4, 3, 3), (3,)]
    assert [plan.advancing for plan in t.plan()] == [18, 10, 3, 1]
    assert max(versions) <= 10
    assert t.standings()[0].status == "champion"


@pytest.mark.parametrize("players", [3, 4])
def test_a_tables_result_fits_a_qr_code_of_version_10_or_lower(players: int) -> None:
    rng = random.Random(players)
    t = Tournament("Sizes", event_id="MAYOR-26", secret=SECRET)
    sign_up(t, players)
    t.draw_seats(seed=1)
    versions: list[int] = []
    code = table_plays(t, 1, rng, versions)
    _, link_version = qr_png(link_form(code, ORGANIZER))
    assert versions[0] <= 5 and link_version <= 10
    assert t.import_result(link_form(code, ORGANIZER)).status == "accepted"

