"""Home: resume an unfinished game, browse finished ones, start a new one, keep storage in hand.

:class:`HomeState` holds the game lists and storage figures as read from the store, what
the last action did (or why it was refused) and the confirmation being asked; :func:`HomeScreen` draws them. Every
delete is confirmed first, and the lists are read afresh after it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import flet as ft

from app.context import use_model, use_services
from app.table.export import KeyPolicy, signing_events
from app.table.scorekeeper import GameSummary, Scorekeeper
from app.storage import PrefsStore, StorageFullError, StorageUsage, StoreError
from app.storage.errors import failure_in_words
from app.views.language import LANGUAGE_ROUTE
from app.views.widgets import (Handler, big_button, icon_button, notice_banner, on, problem_line, screen_view,
                              section)
from app.i18n import ntr, tr

__all__ = ["HomeScreen", "HomeState", "Confirmation", "FINISHED_SHOWN"]

logger = logging.getLogger(__name__)

FINISHED_SHOWN = 50
EXPORT_FILE = "farkle-table-games.json"

SaveFile = Callable[[bytes], Awaitable[str | None]]
"""Hands the export to the person (a save dialog or a download); the path saved, if known."""


@dataclass(frozen=True)
class Confirmation:
    """A question asked before something that cannot be undone.

    :param game_id: the game to delete; ``""`` for every finished game.
    """

    title: str
    text: str
    action: str
    key: str
    game_id: str = ""


@dataclass
class HomeState(ft.Observable):
    """What Home shows, read from the keeper's store; no controls."""

    keeper: Scorekeeper
    games: list[GameSummary] = field(default_factory=list)
    usage: StorageUsage | None = None
    loaded: bool = False
    refusal: str | None = None
    """Why the last action was refused, shown as an error; ``done``: what it did."""
    done: str | None = None
    confirmation: Confirmation | None = None

    @property
    def games_in_browser(self) -> bool:
        """Whether the games live in this browser's storage (the PWA), not in a data folder: the
        store says so (:func:`app.runtime.in_browser` is where Python runs)."""
        return isinstance(self.keeper.store, PrefsStore)

    @property
    def unfinished(self) -> list[GameSummary]:
        return [game for game in self.games if not game.finished]

    @property
    def finished(self) -> list[GameSummary]:
        return [game for game in self.games if game.finished]

    def warnings(self) -> list[str]:
        """Unreadable files, and a store running out of room."""
        warnings = [problem_line(problem) for problem in self.keeper.store.problems]
        if self.usage is not None and self.usage.nearly_full:
            warnings.append(
                tr("Storage is {fraction_used:.0%} full: export your games, then delete finished ones to keep "
                   "room for new throws.",
                   fraction_used=self.usage.fraction_used)
            )
        return warnings

    def storage_line(self) -> str:
        """How many games are kept where, and the room they take."""
        count = len(self.games)
        games = ntr("{count:,} game", "{count:,} games", count, count=count)
        if self.usage is None:
            return tr("{games} kept", games=games)
        size = _amount(self.usage.bytes_used)
        if self.games_in_browser:
            if self.usage.quota_bytes:
                size += (tr(" of about {amount} this browser allows ({fraction_used:.0%})",
                            amount=_amount(self.usage.quota_bytes), fraction_used=self.usage.fraction_used))
            return tr("{games} kept on this device · {size}", games=games, size=size)
        if self.usage.quota_bytes:
            size += tr(" · {amount} free on its disk", amount=_amount(self.usage.quota_bytes - self.usage.bytes_used))
        return tr("{games} kept in the app's data folder · {size}", games=games, size=size)

    def tell(self, text: str) -> None:
        self.refusal, self.done = None, text

    def refuse(self, text: str) -> None:
        self.refusal, self.done = text, None

    async def load(self) -> None:
        """Read the game lists and the storage figures afresh."""
        try:
            self.games = await self.keeper.summaries()
            self.usage = await self.keeper.store.usage()
        except StoreError as failure:
            self.refuse(tr("The games could not be read: {failure}", failure=failure))
        self.loaded = True

    # -- deleting, after a yes -------------------------------------------------------

    def ask_delete(self, game: GameSummary) -> None:
        here = self.games_in_browser
        if game.finished:
            text = (tr("The finished game {line} will be gone from this device.", line=game.line) if here
                    else tr("The finished game {line} will be gone from the app's data folder.", line=game.line))
        else:
            text = (tr("The unfinished game {line} will be gone from this device.", line=game.line) if here
                    else tr("The unfinished game {line} will be gone from the app's data folder.", line=game.line))
        self.confirmation = Confirmation(tr("Delete this game?"), text, tr("Delete"), "confirm-delete", game.id)

    def ask_delete_finished(self) -> None:
        self.confirmation = Confirmation(
            tr("Delete every finished game?"),
            tr("Unfinished games stay. Export first if you want to keep the finished ones."),
            tr("Delete finished games"), "confirm-delete-finished")

    def cancel(self) -> None:
        self.confirmation = None

    def dismissed(self, confirmation: Confirmation) -> None:
        """The dialog went away (tap outside, back): forget it, unless another is asked by now."""
        if self.confirmation is confirmation:
            self.confirmation = None

    async def confirm(self) -> None:
        """Do what the open confirmation asked; the lists are read again after."""
        asked, self.confirmation = self.confirmation, None
        if asked is None:
            return
        try:
            if asked.game_id:
                line = next((game.line for game in self.games if game.id == asked.game_id), asked.game_id)
                await self.keeper.delete_game(asked.game_id)
                self.tell(tr("Deleted the game {line}.", line=line))
            else:
                count = await self.keeper.delete_finished()
                self.tell(ntr("Deleted {count} finished game; unfinished games are kept.",
                              "Deleted {count} finished games; unfinished games are kept.", count, count=count))
        except StoreError as failure:
            self.refuse(tr("Nothing was deleted: {failure}", failure=failure))
        await self.load()

    # -- export and theme --------------------------------------------------------------

    async def export(self, save: SaveFile, may_carry_keys: Callable[[], Awaitable[KeyPolicy]]) -> None:
        """Every game as one JSON file, handed to ``save``; a table game's signing key only
        where ``may_carry_keys`` allows it (the organizer's device, or the event's passphrase)."""
        try:
            export = await self.keeper.export_games(await may_carry_keys())
        except StoreError as failure:
            self.refuse(tr("The games could not be read for the export: {failure}", failure=failure))
            return
        try:
            saved = await save(export.data)
        except Exception as error:  # noqa: BLE001 - a device service: no file dialog here, or it refused
            logger.warning("The export could not be saved on this device", exc_info=True)
            self.refuse(tr("The export could not be saved here ({error}).", error=error))
            return
        told = tr("Every game saved as {file} ({size:,} bytes).", file=saved or EXPORT_FILE, size=len(export.data))
        if export.keys_withheld:
            told += " " + ntr(
                "{count} tournament table's game went without the table's signing key, which stays on the "
                "organizer's device: export there, or sign in with the event's organizer passphrase first, to keep it.",
                "{count} tournament tables' games went without the table's signing key, which stays on the "
                "organizer's device: export there, or sign in with the event's organizer passphrase first, to keep it.",
                export.keys_withheld, count=export.keys_withheld)
        self.tell(told)

    async def toggle_theme(self, toggle: Callable[[], Awaitable[None]]) -> None:
        try:
            await toggle()
            self.refusal = None  # a refusal from before is no longer true
        except StorageFullError as full:
            self.refuse(tr("The theme was not switched: {reason}",
                           reason=failure_in_words(full, tr("switch it again"))))
        except StoreError as failure:
            self.refuse(tr("The theme was not switched: it could not be saved ({failure}).", failure=failure))


