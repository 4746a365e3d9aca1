"""What the codes hold: a table's setup, and its result signed with the table's key.

The organizer's device hands each table a *setup code* (who sits where, the rules, a
key), and the table's device hands back a *result code* signed with that key. Each is
packed with :mod:`engine.codec.primitives`.

>>> ann, bob = SeatedPlayer(7, "Ann"), SeatedPlayer(3, "Bob")
>>> setup = TableSetup("SPRING-26", 1, 2, (ann, bob), Rules.preset("house"), bytes(KEY_SIZE))
>>> decode_setup(encode_setup(setup)) == setup
True
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from engine.codec.primitives import (
    DIGEST_SIZE,
    KEY_SIZE,
    MAC_SIZE,
    RESULT_PREFIX,
    SETUP_PREFIX,
    CodeAltered,
    CodeDamaged,
    Reader,
    Writer,
    b45encode,
    log_digest,
    mac,
    open_code,
    read_code,
    seal,
)
from engine.errors import IllegalAction, InvalidInput
from engine.game import MAX_PLAYERS, MIN_PLAYERS, Game
from engine.names import clean_name, table_names
from engine.rules import Rules
from engine.words import Words, all_of, listed, say

__all__ = [
    "SeatedPlayer",
    "TableSetup",
    "TableResult",
    "SignedResult",
    "SealedResult",
    "read_sealed_result",
    "encode_setup",
    "decode_setup",
    "setup_to_join",
    "encode_result",
    "decode_result",
    "result_from_game",
    "CONFIRMATIONS_FLAG",
    "describe_confirmations",
]

logger = logging.getLogger(__name__)

_MAX_EVENT_ID: Final = 24
_NOT_STARTED: Final = say("Nothing was started: ask the organizer for this table's card.")

CONFIRMATIONS_FLAG: Final = 0x10
"""Set in a result code's player count when the players' answers follow it (a format bit).

