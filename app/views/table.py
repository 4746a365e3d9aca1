"""The table screen: who is where, the throw being entered, what can be set aside.

:func:`TableScreen` draws the open game and the entry in progress
(:class:`~app.views.table_state.TableState`) with the panels of
:mod:`app.views.table_panels`; what it works out from the state (the advice, the preview
of a keep) it works out once a render and hands to the panels that show it.
"""

from __future__ import annotations

import flet as ft

from app.context import use_keys, use_model, use_services, use_viewport
from app.i18n import tr, tr_words
from app.views.follow import follow_dialog, follow_link
from app.views.game_over import GameOver
from app.views.points_entry import PointsEntry, entry_switch, points_allowed
from app.views.table_awake import use_screen_awake
from app.views.table_panels import keep_panel, roll_off_panel, scoreboard, throw_panel, turn_card, turn_line
from app.views.table_state import TableState
from app.views.widgets import MIN_TARGET, icon_button, notice_banner, on, screen_view

__all__ = ["TableScreen"]


@ft.component
def TableScreen(game_id: str) -> ft.View:
    services = use_services()
    table = use_model(lambda: TableState(services.keeper, game_id))
    use_keys(table.on_key)
    ft.on_mounted(table.load)
    ft.use_effect(table.ready_advice, [table.advising, table.state.rules if table.state else None])
    ft.use_effect(table.ready_chances, [table.advising, table.advice_solved, table.state])
    screen_notice = use_screen_awake(services, table.state is not None and table.state.phase != "over")
    route = f"/game/{game_id}"
    home = on(services.navigate, "/")
    following, set_following = ft.use_state(False)
    dialog: ft.AlertDialog | None = None
    if table.state is not None and table.rules_draft:
        dialog = RulesDialog(table, table.rules_draft)
    elif table.state is not None and table.confirming_undo:
        dialog = UndoDialog(table)
    elif table.state is not None and following:
        dialog = follow_dialog(follow_link(str(getattr(ft.context.page, "url", None) or ""), game_id),
                               lambda _: set_following(False))
    ft.use_dialog(dialog)
    state = table.state
    if state is None:
        text = (tr("There is no readable game {game_id!r} on this device.", game_id=game_id) if table.missing
                else tr("Opening the game…"))
        body: list[ft.Control] = [ft.Text(table.refusal or text, size=16, key="table-missing")]
        return screen_view(route, tr("Not found") if table.missing else tr("Farkle Table"), body, on_home=home)
    meta = services.keeper.meta
    title = str(meta.get("title") or " · ".join(table.names))
    actions = [
        icon_button(ft.Icons.HISTORY, tr("History"), key="history", on_click=on(services.navigate, f"{route}/history")),
        icon_button(ft.Icons.TUNE, tr("Change rules"), on_click=on(table.ask_rules), key="change-rules"),
        icon_button(ft.Icons.UNDO, tr("Undo"), on_click=on(table.undo), key="undo"),
        icon_button(ft.Icons.CALCULATE, tr("Score lookup"), on_click=on(services.navigate, f"/lookup/{game_id}"),
                    key="table-lookup"),
    ]
    if table.advice_allowed:
        actions.insert(0, icon_button(ft.Icons.LIGHTBULB if table.advice_on else ft.Icons.LIGHTBULB_OUTLINE,
                                      tr("Turn advice off") if table.advice_on else tr("Turn advice on"),
                                      on(table.switch_advice), key="advice-switch"))
    notices: list[ft.Control] = []
    if table.refusal:
        notices.append(notice_banner([table.refusal], error=True, key="refusal"))
    if table.last_undo:  # Redo stays at hand after a refusal (a full storage refused the redo)
        notices.append(undo_banner(table))
    elif not table.refusal and state.notices:
        notices.append(notice_banner([tr_words(notice.text) for notice in state.notices]))
    if screen_notice:
        notices.append(notice_banner([screen_notice], key="screen-notice"))
    turn_on = state.phase not in ("over", "roll_off")
    advice = table.advice()  # once a render: the panel shows it, the final round's chances read it
    preview, problem = table.keep_preview() if state.phase == "keep" else (None, None)
    panel: list[ft.Control]
    if state.phase == "over":
        panel = [GameOver(table.game, game_id, meta.get("tournament"))]
    elif state.phase == "roll_off":
        panel = [roll_off_panel(table, state)]
    elif state.points_only:
        panel = [PointsEntry(table, state)]
    elif state.phase == "keep":
        panel = [turn_line(table, state), keep_panel(table, state, preview, problem, advice)]
    else:
        touch = ft.context.page.platform in (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS)
        panel = [turn_line(table, state), throw_panel(table, state, keyboard_hint=not touch, advice=advice)]
        if not state.throws and points_allowed(table):
            panel.append(entry_switch(table, state))
    card = [turn_card(table, state, (preview or state).turn_points)] if turn_on and not state.points_only else []
    lead_chances = table.lead_chances(advice)
    panel.append(ft.TextButton(tr("Follow on another screen"), icon=ft.Icons.CAST, height=MIN_TARGET,
                               on_click=lambda _: set_following(True), key="follow-open"))
    landscape = use_viewport().landscape
    if landscape:  # the board and the entry scroll each on its own: Roll and Bank stay in view
        controls: list[ft.Control] = [ft.Row(
            [ft.Column([*card, scoreboard(table, state, scrolls=True, lead_chances=lead_chances,
                                          win_chances=table.chances)],
                       expand=2, spacing=8),
             ft.Column([*notices, *panel], expand=3, spacing=8, scroll=ft.ScrollMode.AUTO)],
            vertical_alignment=ft.CrossAxisAlignment.START,
            expand=True,
            key="landscape",
        )]
    else:
        board = scoreboard(table, state, lead_chances=lead_chances, win_chances=table.chances)
        controls = [*card, board, *notices, *panel]
    return screen_view(route, title, controls, actions=actions, on_home=home, scrolls=not landscape)


