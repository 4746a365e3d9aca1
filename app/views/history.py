"""A game's history: every turn, newest first, with the throws and what was kept."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from app.context import use_model, use_services, use_viewport
from app.table.scorekeeper import Scorekeeper
from app.storage import StoreError
from app.views.game_over import standing_lines
from app.views.race_chart import RaceChart, roll_off_winner, stats_table
from app.views.widgets import icon_button, on, screen_view, section
from app.i18n import tr
from engine import FarkleError, Game, format_dice
from engine.stats import player_stats, score_race

__all__ = ["HistoryScreen", "history_lines"]


@dataclass
class HistoryState(ft.Observable):
    """The game whose history shows, once read from the store."""

    keeper: Scorekeeper
    game_id: str
    game: Game | None = None
    refusal: str | None = None
    loaded: bool = False

    async def load(self) -> None:
        try:
            self.game = await self.keeper.open_game(self.game_id, reload=True)
        except (StoreError, FarkleError) as problem:
            self.refusal = tr("This game cannot be opened: {problem}", problem=problem)
        self.loaded = True


@ft.component
def HistoryScreen(game_id: str) -> ft.View:
    services = use_services()
    history = use_model(lambda: HistoryState(services.keeper, game_id))
    ft.on_mounted(history.load)
    back = icon_button(ft.Icons.ARROW_BACK, tr("Back to the table"),
                       on_click=on(services.navigate, f"/game/{game_id}"), key="back-to-table")
    if history.game is None:
        text = history.refusal or (tr("There is no readable game {game_id!r} on this device.", game_id=game_id)
                                   if history.loaded else tr("Opening the game…"))
        return screen_view(f"/game/{game_id}/history", tr("History"), [ft.Text(text, size=16, key="history-missing")],
                           on_home=on(services.navigate, "/"))
    game = history.game
    rows: list[ft.Control] = [
        ft.ListTile(title=ft.Text(title), subtitle=ft.Text(throws), dense=True)
        for title, throws in history_lines(game)
    ] or [ft.Text(tr("No turn has ended yet."))]
    width = min(max(use_viewport().width - 48, 280), 560)
    if game.is_over:
        rows = [section(tr("Result"), *[ft.Text(line, key=f"result-{seat}") for seat, line in standing_lines(game)]),
                *rows]
    rows = [RaceChart(game.players, score_race(game), width=width, target=game.rules.target,
                      decided_by_roll_off=roll_off_winner(game.state)),
            stats_table(player_stats(game), use_viewport().width - 24), *rows]
    return screen_view(f"/game/{game_id}/history", tr("History"), rows, actions=[back],
                       on_home=on(services.navigate, "/"))


def history_lines(game: Game) -> list[tuple[str, str]]:
    """Each ended turn as (what happened, the throws), newest first."""
    lines: list[tuple[str, str]] = []
    for round_number, faces in reversed(list(enumerate(game.state.roll_offs, start=1))):
        thrown = ", ".join(f"{game.players[seat]} {face}" for seat, face in faces)
        lines.append((tr("Roll-off {round_number} for the win", round_number=round_number), thrown))
    for number, record in reversed(list(enumerate(game.history, start=1))):
        name = game.players[record.seat]
        throws = "; ".join(
            format_dice(throw.dice) + (tr(" → kept {dice}", dice=format_dice(throw.kept)) if throw.kept
                                       else tr(" → farkle"))
            for throw in record.throws
        ) or tr("entered as points, throws not checked")
        if record.outcome == "banked":
            result = tr("banked {points:,}", points=record.points)
        else:
            result = tr("farkled, lost {points:,}", points=record.points) if record.points else tr("farkled")
        if record.penalty:
            result += tr(", third farkle -{penalty:,}", penalty=record.penalty)
        built = tr(" (built on {built_on:,})", built_on=record.built_on) if record.built_on else ""
        lines.append((tr("{number}. {name}: {result}{built} · total {total:,}",
                         number=number, name=name, result=result, built=built, total=record.total), throws))
    return lines
