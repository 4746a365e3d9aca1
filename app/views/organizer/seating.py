"""``/organizer/<id>/seating`` and ``/print``: the draw, and the table cards with their setup codes.

A table's card can be revoked (a lost phone, a card left lying about) with a reason: the
codes it signs are refused from then on, and the card shows the table's new setup code.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from app.event.number_entry import ORGANIZER_DIGITS, parse_number
from app.qr import qr_image
from app.runtime import in_browser
from app.table.tournament_table import card_link_base, join_link, link_qr_text, site_link_base
from app.views.organizer.common import EventState, event_view, text_field, use_event
from app.views.organizer.printables import PrintablePage, printable_actions, printable_links
from app.views.table_result import CodeActions
from app.views.widgets import big_button, labelled_dropdown, on, section
from app.i18n import ntr, tr, tr_words
from engine import FarkleError, Tournament, typing_form

__all__ = ["SeatingScreen", "PrintScreen", "SeatingPage", "table_cards"]

CARD_GRID_COLUMNS = 12
CARD_SPAN: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 12, "md": 6, "xl": 4}
"""Cards side by side as the window widens: one a row on a phone, two on a tablet, three on a laptop."""


def card_key(table: int | str) -> ft.ScrollKey:
    """A table card's key, which the page can scroll to."""
    return ft.ScrollKey(f"table-card-{table}")  # type: ignore[call-arg]  # a dataclass behind Flet's decorator


@dataclass
class SeatingPage(EventState):
    """The seating page: the draw seed being typed."""

    async def draw(self) -> None:
        seed_text = self.value("draw_seed").strip()

        async def draw() -> tuple[tuple[int, ...], ...]:
            seed = parse_number(tr("A draw seed"), seed_text, optional=True, digits=ORGANIZER_DIGITS)
            return await self.organizer.act(lambda t: t.draw_seats(seed))

        def report(tables: tuple[tuple[int, ...], ...]) -> str:
            return ntr("Seats drawn: {count} table (seed {seed}).", "Seats drawn: {count} tables (seed {seed}).",
                       len(tables), count=len(tables), seed=self.tournament.draw_info()[0])

        await self.do(draw, report, clear=("draw_seed",))

    async def rerun(self) -> None:
        try:
            check = self.organizer.verify_draw()
        except FarkleError as why:
            self.refuse(tr_words(why.words))
            return
        (self.tell if check.same else self.refuse)(check.message)

    async def cancel_draw(self) -> None:
        await self.act(lambda t: t.cancel_draw(),
                       lambda words: tr("The draw was cancelled.") + f" {words}" if words
                       else tr("The draw was cancelled: withdraw players or draw again."))

    async def revoke(self, table: int) -> None:
        """Revoke ``table``'s card for the reason typed beside it; the card then shows the new setup code."""
        field = f"revoke_reason_{table}"
        reason = self.value(field)

        def report(issue: int) -> str:
            return (tr("Table {table}'s card is revoked: results it signs are refused. Give the table its new "
                       "card (issue {number}): scan its new setup code.",
                       table=table, number=issue + 1))

        await self.do(lambda: self.organizer.revoke_card(table, reason), report, clear=(field,))

    @staticmethod
    async def go_to_table(event: ft.Event[ft.Dropdown]) -> None:
        """Scroll the page to the card of the table chosen: with 25 tables the last is 25 screens
        down on a phone. The page is the view holding the dropdown."""
        view: ft.BaseControl | None = event.control
        while view is not None and not isinstance(view, ft.View):
            view = view.parent
        if view is not None and event.control.value:
            await view.scroll_to(scroll_key=card_key(event.control.value), duration=300)


@ft.component
def SeatingScreen(tournament_id: str) -> ft.View:
    seating = use_event(SeatingPage, tournament_id, "seating")
    if not seating.ready:
        return event_view(seating, [])
    t = seating.tournament
    controls: list[ft.Control] = []
    if not t.round_open and t.champion is None:
        try:
            upcoming = t.next_round()
        except FarkleError as why:
            controls.append(ft.Text(tr_words(why.words), key="cannot-draw"))
        else:
            controls.append(section(
                tr("Draw the final") if upcoming.is_final else tr("Draw round {number}", number=upcoming.number),
                ft.Text(tr_words(upcoming.describe()), key="next-round"),
                ft.Text(tr("The draw is random; its seed is recorded so anyone can re-run it.")),
                text_field(seating, "draw_seed", tr("Draw seed (optional)"), key="draw-seed"),
                big_button(tr("Draw the seats for the final") if upcoming.is_final
                           else tr("Draw the seats for round {number}", number=upcoming.number), on(seating.draw),
                           key="draw-seats",
                           icon=ft.Icons.SHUFFLE),
            ))
    if t.round:
        plan = t.plan()[t.round - 1]
        seed, clashes = t.draw_info()
        head: list[ft.Control] = [
            ft.Text(tr_words(plan.describe()), key="round-plan"),
            ft.Text(ntr("Draw seed {seed} · {clashes} pair seated together again",
                        "Draw seed {seed} · {clashes} pairs seated together again", clashes, seed=seed,
                        clashes=clashes),
                    key="draw-info"),
            ft.Row([
                big_button(tr("Re-run the draw from its seed"), on(seating.rerun), filled=False, key="rerun-draw"),
                big_button(tr("Printable cards"), on(seating.navigate, f"{seating.base}/print"), filled=False,
                           key="print-cards", icon=ft.Icons.PRINT),
                *printable_links(seating.base, seating.navigate),
            ], wrap=True),
        ]
        if t.round_open and not t.results() and not t.held_results():
            head.append(big_button(tr("Cancel this draw"), on(seating.cancel_draw), filled=False, key="cancel-draw"))
        tables = len(t.seating())
        if tables > 1:
            head.append(labelled_dropdown(tr("Go to table"), "", [(str(n), tr("Table {n}",
                                                                          n=n)) for n in range(1, tables + 1)],
                                          seating.go_to_table,
                                          key="go-to-table", width=200))
        controls.append(section(tr("{name}: table cards", name=plan.name), *head))
        controls.append(ft.ResponsiveRow(table_cards(t, seating.organizer.link_base, plain=False, page=seating),
                                         columns=CARD_GRID_COLUMNS, spacing=12, run_spacing=12, key="table-cards"))
    return event_view(seating, controls)


