"""``/organizer/<id>/players``: sign-up, check-in and withdrawal."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from app.organizer import parse_whole
from app.views.organizer.common import EventState, event_view, text_field, use_event
from app.views.widgets import big_button, on, section

__all__ = ["PlayersScreen", "PlayersPage"]


@dataclass
class PlayersPage(EventState):
    """The players page: the name and number being signed up, the reason for a withdrawal."""

    async def sign_up(self) -> None:
        name = self.value("signup_name")
        number_text = self.value("signup_number").strip().lstrip("#")

        async def sign_up() -> int:
            number = parse_whole(number_text, "A player number", minimum=1) if number_text else None
            return await self.organizer.act(lambda t: t.sign_up(name, number))

        await self.do(sign_up, lambda n: f"{self.name_of(n)} signed up as number {n}.",
                      clear=("signup_name", "signup_number"))

    async def check_in(self, number: int) -> None:
        await self.act(lambda t: t.check_in(number), lambda _: f"{self.name_of(number)} (number {number}) checked in.")

    async def check_in_all(self) -> None:
        await self.do(self.organizer.check_in_all, lambda count: f"{count} players checked in.")

    async def withdraw(self, number: int) -> None:
        reason = self.value("withdraw_reason")
        await self.act(lambda t: t.withdraw(number, reason),
                       lambda _: f"{self.name_of(number)} (number {number}) withdrew.", clear=("withdraw_reason",))


@ft.component
def PlayersScreen(tournament_id: str) -> ft.View:
    players = use_event(PlayersPage, tournament_id, "players")
    if not players.ready:
        return event_view(players, [])
    t = players.tournament
    controls: list[ft.Control] = []
    if not t.round:
        controls.append(section(
            "Sign up",
            ft.Row([
                text_field(players, "signup_name", "Player name", key="signup-name", expand=3,
                           on_submit=on(players.sign_up)),
                text_field(players, "signup_number", "Number (optional)", key="signup-number", expand=2,
                           on_submit=on(players.sign_up)),
            ]),
            ft.Row([
                big_button("Sign up", on(players.sign_up), key="sign-up", icon=ft.Icons.PERSON_ADD, expand=True),
                big_button("Check everyone in", on(players.check_in_all), key="check-in-all", filled=False,
                           expand=True),
            ]),
        ))
    controls.append(text_field(players, "withdraw_reason", "Reason for a withdrawal (optional)",
                               key="withdraw-reason"))
    active = [p for p in t.players if not p.withdrawn]
    rows: list[ft.Control] = [ft.Text(f"{len(active)} players · {sum(p.checked_in for p in active)} checked in",
                                      key="players-count")]
    for player in t.players:
        if player.withdrawn:
            status = "withdrawn" + (f" ({player.reason})" if player.reason else "")
        else:
            status = "checked in" if player.checked_in else "not checked in"
        buttons: list[ft.Control] = []
        if not t.round and not player.withdrawn and not player.checked_in:
            buttons.append(ft.TextButton("Check in", on_click=on(players.check_in, player.number),
                                         key=f"check-in-{player.number}", tooltip=f"Check in {player.name}"))
        if not player.withdrawn and t.champion is None:
            buttons.append(ft.TextButton("Withdraw", on_click=on(players.withdraw, player.number),
                                         key=f"withdraw-{player.number}", tooltip=f"Withdraw {player.name}"))
        rows.append(ft.Row([
            ft.Text(f"{player.number}. {player.name} · {status}", expand=True, key=f"player-{player.number}"),
            *buttons,
        ]))
    controls.append(section("Players", *rows))
    return event_view(players, controls)
