"""Game over: the winner, the standings, the score race and each player's figures, to share.

A tournament table hands its signed result over here instead of offering a rematch.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import flet as ft

from app.table.table_advice import review_decisions
from app.context import Services, use_model, use_services, use_viewport
from app.views.race_chart import RaceChart, roll_off_winner, stats_table
from app.views.widgets import big_button, on
from app.i18n import ntr, tr, tr_words
from engine import CostlyTurn, Game
from engine.stats import PlayerStats, player_stats, score_race

__all__ = ["GameOver", "points_account", "result_text", "standing_lines"]

logger = logging.getLogger(__name__)


@dataclass
class ShareState(ft.Observable):
    """What the last share did (``done``), or why it failed (``refusal``), told under the buttons."""

    refusal: str | None = None
    done: str | None = None

    async def copy_text(self, services: Services, text: str) -> None:
        try:
            await services.service(ft.Clipboard).set(text)
        except Exception as problem:  # noqa: BLE001 - a device service: the browser may refuse the clipboard
            logger.warning("The clipboard refused the result", exc_info=True)
            self.refusal, self.done = tr("The clipboard refused the text ({problem}); it is shown above.",
                                         problem=problem), None
            return
        self.refusal, self.done = None, tr("The result is copied: paste it into any message.")

    async def save_image(self, services: Services, shot: ft.Screenshot, file_name: str) -> None:
        try:
            picture = await shot.capture(pixel_ratio=2)
            await services.service(ft.FilePicker).save_file(file_name=file_name, src_bytes=picture)
        except Exception as problem:  # noqa: BLE001 - a device service: no canvas capture or no download here
            logger.warning("The result's picture could not be saved on this device", exc_info=True)
            self.refusal, self.done = tr("The picture could not be saved here: {problem}", problem=problem), None
            return
        self.refusal, self.done = None, tr("Saved the picture as {file_name}.", file_name=file_name)


@dataclass
class ReviewState(ft.Observable):
    """Each player's costliest turns, once judged (off the tap path)."""

    decisions: dict[int, tuple[CostlyTurn, ...]] | None = None
    refusal: str | None = None
    """Why the decisions could not be looked over."""

    async def judge(self, game: Game) -> None:
        try:
            self.decisions = await review_decisions(game)
        except Exception as problem:  # noqa: BLE001 - the review is a bonus: say it failed, keep the screen
            logger.exception("The decisions of a finished game could not be looked over")
            self.refusal = tr("The decisions could not be looked over ({problem}).", problem=problem)


@ft.component
def DecisionReview(game: Game) -> ft.Control:
    """"Where points went": per player, their total as banked less any penalties, then the
    turns whose decisions gave away most points on average against the most-points play
    (the engine's advice), one line a turn, in words."""
    review = use_model(ReviewState)

    async def judge() -> None:  # a coroutine function: Flet awaits only those
        await review.judge(game)

    ft.on_mounted(judge)
    lines: list[ft.Control] = []
    for seat, player in enumerate(player_stats(game)):
        lines.append(ft.Text(points_account(player, game.scores[seat]), weight=ft.FontWeight.BOLD,
                             key=f"review-{seat}-account"))
        turns = review.decisions.get(seat, ()) if review.decisions is not None else None
        if turns == ():
            lines.append(ft.Text(tr("Every keep and bank as the most-points play would have it "
                                    "(within 10 points)."),
                                 key=f"review-{seat}-none"))
        lines += [ft.Text(tr_words(turn.describe()), key=f"review-{seat}-{index}") for index, turn in enumerate(turns or ())]
    if review.refusal:
        lines.append(ft.Text(review.refusal, key="review-failed"))
    elif review.decisions is None:
        lines.append(ft.Text(tr("Looking over every decision…"), key="review-working"))
    return ft.Container(
        ft.Column([ft.Text(tr("Where points went"), size=18, weight=ft.FontWeight.BOLD), *lines], spacing=4),
        key="decision-review",
    )


