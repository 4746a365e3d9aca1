"""Quick score lookup: what is this throw worth under these rules, and the farkle odds.

Opened from a game (``/lookup/<game id>``) it starts on that game's rules and offers
the way back to the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flet as ft

from app.context import use_keys, use_model, use_services
from app.views.widgets import big_button, die_button, icon_button, labelled_dropdown, on, screen_view, section
from engine import PRESET_NAMES, Rules, farkle_chance, format_dice, scoring_chart, scoring_options

__all__ = ["LookupScreen", "LookupState"]

GAME_RULES = "game"
MOST_DICE = 6


@dataclass
class LookupState(ft.Observable):
    """The dice tapped in and the rules chosen; the figures are the engine's, from these."""

    dice: list[int] = field(default_factory=list)
    preset: str = "house"
    game_rules: Rules | None = None
    refusal: str | None = None

    @property
    def rules(self) -> Rules:
        if self.preset == GAME_RULES and self.game_rules is not None:
            return self.game_rules
        return Rules.preset(self.preset if self.preset in PRESET_NAMES else "house")

    def add(self, face: int) -> None:
        if len(self.dice) >= MOST_DICE:
            self.refusal = f"A throw has at most six dice: {format_dice(self.dice)} is full. Tap a die to take it out."
            return
        self.refusal = None
        self.dice.append(face)

    def remove(self, position: int) -> None:
        self.refusal = None
        if 0 <= position < len(self.dice):
            self.dice.pop(position)

    def clear(self) -> None:
        self.refusal = None
        self.dice.clear()

    def choose(self, preset: str) -> None:
        self.preset = preset

    def use_game(self, rules: Rules) -> None:
        self.game_rules, self.preset = rules, GAME_RULES

    async def on_key(self, key: str) -> None:
        if key in {"1", "2", "3", "4", "5", "6"}:
            self.add(int(key))
        elif key == "Backspace" and self.dice:
            self.remove(len(self.dice) - 1)
        elif key == "Escape":
            self.clear()
        elif len(key) == 1 and (key.isalnum()):
            self.refusal = f"{key} is not a die face: type 1 to 6, Backspace to take one out, Escape to clear."


@ft.component
def LookupScreen(game_id: str = "") -> ft.View:
    services = use_services()
    lookup = use_model(LookupState)
    use_keys(lookup.on_key)

    async def load_game_rules() -> None:
        if game_id:
            game = await services.keeper.open_game(game_id)
            if game is not None:
                lookup.use_game(game.rules)

    ft.on_mounted(load_game_rules)

    async def choose_rules(event: ft.Event[ft.Dropdown]) -> None:
        lookup.choose(event.control.value or "house")

    rules = lookup.rules
    choices = [(name, name.capitalize()) for name in PRESET_NAMES]
    if lookup.game_rules is not None:
        choices.insert(0, (GAME_RULES, "This game's rules"))
    controls: list[ft.Control] = [
        ft.Container(  # room above the field for its floating label, which the scrolling area would cut
            labelled_dropdown("Rules", lookup.preset, choices, choose_rules, key="lookup-rules", width=300),
            padding=ft.Padding.only(top=8),
        ),
        ft.Text(rules.describe(), size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text("Tap up to six dice", size=16),
        ft.Row(
            [die_button(face, f"Add {face}", on(lookup.add, face), key=f"lookup-face-{face}")
             for face in range(1, 7)],
            spacing=8,
            wrap=True,
        ),
        ft.Row(
            [die_button(face, f"Remove {face}", on(lookup.remove, i), size=48, key=f"lookup-die-{i}")
             for i, face in enumerate(lookup.dice)]
            + [big_button("Clear", on(lookup.clear), filled=False, key="lookup-clear")],
            spacing=6,
            wrap=True,
        ),
    ]
    if lookup.refusal:
        controls.append(ft.Text(lookup.refusal, color=ft.Colors.ERROR, size=16, key="lookup-refusal"))
    if lookup.dice:
        controls += result(lookup.dice, rules)
    controls.append(odds_table(rules))
    controls.append(section("Scoring chart", *[
        ft.Row([ft.Text(line.combination, expand=True), ft.Text(line.points, weight=ft.FontWeight.BOLD)])
        for line in scoring_chart(rules)
    ]))
    back = (icon_button(ft.Icons.ARROW_BACK, "Back to the game", on(services.navigate, f"/game/{game_id}"),
                        key="back-to-game") if game_id else None)
    return screen_view("/lookup", "Score lookup", controls, on_home=on(services.navigate, "/"),
                       actions=[back] if back else [])


def result(dice: list[int], rules: Rules) -> list[ft.Control]:
    options = scoring_options(dice, rules)
    count = len(dice)
    chance = farkle_chance(count, rules)
    odds = f"Chance of a farkle with {count} {'die' if count == 1 else 'dice'}: {float(chance):.2%}"
    if not options:
        return [
            ft.Text(f"{format_dice(sorted(dice))}: Farkle! Nothing scores.", size=20,
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
    ways = "The one way" if len(options) == 1 else f"All {len(options)} ways"
    return [
        ft.Text(f"Best: {best.points:,}", size=24, weight=ft.FontWeight.BOLD, key="lookup-best"),
        ft.Text(best.breakdown, size=16),
        ft.Text(odds),
        section(f"{ways} to set dice aside", *lines),
    ]


def odds_table(rules: Rules) -> ft.Control:
    rows = [
        ft.Row([ft.Text(f"{n} {'die' if n == 1 else 'dice'}", expand=True),
                ft.Text(f"{float(farkle_chance(n, rules)):.2%}", weight=ft.FontWeight.BOLD)])
        for n in range(1, 7)
    ]
    return section("Chance of a farkle", *rows)
