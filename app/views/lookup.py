"""Quick score lookup: what is this throw worth under these rules, the farkle odds, and
"Roll or bank?": the engine's advice for a turn total and the dice left (or the throw tapped in),
on the board or not, and under a three-farkle penalty the farkles in a row before this turn.

Opened from a game (``/lookup/<game id>``) it starts on that game's rules and offers
the way back to the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flet as ft

from app.table.table_advice import prepare_advice
from app.context import use_keys, use_model, use_services
from app.event.number_entry import parse_number
from app.views.widgets import (big_button, die_button, icon_button, labelled_dropdown, on, preset_label,
                               screen_view, section)
from app.i18n import ntr, tr, tr_words
from engine import (
    PRESET_NAMES,
    FarkleError,
    Rules,
    best_score,
    farkle_chance,
    format_dice,
    prepared,
    scoring_chart,
    scoring_options,
    throw_advice,
    turn_advice,
)

__all__ = ["LookupScreen", "LookupState"]

GAME_RULES = "game"
MOST_DICE = 6
PLACES = {"on": True, "off": False}
"""The player's place as the "The player is" dropdown names it: on the board or not yet."""
STREAKS = ("0", "1", "2")
"""Farkles in a row before this turn, as the "Farkles in a row" dropdown offers them."""


