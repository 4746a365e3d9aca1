"""Setup codes and signed table results, packed small enough for a QR code.

The organizer's device hands each table a *setup code* (who sits where, the rules, a
key), and the table's device hands back a *result code* signed with that key. No
network is needed: the codes travel as QR codes, deep links or typed text.

Why this shape:

* Compact binary (varints, one byte per rule preset) then Base45 (RFC 9285), so the
  QR code is in alphanumeric mode: a table of 4 fits in a version-5 QR at level M.
* A CRC-32 tells a damaged code (a typo, a bad scan) from an altered one; the
  HMAC-SHA256 signature (truncated to 128 bits, as RFC 2104 allows) tells an altered
  one from a genuine one. Each table's key is derived from the event's secret, so the
  organizer keeps one secret, not a key per table.
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

from __future__ import annotations

import hashlib
import hmac
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import IllegalAction, InvalidInput
from engine.game import MAX_PLAYERS, MIN_PLAYERS, Game
from engine.ranking import places_from
from engine.rules import PRESET_NAMES, Rules

__all__ = [
    "B45_ALPHABET",
    "SETUP_PREFIX",
    "RESULT_PREFIX",
    "LINK_ROUTE",
    "KEY_SIZE",
    "DIGEST_SIZE",
    "CodeDamaged",
    "CodeAltered",
    "ResultImpossible",
    "SeatedPlayer",
    "TableSetup",
    "TableResult",
    "SignedResult",
    "b45encode",
    "b45decode",
    "encode_setup",
    "decode_setup",
    "encode_result",
    "decode_result",
    "safe_form",
    "typing_form",
    "link_form",
    "read_code",
    "table_key",
    "log_digest",
    "places_from",  # from engine.ranking, where places are worked out
    "result_from_game",
]

B45_ALPHABET: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_B45_VALUE: Final = {char: value for value, char in enumerate(B45_ALPHABET)}

SETUP_PREFIX: Final = "FT1"
"""Setup code: ``FT1:`` + Base45 (QR form) or ``FT1-`` + escaped Base45 (safe form)."""
RESULT_PREFIX: Final = "FR1"
"""Result code, same two forms as the setup code."""
LINK_ROUTE: Final = "/import/"
"""Route of a deep link: ``/import/FR1-...`` (optionally after ``http://host:port``)."""

KEY_SIZE: Final = 16
DIGEST_SIZE: Final = 16
_MAC_SIZE: Final = 16
_CRC_SIZE: Final = 4
_MAX_EVENT_ID: Final = 24

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
                f"The character {char!r} at position {position + 1} cannot be part of a code: "
                "check the code was copied whole."
            )
        values.append(value)
    if len(values) % 3 == 1:
        raise CodeDamaged(f"The code is {len(values)} characters long, which no code can be: a character is missing or extra.")
    out = bytearray()
    for start in range(0, len(values), 3):
        group = values[start : start + 3]
        if len(group) == 3:
            number = group[0] + group[1] * 45 + group[2] * 2025
            if number > 0xFFFF:
                raise CodeDamaged(f"The characters {text[start:start + 3]!r} cannot be part of a code: check them.")
            out += number.to_bytes(2, "big")
        else:
            number = group[0] + group[1] * 45
            if number > 0xFF:
                raise CodeDamaged(f"The last characters {text[start:]!r} cannot end a code: check them.")
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


def read_code(text: str) -> str:
    """Bring any form (QR text, typed, deep link or route) back to the QR form ``FR1:...``.

    Raises :class:`CodeDamaged` when the text is none of them.
    """
    if not isinstance(text, str):
        raise CodeDamaged(f"{text!r} is not a code: expected text.")
    found = text.upper().find(LINK_ROUTE.upper())
    if found >= 0:
        text = text[found + len(LINK_ROUTE) :]
    raw = text.replace("\r", "").replace("\n", "").replace("\t", "").lstrip(" ").upper()
    if len(raw) >= 4 and raw[3] == ":" and raw[:3] in (SETUP_PREFIX, RESULT_PREFIX):
        return raw
    squeezed = _WHITESPACE.sub("", text).upper()
    if len(squeezed) >= 4 and squeezed[3] == "-" and squeezed[:3] in (SETUP_PREFIX, RESULT_PREFIX):
        return squeezed[:3] + ":" + _unescape(squeezed[4:])
    shown = text if len(text) <= 24 else text[:21] + "..."
    raise CodeDamaged(
        f"{shown!r} is not a Farkle Table code: a setup code starts with {SETUP_PREFIX} and a result "
        f"code with {RESULT_PREFIX}."
    )


