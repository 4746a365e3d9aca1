"""The printables as HTML documents: the table cards, a seat list for the wall, a result slip per table, the standings.

The app draws on a canvas, which a browser prints as one picture of the window: a list longer
than the window would be cut off. So what goes on paper is a plain HTML document, black on
white, that the browser lays out in pages itself (A4 or Letter, whichever the printer has):
rows are never split across pages, and a long name wraps instead of being cut (no ellipsis).
Every word in it is the app's (``tr``) or the engine's, as on the screens.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from html import escape
from typing import Final

from app.i18n import local_number, tr, tr_words
from app.qr import qr_image
from app.table.tournament_table import join_link, link_qr_text
from engine import Tournament, typing_form
from engine.name_order import name_order

__all__ = ["table_cards_sheet", "seat_list", "result_slips", "standings_sheet"]

_STYLE: Final = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: #000; background: #fff; margin: 0;
       overflow-wrap: anywhere; }
header { display: flex; gap: 16px; align-items: center; margin-bottom: 10px; }
header img { width: 150px; height: 150px; image-rendering: pixelated; }
h1 { font-size: 22pt; margin: 0 0 4px 0; }
p { margin: 2px 0; font-size: 11pt; }
table { width: 100%; border-collapse: collapse; }
tr, .slip { break-inside: avoid; page-break-inside: avoid; }
th { text-align: left; font-size: 11pt; border-bottom: 2px solid #000; padding: 4px; }
td { border-bottom: 1px solid #000; padding: 4px; vertical-align: top; }
.seats td { font-size: 16pt; padding: 3px 6px; }
.seats td.where { white-space: nowrap; text-align: right; font-weight: bold; font-size: 14pt; }
.slip { border: 2px solid #000; padding: 10px; margin-bottom: 12px; }
.slip h2 { font-size: 16pt; margin: 0 0 6px 0; }
.slip td { font-size: 12pt; height: 40px; }
.slip td.seat { white-space: nowrap; width: 10%; }
.slip td.box { border: 1px solid #000; width: 20%; }
.slip td.initials { border: 1px solid #000; width: 11%; }
.standings td { font-size: 11pt; }
tr.cut td { border-bottom: 5px double #000; }
.note { font-weight: bold; }
.card { border: 2px solid #000; padding: 10px; margin-bottom: 12px; break-inside: avoid; page-break-inside: avoid; }
.card h2 { font-size: 16pt; margin: 0 0 4px 0; }
.card .body { display: flex; gap: 12px; align-items: flex-start; }
.card img { width: 200px; height: 200px; image-rendering: pixelated; flex: none; }
.code { font-family: "DejaVu Sans Mono", monospace; font-size: 10pt; }
"""
"""Plain print styles: black on white, large type for the wall, boxes to write in."""


_PAGE: Final = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title><style>{style}</style>'
                '</head><body>{body}</body></html>')
_HEADING: Final = "<h1>{title}</h1><p>{event}</p>"
_QR: Final = '<img src="data:image/png;base64,{png}" alt="{alt}">'
_PARAGRAPH: Final = "<p>{text}</p>"
_NOTE: Final = '<p class="note">{text}</p>'
_SEAT_HEADER: Final = "<header>{qr}<div>{heading}{link}</div></header>"
_SEAT_ROW: Final = '<tr><td>{name}</td><td class="where">{where}</td></tr>'
_SEAT_TABLE: Final = '<table class="seats">{rows}</table>'
_LONE_ROW: Final = "<tr><td>{text}</td></tr>"
_SLIP: Final = ('<div class="slip"><h2>{heading}</h2>{note}<table><tr><th>{seat}</th><th>{player}</th><th>{total}</th>'
                "<th>{initials}</th></tr>{rows}</table><p>{roll_off} ________________</p><p>{hand_in}</p></div>")
_SLIP_ROW: Final = ('<tr><td class="seat">{seat}</td><td>{name} ({number})</td><td class="box"></td>'
                    '<td class="initials"></td></tr>')
