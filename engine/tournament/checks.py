"""Whether a table's result may count: genuine, for a table being played, and possible.

A result code is checked in the order a room would ask: can it be read
(:class:`~engine.codec.CodeDamaged`), is it from this event (:class:`WrongEvent`), is it
signed with its table's key (:class:`~engine.codec.CodeAltered`; :class:`RevokedCard`
when the key is a card's that no longer counts: of a cancelled seat draw, or revoked),
was it voided (:class:`VoidedResult`), is it for a round and
table being played by the players seated there (:class:`WrongRound`,
:class:`WrongTable`, :class:`WrongPlayers`), and could a finished game under the round's
rules end so (:class:`~engine.codec.ResultImpossible`). A result the organizer types in
from a paper sheet gets the same checks after the signature's.

>>> from engine.codec import TableResult
>>> from engine.rules import Rules
>>> result = TableResult("CUP-1", 1, 2, (7, 3), (10_050, 4_000), (1, 2), (), Rules.preset("house"), bytes(16))
>>> check_possible(result, result.rules)
>>> check_possible(dataclasses.replace(result, totals=(9_950, 4_000)), result.rules)
Traceback (most recent call last):
...
engine.codec.ResultImpossible: Round 1, table 2: the best total is 9,950, below the target of 10,000, so the game is not over.
"""

from __future__ import annotations

import dataclasses  # noqa: F401 (the example above)
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.codec import DIGEST_SIZE, ResultImpossible, SealedResult, TableResult, read_sealed_result
from engine.errors import IllegalAction, InvalidInput
from engine.ranking import places_from
from engine.rules import Rules
from engine.tournament.cards import RevokedCard, refuse_stale_card
from engine.tournament.state import RoundState, TournamentState
from engine.words import all_of, listed, one_of, say, say_n

__all__ = [
    "WrongEvent",
    "WrongRound",
    "WrongTable",
    "WrongPlayers",
    "RevokedCard",
    "VoidedResult",
    "ImportReport",
    "check_possible",
    "authentic",
    "sealed_of",
    "seen_before",
    "placed",
    "typed_result",
    "seated_at",
]


class WrongEvent(IllegalAction):
    """A genuine-looking result, but from another tournament."""


class WrongRound(IllegalAction):
    """A result for a round that is not being played now."""


class WrongTable(IllegalAction):
    """A result for a table the round does not have."""


class WrongPlayers(IllegalAction):
    """A result whose players are not the ones seated at that table, in that order."""


class VoidedResult(IllegalAction):
    """A result the organizer voided, scanned again: it stays void."""


@dataclass(frozen=True)
class ImportReport:
    """What became of a result code: counted, a duplicate, or held for the organizer."""

    status: Literal["accepted", "duplicate", "held"]
    round: int
    table: int
    message: str


def check_possible(result: TableResult, rules: Rules, *, need_roll_off: bool = True) -> None:
    """Refuse (:class:`ResultImpossible`) totals and places no finished game could give.

    ``need_roll_off=False`` lets an organizer enter a paper result whose tie for the win
    was not rolled off at the table; the tournament then asks for the roll-off itself.
    """
    where = say("Round {round}, table {table}", round=result.round, table=result.table)
    for number, total in zip(result.numbers, result.totals):
        if total % 50:
            raise ResultImpossible(
                say("{where}: player {number} has {total:,}, which is not a multiple of 50: every Farkle score is.",
                    where=where, number=number, total=total)
            )
        if 0 < total < rules.entry_threshold and not rules.triple_farkle_penalty:
            raise ResultImpossible(
                say("{where}: player {number} has {total:,}, but a first bank needs {entry_threshold:,} and totals "
                    "never go down under these rules.",
                    where=where, number=number, total=total, entry_threshold=rules.entry_threshold)
            )
    top = max(result.totals)
    if top < rules.target:
        raise ResultImpossible(
            say("{where}: the best total is {top:,}, below the target of {target:,}, so the game is not over.",
                where=where, top=top, target=rules.target)
        )
    try:
        places = places_from(result.totals, result.roll_offs)
    except InvalidInput as error:
        raise ResultImpossible(say("{where}: {error}", where=where, error=error.words)) from error
    leaders = places.count(1)
    if leaders > 1 and need_roll_off:
        numbered = all_of([str(number) for number, place in zip(result.numbers, places) if place == 1])
        raise ResultImpossible(
            say("{where}: the players numbered {numbered} are tied for the win at {top:,} and no roll-off decided "
                "it: a finished game has a winner.", where=where, numbered=numbered, top=top)
        )
    if places != result.places:
        raise ResultImpossible(
            say("{where}: places {places} do not follow from totals {totals} and the roll-off; they would be "
                "{expected}.", where=where, places=list(result.places), totals=list(result.totals), expected=list(places))
            if result.roll_offs else
            say("{where}: places {places} do not follow from totals {totals}; they would be {expected}.",
                where=where, places=list(result.places), totals=list(result.totals), expected=list(places)))


