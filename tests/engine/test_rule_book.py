"""The rule book (engine/RULES.md) and the engine agree: its figures are the engine's, and
every section the code cites is in it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine import Rules, farkle_chance
from tests.engine.test_rule_options import FACEBOOK

ROOT = Path(__file__).resolve().parents[2]
BOOK = (ROOT / "engine" / "RULES.md").read_text(encoding="utf-8")


def section(number: str) -> str:
    """The text of section ``number`` ("3.6"), up to the next heading."""
    found = re.search(rf"^#+ {re.escape(number)} .*?$(.*?)(?=^#)", BOOK + "\n#", re.M | re.S)
    assert found is not None, f"engine/RULES.md has no section {number}"
    return found.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The cells of a Markdown table's body rows."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def whole(cell: str) -> int:
    """``10,000`` → 10000, ``−1,000`` → 1000, ``none`` → 0."""
    digits = re.sub(r"[^0-9]", "", cell)
    return int(digits) if digits else 0


@pytest.mark.parametrize("row", table_rows(section("3.6")), ids=lambda row: row[0])
def test_each_preset_has_the_settings_the_book_tabulates(row: list[str]) -> None:
    name, _source, target, entry, penalty, passing = row
    rules = Rules.preset(name.strip("`"))
    assert (rules.target, rules.entry_threshold, rules.triple_farkle_penalty) == (whole(target), whole(entry),
                                                                                   whole(penalty))
    assert rules.progressive == passing.startswith("yes")
    assert not rules.steal


def test_the_farkle_chances_in_the_book_are_the_engines() -> None:
    (row,) = table_rows(section("1.5"))
    shown = [float(cell.rstrip(" %")) for cell in row[1:]]
    for name in ("house", "official", "classic"):
        assert shown == [round(float(farkle_chance(n, Rules.preset(name))) * 100, 2) for n in range(1, 7)]


def test_every_section_the_code_cites_is_in_the_book() -> None:
    cited: set[str] = set()
    for folder in ("engine", "app", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for mention in re.findall(r"RULES\.md \(?(?:§|sections? )([0-9.§ ,and-]+)", text):
                cited.update(re.findall(r"[0-9]+(?:\.[0-9]+)?", mention))
    assert cited, "nothing cites engine/RULES.md"
    for number in sorted(cited):
        assert re.search(rf"^#+ {re.escape(number)}\.? ", BOOK, re.M), f"engine/RULES.md has no section {number}"


def book_value(cell: str) -> object:
    """A cell of a settings table as a value: ```multiply` (…)`` → "multiply", ``−2,500`` → -2500."""
    first = cell.split(" (")[0].strip()
    if first.startswith("`"):
        return first.strip("`")
    return -whole(first) if first.startswith(("−", "-")) else whole(first)


def test_facebook_farkle_is_official_with_the_options_the_book_lists() -> None:
    changed = {name.strip("`"): book_value(value) for name, value in table_rows(section("3.7"))}
    official = Rules.preset("official")
    assert all(getattr(official, name) != value for name, value in changed.items())
    assert dataclasses.replace(official, **changed) == FACEBOOK


@pytest.mark.parametrize("name", ["minimum_bank", "lowest_total", "end_rule"])
def test_each_later_option_is_in_the_book_and_the_same_in_every_preset(name: str) -> None:
    assert f"*Option* `{name}`" in BOOK
    assert len({getattr(Rules.preset(preset), name) for preset in ("house", "progressive", "official", "classic")}) == 1