_STANDINGS_TABLE: Final = '<table class="standings"><tr>{head}</tr>{rows}</table>'
_CELL: Final = "<td>{text}</td>"
_HEAD_CELL: Final = "<th>{text}</th>"
_STANDING_ROW: Final = "<tr{cut}><td>{rank}</td><td>{name} ({number})</td>{totals}<td>{status}</td></tr>"
_CUT: Final = ' class="cut"'
_CARD: Final = '<div class="card"><h2>{heading}</h2><div class="body">{qr}<div>{lines}</div></div></div>'
_CODE: Final = '<p class="code">{text}</p>'
"""The markup, each piece filled with escaped text (:func:`_fill`)."""


def _fill(markup: str, **texts: object) -> str:
    """``markup`` with each text escaped; markup made by this module passes as :class:`_Markup`."""
    return markup.format(**{name: text if isinstance(text, _Markup) else escape(str(text))
                            for name, text in texts.items()})


class _Markup(str):
    """Markup this module made, put in other markup as it is."""


def _document(title: str, body: Iterable[str]) -> str:
    return _fill(_PAGE, title=title, style=_Markup(_STYLE), body=_Markup("".join(body)))


def _heading(t: Tournament, title: str) -> _Markup:
    return _Markup(_fill(_HEADING, title=title, event=tr("{name} · event code {code}", name=t.name, code=t.event_id)))


def _round_name(t: Tournament) -> str:
    return t.plan()[t.round - 1].name


def table_cards_sheet(t: Tournament, link_base: str, join_base: str) -> str:
    """The table cards of the round drawn last, as the seating page shows them: seats and rules, and while
    the round is played each table's setup QR (a join link when there is an address for one) and its text."""
    title = tr("{round}: table cards", round=_round_name(t)) if t.round else tr("Table cards")
    cards: list[str] = []
    for table, numbers in enumerate(t.seating() if t.round else (), 1):
        short = t.short_table(table)
        heading = tr("Table {table} · {name}", table=table, name=_round_name(t)) + \
            (f" · {tr_words(short)}" if short else "")
        lines = [_fill(_PARAGRAPH, text=tr("Seat {seat}: {name} (number {n})", seat=seat, name=t.player(n).name, n=n))
                 for seat, n in enumerate(numbers, 1)]
        lines.append(_fill(_PARAGRAPH, text=t.rules_for().describe()))
        qr = ""
        if t.round_open:
            code = t.setup_code(table, link_base)
            link = join_link(code, join_base) if join_base else ""
            image = qr_image(link_qr_text(link) if link else code, box_size=4)
            qr = _fill(_QR, png=base64.b64encode(image.png).decode("ascii"),
                       alt=tr("Setup QR code for table {table}", table=table))
            lines += [
                _fill(_PARAGRAPH, text=tr("Setup code (QR version {version}):", version=image.version)),
                _fill(_CODE, text=typing_form(code)),
            ]
            if link:
                lines.append(_fill(_CODE, text=tr("Join link: {link}", link=link)))
            revoked = t.revocations(table)
            if revoked:
                lines.append(_fill(_PARAGRAPH, text=tr(
                    "New card (issue {number}): the card before was {described}. Codes signed by an earlier card are "
                    "refused.", number=len(revoked) + 1, described=revoked[-1].described)))
        cards.append(_fill(_CARD, heading=heading, qr=_Markup(qr), lines=_Markup("".join(lines))))
    if not cards:
        cards = [_fill(_PARAGRAPH, text=tr("No round has been drawn yet: there are no cards to print."))]
    return _document(title, [_heading(t, title), *cards])


