"""The engine's words are English text that keeps its template and values for the app."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.errors import IllegalAction, InvalidInput
from engine.words import Phrases, Words, as_words, listed, say, say_n


@pytest.mark.parametrize(("words", "english"), [
    (say("{points:,} to win", points=10000), "10,000 to win"),
    (say("No dice were kept."), "No dice were kept."),
    (say_n("{count} die", "{count} dice", 1, count=1), "1 die"),
    (say_n("{count} die", "{count} dice", 0, count=0), "0 dice"),
    (say("{who} {did}.", who="Ann", did=say("banked {points:,}", points=1500)), "Ann banked 1,500."),
])
def test_words_read_as_the_english_they_say(words: Words, english: str) -> None:
    assert words == english
    assert str(words) == english
    assert f"{words}" == english


def test_words_keep_the_template_and_values_for_a_translation() -> None:
    words = say_n("{count} die", "{count} dice", 3, count=3)
    assert (words.template, words.plural, words.form_count, dict(words.values)) == \
        ("{count} die", "{count} dice", 3, {"count": 3})


def test_a_refusal_keeps_the_words_it_was_raised_with() -> None:
    words = say("{face} is not a die face.", face=7)
    with pytest.raises(InvalidInput) as refused:
        raise InvalidInput(words)
    assert refused.value.words is words
    assert str(refused.value) == "7 is not a die face."


def test_a_refusal_raised_with_plain_text_has_that_text_as_its_words() -> None:
    refusal = IllegalAction("Not now {really}.")
    assert refusal.words.template == "Not now {really}."
    assert refusal.words == "Not now {really}."


@pytest.mark.parametrize("copied", [copy.deepcopy, lambda words: pickle.loads(pickle.dumps(words))])
def test_words_survive_a_copy_with_their_template(copied: object) -> None:
    words = say("{name} banked {points:,}.", name="Ann", points=2500)
    again = copied(words)  # type: ignore[operator]
    assert (again, again.template, dict(again.values)) == (words, words.template, dict(words.values))


def test_listed_phrases_read_as_english_and_keep_each_phrase() -> None:
    words = listed([say("confirmed by {n} of {count}", n=2, count=3), say("{names} declined", names="Bob")], " · ")
    assert words == "confirmed by 2 of 3 · Bob declined"
    phrases = words.values["phrases"]
    assert isinstance(phrases, Phrases) and [phrase.template for phrase in phrases] == \
        ["confirmed by {n} of {count}", "{names} declined"]
    again = pickle.loads(pickle.dumps(words))
    assert (again, again.values["phrases"].separator) == (words, " · ")  # type: ignore[attr-defined]


def test_plain_text_becomes_words_of_itself_and_words_stay_themselves() -> None:
    words = say("Undo")
    assert as_words(words) is words
    assert as_words("Hello").template == "Hello"
