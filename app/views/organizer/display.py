"""``/organizer/<id>/display``: the room display, for a projector or a TV (1280x720 to 3840x2160).

It pages by itself (every :data:`PAGE_SECONDS`, pausable) through what the room asks the
organizer between rounds: this round's seating by table, which tables still play and which
reported, the standings with the cut line and the roll-offs pending, the latest results, the
champion at the end, and a QR code of the players' page for their own phones. Everything it
shows is :meth:`engine.Tournament.room`'s; it follows every save of the event from another
screen within a moment (:mod:`app.documents.changes`), and keeps the screen on while shown.

Type scales with the screen: at 1920x1080 the smallest text the room reads is
:data:`SMALL` pixels (headings :data:`HEADING`, lines :data:`LINE`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import flet as ft

from app.context import Viewport, ViewportContext, use_keys, use_model
from app.documents import changes
from app.documents.events import COLLECTION as EVENTS
from app.i18n import local_number, tr, tr_words, translatable
from app.qr import qr_image
from app.routes import players_path
from app.runtime import in_browser
from app.views.organizer.common import EventState, event_view, use_event
from app.views.organizer.players_page_switch import phones_base, players_page_qr_text
from app.views.table_awake import use_screen_awake
from app.views.widgets import BOARD, INK, SELECTED, big_button, on
from engine.tournament.room import Room, RoomStanding, RoomTable

__all__ = ["DisplayScreen", "DisplayState", "PAGE_SECONDS", "SMALL", "LINE", "HEADING", "players_base", "players_link"]

PAGE_SECONDS: Final = 12.0
"""How long each page of the display stays up when it pages by itself."""
HEADING: Final = 60
LINE: Final = 40
SMALL: Final = 30
"""Type sizes at 1920x1080 (they scale with the screen): read from the back of a room."""
TABLES_PER_PAGE: Final = 6
STANDINGS_PER_PAGE: Final = 10
RESULTS_PER_PAGE: Final = 4
CHROME_HEIGHT: Final = 56 + 24 + 52 + 20
"""What the board leaves of the screen's height: the app bar, the view's padding, the buttons below."""
STATUS_COLOURS: Final = {"reported": "#2E7D32", "playing": "#5D4037", "held": "#B71C1C", "roll-off": "#E65100"}


@dataclass
class DisplayState(EventState):
    """The display's page (counting every turn), and whether it stopped paging by itself."""

    turns: int = 0
    paused: bool = False

    async def follow(self) -> None:
        """Another screen saved the event: read it again (:meth:`load` shows it). A round that just
        closed is shown by its outcome at once: the champion after the final, else the page of the
        standings where the cut line falls (between rounds the standings are the first pages)."""
        playing = self.ready and self.tournament.round_open
        await self.load()
        if playing and self.ready and not self.tournament.round_open:
            room = self.tournament.room()
            cut = None if room.champion else room.cut_line
            self.turns = max(0, cut.after - 1) // STANDINGS_PER_PAGE if cut is not None else 0
            self.changed()

    def turn(self, step: int) -> None:
        self.turns += step
        self.changed()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self.changed()

    async def page_by_itself(self) -> None:
        """Turn to the next page every :data:`PAGE_SECONDS` unless paused, while the display is shown."""
        while True:
            await asyncio.sleep(PAGE_SECONDS)
            if not self.paused:
                self.turn(1)

    async def key(self, key: str) -> None:
        """A presenter's clicker or the keyboard: the arrow and page keys turn (the space bar is left to
        the focused button, which it presses)."""
        if key == "Arrow Right" or key == "Page Down":
            self.turn(1)
        elif key == "Arrow Left" or key == "Page Up":
            self.turn(-1)


@dataclass(frozen=True)
class Panel:
    """One page of the display: its title and what it shows, at a scale."""

    key: str
    title: str
    draw: Callable[[float], list[ft.Control]]


def players_base(state: EventState) -> str | None:
    """Where phones reach the players' page (the venue server, as the cards' join links reach it); None in
    the PWA, which has no venue server, or when the organizer turned the page off."""
    if in_browser() or not state.organizer.players_page_open:
        return None
    return phones_base(state.organizer.link_base, str(getattr(ft.context.page, "url", None) or "")) or None


def players_link(state: EventState) -> str | None:
    """The players' page's address for phones (:func:`players_base`), for a QR on the display or the wall."""
    base = players_base(state)
    return None if base is None else base + players_path(state.tournament.event_id)


