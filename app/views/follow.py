"""``/follow/<game id>``: the second screen, a game followed read-only in large type.

Another phone, a laptop on a TV, or a second tab of the offline app shows whose turn it is, the
turn total and the dice in hand, every player's total and marks, the final round with what each
needs, and the winner at the end. It reads the game as stored and reads it again on every save
of it from the table (:mod:`app.documents.changes`); it offers no action, so nothing here can
change the game. It shows what the table's scoreboard shows, nothing kept beside it (a
tournament table's card or key stays on the table).

Type scales with the screen as the room display's does: 1 at 1920x1080, by the narrower side,
never under :data:`LEAST_SCALE` (a 390 px phone).

The table offers the follower (:func:`follow_dialog`): a QR and link on the local server, a new
tab on this device in the offline app (its games live in this browser alone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import flet as ft

from app.context import ViewportContext, use_model, use_services
from app.documents import changes
from app.documents.games import COLLECTION, read_game
from app.i18n import local_number, tr, tr_words
from app.routes import follow_path
from app.runtime import in_browser
from app.storage import Store, StoreError
from app.table.tournament_table import link_qr_text, site_link_base
from app.venue.addresses import serving
from app.views.table_awake import use_screen_awake
from app.views.table_panels import player_marks
from app.views.table_state import dice_words
from app.views.widgets import BOARD, INK, SELECTED, link_qr, on, screen_view
from engine import FarkleError, GameState, format_dice

__all__ = ["FollowScreen", "FollowState", "follow_dialog", "follow_link", "TURN_TOTAL", "HEADING", "LINE", "SMALL",
           "LEAST_SCALE"]

TURN_TOTAL: Final = 150
HEADING: Final = 72
LINE: Final = 56
SMALL: Final = 36
"""Type sizes at 1920x1080 (they scale with the screen): read from a sofa across the room."""
LEAST_SCALE: Final = 0.45
"""The smallest scale: a phone's 390 px still shows the turn total at 68 px and marks at 16 px."""
NARROW: Final = 700
"""Below this width (a phone) the turn total goes under whose turn it is, not beside it."""


@dataclass
class FollowState(ft.Observable):
    """The followed game as last stored, or why there is none to show."""

    store: Store
    game_id: str
    state: GameState | None = None
    title: str = ""
    missing: bool = False
    refusal: str | None = None

    async def load(self) -> None:
        """Read the game as stored now (the table saved it, or this screen just opened)."""
        try:
            document = await self.store.load(COLLECTION, self.game_id)
            kept = read_game(document) if document is not None else None
        except (StoreError, FarkleError) as problem:
            self.refusal = tr("This game cannot be followed: {problem}", problem=problem)
            return
        self.refusal = None
        self.missing = kept is None
        if kept is not None:
            self.state = kept.game.state
            self.title = str(kept.meta.get("title") or " · ".join(kept.game.players))


def follow_link(page_url: str, game_id: str) -> str:
    """The follower's address as another screen opens it: this site's address for phones (the
    venue address of the local server; ``…/#`` on the offline app's static site) and the route.

    >>> follow_link("http://192.168.1.20:8550/game/g1", "g1")
    'http://192.168.1.20:8550/follow/g1'
    """
    return site_link_base(page_url, in_browser()) + follow_path(game_id)


