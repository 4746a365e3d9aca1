"""The table screen: who is where, the throw being entered, what can be set aside.

The screen keeps only what the scorekeeper is in the middle of entering (the faces of
a throw, the dice tapped to set aside); everything else is the engine's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from app.scorekeeper import GameChangedElsewhere
from app.storage import StoreError
from app.views.widgets import FELT, big_button, die_button, notice_banner, on, section
from engine import FarkleError, Game, GameState, format_dice, scoring_dice, scoring_options
from engine.game import bank_refusal

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["TableScreen", "history_controls", "scoreboard"]

_DICE_WORDS = {1: "one die", 2: "two dice", 3: "three dice", 4: "four dice", 5: "five dice", 6: "six dice"}


class TableScreen:
    """The open game's screen and the entry in progress."""

    def __init__(self, app: FarkleApp) -> None:
        self.app = app
        self.entry: list[int] = []
        self.selection: list[int] = []  # positions in the last throw
        self.refusal: str | None = None
        self.roll_off_faces: dict[int, int] = {}

    @property
    def game(self) -> Game:
        game = self.app.keeper.game
        assert game is not None
        return game

    def reset_entry(self) -> None:
        self.entry, self.selection, self.refusal, self.roll_off_faces = [], [], None, {}

    # -- actions ---------------------------------------------------------------------

    async def act(self, action: Any) -> None:
        """Run an engine action through the keeper; a refusal is shown and changes nothing."""
        try:
            await self.app.keeper.act(action)
        except FarkleError as refusal:
            self.refusal = str(refusal)
        except StoreError as failure:
            self.refusal = f"Not saved, so not counted: {failure}"
        except GameChangedElsewhere as changed:
            self.entry, self.selection = [], []
            self.refusal = str(changed)
        else:
            self.reset_entry()
        await self.app.render()

    async def add_face(self, face: int) -> None:
        wanted = self.game.state.dice_to_throw
        if wanted is None:
            return
        if len(self.entry) >= wanted:
            self.refusal = f"{self.player_name()} throws {_DICE_WORDS[wanted]}: {format_dice(self.entry)} is complete."
        else:
            self.entry.append(face)
            self.refusal = None
        await self.app.render()

    async def remove_entry(self, position: int | None = None) -> None:
        if self.entry:
            self.entry.pop(len(self.entry) - 1 if position is None else position)
        self.refusal = None
        await self.app.render()

    async def enter_throw(self) -> None:
        entry = list(self.entry)
        await self.act(lambda game: game.roll(entry))

    async def toggle_die(self, position: int) -> None:
        if position in self.selection:
            self.selection.remove(position)
        else:
            self.selection.append(position)
        self.refusal = None
        await self.app.render()

    async def select_face(self, face: int) -> None:
        """Keyboard: select the next unselected die showing ``face``."""
        throw = self.game.state.last_throw or ()
        for position, shown in enumerate(throw):
            if shown == face and position not in self.selection:
                await self.toggle_die(position)
                return

    async def choose_option(self, keep: tuple[int, ...]) -> None:
        throw = list(self.game.state.last_throw or ())
        self.selection = []
        for face in keep:
            position = next(i for i, shown in enumerate(throw) if shown == face and i not in self.selection)
            self.selection.append(position)
        self.refusal = None
        await self.app.render()

    def kept_dice(self) -> tuple[int, ...]:
        throw = self.game.state.last_throw or ()
        return tuple(sorted(throw[position] for position in self.selection))

    async def keep_and_roll(self) -> None:
        kept = self.kept_dice()
        await self.act(lambda game: game.keep(kept))

    async def keep_and_bank(self) -> None:
        kept = self.kept_dice()

        def keep_then_bank(game: Game) -> None:
            game.keep(kept)
            game.bank()

        await self.act(keep_then_bank)

    async def bank(self) -> None:
        await self.act(lambda game: game.bank())

    async def build(self) -> None:
        await self.act(lambda game: game.build())

    async def undo(self) -> None:
        if self.entry or self.selection:
            self.reset_entry()
            await self.app.render()
            return
        await self.act(lambda game: game.undo())

    async def pick_roll_off(self, seat: int, face: int) -> None:
        self.roll_off_faces[seat] = face
        self.refusal = None
        await self.app.render()

    async def record_roll_off(self) -> None:
        faces = dict(self.roll_off_faces)
        await self.act(lambda game: game.roll_off(faces))

    async def on_key(self, key: str) -> None:
        """Digits enter faces (or pick dice to set aside); Enter confirms; Backspace takes back."""
        phase = self.game.phase
        if key in {"1", "2", "3", "4", "5", "6"}:
            if phase in ("throw", "choose"):
                await self.add_face(int(key))
            elif phase == "keep":
                await self.select_face(int(key))
        elif key == "Backspace":
            if phase == "keep" and self.selection:
                self.selection.pop()
                await self.app.render()
            else:
                await self.remove_entry()
        elif key == "Enter":
            if phase in ("throw", "choose") and len(self.entry) == self.game.state.dice_to_throw:
                await self.enter_throw()
            elif phase == "keep" and self.selection:
                await self.keep_and_roll()
        elif key.upper() == "B" and phase in ("keep", "choose"):
            await (self.keep_and_bank() if phase == "keep" else self.bank())

    # -- rendering -------------------------------------------------------------------

    def player_name(self, seat: int | None = None) -> str:
        state = self.game.state
        return state.players[state.current if seat is None else seat]

    def build_controls(self) -> list[ft.Control]:
        state = self.game.state
        controls: list[ft.Control] = [scoreboard(state)]
        if self.refusal:
            controls.append(notice_banner([self.refusal], error=True, key="refusal"))
        elif state.notices:
            controls.append(notice_banner([notice.text for notice in state.notices]))
        phase = state.phase
        if phase == "over":
            controls.append(self.game_over(state))
        elif phase == "roll_off":
            controls.append(self.roll_off_panel(state))
        else:
            controls.append(turn_line(state))
            if phase == "keep":
                controls.append(self.keep_panel(state))
            else:
                controls.append(self.throw_panel(state))
        return controls

    def throw_panel(self, state: GameState) -> ft.Control:
        wanted = state.dice_to_throw or 0
        name = self.player_name()
        parts: list[ft.Control] = []
        if state.offer and not state.building and state.phase == "throw":
            parts.append(
                ft.Container(
                    ft.Column(
                        [
                            ft.Text(f"On offer to {name}: {state.offer}", size=16, weight=ft.FontWeight.BOLD),
                            ft.Row(
                                [
                                    big_button(f"Build on {state.offer.points:,}", on(self.build),
                                               key="build", expand=True),
                                    ft.Text("or enter six fresh dice below", expand=True),
                                ]
                            ),
                        ]
                    ),
                    bgcolor=ft.Colors.with_opacity(0.12, FELT),
                    padding=10,
                    border_radius=8,
                )
            )
        title = f"Enter {name}'s throw: {_DICE_WORDS[wanted]}"
        entered: list[ft.Control] = [
            die_button(face, f"Entered {face}, tap to remove", on(self.remove_entry, i), size=44)
            for i, face in enumerate(self.entry)
        ]
        entered += [
            ft.Container(width=44, height=44, border_radius=9, border=ft.Border.all(1, ft.Colors.OUTLINE))
            for _ in range(max(0, wanted - len(self.entry)))
        ]
        pad = ft.Row(
            [die_button(face, f"Face {face}", on(self.add_face, face), key=f"face-{face}")
             for face in range(1, 7)],
            spacing=8,
            wrap=True,
        )
        complete = len(self.entry) == wanted
        buttons: list[ft.Control] = [
            big_button("Enter throw", on(self.enter_throw), key="enter-throw",
                       disabled=not complete, expand=True),
            big_button("Clear", on(self.clear_entry), filled=False, key="clear-entry"),
        ]
        parts += [ft.Text(title, size=16), ft.Row(entered, spacing=6), pad, ft.Row(buttons)]
        if self.app.page.platform not in (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS):
            parts.append(ft.Text("Keyboard: 1-6 enter faces, Enter throws, Backspace takes one back; "
                                 "on a throw, 1-6 pick dice to set aside and B banks.",
                                 size=12, color=ft.Colors.ON_SURFACE_VARIANT))
        if state.phase == "choose":
            refusal = bank_refusal(state)
            parts.append(
                ft.Row(
                    [
                        big_button(f"Bank {state.turn_points:,} instead", on(self.bank), key="bank",
                                   filled=False, disabled=refusal is not None, expand=True),
                    ]
                )
            )
            if refusal:
                parts.append(ft.Text(refusal, color=ft.Colors.ON_SURFACE_VARIANT))
        return ft.Column(parts, spacing=10)

    async def clear_entry(self) -> None:
        self.entry, self.refusal = [], None
        await self.app.render()

    def keep_panel(self, state: GameState) -> ft.Control:
        throw = state.last_throw or ()
        rules = state.rules
        scoring = list(scoring_dice(throw, rules))
        dice_controls: list[ft.Control] = []
        for position, face in enumerate(throw):
            chosen = position in self.selection
            scores = face in scoring
            if scores:
                scoring.remove(face)
            label = f"Die {position + 1} shows {face}" + (", set aside" if chosen else "")
            dice_controls.append(
                die_button(face, label, on(self.toggle_die, position), key=f"die-{position}",
                           selected=chosen, dim=not scores and not chosen, size=54)
            )
        kept = self.kept_dice()
        preview: GameState | None = None
        problem = None
        if kept:
            try:
                preview = self.game.preview_keep(kept)
            except FarkleError as refusal:
                problem = str(refusal)
        if preview is not None:
            points = preview.turn_points - state.points_before_throw
            summary = f"Set aside {format_dice(kept)}: {self.game.breakdown(kept)} = {points:,}"
            summary += f" · turn {preview.turn_points:,}"
        elif problem:
            summary = problem
        else:
            summary = "Tap the dice to set aside, or pick an option below."
        left = preview.dice_in_hand if preview else None
        roll_text = (
            "Hot dice! Roll six again" if preview and preview.hot_dice else
            f"Roll {_DICE_WORDS[left]}" if left else "Roll again"
        )
        refusal = bank_refusal(preview) if preview else "Set aside scoring dice first."
        bank_text = f"Bank {preview.turn_points:,}" if preview else "Bank"
        options = scoring_options(throw, rules)
        option_rows = [
            ft.ListTile(
                title=ft.Text(f"{option.points:,}  ·  keep {format_dice(option.keep)}"),
                subtitle=ft.Text(
                    f"{option.breakdown} · "
                    + ("hot dice" if option.hot_dice else f"{_DICE_WORDS[option.dice_left]} left")
                ),
                on_click=on(self.choose_option, option.keep),
                key=f"option-{index}",
                dense=True,
            )
            for index, option in enumerate(options[:8])
        ]
        best = options[0]
        return ft.Column(
            [
                ft.Text(f"{self.player_name()} threw {format_dice(throw)}", size=16),
                ft.Row(dice_controls, spacing=8, wrap=True),
                ft.Text(summary, size=16, weight=ft.FontWeight.W_500, key="keep-preview",
                        color=ft.Colors.ERROR if problem else None),
                ft.Row(
                    [
                        big_button(roll_text, on(self.keep_and_roll), key="roll",
                                   disabled=preview is None, expand=True),
                        big_button(bank_text, on(self.keep_and_bank), key="bank",
                                   disabled=refusal is not None, expand=True),
                    ]
                ),
                ft.Text(refusal or "", color=ft.Colors.ON_SURFACE_VARIANT, key="bank-reason"),
                big_button(f"Best: keep {format_dice(best.keep)} for {best.points:,}",
                           on(self.choose_option, best.keep), filled=False, key="best-option"),
                section("All options", *option_rows),
            ],
            spacing=10,
        )

    def roll_off_panel(self, state: GameState) -> ft.Control:
        rows: list[ft.Control] = [
            ft.Text(
                f"Tie for the win at {state.scores[state.tied[0]]:,}: each tied player throws one die.",
                size=16,
            )
        ]
        for seat in state.tied:
            chosen = self.roll_off_faces.get(seat)
            rows.append(ft.Text(state.players[seat], weight=ft.FontWeight.BOLD))
            rows.append(
                ft.Row(
                    [
                        die_button(face, f"{state.players[seat]} threw {face}",
                                   on(self.pick_roll_off, seat, face), key=f"roll-off-{seat}-{face}",
                                   selected=chosen == face, size=44)
                        for face in range(1, 7)
                    ],
                    spacing=6,
                    wrap=True,
                )
            )
        complete = set(self.roll_off_faces) == set(state.tied)
        rows.append(big_button("Record roll-off", on(self.record_roll_off), key="record-roll-off",
                               disabled=not complete))
        return ft.Column(rows, spacing=8)

    def game_over(self, state: GameState) -> ft.Control:
        assert state.winner is not None
        places = self.game.places
        lines: list[ft.Control] = [
            ft.Text(f"{places[seat]}. {state.players[seat]} {state.scores[seat]:,}", size=18)
            for seat in self.game.standings
        ]
        handover = None
        if self.app.keeper.meta.get("tournament"):  # a tournament table hands its signed result over
            from app.views.tournament_table import result_panel

            handover = result_panel(self.app, self.game)
        buttons = [big_button("Home", on(self.app.navigate, "/"), filled=False, expand=True)]
        if handover is None:
            buttons.insert(0, big_button("Rematch", on(self.app.rematch), key="rematch", expand=True))
        else:
            lines.append(handover)
        return ft.Column(
            [
                ft.Text(f"{state.players[state.winner]} wins!", size=28, weight=ft.FontWeight.BOLD),
                ft.Text("Final standings", size=16),
                *lines,
                ft.Row(buttons),
            ],
            spacing=8,
        )


