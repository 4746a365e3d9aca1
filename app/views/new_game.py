"""New game: players in seat order, who starts, a preset with every option adjustable.

:class:`NewGameState` holds the form as typed (names, number fields as text, switches)
and turns it into the engine's :class:`~engine.Rules` only when asked, so a half-typed
entry is never lost and is refused by name. ``/new/<game id>`` starts the form with that
game's players and rules (a rematch).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from app.context import use_model, use_services
from app.event.number_entry import parse_number
from app.table.scorekeeper import Scorekeeper
from app.storage import StorageFullError, StoreError
from app.storage.errors import failure_in_words
from app.i18n import local_number, tr, tr_words, translatable
from app.views.widgets import (
    MIN_TARGET,
    big_button,
    icon_button,
    labelled_dropdown,
    notice_banner,
    on,
    preset_label,
    screen_view,
    section,
)
from engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_OF_A_KIND_MODELS,
    NAME_LONGEST,
    PRESET_NAMES,
    FarkleError,
    InvalidInput,
    Rules,
    table_names,
)
from engine.names import short_forms
from engine.rules import END_RULES

__all__ = ["NewGameScreen", "NewGameState", "NAME_LONGEST"]

RECENT_OFFERED = 10

NUMBER_FIELDS = {
    "target": translatable("Target"),
    "entry_threshold": translatable("Points to get on the board"),
    "minimum_bank": translatable("Minimum bank once on the board"),
    "three_ones": translatable("Three 1s"),
    "straight": translatable("Straight"),
    "three_pairs": translatable("Three pairs"),
    "two_triplets": translatable("Two triplets"),
    "four_kind_with_pair": translatable("Four of a kind + pair"),
}
REQUIRED_NUMBERS = ("target", "entry_threshold", "minimum_bank", "three_ones")
SWITCHES = {
    "must_roll_after_hot_dice": translatable("Must roll after hot dice"),
    "progressive": translatable("Progressive: pass dice and points on"),
    "steal": translatable("Steal: take over a farkled turn's points"),
}
N_OF_A_KIND_TEXT = {
    "fixed": "1,000 / 2,000 / 3,000",
    "double": translatable("Triple x2 / x4 / x8"),
    "multiply": translatable("Triple x2 / x3 / x4"),
    "none": translatable("None (extra 1s, 5s singly)"),
}
PENALTIES = (0, 500, 1000)
LOWEST_TOTAL = translatable("Lowest total (empty: no limit)")
END_RULE_TEXT = {
    "final_round": translatable("Final round for the others"),
    "first_to_target": translatable("First to reach it wins"),
}

def _label(name: str) -> str:
    return tr(NUMBER_FIELDS[name])


def _lowest_total(text: str) -> int | None:
    """The lowest total as typed: a whole number with or without a minus sign (the rules
    refuse one above 0, saying why), or None for no limit when left empty."""
    typed = text.strip()
    if not typed:
        return None
    if typed[0] not in "-\N{MINUS SIGN}":
        return parse_number(tr("Lowest total"), typed)
    return -parse_number(tr("Lowest total below 0"), typed[1:])


@dataclass
class NewGameState(ft.Observable):
    """The form as typed; no controls. ``refusal`` is the one message shown above it."""

    keeper: Scorekeeper
    players: list[str] = field(default_factory=lambda: ["", ""])
    first: int = 0
    """The seat (row) of the player who starts."""
    preset: str = "house"
    numbers: dict[str, str] = field(default_factory=dict)
    switches: dict[str, bool] = field(default_factory=dict)
    n_of_a_kind: str = "fixed"
    penalty: str = "0"
    lowest_total: str = "0"
    """As typed: 0, a total below 0 (-2,500), or empty for no limit."""
    end_rule: str = "final_round"
    points_only: bool = False
    """Each turn entered as its bank or a farkle instead of die by die."""
    show_options: bool = False
    refusal: str | None = None
    recent: list[str] = field(default_factory=list)
    rematch: str | None = None
    """The players of the game this form replays, once it is read."""
    starting: bool = False

    def __post_init__(self) -> None:
        if not self.numbers:
            self.set_rules(Rules.preset(self.preset if self.preset in PRESET_NAMES else "house"))

    def set_rules(self, rules: Rules) -> None:
        self.preset = rules.preset_name or "custom"
        self.numbers = {name: "" if getattr(rules, name) is None else str(getattr(rules, name))
                        for name in NUMBER_FIELDS}
        self.switches = {name: bool(getattr(rules, name)) for name in SWITCHES}
        self.n_of_a_kind = rules.n_of_a_kind
        self.penalty = str(rules.triple_farkle_penalty)
        self.lowest_total = "" if rules.lowest_total is None else str(rules.lowest_total)
        self.end_rule = rules.end_rule

    def rules(self) -> Rules:
        """The rules as entered; a field that is not a sane whole number is refused by name."""
        base = Rules.preset(self.preset) if self.preset in PRESET_NAMES else Rules()
        changes: dict[str, Any] = {
            name: parse_number(_label(name), self.numbers.get(name, ""), optional=name not in REQUIRED_NUMBERS)
            for name in NUMBER_FIELDS
        }
        if self.n_of_a_kind not in N_OF_A_KIND_MODELS:
            raise InvalidInput(tr("Four, five, six of a kind: {value!r} is not one of the choices.",
                                  value=self.n_of_a_kind))
        if self.penalty not in {str(points) for points in PENALTIES}:
            raise InvalidInput(tr("Three farkles in a row: {value!r} is not one of the choices.", value=self.penalty))
        if self.end_rule not in END_RULES:
            raise InvalidInput(tr("When someone reaches the target: {value!r} is not one of the choices.",
                                  value=self.end_rule))
        changes.update(n_of_a_kind=self.n_of_a_kind, triple_farkle_penalty=int(self.penalty),
                       lowest_total=_lowest_total(self.lowest_total), end_rule=self.end_rule)
        changes.update({name: bool(self.switches.get(name)) for name in SWITCHES})
        return dataclasses.replace(base, **changes)

    def names(self) -> list[str]:
        """The names entered, in seat order, empty rows left out."""
        return [name.strip() for name in self.players if name.strip()]

    def first_named(self) -> int:
        """Who starts, counted among the names entered (the first of them if that row is empty)."""
        if not 0 <= self.first < len(self.players) or not self.players[self.first].strip():
            return 0
        return sum(1 for name in self.players[:self.first] if name.strip())

    def offered(self) -> list[str]:
        """Recent players not on the form yet, to add with one tap."""
        entered = {name.strip().casefold() for name in self.players}
        return [name for name in self.recent if name.casefold() not in entered][:RECENT_OFFERED]

    # -- loading ---------------------------------------------------------------------

    async def load(self, game_id: str = "") -> None:
        """Read the recent names; for a rematch, that game's players and rules."""
        try:
            self.recent = await self.keeper.recent_names()
        except StoreError:
            self.recent = []
        if not game_id:
            return
        try:
            game = await self.keeper.open_game(game_id)
        except (StoreError, FarkleError) as problem:
            self.refusal = tr("The game {game_id!r} cannot be read ({problem}): enter the players and rules.",
                              game_id=game_id, problem=problem)
            return
        if game is None:
            self.refusal = tr("There is no readable game {game_id!r} on this device: enter the players and rules.",
                              game_id=game_id)
            return
        self.players, self.first = list(game.players), 0
        self.set_rules(game.rules)
        self.points_only = game.points_only
        self.rematch = ", ".join(game.players)

    # -- entries -----------------------------------------------------------------------

    def rename(self, seat: int, value: str) -> None:
        """A name typed; one longer than :data:`NAME_LONGEST` is cut, with a message."""
        if not 0 <= seat < len(self.players):
            return
        self.refusal = None
        if len(value) > NAME_LONGEST:
            value = value[:NAME_LONGEST]
            self.refusal = tr("A name has at most {longest} characters: player {number}'s is cut to {name!r}.",
                              longest=NAME_LONGEST, number=seat + 1, name=value.strip())
        self.players[seat] = value

    def add_player(self, name: str = "") -> None:
        """A new row (or ``name`` in the first empty one), up to the most a game seats."""
        self.refusal = None
        empty = next((seat for seat, entered in enumerate(self.players) if not entered.strip()), None)
        if name and empty is not None:
            self.players[empty] = name[:NAME_LONGEST]
        elif len(self.players) < MAX_PLAYERS:
            self.players.append(name[:NAME_LONGEST])
        else:
            self.refusal = tr("A game has at most {most} players.", most=MAX_PLAYERS)

    def remove_player(self, seat: int) -> None:
        self.refusal = None
        if len(self.players) <= MIN_PLAYERS or not 0 <= seat < len(self.players):
            return
        self.players.pop(seat)
        if self.first == seat:
            self.first = 0
        elif self.first > seat:
            self.first -= 1

    def move_up(self, seat: int) -> None:
        """Swap a player with the one above; who starts stays the same person."""
        self.refusal = None
        if not 0 < seat < len(self.players):
            return
        self.players[seat - 1], self.players[seat] = self.players[seat], self.players[seat - 1]
        if self.first == seat:
            self.first = seat - 1
        elif self.first == seat - 1:
            self.first = seat

    def choose_first(self, value: str) -> None:
        self.refusal = None
        if value.isascii() and value.isdigit() and int(value) < len(self.players):
            self.first = int(value)

    def choose_preset(self, name: str) -> None:
        """A preset's rules, keeping the target typed."""
        self.refusal = None
        if name not in PRESET_NAMES:
            return
        target = self.numbers.get("target", "")
        self.set_rules(Rules.preset(name))
        self.numbers["target"] = target

    def set_number(self, name: str, text: str) -> None:
        self.refusal = None
        if name not in NUMBER_FIELDS:
            return
        self.numbers[name] = text
        if name != "target":
            self.preset = "custom"

    def set_switch(self, name: str, value: bool) -> None:
        self.refusal = None
        if name in SWITCHES:
            self.switches[name] = value
            self.preset = "custom"

    def choose_n_of_a_kind(self, value: str) -> None:
        self.refusal = None
        self.n_of_a_kind, self.preset = value, "custom"

    def choose_penalty(self, value: str) -> None:
        self.refusal = None
        self.penalty, self.preset = value, "custom"

    def set_lowest_total(self, text: str) -> None:
        self.refusal = None
        self.lowest_total, self.preset = text, "custom"

    def choose_end_rule(self, value: str) -> None:
        self.refusal = None
        self.end_rule, self.preset = value, "custom"

    def set_points_only(self, value: bool) -> None:
        self.points_only = value

    def toggle_options(self) -> None:
        self.show_options = not self.show_options

    # -- starting ----------------------------------------------------------------------

    async def start(self) -> str | None:
        """Start and store the game; its id, or None with the reason in ``refusal`` (the form kept)."""
        if self.starting:
            return None
        try:
            rules = self.rules()
        except FarkleError as refusal:
            self.refusal = tr_words(refusal.words)
            return None
        before = self.keeper.game_id
        self.starting, self.refusal = True, None
        try:
            names = table_names(self.names())
            return await self.keeper.start_game(names, rules, self.first_named(), points_only=self.points_only)
        except FarkleError as refusal:
            self.refusal = tr_words(refusal.words)
        except StoreError as failure:
            if self.keeper.game_id not in (None, before):
                return self.keeper.game_id  # the game is kept; only the recent names were not
            if isinstance(failure, StorageFullError):
                self.refusal = tr("The game was not started: {reason}",
                                  reason=failure_in_words(failure, tr("start again")))
            else:
                self.refusal = tr("The game was not started: it could not be saved ({failure}).", failure=failure)
        finally:
            self.starting = False
        return None