def points_account(player: PlayerStats, total: int) -> str:
    """Where a player's total came from: ``Ann: 1,350 banked in 2 turns, -1,000 for a third
    farkle in a row in turn 9: total 350``."""
    banked = (ntr("{points:,} banked in {count} turn", "{points:,} banked in {count} turns", player.banked_turns,
                  points=player.banked_points, count=player.banked_turns)
              if player.banked_turns else tr("nothing banked"))
    taken = "".join(tr(", -{points:,} for a third farkle in a row in turn {turn}", points=points, turn=turn)
                    for turn, points in player.penalties)
    return tr("{name}: {banked}{taken}: total {total:,}", name=player.name, banked=banked, taken=taken, total=total)


def standing_lines(game: Game) -> list[tuple[int, str]]:
    """Each seat's line of the standings, best first: place, name, total, and the roll-off
    faces that split equal totals ("1. Ann 11,200 · roll-off 6")."""
    state = game.state
    places = game.places
    lines = []
    for seat in game.standings:
        faces = game.roll_off_faces(seat)
        roll_off = tr(" · roll-off {faces}", faces=", ".join(map(str, faces))) if faces else ""
        lines.append((seat, tr("{place}. {name} {score:,}{roll_off}", place=places[seat], name=state.players[seat],
                               score=state.scores[seat], roll_off=roll_off)))
    return lines


def result_text(game: Game) -> str:
    """The result as a message: winner, standings and the game's length."""
    state = game.state
    lines = [line for _, line in standing_lines(game)]
    winner = state.players[state.winner] if state.winner is not None else tr("nobody")
    return tr("Farkle Table: {winner} wins after {turns} turns.", winner=winner, turns=len(game.history)) + "\n" + \
        "\n".join(lines)


@ft.component
def GameOver(game: Game, game_id: str, tournament: Mapping[str, Any] | None) -> ft.Control:
    services = use_services()
    share = use_model(ShareState)
    width = min(max(use_viewport().width - 48, 280), 560)
    state = game.state
    assert state.winner is not None
    standings: list[ft.Control] = [ft.Text(line, size=18, key=f"place-{seat}") for seat, line in standing_lines(game)]
    picture = ft.Screenshot(
        content=ft.Container(
            ft.Column([
                ft.Text(tr("{name} wins!", name=state.players[state.winner]), size=28, weight=ft.FontWeight.BOLD,
                        key="winner"),
                ft.Text(tr("Final standings"), size=16),
                *standings,
                RaceChart(state.players, score_race(game), width=width, target=state.rules.target,
                          decided_by_roll_off=roll_off_winner(state)),
            ], spacing=8),
            bgcolor=ft.Colors.SURFACE,
            padding=8,
        ),
        key="result-picture",
    )
    buttons: list[ft.Control] = [
        big_button(tr("Copy the result"), on(share.copy_text, services, result_text(game)), filled=False,
                   icon=ft.Icons.COPY, key="share-text"),
        big_button(tr("Save as picture"), on(share.save_image, services, picture, f"farkle-{game_id}.png"),
                   filled=False, icon=ft.Icons.IMAGE, key="share-image"),
    ]
    controls: list[ft.Control] = [picture, stats_table(player_stats(game), use_viewport().width - 24)]
    if tournament:
        from app.views.table_result import ResultHandover  # only tournament tables need QR codes

        controls.append(ResultHandover(game, tournament))
    else:
        buttons.insert(0, big_button(tr("Rematch"), on(services.navigate, f"/new/{game_id}"), key="rematch"))
        controls.append(DecisionReview(game))  # casual games only: a tournament table gets no advice
    buttons.append(big_button(tr("Home"), on(services.navigate, "/"), filled=False, key="over-home"))
    controls.append(ft.Row(buttons, wrap=True, spacing=8, run_spacing=8))
    said = share.refusal or share.done
    if said:
        controls.append(ft.Text(said, color=ft.Colors.ERROR if share.refusal else None, key="share-note"))
    controls.append(ft.Row(
        [ft.TextButton(tr("{name}'s games", name=name),
                       on_click=on(services.navigate, f"/player/{quote(name, safe='')}"), key=f"player-{seat}",
                       height=48)
         for seat, name in enumerate(state.players)],
        wrap=True,
    ))
    return ft.Column(controls, spacing=10, key="game-over")
