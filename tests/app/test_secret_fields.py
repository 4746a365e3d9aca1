"""Passphrase fields hide what is typed until their own show button is tapped; that button has a
name a screen reader reads (Flutter's built-in reveal icon has none)."""

from __future__ import annotations

import flet as ft

from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness


def reveal_label(ui: FletHarness, key: str) -> str:
    button = ui.find(f"{key}-reveal", ft.IconButton)
    assert isinstance(button.icon, ft.Icon)
    return str(button.icon.semantics_label)


def test_a_new_events_passphrase_is_shown_and_hidden_again_by_its_named_button() -> None:
    async def test(ui: FletHarness) -> None:
        await ui.click("organize")
        await ui.type_text("event-passphrase", "harbour 8")
        assert ui.find("event-passphrase", ft.TextField).password
        assert reveal_label(ui, "event-passphrase") == "Show organizer passphrase"
        await ui.click("event-passphrase-reveal")
        shown = ui.find("event-passphrase", ft.TextField)
        assert not shown.password and shown.value == "harbour 8"
        assert reveal_label(ui, "event-passphrase") == "Hide organizer passphrase"
        assert ui.find("event-passphrase-again", ft.TextField).password  # each field on its own
        await ui.click("event-passphrase-reveal")
        assert ui.find("event-passphrase", ft.TextField).password

    run(test, "/")
