"""Quick score lookup: what is this throw worth under these rules, and the farkle odds."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from app.views.widgets import big_button, die_button, labelled_dropdown, on, section
from engine import PRESET_NAMES, Rules, farkle_chance, format_dice, scoring_chart, scoring_options

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["LookupScreen"]


class LookupScreen:
    """Dice tapped in, every keep option with its breakdown, and the odds, under any preset."""

    def __init__(self, app: FarkleApp) -> None:
        self.app = app
        self.dice: list[int] = []
        self.preset = "house"

    @property
    def rules(self) -> Rules:
        game = self.app.keeper.game
        if self.preset == "current" and game is not None:
            return game.rules
        return Rules.preset(self.preset if self.preset != "current" else "house")

    async def add(self, face: int) -> None:
        if len(self.dice) < 6:
            self.dice.append(face)
        await self.app.render()

    async def remove(self, position: int) -> None:
        self.dice.pop(position)
        await self.app.render()

    async def clear(self) -> None:
        self.dice = []
        await self.app.render()

    async def choose_rules(self, event: ft.Event[ft.Dropdown]) -> None:
        self.preset = event.control.value or "house"
        await self.app.render()

    async def on_key(self, key: str) -> None:
        if key in {"1", "2", "3", "4", "5", "6"}:
            await self.add(int(key))
        elif key == "Backspace" and self.dice:
            await self.remove(len(self.dice) - 1)
        elif key == "Escape":
            await self.clear()

    def build_controls(self) -> list[ft.Control]:
        rules = self.rules
        choices = [(name, name.capitalize()) for name in PRESET_NAMES]
        if self.app.keeper.game is not None:
            choices.insert(0, ("current", "This game's rules"))
        controls: list[ft.Control] = [
            labelled_dropdown("Rules", self.preset, choices, self.choose_rules, key="lookup-rules", width=260),
            ft.Text(rules.describe(), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Text("Tap up to six dice", size=16),
            ft.Row(
                [die_button(face, f"Add {face}", on(self.add, face), key=f"lookup-face-{face}")
                 for face in range(1, 7)],
                spacing=8,
                wrap=True,
            ),
            ft.Row(
                [die_button(face, f"Remove {face}", on(self.remove, i), size=40)
                 for i, face in enumerate(self.dice)]
                + [big_button("Clear", on(self.clear), filled=False, key="lookup-clear")],
                spacing=6,
                wrap=True,
            ),
        ]
        if self.dice:
            controls += self.result(rules)
        controls.append(odds_table(rules))
        controls.append(section("Scoring chart", *[
            ft.Row([ft.Text(line.combination, expand=True), ft.Text(line.points, weight=ft.FontWeight.BOLD)])
            for line in scoring_chart(rules)
        ]))
        return controls

    def result(self, rules: Rules) -> list[ft.Control]:
        options = scoring_options(self.dice, rules)
        chance = farkle_chance(len(self.dice), rules)
        odds = f"Chance of a farkle with {len(self.dice)} {'die' if len(self.dice) == 1 else 'dice'}: {float(chance):.2%}"
        if not options:
            return [
                ft.Text(f"{format_dice(sorted(self.dice))}: Farkle! Nothing scores.", size=20,
                        weight=ft.FontWeight.BOLD, key="lookup-best"),
                ft.Text(odds),
            ]
        best = options[0]
        lines = [
            ft.Text(
                f"{option.points:,} · keep {format_dice(option.keep)} · {option.breakdown}"
                + (" · hot dice" if option.hot_dice else f" · {option.dice_left} left"),
            )
            for option in options
        ]
        return [
            ft.Text(f"Best: {best.points:,}", size=24, weight=ft.FontWeight.BOLD, key="lookup-best"),
            ft.Text(best.breakdown, size=16),
            ft.Text(odds),
            section(f"All {len(options)} ways to set dice aside", *lines),
        ]


def odds_table(rules: Rules) -> ft.Control:
    rows = [
        ft.Row([ft.Text(f"{n} {'die' if n == 1 else 'dice'}", expand=True),
                ft.Text(f"{float(farkle_chance(n, rules)):.2%}", weight=ft.FontWeight.BOLD)])
        for n in range(1, 7)
    ]
    return section("Chance of a farkle", *rows)
