"""``/organizer/<id>/final``: the final's rules switch, the champion, and the prize (or its agreed split)."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from app.views.organizer.common import EventState, event_view, notice_at, text_field, use_event
from app.views.widgets import big_button, on, preset_label, section
from app.i18n import tr, tr_words
from engine import Prize

__all__ = ["FinalScreen", "FinalPage"]


@dataclass
class FinalPage(EventState):
    """The final page: the prize, currency, shares and note being typed."""

    async def switch_rules(self) -> None:
        await self.act(lambda t: t.switch_rules(),
                       lambda _: tr("The final is switched: tell the table to change its rules from the next turn."),
                       place="switch")

    async def award_prize(self) -> None:
        finalists = self.tournament.seating()[0]
        shares = {n: self.value(f"share_{n}") for n in finalists}

        def report(prize: Prize) -> str:
            return tr("Prize recorded: {currency}{amount:,}.", currency=prize.currency, amount=prize.amount)

        await self.do(lambda: self.organizer.award_prize(self.value("prize_amount"), self.value("prize_currency"),
                                                         shares, self.value("prize_note")),
                      report, clear=("prize_amount", "prize_note", *(f"share_{n}" for n in finalists)), place="prize")


@ft.component
def FinalScreen(tournament_id: str) -> ft.View:
    final_page = use_event(FinalPage, tournament_id, "final")
    if not final_page.ready:
        return event_view(final_page, [])
    return event_view(final_page, final_controls(final_page))


def final_controls(page: FinalPage) -> list[ft.Control]:
    t = page.tournament
    plans = t.plan()
    final = plans[-1] if plans and plans[-1].is_final else None
    if final is None:
        return [ft.Text(tr("The final is planned once players are checked in."))]
    controls: list[ft.Control] = [ft.Text(tr_words(final.describe()), key="final-plan")]
    spec = t.format.rounds[final.spec_index]
    if t.round_open and t.round == final.number and spec.switch_to:
        if plans[t.round - 1].rules == spec.switch_to:
            controls.append(ft.Text(tr("The final is switched to {switch_to} rules.",
                                       switch_to=preset_label(spec.switch_to)), key="switched"))
        else:
            controls.append(ft.Text(tr("You may switch the final table to {switch_to} rules at any moment: tell "
                                       "the table, which switches from the next turn on.",
                                       switch_to=preset_label(spec.switch_to))))
            controls += [big_button(tr("Switch the final to {switch_to} rules",
                                       switch_to=preset_label(spec.switch_to)), on(page.switch_rules),
                                    key="switch-final-rules", filled=False), *notice_at(page, "switch")]
    if t.champion is None:
        controls.append(ft.Text(tr("No champion yet: the final's result crowns one (Results page)."),
                                key="no-champion"))
        return controls
    champion = t.champion
    controls.append(ft.Text(tr("Champion: {name} (number {champion})",
                               name=page.name_of(champion), champion=champion), size=24,
                            weight=ft.FontWeight.BOLD, key="champion"))
    prize = t.prize
    if prize is not None:
        lines: list[ft.Control] = [ft.Text(tr("Prize: {currency}{amount:,}",
                                              currency=prize.currency, amount=prize.amount), size=18, key="prize")]
        if len(prize.split) > 1 or (prize.split and prize.split[0][0] != champion):
            lines += [ft.Text(tr("{name} (number {n}): {currency}{share:,}",
                                 name=page.name_of(n), n=n, currency=prize.currency, share=share), key=f"share-{n}")
                      for n, share in prize.split]
        if prize.note:
            lines.append(ft.Text(prize.note))
        return [*controls, section(tr("Prize"), *lines)]
    finalists = t.seating()[0]
    controls.append(section(
        tr("Prize"),
        ft.Text(tr("The champion takes the prize, or the final table agrees a split: give each finalist's share.")),
        ft.Row([
            text_field(page, "prize_currency", tr("Currency"), key="prize-currency", width=90, hint="$"),
            text_field(page, "prize_amount", tr("Prize amount"), key="prize-amount", expand=True),
        ]),
        *(text_field(page, f"share_{n}", tr("Share for {name} (optional)", name=page.name_of(n)), key=f"share-{n}")
          for n in finalists),
        text_field(page, "prize_note", tr("Note (optional)"), key="prize-note"),
        big_button(tr("Record the prize"), on(page.award_prize), key="award-prize", icon=ft.Icons.PAID),
        *notice_at(page, "prize"),
    ))
    return controls
