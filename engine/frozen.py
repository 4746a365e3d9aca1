"""A frozen value copied with some fields changed, at the cost a replay can pay at every step.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Score:
...     name: str
...     total: int
>>> evolved(Score("Ann", 350), total=1_050)
Score(name='Ann', total=1050)
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["evolved"]

_Value = TypeVar("_Value")


def evolved(value: _Value, **changes: Any) -> _Value:
    """``value`` with ``changes``: :func:`dataclasses.replace` without ``__init__``'s checks
    and ``__post_init__``, for values only the engine's fold makes (always from a valid one).

    The copy's fields are filled before anyone holds it, in one dict that shares its keys
    with every other instance's (half the memory of a copy made field by field); after that
    it is as frozen as ``value``.
    """
    new = object.__new__(type(value))
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    return new