def _unescape(body: str) -> str:
    out: list[str] = []
    chars = iter(body)
    for char in chars:
        if char != "-":
            if char not in _B45_VALUE or char in _ESCAPES:
                raise CodeDamaged(f"The character {char!r} cannot be part of a typed code: check the code.")
            out.append(char)
            continue
        letter = next(chars, "")
        if letter not in _UNESCAPES:
            raise CodeDamaged(f"'-{letter}' cannot be part of a typed code: check the characters after each '-'.")
        out.append(_UNESCAPES[letter])
    return "".join(out)


def _split_prefix(code: str) -> tuple[str, str]:
    code = read_code(code)
    return code[:3], code[4:]


# -- keys and digests --------------------------------------------------------------------


def table_key(secret: bytes, event_id: str, round_: int, table: int) -> bytes:
    """The key a table signs its result with: HMAC of the event secret, so none is stored."""
    label = f"farkle-table key|{event_id}|{round_}|{table}".encode()
    return hmac.new(secret, label, hashlib.sha256).digest()[:KEY_SIZE]


def log_digest(events: Sequence[Mapping[str, Any]]) -> bytes:
    """SHA-256 (first 128 bits) of a game log in canonical JSON: ties a result to its game."""
    text = json.dumps(list(events), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).digest()[:DIGEST_SIZE]


# -- values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatedPlayer:
    number: int
    name: str


@dataclass(frozen=True)
class TableSetup:
    """What a table's device needs to open a tournament game without typing anything."""

    event_id: str
    round: int
    table: int
    players: tuple[SeatedPlayer, ...]
    """In seat order."""
    rules: Rules
    key: bytes
    switch_to: Rules | None = None
    """Rules the organizer may switch this table to during the game (the final)."""
    link_base: str = ""
    """Where the organizer's app listens (``http://host:port``), for the result's deep link."""

    def __post_init__(self) -> None:
        _check_header(self.event_id, self.round, self.table)
        _check_numbers(tuple(player.number for player in self.players))
        for player in self.players:
            if not player.name.strip():
                raise InvalidInput(f"Player {player.number} has no name.")
        if len(self.key) != KEY_SIZE:
            raise InvalidInput(f"A table key is {KEY_SIZE} bytes, not {len(self.key)}.")

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(player.number for player in self.players)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)