@dataclass
class LookupState(ft.Observable):
    """The dice tapped in and the rules chosen; the figures are the engine's, from these."""

    dice: list[int] = field(default_factory=list)
    preset: str = "house"
    game_rules: Rules | None = None
    refusal: str | None = None
    held: str = ""
    """"Roll or bank?": the turn total so far, as typed."""
    dice_left: int = MOST_DICE
    on_board: bool = True
    streak: int = 0
    """Farkles in a row before this turn (counted only under a three-farkle penalty)."""
    working: bool = False
    """The advice tables for these rules are being solved."""
    unadvised: str | None = None
    """Why the rules shown get no advice (their tables are too costly to work out)."""

    @property
    def rules(self) -> Rules:
        if self.preset == GAME_RULES and self.game_rules is not None:
            return self.game_rules
        return Rules.preset(self.preset if self.preset in PRESET_NAMES else "house")

    def add(self, face: int) -> None:
        if len(self.dice) >= MOST_DICE:
            self.refusal = tr("A throw has at most six dice: {dice} is full. Tap a die to take it out.",
                              dice=format_dice(self.dice))
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
        """Show ``preset``'s rules (or the game's); a name not offered is refused and the rules stay."""
        if preset not in PRESET_NAMES and not (preset == GAME_RULES and self.game_rules is not None):
            self.refusal = tr("“{preset}” is not a rule set here: pick one from the list.", preset=preset)
            return
        self.refusal = None
        self.preset = preset

    def use_game(self, rules: Rules) -> None:
        self.game_rules, self.preset = rules, GAME_RULES

    def hold(self, text: str) -> None:
        self.held = text

    def leave_dice(self, count: str) -> None:
        """The dice to throw, 1 to 6; anything else is refused and the count stays."""
        if count not in {str(n) for n in range(1, MOST_DICE + 1)}:
            self.refusal = tr("“{count}” is not a number of dice to throw: pick 1 to 6.", count=count)
            return
        self.refusal = None
        self.dice_left = int(count)

    def place(self, on_board: str) -> None:
        """On the board or not yet; anything else is refused and the place stays."""
        if on_board not in PLACES:
            self.refusal = tr("“{place}” is not a place on the board: pick on the board or not on it yet.",
                              place=on_board)
            return
        self.refusal = None
        self.on_board = PLACES[on_board]

    def farkled(self, count: str) -> None:
        """Farkles in a row before this turn, 0 to 2; anything else is refused and the count stays."""
        if count not in STREAKS:
            self.refusal = tr("“{count}” is not a number of farkles in a row: pick 0, 1 or 2.", count=count)
            return
        self.refusal = None
        self.streak = int(count)

    async def ready_advice(self) -> None:
        """Solve the advice tables for the rules shown, off the tap path."""
        rules = self.rules
        self.unadvised = None
        if not prepared(rules):
            self.working = True
            try:
                await prepare_advice(rules)
            except FarkleError as why:
                self.unadvised = tr_words(why.words)
            finally:
                self.working = False

    def advice(self) -> tuple[str, bool]:
        """The advice for what is entered, in words, and whether it is a refusal instead.

        The throw tapped in, if any, is the one on the table (which keep?); otherwise the
        question is bank or throw the dice left. An empty turn total is a fresh turn's 0.
        Under a three-farkle penalty the streak counts, the whole penalty at risk."""
        streak = self.streak if self.rules.triple_farkle_penalty else 0
        try:
            points = parse_number(tr("Turn total so far"), self.held, optional=True) or 0
            if self.dice:
                shown = throw_advice(self.rules, points, tuple(self.dice), self.on_board, streak=streak)
            else:
                shown = turn_advice(self.rules, points, self.dice_left, self.on_board, streak=streak)
        except FarkleError as why:
            return tr_words(why.words), True
        return tr_words(shown.describe()), False

    async def on_key(self, key: str) -> None:
        if key in {"1", "2", "3", "4", "5", "6"}:
            self.add(int(key))
        elif key == "Backspace" and self.dice:
            self.remove(len(self.dice) - 1)
        elif key == "Escape":
            self.clear()
        elif len(key) == 1 and (key.isalnum()):
            self.refusal = tr("{key} is not a die face: type 1 to 6, Backspace to take one out, Escape to clear.",
                              key=key)


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
    ft.use_effect(lookup.ready_advice, [lookup.rules])

    async def choose_rules(event: ft.Event[ft.Dropdown]) -> None:
        lookup.choose(event.control.value or "house")

    rules = lookup.rules
    choices = [(name, preset_label(name)) for name in PRESET_NAMES]
    if lookup.game_rules is not None:
        choices.insert(0, (GAME_RULES, tr("This game's rules")))
    controls: list[ft.Control] = [
        ft.Container(  # room above the field for its floating label, which the scrolling area would cut
            labelled_dropdown(tr("Rules"), lookup.preset, choices, choose_rules, key="lookup-rules", width=300),
            padding=ft.Padding.only(top=8),
        ),
        ft.Text(tr_words(rules.describe()), size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(tr("Tap up to six dice"), size=16),
        ft.Row(
            [die_button(face, tr("Add {face}", face=face), on(lookup.add, face), key=f"lookup-face-{face}")
             for face in range(1, 7)],
            spacing=8,
            wrap=True,
        ),
        ft.Row(
            [die_button(face, tr("Remove {face}", face=face), on(lookup.remove, i), size=48, key=f"lookup-die-{i}")
             for i, face in enumerate(lookup.dice)]
            + [big_button(tr("Clear"), on(lookup.clear), filled=False, key="lookup-clear")],
            spacing=6,
            wrap=True,
        ),
    ]
    if lookup.refusal:
        controls.append(ft.Text(lookup.refusal, color=ft.Colors.ERROR, size=16, key="lookup-refusal"))
    if lookup.dice:
        controls += result(lookup.dice, rules)
    controls.append(roll_or_bank(lookup))
    controls.append(odds_table(rules))
    controls.append(section(tr("Scoring chart"), *[
        ft.Row([ft.Text(tr_words(line.combination), expand=True), ft.Text(tr_words(line.points), weight=ft.FontWeight.BOLD)])
        for line in scoring_chart(rules)
    ]))
    back = (icon_button(ft.Icons.ARROW_BACK, tr("Back to the game"), on(services.navigate, f"/game/{game_id}"),
                        key="back-to-game") if game_id else None)
    return screen_view("/lookup", tr("Score lookup"), controls, on_home=on(services.navigate, "/"),
                       actions=[back] if back else [])


def result(dice: list[int], rules: Rules) -> list[ft.Control]:
    options = scoring_options(dice, rules)
    count = len(dice)
    chance = farkle_chance(count, rules)
    odds = ntr("Chance of a farkle with {count} die: {chance:.2%}",
               "Chance of a farkle with {count} dice: {chance:.2%}", count, count=count, chance=float(chance))
    if not options:
        return [
            ft.Text(tr("{dice}: Farkle! Nothing scores.", dice=format_dice(sorted(dice))), size=20,
                    weight=ft.FontWeight.BOLD, key="lookup-best"),
            ft.Text(odds),
        ]
    best = options[0]
    lines = [
        ft.Text(
            tr("{points:,} · keep {dice} · {breakdown}",
               points=option.points, dice=format_dice(option.keep), breakdown=option.breakdown)
            + (tr(" · hot dice") if option.hot_dice
               else ntr(" · {count} die left", " · {count} dice left", option.dice_left, count=option.dice_left)),
        )
        for option in options
    ]
    ways = tr("The one way") if len(options) == 1 else tr("All {count} ways", count=len(options))
    return [
        ft.Text(tr("Best: {points:,}", points=best.points), size=24, weight=ft.FontWeight.BOLD, key="lookup-best"),
        ft.Text(tr_words(best.breakdown), size=16),
        ft.Text(odds),
        section(tr("{ways} to set dice aside", ways=ways), *lines),
    ]


def roll_or_bank(lookup: LookupState) -> ft.Control:
    """The turn total and the dice left (or the throw tapped in above), and the advice."""

    async def held_typed(event: ft.Event[ft.TextField]) -> None:
        lookup.hold(event.control.value or "")

    async def dice_chosen(event: ft.Event[ft.Dropdown]) -> None:
        lookup.leave_dice(event.control.value or "")

    async def place_chosen(event: ft.Event[ft.Dropdown]) -> None:
        lookup.place(event.control.value or "")

    async def streak_chosen(event: ft.Event[ft.Dropdown]) -> None:
        lookup.farkled(event.control.value or "")

    throw = lookup.dice and best_score(lookup.dice, lookup.rules) > 0
    controls: list[ft.Control] = [
        ft.Text(tr("With the throw tapped in above: which keep. Without one: bank now, or throw the dice left?")
                if not throw else tr("Which keep of {dice}, thrown with the turn total below?",
                                     dice=format_dice(lookup.dice)),
                size=13),
        ft.TextField(label=tr("Turn total so far"), value=lookup.held, key="lookup-held", width=200,
                     keyboard_type=ft.KeyboardType.NUMBER, on_change=held_typed),
    ]
    if not lookup.dice:
        controls.append(labelled_dropdown(tr("Dice to throw"), str(lookup.dice_left),
                                          [(str(n), ntr("{count} die", "{count} dice", n, count=n))
                                           for n in range(1, 7)],
                                          dice_chosen, key="lookup-dice-left", width=200))
    controls.append(labelled_dropdown(tr("The player is"), "on" if lookup.on_board else "off",
                                      [("on", tr("On the board")), ("off", tr("Not on the board yet"))],
                                      place_chosen, key="lookup-on-board", width=260))
    penalty = lookup.rules.triple_farkle_penalty
    if penalty:
        controls.append(labelled_dropdown(
            tr("Farkles in a row (a third costs {penalty:,})", penalty=penalty), str(lookup.streak),
            [(count, ntr("{count} farkle", "{count} farkles", int(count), count=int(count))) for count in STREAKS],
            streak_chosen, key="lookup-streak", width=300))
    if lookup.dice and not throw:
        controls.append(ft.Text(tr("A farkle has no keep: the turn is over."), key="lookup-advice"))
    elif lookup.unadvised:
        controls.append(ft.Text(lookup.unadvised, key="lookup-advice", color=ft.Colors.ERROR))
    elif lookup.working or not prepared(lookup.rules):
        controls.append(ft.Text(tr("Working out the odds under these rules…"), key="lookup-advice"))
    else:
        words, refused = lookup.advice()
        controls.append(ft.Text(words, key="lookup-advice", size=18, weight=ft.FontWeight.BOLD,
                                color=ft.Colors.ERROR if refused else None))
    return section(tr("Roll or bank?"), *controls)


def odds_table(rules: Rules) -> ft.Control:
    rows = [
        ft.Row([ft.Text(ntr("{count} die", "{count} dice", n, count=n), expand=True),
                ft.Text(tr("{percent:.2f}%", percent=100 * float(farkle_chance(n, rules))), weight=ft.FontWeight.BOLD)])
        for n in range(1, 7)
    ]
    return section(tr("Chance of a farkle"), *rows)
