"""Routes as values: any address, however odd, parses to a screen (``not_found`` at worst).

>>> parse_route("/game/20261129-160700-3fa9c2/history")
Route(screen='history', path='/game/20261129-160700-3fa9c2/history', parts=('game', '20261129-160700-3fa9c2', 'history'), game_id='20261129-160700-3fa9c2', payload='')
>>> parse_route("/game/..").screen, parse_route("/IMPORT/FR1ABC").screen
('not_found', 'import')
>>> parse_route(players_path("MAYOR-26")).payload
'MAYOR-26'
>>> parse_route(follow_path("20261129-160700-3fa9c2")).screen
'follow'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote, unquote

__all__ = ["Route", "Screen", "parse_route", "players_path", "follow_path", "DOCUMENT_ID"]

Screen = Literal["home", "new", "lookup", "game", "history", "player", "organizer", "import", "join", "players",
                 "follow", "language", "not_found"]
"""Every screen an address can name: the app's route table, which the sweep of every route
(tests/browser/test_route_sweep.py) walks, so a screen added here is swept as another device opens it."""

DOCUMENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")
"""What a game or tournament id looks like (the stores refuse anything else)."""

_LONGEST_ROUTE = 4_000


@dataclass(frozen=True)
class Route:
    """The screen an address names, with its parameters.

    :param screen: one of :data:`Screen`.
    :param parts: the path's segments (``/organizer/<id>/results`` -> three).
    :param game_id: the game a table, history, rematch, lookup or follower is about ("" if none).
    :param payload: a join link's code (the rest of the path after ``/join/``), a player's name, or the
        event code of a players' page.
    """

    screen: Screen
    path: str
    parts: tuple[str, ...] = ()
    game_id: str = ""
    payload: str = ""


def parse_route(path: str) -> Route:
    """The route an address names; never raises."""
    text = (path or "/").split("?", 1)[0].split("#", 1)[0]
    if len(text) > _LONGEST_ROUTE:
        return Route("not_found", text[:80] + "…")
    parts = tuple(part for part in text.strip("/").split("/") if part)
    if not parts:
        return Route("home", "/")
    head, rest = parts[0].lower(), parts[1:]
    if head == "import":
        return Route("import", text, parts)
    if head == "join":
        return Route("join", text, parts, payload=unquote("/".join(rest)))
    if head == "player" and len(rest) == 1 and unquote(rest[0]).strip():
        return Route("player", text, parts, payload=unquote(rest[0]))
    if head == "players" and len(rest) == 1 and unquote(rest[0]).strip():
        return Route("players", text, parts, payload=unquote(rest[0]).strip())
    if head == "organizer":
        if rest and not DOCUMENT_ID.fullmatch(rest[0]):
            return Route("not_found", text, parts)
        return Route("organizer", text, parts)
    if head in ("new", "lookup") and len(rest) <= 1:
        game_id = rest[0] if rest else ""
        if game_id and not DOCUMENT_ID.fullmatch(game_id):
            return Route("not_found", text, parts)
        return Route("new" if head == "new" else "lookup", text, parts, game_id=game_id)
    if head == "language" and not rest:
        return Route("language", text, parts)
    if head == "follow" and len(rest) == 1 and DOCUMENT_ID.fullmatch(rest[0]):
        return Route("follow", text, parts, game_id=rest[0])
    if head == "game" and rest and DOCUMENT_ID.fullmatch(rest[0]):
        if len(rest) == 1:
            return Route("game", text, parts, game_id=rest[0])
        if rest[1:] == ("history",):
            return Route("history", text, parts, game_id=rest[0])
    return Route("not_found", text, parts)


def players_path(event_code: str) -> str:
    """The address of an event's players' page: players open it on their own phones from the
    venue server, so it is named by the code the cards print, not by the stored event's id.

    >>> players_path("MAYOR-26")
    '/players/MAYOR-26'
    >>> players_path(" spring open/2 ")
    '/players/spring%20open%2F2'
    """
    return "/players/" + quote(event_code.strip(), safe="")


def follow_path(game_id: str) -> str:
    """The address of a game's follower: the second screen, read-only, that shows the game as it is played.

    >>> follow_path("20261129-160700-3fa9c2")
    '/follow/20261129-160700-3fa9c2'
    """
    return "/follow/" + game_id
