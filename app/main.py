"""The app shell: opens the store, provides the services, routes to screens, owns the keyboard.

Routes: ``/`` home, ``/new`` new game (``/new/<id>`` a rematch of that game),
``/game/<id>`` the table, ``/game/<id>/history``, ``/lookup`` quick score lookup
(``/lookup/<id>`` under that game's rules); ``/organizer/...`` the tournament organizer,
``/import/<code>`` a table's result opened from its QR link, ``/join[/<code>]`` a table
joining its tournament, ``/players/<event code>`` the players' page of an event,
``/follow/<id>`` a game followed read-only on a second screen.

Every screen is a Flet component over plain state (see ``app/views``): an action
updates that state and Flet sends only what changed, so the controls a person is
tapping stay the same controls between taps.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import flet as ft

from app.event.access import DeviceAccess
from app.qr.camera import DEFAULT_TIMING, ScanTiming
from app.documents import changes, events, games
from app.context import Services, ServicesContext, Viewport, ViewportContext, use_model
from app.event.desk import Desk
from app.i18n import ENGLISH, tr, use_language
from app.i18n.setting import LanguageSetting
from app.event.organizer import Organizer
from app.routes import Route, parse_route
from app.runtime import in_browser
from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore, PrefsStore, Store, StoreError, default_data_dir
from app.storage.tabs import CHANNEL_NAME, TabSharedPrefs
from app.views.home import HomeScreen
from app.views.lookup import LookupScreen
from app.views.new_game import NewGameScreen
from app.views.not_found import NotFoundScreen, StoreUnusableScreen
from app.views.player import PlayerScreen
from app.views.history import HistoryScreen
from app.views.table import TableScreen
from app.views.widgets import FELT

__all__ = ["main", "app_on", "open_store"]

_stores: dict[str, Store] = {}
_channels: list[Any] = []


async def open_store(page: ft.Page) -> Store:
    """The browser's own storage in the offline PWA; a per-user data folder otherwise.

    One store per folder is shared by every browser tab the local server serves.
    """
    if in_browser():
        prefs = ft.SharedPreferences()
        page.services.append(prefs)
        return await PrefsStore.open(_hearing_other_tabs(prefs))
    folder = str(default_data_dir())
    if folder not in _stores:
        _stores[folder] = FileStore(folder)
    return _stores[folder]


def _hearing_other_tabs(prefs: ft.SharedPreferences) -> TabSharedPrefs:
    """This tab's preferences, told of the other tabs' saves over a BroadcastChannel."""
    import js  # type: ignore[import-not-found,unused-ignore]  # Pyodide only
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found,unused-ignore]

    channel = js.BroadcastChannel.new(CHANNEL_NAME)
    shared = TabSharedPrefs(prefs, channel.postMessage)
    channel.onmessage = create_proxy(lambda event: _heard(shared, str(event.data)))
    _channels.append(channel)  # kept for the page's life
    return shared


def _heard(shared: TabSharedPrefs, message: str) -> None:
    """Another tab saved: read its value from now on, then wake the screens following what it saved."""
    shared.receive(message)
    changes.heard_from_tab(message)


@ft.component
def App(services: Services, initial: Route) -> list[ft.View]:
    """The shown screen for the current route, under the shared services."""
    route, set_route = ft.use_state(initial)
    connections, set_connections = ft.use_state(0)
    page = ft.context.page
    viewport = use_model(lambda: Viewport(page.width or 390, page.height or 844))
    language = use_model(lambda: services.language)  # a language picked in the settings draws the screen anew

    async def resized(event: ft.PageResizeEvent) -> None:
        viewport.width, viewport.height = event.width, event.height

    async def route_changed(event: ft.RouteChangeEvent) -> None:
        set_route(parse_route(event.route))

    async def reconnected(event: ft.Event[ft.Page]) -> None:
        """A reload of the page (or the network back) reattaches this session as it was:
        the screen is opened anew, so it shows what is stored now, not what it showed."""
        set_connections(lambda count: count + 1)

    async def locale_changed(event: ft.LocaleChangeEvent) -> None:
        """The person changed the device's or browser's language: the screen opens anew in it
        (when the app has a catalogue for it and no language was picked in the settings;
        otherwise nothing changes)."""
        if language.follows_device():
            use_language(page, [locale.language_tag for locale in event.locales])
            language.refresh()

    async def key_pressed(event: ft.KeyboardEvent) -> None:
        handler = services.route_keys.handler
        if handler is not None and not (event.ctrl or event.alt or event.meta):
            await handler(event.key)

    def listen() -> None:
        page.on_route_change = route_changed
        page.on_keyboard_event = key_pressed
        page.on_resize = resized
        page.on_connect = reconnected
        page.on_locale_change = locale_changed

    ft.on_mounted(listen)
    return ServicesContext(services, lambda: ViewportContext(
        viewport, lambda: [screen_for(route, connections, language.shown)]))


def screen_for(route: Route, reconnections: int = 0, language: str = ENGLISH) -> ft.View:
    """The screen component a parsed route names (a new key gives the screen fresh state);
    after each reconnection of the session, and in another language, the key is new too."""
    component, key, *args = _screen_of(route)
    key = f"{key}#{reconnections}" if reconnections else key
    return keyed(component, key if language == ENGLISH else f"{key}@{language}", *args)


def _screen_of(route: Route) -> tuple[Any, ...]:
    """(component, key, arguments) of the screen a route names."""
    if route.screen == "home":
        return (HomeScreen, "home")
    if route.screen == "new":
        return (NewGameScreen, f"new-{route.game_id}", route.game_id)
    if route.screen == "lookup":
        return (LookupScreen, f"lookup-{route.game_id}", route.game_id)
    if route.screen == "game":
        return (TableScreen, f"game-{route.game_id}", route.game_id)
    if route.screen == "history":
        return (HistoryScreen, f"history-{route.game_id}", route.game_id)
    if route.screen == "player":
        return (PlayerScreen, f"player-{route.payload}", route.payload)
    if route.screen in ("organizer", "import"):
        from app.views.organizer import OrganizerScreen  # most devices only keep score

        return (OrganizerScreen, "organizer-" + "/".join(route.parts[:3]), route.parts)
    if route.screen == "join":
        from app.views.join import JoinScreen

        return (JoinScreen, f"join-{route.payload}", route.payload)
    if route.screen == "players":
        from app.views.players_page import PlayersScreen  # served to players' phones by the venue server

        return (PlayersScreen, f"players-{route.payload}", route.payload)
    if route.screen == "language":
        from app.views.language import LanguageScreen

        return (LanguageScreen, "language")
    if route.screen == "follow":
        from app.views.follow import FollowScreen

        return (FollowScreen, f"follow-{route.game_id}", route.game_id)
    return (NotFoundScreen, "not-found", route.path)


def keyed(component: Callable[..., ft.View], key: str, *args: Any) -> ft.View:
    """Call a screen component with Flet's ``key``, which its typed signature does not show."""
    return component(*args, key=key)


