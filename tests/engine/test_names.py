"""Players' names: one form each, nothing invisible, look-alikes caught, short forms told apart at a table
(engine.names and sign-up)."""

from __future__ import annotations

import string
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import IllegalAction, InvalidInput, Tournament, table_names
from engine.names import (NAME_LONGEST, SHOWN_WHOLE, UNICODE_DATA, clean_name, find_clash, name_key, short_forms,
                          skeleton)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build"))
import names_unicode  # noqa: E402  (build/: the tool that writes engine/names_unicode.txt)

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
    "a blank Braille cell after": ("Ann\u2800", 'The name "Ann[braille pattern blank]" holds an invisible or control '
                                   "character, U+2800 braille pattern blank. Type it again without it."),
    "only accents": ("\u0301\u0300", 'The name entered, "\u0301\u0300", is only accents or marks, with no letter to sit '
                     "on: type the player's name."),
    "an emoji selector on a letter": ("Ann\ufe0f", 'The name "Ann[variation selector-16]" holds an invisible or control '
                                      "character, U+FE0F variation selector-16. Type it again without it."),
    "a joiner between an emoji and a letter": (
        "\U0001f469\u200dAnn", 'The name "\U0001f469[zero width joiner]Ann" holds an invisible or control character, '
        "U+200D zero width joiner. Type it again without it."),
    "a tag letter without its flag": ("Ann\U000e0067", 'The name "Ann[tag latin small letter g]" holds an invisible or '
                                      "control character, U+E0067 tag latin small letter g. Type it again without it."),
    "a glyph selector on a Latin letter": (
        "Ann\U000e0100", 'The name "Ann[variation selector-17]" holds an invisible or control character, U+E0100 '
        "variation selector-17. Type it again without it."),
    "too long": ("A" * 41, f'"{"A" * 41}" has 41 characters: a name has at most 40. Shorten it (a middle name to its '
                 "initial, say)."),
    "too long, with an emoji shown as it prints": (
        "\u2764\ufe0f " + "A" * 39, f'"\u2764\ufe0f {"A" * 39}" has 42 characters: a name has at most 40. Shorten it (a '
        "middle name to its initial, say)."),
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
    "an emoji in its emoji form": ("\u2764\ufe0f Ann", "\u2764\ufe0f Ann"),
    "an emoji joined of three": ("\U0001f469\U0001f3fd\u200d\U0001f680 Ann", "\U0001f469\U0001f3fd\u200d\U0001f680 Ann"),
    "the rainbow flag": ("Bo \U0001f3f3\ufe0f\u200d\U0001f308", "Bo \U0001f3f3\ufe0f\u200d\U0001f308"),
    "Scotland's flag": ("Ian \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
                        "Ian \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"),
    "a keycap": ("Team 1\ufe0f\u20e3", "Team 1\ufe0f\u20e3"),
    "a Japanese family name's glyph chosen": ("葛\U000e0100飾", "葛\U000e0100飾"),
    "a Mongolian name with its selector": ("ᠮᠣᠩᠭᠣᠯ\u180b", "ᠮᠣᠩᠭᠣᠯ\u180b"),
    "an Armenian name": ("Անի", "Անի"),
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
    "Armenian small vo": "An\u0578",
    "Cherokee letter go": "\u13aann",
    "Greek capitals": "\u0391\u039d\u039d",
    "r and n for m": "Kirn",
    "a capital I for a small l": "BiII",
    "a blank Braille cell stored before it was refused": "Ann\u2800",
}
TAKEN = {"Cyrillic capital A": "Ann", "Cyrillic small o and e": "Rose", "Greek capital alpha": "Ann",
         "Greek omicron": "Rose", "Latin dotless i": "Liz", "Armenian small vo": "Ann", "Cherokee letter go": "Ann",
         "Greek capitals": "ANN", "r and n for m": "Kim", "a capital I for a small l": "Bill",
         "a blank Braille cell stored before it was refused": "Ann"}


@pytest.mark.parametrize("case", LOOK_ALIKES)
def test_a_name_with_letters_of_any_script_that_look_like_anothers_is_flagged_as_the_name_it_looks_like(case: str) -> None:
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


