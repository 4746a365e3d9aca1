"""What a farkle says: one whole sentence per case, so a translator sees each as it is read.

The sentence ends on the total the scoreboard shows: the turn's points lost and, for a third
farkle in a row, what the penalty took (all of it, part of it, or nothing when the total is
already as low as it may go).
"""

from __future__ import annotations

from engine.dice import Dice, format_dice
from engine.words import Words, say

__all__ = ["farkle_words"]


def farkle_words(who: str, dice: Dice | None, lost: int, rule: int, penalty: int, total: int, *,
                 third: bool) -> Words:
    """The farkle of ``who`` on ``dice`` (None: entered without its dice) as the table is told it."""
    said = say("Farkle for {who}", who=who) if dice is None else \
        say("Farkle! {dice} has nothing to set aside", dice=format_dice(dice))
    if not third or not rule:
        if lost:
            return say("{said}: {who} loses the {lost:,} of this turn; {who}'s total stays {total:,} "
                       "(a third farkle in a row: no penalty under these rules).", said=said, who=who, lost=lost,
                       total=total) if third else \
                say("{said}: {who} loses the {lost:,} of this turn; {who}'s total stays {total:,}.", said=said,
                    who=who, lost=lost, total=total)
        return say("{said} (a third farkle in a row: no penalty under these rules).", said=said) if third else \
            say("{said}.", said=said)
    if not penalty:
        return say("{said}: {who} loses the {lost:,} of this turn; a third farkle in a row would cost {rule:,}, but "
                   "{who}'s total stays {total:,}, as low as a total may go.", said=said, who=who, lost=lost,
                   rule=rule, total=total) if lost else \
            say("{said}: a third farkle in a row would cost {rule:,}, but {who}'s total stays {total:,}, as low as a "
                "total may go.", said=said, who=who, rule=rule, total=total)
    if lost:
        return say("{said}: {who} loses the {lost:,} of this turn, and a third farkle in a row costs {penalty:,} "
                   "more: total {total:,}.", said=said, who=who, lost=lost, penalty=penalty, total=total) \
            if penalty == rule else \
            say("{said}: {who} loses the {lost:,} of this turn, and a third farkle in a row costs {penalty:,} more "
                "(the penalty is {rule:,}): total {total:,}, as low as a total may go.", said=said, who=who, lost=lost,
                penalty=penalty, rule=rule, total=total)
    return say("{said}: a third farkle in a row costs {who} {penalty:,}: total {total:,}.", said=said, who=who,
               penalty=penalty, total=total) if penalty == rule else \
        say("{said}: a third farkle in a row costs {who} {penalty:,} (the penalty is {rule:,}): total {total:,}, "
            "as low as a total may go.", said=said, who=who, penalty=penalty, rule=rule, total=total)
