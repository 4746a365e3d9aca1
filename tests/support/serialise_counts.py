"""Counts of what is serialised and parsed while a block runs: ``json.dumps`` and
``json.loads``, a log turned into dicts (``Game.events``, ``Tournament.events``), a log
replayed (``from_events``), one event read back (``event_from_dict``), and a result code
brought to its one form (``read_code``) or opened up to its table (``read_sealed_result``).

    with counting() as counts:
        await keeper.act(lambda game: game.roll("1 5 2 3 4 6"))
    assert counts["log to dicts"] == 1

Used by tests/app/test_document_session.py and tests/bench/bench_documents.py (which runs it on
an earlier commit's app too: only what both trees have is wrapped).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["counting"]


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """Counts what is serialised and parsed meanwhile (json, logs to dicts, replays)."""
    import engine.game.game as game_module
    from engine import Game, Tournament

    counts: Counter[str] = Counter()
    patched: list[tuple[Any, str, Any]] = []
    wrappers: dict[int, tuple[Any, Any]] = {}  # id of a wrapper -> (the wrapper, the function it counts)

    def wrap(owner: Any, name: str, label: str) -> None:
        if isinstance(owner, type):  # the class that defines it (the tournament's log is its base's)
            owner = next(klass for klass in owner.__mro__ if name in klass.__dict__)
        original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        patched.append((owner, name, original))
        if isinstance(original, property):
            getter = original.fget
            assert getter is not None

            def counted_get(self: Any) -> Any:
                counts[label] += 1
                return getter(self)

            setattr(owner, name, property(counted_get))
        elif isinstance(original, classmethod):
            function = original.__func__

            def counted_class(cls: Any, *args: Any, **kwargs: Any) -> Any:
                counts[label] += 1
                return function(cls, *args, **kwargs)

            setattr(owner, name, classmethod(counted_class))
        else:
            def counted(*args: Any, **kwargs: Any) -> Any:
                counts[label] += 1
                return original(*args, **kwargs)

            setattr(owner, name, counted)
            wrappers[id(counted)] = (counted, original)

    wrap(json, "dumps", "json.dumps")
    wrap(json, "loads", "json.loads")
    wrap(Game, "events", "log to dicts")
    wrap(Tournament, "events", "log to dicts")
    wrap(Game, "from_events", "replay")
    wrap(Tournament, "from_events", "replay")
    wrap(game_module, "event_from_dict", "event read")  # a game's event, one by one (a replay reads each)
    import engine.codec as codec

    for function, label in ((codec.read_code, "code read"), (codec.read_sealed_result, "code opened")):
        for module in [module for name, module in sys.modules.items() if name.split(".")[0] in ("app", "engine")]:
            for name, value in list(vars(module).items()):
                if value is function:  # every module that imported it by name
                    wrap(module, name, label)
    try:
        yield counts
    finally:
        for owner, name, original in reversed(patched):
            setattr(owner, name, original)
        # A module first imported inside the block took a wrapper by name: it gets the function back,
        # so the next block counts its calls too (else they go to this block's counts, unseen).
        for module in [module for name, module in sys.modules.items() if name.split(".")[0] in ("app", "engine")]:
            for name, value in list(vars(module).items()):
                if wrappers.get(id(value), (None,))[0] is value:
                    setattr(module, name, wrappers[id(value)][1])
