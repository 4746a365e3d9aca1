"""A tournament table's device without any widget: its game's metadata and its signed result.

The table joins with the setup code from the organizer's table card
(:func:`tournament_meta` is what its game document keeps of it); once the game is
over, :func:`signed_result` signs the outcome with the table's key and gives every form
the organizer can take it in: the QR text, the typing form and the deep link.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from app.storage import Store
from engine import (
    LINK_ROUTE,
    Game,
    TableSetup,
    decode_setup,
    encode_result,
    link_form,
    read_code,
    result_from_game,
    safe_form,
    typing_form,
)

__all__ = ["SignedResult", "table_title", "tournament_meta", "result_qr_text", "signed_result",
           "table_game_of", "GAMES"]

GAMES: Final = "games"


def table_title(setup: TableSetup) -> str:
    """``MAYOR-26 · Round 1 · Table 2``: how the table's device names its game (rounds by number)."""
    return f"{setup.event_id} · Round {setup.round} · Table {setup.table}"


def tournament_meta(setup: TableSetup, code: str) -> dict[str, Any]:
    """What the game document keeps about its tournament table (``code``: the setup code, any form)."""
    return {
        "tournament": {
            "setup": read_code(code),
            "event_id": setup.event_id,
            "round": setup.round,
            "table": setup.table,
            "players": [[player.number, player.name] for player in setup.players],
            "rules": setup.rules.to_dict(),
            "switch_to": setup.switch_to.to_dict() if setup.switch_to else None,
            "link_base": setup.link_base,
        },
        "title": table_title(setup),
    }


def result_qr_text(code: str, link_base: str) -> str:
    """What the result QR holds: the deep link where the organizer gave an address, else the code.

    Scheme and host are written in capitals (both are case-blind), and so is the route
    (the app reads ``/IMPORT/`` as ``/import/``), so that the whole link stays in QR's
    compact alphanumeric mode.

    >>> result_qr_text("FR1:A B", "http://organizer.local:8550")
    'HTTP://ORGANIZER.LOCAL:8550/IMPORT/FR1-A-SB'
    """
    if not link_base:
        return code
    parts = urlsplit(link_base)
    base = f"{parts.scheme}://{parts.netloc}".upper() + parts.path.rstrip("/")
    return base + LINK_ROUTE.upper() + safe_form(code)


@dataclass(frozen=True)
class SignedResult:
    """A finished table's result, signed with the table's key, in every form it is handed over in.

    :param code: the result code (QR form).
    :param setup: the table it is for.
    """

    code: str
    setup: TableSetup

    @property
    def title(self) -> str:
        return table_title(self.setup)

    @property
    def qr_text(self) -> str:
        """What the QR code shows (the deep link, or the plain code)."""
        return result_qr_text(self.code, self.setup.link_base)

    @property
    def typed(self) -> str:
        """The form read out or typed in (groups of characters)."""
        return typing_form(self.code)

    @property
    def safe(self) -> str:
        """The form that survives a copy, a chat message and a link."""
        return safe_form(self.code)

    @property
    def link(self) -> str | None:
        """The deep link to the organizer's app, where the organizer gave its address."""
        return link_form(self.code, self.setup.link_base) if self.setup.link_base else None


def signed_result(game: Game, tournament: Mapping[str, Any]) -> SignedResult:
    """The signed result of a finished tournament game (``tournament``: its ``meta["tournament"]``).

    :raises FarkleError: the game is not over, or does not fit its table's setup.
    :raises KeyError: the metadata holds no setup code.
    """
    setup = decode_setup(str(tournament["setup"]))
    return SignedResult(encode_result(result_from_game(game, setup), setup.key), setup)


async def table_game_of(store: Store, code: str) -> str | None:
    """The game on this device already started from this setup code (the latest), if any."""
    wanted = read_code(code)
    games = await store.load_all(GAMES)
    found = None
    for game_id, document in sorted(games.items(), key=lambda item: str(item[1].get("updated", ""))):
        if (document.get("tournament") or {}).get("setup") == wanted:
            found = game_id
    return found
