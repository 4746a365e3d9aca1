"""What a correction does to what was decided on the result it changed.

A result voided or replaced after its round closed (engine/RULES.md §5.5) changes what was
decided on it: who went on (the round's cut), the champion (the final's), the prize recorded
with that champion. What nothing has been built on yet follows the corrected results; what
a later round was drawn from is flagged, never rewritten:

* the round drawn last takes its cut again on the corrected results, so who goes on, and the
  champion, follow them; when no cut can be taken (a result missing, a tie to roll off) the
  round is open again, to be closed anew. Cancelling the draw of the round after one corrected
  since its cut does the same for that round;
* a round that a later round was drawn from keeps its cut: the later seating stands (it may
  be played already), flagged with what the cut would now be;
* a prize recorded with a champion who no longer is stands no more: it is flagged, to be
  recorded again.

The correction's event carries the cut it took again (``recut``), so a replay reads it and
never works it out again, and undo takes it back with the correction.

>>> from engine.tournament import Tournament
>>> t = Tournament("Club night", event_id="CLUB-1", secret=bytes(16))
>>> for name in ("Ann", "Bob", "Cy"):
...     t.check_in(t.sign_up(name))
>>> t.draw_seats(seed=1)
((1, 2, 3),)
>>> t.record_result(1, [10_050, 7_500, 4_000], reason="paper score sheet").places, t.close_round()
((1, 2, 3), (1,))
>>> t.void_result(1, 1, "Bob's sheet was another table's")
"The final is open again: it waits for table 1's result, then its champion is crowned again."
>>> t.champion is None, t.round_open
(True, True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Union

from engine.tournament.events import DrawCancelled, ResultReplaced, ResultVoided
from engine.tournament.standings import cut_of
from engine.tournament.replay import apply
from engine.tournament.state import RoundState, TournamentState, WithdrawnPrize
from engine.words import Words, listed, say, say_n

__all__ = ["Flag", "Correcting", "with_recut", "consequence", "flags"]

Correcting = Union[DrawCancelled, ResultVoided, ResultReplaced]
"""An action that may take a closed round's cut again."""


@dataclass(frozen=True)
class Flag:
    """Something recorded earlier rests on a result that was corrected since."""

    round: int
    table: int
    message: str


def _late(round_: RoundState) -> bool:
    """The round has corrections its cut does not take in (made after it closed)."""
    return round_.closed and round_.cut_corrections < len(round_.corrections)


def with_recut(state: TournamentState, event: Correcting) -> Correcting:
    """``event`` with the cut it takes again when, once applied, the round drawn last is closed
    and corrected since its cut: who goes on now, or () when no cut can be taken (it opens)."""
    after = apply(state, event)
    last = after.rounds[-1] if after.rounds else None
    elsewhere = isinstance(event, (ResultVoided, ResultReplaced)) and event.round != getattr(last, "number", 0)
    if last is None or elsewhere or not _late(last):
        return event
    advancing, pending = cut_of(after, last)
    return dataclasses.replace(event, recut=advancing if last.complete and not pending else ())


