"""Home: resume an unfinished game, browse finished ones, start a new one, keep storage in hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from app.scorekeeper import GameSummary
from app.storage import StorageUsage
from app.views.widgets import big_button, icon_button, notice_banner, on, section

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["HomeScreen"]

FINISHED_SHOWN = 50


class HomeScreen:
    """The game lists, and export or clean-up before the device's storage runs out."""

    def __init__(self, app: FarkleApp) -> None:
        self.app = app
        self.message: tuple[str, bool] | None = None

    async def build_controls(self) -> list[ft.Control]:
        keeper = self.app.keeper
        games = await keeper.summaries()
        usage = await keeper.store.usage()
        warnings = [problem.message() for problem in keeper.store.problems]
        if usage.nearly_full:
            warnings.append(
                f"Storage is {usage.fraction_used:.0%} full: export your games, then delete finished ones "
                "to keep room for new throws."
            )
        controls: list[ft.Control] = []
        if warnings:
            controls.append(notice_banner(warnings, error=True, key="store-problems"))
        if self.message:
            text, error = self.message
            controls.append(notice_banner([text], error=error, key="home-message"))
        controls += [
            ft.Row(
                [
                    big_button("New game", on(self.app.navigate, "/new"), key="new-game", icon=ft.Icons.ADD,
                               expand=True),
                    big_button("Score lookup", on(self.app.navigate, "/lookup"), key="lookup", filled=False,
                               icon=ft.Icons.CALCULATE, expand=True),
                ]
            ),
            ft.Row(
                [
                    big_button("Organize a tournament", on(self.app.navigate, "/organizer"), key="organize",
                               filled=False, icon=ft.Icons.EMOJI_EVENTS, expand=True),
                    big_button("Join a tournament table", on(self.app.navigate, "/join"), key="join-table",
                               filled=False, icon=ft.Icons.QR_CODE, expand=True),
                ]
            ),
        ]
        unfinished = [game for game in games if not game.finished]
        finished = [game for game in games if game.finished]
        controls.append(
            section(
                "Unfinished games",
                *([self.game_tile(game) for game in unfinished] or [ft.Text("None: start a new game.")]),
            )
        )
        shown = [self.game_tile(game) for game in finished[:FINISHED_SHOWN]]
        if len(finished) > FINISHED_SHOWN:
            shown.append(ft.Text(f"and {len(finished) - FINISHED_SHOWN} older finished games (in the export)."))
        controls.append(section("Finished games", *(shown or [ft.Text("No finished game yet.")])))
        if games:
            controls.append(self.storage_section(len(games), len(finished), usage))
        return controls

    def game_tile(self, game: GameSummary) -> ft.Control:
        when = game.updated.replace("T", " ")[:16]
        subtitle = f"{game.winner} won · {when}" if game.finished and game.winner else f"last played {when} UTC"
        return ft.ListTile(
            title=ft.Text(game.line),
            subtitle=ft.Text(subtitle),
            leading=ft.Icon(ft.Icons.EMOJI_EVENTS if game.finished else ft.Icons.CASINO),
            trailing=icon_button(ft.Icons.DELETE_OUTLINE, f"Delete the game {game.line}",
                                 on(self.ask_delete, game), key=f"delete-{game.id}"),
            on_click=on(self.app.open_table, game.id),
            key=f"game-{game.id}",
        )

    def storage_section(self, games: int, finished: int, usage: StorageUsage) -> ft.Control:
        size = _amount(usage.bytes_used)
        if usage.quota_bytes:
            size += f" of about {_amount(usage.quota_bytes)} this browser allows ({usage.fraction_used:.0%})"
        return section(
            "Storage",
            ft.Text(f"{games} games kept on this device · {size}", key="storage-usage"),
            ft.Row(
                [
                    big_button("Export all games", on(self.export), filled=False, key="export-games",
                               icon=ft.Icons.DOWNLOAD),
                    big_button("Delete finished games", on(self.ask_delete_finished), filled=False,
                               key="delete-finished", icon=ft.Icons.DELETE_SWEEP, disabled=not finished),
                ],
                wrap=True,
            ),
        )

    async def export(self) -> None:
        data = await self.app.keeper.export_games()
        try:
            saved = await self.app.service(ft.FilePicker).save_file(
                dialog_title="Save every game", file_name="farkle-table-games.json", src_bytes=data,
                allowed_extensions=["json"])
        except Exception as error:  # noqa: BLE001 - no file dialog on this device
            self.message = (f"The export could not be saved here ({error}).", True)
        else:
            self.message = (f"Every game saved as {saved or 'farkle-table-games.json'} ({len(data):,} bytes).", False)
        await self.app.render()

    async def ask_delete(self, game: GameSummary) -> None:
        async def delete() -> None:
            await self.app.keeper.delete_game(game.id)
            self.message = (f"Deleted the game {game.line}.", False)
            await self.app.render()

        state = "finished" if game.finished else "unfinished"
        self.app.confirm("Delete this game?", f"The {state} game {game.line} will be gone from this device.",
                         "Delete", delete, key="confirm-delete")

    async def ask_delete_finished(self) -> None:
        async def delete() -> None:
            count = await self.app.keeper.delete_finished()
            self.message = (f"Deleted {count} finished games; unfinished games are kept.", False)
            await self.app.render()

        self.app.confirm("Delete every finished game?",
                         "Unfinished games stay. Export first if you want to keep the finished ones.",
                         "Delete finished games", delete, key="confirm-delete-finished")


def _amount(size: int) -> str:
    return f"{size / 1_000_000:,.1f} MB" if size >= 1_000_000 else f"{size / 1000:,.0f} KB"