@ft.component
def PrintScreen(tournament_id: str) -> ft.View:
    """The table cards alone, plainly; opened or saved as a document to print (a canvas prints one window)."""
    cards = use_event(PrintablePage, tournament_id, "print")
    if not cards.ready:
        return event_view(cards, [], title=tr("Cards"), plain=True)
    t = cards.tournament
    if not t.round:
        controls: list[ft.Control] = [ft.Text(tr("No round has been drawn yet: there are no cards to print."))]
    else:
        controls = [
            *printable_actions(cards, "cards"),
            ft.Text(tr("{name} · {event_id}", name=t.name, event_id=t.event_id), size=12),
            *table_cards(t, cards.organizer.link_base, plain=True),
        ]
    return event_view(cards, controls, title=tr("Cards"), plain=True)


def table_cards(t: Tournament, link_base: str, plain: bool, page: SeatingPage | None = None) -> list[ft.Control]:
    """One card per table of the current round: seats, rules, and while it is open the setup QR and its text.

    A re-issued card says so; with ``page`` (the seating page) each open table has a
    reason field and a button to revoke its card.
    """
    round_number = t.round
    ink = ft.Colors.BLACK if plain else None
    # Links carry this site's folder: the address the app was opened from (ft.context.page).
    page_url = str(getattr(ft.context.page, "url", None) or "")
    link_base = card_link_base(link_base, page_url, in_browser())
    join_base = link_base or site_link_base(page_url, in_browser())
    rules = t.rules_for(round_number).describe()
    cards: list[ft.Control] = []
    for table, numbers in enumerate(t.seating(), 1):
        short = t.short_table(table)
        heading = tr("Table {table} · {name}", table=table, name=t.plan()[round_number - 1].name)
        lines: list[ft.Control] = [
            ft.Text(heading + (f" · {tr_words(short)}" if short else ""), size=20, weight=ft.FontWeight.BOLD,
                    color=ink, key=f"card-title-{table}"),
            *(ft.Text(tr("Seat {seat}: {name} (number {n})",
                         seat=seat, name=t.player(n).name, n=n), color=ink) for seat, n in enumerate(numbers, 1)),
            ft.Text(rules, size=12, color=ink),
        ]
        if t.round_open:
            code = t.setup_code(table, link_base)
            link = join_link(code, join_base) if join_base else ""
            image = qr_image(link_qr_text(link) if link else code, box_size=4)
            lines += [
                ft.Container(
                    ft.Image(src=image.png, width=220, height=220, fit=ft.BoxFit.CONTAIN,
                             semantics_label=tr("Setup QR code for table {table}",
                                                table=table), key=f"setup-qr-{table}"),
                    bgcolor=ft.Colors.WHITE, padding=6,
                ),
                ft.Text(tr("Setup code (QR version {version}):", version=image.version), size=12, color=ink),
                ft.Text(typing_form(code), font_family="monospace", size=13, key=f"setup-code-{table}", color=ink),
            ]
            if link:
                lines.append(ft.Text(tr("Join link: {link}", link=link), size=11, key=f"setup-link-{table}", color=ink))
            if not plain:
                lines.append(CodeActions(tr("setup code"), typing_form(code), f"setup-code-{table}"))
                if link:
                    lines.append(CodeActions(tr("join link"), link, f"setup-link-{table}"))
            revoked = t.revocations(table)
            if revoked:
                last = revoked[-1]
                lines.append(ft.Text(
                    tr("New card (issue {number}): the card before was {described}. Codes signed by an earlier "
                       "card are refused.",
                       number=len(revoked) + 1, described=last.described),
                    size=12, color=ink, key=f"card-issue-{table}",
                ))
            if page is not None:
                # One above the other, each as wide as the card: an expanding field inside a
                # wrapping row has no width to lay out in (Flutter drew a grey box 100,000 px tall).
                lines += [
                    text_field(page, f"revoke_reason_{table}", tr("Why revoke this card (phone lost...)"),
                               key=f"revoke-reason-{table}"),
                    big_button(tr("Revoke card, issue a new one"), on(page.revoke, table), filled=False,
                               key=f"revoke-table-{table}", icon=ft.Icons.KEY_OFF),
                ]
        cards.append(ft.Container(
            ft.Column(lines, spacing=4),
            key=card_key(table),
            padding=10,
            border=ft.Border.all(1, ft.Colors.BLACK if plain else ft.Colors.OUTLINE),
            border_radius=0 if plain else 8,
            bgcolor=ft.Colors.WHITE if plain else None,
            col=CARD_SPAN,
        ))
    return cards