@ft.component
def HomeScreen() -> ft.View:
    services = use_services()
    home = use_model(lambda: HomeState(services.keeper))
    ft.on_mounted(home.load)

    async def keys_this_device_may_take() -> KeyPolicy:
        return await signing_events(services.store, services.desk.access)

    async def save_export(data: bytes) -> str | None:
        picker = services.service(ft.FilePicker)
        return await picker.save_file(dialog_title=tr("Save every game"), file_name=EXPORT_FILE, src_bytes=data,
                                      allowed_extensions=["json"])

    asked = home.confirmation
    ft.use_dialog(None if asked is None else ft.AlertDialog(
        title=ft.Text(asked.title),
        content=ft.Text(asked.text),
        actions=[ft.TextButton(tr("Cancel"), on_click=on(home.cancel), key=f"{asked.key}-cancel"),
                 ft.FilledButton(asked.action, on_click=on(home.confirm), key=asked.key)],
        on_dismiss=on(home.dismissed, asked),
    ))

    go = services.navigate
    controls: list[ft.Control] = []
    warnings = home.warnings()
    if warnings:
        controls.append(notice_banner(warnings, error=True, key="store-problems"))
    said = home.refusal or home.done
    if said:
        controls.append(notice_banner([said], error=bool(home.refusal), key="home-message"))
    controls += [
        ft.Row([
            big_button(tr("New game"), on(go, "/new"), key="new-game", icon=ft.Icons.ADD, expand=True),
            big_button(tr("Score lookup"), on(go, "/lookup"), key="lookup", filled=False, icon=ft.Icons.CALCULATE,
                       expand=True),
        ]),
        ft.Row([
            big_button(tr("Organize a tournament"), on(go, "/organizer"), key="organize", filled=False,
                       icon=ft.Icons.EMOJI_EVENTS, expand=True),
            big_button(tr("Join a tournament table"), on(go, "/join"), key="join-table", filled=False,
                       icon=ft.Icons.QR_CODE, expand=True),
        ]),
    ]
    if not home.loaded:
        controls.append(ft.Text(tr("Reading the games…"), key="home-loading"))
    else:
        controls += game_lists(home, go, on(home.export, save_export, keys_this_device_may_take))
    theme = icon_button(ft.Icons.DARK_MODE, tr("Switch light or dark theme"),
                        on(home.toggle_theme, services.toggle_theme), key="theme")
    language = icon_button(ft.Icons.TRANSLATE, tr("Language"), on(go, LANGUAGE_ROUTE), key="language")
    return screen_view("/", tr("Farkle Table"), controls, actions=[language, theme])


