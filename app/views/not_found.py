"""What any address the app does not know shows: where you are and the way home."""

from __future__ import annotations

import flet as ft

from app.context import use_services
from app.views.widgets import big_button, on, screen_view
from app.i18n import tr

__all__ = ["NotFoundScreen"]


@ft.component
def NotFoundScreen(path: str) -> ft.View:
    services = use_services()
    shown = path if len(path) <= 80 else path[:80] + "…"
    return screen_view("/", tr("Not found"), [
        ft.Text(tr("There is nothing at {shown!r} on this device: the address may be mistyped, or the game or "
                   "event was deleted.",
                   shown=shown), size=16, key="not-found"),
        big_button(tr("Home"), on(services.navigate, "/"), key="not-found-home", icon=ft.Icons.HOME),
    ], on_home=on(services.navigate, "/"))


@ft.component
def StoreUnusableScreen(message: str) -> ft.View:
    """Shown instead of the app when its storage cannot be opened: what is wrong and what to do."""
    return screen_view("/", tr("Farkle Table cannot keep games here"), [
        ft.Text(message, size=16, selectable=False, key="store-unusable"),
        ft.Text(tr("Nothing was changed. Fix the folder (or choose another), then reload this page."), size=14),
    ])
