"""A finished tournament table hands its signed result to the organizer.

The table screen shows :func:`ResultHandover` once a tournament game is over: the
result as a QR code (the deep link where the organizer gave an address), its typing
form, the link, and a button copying the code. Signing is :mod:`app.table.tournament_table`'s.

Before the code shows, each player confirms the final totals with one tap, or the
scorekeeper records who declined (:func:`confirm_panel`); the answers are saved with
the game before they show, can be changed until every seat has answered, and are
signed into the code ("confirmed by 3 of 4 · Bob declined").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import flet as ft

from app.context import use_model, use_services
from app.qr import qr_image
from app.table.scorekeeper import Scorekeeper
from app.storage import ChangedElsewhere, StoreError
from app.storage.errors import failure_in_words
from app.table.tournament_table import Answers, all_answered, answers_of, signed_result, with_answer
from app.views.widgets import big_button, notice_banner, on
from app.i18n import tr
from engine import FarkleError, Game

__all__ = ["ResultHandover", "CodeActions", "ConfirmState", "confirm_panel"]

logger = logging.getLogger(__name__)


@dataclass
class ConfirmState(ft.Observable):
    """The last answer's fate on this screen: saved (drawn from the keeper) or refused, and why."""

    saved: int = 0
    refusal: str | None = None

    async def answer(self, keeper: Scorekeeper, game: Game, tournament: Mapping[str, Any], seat: int,
                     confirmed: bool) -> None:
        """Save one seat's answer with the game; it shows only once the store has kept it."""
        try:
            await keeper.update_meta("tournament", with_answer(game, tournament, seat, confirmed))
            self.refusal = None
        except ChangedElsewhere as changed:
            self.refusal = tr("{changed} Open the game again to see it.", changed=changed)
        except (FarkleError, StoreError) as failure:
            self.refusal = tr("The answer was not saved: {reason}",
                              reason=failure_in_words(failure, tr("tap it again")))
        self.saved += 1


def confirm_panel(keeper: Scorekeeper, game: Game, tournament: Mapping[str, Any], answers: Answers,
                  confirm: ConfirmState) -> ft.Control:
    """Each seated player confirms the final totals, or is recorded as declining them."""
    state = game.state
    rows: list[ft.Control] = [
        ft.Text(tr("Confirm the final totals"), size=20, weight=ft.FontWeight.BOLD),
        ft.Text(tr("Each player checks their total and taps Confirm. If a player does not agree, tap Declined for "
                   "them. The result code shows once every player has answered."), size=14),
    ]
    for seat, (name, total) in enumerate(zip(state.players, state.scores)):
        answer = answers[seat]
        said = {True: tr("confirmed"), False: tr("declined"), None: tr("not answered yet")}[answer]
        rows.append(ft.Text(tr("{name} {total:,} · {answer}", name=name, total=total, answer=said), size=18,
                            key=f"confirm-line-{seat + 1}"))
        rows.append(ft.Row([
            ft.Semantics(
                content=big_button(tr("Confirm"), on(confirm.answer, keeper, game, tournament, seat, True),
                                   filled=answer is True,
                           key=f"confirm-seat-{seat + 1}", icon=ft.Icons.CHECK),
                label=tr("{name} confirms {total:,}", name=name, total=total), button=True, selected=answer is True),
            ft.Semantics(
                content=big_button(tr("Declined"), on(confirm.answer, keeper, game, tournament, seat, False),
                           filled=answer is False, key=f"decline-seat-{seat + 1}", icon=ft.Icons.CLOSE),
                label=tr("{name} declines {total:,}", name=name, total=total), button=True, selected=answer is False),
        ], wrap=True))
    if confirm.refusal:
        rows.append(notice_banner([confirm.refusal], error=True, key="confirm-problem"))
    return ft.Container(ft.Column(rows, spacing=8), key="confirm-panel",
                        border=ft.Border.all(2, ft.Colors.OUTLINE), border_radius=8, padding=10)


