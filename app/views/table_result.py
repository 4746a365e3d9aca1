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

__all__ = ["ResultHandover"]


@ft.component
def ResultHandover(game: Game, tournament: Mapping[str, Any]) -> ft.Control:
    """The signed result of a finished tournament game (``tournament``: the game's ``meta["tournament"]``)."""
    services = use_services()
    try:
        result = signed_result(game, tournament)
    except (FarkleError, KeyError, TypeError) as problem:
        return notice_banner([f"The result code cannot be made: {problem}"], error=True, key="result-code-problem")

    async def copy() -> None:
        await services.service(ft.Clipboard).set(result.safe)

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
        ft.Text(result.typed, size=16, font_family="monospace", key="result-code-text"),
    ]
    if result.link:
        parts.append(ft.Text(f"Link: {result.link}", size=12, key="result-link"))
    parts.append(big_button("Copy the result code", on(copy), filled=False, key="copy-result-code",
                            icon=ft.Icons.COPY))
    return ft.Container(ft.Column(parts, spacing=8), key="result-panel",
                        border=ft.Border.all(2, ft.Colors.OUTLINE), border_radius=8, padding=10)
