"""The two ways an entry can be refused, both ``ValueError`` so callers may catch either."""

from __future__ import annotations

__all__ = ["FarkleError", "InvalidInput", "IllegalAction"]


class FarkleError(ValueError):
    """Anything the engine refuses; the message is written for a player at the table."""


class InvalidInput(FarkleError):
    """The entry is badly formed: not dice, not a rule, not a name."""


class IllegalAction(FarkleError):
    """The entry is well formed but not allowed now."""