FINDINGS = {  # each was signed up as a new player before issue 25
    "a Hangul filler alone": ("\u3164", None, InvalidInput,
                              'The name entered, "[hangul jungseong filler]", is only invisible characters '
                              "(U+1160 hangul jungseong filler): type the player's name."),
    "two Hangul fillers": ("\u3164\u3164", None, InvalidInput,
                           'The name entered, "[hangul jungseong filler][hangul jungseong filler]", is only invisible '
                           "characters (U+1160 hangul jungseong filler): type the player's name."),
    "a Hangul choseong filler alone": ("\u115f", None, InvalidInput,
                                       'The name entered, "[hangul choseong filler]", is only invisible characters '
                                       "(U+115F hangul choseong filler): type the player's name."),
    "Ann and a Hangul filler beside Ann": ("Ann\u3164", "Ann", InvalidInput,
                                           'The name "Ann[hangul jungseong filler]" holds an invisible or control '
                                           "character, U+1160 hangul jungseong filler. Type it again without it."),
    "A, a combining grapheme joiner and B beside AB": (
        "A\u034fB", "AB", InvalidInput, 'The name "A[combining grapheme joiner]B" holds an invisible or control '
        "character, U+034F combining grapheme joiner. Type it again without it."),
    "an Armenian vo in Ann beside Ann": ("An\u0578", "Ann", IllegalAction,
                                         '"An\u0578" looks like a player signed up: Ann (number 3). '
                                         "Add something to tell them apart."),
}


@pytest.mark.parametrize("case", FINDINGS)
def test_a_name_that_prints_as_nothing_or_like_a_signed_up_one_in_another_script_is_refused_at_sign_up(
        case: str) -> None:
    entered, beside, error, message = FINDINGS[case]
    t = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    if beside is not None:
        t.sign_up(beside, 3)
    before = t.events
    with pytest.raises(error) as refused:
        t.sign_up(entered)
    assert str(refused.value) == message
    assert t.events == before


@pytest.mark.parametrize("case", FINDINGS)
def test_a_name_that_prints_as_nothing_or_like_another_players_is_refused_at_a_new_table(case: str) -> None:
    entered, beside, _, message = FINDINGS[case]
    with pytest.raises(InvalidInput) as refused:
        table_names([beside or "Bob", entered])
    assert str(refused.value) == (f'"{entered}" looks like {beside}, already at this table. Add something to tell '
                                  "them apart." if "looks like" in message else message)


TABLES = {
    "the same name twice": (["Ann", "Bob", "Ann"], '"Ann" is entered twice. Add something to tell them apart.'),
    "the same name in capitals": (["Ann", "ANN"], '"ANN" is Ann, already at this table. Add something to tell them apart.'),
    "a look-alike in Cyrillic": (["Ann", "Bob", "\u0410nn"],
                                 '"\u0410nn" looks like Ann, already at this table. Add something to tell them apart.'),
}


@pytest.mark.parametrize("case", TABLES)
def test_a_table_refuses_a_name_that_is_or_looks_like_one_entered_before_naming_it(case: str) -> None:
    entered, message = TABLES[case]
    with pytest.raises(InvalidInput) as refused:
        table_names(entered)
    assert str(refused.value) == message


def test_a_tables_names_are_kept_in_their_one_form_in_seat_order() -> None:
    assert table_names(["  Ａｎｎ ", "Bob\u00a0Lee", "\u2764\ufe0f Cy"]) == ["Ann", "Bob Lee", "\u2764\ufe0f Cy"]


@pytest.fixture(scope="module")
def default_ignorable() -> list[str]:
    """Unicode's Default_Ignorable_Code_Point as precis-i18n has it (not the engine's own file)."""
    return [chr(first + step) for first, last in names_unicode.ignorable_ranges() for step in range(last - first + 1)]


@given(name=st.text(string.ascii_letters, min_size=1, max_size=20), data=st.data())
def test_any_default_ignorable_code_point_put_anywhere_in_an_accepted_name_makes_it_refused(
        default_ignorable: list[str], name: str, data: st.DataObject) -> None:
    char = data.draw(st.sampled_from(default_ignorable), label="ignorable")
    at = data.draw(st.integers(0, len(name)), label="at")
    assert clean_name(name) == name
    with pytest.raises(InvalidInput, match=r"(holds an|is only) invisible"):
        clean_name(name[:at] + char + name[at:])


@pytest.fixture(scope="module")
def look_alikes_of() -> dict[str, list[str]]:
    """Each ASCII letter's look-alikes in other scripts, from Unicode's confusables.txt as
    pinned (letters, digits and signs that NFKC and NFD leave as they are)."""
    _, mapping = names_unicode.read_confusables(names_unicode.confusables_text())
    found: dict[str, list[str]] = {}
    for source, prototype in mapping.items():
        char = chr(source)
        if (len(prototype) == 1 and chr(prototype[0]) in string.ascii_letters and not char.isascii()
                and unicodedata.category(char)[0] in "LNSP"
                and unicodedata.normalize("NFKC", char) == unicodedata.normalize("NFD", char) == char):
            found.setdefault(chr(prototype[0]), []).append(char)
    return found