def sealed_of(code: str | SealedResult) -> SealedResult:
    """A result code read up to its table, once: one already read (a link's, to find its event)
    is taken as it is."""
    return code if isinstance(code, SealedResult) else read_sealed_result(code)


def authentic(state: TournamentState, sealed: SealedResult) -> TableResult:
    """Of this event, and signed with the current card of the table it names.

    Only the code's header (event, round, table, :func:`~engine.codec.read_sealed_result`)
    has been read before its signature is found
    to be a card's of this event: the rest of an unsigned code is never parsed. A
    signature that is not the current card's is refused as :class:`RevokedCard` when it
    is a card's that no longer counts (saying which), else as altered.
    """
    if sealed.event_id != state.event_id:
        raise WrongEvent(say("This result is from event {event_id}, not this one ({ours}): refused.",
                             event_id=sealed.event_id, ours=state.event_id))
    round_ = state.rounds[sealed.round - 1] if 1 <= sealed.round <= len(state.rounds) else None
    if round_ is not None and sealed.signed_by(state.card_key(round_, sealed.table)):
        return sealed.open(state.card_key(round_, sealed.table))
    refuse_stale_card(state, sealed, round_)
    if round_ is None:  # no card signs for a round not drawn
        raise _not_drawn(state, sealed)
    return sealed.open(state.card_key(round_, sealed.table))


def _not_drawn(state: TournamentState, result: TableResult | SealedResult) -> WrongRound:
    return WrongRound(
        say("This result is for round {number}, which has not been drawn (round {latest} is the latest).",
            number=result.round, latest=len(state.rounds)) if state.rounds else
        say("This result is for round {number}, which has not been drawn.", number=result.round)
    )


def seen_before(state: TournamentState, round_: RoundState, result: TableResult) -> ImportReport | None:
    """A result met before at its table: already counted or held (a duplicate), or voided (refused).

    A void is final for the card that signed the voided result, as a director's result
    lock is: whatever that card signs again for the table (other confirmations, other
    totals) is refused. The table's result then comes from the organizer (a paper
    result, or a replacement with a reason) or from a new card once this one is revoked.

    :raises VoidedResult: the result, or its card, was voided.
    """
    where = say("{round}, table {table}", round=state.format.round_name(round_.number, round_.spec_index),
                table=result.table)
    voids = round_.voided.get(result.table, ())
    for voided in voids:
        if voided.recorded.result == result:
            raise VoidedResult(
                say("{where}: this result was {described}. It stays void; to count it again, replace the table's "
                    "result with a reason.", where=where, described=voided.described)
            )
    card = round_.issue(result.table)
    card_voids = [voided for voided in voids if voided.recorded.code and voided.recorded.issue == card]
    if card_voids:
        raise VoidedResult(
            say("{where}: this card's result was {described}, and a void is final whatever the card signs again. "
                "Enter the table's paper result, or revoke its card and print a new one for a new game.",
                where=where, described=card_voids[-1].described)
        )
    recorded = round_.results.get(result.table)
    if recorded is not None and recorded.result == result:
        return ImportReport("duplicate", round_.number, result.table,
                            say("{where}: this result is already counted (duplicate).", where=where))
    if any(held.result == result for held in round_.held.get(result.table, ())):
        return ImportReport("duplicate", round_.number, result.table,
                            say("{where}: this result is already held (duplicate).", where=where))
    return None


