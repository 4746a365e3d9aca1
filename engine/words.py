"""What the engine says to a person, as English that the app can say in another language.

The engine is pure Python and knows no language: it says things in English, as it always
has, but through :func:`say` (or :func:`say_n` where a count decides the form), which keeps
the English template (the message id, the same convention as the app's ``tr``) and the
values put into it. The result is the English text itself (a ``str``), so everything that
compares, prints or stores the engine's words keeps working; the app looks the template up
in the session's catalogue and formats the values (numbers in the language's own way)::

    >>> refusal = say("{name} has {count} characters: a name has at most {longest}.",
    ...               name="Ann", count=41, longest=40)
    >>> refusal
    'Ann has 41 characters: a name has at most 40.'
    >>> refusal.template, dict(refusal.values)
    ('{name} has {count} characters: a name has at most {longest}.', {'name': 'Ann', 'count': 41, 'longest': 40})

A number's shape is in the template (``{points:,}`` groups thousands: 10,000 in English,
10.000 in German). A value that is itself :class:`Words` (a phrase inside a sentence) is
translated on its own first.

>>> say_n("{count} die", "{count} dice", 1, count=1), say_n("{count} die", "{count} dice", 3, count=3)
('1 die', '3 dice')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

__all__ = ["Words", "Phrases", "say", "say_n", "listed", "as_words", "all_of", "one_of", "LISTING"]


class Words(str):
    """English text that remembers how it was made: the template, its plural (when a
    count chooses between the two) and the values, for the app to say it in another language."""

    __slots__ = ("template", "plural", "form_count", "values")
    template: str
    plural: str | None
    form_count: int | None
    values: Mapping[str, object]
    """The values put into the template (a :class:`Words` among them is a phrase of its own)."""

    def __new__(cls, template: str, values: Mapping[str, object], plural: str | None = None,
                count: int | None = None) -> Words:
        english = plural if plural is not None and count != 1 else template
        text = english.format(**values) if values else english
        made = super().__new__(cls, text)
        made.template, made.plural, made.form_count = template, plural, count
        made.values = MappingProxyType(dict(values))
        return made

    def __reduce__(self) -> tuple[object, ...]:
        return (Words, (self.template, dict(self.values), self.plural, self.form_count))


class Phrases(tuple[str, ...]):
    """Phrases said one after another (a rule set's settings), a value of a sentence: the
    English lists them with ``separator``, the app lists each one translated (a plain
    ``str`` among them, such as a player's name, is shown as it is).

    >>> say("{name}: {parts}", name=say("House"), parts=Phrases([say("to {target:,}", target=10000), say("steal")]))
    'House: to 10,000, steal'
    """

    separator: str

    def __new__(cls, phrases: Iterable[str], separator: str = ", ") -> Phrases:
        made = super().__new__(cls, phrases)
        made.separator = separator
        return made

    def __format__(self, format_spec: str) -> str:
        return self.separator.join(self)

    def __reduce__(self) -> tuple[object, ...]:
        return (Phrases, (tuple(self), self.separator))


LISTING = "{phrases}"
"""The template of :func:`listed`: nothing to translate but the phrases themselves."""


def listed(phrases: Iterable[str], separator: str = ", ") -> Words:
    """Phrases said one after another as one text: ``confirmed by 2 of 3 · Bob declined``.

    >>> listed([say("confirmed by {n} of {count}", n=2, count=3), say("{names} declined", names="Bob")], " · ")
    'confirmed by 2 of 3 · Bob declined'
    """
    return Words(LISTING, {"phrases": Phrases(phrases, separator)})


def all_of(items: Sequence[str]) -> str:
    """``Ann, Bob and Cy``: names (or phrases) said together; one alone as it is.

    >>> all_of(["Ann"]), all_of(["Ann", "Bob", "Cy"])
    ('Ann', 'Ann, Bob and Cy')
    """
    return items[0] if len(items) == 1 else say("{names} and {last}", names=Phrases(items[:-1]), last=items[-1])


def one_of(items: Sequence[str]) -> str:
    """``Ann, Bob or Cy``: names (or phrases) one of which is meant; one alone as it is.

    >>> one_of(["Ann (1) and Bob (2)", "Cy (3) and Di (4)"])
    'Ann (1) and Bob (2) or Cy (3) and Di (4)'
    """
    return items[0] if len(items) == 1 else say("{names} or {last}", names=Phrases(items[:-1]), last=items[-1])


def say(template: str, /, **values: object) -> Words:
    """The engine's English for a person: ``template`` (a literal, the catalogue's id)
    with ``values`` in its ``{named}`` places."""
    return Words(template, values)


def say_n(singular: str, plural: str, count: int, /, **values: object) -> Words:
    """The form of a message for ``count`` things (English: the singular for exactly one),
    with ``values`` in its places; other languages choose by their own plural rule."""
    return Words(singular, values, plural, count)


def as_words(text: str) -> Words:
    """``text`` as :class:`Words`: itself if it already is, else a literal with no places
    (the template is the text, so a catalogue may still hold it; braces stay as written).

    >>> as_words("No {braces} here").template
    'No {braces} here'
    """
    return text if isinstance(text, Words) else Words(text, {})
