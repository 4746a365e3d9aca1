"""The table screen works out what it shows once a render: the preview of a keep (the turn
card and the keep panel show the same one) and the advice (the panel and, in the final
round, the chance to lead read the same one)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import app.views.table
import app.views.table_state
from engine import Game
from tests.support.app_driver import run, start_game, throw
from tests.support.flet_harness import FletHarness
from tests.app.test_table_advice import bob_in_the_final_round_with_advice


def counting(calls: Counter[str], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return function(*args, **kwargs)
    return counted


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often a render drew the turn card (once each), previewed a keep, and asked for advice."""
    seen: Counter[str] = Counter()
    monkeypatch.setattr(app.views.table, "turn_card", counting(seen, "renders", app.views.table.turn_card))
    monkeypatch.setattr(Game, "preview_keep", counting(seen, "previews", Game.preview_keep))
    monkeypatch.setattr(app.views.table_state, "advise", counting(seen, "advice", app.views.table_state.advise))
    return seen


def test_a_tapped_die_is_previewed_once_a_render(data_dir: Any, calls: Counter[str]) -> None:
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await throw(ui, "1 5 2 3 4 4")
        calls.clear()
        await ui.click("die-0")
        await ui.click("die-1")
        assert ui.text_of("turn-total") == "150"
        assert calls["renders"] >= 2 and calls["previews"] == calls["renders"], calls

    run(test)


def test_in_the_final_round_the_advice_is_worked_out_once_a_render(data_dir: Any, calls: Counter[str]) -> None:
    async def test(ui: FletHarness) -> None:
        await bob_in_the_final_round_with_advice(ui)
        calls.clear()
        await ui.click("face-2")
        await ui.click("face-3")
        assert ui.text_of("marks-1").endswith("chance to lead")
        assert calls["renders"] >= 2 and calls["advice"] == calls["renders"], calls

    run(test)
