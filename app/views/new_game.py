"""New game: players in seat order, who starts, a preset with every option adjustable."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import flet as ft

from app.views.widgets import big_button, icon_button, labelled_dropdown, notice_banner, on, on_value, section
from engine import MAX_PLAYERS, MIN_PLAYERS, N_OF_A_KIND_MODELS, PRESET_NAMES, FarkleError, Rules

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["NewGameScreen"]

_NUMBER_FIELDS = {
    "target": "Target",
    "entry_threshold": "Points to get on the board",
    "three_ones": "Three 1s",
    "straight": "Straight (empty: off)",
    "three_pairs": "Three pairs (empty: off)",
    "two_triplets": "Two triplets (empty: off)",
    "four_kind_with_pair": "Four of a kind + pair (empty: off)",
}
_SWITCHES = {
    "must_roll_after_hot_dice": "Must roll after hot dice",
    "progressive": "Progressive: pass dice and points on",
    "steal": "Steal: take over a farkled turn's points",
}
_N_OF_A_KIND_TEXT = {
    "fixed": "1,000 / 2,000 / 3,000",
    "double": "Triple x2 / x4 / x8",
    "multiply": "Triple x2 / x3 / x4",
    "none": "None (extra 1s, 5s singly)",
}


class NewGameScreen:
    """The form's values live here between taps, so nothing typed is lost on a redraw."""

    def __init__(self, app: FarkleApp, players: list[str] | None = None, rules: Rules | None = None) -> None:
        self.app = app
        self.players: list[str] = list(players) if players else ["", ""]
        self.first = 0
        self.error: str | None = None
        self.show_options = False
        self.set_rules(rules or Rules.preset("house"))

    def set_rules(self, rules: Rules) -> None:
        self.preset = rules.preset_name or "custom"
        self.values: dict[str, Any] = {
            name: "" if getattr(rules, name) is None else str(getattr(rules, name)) for name in _NUMBER_FIELDS
        }
        self.values.update({name: getattr(rules, name) for name in _SWITCHES})
        self.values["n_of_a_kind"] = rules.n_of_a_kind
        self.values["triple_farkle_penalty"] = str(rules.triple_farkle_penalty)

    def rules(self) -> Rules:
        """The rules as entered; a field that is not a number is refused by name."""
        base = Rules.preset(self.preset) if self.preset in PRESET_NAMES else Rules()
        changes: dict[str, Any] = {}
        for name, label in _NUMBER_FIELDS.items():
            text = str(self.values[name]).replace(",", "").replace(" ", "")
            if not text and name not in ("target", "entry_threshold", "three_ones"):
                changes[name] = None
                continue
            if not text.isdigit():
                raise FarkleError(f"{label.split(' (')[0]}: {self.values[name]!r} is not a whole number.")
            changes[name] = int(text)
        changes["triple_farkle_penalty"] = int(self.values["triple_farkle_penalty"])
        changes["n_of_a_kind"] = self.values["n_of_a_kind"]
        changes.update({name: bool(self.values[name]) for name in _SWITCHES})
        return dataclasses.replace(base, **changes)

    # -- handlers --------------------------------------------------------------------

    def name_changed(self, seat: int, value: str) -> None:
        self.players[seat] = value

    async def add_player(self, name: str = "") -> None:
        empty = next((seat for seat, entered in enumerate(self.players) if not entered.strip()), None)
        if name and empty is not None:
            self.players[empty] = name
        elif len(self.players) < MAX_PLAYERS:
            self.players.append(name)
        else:
            self.error = f"A game has at most {MAX_PLAYERS} players."
        await self.app.render()

    async def remove_player(self, seat: int) -> None:
        if len(self.players) > MIN_PLAYERS:
            self.players.pop(seat)
            self.first = min(self.first, len(self.players) - 1)
        await self.app.render()

    async def move_up(self, seat: int) -> None:
        if seat > 0:
            self.players[seat - 1], self.players[seat] = self.players[seat], self.players[seat - 1]
        await self.app.render()

    async def choose_first(self, event: ft.Event[ft.Dropdown]) -> None:
        self.first = int(event.control.value or 0)

    async def choose_preset(self, event: ft.Event[ft.Dropdown]) -> None:
        target = self.values["target"]
        self.set_rules(Rules.preset(event.control.value or "house"))
        self.values["target"] = target
        await self.app.render()

    def value_changed(self, name: str, value: Any) -> None:
        self.values[name] = value
        if name != "target":
            self.preset = "custom"

    async def toggle_options(self) -> None:
        self.show_options = not self.show_options
        await self.app.render()

    async def start(self) -> None:
        names = [name.strip() for name in self.players if name.strip()]
        try:
            rules = self.rules()
            game_id = await self.app.keeper.start_game(names, rules, self.first if self.first < len(names) else 0)
        except FarkleError as refusal:
            self.error = str(refusal)
            await self.app.render()
            return
        await self.app.open_table(game_id)

    # -- rendering -------------------------------------------------------------------

    def build_controls(self, recent: list[str]) -> list[ft.Control]:
        controls: list[ft.Control] = []
        if self.error:
            controls.append(notice_banner([self.error], error=True, key="new-game-error"))
        rows = []
        for seat, name in enumerate(self.players):
            rows.append(
                ft.Row(
                    [
                        ft.TextField(
                            label=f"Player {seat + 1} name",
                            value=name,
                            key=f"player-name-{seat + 1}",
                            on_change=lambda e, s=seat: self.name_changed(s, e.control.value),
                            expand=True,
                            capitalization=ft.TextCapitalization.WORDS,
                        ),
                        icon_button(ft.Icons.ARROW_UPWARD, f"Move player {seat + 1} up",
                                      on_click=on(self.move_up, seat), disabled=seat == 0),
                        icon_button(ft.Icons.DELETE_OUTLINE, f"Remove player {seat + 1}",
                                      on_click=on(self.remove_player, seat),
                                      disabled=len(self.players) <= MIN_PLAYERS),
                    ]
                )
            )
        entered = {name.strip().casefold() for name in self.players}
        offered = [name for name in recent if name.casefold() not in entered][:10]
        controls.append(section("Players in seat order", *rows))
        controls.append(
            ft.Row(
                [big_button("Add player", on(self.add_player), filled=False, key="add-player",
                            disabled=len(self.players) >= MAX_PLAYERS)]
                + [ft.TextButton(f"+ {name}", on_click=on(self.add_player, name),
                                 tooltip=f"Add {name}") for name in offered],
                wrap=True,
            )
        )
        controls.append(
            labelled_dropdown(
                "Who starts",
                str(self.first),
                [(str(seat), name or f"Player {seat + 1}") for seat, name in enumerate(self.players)],
                self.choose_first,
                key="first-player",
                width=260,
            )
        )
        preset_options = [(name, name.capitalize()) for name in PRESET_NAMES]
        if self.preset == "custom":
            preset_options.append(("custom", "Custom"))
        controls.append(
            ft.Row(
                [
                    labelled_dropdown("Rules", self.preset, preset_options, self.choose_preset, key="preset",
                                      width=180),
                    self.number_field("target", width=140),
                ],
                wrap=True,
            )
        )
        try:
            controls.append(ft.Text(self.rules().describe(), size=12, color=ft.Colors.ON_SURFACE_VARIANT))
        except FarkleError as problem:
            controls.append(ft.Text(str(problem), color=ft.Colors.ERROR))
        controls.append(
            ft.TextButton("Hide rule options" if self.show_options else "Adjust rule options",
                          on_click=on(self.toggle_options), key="rule-options")
        )
        if self.show_options:
            controls += self.option_controls()
        controls.append(big_button("Start game", on(self.start), key="start-game"))
        return controls

    def number_field(self, name: str, width: int | None = None) -> ft.Control:
        return ft.TextField(
            label=_NUMBER_FIELDS[name],
            value=self.values[name],
            key=f"rule-{name}",
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=lambda e: self.value_changed(name, e.control.value),
            on_blur=on(self.app.render),
            width=width,
        )

    def option_controls(self) -> list[ft.Control]:
        return [
            *(self.number_field(name) for name in _NUMBER_FIELDS if name != "target"),
            labelled_dropdown(
                "Four, five, six of a kind",
                self.values["n_of_a_kind"],
                [(model, _N_OF_A_KIND_TEXT[model]) for model in N_OF_A_KIND_MODELS],
                on_value(self.option_chosen, "n_of_a_kind"),
                key="rule-n_of_a_kind",
            ),
            labelled_dropdown(
                "Three farkles in a row",
                self.values["triple_farkle_penalty"],
                [(str(points), f"-{points:,}" if points else "No penalty") for points in (0, 500, 1000)],
                on_value(self.option_chosen, "triple_farkle_penalty"),
                key="rule-triple_farkle_penalty",
            ),
            *(
                ft.Switch(label=label, value=bool(self.values[name]), key=f"rule-{name}",
                          on_change=on_value(self.option_chosen, name))
                for name, label in _SWITCHES.items()
            ),
        ]

    async def option_chosen(self, name: str, value: Any) -> None:
        self.value_changed(name, value)
        await self.app.render()
