"""The score race: every player's total after each turn, drawn on Flet's canvas.

Flet's canvas is part of every client (local server, PWA), so the chart needs no extra
package. Screen readers get the race in words (who led after how many turns).
"""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft
import flet.canvas as cv

from app.i18n import local_number, ntr, tr
from engine import GameState
from engine.stats import PlayerStats

__all__ = ["RaceChart", "SERIES_COLOURS", "TABLE_WIDEST", "hot_dice_shown", "race_summary", "roll_off_winner", "stats_table"]

SERIES_COLOURS = ("#1565C0", "#C62828", "#2E7D32", "#EF6C00", "#6A1B9A", "#00838F", "#AD1457", "#5D4037")
"""One distinct colour per seat (up to eight players), readable on light and dark."""

_LEFT, _BOTTOM, _TOP, _RIGHT = 52, 26, 10, 10


def roll_off_winner(state: GameState) -> int | None:
    """The seat that won the game on a roll-off (the totals ended level), else None."""
    return state.winner if state.roll_offs else None


def RaceChart(players: Sequence[str], race: Sequence[Sequence[int]], *, width: float = 360,
              height: float = 220, target: int | None = None, decided_by_roll_off: int | None = None) -> ft.Control:
    """A line per player over the game's turns, the target as a dashed line, and a legend.

    The axis runs from the lowest total reached (0, or below it where a three-farkle penalty
    may take a total below 0) to the highest or the target; the turns run along the 0 line."""
    turns = max((len(series) for series in race), default=1) - 1
    top = max([max(series, default=0) for series in race] + [target or 0, 500])
    bottom = min([min(series, default=0) for series in race] + [0])
    plot_w, plot_h = width - _LEFT - _RIGHT, height - _TOP - _BOTTOM

    def x(turn: int) -> float:
        return _LEFT + plot_w * (turn / max(turns, 1))

    def y(total: int) -> float:
        return _TOP + plot_h * (top - total) / (top - bottom)

    axis = ft.Paint(color=ft.Colors.ON_SURFACE_VARIANT, stroke_width=1, style=ft.PaintingStyle.STROKE)
    shapes: list[cv.Shape] = [
        cv.Line(_LEFT, _TOP, _LEFT, _TOP + plot_h, paint=axis),
        cv.Line(_LEFT, y(0), _LEFT + plot_w, y(0), paint=axis),
        cv.Text(_LEFT - 6, y(top), local_number(top), style=ft.TextStyle(size=11), alignment=ft.Alignment.CENTER_RIGHT),
        cv.Text(_LEFT - 6, y(0), "0", style=ft.TextStyle(size=11), alignment=ft.Alignment.CENTER_RIGHT),
        cv.Text(_LEFT + plot_w, height - 4, tr("turn {turn}", turn=turns), style=ft.TextStyle(size=11),
                alignment=ft.Alignment.BOTTOM_RIGHT),
    ]
    if bottom < 0:
        shapes.append(cv.Text(_LEFT - 6, y(bottom), local_number(bottom), style=ft.TextStyle(size=11),
                              alignment=ft.Alignment.CENTER_RIGHT))
    if target:
        shapes.append(cv.Line(_LEFT, y(target), _LEFT + plot_w, y(target),
                              paint=ft.Paint(color=ft.Colors.OUTLINE, stroke_width=1, style=ft.PaintingStyle.STROKE,
                                             stroke_dash_pattern=[4, 4])))
    for seat, series in enumerate(race):
        colour = SERIES_COLOURS[seat % len(SERIES_COLOURS)]
        elements: list[cv.Path.PathElement] = [cv.Path.MoveTo(x(0), y(series[0] if series else 0))]
        elements += [cv.Path.LineTo(x(turn), y(total)) for turn, total in enumerate(series) if turn]
        shapes.append(cv.Path(elements, paint=ft.Paint(color=colour, stroke_width=3, style=ft.PaintingStyle.STROKE,
                                                       stroke_join=ft.StrokeJoin.ROUND)))
    legend = ft.Row(
        [ft.Row([ft.Container(width=14, height=14, bgcolor=SERIES_COLOURS[seat % len(SERIES_COLOURS)],
                              border_radius=3),
                 ft.Text(name, size=13, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)], spacing=4, tight=True)
         for seat, name in enumerate(players)],
        wrap=True,
        spacing=12,
    )
    return ft.Semantics(
        label=race_summary(players, race, decided_by_roll_off),
        content=ft.Column([cv.Canvas(shapes, width=width, height=height, key="race-canvas"), legend], spacing=6),
        key="race-chart",
    )


