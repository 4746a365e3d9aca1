"""The games: one document per game, holding its log, what Home lists, and the table's marks.

The "games" collection keeps each game's log (the engine's :class:`engine.Game` is its
replay), the players and scores Home lists (from the collection's index,
:data:`LISTING`), and what the app keeps of a game that is not play (``created``,
``tournament``: the table's card and result, ``title``).  The advice switch is the
device's own, kept beside the game (:data:`KIND`'s ``beside``), so switching it never
moves the game's revision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from app.i18n import tr
from app.storage import (
    BOOLEAN,
    DOCUMENT_SCHEMAS,
    INTEGER,
    NULL,
    STRING,
    Document,
    DocumentKind,
    DocumentSchema,
    Listing,
    list_of,
    utc_now_iso,
)
from engine import Game

__all__ = ["COLLECTION", "CHECKS", "KIND", "LISTING", "GameSummary", "KeptGame", "game_document", "read_game",
           "replay_game", "summary_of"]

COLLECTION: Final = "games"


def replay_game(document: Document) -> None:
    """A stored game's log replays (the engine refuses an illegal one) to the players
    and scores it lists.

    :raises FarkleError: the log is not a legal game.
    :raises ValueError: the listed players or scores are not the log's.
    """
    game = Game.from_events(document["events"])
    if list(game.players) != document["players"]:
        raise ValueError(f"it lists players {document['players']!r} but its log has {list(game.players)!r}")
    if "scores" in document and len(document["scores"]) != len(game.players):
        raise ValueError(f"it lists {len(document['scores'])} scores for {len(game.players)} players")


CHECKS: Final = DOCUMENT_SCHEMAS[COLLECTION].with_checks(replay_game)
"""What a stored game must be before it is listed or opened: its shape, and a log the engine replays."""


@dataclass(frozen=True)
class KeptGame:
    """What the scorekeeper keeps of one game: the engine's game and the fields stored with
    it that are not part of play (``created``, ``tournament``, ``title``)."""

    game: Game
    meta: Mapping[str, Any]


_META_FIELDS: Final = ("created", "tournament", "title")


def read_game(document: Document) -> KeptGame:
    """A stored game as the scorekeeper holds it (its log replayed once)."""
    return KeptGame(Game.from_events(document["events"]),
                    {key: document[key] for key in _META_FIELDS if key in document})


def game_document(game_id: str, kept: KeptGame) -> Document:
    """The document that keeps a game: its log (serialised once) and what Home lists."""
    game = kept.game
    return {
        **kept.meta,
        "id": game_id,
        "players": list(game.players),
        "scores": list(game.scores),
        "rules": game.rules.to_dict(),
        "finished": game.is_over,
        "winner": game.players[game.winner] if game.winner is not None else None,
        "updated": utc_now_iso(),
        "events": game.events,
    }


KIND: Final = DocumentKind(
    COLLECTION, read_game, game_document,
    lambda: tr("This game was changed on another screen meanwhile. It now shows that screen's latest state: "
               "check it, then enter your action again."),
    beside={"advice": False},
)


@dataclass(frozen=True)
class GameSummary:
    """One line of the home screen's game lists."""

    id: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool
    updated: str
    winner: str | None
    title: str | None

    @property
    def line(self) -> str:
        cells = ", ".join(f"{name} {total:,}" for name, total in zip(self.players, self.scores))
        return f"{self.title} · {cells}" if self.title else cells


def _listed_fields(document: Document) -> dict[str, Any]:
    """What Home shows of a game, under the document's own field names."""
    players = [str(name) for name in document.get("players", [])]
    return {
        "players": players,
        "scores": list(document.get("scores", [0] * len(players))),
        "finished": bool(document.get("finished")),
        "updated": str(document.get("updated", "")),
        "winner": document.get("winner"),
        "title": document.get("title"),
    }


LISTING: Final = Listing(
    "game-summary-1",
    _listed_fields,
    DocumentSchema(
        "game summary",
        required={"players": list_of(STRING), "scores": list_of(INTEGER), "finished": BOOLEAN, "updated": STRING,
                  "winner": STRING | NULL, "title": STRING | NULL},
    ),
)
"""What the games' index keeps of each game for Home (:meth:`app.storage.Store.summaries`)."""


def summary_of(doc_id: str, fields: Document) -> GameSummary:
    """A line of Home from the fields :data:`LISTING` keeps."""
    return GameSummary(doc_id, tuple(fields["players"]), tuple(fields["scores"]), fields["finished"],
                       fields["updated"], fields["winner"], fields["title"])