Handler = Callable[[Any], Coroutine[Any, Any, None]]


@ft.component
def NewGameScreen(game_id: str = "") -> ft.View:
    services = use_services()
    form = use_model(lambda: NewGameState(services.keeper))

    async def load() -> None:
        await form.load(game_id)

    ft.on_mounted(load)

    async def start() -> None:
        started = await form.start()
        if started:
            await services.navigate(f"/game/{started}")

    def renamed(seat: int) -> Handler:
        async def handler(event: ft.Event[ft.TextField]) -> None:
            form.rename(seat, event.control.value or "")
        return handler

    def number_typed(name: str) -> Handler:
        async def handler(event: ft.Event[ft.TextField]) -> None:
            form.set_number(name, event.control.value or "")
        return handler

    async def points_only_switched(event: ft.Event[ft.Switch]) -> None:
        form.set_points_only(bool(event.control.value))

    async def typed_lowest_total(event: ft.Event[ft.TextField]) -> None:
        form.set_lowest_total(event.control.value or "")

    def switched(name: str) -> Handler:
        async def handler(event: ft.Event[ft.Switch]) -> None:
            form.set_switch(name, bool(event.control.value))
        return handler

    def chosen(action: Callable[[str], None]) -> Handler:
        async def handler(event: ft.Event[ft.Dropdown]) -> None:
            action(event.control.value or "")
        return handler

    def number_field(name: str, width: int | None = None) -> ft.Control:
        return ft.TextField(
            label=_label(name) if name in REQUIRED_NUMBERS else tr("{label} (empty: off)", label=_label(name)),
            value=form.numbers.get(name, ""),
            key=f"rule-{name}",
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=number_typed(name),
            width=width,
        )

    controls: list[ft.Control] = []
    if form.refusal:
        controls.append(notice_banner([form.refusal], error=True, key="new-game-error"))
    if form.rematch:
        controls.append(ft.Text(tr("Rematch of {game}: same players and rules.", game=form.rematch),
                                key="rematch-note"))
    rows = [
        ft.Row([
            ft.TextField(
                label=tr("Player {number} name", number=seat + 1),
                value=name,
                key=f"player-name-{seat + 1}",
                on_change=renamed(seat),
                expand=True,
                capitalization=ft.TextCapitalization.WORDS,
            ),
            icon_button(ft.Icons.ARROW_UPWARD, tr("Move player {number} up", number=seat + 1),
                        on(form.move_up, seat), disabled=seat == 0, key=f"move-up-{seat + 1}"),
            icon_button(ft.Icons.DELETE_OUTLINE, tr("Remove player {number}", number=seat + 1),
                        on(form.remove_player, seat),
                        disabled=len(form.players) <= MIN_PLAYERS, key=f"remove-player-{seat + 1}"),
        ])
        for seat, name in enumerate(form.players)
    ]
    controls.append(section(tr("Players in seat order"), *rows))
    controls.append(ft.Row(
        [big_button(tr("Add player"), on(form.add_player), filled=False, key="add-player",
                    disabled=len(form.players) >= MAX_PLAYERS)]
        + [ft.TextButton(f"+ {name}", on_click=on(form.add_player, name), tooltip=tr("Add {name}", name=name),
                         key=f"recent-{index}", height=MIN_TARGET)
           for index, name in enumerate(form.offered())],
        wrap=True,
    ))
    shown = short_forms([name.strip() for name in form.players])  # as the table will name them: the box is narrow
    controls.append(labelled_dropdown(
        tr("Who starts"), str(form.first),
        [(str(seat), name or tr("Player {number}", number=seat + 1)) for seat, name in enumerate(shown)],
        chosen(form.choose_first), key="first-player", width=260,
    ))
    presets = [(name, preset_label(name)) for name in PRESET_NAMES]
    if form.preset == "custom":
        presets.append(("custom", tr("Custom")))
    controls.append(ft.Row(
        [labelled_dropdown(tr("Rules"), form.preset, presets, chosen(form.choose_preset), key="preset", width=180),
         number_field("target", width=140)],
        wrap=True,
    ))
    try:
        controls.append(ft.Text(tr_words(form.rules().describe()), size=12, color=ft.Colors.ON_SURFACE_VARIANT,
                                key="rules-summary"))
    except FarkleError as problem:
        controls.append(ft.Text(tr_words(problem.words), color=ft.Colors.ERROR, key="rules-summary"))
    controls.append(ft.TextButton(tr("Hide rule options") if form.show_options else tr("Adjust rule options"),
                                  on_click=on(form.toggle_options), key="rule-options", height=MIN_TARGET))
    if form.show_options:
        controls += [number_field(name) for name in NUMBER_FIELDS if name != "target"]
        controls += [
            labelled_dropdown(tr("Four, five, six of a kind"), form.n_of_a_kind,
                              [(model, tr(N_OF_A_KIND_TEXT[model])) for model in N_OF_A_KIND_MODELS],
                              chosen(form.choose_n_of_a_kind), key="rule-n_of_a_kind"),
            labelled_dropdown(tr("Three farkles in a row"), form.penalty,
                              [(str(points), f"-{local_number(points)}" if points else tr("No penalty"))
                               for points in PENALTIES],
                              chosen(form.choose_penalty), key="rule-triple_farkle_penalty"),
            ft.TextField(label=tr(LOWEST_TOTAL), value=form.lowest_total, key="rule-lowest_total",
                         keyboard_type=ft.KeyboardType.NUMBER, on_change=typed_lowest_total),
            labelled_dropdown(tr("When someone reaches the target"), form.end_rule,
                              [(rule, tr(END_RULE_TEXT[rule])) for rule in END_RULES],
                              chosen(form.choose_end_rule), key="rule-end_rule"),
        ]
        controls += [ft.Switch(label=tr(label), value=form.switches.get(name, False), key=f"rule-{name}",
                               on_change=switched(name))
                     for name, label in SWITCHES.items()]
    controls.append(ft.Switch(label=tr("Points only"), value=form.points_only, key="points-only",
                              on_change=points_only_switched, height=MIN_TARGET))
    controls.append(ft.Text(tr("Each turn entered as its bank or a farkle, not die by die."), size=12,
                            color=ft.Colors.ON_SURFACE_VARIANT, key="points-only-note"))
    controls.append(big_button(tr("Start game"), on(start), key="start-game", disabled=form.starting))
    lookup = icon_button(ft.Icons.CALCULATE, tr("Score lookup"), on(services.navigate, "/lookup"),
                         key="new-game-lookup")
    route = f"/new/{game_id}" if game_id else "/new"
    return screen_view(route, tr("New game"), controls, actions=[lookup], on_home=on(services.navigate, "/"))
