"""What every screen shares, provided once by the shell: services, navigation, keys.

Screens never import the shell (``app.main``). They read this context with
:func:`use_services` and render their own plain state; the shell owns routing, the
theme and the page's keyboard. A screen that wants the keyboard registers a handler
with :func:`use_keys` while it is shown.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import flet as ft

from app.qr.camera import DEFAULT_TIMING, ScanTiming
from app.event.desk import Desk
from app.i18n.setting import LanguageSetting
from app.table.scorekeeper import Scorekeeper
from app.storage import Store

__all__ = ["Services", "KeyHandler", "ServicesContext", "Viewport", "ViewportContext", "use_services", "use_keys",
           "use_model", "use_viewport"]

KeyHandler = Callable[[str], Awaitable[None]]
"""Receives a key name as Flet reports it ("5", "Backspace", "Enter", "B")."""

ServiceT = TypeVar("ServiceT")
ModelT = TypeVar("ModelT")


@dataclass
class KeyRoute:
    """The one screen handler the page's keyboard goes to (the shown screen's)."""

    handler: KeyHandler | None = None
    owner: object | None = None


@dataclass(frozen=True)
class Services:
    """The app's services as one value: what a screen may use besides its own state.

    :param keeper: the scorekeeper (open game, games, settings).
    :param navigate: go to a route (``"/game/<id>"``); the shell renders it.
    :param platform: the page's one service of a kind (``ft.Clipboard``, ``ft.FilePicker``),
        created on first use.
    :param toggle_theme: switch light and dark, remembered in the settings.
    :param desk: the organizer's side of the session (the open event, what outlives its screens).
    :param language: the session's language and the one picked on this device.
    :param route_keys: where the page's key presses go; set through :func:`use_keys`.
    :param scan_timing: the camera scans' clock and pace (a test gives a fake clock).
    """

    keeper: Scorekeeper
    navigate: Callable[[str], Awaitable[None]]
    platform: Callable[[type[Any]], Any]
    toggle_theme: Callable[[], Awaitable[None]]
    desk: Desk
    language: LanguageSetting
    route_keys: KeyRoute = field(default_factory=KeyRoute)
    scan_timing: ScanTiming = DEFAULT_TIMING

    @property
    def store(self) -> Store:
        return self.keeper.store

    def service(self, kind: type[ServiceT]) -> ServiceT:
        """The page's one ``kind`` service (clipboard, file picker), typed."""
        return cast(ServiceT, self.platform(kind))


@dataclass
class Viewport(ft.Observable):
    """The page's size in logical pixels; the shell keeps it current as the window turns."""

    width: float = 390
    height: float = 844

    @property
    def landscape(self) -> bool:
        """A phone on its side: too low for one column of score, entry and buttons."""
        return self.width > self.height and self.height < 600


ServicesContext = ft.create_context(cast(Services, None))
ViewportContext = ft.create_context(Viewport())


def use_services() -> Services:
    """The services the shell provides; only inside a component under the shell."""
    services = ft.use_context(ServicesContext)
    if services is None:
        raise LookupError("use_services() is called outside the app shell's ServicesContext.")
    return services


def use_keys(handler: KeyHandler | None) -> None:
    """Send the page's key presses to ``handler`` while this component is shown."""
    route = use_services().route_keys
    owner = ft.use_ref(cast(Callable[[], Any], object)).current
    route.handler, route.owner = handler, owner

    def release() -> None:
        if route.owner is owner:
            route.handler = route.owner = None

    ft.use_effect(lambda: None, dependencies=[], cleanup=release)


def use_model(factory: Callable[[], ModelT]) -> ModelT:
    """This component's state object, made by ``factory`` on the first render only.

    Make it an ``ft.Observable`` dataclass: changing its fields re-renders the component.
    """
    model, _ = ft.use_state(cast(Callable[[], Any], factory))
    return cast(ModelT, model)


def use_viewport() -> Viewport:
    """The page's size; the component draws again when it changes."""
    return ft.use_context(ViewportContext)
