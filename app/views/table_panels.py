"""What the table screen draws, as functions of the engine's state and the entry in progress.

Nothing here changes state: each control's handler calls a :class:`TableState` method.
"""

from __future__ import annotations

from collections.abc import Mapping
import flet as ft

from app.i18n import local_number, tr, tr_words
from app.views.table_state import TableState, dice_words
from app.views.widgets import FELT, big_button, die_button, on, section
from engine import Advice, GameState, WinChances, bank_refusal, format_dice, scoring_dice, scoring_options

__all__ = ["turn_card", "player_marks", "scoreboard", "turn_line", "throw_panel", "keep_panel", "roll_off_panel"]

SCROLLBAR_ROOM = 14
"""Room right of the totals (px) for the scroll bar, which is drawn over the content."""


def turn_card(table: TableState, state: GameState, turn_total: int) -> ft.Control:
    """Whose turn (the short form of a long name, the full one on hover or a long press) and
    the turn total, big enough to read from across the table."""
    name = table.player_name()
    in_hand = dice_words(state.dice_in_hand)
    return ft.Container(
        ft.Row(
            [
                ft.Column(
                    [
                        ft.Text(name, size=28, weight=ft.FontWeight.BOLD, max_lines=1,
                                overflow=ft.TextOverflow.ELLIPSIS, color=ft.Colors.ON_PRIMARY_CONTAINER,
                                tooltip=ft.Tooltip(state.players[state.current], exclude_from_semantics=True),
                                key="turn-name"),
                        ft.Text(tr("to play · {in_hand} in hand",
                                   in_hand=in_hand), size=16, color=ft.Colors.ON_PRIMARY_CONTAINER),
                    ],
                    spacing=0,
                    expand=True,
                ),
                ft.Column(
                    [
                        ft.Text(local_number(turn_total), size=52, weight=ft.FontWeight.BOLD,
                                color=ft.Colors.ON_PRIMARY_CONTAINER, key="turn-total"),
                        ft.Text(tr("turn total"), size=14, color=ft.Colors.ON_PRIMARY_CONTAINER),
                    ],
                    spacing=0,
                    horizontal_alignment=ft.CrossAxisAlignment.END,
                ),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=14, vertical=8),
        border_radius=12,
        key="turn-card",
    )


def player_marks(state: GameState, seat: int, lead_chance: float | None = None, win_chance: str | None = None) -> list[str]:
    """What a player's line says beside the total: on-board mark, farkle streak, final round
    (with the chance to take the lead, when the table has advice on), and the chance to win
    (with advice on, as :meth:`engine.WinChances.shown` says it)."""
    marks = []
    if not state.on_board[seat]:
        marks.append(tr("not on board"))
    if state.farkle_streak[seat]:
        marks.append(tr("farkles {count}", count=state.farkle_streak[seat]))
    if win_chance is not None:
        marks.append(tr("{chance} to win", chance=win_chance))
    if state.final_round and state.phase not in ("over", "roll_off"):
        if seat in state.last_turns:
            gap = max(state.scores) - state.scores[seat]
            marks.append(tr("last turn · needs over {gap:,} to lead", gap=gap) if gap else tr("last turn"))
            if lead_chance is not None:
                marks.append(tr("{chance} chance to lead", chance=tr("{percent:.0f} %", percent=100 * lead_chance)))
        else:
            marks.append(tr("done"))
    return marks


def scoreboard(table: TableState, state: GameState, *, scrolls: bool = False,
               lead_chances: Mapping[int, float] | None = None, win_chances: WinChances | None = None) -> ft.Control:
    """Every player on one line: whose turn, total, on-board mark, farkle streak, final round.

    The name takes only the width it needs and the marks follow it, on the next line when
    they do not fit, so the final-round target is never cut. A long name shows its short
    form (``Aleksandra G.``); a tap on its line shows the full name there, wrapped, until
    the next tap. Each line is one live region named with all it says (the full name), so a
    screen reader hears a mark the moment it appears.
    ``scrolls``: the board scrolls on its own (landscape), keeping the entry beside it in view.
    ``win_chances``: each player's chance to win, with its error where it is simulated.
    """
    playing_now = state.phase not in ("over", "roll_off")
    rows: list[ft.Control] = []
    for seat, (name, form) in enumerate(zip(state.players, table.names)):
        playing = seat == state.current and playing_now
        whole = table.whole_name == seat or form == name
        wins = win_chances.shown(seat) if win_chances is not None else None
        marks = ", ".join(player_marks(state, seat, (lead_chances or {}).get(seat), wins))
        colour = ft.Colors.ON_PRIMARY_CONTAINER if playing else None
        said = [name, local_number(state.scores[seat])] + ([marks] if marks else [])
        wraps = whole and form != name  # a full name tapped open: on as many lines as it takes
        line: list[ft.Control] = [
            ft.Text(name if whole else form, size=18, weight=ft.FontWeight.BOLD if playing else None, color=colour,
                    max_lines=None if wraps else 1,
                    overflow=ft.TextOverflow.VISIBLE if wraps else ft.TextOverflow.ELLIPSIS, key=f"name-{seat}"),
        ]
        if marks:
            line.append(ft.Text(marks, size=13, color=colour or ft.Colors.ON_SURFACE_VARIANT, key=f"marks-{seat}"))
        rows.append(
            ft.Semantics(
                label=(tr("Playing now: ") if playing else "") + " · ".join(said),
                live_region=True,
                container=True,
                exclude_semantics=True,
                content=ft.Container(
                    ft.Row(
                        [
                            ft.Icon(ft.Icons.PLAY_ARROW, color=colour, size=20) if playing else ft.Container(width=20),
                            ft.Row(line, wrap=True, spacing=8, run_spacing=0, expand=True,
                                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
                            ft.Text(local_number(state.scores[seat]), size=20, weight=ft.FontWeight.BOLD, color=colour,
                                    key=f"total-{seat}", text_align=ft.TextAlign.RIGHT),
                        ],
                        spacing=6,
                    ),
                    bgcolor=ft.Colors.PRIMARY_CONTAINER if playing else None,
                    border=ft.Border.all(2, ft.Colors.PRIMARY) if playing else None,
                    padding=ft.Padding.only(left=8, top=2, right=SCROLLBAR_ROOM, bottom=2),
                    border_radius=8,
                    on_click=None if form == name else on(table.show_whole_name, seat),
                    key=f"line-{seat}",
                ),
                key=f"seat-{seat}",
            )
        )
    header: list[ft.Control] = []
    if state.final_round and playing_now:
        names = ", ".join(table.names[seat] for seat in state.last_turns)
        header.append(ft.Text(tr("Final round · last turns: {names}", names=names), color=ft.Colors.ERROR,
                              weight=ft.FontWeight.BOLD, key="final-round"))
    return ft.Column(header + rows, spacing=2, key="scoreboard", scroll=ft.ScrollMode.AUTO if scrolls else None,
                     expand=scrolls)


def turn_line(table: TableState, state: GameState) -> ft.Control:
    name = table.player_name()
    if state.phase == "keep":
        text = tr("{name}'s turn · turn total {turn_points:,} before this throw",
                  name=name, turn_points=state.turn_points)
    else:
        text = tr("{name}'s turn · turn total {turn_points:,} · {dice} in hand",
                  name=name, turn_points=state.turn_points, dice=dice_words(state.dice_in_hand))
    return ft.Text(text, size=16, weight=ft.FontWeight.BOLD, key="turn-line")


def throw_panel(table: TableState, state: GameState, *, keyboard_hint: bool,
                advice: Advice | str | None = None) -> ft.Control:
    """The faces of the next throw, tapped in; Bank instead while a choice is open; with
    advice on, the advice (throw, or build on an offer) in one line."""
    wanted = state.dice_to_throw or 0
    name = table.player_name()
    parts: list[ft.Control] = []
    offer = state.open_offer
    if offer is not None:
        parts.append(
            ft.Container(
                ft.Column(
                    [
                        ft.Text(tr("On offer to {name}: {offer}",
                                   name=name, offer=offer), size=16, weight=ft.FontWeight.BOLD),
                        ft.Row(
                            [
                                big_button(tr("Build on {points:,}", points=offer.points), on(table.build),
                                           key="build", expand=True),
                                ft.Text(tr("or enter the {dice} passed (builds on it), or six fresh dice",
                                           dice=dice_words(offer.dice)), expand=True, key="offer-hint")
                                if offer.dice < 6 else ft.Text(tr("or enter six fresh dice below"), expand=True),
                            ]
                        ),
                    ]
                ),
                bgcolor=ft.Colors.with_opacity(0.12, FELT),
                padding=10,
                border_radius=8,
                key="offer",
            )
        )
    entered: list[ft.Control] = [
        die_button(face, tr("Entered {face}, tap to remove",
                            face=face), on(table.remove_entry, i), size=48, key=f"entered-{i}")
        for i, face in enumerate(table.entry)
    ]
    entered += [
        ft.Container(width=48, height=48, border_radius=9, border=ft.Border.all(1, ft.Colors.OUTLINE),
                     key=f"empty-{i}")
        for i in range(len(table.entry), wanted)
    ]
    pad = ft.Row(
        [die_button(face, tr("Face {face}",
                             face=face), on(table.add_face, face), key=f"face-{face}") for face in range(1, 7)],
        spacing=8,
        wrap=True,
        key="face-pad",
    )
    buttons: list[ft.Control] = [
        big_button(tr("Enter throw"), on(table.enter_throw), key="enter-throw",
                   disabled=not table.throw_complete(), expand=True),
        big_button(tr("Clear"), on(table.clear_entry), filled=False, key="clear-entry"),
    ]
    parts += [ft.Text(tr("Enter {name}'s throw: {dice}",
                         name=name, dice=dice_words(wanted)), size=16, key="throw-title"),
              ft.Row(entered, spacing=6, key="entered"), pad, ft.Row(buttons, key="throw-buttons")]
    parts += advice_line(advice)
    if keyboard_hint:
        parts.append(ft.Text(tr("Keyboard: 1-6 enter faces, Enter throws, Backspace takes one back; on a throw, "
                                "1-6 pick dice to set aside and B banks."),
                             size=12, color=ft.Colors.ON_SURFACE_VARIANT, key="keyboard-hint"))
    if state.phase == "choose":
        refusal = bank_refusal(state)
        parts.append(ft.Row([big_button(tr("Bank {turn_points:,} instead",
                                           turn_points=state.turn_points), on(table.bank), key="bank",
                                        filled=False, disabled=refusal is not None, expand=True)]))
        if refusal:
            parts.append(ft.Text(tr_words(refusal), color=ft.Colors.ON_SURFACE_VARIANT, key="bank-reason"))
    return ft.Column(parts, spacing=10, key="throw-panel")


def advice_line(advice: Advice | str | None) -> list[ft.Control]:
    """The table's advice in one line (or why it is not there yet), when advice is on."""
    if advice is None:
        return []
    words = advice if isinstance(advice, str) else tr("Advice: {describe}", describe=advice.describe())
    return [ft.Container(
        ft.Row([ft.Icon(ft.Icons.LIGHTBULB_OUTLINE, size=20),
                ft.Text(words, size=15, expand=True, key="advice-line")], spacing=8),
        bgcolor=ft.Colors.SECONDARY_CONTAINER, padding=8, border_radius=8, key="advice",
    )]


def keep_panel(table: TableState, state: GameState, preview: GameState | None, problem: str | None,
               advice: Advice | str | None = None) -> ft.Control:
    """The last throw's dice to tap aside, the live preview, Roll and Bank, every option;
    with advice on, the advised keep is marked and the advice said in one line.

    ``preview``, ``problem``: :meth:`TableState.keep_preview`, as the screen worked it out
    for this render (its turn card shows the same preview)."""
    throw = table.shown_throw()
    rules = state.rules
    scoring = list(scoring_dice(throw, rules))
    dice_controls: list[ft.Control] = []
    for position, face in enumerate(throw):
        chosen = position in table.selection
        scores = face in scoring
        if scores:
            scoring.remove(face)
        label = tr("Die {number} shows {face}",
                   number=position + 1, face=face) + (tr(", set aside") if chosen else "")
        dice_controls.append(
            die_button(face, label, on(table.toggle_die, position), key=f"die-{position}",
                       selected=chosen, dim=not scores and not chosen, size=54)
        )
    game = table.game
    kept = table.kept_dice()
    if preview is not None:
        points = preview.turn_points - state.points_before_throw
        summary = tr("Set aside {dice}: {breakdown} = {points:,} · turn {turn_points:,}", dice=format_dice(kept),
                     breakdown=game.breakdown(kept), points=points, turn_points=preview.turn_points)
    elif problem:
        summary = problem
    else:
        summary = tr("Tap the dice to set aside, or pick an option below.")
    left = preview.dice_in_hand if preview else None
    roll_text = (tr("Hot dice! Roll six again") if preview and preview.hot_dice else
                 tr("Roll {dice}", dice=dice_words(left)) if left else tr("Roll again"))
    refusal = bank_refusal(preview) if preview else tr("Set aside scoring dice first.")
    options = scoring_options(throw, rules)
    advised = advice.best_keep.keep if isinstance(advice, Advice) and advice.best_keep else None
    option_rows = [
        ft.ListTile(
            title=ft.Text(tr("{points:,}  ·  keep {dice}", points=option.points, dice=format_dice(option.keep))
                          + (tr("  ·  advised") if option.keep == advised else "")),
            subtitle=ft.Text(tr_words(option.breakdown) + " · "
                             + (tr("hot dice") if option.hot_dice
                                else tr("{dice} left", dice=dice_words(option.dice_left)))),
            on_click=on(table.choose_option, option.keep),
            key=f"option-{index}",
        )
        for index, option in enumerate(options[:8])
    ]
    best = options[0]
    return ft.Column(
        [
            ft.Text(tr("{name} threw {throw}", name=table.player_name(), throw=format_dice(throw)), size=16,
                    key="thrown"),
            ft.Row(dice_controls, spacing=8, wrap=True, key="thrown-dice"),
            ft.Text(summary, size=16, weight=ft.FontWeight.W_500, key="keep-preview",
                    color=ft.Colors.ERROR if problem else None),
            ft.Row(
                [
                    big_button(roll_text, on(table.keep_and_roll), key="roll", disabled=preview is None, expand=True),
                    big_button(tr("Bank {turn_points:,}",
                                  turn_points=preview.turn_points) if preview else tr("Bank"), on(table.keep_and_bank),
                               key="bank", disabled=refusal is not None, expand=True),
                ],
                key="keep-buttons",
            ),
            ft.Text(tr_words(refusal or ""), color=ft.Colors.ON_SURFACE_VARIANT, key="bank-reason"),
            *advice_line(advice),
            big_button(tr("Best: keep {throw} for {points:,}",
                          throw=format_dice(best.keep), points=best.points),
                       on(table.choose_option, best.keep), filled=False, key="best-option"),
            section(tr("All options"), *option_rows),
        ],
        spacing=10,
        key="keep-panel",
    )


def roll_off_panel(table: TableState, state: GameState) -> ft.Control:
    """A tie for the win: one die per tied player."""
    rows: list[ft.Control] = [
        ft.Text(tr("Tie for the win at {score:,}: each tied player throws one die.",
                   score=state.scores[state.tied[0]]), size=16)
    ]
    for seat in state.tied:
        chosen = table.roll_off_faces.get(seat)
        rows.append(ft.Text(table.player_name(seat), weight=ft.FontWeight.BOLD))
        rows.append(ft.Row(
            [die_button(face, tr("{name} threw {face}", name=table.player_name(seat), face=face),
                        on(table.pick_roll_off, seat, face),
                        key=f"roll-off-{seat}-{face}", selected=chosen == face, size=48)
             for face in range(1, 7)],
            spacing=6,
            wrap=True,
        ))
    complete = set(table.roll_off_faces) == set(state.tied)
    rows.append(big_button(tr("Record roll-off"), on(table.record_roll_off), key="record-roll-off",
                           disabled=not complete))
    return ft.Column(rows, spacing=8, key="roll-off-panel")
