"""``/join``: a tournament table's device opens its game from the table's setup code.

The code from the organizer's table card is typed, pasted, scanned with the camera, read
from a photo of the card, or opened as ``/join/FT1-...``. The screen shows who sits where
and the rules, and starts the game with those players in seat order: nobody types a
name, and a code naming a player New game would refuse (a name that prints nothing, or
two that look alike) is refused saying which (:func:`engine.codec.setup_to_join`). The
game's document keeps the setup code (:func:`app.table.tournament_table.tournament_meta`), so
that the game over screen can sign the result. A table whose game is already on this
device is offered that game again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from app.context import Services, use_model, use_services
from app.storage import StoreError
from app.storage.errors import failure_in_words
from app.table.tournament_table import table_game_of, table_title, tournament_meta
from app.qr.camera import ScanOutcome, not_a_setup_code
from app.views.scanner import CameraScan
from app.views.widgets import big_button, notice_banner, on, screen_view, section
from app.i18n import tr, tr_words
from engine import SETUP_PREFIX, FarkleError, TableSetup
from engine.codec import code_in_link, setup_to_join

__all__ = ["JoinScreen", "JoinPage", "JoinState"]


@dataclass
class JoinState(ft.Observable):
    """The setup code being entered, what it says (or why it is refused), and a game already started from it."""

    text: str = ""
    setup: TableSetup | None = None
    refusal: str | None = None
    existing: str | None = None

    def enter(self, text: str) -> None:
        self.text, self.setup, self.refusal, self.existing = text, None, None, None

    async def read(self, services: Services, text: str | None = None) -> None:
        """Check the code (the typed one unless ``text``) and look for its game on this device;
        a join link, scanned, pasted or typed, is shown as the code it ends in."""
        self.text = code_in_link(self.text if text is None else text)
        self.setup, self.refusal, self.existing = None, None, None
        if not self.text.strip():
            self.refusal = tr("Type or paste the table's setup code first: it starts with {prefix}.",
                              prefix=SETUP_PREFIX)
            return
        try:
            setup = setup_to_join(self.text)
        except FarkleError as refusal:
            self.refusal = tr_words(refusal.words)
            return
        self.existing = await table_game_of(services.store, self.text)
        self.setup = setup

    async def start(self, services: Services) -> None:
        """Start the table's game with its players in seat order, and open it."""
        if self.setup is None:
            await self.read(services)
        setup = self.setup
        if setup is None:
            return
        try:
            game_id = await services.keeper.start_game(list(setup.names), setup.rules,
                                                       meta=tournament_meta(setup, self.text))
        except (FarkleError, StoreError) as failure:  # a code the engine refuses, a store full or unplugged
            self.refusal = tr("The table's game could not be started: {reason}",
                              reason=failure_in_words(failure, tr("start it again")))
            return
        await services.navigate(f"/game/{game_id}")

    async def open_existing(self, services: Services) -> None:
        if self.existing:
            await services.navigate(f"/game/{self.existing}")




def JoinScreen(payload: str, *, key: str | None = None) -> ft.View:
    """The join screen for ``/join`` (``payload`` "") or ``/join/<setup code>``."""
    screen: Callable[..., ft.View] = JoinPage
    return screen(payload, key=key)


@ft.component
def JoinPage(payload: str) -> ft.View:
    services = use_services()
    join = use_model(JoinState)

    async def read_link() -> None:
        if payload.strip():
            await join.read(services, payload)

    ft.on_mounted(read_link)

    async def typed(event: ft.Event[ft.TextField]) -> None:
        join.enter(str(event.control.value or ""))

    async def scanned(text: str, outcome: ScanOutcome) -> None:
        await join.read(services, text)

    controls: list[ft.Control] = [
        ft.Text(tr("Scan the QR code on your table's card (or read a photo of it), or type or paste its setup "
                   "code."), size=16),
        ft.TextField(
            label=tr("Setup code"),
            value=join.text,
            on_change=typed,
            on_submit=on(join.read, services),
            multiline=True,
            min_lines=2,
            max_lines=5,
            key="setup-code",
            hint_text=f"{SETUP_PREFIX}-…",
        ),
        big_button(tr("Read the code"), on(join.read, services), key="read-setup", filled=join.setup is None),
        CameraScan(tr("setup code"), "join-scan", lambda text: SETUP_PREFIX in text.upper(), scanned,
                   refuse=not_a_setup_code),
    ]
    if join.refusal:
        controls.append(notice_banner([join.refusal], error=True, key="join-refusal"))
    setup = join.setup
    if setup is not None:
        seats: list[ft.Control] = [
            ft.Text(tr("Seat {seat}: {name} (number {number})",
                       seat=seat, name=player.name, number=player.number), size=16)
            for seat, player in enumerate(setup.players, 1)
        ]
        rules: list[ft.Control] = [ft.Text(tr_words(setup.rules.describe()), key="join-rules")]
        if setup.switch_to is not None:
            rules.append(ft.Text(
                tr("The organizer may switch this table to: {rules}. When told, use Change rules at the top of "
                   "the table screen; it applies from the next turn.",
                   rules=setup.switch_to.describe())))
        controls.append(section(table_title(setup), *seats, *rules))
        if join.existing:
            controls.append(ft.Text(tr("This table's game is already on this device."), key="join-existing"))
            controls.append(big_button(tr("Open this table's game"), on(join.open_existing, services),
                                       key="open-existing"))
        controls.append(big_button(tr("Start the table's game"), on(join.start, services),
                                   key="start-tournament-game", filled=not join.existing, icon=ft.Icons.CASINO))
    return screen_view("/join", tr("Join a tournament table"), controls, on_home=on(services.navigate, "/"))