@dataclass(frozen=True)
class TableResult:
    """How a table's game ended, as the organizer needs it."""

    event_id: str
    round: int
    table: int
    numbers: tuple[int, ...]
    """Player numbers in seat order."""
    totals: tuple[int, ...]
    places: tuple[int, ...]
    """1 is first; equal totals not settled by a roll-off share a place."""
    roll_offs: tuple[tuple[tuple[int, int], ...], ...]
    """Each round of the roll-off for the win: (seat, face) pairs, seats from 0."""
    rules: Rules
    """The rules in force when the game ended."""
    digest: bytes
    """:func:`log_digest` of the whole game log."""

    def __post_init__(self) -> None:
        _check_header(self.event_id, self.round, self.table)
        _check_numbers(self.numbers)
        count = len(self.numbers)
        if len(self.totals) != count or len(self.places) != count:
            raise InvalidInput(
                f"{count} players but {len(self.totals)} totals and {len(self.places)} places: one of each per player."
            )
        for value in self.totals + self.places:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInput(f"{value!r} is not a total or a place: both are whole numbers, not negative.")
        for round_ in self.roll_offs:
            for seat, face in round_:
                if not 0 <= seat < count or not 1 <= face <= 6:
                    raise InvalidInput(f"Roll-off entry seat {seat}, face {face} is not a seat at this table and a die face.")
        if len(self.digest) != DIGEST_SIZE:
            raise InvalidInput(f"A game digest is {DIGEST_SIZE} bytes, not {len(self.digest)}.")

    @property
    def totals_by_number(self) -> dict[int, int]:
        return dict(zip(self.numbers, self.totals))

    @property
    def roll_offs_by_number(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The roll-off rounds with player numbers instead of seats."""
        return tuple(tuple((self.numbers[seat], face) for seat, face in round_) for round_ in self.roll_offs)


@dataclass(frozen=True)
class SignedResult:
    """A result code read back but not yet trusted: call :meth:`verify` with the table key."""

    result: TableResult
    signed: bytes
    signature: bytes

    def verify(self, key: bytes) -> TableResult:
        expected = hmac.new(key, self.signed, hashlib.sha256).digest()[:_MAC_SIZE]
        if not hmac.compare_digest(expected, self.signature):
            r = self.result
            raise CodeAltered(
                f"The result for round {r.round}, table {r.table} does not carry that table's signature: "
                "it was changed after the game, or made with another table's setup code. Refused."
            )
        return self.result


def _check_header(event_id: str, round_: int, table: int) -> None:
    if not event_id or len(event_id) > _MAX_EVENT_ID or not event_id.isascii() or not event_id.isprintable():
        raise InvalidInput(f"{event_id!r} is not an event id: 1 to {_MAX_EVENT_ID} plain characters.")
    for label, value in (("round", round_), ("table", table)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidInput(f"{value!r} is not a {label} number: they start at 1.")


def _check_numbers(numbers: tuple[int, ...]) -> None:
    if not MIN_PLAYERS <= len(numbers) <= MAX_PLAYERS:
        raise InvalidInput(f"A table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(numbers)}.")
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise InvalidInput(f"{number!r} is not a player number: numbers start at 1.")
    if len(set(numbers)) != len(numbers):
        raise InvalidInput(f"Player numbers {list(numbers)} repeat: each player sits once.")


# -- binary packing ----------------------------------------------------------------------


class _Writer:
    def __init__(self, prefix: str) -> None:
        self.data = bytearray(prefix.encode())

    def uint(self, value: int) -> None:
        if value < 0:
            raise InvalidInput(f"{value} cannot be packed: it is negative.")
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


class _Reader:
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
                raise CodeDamaged("The code holds a number too large to be ours: it is damaged.")

    def text(self) -> str:
        size = self.uint()
        try:
            return self._take(size).decode()
        except UnicodeDecodeError as error:
            raise CodeDamaged("A name in the code is not readable text: the code is damaged.") from error

    def raw(self, size: int) -> bytes:
        return self._take(size)

    def rules(self) -> Rules:
        index = self.uint()
        if index >= len(PRESET_NAMES):
            raise CodeDamaged(f"The code names rule preset {index}, which does not exist: it is damaged.")
        diff_text = self.text()
        values = Rules.preset(PRESET_NAMES[index]).to_dict()
        if diff_text:
            try:
                diff = json.loads(diff_text)
                if not isinstance(diff, dict):
                    raise ValueError(diff_text)
                values.update(diff)
                return Rules.from_dict(values)
            except (ValueError, TypeError) as error:
                raise CodeDamaged(f"The rules in the code cannot be read ({error}): it is damaged.") from error
        return Rules.from_dict(values)

    def end(self) -> None:
        if self.at != len(self.data):
            raise CodeDamaged("The code has data after its end: it is damaged or two codes were joined.")

    def _take(self, size: int) -> bytes:
        if self.at + size > len(self.data):
            raise CodeDamaged("The code ends too early: part of it is missing.")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk


def _rules_diff(rules: Rules, base: Rules) -> dict[str, Any]:
    ours, theirs = rules.to_dict(), base.to_dict()
    return {key: value for key, value in ours.items() if theirs[key] != value}


def _seal(writer: _Writer) -> bytes:
    writer.raw(zlib.crc32(writer.data).to_bytes(_CRC_SIZE, "big"))
    return bytes(writer.data)


def _open(code: str, prefix: str, what: str) -> _Reader:
    """Base45-decode and check the CRC; returns a reader positioned after the prefix."""
    code = read_code(code)
    found = code[:3]
    if found != prefix:
        other = "a table setup code" if found == SETUP_PREFIX else "a table result code"
        raise CodeDamaged(f"This is {other}, not {what}.")
    data = found.encode() + b45decode(code[4:])
    if len(data) < 3 + _CRC_SIZE:
        raise CodeDamaged("The code is too short to be read: part of it is missing.")
    body, crc = data[:-_CRC_SIZE], data[-_CRC_SIZE:]
    if zlib.crc32(body).to_bytes(_CRC_SIZE, "big") != crc:
        raise CodeDamaged(
            f"{what.capitalize()} does not pass its check: it was misread or mistyped. Scan it again or check each character."
        )
    return _Reader(body, 3)


# -- setup code --------------------------------------------------------------------------


def encode_setup(setup: TableSetup) -> str:
    """The setup code in QR form (``FT1:`` + Base45).

    The key travels in clear: whoever holds the setup code can sign that table's result,
    which is the point; nobody else can.
    """
    out = _Writer(SETUP_PREFIX)
    out.text(setup.event_id)
    out.uint(setup.round)
    out.uint(setup.table)
    out.rules(setup.rules)
    out.uint(0 if setup.switch_to is None else 1)
    if setup.switch_to is not None:
        out.rules(setup.switch_to)
    out.uint(len(setup.players))
    for player in setup.players:
        out.uint(player.number)
        out.text(player.name)
    out.raw(setup.key)
    out.text(setup.link_base)
    return SETUP_PREFIX + ":" + b45encode(_seal(out)[3:])


def decode_setup(code: str) -> TableSetup:
    """Read a setup code in any form; :class:`CodeDamaged` if it cannot be."""
    data = _open(code, SETUP_PREFIX, "a table setup code")
    try:
        event_id = data.text()
        round_, table = data.uint(), data.uint()
        rules = data.rules()
        switch_to = data.rules() if data.uint() else None
        players = tuple(SeatedPlayer(data.uint(), data.text()) for _ in range(data.uint()))
        key = data.raw(KEY_SIZE)
        link_base = data.text()
        data.end()
        return TableSetup(event_id, round_, table, players, rules, key, switch_to, link_base)
    except InvalidInput as error:
        if isinstance(error, CodeDamaged):
            raise
        raise CodeDamaged(f"The setup code reads, but makes no sense ({error}): it is damaged.") from error


# -- result code -------------------------------------------------------------------------


def encode_result(result: TableResult, key: bytes) -> str:
    """The result code in QR form (``FR1:`` + Base45), signed with the table's key."""
    out = _Writer(RESULT_PREFIX)
    out.text(result.event_id)
    out.uint(result.round)
    out.uint(result.table)
    out.rules(result.rules)
    out.uint(len(result.numbers))
    for value in result.numbers + result.totals + result.places:
        out.uint(value)
    out.uint(len(result.roll_offs))
    for round_ in result.roll_offs:
        out.uint(len(round_))
        for seat, face in round_:
            out.uint(seat << 3 | face)
    out.raw(result.digest)
    out.raw(hmac.new(key, bytes(out.data), hashlib.sha256).digest()[:_MAC_SIZE])
    return RESULT_PREFIX + ":" + b45encode(_seal(out)[3:])


def decode_result(code: str) -> SignedResult:
    """Read a result code in any form, not yet trusting it (see :meth:`SignedResult.verify`)."""
    data = _open(code, RESULT_PREFIX, "a table result code")
    try:
        event_id = data.text()
        round_, table = data.uint(), data.uint()
        rules = data.rules()
        count = data.uint()
        if count > MAX_PLAYERS:
            raise CodeDamaged(f"The code claims {count} players at one table: it is damaged.")
        values = [data.uint() for _ in range(3 * count)]
        roll_offs: list[tuple[tuple[int, int], ...]] = []
        for _ in range(data.uint()):
            packed = [data.uint() for _ in range(data.uint())]
            roll_offs.append(tuple((value >> 3, value & 7) for value in packed))
        digest = data.raw(DIGEST_SIZE)
        signed = data.data[: data.at]
        signature = data.raw(_MAC_SIZE)
        data.end()
        result = TableResult(
            event_id,
            round_,
            table,
            tuple(values[:count]),
            tuple(values[count : 2 * count]),
            tuple(values[2 * count :]),
            tuple(roll_offs),
            rules,
            digest,
        )
    except InvalidInput as error:
        if isinstance(error, CodeDamaged):
            raise
        raise CodeDamaged(f"The result code reads, but makes no sense ({error}): it is damaged.") from error
    return SignedResult(result, signed, signature)


# -- a finished game -------------------------------------------------------------------


def result_from_game(game: Game, setup: TableSetup) -> TableResult:
    """The result of a finished :class:`engine.game.Game` played from ``setup``."""
    if not game.is_over:
        raise IllegalAction("The game is not over yet: the result can be handed in once there is a winner.")
    if tuple(game.players) != setup.names:
        raise IllegalAction(
            f"This game's players {list(game.players)} are not the table's {list(setup.names)} in seat order."
        )
    return TableResult(
        event_id=setup.event_id,
        round=setup.round,
        table=setup.table,
        numbers=setup.numbers,
        totals=tuple(game.scores),
        places=tuple(game.places),
        roll_offs=game.state.roll_offs,
        rules=game.rules,
        digest=log_digest(game.events),
    )
