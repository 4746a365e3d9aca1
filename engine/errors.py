"""The two ways an entry can be refused, both ``ValueError`` so callers may catch either."""

from __future__ import annotations

from engine.words import Words, as_words

__all__ = ["FarkleError", "InvalidInput", "IllegalAction"]


class FarkleError(ValueError):
    """Anything the engine refuses; the message is written for a player at the table, as
    :class:`~engine.words.Words` the app says in the player's language (``str()`` is the English)."""

    words: Words

    def __init__(self, words: str, /) -> None:
        super().__init__(words)
        self.words = as_words(words)


class InvalidInput(FarkleError):
    """The entry is badly formed: not dice, not a rule, not a name."""


class IllegalAction(FarkleError):
    """The entry is well formed but not allowed now."""
