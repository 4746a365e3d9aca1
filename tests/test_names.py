"""Players' names: one form each, nothing invisible, look-alikes caught (engine.names and sign-up)."""

from __future__ import annotations

import pytest

from engine import IllegalAction, InvalidInput, Tournament
from engine.names import NAME_LONGEST, clean_name, find_clash, name_key, skeleton

REFUSED = {
    "zero-width space after": ("Ann\u200b", 'The name "Ann[zero width space]" holds an invisible or control '
                               "character, U+200B zero width space. Type it again without it."),
    "only a zero-width space": ("\u200b", 'The name entered, "[zero width space]", is only invisible characters '
                                "(U+200B zero width space): type the player's name."),
    "a NUL inside": ("A\x00nn", 'The name "A[control character]nn" holds an invisible or control character, '
                     "U+0000 control character. Type it again without it."),
    "a right-to-left override": ("\u202eAnn", 'The name "[right-to-left override]Ann" holds an invisible or '
                                 "control character, U+202E right-to-left override. Type it again without it."),
    "a byte-order mark and a soft hyphen": (
        "\ufeffAn\u00adn", 'The name "[zero width no-break space]An[soft hyphen]n" holds invisible or control '
        "characters: U+FEFF zero width no-break space, U+00AD soft hyphen. Type it again without them."),
    "a joiner between Latin letters": ("Ann\u200dLee", 'The name "Ann[zero width joiner]Lee" holds an invisible or '
                                       "control character, U+200D zero width joiner. Type it again without it."),
    "nothing": ("   ", "A player needs a name: nothing was entered."),
    "too long": ("A" * 25, f'"{"A" * 25}" has 25 characters: a name has at most 24, to fit on a phone\'s scoreboard.'),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_name_with_invisible_or_control_characters_or_none_or_too_many_is_refused_saying_what_was_entered(
        case: str) -> None:
    entered, message = REFUSED[case]
    with pytest.raises(InvalidInput) as refused:
        clean_name(entered)
    assert str(refused.value) == message


KEPT = {
    "spaces made one": ("  Ann   Lee ", "Ann Lee"),
    "full-width letters made plain": ("Ａｎｎ", "Ann"),
    "a no-break space made a space": ("Ann\u00a0Lee", "Ann Lee"),
    "an accent composed": ("Jose\u0301", "José"),
    "a Persian name with its non-joiner": ("می\u200cخواهم", "می\u200cخواهم"),
    "the longest name": ("B" * NAME_LONGEST, "B" * NAME_LONGEST),
    "CJK and emoji": ("王小明 🎲", "王小明 🎲"),
}


@pytest.mark.parametrize("case", KEPT)
def test_a_name_is_kept_in_one_form(case: str) -> None:
    entered, kept = KEPT[case]
    assert clean_name(entered) == kept


LOOK_ALIKES = {
    "Cyrillic capital A": "\u0410nn",
    "Cyrillic small o and e": "R\u043es\u0435",
    "Greek capital alpha": "\u0391nn",
    "Greek omicron": "R\u03bfse",
    "Latin dotless i": "L\u0131z",
}
TAKEN = {"Cyrillic capital A": "Ann", "Cyrillic small o and e": "Rose", "Greek capital alpha": "Ann",
         "Greek omicron": "Rose", "Latin dotless i": "Liz"}


@pytest.mark.parametrize("case", LOOK_ALIKES)
def test_a_name_with_letters_of_another_script_that_look_latin_is_flagged_as_the_name_it_looks_like(case: str) -> None:
    clash = find_clash(LOOK_ALIKES[case], {3: TAKEN[case], 4: "Zed"})
    assert clash is not None and (clash.number, clash.name, clash.kind) == (3, TAKEN[case], "look-alike")


def test_the_same_name_in_another_case_or_width_is_the_same_name_not_a_look_alike() -> None:
    assert name_key("ANN") == name_key("ann") == name_key("Ａｎｎ")
    clash = find_clash("ANN", {1: "Ann"})
    assert clash is not None and clash.kind == "same"


def test_names_that_only_share_letters_are_neither_the_same_nor_alike() -> None:
    assert find_clash("Anna", {1: "Ann"}) is None
    assert find_clash("José", {1: "Jose"}) is None  # an accent is not a look-alike letter
    assert skeleton("Νίκος") != skeleton("Nikos")  # a Greek name written in Greek stays itself


SIGN_UPS = {
    "Cyrillic look-alike": ("\u0410nn", IllegalAction,
                            '"\u0410nn" looks like a player signed up: Ann (number 3). Add something to tell them apart.'),
    "full-width duplicate": ("Ａｎｎ", IllegalAction, '"Ａｎｎ" (read as "Ann") is already signed up: Ann (number 3). '
                             "Add something to tell them apart."),
    "zero-width duplicate": ("Ann\u200b", InvalidInput, 'The name "Ann[zero width space]" holds an invisible or '
                             "control character, U+200B zero width space. Type it again without it."),
    "upper-case duplicate": ("ANN", IllegalAction,
                             '"ANN" is already signed up: Ann (number 3). Add something to tell them apart.'),
}


@pytest.mark.parametrize("case", SIGN_UPS)
def test_sign_up_refuses_a_name_that_is_or_looks_like_a_signed_up_one_naming_that_player(case: str) -> None:
    t = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    t.sign_up("Ann", 3)
    entered, error, message = SIGN_UPS[case]
    before = t.events
    with pytest.raises(error) as refused:
        t.sign_up(entered)
    assert str(refused.value) == message
    assert t.events == before


def test_a_withdrawn_players_name_may_be_signed_up_again_and_the_name_is_kept_normalised() -> None:
    t = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    t.withdraw(t.sign_up("Ann"), "ill")
    number = t.sign_up(" Ａｎｎ ")
    assert t.player(number).name == "Ann"


def test_names_stored_before_the_rules_still_open_and_still_count_as_taken() -> None:
    t = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    events = t.events + [{"type": "player_signed_up", "number": 1, "name": "A very long name from an older app"},
                         {"type": "player_signed_up", "number": 2, "name": "Bob\u200b"}]
    old = Tournament.from_events(events)
    assert [p.name for p in old.players] == ["A very long name from an older app", "Bob\u200b"]
    with pytest.raises(IllegalAction, match=r'"Bob" looks like a player signed up: Bob.* \(number 2\)'):
        old.sign_up("Bob")