def seat_list(t: Tournament, players_link: str | None) -> str:
    """Every player of the round drawn last, alphabetically, with table and seat; the players' page QR on top."""
    title = tr("{round}: where you sit", round=_round_name(t)) if t.round else tr("Where you sit")
    qr = link = ""
    if players_link:
        png = base64.b64encode(qr_image(players_link, box_size=4).png).decode("ascii")
        qr = _fill(_QR, png=png, alt=tr("The players page QR code"))
        link = _fill(_PARAGRAPH, text=tr("Scan for your seat, your totals and your place: {link}", link=players_link))
    seated = [(n, table, seat) for table, numbers in enumerate(t.seating() if t.round else (), 1)
              for seat, n in enumerate(numbers, 1)]
    seated.sort(key=lambda item: (name_order(t.player(item[0]).name), item[0]))
    rows = [_fill(_SEAT_ROW, name=t.player(n).name, where=tr("Table {table} · seat {seat}", table=table, seat=seat))
            for n, table, seat in seated]
    if not rows:
        rows = [_fill(_LONE_ROW, text=tr("No round has been drawn yet: nobody has a seat."))]
    header = _fill(_SEAT_HEADER, qr=_Markup(qr), heading=_heading(t, title), link=_Markup(link))
    return _document(title, [header, _fill(_SEAT_TABLE, rows=_Markup("".join(rows)))])


def result_slips(t: Tournament) -> str:
    """One slip per table of the round drawn last: seats and names, boxes for each total and initials."""
    title = tr("{round}: result slips", round=_round_name(t)) if t.round else tr("Result slips")
    slips: list[str] = []
    for table, numbers in enumerate(t.seating() if t.round else (), 1):
        short = t.short_table(table)
        rows = "".join(_fill(_SLIP_ROW, seat=tr("Seat {seat}", seat=seat), name=t.player(n).name, number=n)
                       for seat, n in enumerate(numbers, 1))
        slips.append(_fill(
            _SLIP, heading=tr("Table {table} · {round} · {code}", table=table, round=_round_name(t), code=t.event_id),
            note=_Markup(_fill(_NOTE, text=tr_words(short)) if short else ""), seat=tr("Seat"), player=tr("Player"),
            total=tr("Final total"), initials=tr("Initials"), rows=_Markup(rows),
            roll_off=tr("Totals level for the win: the roll-off faces, by name:"),
            hand_in=tr("Every player initials their total; hand the slip to the organizer."),
        ))
    if not slips:
        slips = [_fill(_PARAGRAPH, text=tr("No round has been drawn yet: there are no tables."))]
    return _document(title, [_heading(t, title), *slips])


def standings_sheet(t: Tournament) -> str:
    """Everyone, best first, with each round's total and a line under those going on at the cut."""
    title = tr("Standings")
    room = t.room()
    rounds = [plan.name for plan in t.plan()[: t.round]]
    marks = {row.number: row.mark for row in room.standings}
    cut_after = room.cut_line.after if room.cut_line is not None else None
    head = "".join(_fill(_HEAD_CELL, text=name) for name in (tr("Place"), tr("Player"), *rounds, tr("Standing")))
    rows: list[str] = []
    for index, row in enumerate(t.standings(), 1):
        totals = "".join(_fill(_CELL, text="" if total is None else local_number(total)) for total in row.totals)
        # While the round is played the cut's mark says who would go on; once closed, the standing says it.
        mark = {"going on": tr("goes on"), "roll-off": tr("roll-off")}.get(marks.get(row.number, ""), "") \
            if t.round_open else ""
        rows.append(_fill(_STANDING_ROW, cut=_Markup(_CUT if index == cut_after else ""), rank=row.rank,
                          name=row.name, number=row.number, totals=_Markup(totals),
                          status=tr_words(row.status) + (f" · {mark}" if mark else "")))
    notes = [tr_words(note) for note in (room.stage, *((room.cut_line.words,) if room.cut_line is not None else ()),
                                          *room.roll_offs)]
    return _document(title, [
        _heading(t, title),
        *(_fill(_NOTE, text=note) for note in notes),
        _fill(_STANDINGS_TABLE, head=_Markup(head), rows=_Markup("".join(rows))),
    ])