The count is at most :data:`~engine.game.MAX_PLAYERS` (8), so codes made before the
table asked for confirmations never have this bit, and read back exactly as before.
After the count come two varints: the seats (bit 0 = seat 1) that confirmed the final
totals, then those that declined. Both are covered by the signature and the CRC.
"""
_KNOWN_FLAGS: Final = CONFIRMATIONS_FLAG
_COUNT_BITS: Final = 0x0F

_Read = TypeVar("_Read")


def _read_safely(prefix: str, read: Callable[[], _Read]) -> _Read:
    """``read()``, with every way it can fail on a damaged or hostile code (the setup code's
    or the result code's, by ``prefix``) a :class:`CodeDamaged`.

    A code comes from anyone: whatever its bytes make the reading raise (a recursion,
    an overflow, a bad index or text), the player is told it cannot be read, never a crash.
    """
    try:
        return read()
    except CodeDamaged:
        raise
    except InvalidInput as error:
        raise CodeDamaged(
            say("The setup code reads, but makes no sense ({error}): it is damaged.", error=error)
            if prefix == SETUP_PREFIX else
            say("The result code reads, but makes no sense ({error}): it is damaged.", error=error)) from error
    except Exception as error:  # noqa: BLE001 - any failure on untrusted bytes is a refusal, not a crash
        logger.warning("The %s code failed to read in an unexpected way (a damaged code, or a bug)", prefix,
                       exc_info=True)
        raise CodeDamaged(
            say("The setup code cannot be read: it is damaged, or not made by Farkle Table. Scan it again or check "
                "each character.") if prefix == SETUP_PREFIX else
            say("The result code cannot be read: it is damaged, or not made by Farkle Table. Scan it again or check "
                "each character.")
        ) from error


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
    final: bool = False
    """The event's last round: the table calls it the final, as its card does."""

    def __post_init__(self) -> None:
        _check_header(self.event_id, self.round, self.table)
        _check_numbers(tuple(player.number for player in self.players))
        for player in self.players:
            if not player.name.strip():
                raise InvalidInput(say("Player {number} has no name.", number=player.number))
        if len(self.key) != KEY_SIZE:
            raise InvalidInput(say("A table key is {key_size} bytes, not {count}.",
                                   key_size=KEY_SIZE, count=len(self.key)))

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
    confirmations: tuple[bool | None, ...] | None = None
    """Each seat's answer when asked at the table to confirm the final totals, in seat
    order: True confirmed, False declined, None not answered. None as a whole: the code
    was made by a table app that did not ask (before :data:`CONFIRMATIONS_FLAG`)."""

    def __post_init__(self) -> None:
        _check_header(self.event_id, self.round, self.table)
        _check_numbers(self.numbers)
        count = len(self.numbers)
        if self.confirmations is not None:
            if len(self.confirmations) != count:
                raise InvalidInput(say("{count} players but {answers} answers to the confirmation: one per player.",
                                       count=count, answers=len(self.confirmations)))
            for answer in self.confirmations:
                if answer is not None and not isinstance(answer, bool):
                    raise InvalidInput(say("{answer!r} is not an answer to the confirmation: confirmed, declined "
                                           "or none.", answer=answer))
        if len(self.totals) != count or len(self.places) != count:
            raise InvalidInput(
                say("{count} players but {totals} totals and {places} places: one of each per player.",
                    count=count, totals=len(self.totals), places=len(self.places))
            )
        for value in self.totals + self.places:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInput(say("{value!r} is not a total or a place: both are whole numbers, not negative.",
                                       value=value))
        for round_ in self.roll_offs:
            for seat, face in round_:
                if not 0 <= seat < count or not 1 <= face <= 6:
                    raise InvalidInput(say("Roll-off entry seat {seat}, face {face} is not a seat at this table "
                                           "and a die face.", seat=seat, face=face))
        if len(self.digest) != DIGEST_SIZE:
            raise InvalidInput(say("A game digest is {digest_size} bytes, not {count}.",
                                   digest_size=DIGEST_SIZE, count=len(self.digest)))

    @property
    def totals_by_number(self) -> dict[int, int]:
        return dict(zip(self.numbers, self.totals))

    def confirmation_line(self, names: Sequence[str]) -> Words:
        """How the players at the table answered (``names`` in seat order), in a few words.

        >>> make = lambda answers: TableResult("CUP-1", 1, 2, (7, 3), (10_050, 4_000), (1, 2), (),
        ...                                    Rules.preset("house"), bytes(16), answers)
        >>> make((True, True)).confirmation_line(["Ann", "Bob"])
        'confirmed by 2 of 2'
        >>> make((True, False)).confirmation_line(["Ann", "Bob"])
        'confirmed by 1 of 2 · Bob declined'
        >>> make(None).confirmation_line(["Ann", "Bob"])
        'not confirmed (older table app)'
        """
        if self.confirmations is None:
            return say("not confirmed (older table app)")
        return describe_confirmations(self.confirmations, names)

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

    def signed_by(self, key: bytes) -> bool:
        """Whether ``key`` made the signature (a question, not a check: see :meth:`verify`)."""
        return hmac.compare_digest(mac(key, self.signed), self.signature)

    def verify(self, key: bytes) -> TableResult:
        """The result, if ``key`` signed it; :class:`CodeAltered` if not."""
        if not self.signed_by(key):
            r = self.result
            raise CodeAltered(
                say("The result for round {round}, table {table} does not carry that table's signature: it was "
                    "changed after the game, or made with another table's setup code. Refused.",
                    round=r.round, table=r.table)
            )
        return self.result


@dataclass(frozen=True)
class SealedResult:
    """A result code with only its header read (the table it names) and its signature split off.

    The rest of the payload is read by :meth:`open` only once the signature is the
    table key's, so nothing an unsigned code holds reaches a parser.
    """

    event_id: str
    round: int
    table: int
    signed: bytes
    signature: bytes
    code: str
    """The code in its one form (``FR1:...``), as it is kept once counted."""

    def signed_by(self, key: bytes) -> bool:
        """Whether ``key`` made the signature (a question, not a check: see :meth:`open`)."""
        return hmac.compare_digest(mac(key, self.signed), self.signature)

    def open(self, key: bytes) -> TableResult:
        """The result, read once ``key`` is found to have signed it; :class:`CodeAltered` if not."""
        if not self.signed_by(key):
            raise CodeAltered(
                say("The result for round {round}, table {table} does not carry that table's signature: it was "
                    "changed after the game, or made with another table's setup code. Refused.",
                    round=self.round, table=self.table)
            )
        return _read_safely(RESULT_PREFIX, lambda: _result_payload(Reader(self.signed, 3)))


def describe_confirmations(answers: Sequence[bool | None], names: Sequence[str]) -> Words:
    """``confirmed by 3 of 4 · Bob declined`` (``· Cy did not answer`` for a seat without one).

    >>> describe_confirmations((True, False, None), ["Ann", "Bob", "Cy"])
    'confirmed by 1 of 3 · Bob declined · Cy did not answer'
    """
    parts = [say("confirmed by {confirmed} of {count}", confirmed=sum(answer is True for answer in answers),
                 count=len(answers))]
    declined = [name for name, answer in zip(names, answers) if answer is False]
    silent = [name for name, answer in zip(names, answers) if answer is None]
    if declined:
        parts.append(say("{names} declined", names=all_of(declined)))
    if silent:
        parts.append(say("{names} did not answer", names=all_of(silent)))
    return listed(parts, " · ")


def _masks(answers: Sequence[bool | None]) -> tuple[int, int]:
    confirmed = sum(1 << seat for seat, answer in enumerate(answers) if answer is True)
    declined = sum(1 << seat for seat, answer in enumerate(answers) if answer is False)
    return confirmed, declined


def _answers(count: int, confirmed: int, declined: int) -> tuple[bool | None, ...]:
    if confirmed & declined or (confirmed | declined) >> count:
        raise CodeDamaged(say("The code's confirmations name a seat twice or a seat the table does not have: it is "
                              "damaged."))
    return tuple(True if confirmed >> seat & 1 else False if declined >> seat & 1 else None for seat in range(count))


def _check_header(event_id: str, round_: int, table: int) -> None:
    if not event_id or len(event_id) > _MAX_EVENT_ID or not event_id.isascii() or not event_id.isprintable():
        raise InvalidInput(say("{event_id!r} is not an event id: 1 to {max_event_id} plain characters.",
                               event_id=event_id, max_event_id=_MAX_EVENT_ID))
    if _not_counted(round_):
        raise InvalidInput(say("{value!r} is not a round number: they start at 1.", value=round_))
    if _not_counted(table):
        raise InvalidInput(say("{value!r} is not a table number: they start at 1.", value=table))


def _not_counted(value: object) -> bool:
    """Not a whole number from 1, as rounds and tables are numbered."""
    return isinstance(value, bool) or not isinstance(value, int) or value < 1


def _check_numbers(numbers: tuple[int, ...]) -> None:
    if not MIN_PLAYERS <= len(numbers) <= MAX_PLAYERS:
        raise InvalidInput(say("A table seats {min_players} to {max_players} players, not {count}.",
                               min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, count=len(numbers)))
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise InvalidInput(say("{number!r} is not a player number: numbers start at 1.", number=number))
    if len(set(numbers)) != len(numbers):
        raise InvalidInput(say("Player numbers {numbers} repeat: each player sits once.", numbers=list(numbers)))


# -- setup code --------------------------------------------------------------------------

_SWITCH_FLAG: Final = 1
"""The setup's flags: rules to switch to follow (a code written before the final's flag has only this)."""
_FINAL_FLAG: Final = 2


def encode_setup(setup: TableSetup) -> str:
    """The setup code in QR form (``FT1:`` + Base45).

    The key travels in clear: whoever holds the setup code can sign that table's result,
    which is the point; nobody else can.
    """
    out = Writer(SETUP_PREFIX)
    out.text(setup.event_id)
    out.uint(setup.round)
    out.uint(setup.table)
    out.rules(setup.rules)
    out.uint((0 if setup.switch_to is None else _SWITCH_FLAG) | (_FINAL_FLAG if setup.final else 0))
    if setup.switch_to is not None:
        out.rules(setup.switch_to)
    out.uint(len(setup.players))
    for player in setup.players:
        out.uint(player.number)
        out.text(player.name)
    out.raw(setup.key)
    out.text(setup.link_base)
    return SETUP_PREFIX + ":" + b45encode(seal(out)[3:])


def decode_setup(code: str) -> TableSetup:
    """Read a setup code in any form; :class:`CodeDamaged` if it cannot be (a table starting
    its game from a code reads it with :func:`setup_to_join`, which checks its names)."""
    return _read_safely(SETUP_PREFIX, lambda: _setup_payload(open_code(read_code(code), SETUP_PREFIX)))


def setup_to_join(code: str) -> TableSetup:
    """The setup a table's device starts its game from: :func:`decode_setup`, and its players'
    names as New game takes names (:func:`engine.names.table_names`), since a code reaches the
    table from anyone (it is checked for damage, not signed: its key travels in it).

    The setup kept with a game this device started is read again with :func:`decode_setup`
    alone, to sign the game's result: a game started before a name was refused still signs.

    :raises CodeDamaged: the code cannot be read.
    :raises InvalidInput: it names a player whose name prints nothing, is too long, or is (or
        looks like) another's at the table, naming that player; nothing is started.
    """
    setup = decode_setup(code)
    for seat, player in enumerate(setup.players, 1):
        try:
            clean_name(player.name)
        except InvalidInput as why:
            raise InvalidInput(say("This setup code names a player that could not be shown, at seat {seat} (number "
                                   "{number}). {why} {not_started}",
                                   seat=seat, number=player.number, why=why.words, not_started=_NOT_STARTED)) from None
    try:
        table_names(setup.names)
    except InvalidInput as why:
        raise InvalidInput(say("This setup code seats players nobody could tell apart. {why} {not_started}",
                               why=why.words, not_started=_NOT_STARTED)) from None
    return setup


def _setup_payload(data: Reader) -> TableSetup:
    event_id = data.text()
    round_, table = data.uint(), data.uint()
    rules = data.rules()
    flags = data.uint()
    switch_to = data.rules() if flags & _SWITCH_FLAG else None
    players = tuple(SeatedPlayer(data.uint(), data.text()) for _ in range(data.uint()))
    key = data.raw(KEY_SIZE)
    link_base = data.text()
    data.end()
    return TableSetup(event_id, round_, table, players, rules, key, switch_to, link_base, bool(flags & _FINAL_FLAG))

# -- result code -------------------------------------------------------------------------


def encode_result(result: TableResult, key: bytes) -> str:
    """The result code in QR form (``FR1:`` + Base45), signed with the table's key.

    A result with :attr:`TableResult.confirmations` sets :data:`CONFIRMATIONS_FLAG` in
    the player count and carries the answers as two seat masks; one without is written
    exactly as before the flag existed.
    """
    out = Writer(RESULT_PREFIX)
    out.text(result.event_id)
    out.uint(result.round)
    out.uint(result.table)
    out.rules(result.rules)
    if result.confirmations is None:
        out.uint(len(result.numbers))
    else:
        out.uint(len(result.numbers) | CONFIRMATIONS_FLAG)
        for mask in _masks(result.confirmations):
            out.uint(mask)
    for value in result.numbers + result.totals + result.places:
        out.uint(value)
    out.uint(len(result.roll_offs))
    for round_ in result.roll_offs:
        out.uint(len(round_))
        for seat, face in round_:
            out.uint(seat << 3 | face)
    out.raw(result.digest)
    out.raw(mac(key, bytes(out.data)))
    return RESULT_PREFIX + ":" + b45encode(seal(out)[3:])


def read_sealed_result(code: str) -> SealedResult:
    """Read a result code in any form up to the table it names, and split off its signature.

    Only the prefix, the CRC, the event id, the round and the table are read: the rest
    waits for :meth:`SealedResult.open` with the table's key.
    """

    def header() -> SealedResult:
        one_form = read_code(code)
        data = open_code(one_form, RESULT_PREFIX)
        if len(data.data) < data.at + MAC_SIZE:
            raise CodeDamaged(say("The result code ends too early: part of it is missing."))
        signed, signature = data.data[:-MAC_SIZE], data.data[-MAC_SIZE:]
        data = Reader(signed, data.at)
        event_id = data.text()
        round_, table = data.uint(), data.uint()
        _check_header(event_id, round_, table)
        return SealedResult(event_id, round_, table, signed, signature, one_form)

    return _read_safely(RESULT_PREFIX, header)


def decode_result(code: str) -> SignedResult:
    """Read a result code in any form, not yet trusting it (see :meth:`SignedResult.verify`).

    A check that the code is genuine reads it with :func:`read_sealed_result` instead,
    which parses nothing past the table before the signature is checked.
    """
    sealed = read_sealed_result(code)
    result = _read_safely(RESULT_PREFIX, lambda: _result_payload(Reader(sealed.signed, 3)))
    return SignedResult(result, sealed.signed, sealed.signature)


def _result_payload(data: Reader) -> TableResult:
    """The result in ``data``: its signed part, read from just after the prefix to its end."""
    event_id = data.text()
    round_, table = data.uint(), data.uint()
    rules = data.rules()
    packed_count = data.uint()
    flags, count = packed_count & ~_COUNT_BITS, packed_count & _COUNT_BITS
    if flags & ~_KNOWN_FLAGS:
        raise CodeDamaged(
            say("The result code holds something this app cannot read: it is damaged, or made by a newer table app "
                "(update this one).")
        )
    if count > MAX_PLAYERS:
        raise CodeDamaged(say("The code claims {count} players at one table: it is damaged.", count=count))
    confirmations = _answers(count, data.uint(), data.uint()) if flags & CONFIRMATIONS_FLAG else None
    values = [data.uint() for _ in range(3 * count)]
    roll_offs: list[tuple[tuple[int, int], ...]] = []
    for _ in range(data.uint()):
        packed = [data.uint() for _ in range(data.uint())]
        roll_offs.append(tuple((value >> 3, value & 7) for value in packed))
    digest = data.raw(DIGEST_SIZE)
    data.end()
    return TableResult(
        event_id,
        round_,
        table,
        tuple(values[:count]),
        tuple(values[count : 2 * count]),
        tuple(values[2 * count :]),
        tuple(roll_offs),
        rules,
        digest,
        confirmations,
    )

# -- a finished game -------------------------------------------------------------------


def result_from_game(
    game: Game, setup: TableSetup, confirmations: Sequence[bool | None] | None = None
) -> TableResult:
    """The result of a finished :class:`engine.game.Game` played from ``setup``.

    :param confirmations: each seat's answer to "are these the final totals?" (True
        confirmed, False declined, None not answered), or None where nobody was asked.
    """
    if not game.is_over:
        raise IllegalAction(say("The game is not over yet: the result can be handed in once there is a winner."))
    if tuple(game.players) != setup.names:
        raise IllegalAction(
            say("This game's players {players} are not the table's {names} in seat order.",
                players=list(game.players), names=list(setup.names))
        )
    return TableResult(
        event_id=setup.event_id,
        round=setup.round,
        table=setup.table,
        numbers=setup.numbers,
        totals=tuple(game.scores),
        places=tuple(game.places),
        roll_offs=game.state.roll_offs.as_tuple(),
        rules=game.rules,
        digest=log_digest(game.events),
        confirmations=None if confirmations is None else tuple(confirmations),
    )
