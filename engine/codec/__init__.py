"""Setup codes and signed table results, packed small enough for a QR code.

The organizer's device hands each table a *setup code* (who sits where, the rules, a
key), and the table's device hands back a *result code* signed with that key. No
network is needed: the codes travel as QR codes, deep links or typed text.

The pieces, one concept each: :mod:`~engine.codec.primitives` (Base45, the safe and
typed forms, packing, CRC and HMAC), :mod:`~engine.codec.keys` (each table's key) and
:mod:`~engine.codec.payloads` (what a setup and a result hold). Why this shape:

* Compact binary (varints, one byte per rule preset) then Base45 (RFC 9285), so the
  QR code is in alphanumeric mode: a table of 4 fits in a version-5 QR at level M.
* A CRC-32 tells a damaged code (a typo, a bad scan) from an altered one; the
  HMAC-SHA256 signature (truncated to 128 bits, as RFC 2104 allows) tells an altered
  one from a genuine one. Each table's key is derived from the event's secret, so the
  organizer keeps one secret, not a key per table; a new seat draw's keys are bound to
  the draw and to the card's issue (:mod:`engine.codec.keys`).
* Base45 uses space, ``$ % * + /``, which a URL route or a hand-typed code loses, so
  the *safe form* escapes them with ``-`` and uses only ``A-Z 0-9 . : -``. It is used
  for deep links (``/import/FR1-...``) and for typing (whitespace and case ignored).

A setup code reads back as the setup it was made from, in any of its forms:

>>> ann, bob = SeatedPlayer(7, "Ann"), SeatedPlayer(3, "Bob")
>>> setup = TableSetup("SPRING-26", 1, 2, (ann, bob), Rules.preset("house"), bytes(KEY_SIZE))
>>> code = encode_setup(setup)
>>> code.startswith(SETUP_PREFIX + ":"), decode_setup(code) == setup
(True, True)
>>> read_code(typing_form(code).lower()) == code
True
"""

from engine.codec.keys import KEY_SCHEMES, LATEST_KEY_SCHEME, card_key, key_for, table_key
from engine.codec.payloads import (
    CONFIRMATIONS_FLAG,
    SealedResult,
    SeatedPlayer,
    SignedResult,
    TableResult,
    TableSetup,
    decode_result,
    decode_setup,
    encode_result,
    encode_setup,
    describe_confirmations,
    read_sealed_result,
    result_from_game,
    setup_to_join,
)
from engine.codec.primitives import (
    B45_ALPHABET,
    DIGEST_SIZE,
    JOIN_ROUTE,
    KEY_SIZE,
    LINK_ROUTE,
    MAX_CODE_CHARS,
    RESULT_PREFIX,
    SETUP_PREFIX,
    CodeAltered,
    CodeDamaged,
    ResultImpossible,
    b45decode,
    b45encode,
    code_in_link,
    link_form,
    log_digest,
    read_code,
    safe_form,
    typing_form,
)
from engine.ranking import places_from
from engine.rules import Rules  # noqa: F401 (the example above)

for _error in (CodeDamaged, CodeAltered, ResultImpossible):
    _error.__module__ = __name__  # named where they are imported from: engine.codec.CodeAltered

__all__ = [
    "B45_ALPHABET",
    "SETUP_PREFIX",
    "RESULT_PREFIX",
    "LINK_ROUTE",
    "JOIN_ROUTE",
    "KEY_SIZE",
    "DIGEST_SIZE",
    "CodeDamaged",
    "CodeAltered",
    "ResultImpossible",
    "SeatedPlayer",
    "TableSetup",
    "TableResult",
    "SignedResult",
    "SealedResult",
    "read_sealed_result",
    "MAX_CODE_CHARS",
    "b45encode",
    "b45decode",
    "encode_setup",
    "decode_setup",
    "setup_to_join",
    "encode_result",
    "decode_result",
    "safe_form",
    "typing_form",
    "link_form",
    "code_in_link",
    "read_code",
    "table_key",
    "card_key",
    "key_for",
    "KEY_SCHEMES",
    "LATEST_KEY_SCHEME",
    "log_digest",
    "places_from",  # from engine.ranking, where places are worked out
    "result_from_game",
    "CONFIRMATIONS_FLAG",
    "describe_confirmations",
]