@given(name=st.text(string.ascii_letters, min_size=1, max_size=NAME_LONGEST), data=st.data())
def test_a_name_with_any_of_its_letters_swapped_for_their_unicode_look_alikes_is_flagged_as_that_name(
        look_alikes_of: dict[str, list[str]], name: str, data: st.DataObject) -> None:
    alike = look_alikes_of
    swapped = "".join(data.draw(st.sampled_from(alike[char])) if char in alike and data.draw(st.booleans()) else char
                      for char in name)
    clash = find_clash(swapped, {7: name})
    assert clash is not None and (clash.number, clash.name) == (7, name)
    assert skeleton(swapped) == skeleton(name)


def test_the_unicode_data_file_is_unicodes_files_as_the_pinned_packages_ship_them() -> None:
    """engine/names_unicode.txt is written by build/names_unicode.py, never by hand."""
    text = UNICODE_DATA.read_text(encoding="utf-8")
    assert text == names_unicode.render()
    assert "UTS #39 confusables.txt, Unicode 18.0.0" in text


SHORT_FORMS = {  # a table's names: the forms its scoreboard shows, in seat order
    "the two real names from the issue": (("Aleksandra García-Márquez", "Bartholomew García-Márquez"),
                                          ("Aleksandra G.", "Bartholomew G.")),
    "an initial made longer to tell two apart": (("Bartholomew García-Márquez", "Bartholomew Grünewald-Osterhagen"),
                                                 ("Bartholomew Ga.", "Bartholomew Gr.")),
    "an accent tells them apart": (("Bartholomew García-Márquez", "Bartholomew Garcia-Marquez"),
                                   ("Bartholomew Garcí.", "Bartholomew Garci.")),
    "a name of 24 characters or fewer is shown whole": (("Ann", "Bob Lee", "Cassiopeia Montgomery-Sm"),
                                                        ("Ann", "Bob Lee", "Cassiopeia Montgomery-Sm")),
    "never a form another whole name could be read as": (("Ann Lee", "Ann Leeeeeeeeeeeeeeeeeeeeeeeee"),
                                                         ("Ann Lee", "Ann Le.")),
    "a look-alike initial is no difference": (("Bartholomew Сastellano-Rodríguez", "Bartholomew Castillo-Rodríguez"),
                                              ("Bartholomew Сaste.", "Bartholomew Casti.")),
    "no cut just after a hyphen": (("Aleksandra García-Márquez", "Aleksandra García-Mendoza"),
                                   ("Aleksandra García-Má.", "Aleksandra García-Me.")),
    "one long word cut at 23 letters": (("Wolfeschlegelsteinhausenbergerdorff",), ("Wolfeschlegelsteinhause.",)),
    "names alike to their last letter are kept whole": (("Bartholomew García-Márquez Jr", "Bartholomew García-Márquez Sr"),
                                                        ("Bartholomew García-Márquez Jr", "Bartholomew García-Márquez Sr")),
    "an emoji is never cut apart": (("Ann \U0001f469\U0001f3fd\u200d\U0001f680Featherstonehaugh-Smythe",),
                                    ("Ann \U0001f469\U0001f3fd\u200d\U0001f680F.",)),
    "a script without capitals": (("Αλεξάνδρα Παπαδοπούλου-Γεωργίου",), ("Αλεξάνδρα Π.",)),
}


@pytest.mark.parametrize("case", SHORT_FORMS)
def test_a_long_name_is_shown_at_the_table_as_its_given_name_and_the_shortest_initial_that_tells_it_apart(
        case: str) -> None:
    names, forms = SHORT_FORMS[case]
    assert short_forms(names) == forms


_NAME_LETTERS = "AaBbCcÉéGgÓóŁłМмАаΑα-' "


@given(st.lists(st.text(_NAME_LETTERS, min_size=1, max_size=NAME_LONGEST), min_size=2, max_size=8))
def test_a_tables_short_forms_are_told_apart_taken_as_names_and_never_longer_than_their_names(entered: list[str]) -> None:
    try:
        names = table_names(entered)
    except InvalidInput:  # a name that prints nothing, or two alike: no table seats them
        return
    forms = short_forms(names)
    assert len({skeleton(form) for form in forms}) == len(names)
    assert table_names(forms) == list(forms)  # a card carrying them is taken at the table as written
    for name, form in zip(names, forms):
        assert len(form) <= len(name) and (form == name or len(name) > SHOWN_WHOLE)