def follow_dialog(link: str, on_close: Callable[[Any], Any]) -> ft.AlertDialog:
    """The table's way to the follower: a QR and the link for another device on the local server; in the
    offline app a second tab or window of this browser (the game lives in this browser alone)."""
    content: list[ft.Control]
    if in_browser():
        content = [ft.Text(tr("Open the score in a second tab or window of this browser, then drag it to another "
                              "screen: it follows every turn, offline too. Other devices cannot reach a game "
                              "kept in this browser."), key="follow-offline")]
    else:
        content = [
            ft.Text(tr("Another phone, or a laptop on a TV, on this Wi-Fi scans the QR or opens the link: it shows "
                       "the score live, in large type, and offers no action."), size=14),
            *link_qr(link, link_qr_text(link), tr("QR code of this game's score"), "follow"),
        ]
        served = serving()
        if served is not None and served.loopback_only:
            content.append(ft.Text(tr("This app answers only this device: start it with --host 0.0.0.0 so that other "
                                      "screens reach this link. A new tab of this browser follows the game now."),
                                   key="follow-loopback"))
    return ft.AlertDialog(
        title=ft.Text(tr("Follow on another screen")),
        content=ft.Column(content, tight=True, scroll=ft.ScrollMode.AUTO),
        actions=[
            ft.TextButton(tr("Open in a new tab"), icon=ft.Icons.OPEN_IN_NEW,
                          url=ft.Url(link, target=ft.UrlTarget.BLANK), key="follow-new-tab", height=48),
            ft.TextButton(tr("Close"), on_click=on_close, key="follow-close", height=48),
        ],
        on_dismiss=on_close,
    )


def _text(value: str, size: float, *, key: str | None = None, bold: bool = False, colour: str = INK,
          align: ft.TextAlign = ft.TextAlign.START) -> ft.Text:
    return ft.Text(value, size=round(size), color=colour, key=key, text_align=align,
                   weight=ft.FontWeight.BOLD if bold else ft.FontWeight.NORMAL)


def _turn(state: GameState, scale: float, narrow: bool) -> ft.Control:
    """Whose turn, the dice in hand (or what is on offer), and the turn total: beside them, or under them on
    a phone (where beside them it would break a long name mid-word)."""
    name = state.players[state.current]
    lines: list[ft.Control] = [_text(tr("{name} to play", name=name), HEADING * scale, bold=True, key="follow-turn-name")]
    offer = state.open_offer
    if offer is not None:
        lines.append(_text(tr("On offer to {name}: {offer}", name=name, offer=offer), SMALL * scale, colour=SELECTED,
                           key="follow-offer"))
    elif state.phase == "keep" and state.last_throw is not None:
        lines.append(_text(tr("threw {dice}", dice=format_dice(state.last_throw)), SMALL * scale, key="follow-throw"))
    elif not state.points_only:
        lines.append(_text(tr("{in_hand} in hand", in_hand=dice_words(state.dice_in_hand)), SMALL * scale,
                           key="follow-in-hand"))
    figure = _text(local_number(state.turn_points), TURN_TOTAL * scale, bold=True, key="follow-turn-total")
    if narrow:
        lines.append(ft.Row([_text(tr("turn total"), SMALL * scale), figure], alignment=ft.MainAxisAlignment.END,
                            vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=round(24 * scale)))
        return ft.Column(lines, spacing=round(4 * scale), tight=True, key="follow-turn")
    total = ft.Column([figure, _text(tr("turn total"), SMALL * scale)], spacing=0, tight=True,
                      horizontal_alignment=ft.CrossAxisAlignment.END)
    return ft.Row([ft.Column(lines, spacing=round(4 * scale), tight=True, expand=True), total],
                  vertical_alignment=ft.CrossAxisAlignment.CENTER, key="follow-turn")


def _outcome(state: GameState, scale: float) -> ft.Control:
    """The winner at the end, or the roll-off that decides a tie."""
    if state.winner is not None:
        words = tr("{name} wins with {score:,}", name=state.players[state.winner], score=state.scores[state.winner])
        icon = ft.Icons.EMOJI_EVENTS
    else:
        names = ", ".join(state.players[seat] for seat in state.tied)
        words = tr("Tie for the win at {score:,}: {names} each throw one die.", score=state.scores[state.tied[0]],
                   names=names)
        icon = ft.Icons.CASINO
    return ft.Row([ft.Icon(icon, size=round(HEADING * 1.4 * scale), color=SELECTED),
                   ft.Container(_text(words, HEADING * scale, bold=True, key="follow-outcome"), expand=True)],
                  spacing=round(24 * scale))