def race_summary(players: Sequence[str], race: Sequence[Sequence[int]], decided_by_roll_off: int | None = None) -> str:
    """The race in words: how often the lead changed and who led at the end, or, when the totals
    ended level (``decided_by_roll_off``: the seat that won the roll-off), who won the roll-off."""
    leaders: list[int] = []
    for turn in range(1, max((len(series) for series in race), default=1)):
        totals = [series[turn] for series in race]
        best = max(totals)
        if best > 0 and totals.count(best) == 1:
            leader = totals.index(best)
            if not leaders or leaders[-1] != leader:
                leaders.append(leader)
    if not leaders:
        return tr("Score race: nobody has scored yet.")
    changes, turns = len(leaders) - 1, max(len(series) for series in race) - 1
    if decided_by_roll_off is not None:
        return ntr("Score race over {turns} turns: the lead changed {changes} time; the totals ended level and "
                   "{name} won the roll-off.",
                   "Score race over {turns} turns: the lead changed {changes} times; the totals ended level and "
                   "{name} won the roll-off.", changes,
                   turns=turns, changes=changes, name=players[decided_by_roll_off])
    return ntr("Score race over {turns} turns: the lead changed {changes} time; {name} led last.",
               "Score race over {turns} turns: the lead changed {changes} times; {name} led last.", changes,
               turns=turns, changes=changes, name=players[leaders[-1]])


SCROLLBAR_ROOM = 14
"""Room (px) right of the text for the page's scroll bar, which is drawn over the content."""
TABLE_WIDEST = 560
"""The width (px) the figures table needs with long names; narrower, each player gets a line."""


def stats_table(stats: Sequence[PlayerStats], width: float = TABLE_WIDEST) -> ft.Control:
    """Per-player figures: turns, farkles, hot dice, best and average banked turn, entry turn.

    Narrower than the table needs (a phone), each player's figures are a wrapping line of
    their own, so no column is cut off.
    """
    if width < TABLE_WIDEST:
        title: list[ft.Control] = [ft.Text(tr("Each player's figures"), size=16, weight=ft.FontWeight.BOLD)]
        figures = ft.Column(
            title
            + [ft.Text(tr("{name}: turns {turns} · farkles {farkles} · hot dice {hot_dice} · best {best:,} · "
                          "average bank {average:,.0f} · {board}",
                          name=player.name, turns=player.turns, farkles=player.farkles, hot_dice=hot_dice_shown(player),
                          best=player.best_turn, average=player.average_bank,
                          board=tr("on the board in turn {turn}", turn=player.on_board_turn) if player.on_board_turn
                          else tr("never on the board")),
                       key=f"player-figures-{seat}")
               for seat, player in enumerate(stats)],
            spacing=6,
        )
        return ft.Container(figures, padding=ft.Padding.only(right=SCROLLBAR_ROOM), key="player-stats")
    header = [tr("Player"), tr("Turns"), tr("Farkles"), tr("Hot dice"), tr("Best"), tr("Avg bank"), tr("On board")]
    rows = [
        ft.DataRow([
            ft.DataCell(ft.Text(player.name, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)),
            ft.DataCell(ft.Text(str(player.turns))),
            ft.DataCell(ft.Text(str(player.farkles))),
            ft.DataCell(ft.Text(hot_dice_shown(player))),
            ft.DataCell(ft.Text(local_number(player.best_turn))),
            ft.DataCell(ft.Text(local_number(player.average_bank, ",.0f"))),
            ft.DataCell(ft.Text(tr("turn {turn}", turn=player.on_board_turn) if player.on_board_turn else "—")),
        ])
        for player in stats
    ]
    return ft.Row(
        [ft.DataTable(columns=[ft.DataColumn(label=ft.Text(title, weight=ft.FontWeight.BOLD)) for title in header],
                      rows=rows, column_spacing=14, heading_row_height=36, data_row_min_height=32,
                      data_row_max_height=36, key="player-stats")],
        scroll=ft.ScrollMode.AUTO,
    )


def hot_dice_shown(player: PlayerStats) -> str:
    """The player's hot dice, or a dash where turns entered as points hide them."""
    return "—" if player.hot_dice is None else str(player.hot_dice)