def consequence(before: TournamentState, after: TournamentState) -> Words:
    """What a correction did beyond its own table, in words ("" for nothing): a round open again, a cut
    or the champion taken again, a later round's seating flagged, the prize withdrawn."""
    words: list[Words] = []
    for was, now in zip(before.rounds, after.rounds):
        final = now.cut.kind == "final"
        name = say("The final") if final else after.format.round_name(now.number, now.spec_index)
        if was.closed and not now.closed:
            missing = [str(table) for table in range(1, len(now.tables) + 1) if table not in now.results]
            waits = say_n("it waits for table {tables}'s result", "it waits for tables {tables}'s result", len(missing),
                          tables=", ".join(missing)) if missing else say("record the roll-off")
            words.append(say("{round} is open again: {waits}, then its champion is crowned again.", round=name,
                             waits=waits) if final else
                         say("{round} is open again: {waits}, then it closes again.", round=name, waits=waits))
        elif was.closed and now.closed and was.advancing != now.advancing:
            old, new = was.advancing or (), now.advancing or ()
            if final:
                words.append(say("{champion} is the champion now, in place of {before}.", champion=after.label(new[0]),
                                 before=after.label(old[0])))
            else:
                gone = [after.label(n) for n in old if n not in new]
                came = [after.label(n) for n in new if n not in old]
                words.append(say_n("{round}'s cut is taken again: {came} goes on instead of {gone}.",
                                   "{round}'s cut is taken again: {came} go on instead of {gone}.", len(came),
                                   round=name, came=listed(came), gone=listed(gone)))
        elif len(now.corrections) > len(was.corrections) and _late(now):
            cut_of_round = say("the final") if final else say("round {number}", number=now.number)
            words.append(say("Round {next} was drawn from {round}'s cut as recorded: the correction is flagged (see "
                             "Standings).", next=now.number + 1, round=cut_of_round))
    if after.withdrawn_prize is not None and after.withdrawn_prize is not before.withdrawn_prize:
        words.append(say("The prize recorded with {champion} as champion no longer stands: record it again on Final & "
                         "prize.", champion=_label(after, after.withdrawn_prize.prize.champion)))
    return listed(words, " ")


def flags(state: TournamentState) -> tuple[Flag, ...]:
    """What rests on results corrected after their round's cut, and a prize that no longer stands:
    shown, never rewritten."""
    out: list[Flag] = []
    for round_ in state.rounds:
        if not _late(round_):
            continue
        now, pending = cut_of(state, round_)
        later = say("; round {number}'s seating was drawn from the cut as recorded", number=round_.number + 1) \
            if len(state.rounds) > round_.number else ""
        for item in round_.corrections[round_.cut_corrections:]:
            if not round_.complete:
                effect = say("the round now lacks a result, so its cut cannot be checked")
            elif pending:
                effect = say("the cut now has an open tie ({ties})", ties=listed([p.describe() for p in pending], "; "))
            elif set(now) != set(round_.advancing or ()):
                gone = sorted(set(round_.advancing or ()) - set(now))
                new = sorted(set(now) - set(round_.advancing or ()))
                effect = say("the cut would now differ: {new} instead of {gone}", new=", ".join(map(str, new)),
                             gone=", ".join(map(str, gone)))
            else:
                effect = say("the cut is unchanged, standings changed")
            out.append(
                Flag(
                    round_.number, item.table,
                    say("Round {round}, table {table}: {what} after the cut ({reason}): {effect}{later}.",
                        round=round_.number, table=item.table, what=item.what, reason=item.reason, effect=effect,
                        later=later),
                )
            )
    if state.withdrawn_prize is not None:
        out.append(_prize_flag(state, state.withdrawn_prize))
    return tuple(out)


def _prize_flag(state: TournamentState, withdrawn: WithdrawnPrize) -> Flag:
    prize = withdrawn.prize
    shares = listed([say("{name} {currency}{amount:,}", name=state.players[n].name, currency=prize.currency,
                         amount=amount) for n, amount in prize.split])
    again = say("record it again.") if state.champion is not None else \
        say("record it again once the final has its champion.")
    values = {"currency": prize.currency, "amount": prize.amount, "shares": shares,
              "champion": _label(state, prize.champion), "table": withdrawn.table, "reason": withdrawn.reason,
              "again": again}
    return Flag(
        withdrawn.round, withdrawn.table,
        say("The prize of {currency}{amount:,} ({shares}) was recorded with {champion} as champion, before the "
            "final's result at table {table} was voided ({reason}): it no longer stands; {again}", **values)
        if withdrawn.kind == "voided" else
        say("The prize of {currency}{amount:,} ({shares}) was recorded with {champion} as champion, before the "
            "final's result at table {table} was replaced ({reason}): it no longer stands; {again}", **values),
    )


def _label(state: TournamentState, number: int) -> str:
    """``Ann (number 1)``; ``nobody`` for a prize a log from before recorded with no champion."""
    return state.label(number) if number in state.players else say("nobody")
