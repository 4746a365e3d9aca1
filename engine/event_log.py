"""How an event is logged and read back: one way for the game's events and the tournament's.

An event is a small frozen dataclass named in the past tense, with the ``TYPE`` it is
logged under and typed fields (dice, rules, a table result, never a loose dict). An
:class:`EventLog` writes one as ``{"type": TYPE, field: value, ...}`` and reads it back,
each field checked against the type its dataclass declares. A log is read from a file
anyone may have edited, so anything malformed (a text where a number belongs, a list
past its cap) is refused as :class:`InvalidInput` naming the entry and the field, never
an event that breaks a screen later; unknown extra fields are ignored (a newer app may
add some).

A log written once must replay the same for ever: an event only gains fields with a
default, and a field left at its default ``None`` is not written out, so a log read back
is written back unchanged. A value with a log form of its own says how in a
:class:`Codec`, given for its type (``values``) or on the field
(``Annotated[Dice, THROWN]``).
"""

from __future__ import annotations

import dataclasses
import logging
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Generic, Protocol, TypeVar, Union, get_args, get_origin, get_type_hints

from engine.errors import InvalidInput
from engine.rules import Rules
from engine.words import say

__all__ = ["Logged", "Codec", "Damaged", "EventLog", "record", "kind_of", "RULES", "HEX", "MAX_TEXT", "MAX_ITEMS"]

logger = logging.getLogger(__name__)


class Logged(Protocol):
    """An event: a frozen dataclass with the ``type`` it is logged under."""

    TYPE: ClassVar[str]


T = TypeVar("T")
E = TypeVar("E", bound=Logged)

MAX_TEXT: Final = 10_000
"""The longest text a log entry keeps: names, reasons and codes are far shorter."""
MAX_ITEMS: Final = 10_000
"""The most items a list in a log entry holds (tables, players going on, roll-off faces)."""
_MAX_WHOLE: Final = 2**63 - 1


class Damaged(Exception):
    """Why a logged value cannot be read (``dice is a text, expected a list of faces``)."""


@dataclass(frozen=True)
class Codec(Generic[T]):
    """How a value is written in a log entry and read back.

    ``read(logged, where)`` gives the value, or raises :class:`Damaged` (or the value's
    own :class:`InvalidInput`) saying why the value logged at ``where`` is refused.
    """

    write: Callable[[T], Any]
    read: Callable[[Any, str], T]
    fits: Callable[[Any], bool] | None = None
    """For a value logged as it is (a text, a number): whether a logged value is one, so a
    list of them is read and written without a call for each item."""


