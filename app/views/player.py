"""A player's page: their games on this device, by name, with wins, average and farkle rate.

A long name is titled by its short form (``Maximiliana F.``, as the table's scoreboard shows
it) and given whole, wrapped, at the top of the page, where the app bar would cut it."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from app.context import use_model, use_services
from app.table.player_record import PlayerRecord, player_record
from app.storage import Store, StoreError
from app.views.widgets import on, screen_view, section
from app.i18n import local_number, tr
from engine.names import short_forms

__all__ = ["PlayerScreen", "PlayerState"]


@dataclass
class PlayerState(ft.Observable):
    """The player's record once read (see :mod:`app.table.player_record`), or why it could not be."""

    name: str
    record: PlayerRecord | None = None
    refusal: str | None = None

    async def load(self, store: Store) -> None:
        try:
            self.record = await player_record(store, self.name)
        except StoreError as failure:
            self.refusal = tr("The games cannot be read: {failure}", failure=failure)


@ft.component
def PlayerScreen(name: str) -> ft.View:
    services = use_services()
    player = use_model(lambda: PlayerState(name))

    async def load() -> None:
        await player.load(services.store)

    ft.on_mounted(load)
    record = player.record
    [title] = short_forms([name])
    controls: list[ft.Control] = []
    if title != name:
        controls.append(ft.Text(name, size=20, weight=ft.FontWeight.BOLD, key="player-name"))
    if player.refusal:
        controls.append(ft.Text(player.refusal, color=ft.Colors.ERROR))
    elif record is None:
        controls.append(ft.Text(tr("Reading the games…")))
    elif not record.figures.games:
        controls.append(ft.Text(tr("No game on this device has a player named {name!r}.",
                                   name=name), key="player-none"))
    else:
        figures = record.figures
        lines = [
            (tr("Games"), f"{figures.games}"),
            (tr("Wins"), tr("{wins:,} ({percent:.0f}%)", wins=figures.wins,
                            percent=100 * figures.wins / figures.games)),
            (tr("Average final score"), local_number(figures.average_score, ",.0f")),
            (tr("Farkle rate"), tr("{farkle_rate:.0%} of {turns} turns",
                               farkle_rate=figures.farkle_rate, turns=figures.turns)),
            (tr("Best turn"), local_number(figures.best_turn)),
        ]
        controls.append(section(tr("On this device"), *[
            ft.Row([ft.Text(label, expand=True, size=16), ft.Text(value, size=16, weight=ft.FontWeight.BOLD)],
                   key=f"figure-{index}")
            for index, (label, value) in enumerate(lines)
        ]))
        controls.append(section(tr("Games"), *[
            ft.ListTile(title=ft.Text(line), on_click=on(services.navigate, f"/game/{game_id}"),
                        key=f"player-game-{index}")
            for index, (game_id, line) in enumerate(record.games)
        ]))
    return screen_view("/player", title, controls, on_home=on(services.navigate, "/"))
