"""The client-less harness drives a real Flet session: clicks, typing,
services, navigation and crashes behave as with a browser."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import flet as ft
import pytest

from app.storage import PrefsStore
from tests.support.flet_harness import FletHarness, HandlerCrashed

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


async def demo_main(page: ft.Page) -> None:
    """A tiny app: a counter saved through SharedPreferences, a name field,
    a button enabled only once a name is typed, a route, a crashing button."""
    prefs = ft.SharedPreferences()
    store = await PrefsStore.open(prefs)
    saved = await store.load("settings", "counter")
    count = ft.Text(str(saved["count"] if saved else 0), key="count")
    greeting = ft.Text("", key="greeting")
    name = ft.TextField(label="Name", key="name")
    greet = ft.Button("Greet", key="greet", disabled=True)
    route_text = ft.Text(f"route {page.route}", key="route")

    async def increment(e: ft.Event[ft.Button]) -> None:
        value = int(str(count.value)) + 1
        await store.save("settings", "counter", {"count": value})
        count.value = str(value)

    def name_changed(e: ft.Event[ft.TextField]) -> None:
        greet.disabled = not name.value

    def say_hello(e: ft.Event[ft.Button]) -> None:
        greeting.value = f"Hello, {name.value}!"

    def broken(e: ft.Event[ft.Button]) -> None:
        raise ZeroDivisionError("the demo handler divided by zero")

    async def go_to_rules(e: ft.Event[ft.Button]) -> None:
        await page.push_route("/rules")

    def route_changed(e: ft.RouteChangeEvent) -> None:
        route_text.value = f"route {page.route}"
        page.update()

    def key_pressed(e: ft.KeyboardEvent) -> None:
        if e.key.isdigit():
            count.value = str(int(str(count.value)) + int(e.key))

    page.on_keyboard_event = key_pressed
    name.on_change = name_changed
    greet.on_click = say_hello
    page.on_route_change = route_changed
    page.add(
        count,
        ft.Button("Add one", key="add", on_click=increment),
        name,
        greet,
        greeting,
        route_text,
        ft.Button("Rules", key="rules", on_click=go_to_rules),
        ft.Button("Break", key="break", on_click=broken),
        ft.Text("secret", key="hidden", visible=False),
    )
    page.session.store.set("prefs", prefs)  # keep the service alive


def test_main_runs_and_controls_are_found_by_key() -> None:
    async def scenario() -> None:
        async with FletHarness(demo_main) as ui:
            assert ui.text_of("count") == "0"
            assert ui.page.width == 390 and ui.page.route == "/"
            assert not ui.exists("hidden")
            with pytest.raises(LookupError, match=r"No visible control with key 'missing'; keys on screen: .*'add'"):
                ui.find("missing")

    run(scenario())


def test_a_click_runs_the_handler_and_saves_through_shared_preferences() -> None:
    async def scenario() -> None:
        async with FletHarness(demo_main) as ui:
            await ui.click("add")
            await ui.click("add")
            assert ui.text_of("count") == "2"
            assert list(ui.shared_preferences) == ["farkle-table/settings/counter"]
            assert [(kind, method) for kind, method, _ in ui.method_calls].count(("SharedPreferences", "set")) == 2

    run(scenario())


def test_a_reload_with_the_same_shared_preferences_sees_the_saved_state() -> None:
    async def scenario() -> None:
        local_storage: dict[str, Any] = {}
        async with FletHarness(demo_main, shared_preferences=local_storage) as ui:
            await ui.click("add")
        async with FletHarness(demo_main, shared_preferences=local_storage) as reloaded:
            assert reloaded.text_of("count") == "1"

    run(scenario())


def test_typing_updates_the_value_and_fires_change() -> None:
    async def scenario() -> None:
        async with FletHarness(demo_main) as ui:
            assert ui.is_disabled("greet")
            with pytest.raises(AssertionError, match="Cannot click 'greet': it is disabled"):
                await ui.click("greet")
            await ui.type_text("name", "Ann")
            assert not ui.is_disabled("greet")
            await ui.click("greet")
            assert "Hello, Ann!" in ui.texts()

    run(scenario())


def test_push_route_changes_the_route_like_the_client_does() -> None:
    async def scenario() -> None:
        async with FletHarness(demo_main) as ui:
            await ui.click("rules")
            assert ui.page.route == "/rules"
            assert ui.text_of("route") == "route /rules"
            await ui.navigate("/")
            assert ui.text_of("route") == "route /"

    run(scenario())


def test_the_opening_route_is_seen_inside_main() -> None:
    async def scenario() -> None:
        async with FletHarness(demo_main, route="/import/ABC") as ui:
            assert ui.text_of("route") == "route /import/ABC"

    run(scenario())


def test_a_crashing_handler_fails_the_test_with_its_message() -> None:
    async def scenario() -> None:
        async with FletHarness(demo_main) as ui:
            with pytest.raises(HandlerCrashed, match="the demo handler divided by zero"):
                await ui.click("break")

    run(scenario())


def test_a_service_without_a_fake_answers_with_a_clear_error() -> None:
    async def uses_file_picker(page: ft.Page) -> None:
        picker = ft.FilePicker()
        page.session.store.set("picker", picker)

        async def export(e: ft.Event[ft.Button]) -> None:
            await picker.save_file(file_name="games.json", src_bytes=b"{}")

        page.add(ft.Button("Export", key="export", on_click=export))

    async def scenario() -> None:
        async with FletHarness(uses_file_picker) as ui:
            with pytest.raises(HandlerCrashed, match=r"no fake for FilePicker.save_file"):
                await ui.click("export")
        saved: list[Any] = []
        fake = {("FilePicker", "save_file"): lambda ui, service, args: saved.append(args) or "/tmp/games.json"}
        async with FletHarness(uses_file_picker, services=fake) as ui:
            await ui.click("export")
            assert saved and saved[0]["file_name"] == "games.json"

    run(scenario())


def test_a_key_press_reaches_the_pages_keyboard_handler() -> None:
    async def scenario() -> None:
        async with FletHarness(demo_main) as ui:
            await ui.press_key("5")
            await ui.press_key("x")
            assert ui.text_of("count") == "5"

    run(scenario())


def test_controls_a_screen_reader_cannot_name_are_listed() -> None:
    async def with_unlabelled_icon(page: ft.Page) -> None:
        page.add(
            ft.IconButton(ft.Icons.UNDO, key="undo", on_click=lambda e: None),
            ft.IconButton(ft.Icons.UNDO, key="undo-labelled", tooltip="Undo", on_click=lambda e: None),
            ft.Button("Bank", key="bank", on_click=lambda e: None),
        )

    async def scenario() -> None:
        async with FletHarness(demo_main) as ui:
            assert ui.unlabelled_controls() == []
        async with FletHarness(with_unlabelled_icon) as ui:
            assert [ui.accessible_name(ui.find(k)) for k in ("undo-labelled", "bank")] == ["Undo", "Bank"]
            assert [c.key for c in ui.unlabelled_controls()] == ["undo"]

    run(scenario())
