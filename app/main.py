"""The Flet app: routes, the screens they show, keyboard entry, theme.

Routes: ``/`` home, ``/new`` new game, ``/game/<id>`` the table, ``/game/<id>/history``,
``/lookup`` quick score lookup; ``/organizer/...`` the tournament organizer, ``/import/<code>``
a table's result opened from its QR link, ``/join[/<code>]`` a table joining its tournament.
"""

from __future__ import annotations

import sys
from functools import cached_property
from typing import TYPE_CHECKING, Any

import flet as ft

from app.scorekeeper import Scorekeeper
from app.storage import FileStore, PrefsStore, Store, default_data_dir
from app.views.home import HomeScreen
from app.views.lookup import LookupScreen
from app.views.new_game import NewGameScreen
from app.views.table import TableScreen, history_controls
from app.views.widgets import FELT, icon_button, on

if TYPE_CHECKING:
    from app.views.organizer import OrganizerScreens
    from app.views.tournament_table import JoinScreen

__all__ = ["main", "FarkleApp"]

_stores: dict[str, Store] = {}


async def open_store(page: ft.Page) -> Store:
    """The browser's own storage in the offline PWA; a per-user data folder otherwise.

    One store per folder is shared by every browser tab the local server serves.
    """
    if sys.platform == "emscripten":
        prefs = ft.SharedPreferences()
        page.services.append(prefs)
        return await PrefsStore.open(prefs)
    folder = str(default_data_dir())
    if folder not in _stores:
        _stores[folder] = FileStore(folder)
    return _stores[folder]