def scoreboard(state: GameState) -> ft.Control:
    """Every player's total, on-board mark, farkle streak and whose turn it is, at a glance."""
    rows = []
    for seat, name in enumerate(state.players):
        playing = seat == state.current and state.phase not in ("over", "roll_off")
        marks = []
        if not state.on_board[seat]:
            marks.append("not on board")
        if state.farkle_streak[seat]:
            marks.append(f"farkles {state.farkle_streak[seat]}")
        if state.final_round:
            marks.append("last turn" if seat in state.last_turns else "done")
        rows.append(
            ft.Container(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.PLAY_ARROW, color=FELT, size=18) if playing else ft.Container(width=18),
                        ft.Column(
                            [
                                ft.Text(name, size=18, weight=ft.FontWeight.BOLD if playing else None),
                                ft.Text(", ".join(marks), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                            ],
                            spacing=0,
                            expand=True,
                        ),
                        ft.Text(f"{state.scores[seat]:,}", size=22, weight=ft.FontWeight.BOLD,
                                key=f"total-{seat}"),
                    ]
                ),
                bgcolor=ft.Colors.with_opacity(0.15, FELT) if playing else None,
                padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                border_radius=8,
            )
        )
    header = []
    if state.final_round and state.phase not in ("over", "roll_off"):
        names = ", ".join(state.players[seat] for seat in state.last_turns)
        header.append(ft.Text(f"Final round · last turns: {names}", color=ft.Colors.ERROR,
                              weight=ft.FontWeight.BOLD))
    return ft.Column(header + rows, spacing=2)


