"""A number typed into a form field: read as a whole number, or refused saying what was typed and why."""

from __future__ import annotations

import pytest

from app.event.number_entry import ORGANIZER_DIGITS, parse_number
from engine import InvalidInput


@pytest.mark.parametrize(
    ("typed", "optional", "expected"),
    [("10000", False, 10000), ("10,000", False, 10000), (" 500 ", False, 500), ("0", False, 0),
     ("999999", False, 999999), ("", True, None)],
)
def test_parse_number_takes_ascii_digits_with_commas_and_spaces(typed: str, optional: bool,
                                                               expected: int | None) -> None:
    assert parse_number("Target", typed, optional=optional) == expected


@pytest.mark.parametrize("typed", ["²", "٣", "1_000", "1.5", "0x10", "+5", "1000000", "8" * 5000, ""])
def test_parse_number_refuses_anything_else_by_name(typed: str) -> None:
    with pytest.raises(InvalidInput, match=r"^Target: "):
        parse_number("Target", typed)


@pytest.mark.parametrize(("typed", "refusal"), [
    ("²", "A player number: '²' is not a whole number."),
    ("٣", "A player number: '٣' is not a whole number."),
    ("9" * 5000, "A player number: '99999999999999999...' has 5,000 digits: enter at most 9."),
    ("-3", "A player number: '-3' is not a whole number."),
    ("1.5", "A player number: '1.5' is not a whole number."),
    ("0", "A player number: '0' is less than 1: enter 1 or more."),
    ("", "A player number: enter a whole number of 1 to 9 digits."),
])
def test_an_organizer_number_takes_only_ascii_digits_of_a_sane_length_and_says_what_was_refused(
        typed: str, refusal: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_number("A player number", typed, minimum=1, digits=ORGANIZER_DIGITS)
    assert str(refused.value) == refusal
    assert parse_number("A player number", "123,456,789", minimum=1, digits=ORGANIZER_DIGITS) == 123456789
