"""What a stored document of each kind must look like, checked where it is read.

A :class:`DocumentSchema` names a collection's fields and their JSON types (extra
fields are allowed, so a newer app's additions do not make a document unreadable)
plus any deeper checks the app gives it (a game's log replayed by the engine). A value
of the wrong type is named as the engine names one in a log (:func:`engine.event_log.kind_of`).
:class:`~app.storage.Store` runs it on every document it hands out once the app
has called :meth:`~app.storage.Store.check_with`; a document that fails is kept
aside and named in :attr:`~app.storage.Store.problems`, never raised.

    >>> GAME_SCHEMA.problem({"players": ["Ann"], "events": [], "scores": ["a"]})
    'scores[0] is a text, expected a whole number'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from app.storage.documents import REVISION_FIELD, Document
from engine.event_log import kind_of

__all__ = [
    "ANY",
    "BESIDE_SCHEMA",
    "BOOLEAN",
    "DOCUMENT_SCHEMAS",
    "GAME_SCHEMA",
    "INTEGER",
    "NULL",
    "OBJECT",
    "SETTINGS_SCHEMA",
    "STRING",
    "TOURNAMENT_SCHEMA",
    "DocumentCheck",
    "DocumentSchema",
    "JSONType",
    "list_of",
    "object_with",
]

DocumentCheck = Callable[[Document], None]
"""A deeper check of one document (e.g. replaying its log); any exception it raises
means the document cannot be used, and its message is the reason shown."""


@dataclass(frozen=True)
class JSONType:
    """One JSON type a field may hold, e.g. :data:`STRING` or ``list_of(INTEGER)``;
    ``a | b`` accepts either.

    :param name: how it reads in a reason (``"a whole number"``).
    :param accepts: whether a value is of this type at the top level.
    :param items: for a list, the type of every item.
    """

    name: str
    accepts: Callable[[Any], bool]
    items: Optional[JSONType] = None

    def __or__(self, other: JSONType) -> JSONType:
        return _Union(f"{self.name} or {other.name}", lambda value: False, None, (self, other))

    def problem(self, value: Any, where: str) -> Optional[str]:
        """Why ``value`` (found at ``where``) is not of this type, or ``None``."""
        if not self.accepts(value):
            return f"{where} is {kind_of(value)}, expected {self.name}"
        if self.items is not None:
            for index, item in enumerate(value):
                reason = self.items.problem(item, f"{where}[{index}]")
                if reason is not None:
                    return reason
        return None


@dataclass(frozen=True)
class _Union(JSONType):
    options: tuple[JSONType, ...] = ()

    def problem(self, value: Any, where: str) -> Optional[str]:
        reasons = [option.problem(value, where) for option in self.options]
        if any(reason is None for reason in reasons):
            return None
        fitting = [reason for option, reason in zip(self.options, reasons) if option.accepts(value)]
        return fitting[0] if fitting else f"{where} is {kind_of(value)}, expected {self.name}"


STRING: Final = JSONType("a text", lambda value: isinstance(value, str))
INTEGER: Final = JSONType("a whole number",
                          lambda value: isinstance(value, int) and not isinstance(value, bool))
BOOLEAN: Final = JSONType("true/false", lambda value: isinstance(value, bool))
NULL: Final = JSONType("null", lambda value: value is None)
OBJECT: Final = JSONType("an object", lambda value: isinstance(value, dict))
ANY: Final = JSONType("anything", lambda value: True)


def list_of(item: JSONType, *, at_most: Optional[int] = None) -> JSONType:
    """A JSON list whose every item is ``item`` (and of at most ``at_most`` items)."""
    if at_most is None:
        return JSONType("a list", lambda value: isinstance(value, list), item)
    return JSONType(f"a list of at most {at_most:,} items",
                    lambda value: isinstance(value, list) and len(value) <= at_most, item)


@dataclass(frozen=True)
class _Object(JSONType):
    fields: tuple[tuple[str, JSONType], ...] = ()

    def problem(self, value: Any, where: str) -> Optional[str]:
        if not isinstance(value, dict):
            return f"{where} is {kind_of(value)}, expected {self.name}"
        extra = sorted(set(value) - {name for name, _ in self.fields})
        if extra:
            return f"{where} has {extra[0]!r}, which {self.name} does not hold"
        for name, json_type in self.fields:
            if name not in value:
                return f"{where} has no {name!r}"
            reason = json_type.problem(value[name], f"{where}.{name}")
            if reason is not None:
                return reason
        return None


def object_with(name: str, **fields: JSONType) -> JSONType:
    """A JSON object holding exactly these fields (what a reader unpacks into a value object)."""
    return _Object(name, lambda value: isinstance(value, dict), None, tuple(fields.items()))


@dataclass(frozen=True)
class DocumentSchema:
    """The fields one collection's documents must (``required``) or may
    (``optional``) hold, their types, and deeper checks.

    :param kind: what a person calls such a document (``"game"``).
    :param required: fields every document has, by name.
    :param optional: fields checked only when present.
    :param checks: run in order after the fields pass (see :data:`DocumentCheck`).
    """

    kind: str
    required: Mapping[str, JSONType] = field(default_factory=dict)
    optional: Mapping[str, JSONType] = field(default_factory=dict)
    checks: tuple[DocumentCheck, ...] = ()

    def with_checks(self, *checks: DocumentCheck) -> DocumentSchema:
        """This schema with more deeper checks (the app adds the engine's replay)."""
        return DocumentSchema(self.kind, self.required, self.optional, self.checks + checks)

    def problem(self, document: Document, *, deep: bool = True) -> Optional[str]:
        """Why ``document`` is not a usable document of this kind, or ``None``; ``deep=False``
        checks the fields only (a document read back exactly as it was saved)."""
        for name, json_type in self.required.items():
            if name not in document:
                return f"the {self.kind} has no {name!r}"
            reason = json_type.problem(document[name], name)
            if reason is not None:
                return reason
        for name, json_type in self.optional.items():
            if name in document:
                reason = json_type.problem(document[name], name)
                if reason is not None:
                    return reason
        for check in self.checks if deep else ():
            try:
                check(document)
            except RecursionError:
                return f"the {self.kind} is nested too deeply"
            except Exception as error:  # a damaged document may make any check fail any way
                return f"the {self.kind} cannot be replayed: {error}"
        return None


_REVISION: Final = {REVISION_FIELD: INTEGER}
_REFUSED: Final = list_of(object_with("a refused code", at=STRING, code=STRING, reason=STRING), at_most=1_000)
_LAST_COPY: Final = object_with("the last copy saved", at=STRING, actions=INTEGER) | NULL

GAME_SCHEMA: Final = DocumentSchema(
    "game",
    required={"players": list_of(STRING), "events": list_of(OBJECT)},
    optional={
        **_REVISION,
        "id": STRING,
        "scores": list_of(INTEGER),
        "rules": OBJECT,
        "finished": BOOLEAN,
        "winner": STRING | NULL,
        "updated": STRING,
        "created": STRING,
        "title": STRING | NULL,
        "tournament": OBJECT | NULL,
    },
)
"""A game as the scorekeeper saves it; its log's legality is the engine's to judge
(added with :meth:`DocumentSchema.with_checks`)."""

TOURNAMENT_SCHEMA: Final = DocumentSchema(
    "tournament",
    required={"events": list_of(OBJECT)},
    optional={
        **_REVISION,
        "id": STRING,
        "name": STRING,
        "event_id": STRING | NULL,
        "players": INTEGER,
        "round": INTEGER | NULL,
        "champion": STRING | NULL,
        "link_base": STRING,
        "passphrase_hash": STRING,
        "refused": _REFUSED,  # kept beside the event since (BESIDE_SCHEMA); read once to move them there
        "last_copy": _LAST_COPY,
        "updated": STRING,
    },
)
"""An organizer's event as the organizer saves it: the event log (its entries' types,
ranges and caps are the engine's to judge, added with :meth:`DocumentSchema.with_checks`)
and the codes refused lately, each read back as the inbox shows it."""

SETTINGS_SCHEMA: Final = DocumentSchema(
    "settings",
    optional={**_REVISION, "recent_names": list_of(STRING), "theme": STRING},
)
"""The app's settings: every field optional, so an empty document is the defaults."""

BESIDE_SCHEMA: Final = DocumentSchema(
    "device's own data",
    optional={
        **_REVISION,
        "games": object_with("what the device keeps beside a game", advice=BOOLEAN),
        "tournaments": object_with("what the device keeps beside an event", refused=_REFUSED, last_copy=_LAST_COPY)
        | object_with("what the device keeps beside an event", refused=_REFUSED, last_copy=_LAST_COPY,
                      players_page=BOOLEAN),  # the players' page switch, kept since issue 28
    },
)
"""What a device keeps beside a game or an event of the same id, outside its revision (a
refused code saved on one screen does not make another screen's next action "changed elsewhere"):
a section per collection."""

DOCUMENT_SCHEMAS: Final[Mapping[str, DocumentSchema]] = {
    "games": GAME_SCHEMA,
    "tournaments": TOURNAMENT_SCHEMA,
    "settings": SETTINGS_SCHEMA,
    "beside": BESIDE_SCHEMA,
}
"""The shape of every collection, without the engine's deeper checks."""
