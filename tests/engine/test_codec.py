"""Setup and result codes: Base45, the three forms, signatures, and what a finished game can be."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, IllegalAction, InvalidInput, Rules, check_possible
from engine.codec import (
    B45_ALPHABET,
    CodeAltered,
    CodeDamaged,
    ResultImpossible,
    SeatedPlayer,
    TableResult,
    TableSetup,
    b45decode,
    b45encode,
    decode_result,
    decode_setup,
    encode_result,
    encode_setup,
    link_form,
    log_digest,
    places_from,
    read_code,
    result_from_game,
    card_key,
    key_for,
    safe_form,
    table_key,
    typing_form,
)

HOUSE = Rules.preset("house")
KEY = bytes(range(16))
OTHER_KEY = bytes(range(1, 17))


def make_result(**changes: object) -> TableResult:
    values: dict[str, object] = dict(
        event_id="MAYOR-26",
        round=1,
        table=3,
        numbers=(12, 7, 31, 4),
        totals=(10_250, 6_400, 9_950, 0),
        places=(1, 3, 2, 4),
        roll_offs=(),
        rules=HOUSE,
        digest=bytes(16),
    )
    values.update(changes)
    return TableResult(**values)  # type: ignore[arg-type]


def make_setup(**changes: object) -> TableSetup:
    values: dict[str, object] = dict(
        event_id="MAYOR-26",
        round=1,
        table=3,
        players=(SeatedPlayer(12, "Ann"), SeatedPlayer(7, "Bob"), SeatedPlayer(31, "Zoë"), SeatedPlayer(4, "Di")),
        rules=HOUSE,
        key=KEY,
    )
    values.update(changes)
    return TableSetup(**values)  # type: ignore[arg-type]


# -- Base45 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "text"),
    [(b"AB", "BB8"), (b"Hello!!", "%69 VD92EX0"), (b"base-45", "UJCLQE7W581"), (b"ietf!", "QED8WEX0"), (b"", "")],
)
def test_base45_matches_the_examples_of_rfc_9285(data: bytes, text: str) -> None:
    assert b45encode(data) == text
    assert b45decode(text) == data


@given(st.binary(max_size=300))
def test_base45_round_trips_any_bytes_using_only_its_45_characters(data: bytes) -> None:
    text = b45encode(data)
    assert set(text) <= set(B45_ALPHABET)
    assert b45decode(text) == data


def test_base45_refuses_a_group_above_two_bytes() -> None:
    with pytest.raises(CodeDamaged, match="'GGW' cannot be part of a code"):
        b45decode("GGW")


def test_base45_refuses_a_lowercase_or_foreign_character() -> None:
    with pytest.raises(CodeDamaged, match="character 'a' at position 2"):
        b45decode("Qa8")


def test_base45_refuses_a_length_no_code_can_have() -> None:
    with pytest.raises(CodeDamaged, match="4 characters long"):
        b45decode("QED8")


# -- forms ----------------------------------------------------------------------------------


def test_the_safe_form_uses_only_characters_a_route_and_a_typist_keep() -> None:
    code = encode_result(make_result(), KEY)
    assert re.fullmatch(r"FR1-[A-Z0-9.:\-]+", safe_form(code))
    assert read_code(safe_form(code)) == code


def test_a_deep_link_holds_only_route_safe_characters_after_the_import_route() -> None:
    code = encode_result(make_result(), KEY)
    link = link_form(code, "http://192.168.1.20:8550/")
    assert link.startswith("http://192.168.1.20:8550/import/FR1-")
    assert re.fullmatch(r"/import/[A-Z0-9\-.:/]+", link[len("http://192.168.1.20:8550") :])
    assert read_code(link) == code
    assert read_code(link_form(code)) == code


def test_the_typing_form_survives_lowercase_spaces_and_line_breaks() -> None:
    code = encode_result(make_result(), KEY)
    typed = typing_form(code).lower().replace(" ", "  \n ")
    assert decode_result(typed).verify(KEY) == make_result()


def test_a_text_that_is_no_code_is_refused_as_not_ours() -> None:
    with pytest.raises(CodeDamaged, match="not a Farkle Table code"):
        read_code("https://example.org/hello")


def test_a_mistyped_escape_in_the_safe_form_is_refused_as_damaged() -> None:
    with pytest.raises(CodeDamaged, match="'-Q' cannot be part"):
        read_code("FR1-AB-QC")


def test_a_setup_code_offered_as_a_result_says_which_it_is() -> None:
    with pytest.raises(CodeDamaged, match="This is a table setup code, not a table result code"):
        decode_result(encode_setup(make_setup()))


# -- setup codes -------------------------------------------------------------------------------

names = st.text(st.characters(codec="utf-8", categories=("L", "N", "Zs", "P")), min_size=1, max_size=24).filter(
    lambda name: bool(name.strip())
)


@settings(max_examples=60, deadline=None)
@given(
    players=st.lists(st.tuples(st.integers(1, 99_999), names), min_size=2, max_size=8, unique_by=lambda p: p[0]),
    preset=st.sampled_from(["house", "progressive", "official", "classic"]),
    target=st.sampled_from([4000, 5000, 10_000, 20_000]),
    key=st.binary(min_size=16, max_size=16),
    round_=st.integers(1, 30),
    table=st.integers(1, 700),
    switch=st.booleans(),
)
def test_a_setup_code_round_trips_through_every_form(
    players: list[tuple[int, str]], preset: str, target: int, key: bytes, round_: int, table: int, switch: bool
) -> None:
    rules = dataclasses.replace(Rules.preset(preset), target=target)
    setup = TableSetup(
        "EVT-1", round_, table, tuple(SeatedPlayer(n, name) for n, name in players), rules, key,
        Rules.preset("progressive") if switch else None, "http://10.0.0.2:8550",
    )
    code = encode_setup(setup)
    assert code.startswith("FT1:") and set(code[4:]) <= set(B45_ALPHABET)
    for form in (code, safe_form(code), typing_form(code).lower(), link_form(code, setup.link_base)):
        assert decode_setup(form) == setup


def test_a_setup_code_with_a_changed_character_is_refused_as_damaged() -> None:
    code = encode_setup(make_setup())
    broken = code[:20] + ("A" if code[20] != "A" else "B") + code[21:]
    with pytest.raises(CodeDamaged, match="does not pass its check"):
        decode_setup(broken)


# -- result codes ------------------------------------------------------------------------------

totals = st.integers(0, 400).map(lambda n: n * 50)


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(2, 8),
    data=st.data(),
    digest=st.binary(min_size=16, max_size=16),
    key=st.binary(min_size=16, max_size=16),
)
def test_a_result_code_round_trips_and_verifies_only_with_its_key(
    count: int, data: st.DataObject, digest: bytes, key: bytes
) -> None:
    numbers = tuple(data.draw(st.lists(st.integers(1, 99_999), min_size=count, max_size=count, unique=True)))
    scores = tuple(data.draw(st.lists(totals, min_size=count, max_size=count)))
    tied = [seat for seat, total in enumerate(scores) if total == max(scores)]
    roll_offs = ((tuple((seat, data.draw(st.integers(1, 6))) for seat in tied),) if len(tied) > 1 else ())
    result = TableResult("EVT-1", 2, 5, numbers, scores, places_from(scores, roll_offs), roll_offs, HOUSE, digest)
    code = encode_result(result, key)
    assert set(code[4:]) <= set(B45_ALPHABET)
    for form in (code, safe_form(code), typing_form(code), link_form(code)):
        assert decode_result(form).verify(key) == result
    other = bytes(byte ^ 1 for byte in key)
    with pytest.raises(CodeAltered, match="round 2, table 5 does not carry that table's signature"):
        decode_result(code).verify(other)


def test_a_result_signed_with_another_key_is_refused_as_altered() -> None:
    forged = encode_result(make_result(totals=(10_250, 9_900, 9_950, 0), places=(1, 3, 2, 4)), OTHER_KEY)
    with pytest.raises(CodeAltered, match="changed after the game"):
        decode_result(forged).verify(KEY)


def test_a_result_cut_short_is_refused_as_damaged() -> None:
    code = encode_result(make_result(), KEY)
    with pytest.raises(CodeDamaged):
        decode_result(code[:-6])


def test_a_result_with_one_character_misread_is_refused_as_damaged_not_altered() -> None:
    code = encode_result(make_result(), KEY)
    at = len(code) // 2
    broken = code[:at] + ("0" if code[at] != "0" else "1") + code[at + 1 :]
    with pytest.raises(CodeDamaged, match="misread or mistyped"):
        decode_result(broken)


def test_table_keys_differ_per_event_round_and_table() -> None:
    secret = b"s" * 16
    keys = {table_key(secret, event, r, t) for event in ("A", "B") for r in (1, 2) for t in (1, 2)}
    assert len(keys) == 8 and all(len(key) == 16 for key in keys)


def test_card_keys_differ_per_draw_and_issue_and_from_the_old_scheme() -> None:
    secret = b"s" * 16
    keys = {card_key(secret, "A", 1, 1, draw, issue) for draw in ("d1", "d2") for issue in (0, 1, 2)}
    assert len(keys) == 6 and table_key(secret, "A", 1, 1) not in keys and all(len(key) == 16 for key in keys)


def test_an_old_scheme_card_keeps_the_old_key_until_it_is_revoked() -> None:
    secret = b"s" * 16
    assert key_for(secret, "A", 1, 2, scheme=1, draw="", issue=0) == table_key(secret, "A", 1, 2)
    assert key_for(secret, "A", 1, 2, scheme=1, draw="", issue=1) == card_key(secret, "A", 1, 2, "", 1)
    assert key_for(secret, "A", 1, 2, scheme=2, draw="d1", issue=0) == card_key(secret, "A", 1, 2, "d1", 0)


def test_an_unknown_key_scheme_is_refused() -> None:
    with pytest.raises(InvalidInput, match="Key scheme 3 is unknown: this engine knows schemes 1, 2"):
        key_for(b"s" * 16, "A", 1, 2, scheme=3, draw="", issue=0)


def test_a_signed_result_tells_which_key_signed_it_without_refusing() -> None:
    signed = decode_result(encode_result(make_result(), KEY))
    assert signed.signed_by(KEY) and not signed.signed_by(OTHER_KEY)
    with pytest.raises(CodeAltered, match="round 1, table 3 does not carry that table's signature"):
        signed.verify(OTHER_KEY)


def test_the_codec_is_split_by_concept_and_every_name_still_imports_from_engine_codec() -> None:
    import engine.codec
    from engine.codec import payloads, primitives

    assert engine.codec.b45encode is primitives.b45encode and engine.codec.TableSetup is payloads.TableSetup
    assert CodeAltered.__module__ == "engine.codec"
    assert all(hasattr(engine.codec, name) for name in engine.codec.__all__)


def test_the_log_digest_changes_with_any_event() -> None:
    events = [{"type": "started", "players": ["A", "B"]}, {"type": "rolled", "dice": [1, 2]}]
    assert log_digest(events) == log_digest([dict(event) for event in events])
    assert log_digest(events) != log_digest(events[:1])


# -- what a finished game can be -----------------------------------------------------------------


def test_a_plausible_result_passes() -> None:
    check_possible(make_result(), HOUSE)


def test_a_total_that_is_not_a_multiple_of_50_is_impossible() -> None:
    with pytest.raises(ResultImpossible, match="player 7 has 6,420, which is not a multiple of 50"):
        check_possible(make_result(totals=(10_250, 6_420, 9_950, 0)), HOUSE)


def test_a_game_with_nobody_at_the_target_is_not_over() -> None:
    with pytest.raises(ResultImpossible, match="best total is 9,950, below the target of 10,000"):
        check_possible(make_result(totals=(9_900, 6_400, 9_950, 0), places=(2, 3, 1, 4)), HOUSE)


def test_a_total_below_the_entry_threshold_is_impossible_without_farkle_penalties() -> None:
    with pytest.raises(ResultImpossible, match="player 4 has 300, but a first bank needs 500"):
        check_possible(make_result(totals=(10_250, 6_400, 9_950, 300)), HOUSE)


def test_a_total_below_the_entry_threshold_is_possible_when_farkles_cost_points() -> None:
    rules = dataclasses.replace(HOUSE, triple_farkle_penalty=1000)
    check_possible(make_result(totals=(10_250, 6_400, 9_950, 300), rules=rules), rules)


def test_places_that_do_not_follow_from_the_totals_are_impossible() -> None:
    with pytest.raises(ResultImpossible, match=r"places \[1, 2, 3, 4\] do not follow .* they would be \[1, 3, 2, 4\]"):
        check_possible(make_result(places=(1, 2, 3, 4)), HOUSE)


def test_a_tie_for_the_win_without_a_roll_off_is_impossible_for_a_finished_game() -> None:
    tied = make_result(totals=(10_250, 6_400, 10_250, 0), places=(1, 3, 1, 4))
    with pytest.raises(ResultImpossible, match="the players numbered 12 and 31 are tied for the win at 10,250 and no roll-off"):
        check_possible(tied, HOUSE)
    check_possible(tied, HOUSE, need_roll_off=False)


def test_a_roll_off_settles_a_tie_for_the_win() -> None:
    settled = make_result(totals=(10_250, 6_400, 10_250, 0), places=(2, 3, 1, 4), roll_offs=(((0, 2), (2, 5)),))
    check_possible(settled, HOUSE)


def test_a_roll_off_among_players_who_were_not_tied_is_impossible() -> None:
    wrong = make_result(totals=(10_250, 6_400, 10_250, 0), places=(1, 2, 3, 4), roll_offs=(((0, 6), (1, 5)),))
    with pytest.raises(ResultImpossible, match=r"roll-off among \[0, 1\] does not match any group of tied players"):
        check_possible(wrong, HOUSE)


def test_a_table_result_refuses_a_mismatch_of_players_and_totals() -> None:
    with pytest.raises(InvalidInput, match="4 players but 3 totals"):
        make_result(totals=(10_250, 6_400, 9_950))


def test_a_setup_refuses_a_player_number_twice() -> None:
    with pytest.raises(InvalidInput, match=r"Player numbers \[12, 12\] repeat"):
        make_setup(players=(SeatedPlayer(12, "Ann"), SeatedPlayer(12, "Bob")))


# -- from a game ---------------------------------------------------------------------------------


def tied_game() -> Game:
    rules = dataclasses.replace(HOUSE, target=1000, entry_threshold=0)
    game = Game(["Ann", "Bob"], rules)
    for _ in range(2):
        game.roll("1 1 1 2 3 4")
        game.keep("1 1 1")
        game.bank()
    game.roll_off({0: 3, 1: 5})
    return game


def test_a_finished_game_gives_its_result_with_the_roll_off_and_the_log_digest() -> None:
    game = tied_game()
    setup = make_setup(players=(SeatedPlayer(12, "Ann"), SeatedPlayer(7, "Bob")), rules=game.rules)
    result = result_from_game(game, setup)
    assert result.totals == (1000, 1000) and result.places == (2, 1) == game.places
    assert result.roll_offs == (((0, 3), (1, 5)),)
    assert result.digest == log_digest(game.events)
    check_possible(result, game.rules)
    assert decode_result(encode_result(result, KEY)).verify(KEY) == result


def test_an_unfinished_game_has_no_result_yet() -> None:
    game = Game(["Ann", "Bob"], HOUSE)
    setup = make_setup(players=(SeatedPlayer(12, "Ann"), SeatedPlayer(7, "Bob")))
    with pytest.raises(IllegalAction, match="The game is not over yet"):
        result_from_game(game, setup)


def test_a_game_between_other_players_does_not_give_the_tables_result() -> None:
    game = tied_game()
    setup = make_setup(players=(SeatedPlayer(12, "Bob"), SeatedPlayer(7, "Ann")), rules=game.rules)
    with pytest.raises(IllegalAction, match=r"are not the table's \['Bob', 'Ann'\] in seat order"):
        result_from_game(game, setup)