def _player(state: GameState, seat: int, scale: float) -> ft.Control:
    """One player's line: the full name (wrapped, never cut), the marks, the total."""
    playing = seat == state.current and state.phase not in ("over", "roll_off")
    colour = SELECTED if playing else INK
    marks = ", ".join(player_marks(state, seat))
    said = [state.players[seat], local_number(state.scores[seat])] + ([marks] if marks else [])
    names: list[ft.Control] = [_text(state.players[seat], LINE * scale, bold=playing, colour=colour,
                                     key=f"follow-name-{seat}")]
    if marks:
        names.append(_text(marks, SMALL * scale, colour=colour, key=f"follow-marks-{seat}"))
    return ft.Semantics(
        label=(tr("Playing now: ") if playing else "") + " · ".join(said),
        live_region=True,
        container=True,
        exclude_semantics=True,
        content=ft.Container(
            ft.Row([
                ft.Icon(ft.Icons.PLAY_ARROW, size=round(LINE * scale), color=SELECTED) if playing
                else ft.Container(width=round(LINE * scale)),
                ft.Column(names, spacing=0, tight=True, expand=True),
                _text(local_number(state.scores[seat]), LINE * scale, bold=True, colour=colour, key=f"follow-total-{seat}",
                      align=ft.TextAlign.RIGHT),
            ], spacing=round(16 * scale), vertical_alignment=ft.CrossAxisAlignment.CENTER),
            border=ft.Border.all(max(2, round(4 * scale)), SELECTED) if playing else None,
            border_radius=round(12 * scale),
            padding=ft.Padding.symmetric(horizontal=round(16 * scale), vertical=round(6 * scale)),
        ),
        key=f"follow-seat-{seat}",
    )


def board(state: GameState, scale: float, narrow: bool) -> list[ft.Control]:
    """The followed game: the turn (or the outcome), the final round, every player, what just happened."""
    over = state.phase in ("over", "roll_off")
    shown: list[ft.Control] = [_outcome(state, scale) if over else _turn(state, scale, narrow)]
    if state.final_round and not over:
        names = ", ".join(state.players[seat] for seat in state.last_turns)
        shown.append(_text(tr("Final round · last turns: {names}", names=names), LINE * scale, bold=True,
                           colour=SELECTED, key="follow-final-round"))
    shown += [_player(state, seat, scale) for seat in range(len(state.players))]
    shown += [_text(tr_words(notice.text), SMALL * scale, key=f"follow-notice-{index}") for index, notice in enumerate(state.notices)]
    return shown


@ft.component
def FollowScreen(game_id: str) -> ft.View:
    services = use_services()
    follower = use_model(lambda: FollowState(services.store, game_id))
    viewport = ft.use_context(ViewportContext)
    ft.on_mounted(follower.load)
    changes.use_saves_of(COLLECTION, game_id, follower.load)
    state = follower.state
    dark_notice = use_screen_awake(services, state is not None and state.phase != "over")
    route = follow_path(game_id)
    if state is None:
        text = (follower.refusal or
                (tr("There is no game {game_id!r} here to follow. Open the link the table's screen shows "
                    "(Follow on another screen).", game_id=game_id) if follower.missing else tr("Opening the game…")))
        return screen_view(route, tr("Not found") if follower.missing else tr("Farkle Table"),
                           [ft.Text(text, size=18, key="follow-missing")], on_home=on(services.navigate, "/"))
    scale = max(LEAST_SCALE, min(viewport.width / 1920, viewport.height / 1080))
    body = board(state, scale, viewport.width < NARROW)
    if follower.refusal:
        body.append(_text(follower.refusal, SMALL * scale, colour=SELECTED, key="follow-refusal"))
    if dark_notice is not None:
        body.append(_text(dark_notice, SMALL * scale, key="follow-may-go-dark"))
    panel = ft.Container(ft.Column(body, spacing=round(16 * scale)), bgcolor=BOARD, padding=round(32 * scale),
                         border_radius=round(12 * scale), key="follow-board")
    return screen_view(route, follower.title, [panel])