@ft.component
def CodeActions(what: str, text: str, key: str) -> ft.Control:
    """Copy and Share buttons for a code or link (``what`` names it in the buttons).

    Share opens the device's share sheet where the browser has one (``ft.Share``); where it
    has none, or sharing fails, the text is copied instead and the screen says so.
    """
    services = use_services()
    said, set_said = ft.use_state("")

    async def copy() -> None:
        await services.service(ft.Clipboard).set(text)
        set_said(tr("Copied the {what}.", what=what))

    async def share() -> None:
        try:
            result = await services.service(ft.Share).share_text(text, subject=tr("Farkle Table {what}", what=what))
        except Exception:  # noqa: BLE001 - a device service: no share sheet here (desktop browser, refused): copy
            logger.info("No share sheet on this device: the %s is copied instead", what, exc_info=True)
            result = None
        if result is None or getattr(result.status, "value", "") == "unavailable":
            await copy()
            set_said(tr("This device cannot share here: copied the {what} instead.", what=what))
        else:
            set_said("")

    parts: list[ft.Control] = [ft.Row([
        big_button(tr("Copy the {what}", what=what), on(copy), filled=False, key=f"copy-{key}", icon=ft.Icons.COPY),
        big_button(tr("Share the {what}",
                      what=what), on(share), filled=False, key=f"share-{key}", icon=ft.Icons.SHARE),
    ], wrap=True)]
    if said:
        parts.append(ft.Text(said, size=12, key=f"said-{key}"))
    return ft.Column(parts, spacing=4)


@ft.component
def ResultHandover(game: Game, tournament: Mapping[str, Any]) -> ft.Control:
    """The signed result of a finished tournament game (``tournament``: the game's ``meta["tournament"]``)."""
    services = use_services()
    confirm = use_model(ConfirmState)
    if services.keeper.game is game:  # the answers saved since the table screen drew this
        kept = services.keeper.meta.get("tournament")
        tournament = kept if isinstance(kept, Mapping) else tournament
    try:
        result = signed_result(game, tournament)
    except (FarkleError, KeyError, TypeError) as problem:
        return notice_banner([tr("The result code cannot be made: {problem}",
                                 problem=problem)], error=True, key="result-code-problem")
    answers = answers_of(game, tournament)
    if not all_answered(answers):
        return confirm_panel(services.keeper, game, tournament, answers, confirm)

    image = qr_image(result.qr_text)
    parts: list[ft.Control] = [
        ft.Text(tr("Hand the result to the organizer"), size=20, weight=ft.FontWeight.BOLD),
        ft.Text(tr("Final totals {confirmation}",
                   confirmation=result.confirmation), size=16, weight=ft.FontWeight.BOLD, key="result-confirmation"),
        ft.Text(tr("Let the organizer scan this QR code, or read out or send the text below it."), size=14),
        ft.Container(
            ft.Image(src=image.png, width=300, height=300, fit=ft.BoxFit.CONTAIN,
                     semantics_label=tr("Result QR code for {title}", title=result.title), key="result-qr"),
            bgcolor=ft.Colors.WHITE,
            padding=8,
            alignment=ft.Alignment.CENTER,
        ),
        ft.Text(tr("QR version {version}",
                   version=image.version), size=12, color=ft.Colors.ON_SURFACE_VARIANT, key="result-qr-version"),
        ft.Text(tr("Result code"), size=14, weight=ft.FontWeight.BOLD),
        ft.Text(result.typed, size=16, font_family="monospace", key="result-code-text"),
        CodeActions(tr("result code"), result.safe, "result-code"),
    ]
    if result.link:
        parts.append(ft.Text(tr("Link: {link}", link=result.link), size=12, key="result-link"))
        parts.append(CodeActions(tr("result link"), result.link, "result-link"))
    return ft.Container(ft.Column(parts, spacing=8), key="result-panel",
                        border=ft.Border.all(2, ft.Colors.OUTLINE), border_radius=8, padding=10)