def placed(state: TournamentState, result: TableResult, correcting: bool) -> TableResult:
    """For a table of a round being played (or closed, when ``correcting``), by its players, possible under its rules."""
    if not 1 <= result.round <= len(state.rounds):
        raise _not_drawn(state, result)
    round_ = state.rounds[result.round - 1]
    if round_.closed and not correcting:
        now = say("round {number} is being played", number=len(state.rounds)) if state.round_open else \
            say("no round is being played")
        raise WrongRound(
            say("This result is for round {number}, table {table}, which is closed ({now}): it does not count. To "
                "correct a closed round, replace the result with a reason.",
                number=round_.number, table=result.table, now=now)
        )
    if not 1 <= result.table <= len(round_.tables):
        raise WrongTable(
            say("This result is for table {table}, but round {number} has {count} tables.",
                table=result.table, number=round_.number, count=len(round_.tables))
        )
    seated = round_.tables[result.table - 1]
    if result.numbers != seated:
        strangers = [n for n in result.numbers if n not in seated]
        if strangers:
            where = listed([state.where(round_, n) for n in strangers])
            problem = say_n("{where} is not seated there", "{where} are not seated there", len(strangers), where=where)
        else:
            problem = say("the seat order differs")
        raise WrongPlayers(
            say("Round {number}, table {table} seats {seated}; this result has {numbers}: {problem}. Was it played "
                "from an old setup code?",
                number=round_.number, table=result.table, seated=', '.join(map(str, seated)),
                numbers=', '.join(map(str, result.numbers)), problem=problem)
        )
    _check_rules(state, round_, result)
    check_possible(result, result.rules)
    return result


def _check_rules(state: TournamentState, round_: RoundState, result: TableResult) -> None:
    spec = state.format.rounds[round_.spec_index]
    allowed = [Rules.preset(spec.rules)] + ([Rules.preset(spec.switch_to)] if spec.switch_to else [])
    if result.rules not in allowed:
        names = one_of([rules.describe() for rules in allowed])
        raise ResultImpossible(
            say("Round {number}, table {table} was played under other rules ({rules}); this round is played "
                "under {names}.",
                number=round_.number, table=result.table, rules=result.rules.describe(), names=names)
        )


def seated_at(round_: RoundState, table: int) -> tuple[int, ...]:
    """The players at ``table`` of ``round_``; :class:`WrongTable` if it has no such table."""
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= len(round_.tables):
        raise WrongTable(say("Round {number} has tables 1 to {count}, not {table!r}.",
                             number=round_.number, count=len(round_.tables), table=table))
    return round_.tables[table - 1]


def typed_result(
    state: TournamentState, round_: RoundState, table: int, totals: Sequence[int], roll_offs: Sequence[Mapping[int, int]]
) -> TableResult:
    """A result the organizer typed in (totals in seat order, roll-offs by player number), checked as a code is.

    A tie for the win without a roll-off is allowed: the tournament asks for the roll-off.
    """
    numbers = seated_at(round_, table)
    totals = tuple(totals)
    if len(totals) != len(numbers):
        raise InvalidInput(say("Table {table} seats {count} players: enter {count} totals, not {totals}.",
                               table=table, count=len(numbers), totals=len(totals)))
    seat = {n: index for index, n in enumerate(numbers)}
    try:
        rounds = tuple(tuple(sorted((seat[n], face) for n, face in faces.items())) for faces in roll_offs)
    except KeyError as error:
        raise InvalidInput(say("Player {number} is not at table {table}: only its players roll off.",
                               number=error.args[0], table=table)) from error
    try:
        places = places_from(totals, rounds)
    except InvalidInput as error:
        raise ResultImpossible(say("Round {number}, table {table}: {error}",
                                   number=round_.number, table=table, error=error.words)) from error
    spec = state.format.rounds[round_.spec_index]
    rules = Rules.preset(round_.rules_switched or spec.rules)
    result = TableResult(state.event_id, round_.number, table, numbers, totals, places, rounds, rules, bytes(DIGEST_SIZE))
    check_possible(result, result.rules, need_roll_off=False)
    return result
