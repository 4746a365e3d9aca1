"""The organizer passphrase: the rule a new one meets, its salted hash, and what verifies it."""

from __future__ import annotations

import pytest

from app.event.passphrase import PassphraseRefused, check_new_passphrase, hash_passphrase, meets_rule, verify_passphrase
from tests.support.access_support import cheap_hash


def test_a_passphrase_is_kept_only_as_a_salted_hash_that_verifies_it_and_nothing_else():
    stored = hash_passphrase("harbour 9")
    again = hash_passphrase("harbour 9")
    assert "harbour" not in stored and stored.startswith("scrypt$")
    assert stored != again  # another salt each time
    assert verify_passphrase("harbour 9", stored) and verify_passphrase("  harbour 9 ", stored)
    assert not verify_passphrase("harbour 8", stored)
    assert not verify_passphrase("harbour 9", "") and not verify_passphrase("harbour 9", "scrypt$broken")
    assert not verify_passphrase("harbour 9", "md5$" + stored.split("$", 1)[1])


@pytest.mark.parametrize("first, again, message", [
    ("1234", "1234", "at least 8 characters"),
    ("pier 26", "pier 26", "at least 8 characters"),
    ("   ", "", "at least 8 characters"),
    ("12345678", "12345678", "straight run"),
    ("aaaaaaaaaa", "aaaaaaaaaa", "one character repeated"),
    ("87654321", "87654321", "straight run"),
    ("pier 2026", "pier 2062", "The two passphrases differ"),
])
def test_a_new_passphrase_too_short_or_typed_differently_is_refused_with_the_reason(first, again, message):
    with pytest.raises(PassphraseRefused, match=message):
        check_new_passphrase(first, again)


def test_a_passphrase_of_eight_characters_typed_twice_is_taken_without_its_outer_spaces():
    assert check_new_passphrase(" 24681357", "24681357 ") == "24681357"


def test_a_hash_says_whether_its_passphrase_met_the_eight_character_rule_and_an_older_one_still_verifies():
    assert meets_rule(cheap_hash("harbour 9")) and not meets_rule(cheap_hash("2468"))
    older = cheap_hash("harbour 9").removesuffix("$rule8")  # as hashes were made before the rule
    assert verify_passphrase("harbour 9", older) and not meets_rule(older)
    assert verify_passphrase("2468", cheap_hash("2468"))
