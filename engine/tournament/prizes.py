"""The prize after the final: who may share it and how, refused in a player's words."""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import IllegalAction, InvalidInput
from engine.tournament.state import TournamentState
from engine.words import say

__all__ = ["prize_shares"]


def prize_shares(state: TournamentState, champion: int | None, amount: int, split: Mapping[int, int] | None) -> dict[int, int]:
    """What each finalist takes of ``amount`` (all of it to the champion without ``split``);
    refused before the final, a second time, or when the shares do not add up to the prize."""
    if champion is None:
        raise IllegalAction(say("There is no champion yet: the prize is recorded after the final."))
    if state.prize is not None:
        raise IllegalAction(say("The prize is already recorded: undo to change it."))
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise InvalidInput(say("{amount!r} is not a prize amount: a whole amount above 0.", amount=amount))
    shares = dict(split or {champion: amount})
    strangers = sorted(set(shares) - set(state.rounds[-1].tables[0]))
    if strangers:
        raise IllegalAction(say("Players {numbers} did not play the final: only finalists share the prize.",
                                numbers=", ".join(map(str, strangers))))
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in shares.values()):
        raise InvalidInput(say("Shares {shares!r} must be whole amounts, 0 or more.", shares=shares))
    if sum(shares.values()) != amount:
        raise IllegalAction(say("The shares add up to {total:,}, not the prize of {amount:,}.",
                                total=sum(shares.values()), amount=amount))
    return shares
