"""A tournament table's device without any widget: its game's metadata and its signed result.

The table joins with the setup code from the organizer's table card
(:func:`tournament_meta` is what its game document keeps of it); once the game is
over, each player confirms the final totals with one tap, or the scorekeeper records
who declined (:func:`answers_of`, :func:`with_answer`: kept in the game's
``meta["tournament"]["confirmations"]``); then :func:`signed_result` signs the outcome
and the answers with the table's key and gives every form the organizer can take it
in: the QR text, the typing form and the deep link.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from app.i18n import tr
from app.storage import Store
from app.venue.addresses import for_phones
from engine import (
    LINK_ROUTE,
    Game,
    IllegalAction,
    TableSetup,
    decode_setup,
    encode_result,
    link_form,
    read_code,
    result_from_game,
    safe_form,
    typing_form,
)
from engine.codec import JOIN_ROUTE, describe_confirmations, log_digest

__all__ = ["SignedResult", "table_title", "tournament_meta", "result_qr_text", "signed_result",
           "table_game_of", "GAMES", "JOIN_ROUTE", "site_link_base", "card_link_base", "join_link",
           "link_qr_text", "CONFIRMATIONS", "Answers", "answers_of", "with_answer",
           "all_answered", "KEY_WITHHELD"]

GAMES: Final = "games"
CONFIRMATIONS: Final = "confirmations"
"""Field of ``meta["tournament"]``: ``{"digest": <the game log's digest, hex>, "answers":
[true | false | null, ...]}``, each seat's answer to "are these the final totals?"."""

KEY_WITHHELD: Final = "key_withheld"
"""Field of ``meta["tournament"]``: true in a game exported without its setup code, whose
key signs the table's results (:mod:`app.table.export`): a record of the game that signs nothing."""

Answers = tuple[bool | None, ...]
"""Each seat's answer in seat order: True confirmed, False declined, None not yet."""
_ROUTE_HEADS: Final = frozenset({"join", "import", "game", "new", "lookup", "organizer", "player"})


def site_link_base(page_url: str, static: bool) -> str:
    """The address the app was opened from, as a link base: scheme, host and the site's folder
    (the path before the first route segment), plus ``#`` on a static site, where links take
    the form ``<site>/#/join/CODE`` that any static server answers (the page turns it into
    the path route at start; ``build/templates/base-root.html``). "" for a non-web address.
    A server session's websocket address is given as the page's http(s) one, as phones reach
    it (:func:`app.venue.addresses.for_phones`).

    >>> site_link_base("http://127.0.0.1:8000/apps/farkle/organizer/E1/seating", True)
    'http://127.0.0.1:8000/apps/farkle/#'
    >>> site_link_base("ws://laptop.local:8550", False), site_link_base("tcp://x:1", False)
    ('http://laptop.local:8550', '')
    """
    parts = urlsplit(page_url or "")
    if parts.scheme.lower() not in ("http", "https", "ws", "wss") or not parts.netloc:
        return ""
    kept: list[str] = []
    segments = parts.path.split("/")[1:]
    for index, segment in enumerate(segments):
        if segment.lower() in _ROUTE_HEADS or (index == len(segments) - 1 and "." in segment):
            break
        kept.append(segment)
    path = "/".join(s for s in kept if s)
    base = for_phones(f"{parts.scheme}://{parts.netloc}") + (f"/{path}" if path else "")
    return base + "/#" if static else base


def card_link_base(stored: str, page_url: str, static: bool) -> str:
    """The link base a table card carries: the organizer's saved address as phones open it
    (an older version's ``ws://`` default as ``http://``), completed with this site's folder
    (and ``#`` on a static site) when it names just this page's scheme and host (the default
    kept by older versions); "" when the organizer cleared it.

    >>> card_link_base("http://127.0.0.1:8000", "http://127.0.0.1:8000/farkle/organizer/E1", True)
    'http://127.0.0.1:8000/farkle/#'
    >>> card_link_base("https://farkle.example/app", "http://127.0.0.1:8000/", True)
    'https://farkle.example/app'
    """
    if not stored:
        return ""
    stored = for_phones(stored)
    here = site_link_base(page_url, static)
    mine, theirs = urlsplit(stored), urlsplit(here)
    if (here and not mine.path.strip("/") and not mine.fragment and "#" not in stored
            and (mine.scheme.lower(), mine.netloc.lower()) == (theirs.scheme, theirs.netloc.lower())):
        return here
    return stored


def join_link(code: str, base: str) -> str:
    """The link that opens the join screen on ``code`` (a setup code, any form).

    >>> join_link("FT1:AB", "https://h/farkle/#")
    'https://h/farkle/#/join/FT1-AB'
    """
    return base.rstrip("/") + JOIN_ROUTE + safe_form(code)


