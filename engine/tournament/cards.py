"""Each table's card: what its setup code holds, the key it signs with, and cards that no longer count.

A seat draw prints one card per table (:func:`table_setup`). Under key scheme 2
(:mod:`engine.codec.keys`) a card's key is bound to its draw and to its *issue*: a
card of a cancelled draw, or a card revoked for a lost phone, signs nothing that counts,
and a result it signed is refused saying which card it was (:func:`refuse_stale_card`).
"""

from __future__ import annotations

import hmac
from datetime import datetime

from engine.codec import SealedResult, SeatedPlayer, TableSetup
from engine.errors import IllegalAction
from engine.names import short_forms
from engine.rules import Rules
from engine.tournament.state import RoundState, TournamentState
from engine.words import say

__all__ = ["RevokedCard", "table_setup", "refuse_stale_card", "printed_card", "stamp"]


class RevokedCard(IllegalAction):
    """A genuine signature, but of a card that no longer counts: from a cancelled seat draw, or revoked."""


def table_setup(state: TournamentState, round_: RoundState, table: int, numbers: tuple[int, ...], link_base: str) -> TableSetup:
    """The setup code's content for ``table`` (seating ``numbers``) of ``round_``, with its current card's key.

    Each player is carried by number and by the name the table's scoreboard shows
    (:func:`engine.names.short_forms`: ``Aleksandra G.``, a name of up to 24 characters
    whole), not the full name: four 40-character names whole make the card's join link a
    version-13 QR code at level M, their short forms a version-9 one (at most 10 is what the
    cards promise). The result code names players by number, so the standings and every page
    keep the full names.
    """
    spec = state.format.rounds[round_.spec_index]
    switch = Rules.preset(spec.switch_to) if spec.switch_to and not round_.rules_switched else None
    forms = short_forms([state.players[n].name for n in numbers])
    return TableSetup(
        state.event_id,
        round_.number,
        table,
        tuple(SeatedPlayer(n, form) for n, form in zip(numbers, forms)),
        Rules.preset(round_.rules_switched or spec.rules),
        state.card_key(round_, table),
        switch,
        link_base,
        final=round_.spec_index == len(state.format.rounds) - 1,
    )


def refuse_stale_card(state: TournamentState, signed: SealedResult, round_: RoundState | None) -> None:
    """:class:`RevokedCard` if a revoked card of the table, or a card of a cancelled draw, signed it."""
    table = signed.table
    if round_ is not None:
        for issue, revocation in enumerate(round_.revoked.get(table, ())):
            if signed.signed_by(state.card_key(round_, table, issue)):
                raise RevokedCard(
                    say("This result was signed by a revoked card of table {table} ({described}): it does not "
                        "count. The table's new card signs its result.", table=table, described=revocation.described)
                )
    for cancelled in reversed(state.cancelled):
        if cancelled.number != signed.round:
            continue
        for issue in range(cancelled.issue(table) + 1):
            if signed.signed_by(state.card_key(cancelled, table, issue)):
                raise RevokedCard(
                    say("This result was signed by a card from a cancelled seat draw of round {number}: it does "
                        "not count, whatever it says. The table plays from its card of the current draw.",
                        number=cancelled.number)
                )


def printed_card(state: TournamentState, setup: TableSetup) -> bool:
    """Whether ``setup`` is a card this event printed: its code, round and table, with the key of one
    of that table's cards (any issue, of the round's draw or of one cancelled). An event code says
    nothing of this (another event may be given the same one); the key, made from the event's secret, does."""
    if setup.event_id != state.event_id:
        return False
    draws = [round_ for round_ in (*state.rounds, *state.cancelled)
             if round_.number == setup.round and 1 <= setup.table <= len(round_.tables)]
    return any(hmac.compare_digest(state.card_key(round_, setup.table, issue), setup.key)
               for round_ in draws for issue in range(round_.issue(setup.table) + 1))


def stamp(at: datetime | None) -> str:
    """``at`` (now by default) as ISO 8601 in the organizer's local time, with its offset."""
    return (at or datetime.now()).astimezone().isoformat(timespec="seconds")
