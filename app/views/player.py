"""A player's page: their games on this device, by name, with wins, average and farkle rate.

Read from the stored games (no separate store): each readable game is replayed once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flet as ft

from app.context import use_model, use_services
from app.storage import Store, StoreError
from app.views.widgets import on, screen_view, section
from engine import FarkleError, Game
from engine.stats import Career, career

__all__ = ["PlayerScreen", "PlayerState"]


@dataclass
class PlayerState(ft.Observable):
    """The player's figures and the games they played, once read."""

    name: str
    figures: Career | None = None
    games: list[tuple[str, str]] = field(default_factory=list)  # (game id, one line) newest first
    refusal: str | None = None

    async def load(self, store: Store) -> None:
        try:
            documents = await store.load_all("games")
        except StoreError as failure:
            self.refusal = f"The games cannot be read: {failure}"
            return
        played: list[Game] = []
        lines: list[tuple[str, str, str]] = []
        wanted = self.name.casefold()
        for game_id, document in documents.items():
            players = document.get("players")
            if not isinstance(players, list) or wanted not in (str(name).casefold() for name in players):
                continue
            try:
                game = Game.from_events(document["events"])
            except (FarkleError, KeyError, TypeError, ValueError):
                continue  # an unreadable game is named on Home; it does not count here
            played.append(game)
            winner = game.players[game.winner] if game.winner is not None else None
            scores = ", ".join(f"{name} {total:,}" for name, total in zip(game.players, game.scores))
            lines.append((str(document.get("updated", "")), game_id,
                          scores + (f" · {winner} won" if winner else " · not finished")))
        self.figures = career(self.name, played)
        self.games = [(game_id, line) for _, game_id, line in sorted(lines, reverse=True)]


@ft.component
def PlayerScreen(name: str) -> ft.View:
    services = use_services()
    player = use_model(lambda: PlayerState(name))

    async def load() -> None:
        await player.load(services.store)

    ft.on_mounted(load)
    figures = player.figures
    controls: list[ft.Control] = []
    if player.refusal:
        controls.append(ft.Text(player.refusal, color=ft.Colors.ERROR))
    elif figures is None:
        controls.append(ft.Text("Reading the games…"))
    elif not figures.games:
        controls.append(ft.Text(f"No game on this device has a player named {name!r}.", key="player-none"))
    else:
        lines = [
            ("Games", f"{figures.games}"),
            ("Wins", f"{figures.wins} ({figures.wins / figures.games:.0%})"),
            ("Average final score", f"{figures.average_score:,.0f}"),
            ("Farkle rate", f"{figures.farkle_rate:.0%} of {figures.turns} turns"),
            ("Best turn", f"{figures.best_turn:,}"),
        ]
        controls.append(section("On this device", *[
            ft.Row([ft.Text(label, expand=True, size=16), ft.Text(value, size=16, weight=ft.FontWeight.BOLD)],
                   key=f"figure-{index}")
            for index, (label, value) in enumerate(lines)
        ]))
        controls.append(section("Games", *[
            ft.ListTile(title=ft.Text(line), on_click=on(services.navigate, f"/game/{game_id}"),
                        key=f"player-game-{index}")
            for index, (game_id, line) in enumerate(player.games)
        ]))
    return screen_view("/player", name, controls, on_home=on(services.navigate, "/"))
