"""What the table screen holds beside the engine's state: the entry in progress.

:class:`TableState` keeps only what the scorekeeper is in the middle of entering (the
faces of a throw, the dice tapped to set aside, a refusal) beside the engine's state of
the open game, and its actions: every one goes through the scorekeeper, which stores it
before the screen shows it. The screen (:mod:`app.views.table`) and its panels
(:mod:`app.views.table_panels`) draw it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from app.i18n import tr, tr_words, translatable
from app.table.scorekeeper import Scorekeeper
from app.storage import ChangedElsewhere, StoreError
from app.storage.errors import failure_in_words
from app.table.table_advice import prepare_advice, work_out_chances
from engine import (Advice, FarkleError, Game, GameState, Notice, WinChances, advise, catch_up_chance, format_dice,
                    prepared, step_of)
from engine.events import Event as GameEvent
from engine.names import short_forms

__all__ = ["TableState", "DICE_WORDS", "dice_words"]

DICE_WORDS = {1: translatable("one die"), 2: translatable("two dice"), 3: translatable("three dice"),
              4: translatable("four dice"), 5: translatable("five dice"), 6: translatable("six dice")}


def dice_words(count: int) -> str:
    """``two dice``: a number of dice in words, in the session's language."""
    return tr(DICE_WORDS[count])


FACE_KEYS = {"1", "2", "3", "4", "5", "6"}