class FarkleApp:
    """One browser tab's app: which screen shows, and the screens' in-progress entries."""

    def __init__(self, page: ft.Page, keeper: Scorekeeper) -> None:
        self.page = page
        self.keeper = keeper
        self.view = ft.View(route="/", padding=12, scroll=ft.ScrollMode.AUTO)
        self.table = TableScreen(self)
        self.lookup = LookupScreen(self)
        self.home_screen = HomeScreen(self)
        self.new_game: NewGameScreen | None = None

    @cached_property
    def organizer(self) -> OrganizerScreens:
        """The organizer's screens, loaded on first use: most devices only keep score."""
        from app.views.organizer import OrganizerScreens

        return OrganizerScreens(self)

    @cached_property
    def join(self) -> JoinScreen:
        from app.views.tournament_table import JoinScreen

        return JoinScreen(self)

    async def start(self) -> None:
        self.page.title = "Farkle Table"
        self.page.theme = ft.Theme(color_scheme_seed=FELT)
        self.page.dark_theme = ft.Theme(color_scheme_seed=FELT)
        settings = await self.keeper.settings()
        self.page.theme_mode = ft.ThemeMode.DARK if settings.get("theme") == "dark" else ft.ThemeMode.LIGHT
        self.page.views.clear()
        self.page.views.append(self.view)
        self.page.on_route_change = self.route_changed
        self.page.on_keyboard_event = self.key_pressed
        await self.render()

    async def route_changed(self, event: ft.RouteChangeEvent) -> None:
        await self.render()

    async def navigate(self, route: str) -> None:
        self.home_screen.message = None
        if route == self.page.route:
            await self.render()
        else:
            await self.page.push_route(route)

    async def open_table(self, game_id: str) -> None:
        self.table.reset_entry()
        await self.keeper.open_game(game_id, reload=True)  # another screen may have played since
        await self.navigate(f"/game/{game_id}")

    async def rematch(self) -> None:
        game = self.keeper.game
        if game is None:
            return
        self.new_game = NewGameScreen(self, list(game.players), game.rules)
        await self.navigate("/new")

    def service(self, kind: type[Any]) -> Any:
        """The page's one service of this kind (file picker, clipboard), created on first use."""
        found = next((service for service in self.page.services if isinstance(service, kind)), None)
        if found is None:
            found = kind()
            self.page.services.append(found)
        return found

    def confirm(self, title: str, text: str, action_label: str, action: Any, key: str) -> None:
        """Ask before something that cannot be undone; ``action`` runs only on yes."""

        async def confirmed(event: Any) -> None:
            self.page.pop_dialog()
            await action()

        async def cancelled(event: Any) -> None:
            self.page.pop_dialog()

        self.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(title),
                content=ft.Text(text),
                actions=[ft.TextButton("Cancel", on_click=cancelled, key=f"{key}-cancel"),
                         ft.FilledButton(action_label, on_click=confirmed, key=key)],
            )
        )

    async def toggle_theme(self) -> None:
        dark = self.page.theme_mode != ft.ThemeMode.DARK
        self.page.theme_mode = ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT
        await self.keeper.update_settings(theme="dark" if dark else "light")
        await self.render()

    async def key_pressed(self, event: ft.KeyboardEvent) -> None:
        if event.ctrl or event.alt:
            return
        route = self.page.route or "/"
        if route.startswith("/game/") and not route.endswith("/history") and self.keeper.game is not None:
            await self.table.on_key(event.key)
        elif route == "/lookup":
            await self.lookup.on_key(event.key)

    # -- rendering -------------------------------------------------------------------

    async def render(self) -> None:
        """Draw the screen the route names from the current state."""
        route = (self.page.route or "/").rstrip("/") or "/"
        parts = route.strip("/").split("/")
        title, controls, actions = await self.screen(parts)
        self.view.route = route
        self.view.appbar = ft.AppBar(
            title=ft.Text(title),
            leading=None if route == "/" else icon_button(ft.Icons.HOME, "Home", on_click=on(self.navigate, "/")),
            actions=actions,
            bgcolor=FELT,
            color=ft.Colors.WHITE,
        )
        self.view.controls = controls
        self.page.update()

    async def screen(self, parts: list[str]) -> tuple[str, list[ft.Control], list[ft.Control]]:
        lookup_button = icon_button(ft.Icons.CALCULATE, "Score lookup",
                                      on_click=on(self.navigate, "/lookup"))
        if parts[0] == "organizer" or parts[0].lower() == "import":
            return await self.organizer.screen(parts)
        if parts[0] == "join":
            return await self.join.screen(parts)
        if parts[0] == "new":
            if self.new_game is None:
                self.new_game = NewGameScreen(self)
            return "New game", self.new_game.build_controls(await self.keeper.recent_names()), [lookup_button]
        if parts[0] == "lookup":
            return "Score lookup", self.lookup.build_controls(), []
        if parts[0] == "game" and len(parts) >= 2:
            game = await self.load_game(parts[1])
            if game is None:
                return "Not found", [ft.Text(f"There is no readable game {parts[1]!r} on this device.")], []
            if len(parts) > 2 and parts[2] == "history":
                back = icon_button(ft.Icons.ARROW_BACK, "Back to the table",
                                     on_click=on(self.navigate, f"/game/{parts[1]}"))
                return "History", history_controls(game), [back]
            title = self.keeper.meta.get("title") or " · ".join(game.players)
            return title, self.table.build_controls(), self.table_actions(parts[1]) + [
                lookup_button]
        return "Farkle Table", await self.home(), [
            icon_button(ft.Icons.DARK_MODE, "Switch light or dark theme",
                          on_click=on(self.toggle_theme)),
        ]

    async def load_game(self, game_id: str) -> Any:
        if self.keeper.game_id != game_id:
            self.table.reset_entry()
            self.new_game = None
        return await self.keeper.open_game(game_id)

    def table_actions(self, game_id: str) -> list[ft.Control]:
        return [
            icon_button(ft.Icons.UNDO, "Undo", on_click=on(self.table.undo), key="undo"),
            icon_button(ft.Icons.HISTORY, "History", key="history",
                          on_click=on(self.navigate, f"/game/{game_id}/history")),
            icon_button(ft.Icons.TUNE, "Change rules", on_click=on(self.show_rules_dialog), key="change-rules"),
        ]

    async def home(self) -> list[ft.Control]:
        self.new_game = None
        return await self.home_screen.build_controls()

    async def show_rules_dialog(self) -> None:
        game = self.keeper.game
        if game is None:
            return
        rules = game.rules
        import dataclasses

        progressive = ft.Switch(label="Progressive passing", value=rules.progressive, key="switch-progressive")
        steal = ft.Switch(label="Steal after a farkle", value=rules.steal, key="switch-steal")

        async def apply(event: Any) -> None:
            new_rules = dataclasses.replace(rules, progressive=bool(progressive.value), steal=bool(steal.value))
            self.page.pop_dialog()
            await self.table.act(lambda g: g.set_rules(new_rules))

        self.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text("Change rules from the next turn"),
                content=ft.Column([ft.Text(rules.describe()), progressive, steal], tight=True),
                actions=[
                    ft.TextButton("Cancel", on_click=lambda e: self.page.pop_dialog()),
                    ft.FilledButton("Apply from next turn", on_click=apply, key="apply-rules"),
                ],
            )
        )


async def main(page: ft.Page) -> None:
    store = await open_store(page)
    app = FarkleApp(page, Scorekeeper(store))
    await app.start()


if __name__ == "__main__":
    ft.run(main)