def link_qr_text(link: str) -> str:
    """A link for a QR code: scheme, host and the route's name in capitals (all read the same),
    so that the long code after it stays in QR's compact alphanumeric mode.

    >>> link_qr_text("https://h.example/farkle/#/join/FT1-AB")
    'HTTPS://H.EXAMPLE/farkle/#/JOIN/FT1-AB'
    """
    parts = urlsplit(link)
    head = f"{parts.scheme}://{parts.netloc}".upper()
    rest = link[len(f"{parts.scheme}://{parts.netloc}"):]
    for route in (JOIN_ROUTE, LINK_ROUTE):
        at = rest.lower().rfind(route)
        if at >= 0:
            return head + rest[:at] + route.upper() + rest[at + len(route):]
    return head + rest


def table_title(setup: TableSetup) -> str:
    """``MAYOR-26 · Round 1 · Table 2``: how the table's device names its game, the last round
    ``MAYOR-26 · Final · Table 1`` as its card says."""
    round_name = "Final" if setup.final else f"Round {setup.round}"
    return f"{setup.event_id} · {round_name} · Table {setup.table}"


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
    >>> result_qr_text("FR1:A B", "https://h/farkle/#")
    'HTTPS://H/farkle/#/IMPORT/FR1-A-SB'
    """
    if not link_base:
        return code
    return link_qr_text(link_form(code, link_base))


def answers_of(game: Game, tournament: Mapping[str, Any]) -> Answers:
    """The answers kept for this game's final totals (``tournament``: its ``meta["tournament"]``).

    Answers kept for another state of the log (the game was undone and played on since)
    are not about these totals, so every seat is asked again; so is one kept unreadable.
    """
    count = len(game.players)
    kept = tournament.get(CONFIRMATIONS)
    if not isinstance(kept, Mapping) or kept.get("digest") != log_digest(game.events).hex():
        return (None,) * count
    answers = kept.get("answers")
    if (not isinstance(answers, list) or len(answers) != count
            or any(answer is not None and not isinstance(answer, bool) for answer in answers)):
        return (None,) * count
    return tuple(answers)


def all_answered(answers: Answers) -> bool:
    return all(answer is not None for answer in answers)


def with_answer(game: Game, tournament: Mapping[str, Any], seat: int, confirmed: bool) -> dict[str, Any]:
    """``meta["tournament"]`` with the player at ``seat`` (from 0) confirming or declining
    the final totals; an answer can be changed until every seat has answered.

    :raises IllegalAction: the game is not over, every seat has answered already, or
        there is no such seat.
    """
    if not game.is_over:
        raise IllegalAction(tr("The game is not over yet: the final totals are confirmed once there is a winner."))
    answers = list(answers_of(game, tournament))
    if not 0 <= seat < len(answers):
        raise IllegalAction(tr("This table has seats 1 to {seats}, not {seat}.", seats=len(answers), seat=seat + 1))
    if all_answered(tuple(answers)):
        raise IllegalAction(tr("Every player has answered already: the result code is made, and the answers in it."))
    answers[seat] = confirmed
    return {**tournament, CONFIRMATIONS: {"digest": log_digest(game.events).hex(), "answers": answers}}


@dataclass(frozen=True)
class SignedResult:
    """A finished table's result, signed with the table's key, in every form it is handed over in.

    :param code: the result code (QR form).
    :param setup: the table it is for.
    """

    code: str
    setup: TableSetup
    answers: Answers | None = None
    """Each seat's answer signed into the code; None when nobody was asked."""

    @property
    def confirmation(self) -> str:
        """``confirmed by 4 of 4`` or ``confirmed by 3 of 4 · Bob declined``; "" when nobody was asked."""
        return "" if self.answers is None else describe_confirmations(self.answers, self.setup.names)

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
    """The signed result of a finished tournament game (``tournament``: its ``meta["tournament"]``),
    with the players' answers kept for its final totals (:func:`answers_of`), if any were given.

    :raises FarkleError: the game is not over, does not fit its table's setup, or was
        exported without its setup code (:data:`KEY_WITHHELD`).
    :raises KeyError: the metadata holds no setup code.
    """
    if tournament.get(KEY_WITHHELD):
        raise IllegalAction("this game came from an export without its table's signing key: it is a record of "
                            "the game, and only the table's own device or the organizer's can sign its result.")
    setup = decode_setup(str(tournament["setup"]))
    answers: Answers | None = answers_of(game, tournament) if game.is_over else None
    if answers is not None and not any(answer is not None for answer in answers):
        answers = None
    return SignedResult(encode_result(result_from_game(game, setup, answers), setup.key), setup, answers)


async def table_game_of(store: Store, code: str) -> str | None:
    """The game on this device already started from this setup code (the latest), if any."""
    wanted = read_code(code)
    games = await store.load_all(GAMES)
    found = None
    for game_id, document in sorted(games.items(), key=lambda item: str(item[1].get("updated", ""))):
        if (document.get("tournament") or {}).get("setup") == wanted:
            found = game_id
    return found
