"""The table device in a tournament: open the table's game from its setup code, hand the result back.

``/join`` takes the setup code the organizer's table card shows (typed, pasted, scanned
with the camera, or opened as ``/join/FT1-...``), shows who sits where and the rules,
and starts the game with those players in seat order: nobody types a name. The game's
document keeps the setup code (``meta["tournament"]``), so at the end
:func:`result_panel` can sign the result with the table's key and show it as a QR code,
its typing form and the deep link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import flet as ft

from app.qr import qr_image
from app.views.scanner import CameraScanner
from app.views.widgets import big_button, notice_banner, on, on_value, section
from engine import (
    LINK_ROUTE,
    FarkleError,
    Game,
    TableSetup,
    decode_setup,
    encode_result,
    link_form,
    read_code,
    result_from_game,
    safe_form,
    typing_form,
)

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["JoinScreen", "result_panel", "tournament_meta", "table_title", "result_qr_text"]


def table_title(setup: TableSetup) -> str:
    return f"{setup.event_id} · Round {setup.round} · Table {setup.table}"


def tournament_meta(setup: TableSetup, code: str) -> dict[str, Any]:
    """What the game document keeps about its tournament table (``code``: the setup code)."""
    return {
        "tournament": {
            "setup": read_code(code),
            "event_id": setup.event_id,
            "round": setup.round,
            "table": setup.table,
            "players": [[player.number, player.name] for player in setup.players],
            "rules": setup.rules.to_dict(),
            "switch_to": setup.switch_to.to_dict() if setup.switch_to else None,
            "link_base": setup.link_base,
        },
        "title": table_title(setup),
    }


def result_qr_text(code: str, link_base: str) -> str:
    """What the result QR holds: the deep link where the organizer gave an address, else the code.

    Scheme and host are written in capitals (both are case-blind), and so is the route
    (the app reads ``/IMPORT/`` as ``/import/``), so that the whole link stays in QR's
    compact alphanumeric mode.
    """
    if not link_base:
        return code
    parts = urlsplit(link_base)
    base = f"{parts.scheme}://{parts.netloc}".upper() + parts.path.rstrip("/")
    return base + LINK_ROUTE.upper() + safe_form(code)


class JoinScreen:
    """``/join``: the setup code being entered, what it says, and the start button."""

    def __init__(self, app: FarkleApp) -> None:
        self.app = app
        self.text = ""
        self.setup: TableSetup | None = None
        self.refusal: str | None = None
        self.from_route: str | None = None
        self.existing: str | None = None
        self.scanner = CameraScanner(app, "setup code", lambda text: "FT1" in text.upper(), self.scanned, "join-scan")

    async def screen(self, parts: list[str]) -> tuple[str, list[ft.Control], list[ft.Control]]:
        """``/join`` or ``/join/<setup code, safe form>``."""
        if len(parts) > 1 and parts[1]:
            await self.from_link(unquote("/".join(parts[1:])))
        return "Join a tournament table", self.build_controls(), []

    async def set_text(self, name: str, value: Any) -> None:
        self.text = str(value or "")
        self.setup, self.refusal = None, None

    async def check(self) -> None:
        await self._read(self.text)
        await self.app.render()

    async def scanned(self, text: str) -> None:
        self.text = text
        await self._read(text)
        await self.app.render()

    async def from_link(self, payload: str) -> None:
        """``/join/<safe form>``: read the code once per link."""
        if payload != self.from_route:
            self.from_route = payload
            self.text = payload
            await self._read(payload)

    async def _read(self, text: str) -> None:
        self.setup, self.refusal, self.existing = None, None, None
        if not text.strip():
            self.refusal = "Type or paste the table's setup code first: it starts with FT1."
            return
        try:
            self.setup = decode_setup(text)
        except FarkleError as refusal:
            self.refusal = str(refusal)
            return
        code = read_code(text)
        games = await self.app.keeper.store.load_all("games")
        for game_id, document in sorted(games.items(), key=lambda item: str(item[1].get("updated", ""))):
            if (document.get("tournament") or {}).get("setup") == code:
                self.existing = game_id

    async def start(self) -> None:
        setup = self.setup
        if setup is None:
            await self.check()
            setup = self.setup
            if setup is None:
                return
        try:
            game_id = await self.app.keeper.start_game(
                list(setup.names), setup.rules, 0, meta=tournament_meta(setup, self.text)
            )
        except Exception as failure:
            self.refusal = f"The table's game could not be started: {failure}"
            await self.app.render()
            return
        self.text, self.setup, self.existing, self.from_route = "", None, None, None
        await self.app.open_table(game_id)

    async def open_existing(self) -> None:
        if self.existing:
            game_id = self.existing
            self.text, self.setup, self.existing = "", None, None
            await self.app.open_table(game_id)

    def build_controls(self) -> list[ft.Control]:
        controls: list[ft.Control] = [
            ft.Text("Type or paste the setup code from your table's card, or scan its QR code.", size=16),
            ft.TextField(
                label="Setup code",
                value=self.text,
                on_change=on_value(self.set_text, "code"),
                on_submit=on(self.check),
                multiline=True,
                min_lines=2,
                max_lines=5,
                key="setup-code",
                hint_text="FT1-…",
            ),
            big_button("Read the code", on(self.check), key="read-setup", filled=self.setup is None),
            *self.scanner.controls(),
        ]
        if self.refusal:
            controls.append(notice_banner([self.refusal], error=True, key="join-refusal"))
        setup = self.setup
        if setup is not None:
            seats = [
                ft.Text(f"Seat {seat}: {player.name} (number {player.number})", size=16)
                for seat, player in enumerate(setup.players, 1)
            ]
            rules = [ft.Text(setup.rules.describe(), key="join-rules")]
            if setup.switch_to is not None:
                rules.append(ft.Text(
                    f"The organizer may switch this table to: {setup.switch_to.describe()}. When told, use Change "
                    "rules at the top of the table screen; it applies from the next turn."))
            controls.append(section(table_title(setup), *seats, *rules))
            if self.existing:
                controls.append(ft.Text("This table's game is already on this device.", key="join-existing"))
                controls.append(big_button("Open this table's game", on(self.open_existing), key="open-existing"))
            controls.append(
                big_button("Start the table's game", on(self.start), key="start-tournament-game",
                           filled=not self.existing, icon=ft.Icons.CASINO)
            )
        return controls


def result_panel(app: FarkleApp, game: Game) -> ft.Control | None:
    """The signed result of a finished tournament game: QR code, typing form, deep link."""
    meta = app.keeper.meta.get("tournament")
    if not meta:
        return None
    try:
        setup = decode_setup(meta["setup"])
        result = result_from_game(game, setup)
        code = encode_result(result, setup.key)
    except (FarkleError, KeyError, TypeError) as problem:
        return notice_banner([f"The result code cannot be made: {problem}"], error=True, key="result-code-problem")
    shown = result_qr_text(code, setup.link_base)
    image = qr_image(shown)
    parts: list[ft.Control] = [
        ft.Text("Hand the result to the organizer", size=20, weight=ft.FontWeight.BOLD),
        ft.Text("Let the organizer scan this QR code, or read out or send the text below it.", size=14),
        ft.Container(
            ft.Image(src=image.png, width=300, height=300, fit=ft.BoxFit.CONTAIN,
                     semantics_label=f"Result QR code for {table_title(setup)}", key="result-qr"),
            bgcolor=ft.Colors.WHITE,
            padding=8,
            alignment=ft.Alignment.CENTER,
        ),
        ft.Text(f"QR version {image.version}", size=12, color=ft.Colors.ON_SURFACE_VARIANT, key="result-qr-version"),
        ft.Text("Result code", size=14, weight=ft.FontWeight.BOLD),
        ft.Text(typing_form(code), size=16, font_family="monospace", key="result-code-text"),
    ]
    if setup.link_base:
        parts.append(ft.Text(f"Link: {link_form(code, setup.link_base)}", size=12, key="result-link"))
    parts.append(
        big_button("Copy the result code", on(_copy, app, safe_form(code)), filled=False,
                   key="copy-result-code", icon=ft.Icons.COPY)
    )
    return ft.Container(ft.Column(parts, spacing=8), key="result-panel",
                        border=ft.Border.all(2, ft.Colors.OUTLINE), border_radius=8, padding=10)


async def _copy(app: FarkleApp, text: str) -> None:
    clipboard = next((s for s in app.page.services if isinstance(s, ft.Clipboard)), None)
    if clipboard is None:
        clipboard = ft.Clipboard()
        app.page.services.append(clipboard)
    await clipboard.set(text)
