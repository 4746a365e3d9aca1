"""The format editor: player cap and rounds, with the plan the format gives shown live.

Used on the new event form and on an event's page until round 1 is drawn. The draft is
a :class:`app.event.format_draft.FormatDraft` in the screen's state; every edit goes through
:meth:`FormatEditing.edit`, and the engine judges what is possible.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

import flet as ft

from app.event.format_draft import TABLE_SIZES, FormatDraft
from app.views.organizer.common import EventState
from app.views.widgets import big_button, icon_button, labelled_dropdown, preset_label, section
from app.i18n import ntr, tr, tr_words, translatable
from engine import FarkleError, TournamentFormat
from engine import PRESET_NAMES

__all__ = ["FormatEditing", "DraftChange", "format_editor", "format_plan"]

DraftChange = Callable[[FormatDraft, str], "FormatDraft | None"]
"""An edit of a draft with the control's new value; a draft returned takes the old one's place."""

CUTS: Final = (
    ("overall", translatable("Best totals overall")),
    ("per_table", translatable("Best places per table")),
    ("winners", translatable("Each table's winner")),
)


@dataclass
class FormatEditing(EventState):
    """An event's screen with a format being edited (None: the event's own format, untouched)."""

    draft: FormatDraft | None = None
    edits: int = 0

    def shown_draft(self, fallback: Callable[[], FormatDraft]) -> FormatDraft:
        """The draft being edited, or ``fallback()``'s (the event's format) before the first edit."""
        return self.draft if self.draft is not None else fallback()

    def edit(self, change: DraftChange, value: str, fallback: Callable[[], FormatDraft]) -> None:
        """Apply one edit; a refused one (the final cannot go) is shown and changes nothing."""
        draft = self.shown_draft(fallback)
        try:
            replaced = change(draft, value)
        except FarkleError as why:
            self.refuse(tr_words(why.words))
            return
        self.draft = replaced if replaced is not None else draft
        self.edits += 1  # the draft changed inside: show it again


@dataclass
class _Editor:
    state: FormatEditing
    fallback: Callable[[], FormatDraft]

    def on(self, change: DraftChange) -> Callable[[Any], Awaitable[None]]:
        async def handler(event: Any) -> None:
            self.state.edit(change, str(getattr(event.control, "value", "") or ""), self.fallback)

        return handler


def format_editor(state: FormatEditing, fallback: Callable[[], FormatDraft], plan: list[ft.Control], *,
                  cap_key: str = "fmt-cap") -> ft.Control:
    """Cap and rounds of the state's draft (``fallback`` makes it on the first edit), over ``plan``."""
    draft = state.shown_draft(fallback)
    editor = _Editor(state, fallback)
    last = len(draft.rounds) - 1
    rows: list[ft.Control] = [
        ft.Text(tr("The format starts as the house tournament. Tables seat the size chosen or one less, as even "
                   "as possible; a cut of best N totals keeps the same share of a smaller field. The plan below "
                   "follows every change.")),
        ft.TextField(label=tr("Player cap"), value=draft.cap, key=cap_key, width=200, on_change=editor.on(_set_cap)),
    ]
    for index, round_ in enumerate(draft.rounds):
        name = tr("Final") if index == last else tr("Round {number}", number=index + 1)
        controls: list[ft.Control] = [
            labelled_dropdown(tr("{name} rules", name=name), round_.rules, [(p, preset_label(p)) for p in PRESET_NAMES],
                              editor.on(partial(_set_rules, index)), key=f"fmt-rules-{index}", width=170),
            labelled_dropdown(tr("{name} tables of", name=name), str(round_.table_size),
                              [(str(size), tr("{size} players", size=size)) for size in TABLE_SIZES],
                              editor.on(partial(_set_size, index)), key=f"fmt-size-{index}", width=150),
        ]
        if index == last:
            controls.append(labelled_dropdown(
                tr("The final may switch to"), round_.switch_to or "none",
                [("none", tr("No switch")), *((p, preset_label(p)) for p in PRESET_NAMES if p != round_.rules)],
                editor.on(_set_switch), key="fmt-switch", width=220))
        else:
            controls.append(labelled_dropdown(tr("{name} cut", name=name), round_.cut,
                                              [(cut, tr(label)) for cut, label in CUTS],
                                              editor.on(partial(_set_cut, index)), key=f"fmt-cut-{index}",
                                              width=260))
            if round_.cut != "winners":
                label = (tr("{name}: how many totals go on", name=name) if round_.cut == "overall"
                         else tr("{name}: places per table going on", name=name))
                controls.append(ft.TextField(label=label, value=round_.count, key=f"fmt-count-{index}", width=230,
                                             on_change=editor.on(partial(_set_count, index))))
            controls.append(icon_button(ft.Icons.DELETE_OUTLINE, tr("Remove round {number}", number=index + 1),
                                        editor.on(partial(_remove_round, index)), key=f"fmt-remove-{index}"))
        rows.append(ft.Text(name, weight=ft.FontWeight.BOLD))
        rows.append(ft.Row(controls, wrap=True, spacing=8, run_spacing=8))
    rows.append(ft.Row([
        big_button(tr("Add a round before the final"), editor.on(_add_round), filled=False, key="fmt-add-round",
                   icon=ft.Icons.ADD),
        big_button(tr("Start again from the house tournament"), editor.on(_house), filled=False, key="fmt-house"),
    ], wrap=True))
    rows.append(ft.Column(plan, spacing=4, key="fmt-plan"))
    return section(tr("Format"), *rows)


def format_plan(build: Callable[[], TournamentFormat], players: int | None) -> list[ft.Control]:
    """The rounds the format gives at its cap and for the ``players`` signed up now, or the engine's refusal."""
    try:
        fmt = build()
    except FarkleError as why:
        return [ft.Text(tr("Not possible: {why}", why=why), color=ft.Colors.ERROR, key="fmt-error")]
    lines: list[ft.Control] = [ft.Text(tr("{name}, at the cap of {cap} players:",
                                          name=fmt.name, cap=fmt.cap), weight=ft.FontWeight.BOLD)]
    lines += [ft.Text(tr_words(p.describe()), key=f"fmt-plan-cap-{p.number}") for p in fmt.plan(fmt.cap)]
    if players is not None and 2 <= players and players != fmt.cap:
        lines.append(ft.Text(ntr("For the {count} player signed up now:", "For the {count} players signed up now:",
                                 players, count=players), weight=ft.FontWeight.BOLD))
        lines += [ft.Text(tr_words(p.describe()), key=f"fmt-plan-now-{p.number}") for p in fmt.plan(players)]
    return lines


# -- edits of a draft (a round's index first, then the draft and the chosen value) -----------


def _set_cap(draft: FormatDraft, value: str) -> None:
    draft.cap = value


def _set_rules(index: int, draft: FormatDraft, value: str) -> None:
    draft.set_rules(index, value)


def _set_size(index: int, draft: FormatDraft, value: str) -> None:
    draft.rounds[index].table_size = int(value)


def _set_cut(index: int, draft: FormatDraft, value: str) -> None:
    draft.set_cut(index, value)


def _set_count(index: int, draft: FormatDraft, value: str) -> None:
    draft.rounds[index].count = value


def _set_switch(draft: FormatDraft, value: str) -> None:
    draft.rounds[-1].switch_to = "" if value == "none" else value


def _remove_round(index: int, draft: FormatDraft, value: str) -> None:
    draft.remove_round(index)


def _add_round(draft: FormatDraft, value: str) -> None:
    draft.add_round()


def _house(draft: FormatDraft, value: str) -> FormatDraft:
    return FormatDraft.house()