def undo_banner(table: TableState) -> ft.Control:
    """What Undo took back, with Redo beside it."""
    return ft.Container(
        ft.Row(
            [
                ft.Text(table.last_undo or "", size=16, color=ft.Colors.BLACK, weight=ft.FontWeight.W_500,
                        expand=True, key="undone"),
                ft.OutlinedButton(tr("Redo"), icon=ft.Icons.REDO, on_click=on(table.redo), key="redo", height=48),
            ]
        ),
        bgcolor=ft.Colors.AMBER_100,
        padding=ft.Padding.symmetric(horizontal=10, vertical=4),
        border_radius=8,
        key="undo-banner",
    )


def UndoDialog(table: TableState) -> ft.AlertDialog:
    """Undo on a finished game takes back the win: asked first."""
    return ft.AlertDialog(
        title=ft.Text(tr("Take back the win?")),
        content=ft.Text(tr("The game is over. Undo takes back its last action and the game goes on.")),
        actions=[
            ft.TextButton(tr("Keep the result"), on_click=on(table.cancel_undo), key="cancel-undo", height=48),
            ft.FilledButton(tr("Undo the last action"), on_click=on(table.undo, True), key="confirm-undo", height=48),
        ],
        on_dismiss=on(table.cancel_undo),
    )


def RulesDialog(table: TableState, draft: tuple[bool, bool]) -> ft.AlertDialog:
    """Progressive passing and steals, switched on or off from the next turn."""
    progressive, steal = draft

    async def progressive_switched(event: ft.Event[ft.Switch]) -> None:
        table.draft_rules(bool(event.control.value), steal)

    async def steal_switched(event: ft.Event[ft.Switch]) -> None:
        table.draft_rules(progressive, bool(event.control.value))

    return ft.AlertDialog(
        title=ft.Text(tr("Change rules from the next turn")),
        content=ft.Column([
            ft.Text(tr_words(table.game.rules.describe())),
            ft.Switch(label=tr("Progressive passing"), value=progressive, key="switch-progressive",
                      on_change=progressive_switched),
            ft.Switch(label=tr("Steal after a farkle"), value=steal, key="switch-steal", on_change=steal_switched),
        ], tight=True),
        actions=[
            ft.TextButton(tr("Cancel"), on_click=on(table.ask_rules, False), key="cancel-rules", height=48),
            ft.FilledButton(tr("Apply from next turn"), on_click=on(table.change_rules), key="apply-rules", height=48),
        ],
        on_dismiss=on(table.ask_rules, False),
    )