def kind_of(value: Any) -> str:
    """What a JSON value is, in words: ``a text``, ``a whole number``, ``a list``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, (list, tuple)):
        return "a list"
    return {float: "a decimal number", str: "a text", dict: "an object"}.get(type(value), type(value).__name__)


def _plain(expected: str, fits: Callable[[Any], bool]) -> Codec[Any]:
    def read(value: Any, where: str) -> Any:
        if not fits(value):
            raise Damaged(f"{where} is {kind_of(value)}, expected {expected}")
        return value

    return Codec(_same, read, fits)


def _same(value: T) -> T:
    return value


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise Damaged(f"{where} is {kind_of(value)}, expected an object")
    return value


def _hex(value: Any, where: str) -> bytes:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise Damaged(f"{where} is {kind_of(value)}, expected hexadecimal digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise Damaged(f"{where} is {value[:40]!r}, expected hexadecimal digits") from None


RULES: Final[Codec[Rules]] = Codec(Rules.to_dict, lambda value, where: Rules.from_dict(dict(_object(value, where))))
"""Rules as an object of their settings (missing ones take the house value)."""
HEX: Final[Codec[bytes]] = Codec(bytes.hex, _hex)
"""Bytes (a secret, a digest) as hexadecimal digits."""

_SIMPLE: Final[dict[Any, Codec[Any]]] = {
    str: _plain(f"a text of at most {MAX_TEXT:,} characters", lambda v: type(v) is str and len(v) <= MAX_TEXT),
    bool: _plain("true or false", lambda v: type(v) is bool),
    int: _plain("a whole number", lambda v: type(v) is int and -_MAX_WHOLE <= v <= _MAX_WHOLE),
    type(None): _plain("nothing (null)", lambda v: v is None),
    Rules: RULES,
    bytes: HEX,
}


def codec_for(hint: Any, values: Mapping[Any, Codec[Any]]) -> Codec[Any]:
    """The codec of a field type as a dataclass declares it, built once, on import.

    :raises TypeError: a type with no codec (a new field's): fails on import, never on a stored log.
    """
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        codec: Codec[Any] = hint.__metadata__[0]
        return codec
    if hint in values:
        return values[hint]
    if hint in _SIMPLE:
        return _SIMPLE[hint]
    if origin in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
        return _optional(codec_for(next(arg for arg in args if arg is not type(None)), values))
    if origin is tuple:
        return _tuple(args, values)
    raise TypeError(f"No log codec for the field type {hint!r}: give one in the values of its EventLog.")


def _optional(inner: Codec[T]) -> Codec[T | None]:
    def write(value: T | None) -> Any:
        return None if value is None else inner.write(value)

    def read(value: Any, where: str) -> T | None:
        return None if value is None else inner.read(value, where)

    fits = inner.fits
    return Codec(write, read, None if fits is None else (lambda value: value is None or fits(value)))


def _tuple(args: tuple[Any, ...], values: Mapping[Any, Codec[Any]]) -> Codec[tuple[Any, ...]]:
    """A JSON list of the tuple type's items: any number of one type (``X, ...``), or exactly these."""
    repeated = args[-1] is Ellipsis
    items = [codec_for(item, values) for item in (args[:1] if repeated else args)]
    fits = [item.fits for item in items if item.fits is not None]
    plain = len(fits) == len(items)
    writers, readers = [item.write for item in items], [item.read for item in items]

    def write(value: tuple[Any, ...]) -> list[Any]:
        if plain:
            return list(value)
        if repeated:
            return [writers[0](item) for item in value]
        return [writer(item) for writer, item in zip(writers, value)]

    def read_items(value: list[Any], where: str) -> tuple[Any, ...]:
        if plain and (all(map(fits[0], value)) if repeated else all(fit(item) for fit, item in zip(fits, value))):
            return tuple(value)
        if repeated:
            return tuple(readers[0](item, where) for item in value)
        return tuple(read(item, where) for read, item in zip(readers, value))

    def read(value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            raise Damaged(f"{where} is {kind_of(value)}, expected a list of at most {MAX_ITEMS:,} items")
        if not repeated and len(value) != len(items):
            raise Damaged(f"{where} is a list of {len(value)} items, expected {len(items)}")
        try:
            return read_items(value, where)
        except Damaged:  # only for a damaged entry: read again item by item, to say which one
            for position, item in enumerate(value):
                (readers[0] if repeated else readers[position])(item, f"{where}[{position}]")
            raise

    return Codec(write, read)


_Field = tuple[str, Callable[[Any, str], Any], "Callable[[Any], Any] | None", bool, bool]
"""(name, read, write or None for a value written as it is, required, left out when None)."""


def _fields(kind: type[Any], values: Mapping[Any, Codec[Any]]) -> tuple[_Field, ...]:
    hints = get_type_hints(kind, include_extras=True)
    fields = []
    for item in dataclasses.fields(kind):
        codec = codec_for(hints[item.name], values)
        write = None if codec.write is _same else codec.write
        fields.append((item.name, codec.read, write, item.default is dataclasses.MISSING, item.default is None))
    return tuple(fields)


def _write_fields(value: Any, fields: tuple[_Field, ...], data: dict[str, Any]) -> dict[str, Any]:
    for name, _, write, _, optional in fields:
        item = getattr(value, name)
        if item is None and optional:
            continue
        data[name] = item if write is None else write(item)
    return data


def _read_fields(data: Mapping[str, Any], fields: tuple[_Field, ...], where: str) -> dict[str, Any]:
    read: dict[str, Any] = {}
    for name, reader, _, required, _ in fields:
        if name in data:
            read[name] = reader(data[name], where + name)
        elif required:  # fields added later have a default: older logs lack them
            raise Damaged(f"{where}{name} is missing")
    return read


def record(kind: type[T], values: Mapping[Any, Codec[Any]] | None = None) -> Codec[T]:
    """A dataclass value written as an object of its fields (a table result in a tournament log)."""
    fields = _fields(kind, values or {})

    def read(value: Any, where: str) -> T:
        return kind(**_read_fields(_object(value, where), fields, where + "."))

    return Codec(lambda value: _write_fields(value, fields, {}), read)


class EventLog(Generic[E]):
    """The events of one log (the game's, the tournament's), each under its ``TYPE``.

    :param name: the log's name in messages (``game``: "A rolled entry of the game log is damaged").
    :param kinds: the event classes.
    :param values: the codec of each value type its events hold beyond texts, numbers, rules and bytes.
    :param check: why a well-typed field holds a value no action records (a round 0), or None.
    """

    def __init__(
        self,
        name: str,
        kinds: tuple[type[E], ...],
        values: Mapping[Any, Codec[Any]] | None = None,
        check: Callable[[type[E], str, Any], str | None] | None = None,
    ) -> None:
        self.name = name
        self.kinds: dict[str, type[E]] = {kind.TYPE: kind for kind in kinds}
        """Each event class by the ``type`` it is logged under."""
        self._readers = {kind.TYPE: _entry_reader(kind, _fields(kind, values or {}), check) for kind in kinds}
        self._writers = {kind: _entry_writer(kind, _fields(kind, values or {})) for kind in kinds}

    def to_dict(self, event: E) -> dict[str, Any]:
        """The event as a JSON-ready dict: ``type`` and its fields (those added later only when set)."""
        return self._writers[type(event)](event)

    def to_dicts(self, events: Iterable[E]) -> list[dict[str, Any]]:
        """A whole log as :meth:`to_dict` writes each event."""
        writers = self._writers
        return [writers[type(event)](event) for event in events]

    def from_dict(self, data: Mapping[str, Any]) -> E:
        """The event a log entry records, every field of the type its event declares.

        :raises InvalidInput: the entry is not an object, of no known kind, or a field is
            missing or of another type, out of its range or past its cap (named).
        """
        if not isinstance(data, Mapping):
            raise InvalidInput(say("A {name} log entry is {kind_of}, not an object: the log is damaged.",
                                   name=self.name, kind_of=kind_of(data)))
        logged = data.get("type")
        read = self._readers.get(logged) if isinstance(logged, str) else None
        if read is None:
            shown = str(logged)[:40]
            raise InvalidInput(say("The {name} log has an entry of an unknown kind ({shown!r}): it is damaged.",
                                   name=self.name, shown=shown))
        try:
            return read(data)
        except Damaged as reason:
            raise InvalidInput(say("A {logged} entry of the {name} log is damaged: {reason}.",
                                   logged=logged, name=self.name, reason=reason)) from None
        except InvalidInput as refusal:
            raise InvalidInput(say("A {logged} entry of the {name} log is damaged: {refusal}",
                                   logged=logged, name=self.name, refusal=refusal.words)) from refusal
        except Exception as error:  # noqa: BLE001 - a damaged entry may fail any way: a refusal, not a crash
            logger.warning("A %s entry of the %s log failed to read (damaged, or a bug)", logged, self.name, exc_info=True)
            raise InvalidInput(say("A {logged} entry of the {name} log is damaged: {error!r}.",
                                   logged=logged, name=self.name, error=error)) from error


def _entry_reader(
    kind: type[E], fields: tuple[_Field, ...], check: Callable[[type[E], str, Any], str | None] | None
) -> Callable[[Mapping[str, Any]], E]:
    """How an entry of ``kind`` is read, made once: a replay reads thousands."""
    if not fields:
        only = kind()  # an event without fields (a bank): one value does for every entry
        return lambda data: only
    if len(fields) == 1 and fields[0][3] and check is None:  # most events of a game: a throw, a keep
        name, reader = fields[0][:2]

        def read_one(data: Mapping[str, Any]) -> E:
            if name not in data:
                raise Damaged(f"{name} is missing")
            return kind(reader(data[name], name))  # type: ignore[call-arg]

        return read_one

    def read(data: Mapping[str, Any]) -> E:
        values = _read_fields(data, fields, "")
        if check is not None:
            for name, value in values.items():
                reason = check(kind, name, value)
                if reason is not None:
                    raise Damaged(reason)
        return kind(**values)

    return read


def _entry_writer(kind: type[E], fields: tuple[_Field, ...]) -> Callable[[E], dict[str, Any]]:
    """How an event of ``kind`` is written, made once: a save writes every event of the log."""
    logged = kind.TYPE
    if not fields:
        return lambda event: {"type": logged}
    if len(fields) == 1 and fields[0][3]:  # most events of a game: a throw, a keep
        name, _, write, _, _ = fields[0]
        if write is None:
            return lambda event: {"type": logged, name: getattr(event, name)}
        return lambda event: {"type": logged, name: write(getattr(event, name))}
    return lambda event: _write_fields(event, fields, {"type": logged})