def turn_line(state: GameState) -> ft.Control:
    name = state.players[state.current]
    if state.phase == "keep":
        text = f"{name}'s turn · turn total {state.turn_points:,} before this throw"
    else:
        text = f"{name}'s turn · turn total {state.turn_points:,} · {_DICE_WORDS[state.dice_in_hand]} in hand"
    return ft.Text(text, size=16, weight=ft.FontWeight.BOLD, key="turn-line")


def history_controls(game: Game) -> list[ft.Control]:
    """The turn-by-turn history, newest first."""
    rows: list[ft.Control] = []
    for number, record in reversed(list(enumerate(game.history, start=1))):
        name = game.players[record.seat]
        throws = "; ".join(
            f"{format_dice(throw.dice)}" + (f" → kept {format_dice(throw.kept)}" if throw.kept else " → farkle")
            for throw in record.throws
        )
        if record.outcome == "banked":
            result = f"banked {record.points:,}"
        else:
            result = f"farkled, lost {record.points:,}" if record.points else "farkled"
        if record.penalty:
            result += f", third farkle -{record.penalty:,}"
        built = f" (built on {record.built_on})" if record.built_on else ""
        rows.append(
            ft.ListTile(
                title=ft.Text(f"{number}. {name}: {result}{built} · total {record.total:,}"),
                subtitle=ft.Text(throws),
                dense=True,
            )
        )
    if not rows:
        rows.append(ft.Text("No turn has ended yet."))
    return rows

