"""A finished tournament table hands its signed result to the organizer.

The table screen shows :func:`ResultHandover` once a tournament game is over: the
result as a QR code (the deep link where the organizer gave an address), its typing
form, the link, and a button copying the code. Signing is :mod:`app.tournament_table`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import flet as ft

from app.context import use_services
from app.qr import qr_image
from app.tournament_table import signed_result
from app.views.widgets import big_button, notice_banner, on
from engine import FarkleError, Game

__all__ = ["ResultHandover", "CodeActions"]


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
        set_said(f"Copied the {what}.")

    async def share() -> None:
        try:
            result = await services.service(ft.Share).share_text(text, subject=f"Farkle Table {what}")
        except Exception:  # noqa: BLE001 - no share sheet here (desktop browser, refused): copy
            result = None
        if result is None or getattr(result.status, "value", "") == "unavailable":
            await copy()
            set_said(f"This device cannot share here: copied the {what} instead.")
        else:
            set_said("")

    parts: list[ft.Control] = [ft.Row([
        big_button(f"Copy the {what}", on(copy), filled=False, key=f"copy-{key}", icon=ft.Icons.COPY),
        big_button(f"Share the {what}", on(share), filled=False, key=f"share-{key}", icon=ft.Icons.SHARE),
    ], wrap=True)]
    if said:
        parts.append(ft.Text(said, size=12, key=f"said-{key}"))
    return ft.Column(parts, spacing=4)


@ft.component
def ResultHandover(game: Game, tournament: Mapping[str, Any]) -> ft.Control:
    """The signed result of a finished tournament game (``tournament``: the game's ``meta["tournament"]``)."""
    services = use_services()
    try:
        result = signed_result(game, tournament)
    except (FarkleError, KeyError, TypeError) as problem:
        return notice_banner([f"The result code cannot be made: {problem}"], error=True, key="result-code-problem")

    image = qr_image(result.qr_text)
    parts: list[ft.Control] = [
        ft.Text("Hand the result to the organizer", size=20, weight=ft.FontWeight.BOLD),
        ft.Text("Let the organizer scan this QR code, or read out or send the text below it.", size=14),
        ft.Container(
            ft.Image(src=image.png, width=300, height=300, fit=ft.BoxFit.CONTAIN,
                     semantics_label=f"Result QR code for {result.title}", key="result-qr"),
            bgcolor=ft.Colors.WHITE,
            padding=8,
            alignment=ft.Alignment.CENTER,
        ),
        ft.Text(f"QR version {image.version}", size=12, color=ft.Colors.ON_SURFACE_VARIANT, key="result-qr-version"),
        ft.Text("Result code", size=14, weight=ft.FontWeight.BOLD),
        ft.Text(result.typed, size=16, font_family="monospace", key="result-code-text", selectable=True),
        CodeActions("result code", result.safe, "result-code"),
    ]
    if result.link:
        parts.append(ft.Text(f"Link: {result.link}", size=12, key="result-link", selectable=True))
        parts.append(CodeActions("result link", result.link, "result-link"))
    return ft.Container(ft.Column(parts, spacing=8), key="result-panel",
                        border=ft.Border.all(2, ft.Colors.OUTLINE), border_radius=8, padding=10)
