"""Home: resume an unfinished game, browse finished ones, start a new one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from app.scorekeeper import GameSummary
from app.views.widgets import big_button, notice_banner, on, section

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["home_controls"]


def home_controls(app: FarkleApp, games: list[GameSummary], warnings: list[str]) -> list[ft.Control]:
    unfinished = [game for game in games if not game.finished]
    finished = [game for game in games if game.finished]
    controls: list[ft.Control] = []
    if warnings:
        controls.append(notice_banner(warnings, error=True, key="store-problems"))
    controls.append(
        ft.Row(
            [
                big_button("New game", on(app.navigate, "/new"), key="new-game", icon=ft.Icons.ADD,
                           expand=True),
                big_button("Score lookup", on(app.navigate, "/lookup"), key="lookup", filled=False,
                           icon=ft.Icons.CALCULATE, expand=True),
            ]
        )
    )
    controls.append(
        ft.Row(
            [
                big_button("Organize a tournament", on(app.navigate, "/organizer"), key="organize",
                           filled=False, icon=ft.Icons.EMOJI_EVENTS, expand=True),
                big_button("Join a tournament table", on(app.navigate, "/join"), key="join-table",
                           filled=False, icon=ft.Icons.QR_CODE, expand=True),
            ]
        )
    )
    controls.append(
        section(
            "Unfinished games",
            *([game_tile(app, game) for game in unfinished] or [ft.Text("None: start a new game.")]),
        )
    )
    controls.append(
        section(
            "Finished games",
            *([game_tile(app, game) for game in finished[:50]] or [ft.Text("No finished game yet.")]),
        )
    )
    return controls


def game_tile(app: FarkleApp, game: GameSummary) -> ft.Control:
    when = game.updated.replace("T", " ")[:16]
    subtitle = f"{game.winner} won · {when}" if game.finished and game.winner else f"last played {when} UTC"
    return ft.ListTile(
        title=ft.Text(game.line),
        subtitle=ft.Text(subtitle),
        leading=ft.Icon(ft.Icons.EMOJI_EVENTS if game.finished else ft.Icons.CASINO),
        on_click=on(app.open_table, game.id),
        key=f"game-{game.id}",
    )
