"""The table's entry in points only: "Ann banks ___" with Bank and Farkle, as the paper sheet.

A family that finds die entry slow keeps score this way and still has the rules kept for
it: the engine checks each bank (engine/RULES.md §3.8) and refuses one in words, as it
refuses a throw. The switch between points and dice sits here too, offered at a turn's
start and never at a tournament table, whose results must be verifiable die by die.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import flet as ft

from app.event.number_entry import parse_number
from app.i18n import local_number, tr, tr_words
from app.views.table_state import TableState, dice_words
from app.views.widgets import MIN_TARGET, big_button, labelled_dropdown, on
from engine import GameState, InvalidInput

__all__ = ["PointsEntry", "entry_switch", "points_allowed", "typed_points"]

QUICK_ADDS = (50, 100, 200, 500, 1000)
"""Chips that add to the points typed: a bank is said as its parts ("500 and a 100")."""

POINTS_DIGITS: Final = 7
"""The most digits a bank takes: the engine refuses a turn above 1,000,000 in words."""


def points_allowed(table: TableState) -> bool:
    """Points only is for casual games: a tournament table enters every throw."""
    return not table.keeper.meta.get("tournament")


def typed_points(text: str, name: str) -> tuple[int | None, str | None]:
    """The points typed (``1,050`` as the app reads every number), or why they are none."""
    if not text.strip():
        return None, tr("Type the points {name} banked, or tap Farkle.", name=name)
    try:
        return parse_number(tr("{name}'s bank", name=name), text, digits=POINTS_DIGITS), None
    except InvalidInput as refusal:
        return None, tr_words(refusal.words)


@ft.component
def PointsEntry(table: TableState, state: GameState) -> ft.Control:
    """The points panel: the bank typed or added up from chips, the dice passed where the
    rules pass them, Bank and Farkle, and what the app cannot check."""
    typed, set_typed = ft.use_state("")
    passed, set_passed = ft.use_state(0)  # 0: no dice passed on
    name = table.player_name()
    step = table.game.points_step

    async def bank() -> None:
        points, problem = typed_points(typed, name)
        if points is None:
            table.refusal = problem
            return
        if await table.act(lambda game: game.bank_points(points, passed or None)):
            set_typed("")
            set_passed(0)

    async def farkle() -> None:
        if await table.act(lambda game: game.farkle()):
            set_typed("")
            set_passed(0)

    def add(points: int) -> None:
        now, _ = typed_points(typed, name)
        set_typed(local_number((now or 0) + points))  # as the field reads it back

    async def typed_changed(event: ft.Event[ft.TextField]) -> None:
        set_typed(event.control.value or "")

    shown, _ = typed_points(typed, name)  # the Bank button says the points it banks
    offer = state.open_offer
    built_on = state.offer if state.building else None
    controls: list[ft.Control] = [
        ft.Text(tr("{name} banks", name=name), size=24, weight=ft.FontWeight.BOLD, max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS, key="points-who"),
    ]
    if offer is not None:
        controls.append(ft.Row([
            ft.Text(tr("On offer to {name}: {offer}", name=name, offer=offer), size=16, expand=True),
            big_button(tr("Build on {points:,}", points=offer.points), on(table.build), key="build", filled=False),
        ], wrap=True, key="offer"))
    if built_on is not None:
        controls.append(ft.Text(tr("{name} builds on {points:,}: enter the whole bank, more than {points:,}.",
                                   name=name, points=built_on.points), key="points-built-on"))
    controls += [
        ft.TextField(label=tr("Points banked"), value=typed, key="points-field",
                     keyboard_type=ft.KeyboardType.NUMBER, on_change=typed_changed, on_submit=on(bank)),
        ft.Row([ft.OutlinedButton(f"+{local_number(points)}", on_click=on(add, points), key=f"add-{points}", height=MIN_TARGET)
                for points in QUICK_ADDS if points % step == 0]
               + [ft.TextButton(tr("Clear"), on_click=on(set_typed, ""), key="points-clear", height=MIN_TARGET)],
               wrap=True, spacing=6),
    ]
    if table.game.rules.progressive:
        controls.append(passed_choice(passed, set_passed))
    controls += [
        ft.Row([big_button(tr("Bank {points:,}", points=shown) if shown else tr("Bank"), on(bank),
                           key="bank-points", expand=True, icon=ft.Icons.SAVINGS),
                big_button(tr("Farkle"), on(farkle), key="farkle-points", filled=False, expand=True)]),
        ft.Text(tr("Points only: the app checks what the points show (the rules' step of {step:,}, getting on the "
                   "board, streaks, the final round), not the throws.", step=step),
                size=12, color=ft.Colors.ON_SURFACE_VARIANT, key="points-unchecked"),
    ]
    if points_allowed(table):
        controls.append(entry_switch(table, state))
    return ft.Column(controls, spacing=8, key="points-entry")


def passed_choice(passed: int, choose: Callable[[int], None]) -> ft.Control:
    """How many dice the bank leaves to pass (progressive passing): none, or one to six."""
    async def chosen(event: ft.Event[ft.Dropdown]) -> None:
        choose(int(event.control.value or 0))

    options = [("0", tr("None: nothing on offer"))] + [(str(count), dice_words(count)) for count in range(1, 7)]
    return labelled_dropdown(tr("Dice left to pass"), str(passed), options, chosen, key="points-passed", width=260)


def entry_switch(table: TableState, state: GameState) -> ft.Control:
    """"Enter dice instead" / "Enter points instead", offered at a turn's start."""
    to_points = not state.points_only
    text = tr("Enter points instead") if to_points else tr("Enter dice instead")

    async def switch() -> None:
        await table.act(lambda game: game.switch_entry(to_points))

    return ft.TextButton(text, icon=ft.Icons.SWAP_HORIZ, on_click=on(switch), height=MIN_TARGET,
                         key="enter-points" if to_points else "enter-dice")
