"""A player's record on this device: their figures and their games, read from the stored games.

There is no separate store of players: each readable game with a player of that name is
replayed once (:func:`engine.stats.career` sums the figures). A game that cannot be read
is named on Home; it does not count here.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.storage import Store
from app.i18n import local_number, tr
from engine import FarkleError, Game
from engine.stats import Career, career

__all__ = ["PlayerRecord", "player_record"]


@dataclass(frozen=True)
class PlayerRecord:
    """A player's figures, and the games they played as (game id, one line), newest first."""

    figures: Career
    games: tuple[tuple[str, str], ...]


async def player_record(store: Store, name: str) -> PlayerRecord:
    """The record of the player called ``name`` (letter case aside).

    :raises app.storage.StoreError: the games cannot be read.
    """
    documents = await store.load_all("games")
    played: list[Game] = []
    lines: list[tuple[str, str, str]] = []
    wanted = name.casefold()
    for game_id, document in documents.items():
        players = document.get("players")
        if not isinstance(players, list) or wanted not in (str(player).casefold() for player in players):
            continue
        try:
            game = Game.from_events(document["events"])
        except (FarkleError, KeyError, TypeError, ValueError):
            continue
        played.append(game)
        winner = game.players[game.winner] if game.winner is not None else None
        scores = ", ".join(f"{player} {local_number(total)}" for player, total in zip(game.players, game.scores))
        lines.append((str(document.get("updated", "")), game_id,
                      scores + (tr(" · {winner} won", winner=winner) if winner else tr(" · not finished"))))
    newest_first = tuple((game_id, line) for _, game_id, line in sorted(lines, reverse=True))
    return PlayerRecord(career(name, played), newest_first)
