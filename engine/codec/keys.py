"""Each table's signing key, derived from the event's secret: the organizer keeps one secret.

A seat draw names the scheme its keys follow (``keys`` in the draw's log entry):

* scheme 1, :func:`table_key` (draws logged before scheme 2): the event, round and
  table. A card printed for a draw that was then cancelled still signs for its table
  number, so these draws keep it only because their logs and cards are in the field.
* scheme 2, :func:`card_key`: the event, round and table, the draw's own id and the
  card's *issue* (0 for the card printed with the draw, 1 once that card is revoked and
  re-issued, ...). A card of a cancelled draw, or a revoked card, signs nothing that
  counts, and the tournament can still say which card it was.

>>> secret = bytes(16)
>>> key_for(secret, "CUP-1", 1, 3, scheme=1, draw="", issue=0) == table_key(secret, "CUP-1", 1, 3)
True
>>> len({card_key(secret, "CUP-1", 1, 3, draw, issue) for draw in ("a1", "b2") for issue in (0, 1)})
4
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Final

from engine.codec.primitives import KEY_SIZE
from engine.errors import InvalidInput
from engine.words import say

__all__ = ["KEY_SCHEMES", "LATEST_KEY_SCHEME", "table_key", "card_key", "key_for"]

KEY_SCHEMES: Final = (1, 2)
LATEST_KEY_SCHEME: Final = 2
"""The scheme a new seat draw's keys follow."""


def table_key(secret: bytes, event_id: str, round_: int, table: int) -> bytes:
    """Scheme 1: the key a table signs its result with, from the event secret alone."""
    label = f"farkle-table key|{event_id}|{round_}|{table}".encode()
    return hmac.new(secret, label, hashlib.sha256).digest()[:KEY_SIZE]


def card_key(secret: bytes, event_id: str, round_: int, table: int, draw: str, issue: int = 0) -> bytes:
    """Scheme 2: the key of one card: this table of this draw, in its ``issue``-th printing."""
    label = f"farkle-table card|{event_id}|{round_}|{table}|{draw}|{issue}".encode()
    return hmac.new(secret, label, hashlib.sha256).digest()[:KEY_SIZE]


def key_for(secret: bytes, event_id: str, round_: int, table: int, *, scheme: int, draw: str, issue: int) -> bytes:
    """The key of a table's card under a draw's ``scheme``.

    A scheme-1 draw's cards keep :func:`table_key` until revoked; a card re-issued after
    that follows scheme 2 (with the draw id ``draw``, "" for such a draw).
    """
    if scheme not in KEY_SCHEMES:
        raise InvalidInput(say("Key scheme {scheme!r} is unknown: this engine knows schemes {names}.",
                               scheme=scheme, names=', '.join(map(str, KEY_SCHEMES))))
    if scheme == 1 and issue == 0:
        return table_key(secret, event_id, round_, table)
    return card_key(secret, event_id, round_, table, draw, issue)