async def main(page: ft.Page) -> None:
    try:
        store = await open_store(page)
    except StoreError as problem:  # e.g. a read-only data folder, or another process holds it
        why = str(problem)  # kept: the name ``problem`` is gone after this block, and views render later too
        await LanguageSetting(page, lambda: _service(page, ft.SharedPreferences)).adopt()
        page.title = tr("Farkle Table")
        page.render_views(lambda: [StoreUnusableScreen(why)])
        return
    await start(page, store)


def app_on(store: Store, scan_timing: ScanTiming = DEFAULT_TIMING) -> Callable[[ft.Page], Awaitable[None]]:
    """``main`` over a given store: tests hold the same store the screens write to (and may
    give the camera scans a fake clock)."""

    async def main_on_store(page: ft.Page) -> None:
        await start(page, store, scan_timing)

    return main_on_store


async def start(page: ft.Page, store: Store, scan_timing: ScanTiming = DEFAULT_TIMING) -> None:
    """The language picked on this device (or the device's own), the theme from the settings,
    then the shell over this store's services."""
    language = LanguageSetting(page, lambda: _service(page, ft.SharedPreferences))
    await language.adopt()
    keeper = Scorekeeper(store, announce=partial(changes.announce, page, games.COLLECTION))
    page.title = tr("Farkle Table")
    page.theme = ft.Theme(color_scheme_seed=FELT)
    page.dark_theme = ft.Theme(color_scheme_seed=FELT)
    try:
        settings = await keeper.settings()
    except StoreError:
        settings = {}
    page.theme_mode = ft.ThemeMode.DARK if settings.get("theme") == "dark" else ft.ThemeMode.LIGHT

    async def navigate(route: str) -> None:
        if route != page.route:
            await page.push_route(route)

    async def toggle_theme() -> None:
        dark = page.theme_mode != ft.ThemeMode.DARK
        await keeper.update_settings(theme="dark" if dark else "light")  # kept before it shows
        page.theme_mode = ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT
        page.update()

    access = DeviceAccess.of_page(page, prefs=lambda: _service(page, ft.SharedPreferences))
    organizer = Organizer(store, announce=partial(changes.announce, page, events.COLLECTION))
    services = Services(keeper=keeper, navigate=navigate, platform=lambda kind: _service(page, kind),
                        toggle_theme=toggle_theme, desk=Desk(organizer, access), language=language,
                        scan_timing=scan_timing)
    page.render_views(App, services, parse_route(page.route or "/"))


def _service(page: ft.Page, kind: type[Any]) -> Any:
    """The page's one service of this kind (file picker, clipboard), created on first use."""
    found = next((service for service in page.services if isinstance(service, kind)), None)
    if found is None:
        found = kind()
        page.services.append(found)
    return found


if __name__ == "__main__":
    ft.run(main)