def _text(value: str, size: float, *, key: str | None = None, bold: bool = False, colour: str = INK) -> ft.Text:
    return ft.Text(value, size=round(size), color=colour, key=key,
                   weight=ft.FontWeight.BOLD if bold else ft.FontWeight.NORMAL)


def _chunks(items: Sequence[object], size: int) -> list[range]:
    """Index ranges of ``items`` per page (one empty page for no items)."""
    return [range(start, min(start + size, len(items))) for start in range(0, max(len(items), 1), size)]


def _columns(width: float, most: int, least_width: float) -> int:
    """How many tiles side by side, each at least ``least_width``: ``most`` on a projector or TV, fewer on a
    window opened narrow or a phone."""
    return max(1, min(most, int(width // least_width)))


def _tile_width(width: float, columns: int, scale: float) -> float:
    """A tile's width for ``columns`` of them side by side in a row ``width`` wide (16 apart at 1080p)."""
    return (width - round(16 * scale) * (columns - 1)) // columns - 1


def _tile(scale: float, width: float, lines: list[ft.Control], colour: str, key: str) -> ft.Control:
    return ft.Container(ft.Column(lines, spacing=round(4 * scale), tight=True), width=width, bgcolor=colour,
                        padding=round(16 * scale), border_radius=round(12 * scale), key=key)


def _seating(room: Room, tables: Sequence[RoomTable], width: float) -> Callable[[float], list[ft.Control]]:
    def draw(scale: float) -> list[ft.Control]:
        tile = _tile_width(width, _columns(width, 3, 500 * scale), scale)
        return [ft.Row([
            _tile(scale, tile, [
                _text(tr("Table {table}", table=t.table), LINE * scale, bold=True, colour=SELECTED),
                *(_text(tr("{seat}. {name} ({number})", seat=seat, name=name, number=number), SMALL * scale)
                  for seat, (number, name) in enumerate(t.seats, 1)),
            ], "#14532D", f"display-seating-{t.table}")
            for t in tables
        ], wrap=True, spacing=round(16 * scale), run_spacing=round(16 * scale))]
    return draw


STATUS_LABELS: Final = {"reported": translatable("Reported"), "playing": translatable("Playing"),
                        "held": translatable("Held for the organizer"), "roll-off": translatable("Roll-off pending")}


def _status_line(t: RoomTable) -> str:
    """``Reported at 14:40`` / ``Playing since 14:02``: a table's state on its tile."""
    label = tr(STATUS_LABELS[t.status])
    if t.status == "playing" and t.since:
        return tr("{status} since {time}", status=label, time=t.since)
    if t.status in ("reported", "roll-off") and t.at:
        return tr("{status} at {time}", status=label, time=t.at)
    return label


def _tables(room: Room, width: float) -> Callable[[float], list[ft.Control]]:
    def draw(scale: float) -> list[ft.Control]:
        tile = _tile_width(width, _columns(width, 5 if len(room.tables) > 8 else 4, 300 * scale), scale)
        tiles = ft.Row([
            _tile(scale, tile, [_text(tr("Table {table}", table=t.table), LINE * scale, bold=True),
                                _text(_status_line(t), SMALL * scale)],
                  STATUS_COLOURS[t.status], f"display-table-{t.table}")
            for t in room.tables
        ], wrap=True, spacing=round(16 * scale), run_spacing=round(16 * scale))
        needs = [_text(tr_words(line), SMALL * scale, key=f"display-needs-{index}")
                 for index, line in enumerate(room.to_close)]
        if needs:
            needs.insert(0, _text(tr("Before the round can close:"), SMALL * scale, bold=True, colour=SELECTED))
        return [tiles, *needs]
    return draw


MARKS: Final = {"going on": (ft.Icons.CHECK_CIRCLE, translatable("goes on")),
                "roll-off": (ft.Icons.CASINO, translatable("roll-off"))}
"""A row's mark (an icon: the fonts served offline have no check mark) and what it is called."""


def _standing_row(row: RoomStanding, scale: float) -> ft.Control:
    colour = SELECTED if row.mark == "roll-off" else INK
    total = "" if row.total is None else local_number(row.total)
    mark: ft.Control = ft.Container(width=round(LINE * 1.2 * scale))
    if row.mark:
        icon, name = MARKS[row.mark]
        mark = ft.Icon(icon, size=round(LINE * scale), color=SELECTED, semantics_label=tr(name),
                       key=f"display-{row.mark.replace(' ', '-')}-{row.number}")
    return ft.Row([
        _text(f"{row.rank}.", LINE * scale, colour=colour),
        ft.Container(_text(tr("{name} ({number})", name=row.name, number=row.number), LINE * scale, colour=colour),
                     expand=True),
        _text(total, LINE * scale, colour=colour),
        ft.Container(mark, width=round(LINE * 1.2 * scale)),
    ], spacing=round(24 * scale), key=f"display-standing-{row.number}")


def _standings(room: Room, rows: range) -> Callable[[float], list[ft.Control]]:
    def draw(scale: float) -> list[ft.Control]:
        lines: list[ft.Control] = [_text(tr("Roll-off: {words}.", words=words), SMALL * scale, colour=SELECTED,
                                         key=f"display-roll-off-{index}")
                                   for index, words in enumerate(room.roll_offs)]
        cut = room.cut_line
        for index in rows:
            if cut is not None and index == cut.after:
                lines.append(_cut_line(tr_words(cut.words), scale))
            lines.append(_standing_row(room.standings[index], scale))
        if cut is not None and rows and cut.after == rows[-1] + 1:
            lines.append(_cut_line(tr_words(cut.words), scale))
        return [ft.Column(lines, spacing=round(4 * scale), tight=True)]
    return draw


def _cut_line(words: str, scale: float) -> ft.Control:
    return ft.Container(_text(words, SMALL * scale, bold=True, colour=ft.Colors.BLACK), bgcolor=SELECTED,
                        padding=ft.Padding.symmetric(horizontal=round(16 * scale), vertical=round(4 * scale)),
                        key="display-cut-line")


def _latest(room: Room, results: range) -> Callable[[float], list[ft.Control]]:
    def draw(scale: float) -> list[ft.Control]:
        lines: list[ft.Control] = []
        for index in results:
            item = room.latest[index]
            where = tr("{round}, table {table}", round=item.round_name, table=item.table)
            lines.append(ft.Column([
                _text(tr("{where} at {time}", where=where, time=item.at) if item.at else where, SMALL * scale,
                      colour=SELECTED),
                _text(tr_words(item.summary), LINE * scale, key=f"display-result-{index}"),
            ], spacing=0, tight=True))
        return lines or [_text(tr("No result is in yet."), LINE * scale)]
    return draw


def _champion(room: Room) -> Callable[[float], list[ft.Control]]:
    def draw(scale: float) -> list[ft.Control]:
        return [ft.Column([
            ft.Icon(ft.Icons.EMOJI_EVENTS, size=round(160 * scale), color=SELECTED),
            _text(room.champion or "", HEADING * 1.6 * scale, bold=True, key="display-champion"),
            _text(tr("Champion of {event}", event=room.event_name), LINE * scale),
        ], horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True)]
    return draw


def _players(base: str, event_code: str) -> Callable[[float], list[ft.Control]]:
    link = base + players_path(event_code)

    def draw(scale: float) -> list[ft.Control]:
        image = qr_image(players_page_qr_text(base, event_code), box_size=8)
        side = round(420 * scale)
        return [ft.Row([
            ft.Container(ft.Image(src=image.png, width=side, height=side, fit=ft.BoxFit.CONTAIN,
                                  semantics_label=tr("QR code of the players' page"), key="display-players-qr"),
                         bgcolor=ft.Colors.WHITE, padding=round(12 * scale)),
            ft.Column([
                _text(tr("Your table, your seat, your standing: on your own phone."), LINE * scale, bold=True),
                _text(tr("Scan the code on the venue's Wi-Fi, or open:"), SMALL * scale),
                _text(link, SMALL * scale, colour=SELECTED, key="display-players-link"),
            ], expand=True, spacing=round(12 * scale)),
        ], spacing=round(40 * scale), vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    return draw


def panels(state: EventState, room: Room, width: float) -> list[Panel]:
    """The display's pages in order: the champion first at the end; while a round is played its seating and
    tables first, between rounds the standings; then the latest results and the players' QR."""
    found: list[Panel] = []
    if room.champion:
        found.append(Panel("champion", tr("Champion"), _champion(room)))
    if room.round and state.tournament.round_open:  # between rounds the room looks at the outcome
        seating = _chunks(room.tables, TABLES_PER_PAGE)
        for part, tables in enumerate(seating, 1):
            title = tr("{round}: seating", round=room.round_name)
            found.append(Panel(f"seating-{part}", title + (f" ({part}/{len(seating)})" if len(seating) > 1 else ""),
                               _seating(room, [room.tables[i] for i in tables], width)))
        found.append(Panel("tables", tr("{round}: {reported} of {tables} tables reported", round=room.round_name,
                                         reported=room.count("reported"), tables=len(room.tables)),
                           _tables(room, width)))
    if room.round:
        pages = _chunks(room.standings, STANDINGS_PER_PAGE)
        for part, rows in enumerate(pages, 1):
            found.append(Panel(f"standings-{part}", tr("Standings") + (f" ({part}/{len(pages)})" if len(pages) > 1
                                                                         else ""), _standings(room, rows)))
        latest = _chunks(room.latest, RESULTS_PER_PAGE)
        for part, results in enumerate(latest, 1):
            found.append(Panel(f"latest-{part}", tr("Latest results") + (f" ({part}/{len(latest)})" if len(latest) > 1
                                                                          else ""), _latest(room, results)))
    base = players_base(state)
    if base is not None:
        found.append(Panel("players", tr("Players: find yourself"), _players(base, room.event_code)))
    if not found:
        found.append(Panel("welcome", room.event_name, lambda scale: [_text(tr_words(room.stage), LINE * scale)]))
    return found


def _scale(viewport: Viewport) -> float:
    """The type's scale: 1 at 1920x1080, by the screen's narrower side (a 4K TV doubles it)."""
    return max(0.5, min(viewport.width / 1920, viewport.height / 1080))


@ft.component
def DisplayScreen(tournament_id: str) -> ft.View:
    display = use_event(DisplayState, tournament_id, "display")
    services = display.services
    viewport = ft.use_context(ViewportContext)
    dark_notice = use_screen_awake(services, True)
    use_keys(display.key)
    changes.use_saves_of(EVENTS, tournament_id, display.follow)
    paging: list[asyncio.Future[None]] = use_model(list[asyncio.Future[None]])

    def shown() -> None:
        paging.append(asyncio.ensure_future(display.page_by_itself()))

    def left() -> None:
        while paging:
            paging.pop().cancel()

    ft.use_effect(shown, dependencies=[], cleanup=left)
    if not display.ready:
        return event_view(display, [])
    room = display.tournament.room()
    scale = _scale(viewport)
    width = viewport.width - 24 - 2 * round(32 * scale)  # inside the view's padding and the board's
    pages = panels(display, room, width)
    panel = pages[display.turns % len(pages)]
    head = ft.Row([
        ft.Container(_text(f"{room.event_name} · {tr_words(room.round_name)}" if room.round_name else room.event_name,
                           HEADING * scale, bold=True, key="display-event"), expand=True),
        _text(f"{display.turns % len(pages) + 1}/{len(pages)}", SMALL * scale, key="display-page-number"),
    ])
    body: list[ft.Control] = [
        head,
        _text(panel.title, LINE * scale, bold=True, colour=SELECTED, key=f"display-panel-{panel.key}"),
        *panel.draw(scale),
    ]
    if in_browser():
        body.append(_text(tr("Players' own phones: the players' page needs the venue server (the app on a laptop "
                             "on the venue's Wi-Fi); this offline app has none."), SMALL * scale,
                          key="display-no-players-page"))
    if dark_notice is not None:
        body.append(_text(tr("This browser may let the screen go dark: it does not let the app keep it on. Turn "
                             "off sleep in this computer's settings."), SMALL * scale, key="display-may-go-dark"))
    controls = ft.Row([
        big_button(tr("Previous"), on(display.turn, -1), filled=False, key="display-previous",
                   icon=ft.Icons.NAVIGATE_BEFORE),
        big_button(tr("Resume paging") if display.paused else tr("Pause paging"), on(display.toggle_pause),
                   filled=False, key="display-pause", icon=ft.Icons.PLAY_ARROW if display.paused else ft.Icons.PAUSE),
        big_button(tr("Next"), on(display.turn, 1), filled=False, key="display-next", icon=ft.Icons.NAVIGATE_NEXT),
    ], wrap=True)
    board = ft.Container(ft.Column(body, spacing=round(20 * scale)), bgcolor=BOARD, padding=round(32 * scale),
                         border_radius=round(12 * scale), key="display-board",
                         height=max(viewport.height - CHROME_HEIGHT, 200))  # the same frame on every page
    return event_view(display, [board, controls], title=tr("Room display"), plain=True)