def game_lists(home: HomeState, go: Callable[[str], Awaitable[None]], export: Handler) -> list[ft.Control]:
    unfinished, finished = home.unfinished, home.finished
    shown = [game_row(home, game, go) for game in finished[:FINISHED_SHOWN]]
    if len(finished) > FINISHED_SHOWN:
        older = len(finished) - FINISHED_SHOWN
        shown.append(ft.Text(ntr("and {count} older finished game (in the export).",
                                 "and {count} older finished games (in the export).", older, count=older)))
    controls = [
        section(tr("Unfinished games"),
                *([game_row(home, game, go) for game in unfinished] or [ft.Text(tr("None: start a new game."))])),
        section(tr("Finished games"), *(shown or [ft.Text(tr("No finished game yet."))])),
    ]
    if home.games:
        controls.append(section(
            tr("Storage"),
            ft.Text(home.storage_line(), key="storage-usage"),
            ft.Row(
                [
                    big_button(tr("Export all games"), export, filled=False, key="export-games",
                               icon=ft.Icons.DOWNLOAD),
                    big_button(tr("Delete finished games"), on(home.ask_delete_finished), filled=False,
                               key="delete-finished", icon=ft.Icons.DELETE_SWEEP, disabled=not finished),
                ],
                wrap=True,
            ),
        ))
    return controls


def game_row(home: HomeState, game: GameSummary, go: Callable[[str], Awaitable[None]]) -> ft.Control:
    """A game to open by tapping it, one button read out as "Open the game …" with when it was
    played; its delete button beside it."""
    when = game.updated.replace("T", " ")[:16]
    subtitle = (tr("{winner} won · {when}", winner=game.winner, when=when) if game.finished and game.winner
                else tr("last played {when} UTC", when=when))
    return ft.Row(
        [
            ft.ListTile(
                title=ft.Text(game.line, semantics_label=tr("Open the game {line}", line=game.line)),
                subtitle=ft.Text(subtitle),
                leading=ft.Icon(ft.Icons.EMOJI_EVENTS if game.finished else ft.Icons.CASINO),
                on_click=on(go, f"/game/{game.id}"),
                key=f"game-{game.id}",
                expand=True,
            ),
            icon_button(ft.Icons.DELETE_OUTLINE, tr("Delete the game {line}", line=game.line),
                        on(home.ask_delete, game), key=f"delete-{game.id}"),
        ],
        spacing=0,
    )


def _amount(size: int) -> str:
    if size >= 1_000_000_000:
        return tr("{size:,.1f} GB", size=size / 1_000_000_000)
    return tr("{size:,.1f} MB", size=size / 1_000_000) if size >= 1_000_000 else tr("{size:,.0f} KB", size=size / 1000)
