"""Sign-up at the door: a pasted list or CSV read line by line, previewed, then signed up at once."""

from __future__ import annotations

import pytest

from engine import IllegalAction, InvalidInput, Tournament, TournamentFormat
from engine.tournament.signups import LIST_LARGEST, LIST_LONGEST, read_sign_up_list

READ = {
    "one name a line, blank lines skipped": ("Ann\n\n  Bob  \r\n\nCy\n", [(1, "Ann", ""), (3, "Bob", ""), (5, "Cy", "")]),
    "CSV with a heading row": ("Name,Number\nAnn,7\nBob,\n", [(2, "Ann", "7"), (3, "Bob", "")]),
    "CSV number first, with #": ("#12,Ann\n3,Bob", [(1, "Ann", "#12"), (2, "Bob", "3")]),
    "first and last name columns": ("Surname;First name;No\nLee;Ann;4", [(2, "Ann Lee", "4")]),
    "quoted name with a comma": ('"Lee, Ann",5\nBob', [(1, "Lee, Ann", "5"), (2, "Bob", "")]),
    "tab separated from a spreadsheet": ("Ann\t1\nBob\t2", [(1, "Ann", "1"), (2, "Bob", "2")]),
    "a byte-order mark from a file": ("\ufeffName\nAnn", [(2, "Ann", "")]),
    "extra columns under headings": ("Player,Email,#\nAnn,a@x.org,9", [(2, "Ann", "9")]),
}


@pytest.mark.parametrize("case", READ)
def test_a_list_is_read_into_names_and_numbers_line_by_line(case: str) -> None:
    text, expected = READ[case]
    assert [(item.line, item.name, item.number) for item in read_sign_up_list(text)] == expected


def test_a_list_longer_than_any_event_is_refused_before_it_is_read() -> None:
    with pytest.raises(InvalidInput, match="The list has 1,001 lines: at most 1,000 are read at once."):
        read_sign_up_list("Ann\n" * (LIST_LONGEST + 1))


@pytest.mark.parametrize("text", ["A" * (LIST_LARGEST + 1), "Zoë\n" * (LIST_LARGEST // 5 + 1)],
                         ids=["one long line", "few lines of two-byte letters"])
def test_a_list_larger_than_the_byte_limit_is_refused_by_its_size_before_it_is_read(text: str) -> None:
    size = len(text.encode())
    with pytest.raises(InvalidInput, match=f"^The list is {size:,} bytes: at most 250,000 are read at once"):
        read_sign_up_list(text)


def event(cap: int = 40) -> Tournament:
    fmt = TournamentFormat.house()
    return Tournament("Door", TournamentFormat(fmt.name, cap, fmt.rounds), event_id="DOOR-1", secret=bytes(16))


def test_the_preview_says_what_each_line_comes_to_and_records_nothing() -> None:
    t = event(cap=6)
    t.sign_up("Ann", 3)
    before = t.events
    text = "\n".join([
        "Bob, 7",  # 1: added with its number
        "",  # 2: blank
        "\u0410nn",  # 3: looks like Ann, signed up
        "bob",  # 4: twice in this list
        "Cy,3",  # 5: number taken
        "Di\u200b",  # 6: invisible character
        "Ed,seven",  # 7: not a number: part of the name, no heading says otherwise
        "A" * 41,  # 8: too long
        "Flo",  # 9: added, next free number
        "Gus",  # 10: added
        "Hal",  # 11: added: the sixth player
        "Ivy",  # 12: over the cap
    ])
    preview = t.preview_sign_ups(text)
    assert [line.describe() for line in preview.lines] == [
        "7. Bob",
        'Line 3: "\u0410nn" looks like a player signed up: Ann (number 3). Add something to tell them apart.',
        'Line 4: "bob" is on this list twice: Bob on line 1. Add something to tell them apart.',
        "Line 5: Number 3 is already Ann's: choose another for Cy.",
        'Line 6: The name "Di[zero width space]" holds an invisible or control character, U+200B zero width space. '
        "Type it again without it.",
        "8. Ed seven",
        f'Line 8: "{"A" * 41}" has 41 characters: a name has at most 40. Shorten it (a middle name to its initial, '
        "say).",
        "9. Flo",
        "10. Gus",
        "11. Hal",
        "Line 12: The event is full (6 players): Ivy cannot sign up.",
    ]
    assert preview.entries == (("Bob", 7), ("Ed seven", 8), ("Flo", 9), ("Gus", 10), ("Hal", 11))
    assert t.events == before


def test_a_number_under_a_number_heading_that_is_not_a_number_is_refused_with_what_was_typed() -> None:
    preview = event().preview_sign_ups("Name,Number\nAnn,seven\nBob,0")
    assert [line.describe() for line in preview.lines] == [
        'Line 2: "seven" is not a player number: use 1 to 99999, or leave it out.',
        'Line 3: "0" is not a player number: use 1 to 99999, or leave it out.',
    ]


def test_signing_up_the_previewed_list_adds_every_player_with_the_numbers_shown() -> None:
    t = event()
    preview = t.preview_sign_ups("\n".join(f"Player {n}" for n in range(1, 41)))
    assert t.sign_up_all(preview.entries) == tuple(range(1, 41))
    assert [p.name for p in t.players][-1] == "Player 40" and len(t.events) == 41


def test_a_list_one_of_whose_players_is_refused_signs_up_nobody() -> None:
    t = event()
    t.sign_up("Cy")
    before = t.events
    with pytest.raises(IllegalAction, match='"cy" is already signed up'):
        t.sign_up_all([("Ann", 2), ("cy", 3)])
    assert t.events == before and [p.name for p in t.players] == ["Cy"]
    assert t.sign_up("Ann") == 2  # the state was rebuilt, not left half-changed


def test_undo_says_which_sign_up_it_took_back() -> None:
    t = event()
    t.sign_up_all(t.preview_sign_ups("Ann\nBob").entries)
    assert t.undo() == "Bob's sign-up (number 2)"