@dataclass
class TableState(ft.Observable):
    """The open game as the engine has it, and the entry in progress on this screen."""

    keeper: Scorekeeper
    game_id: str
    state: GameState | None = None
    missing: bool = False
    entry: list[int] = field(default_factory=list)
    selection: list[int] = field(default_factory=list)  # positions in the last throw
    refusal: str | None = None
    roll_off_faces: dict[int, int] = field(default_factory=dict)
    rules_draft: tuple[bool, bool] | None = None  # (progressive, steal) while the rules dialog is open
    undone: list[GameEvent] = field(default_factory=list)  # undone events, the latest last: for Redo
    last_undo: str | None = None  # what the last Undo took back, in words
    confirming_undo: bool = False  # asking before Undo takes back a win
    typed_throw: tuple[int, ...] = ()  # the last throw entered here, in the order its faces were typed
    advising: bool = False  # advice is on for this game (kept in its metadata): drawn from this
    advice_solved: bool = False  # the advice tables for this game's rules are ready
    advice_refused: str | None = None  # why there is no advice under this game's rules (too costly to work out)
    chances: WinChances | None = None  # each player's chance to win, for ``state``, with advice on
    whole_name: int | None = None  # the seat whose full name the scoreboard shows in place of its short form

    @property
    def game(self) -> Game:
        game = self.keeper.game
        if game is None or self.keeper.game_id != self.game_id:
            raise LookupError(f"The game {self.game_id!r} is not open.")
        return game

    async def load(self) -> None:
        """Read the game from the store (another screen may have played since)."""
        try:
            game = await self.keeper.open_game(self.game_id, reload=True)
        except (StoreError, FarkleError) as problem:
            self.refusal, game = tr("This game cannot be opened: {problem}", problem=problem), None
        self.missing = game is None
        self.state = game.state if game is not None else None
        self.advising = self.advice_on

    def reset_entry(self) -> None:
        self.entry.clear()
        self.selection.clear()
        self.roll_off_faces.clear()
        self.refusal = None

    # -- actions ---------------------------------------------------------------------

    async def act(self, action: Callable[[Game], None], *, redoable: bool = False) -> bool:
        """Run an engine action through the keeper; a refusal is shown and changes nothing.

        True when the action was stored. A new action (not an undo or redo) ends Redo.
        """
        stored = False
        try:
            await self.keeper.act(action)
        except FarkleError as refusal:
            self.refusal = tr_words(refusal.words)
        except ChangedElsewhere as changed:
            self.entry.clear()
            self.selection.clear()
            self.undone.clear()
            self.refusal = str(changed)
        except StoreError as failure:
            self.refusal = tr("Not saved, so not counted: {reason}",
                              reason=failure_in_words(failure, tr("enter it again")))
        else:
            stored = True
            self.reset_entry()
            if not redoable:
                self.undone.clear()
            self.last_undo = None
        self.state = self.game.state
        return stored

    # -- advice ----------------------------------------------------------------------

    @property
    def advice_allowed(self) -> bool:
        """Advice is for casual games: a tournament table plays on its own judgement."""
        return not self.keeper.meta.get("tournament")

    @property
    def advice_on(self) -> bool:
        return self.advice_allowed and self.keeper.meta.get("advice") is True

    async def switch_advice(self) -> None:
        """Advice on or off for this game, kept with it (off by default)."""
        if not self.advice_allowed:
            self.refusal = tr("A tournament table gets no advice: its players play on their own judgement.")
            return
        try:
            await self.keeper.update_meta("advice", not self.advice_on)
        except ChangedElsewhere as changed:
            self.refusal = str(changed)
        except StoreError as failure:
            self.refusal = tr("Not saved, so not switched: {reason}",
                              reason=failure_in_words(failure, tr("switch it again")))
        else:
            self.refusal = None
        self.state = self.game.state
        self.advising = self.advice_on
        await self.ready_advice()

    async def ready_advice(self) -> None:
        """Solve the advice tables for this game's rules off the tap path, once advice is on."""
        if self.advice_on and self.state is not None and not prepared(self.state.rules):
            self.advice_solved = False
            try:
                await prepare_advice(self.state.rules)
            except FarkleError as why:
                self.advice_refused = tr_words(why.words)
        self.advice_solved = self.state is not None and prepared(self.state.rules)

    def advice(self) -> Advice | str | None:
        """The advice for the player to act, "Working out…" while its tables are solved,
        or None with advice off or nothing to advise."""
        state = self.state
        if not self.advice_on or state is None or state.phase in ("over", "roll_off"):
            return None
        if not prepared(state.rules):
            return self.advice_refused or tr("Working out the odds under these rules…")
        return advise(state)

    async def ready_chances(self) -> None:
        """With advice on, each player's chance to win the game as it stands, worked out off
        the tap path once the advice tables are ready; dropped when the game moved on meanwhile."""
        state, self.chances = self.state, None
        if not self.advice_on or state is None or state.phase in ("over", "roll_off") or not prepared(state.rules):
            return
        chances = await work_out_chances(state)
        if self.state is state and self.advice_on:
            self.chances = chances

    def lead_chances(self, shown: Advice | str | None) -> dict[int, float]:
        """With advice on, in the final round: each player still to play's chance to take the
        lead (from a fresh turn; the one playing, from where the turn stands, as the
        :meth:`advice` ``shown`` on the screen says it)."""
        state = self.state
        if not self.advice_on or state is None or not state.final_round or not prepared(state.rules):
            return {}
        top, step = max(state.scores), step_of(state.rules)
        chances = {seat: catch_up_chance(state.rules, top - state.scores[seat] + step, 0, 6, state.on_board[seat])
                   for seat in state.last_turns if seat != state.current}
        if isinstance(shown, Advice) and shown.goal == "lead":
            chances[state.current] = shown.value
        return chances

    @property
    def names(self) -> tuple[str, ...]:
        """Each player as this screen names them: the short form of a long name (``Aleksandra G.``,
        :func:`engine.names.short_forms`), so a line of a 390 px phone holds it."""
        return short_forms(self.game.players)

    def player_name(self, seat: int | None = None) -> str:
        """The player at ``seat`` (whose turn it is, by default) as this screen names them."""
        state = self.game.state
        return self.names[state.current if seat is None else seat]

    def show_whole_name(self, seat: int) -> None:
        """A tap on a shortened name on the scoreboard: its full name in its place; a second tap,
        or a tap on another, puts the short form back."""
        self.whole_name = None if self.whole_name == seat else seat

    def add_face(self, face: int) -> None:
        state = self.game.state
        wanted = state.dice_to_throw
        if state.phase == "keep":
            self.refusal = tr("{face} is a face to enter for a new throw: first set dice aside from this one.",
                              face=face)
        elif wanted is None:
            self.refusal = tr("No throw is expected now.")
        elif len(self.entry) >= wanted:
            self.refusal = tr("{name} throws {dice}: {throw} is complete.",
                              name=self.player_name(), dice=dice_words(wanted), throw=format_dice(self.entry))
        else:
            self.entry.append(face)
            self.refusal = None

    def remove_entry(self, position: int | None = None) -> None:
        if self.entry:
            self.entry.pop(len(self.entry) - 1 if position is None else position)
        self.refusal = None

    def clear_entry(self) -> None:
        self.entry.clear()
        self.refusal = None

    def throw_complete(self) -> bool:
        """The entry is a whole throw: the dice in hand, or the dice an open offer passes
        (which the engine takes as building on it)."""
        count = len(self.entry)
        return count == self.game.state.dice_to_throw or self.game.throw_builds_on_offer(count)

    async def enter_throw(self) -> None:
        """Enter the faces typed; the passed dice alone with an offer open build on it."""
        entry = list(self.entry)

        def build_then_roll(game: Game) -> None:
            game.build()
            game.roll(entry)

        builds = self.game.throw_builds_on_offer(len(entry))
        if await self.act(build_then_roll if builds else lambda game: game.roll(entry)):
            self.typed_throw = tuple(entry)

    def shown_throw(self) -> tuple[int, ...]:
        """The last throw in the order it was typed here ("die 1" is the first face typed);
        the engine keeps it sorted, which is what another screen shows."""
        throw = self.game.state.last_throw or ()
        return self.typed_throw if tuple(sorted(self.typed_throw)) == throw else throw

    def toggle_die(self, position: int) -> None:
        """Tap a die aside or back; one that scores in no keep is refused with the engine's reason."""
        if position in self.selection:
            self.selection.remove(position)
            self.refusal = None
            return
        throw = self.shown_throw()
        refusal = self.game.set_aside_refusal([throw[chosen] for chosen in [*self.selection, position]])
        if refusal is None:
            self.selection.append(position)
        self.refusal = tr_words(refusal) if refusal is not None else None

    def select_face(self, face: int) -> None:
        """Keyboard: select the next unselected die showing ``face``."""
        throw = self.shown_throw()
        for position, shown in enumerate(throw):
            if shown == face and position not in self.selection:
                self.toggle_die(position)
                return
        shown_text = format_dice(throw)
        self.refusal = (tr("{face} was not thrown: the throw is {throw}.",
                           face=face, throw=shown_text) if face not in throw else
                        tr("Every {face} in {throw} is already set aside.", face=face, throw=shown_text))

    def choose_option(self, keep: tuple[int, ...]) -> None:
        throw = self.shown_throw()
        chosen: list[int] = []
        for face in keep:
            chosen.append(next(i for i, shown in enumerate(throw) if shown == face and i not in chosen))
        self.selection[:] = chosen
        self.refusal = None

    def kept_dice(self) -> tuple[int, ...]:
        throw = self.shown_throw()
        return tuple(sorted(throw[position] for position in self.selection))

    def keep_preview(self) -> tuple[GameState | None, str | None]:
        """The state if the tapped dice were set aside, or why they cannot be (None, None: none tapped)."""
        kept = self.kept_dice()
        if not kept:
            return None, None
        try:
            return self.game.preview_keep(kept), None
        except FarkleError as refused:
            return None, tr_words(refused.words)

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

    async def undo(self, confirmed: bool = False) -> None:
        """Take back the entry in progress, else the last stored action (a win only when confirmed)."""
        if self.entry or self.selection:
            self.reset_entry()
            return
        game = self.game
        if game.is_over and not confirmed:
            self.confirming_undo = True
            return
        self.confirming_undo = False
        taken: list[tuple[GameEvent, Notice]] = []

        def take_back(game: Game) -> None:
            event = game.peek()
            taken.append((event, game.undo()))

        if await self.act(take_back, redoable=True):
            event, notice = taken[0]
            self.undone.append(event)
            self.last_undo = tr_words(notice.text)

    def cancel_undo(self) -> None:
        self.confirming_undo = False

    async def redo(self) -> None:
        if not self.undone:
            self.refusal = tr("Nothing to redo: Redo plays again what Undo took back.")
            return
        event = self.undone[-1]
        if await self.act(lambda g: g.redo(event), redoable=True):
            self.undone.pop()

    def pick_roll_off(self, seat: int, face: int) -> None:
        self.roll_off_faces[seat] = face
        self.refusal = None

    async def record_roll_off(self) -> None:
        faces = dict(self.roll_off_faces)
        await self.act(lambda game: game.roll_off(faces))

    def ask_rules(self, asking: bool = True) -> None:
        rules = self.game.rules
        self.rules_draft = (rules.progressive, rules.steal) if asking else None

    def draft_rules(self, progressive: bool, steal: bool) -> None:
        self.rules_draft = (progressive, steal)

    async def change_rules(self) -> None:
        if self.rules_draft is None:
            return
        progressive, steal = self.rules_draft
        self.rules_draft = None
        rules = dataclasses.replace(self.game.rules, progressive=progressive, steal=steal)
        await self.act(lambda game: game.set_rules(rules))

    async def on_key(self, key: str) -> None:
        """Digits enter faces (or pick dice to set aside); Enter confirms; Backspace takes back.
        In points only the points field takes the keys."""
        if self.state is None or self.state.points_only:
            return
        phase = self.game.phase
        if key in FACE_KEYS:
            if phase in ("throw", "choose"):
                self.add_face(int(key))
            elif phase == "keep":
                self.select_face(int(key))
        elif key == "Backspace":
            if phase == "keep" and self.selection:
                self.selection.pop()
            else:
                self.remove_entry()
        elif key == "Enter":
            await self._enter_key(phase)
        elif key.upper() == "B":
            await self._bank_key(phase)
        elif len(key) == 1 and key.isalnum():
            self.refusal = tr("{key} is not a die face: type 1 to 6 (Enter throws, Backspace takes back, B banks).",
                              key=key)

    async def _enter_key(self, phase: str) -> None:
        state = self.game.state
        wanted = state.dice_to_throw
        if phase in ("throw", "choose"):
            if self.throw_complete():
                await self.enter_throw()
            elif state.open_offer is not None:
                self.refusal = (tr("Enter six fresh dice, or the {dice} passed to build on {points:,} "
                                   "({count} so far).",
                                   dice=dice_words(state.open_offer.dice), points=state.open_offer.points,
                                   count=len(self.entry)))
            else:
                self.refusal = tr("Enter all {dice} of the throw first ({count} so far).",
                                  dice=dice_words(wanted or 6), count=len(self.entry))
        elif phase == "keep":
            if self.selection:
                await self.keep_and_roll()
            else:
                self.refusal = tr("Set aside a scoring die first: tap it, or type its face.")

    async def _bank_key(self, phase: str) -> None:
        """B banks, with the dice tapped aside first; the engine says why it may not."""
        if phase == "keep" and self.selection:
            await self.keep_and_bank()
        else:
            refusal = self.game.bank_refusal()
            self.refusal = tr_words(refusal) if refusal is not None else None
            if self.refusal is None:
                await self.bank()
