"""How a code travels: Base45 text, its safe and typed forms, binary packing, CRC and HMAC.

Nothing here knows what a setup or a result holds (:mod:`engine.codec.payloads` does):
these are the primitives every code is made of.

* Compact binary (varints, one byte per rule preset) then Base45 (RFC 9285), so the
  QR code is in alphanumeric mode.
* A CRC-32 tells a damaged code (a typo, a bad scan) from an altered one; the
  HMAC-SHA256 signature (truncated to 128 bits, as RFC 2104 allows) tells an altered
  one from a genuine one.
* Base45 uses space, ``$ % * + /``, which a URL route or a hand-typed code loses, so
  the *safe form* escapes them with ``-`` and uses only ``A-Z 0-9 . : -``.

>>> b45decode(b45encode(b"farkle"))
b'farkle'
>>> read_code(typing_form("FR1:A B/C-").lower())
'FR1:A B/C-'
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from typing import Any, Final
from urllib.parse import unquote

from engine.errors import InvalidInput
from engine.rules import PRESET_NAMES, Rules
from engine.words import say

__all__ = [
    "B45_ALPHABET",
    "SETUP_PREFIX",
    "RESULT_PREFIX",
    "LINK_ROUTE",
    "JOIN_ROUTE",
    "KEY_SIZE",
    "DIGEST_SIZE",
    "MAC_SIZE",
    "CodeDamaged",
    "CodeAltered",
    "ResultImpossible",
    "b45encode",
    "b45decode",
    "safe_form",
    "typing_form",
    "link_form",
    "code_in_link",
    "read_code",
    "log_digest",
    "mac",
    "Writer",
    "Reader",
    "seal",
    "open_code",
    "MAX_CODE_CHARS",
    "MAX_TEXT_CHARS",
]

B45_ALPHABET: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_B45_VALUE: Final = {char: value for value, char in enumerate(B45_ALPHABET)}

SETUP_PREFIX: Final = "FT1"
"""Setup code: ``FT1:`` + Base45 (QR form) or ``FT1-`` + escaped Base45 (safe form)."""
RESULT_PREFIX: Final = "FR1"
"""Result code, same two forms as the setup code."""
LINK_ROUTE: Final = "/import/"
"""Route of a deep link: ``/import/FR1-...`` (optionally after ``http://host:port``)."""
JOIN_ROUTE: Final = "/join/"
"""Route of a join link: ``<site>/join/FT1-...`` (``<site>/#/join/...`` on a static host)."""

KEY_SIZE: Final = 16
DIGEST_SIZE: Final = 16
MAC_SIZE: Final = 16
_CRC_SIZE: Final = 4
_MAX_EVENT_ID: Final = 24

MAX_CODE_CHARS: Final = 4_296
"""The longest code in QR form: what a version-40 QR code holds in alphanumeric mode.
A table of 8 with 40-character names and its own rules takes under 2,000."""
MAX_TEXT_CHARS: Final = 3 * MAX_CODE_CHARS + 2_000
"""The longest text read as a code in any form (escapes, groups of five, a link's address),
checked before anything else is done with it."""
_MAX_RULES_TEXT: Final = 1_000
"""The longest rules difference a code carries (every setting changed takes about 300)."""

_LINK_ROUTES: Final = re.compile("|".join(map(re.escape, (JOIN_ROUTE, LINK_ROUTE))), re.IGNORECASE)
# What follows a link's last route: the code, an optional "/", an optional query or fragment.
_LINK_TAIL: Final = re.compile(r"(?P<code>[^\s/?#]+)/?(?:[?#]\S*)?\s*")

# Base45 characters a route or a typed code would lose, and their escapes after "-".
_ESCAPES: Final = {" ": "S", "$": "D", "%": "P", "*": "X", "+": "A", "/": "L", "-": "M"}
_UNESCAPES: Final = {letter: char for char, letter in _ESCAPES.items()}
_WHITESPACE: Final = re.compile(r"\s+")


class CodeDamaged(InvalidInput):
    """The code cannot be read back: cut short, mistyped, or not one of ours."""


class CodeAltered(InvalidInput):
    """The code reads, but its signature does not match: it was changed after signing."""


class ResultImpossible(InvalidInput):
    """The totals or places cannot come from a finished game under the round's rules."""



# -- Base45 (RFC 9285) --------------------------------------------------------------------


def b45encode(data: bytes) -> str:
    """Base45 text of ``data``: two bytes become three characters.

    >>> b45encode(b"AB"), b45encode(b"ietf!")
    ('BB8', 'QED8WEX0')
    """
    out: list[str] = []
    for start in range(0, len(data) - 1, 2):
        value = data[start] * 256 + data[start + 1]
        value, c = divmod(value, 45)
        e, d = divmod(value, 45)
        out += (B45_ALPHABET[c], B45_ALPHABET[d], B45_ALPHABET[e])
    if len(data) % 2:
        d, c = divmod(data[-1], 45)
        out += (B45_ALPHABET[c], B45_ALPHABET[d])
    return "".join(out)


def b45decode(text: str) -> bytes:
    """The bytes of Base45 ``text``; anything that is not valid Base45 is :class:`CodeDamaged`.

    >>> b45decode("QED8WEX0")
    b'ietf!'
    """
    values: list[int] = []
    for position, char in enumerate(text):
        value = _B45_VALUE.get(char)
        if value is None:
            raise CodeDamaged(
                say("The character {char!r} at position {position} cannot be part of a code: check the code was "
                    "copied whole.", char=char, position=position + 1)
            )
        values.append(value)
    if len(values) % 3 == 1:
        raise CodeDamaged(say("The code is {count} characters long, which no code can be: a character is missing "
                              "or extra.", count=len(values)))
    out = bytearray()
    for start in range(0, len(values), 3):
        group = values[start : start + 3]
        if len(group) == 3:
            number = group[0] + group[1] * 45 + group[2] * 2025
            if number > 0xFFFF:
                raise CodeDamaged(say("The characters {text!r} cannot be part of a code: check them.",
                                      text=text[start:start + 3]))
            out += number.to_bytes(2, "big")
        else:
            number = group[0] + group[1] * 45
            if number > 0xFF:
                raise CodeDamaged(say("The last characters {text!r} cannot end a code: check them.",
                                      text=text[start:]))
            out.append(number)
    return bytes(out)

# -- forms: QR (raw Base45), safe (routes, typing), link ---------------------------------


def safe_form(code: str) -> str:
    """The code with only ``A-Z 0-9 . : -``: survives a URL route and hand typing.

    With ``/`` escaped no route segment can be ``.`` or ``..``, which browsers would fold away.

    >>> safe_form("FR1:A B/C-")
    'FR1-A-SB-LC-M'
    """
    prefix, body = _split_prefix(code)
    return f"{prefix}-" + "".join(f"-{_ESCAPES[char]}" if char in _ESCAPES else char for char in body)


def typing_form(code: str, group: int = 5) -> str:
    """The safe form in groups of ``group`` characters, for reading out or typing.

    Spaces and line breaks are ignored when it is read back.
    """
    safe = safe_form(code)
    head, body = safe[:4], safe[4:]
    return head + " " + " ".join(body[start : start + group] for start in range(0, len(body), group))


def link_form(code: str, base: str = "") -> str:
    """A deep link (``base`` + ``/import/`` + safe form) that opens the organizer's app on it."""
    return base.rstrip("/") + LINK_ROUTE + safe_form(code)


def code_in_link(text: str) -> str:
    """The code a join or result link ends in, ``%``-escapes undone; ``text`` itself when it is no link.

    Takes every form a link reaches a screen in: the QR's capitals (``HTTP://HOST/JOIN/...``),
    a static site's ``#/join/...``, a sub-path, a line break or words from a chat around it.
    A text that starts as a code stays whole: Base45's ``/`` and capitals could spell a route.

    >>> code_in_link(" HTTPS://H.EXAMPLE/farkle/#/JOIN/FT1-AB\\n"), code_in_link("/import/FR1-AB?x=1")
    ('FT1-AB', 'FR1-AB')
    >>> code_in_link("FT1-AB"), code_in_link("https://example.org/hello")
    ('FT1-AB', 'https://example.org/hello')
    """
    if text.lstrip()[:3].upper() in (SETUP_PREFIX, RESULT_PREFIX):
        return text
    routes = list(_LINK_ROUTES.finditer(text))
    tail = _LINK_TAIL.fullmatch(text, routes[-1].end()) if routes else None
    return unquote(tail["code"]) if tail else text


def read_code(text: str) -> str:
    """Bring any form (QR text, typed, deep link or route) back to the QR form ``FR1:...``.

    Raises :class:`CodeDamaged` when the text is none of them.
    """
    if not isinstance(text, str):
        raise CodeDamaged(say("{name} is not a code: expected text.", name=type(text).__name__))
    if len(text) > MAX_TEXT_CHARS:
        raise CodeDamaged(
            say("The text is {count:,} characters long; a Farkle Table code is at most {max_code_chars:,}: this is "
                "not one of ours, or several were pasted together.", count=len(text), max_code_chars=MAX_CODE_CHARS)
        )
    text = code_in_link(text)
    raw = text.replace("\r", "").replace("\n", "").replace("\t", "").lstrip(" ").upper()
    if len(raw) >= 4 and raw[3] == ":" and raw[:3] in (SETUP_PREFIX, RESULT_PREFIX):
        return _within_limit(raw)
    squeezed = _WHITESPACE.sub("", text).upper()
    if len(squeezed) >= 4 and squeezed[3] == "-" and squeezed[:3] in (SETUP_PREFIX, RESULT_PREFIX):
        return _within_limit(squeezed[:3] + ":" + _unescape(squeezed[4:]))
    shown = text if len(text) <= 24 else text[:21] + "..."
    raise CodeDamaged(
        say("{shown!r} is not a Farkle Table code: a setup code starts with {setup_prefix} and a result code with "
            "{result_prefix}.", shown=shown, setup_prefix=SETUP_PREFIX, result_prefix=RESULT_PREFIX)
    )


def _within_limit(code: str) -> str:
    if len(code) > MAX_CODE_CHARS:
        raise CodeDamaged(
            say("The code is {count:,} characters long; a Farkle Table code is at most {max_code_chars:,} (what "
                "one QR code holds): it is not one of ours, or two were joined.",
                count=len(code), max_code_chars=MAX_CODE_CHARS)
        )
    return code


def _unescape(body: str) -> str:
    out: list[str] = []
    chars = iter(body)
    for char in chars:
        if char != "-":
            if char not in _B45_VALUE or char in _ESCAPES:
                raise CodeDamaged(say("The character {char!r} cannot be part of a typed code: check the code.",
                                      char=char))
            out.append(char)
            continue
        letter = next(chars, "")
        if letter not in _UNESCAPES:
            raise CodeDamaged(say("'-{letter}' cannot be part of a typed code: check the characters after each '-'.",
                                  letter=letter))
        out.append(_UNESCAPES[letter])
    return "".join(out)


def _split_prefix(code: str) -> tuple[str, str]:
    code = read_code(code)
    return code[:3], code[4:]

# -- signatures and digests ----------------------------------------------------------------


def mac(key: bytes, data: bytes) -> bytes:
    """The signature of ``data`` under ``key``: HMAC-SHA256 cut to 128 bits."""
    return hmac.new(key, data, hashlib.sha256).digest()[:MAC_SIZE]


def log_digest(events: Sequence[Mapping[str, Any]]) -> bytes:
    """SHA-256 (first 128 bits) of a game log in canonical JSON: ties a result to its game."""
    text = json.dumps(list(events), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).digest()[:DIGEST_SIZE]


# -- binary packing ----------------------------------------------------------------------


class Writer:
    def __init__(self, prefix: str) -> None:
        self.data = bytearray(prefix.encode())

    def uint(self, value: int) -> None:
        if value < 0:
            raise InvalidInput(say("{value} cannot be packed: it is negative.", value=value))
        while True:
            byte, value = value & 0x7F, value >> 7
            self.data.append(byte | (0x80 if value else 0))
            if not value:
                return

    def text(self, value: str) -> None:
        raw = value.encode()
        self.uint(len(raw))
        self.data += raw

    def raw(self, value: bytes) -> None:
        self.data += value

    def rules(self, rules: Rules) -> None:
        """Preset index, then the settings that differ from it as JSON (usually none)."""
        base = min(PRESET_NAMES, key=lambda name: len(_rules_diff(rules, Rules.preset(name))))
        self.uint(PRESET_NAMES.index(base))
        diff = _rules_diff(rules, Rules.preset(base))
        self.text(json.dumps(diff, sort_keys=True, separators=(",", ":")) if diff else "")


class Reader:
    def __init__(self, data: bytes, start: int) -> None:
        self.data = data
        self.at = start

    def uint(self) -> int:
        value = shift = 0
        while True:
            byte = self._take(1)[0]
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 63:
                raise CodeDamaged(say("The code holds a number too large to be ours: it is damaged."))

    def text(self) -> str:
        size = self.uint()
        try:
            return self._take(size).decode()
        except UnicodeDecodeError as error:
            raise CodeDamaged(say("A name in the code is not readable text: the code is damaged.")) from error

    def raw(self, size: int) -> bytes:
        return self._take(size)

    def rules(self) -> Rules:
        index = self.uint()
        if index >= len(PRESET_NAMES):
            raise CodeDamaged(say("The code names rule preset {index}, which does not exist: it is damaged.",
                                  index=index))
        diff_text = self.text()
        values = Rules.preset(PRESET_NAMES[index]).to_dict()
        if diff_text:
            values.update(_rules_difference(diff_text))
        try:
            return Rules.from_dict(values)
        except InvalidInput as error:
            raise CodeDamaged(say("The rules in the code cannot be read ({error}): it is damaged.", error=error)) from error

    def end(self) -> None:
        if self.at != len(self.data):
            raise CodeDamaged(say("The code has data after its end: it is damaged or two codes were joined."))

    def _take(self, size: int) -> bytes:
        if self.at + size > len(self.data):
            raise CodeDamaged(say("The code ends too early: part of it is missing."))
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk


def _rules_difference(text: str) -> dict[str, Any]:
    """The settings a code changes from its preset: a short, flat JSON object of plain values.

    Its size and shape are checked before it is parsed, so no code can make the parser
    nest deeply or read for long.
    """
    unreadable = say("The rules in the code cannot be read: it is damaged, or not made by Farkle Table.")
    if len(text) > _MAX_RULES_TEXT or _nesting(text) > 1:
        raise CodeDamaged(unreadable)
    try:
        diff = json.loads(text)
    except ValueError as error:
        raise CodeDamaged(unreadable) from error
    if not isinstance(diff, dict) or any(isinstance(value, (dict, list, float)) for value in diff.values()):
        raise CodeDamaged(unreadable)
    return diff


def _nesting(text: str) -> int:
    """How deeply brackets nest in JSON ``text`` (brackets inside strings do not count).

    >>> _nesting('{"target":5000}'), _nesting('{"note":"[[["}'), _nesting("[" * 1000)
    (1, 1, 1000)
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _rules_diff(rules: Rules, base: Rules) -> dict[str, Any]:
    settings = (setting.name for setting in dataclasses.fields(rules) if setting.init)  # not the memo
    return {key: getattr(rules, key) for key in settings if getattr(base, key) != getattr(rules, key)}


def seal(writer: Writer) -> bytes:
    writer.raw(zlib.crc32(writer.data).to_bytes(_CRC_SIZE, "big"))
    return bytes(writer.data)


def open_code(code: str, prefix: str) -> Reader:
    """Base45-decode and check the CRC of a code in its one form (:func:`read_code`'s) that should
    be the setup code or the result code, by ``prefix``; returns a reader positioned after the prefix."""
    setup = prefix == SETUP_PREFIX
    if code[:3] != prefix:
        raise CodeDamaged(say("This is a table result code, not a table setup code.") if setup else
                          say("This is a table setup code, not a table result code."))
    data = prefix.encode() + b45decode(code[4:])
    if len(data) < 3 + _CRC_SIZE:
        raise CodeDamaged(say("The code is too short to be read: part of it is missing."))
    body, crc = data[:-_CRC_SIZE], data[-_CRC_SIZE:]
    if zlib.crc32(body).to_bytes(_CRC_SIZE, "big") != crc:
        raise CodeDamaged(
            say("The setup code does not pass its check: it was misread or mistyped. Scan it again or check each "
                "character.") if setup else
            say("The result code does not pass its check: it was misread or mistyped. Scan it again or check each "
                "character.")
        )
    return Reader(body, 3)

