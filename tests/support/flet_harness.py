"""Drive a Flet ``main(page)`` without any client: real session, real events.

A :class:`FletHarness` plays the part of the Flutter client.  It creates a
real ``flet`` ``Session`` over a :class:`FakeConnection`, sends the page
properties a phone browser would (route, size, platform), runs ``main`` the
way Flet's server does, and then lets a test click, type and read controls
found by ``key=``.  Every event goes through ``Session.dispatch_event``, so
handlers, auto-update and patches behave as in the app; a handler that raises
fails the test with its traceback instead of a silent "session crashed".

Service calls (``ft.SharedPreferences``, ``ft.Clipboard``, ``page.push_route``)
are answered by in-memory fakes, so the storage code can run unchanged::

    async with FletHarness(main) as ui:
        await ui.click("new-game")
        await ui.type_text("player-name-1", "Ann")
        assert "Ann" in ui.texts()
        assert ui.shared_preferences  # what the app stored in "localStorage"
        await ui.press_key("5")          # page.on_keyboard_event
        assert ui.unlabelled_controls() == []  # every button/field has a name

Fast (milliseconds) and deterministic; real rendering is for the browser tests.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from collections.abc import Awaitable, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import Any, Optional, TypeVar, Union

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.dialog_control import DialogControl
from flet.controls.context import _context_page, context
from flet.controls.keys import Key
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    InvokeMethodRequestBody,
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

__all__ = [
    "FakeConnection",
    "FletHarness",
    "HandlerCrashed",
    "ServiceHandler",
    "control_key",
]

C = TypeVar("C", bound=BaseControl)
ServiceHandler = Callable[["FletHarness", BaseControl, Optional[dict[str, Any]]], Any]
"""Answers one client method call: ``(harness, service, args) -> result``
(may return an awaitable; raise to send the client an error)."""


class HandlerCrashed(AssertionError):
    """An event handler or ``main`` raised: Flet would show "session crashed"."""


def control_key(control: BaseControl) -> Any:
    """The plain value of a control's ``key`` (``ValueKey("a")`` -> ``"a"``)."""
    key = getattr(control, "key", None)
    return key.value if isinstance(key, Key) else key


class FakeConnection(Connection):
    """A connection with no client: records every message and answers method
    calls (services, ``push_route``) through the harness's handlers."""

    def __init__(self, loop: asyncio.AbstractEventLoop, executor: ThreadPoolExecutor,
                 on_invoke: Callable[[InvokeMethodRequestBody], None]) -> None:
        super().__init__()
        self.loop = loop
        self.executor = executor
        self.pubsubhub = PubSubHub(loop=loop, executor=executor)
        self.page_url = "http://127.0.0.1:8550"
        self.messages: list[Message] = []
        self._on_invoke = on_invoke

    def send_message(self, message: Message) -> None:
        # Encode as the real connections do: besides proving the message can
        # be sent, encoding records the snapshots the next diff starts from.
        msgpack.packb([message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl))
        self.messages.append(message)
        if message.action == MessageAction.INVOKE_METHOD:
            assert isinstance(message.body, InvokeMethodRequestBody)
            self._on_invoke(message.body)


def _shared_preferences_get(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    assert args is not None
    return ui.shared_preferences.get(args["key"])


def _shared_preferences_set(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    assert args is not None
    ui.shared_preferences[args["key"]] = args["value"]
    return True


def _shared_preferences_remove(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    assert args is not None
    return ui.shared_preferences.pop(args["key"], None) is not None


def _shared_preferences_contains_key(ui: FletHarness, service: BaseControl,
                                     args: Optional[dict[str, Any]]) -> Any:
    assert args is not None
    return args["key"] in ui.shared_preferences


def _shared_preferences_get_keys(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    assert args is not None
    return [key for key in ui.shared_preferences if key.startswith(args["key_prefix"])]


def _shared_preferences_clear(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    ui.shared_preferences.clear()
    return True


def _clipboard_set(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    assert args is not None
    ui.clipboard = args["data"]
    return None


def _clipboard_get(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    return ui.clipboard


def _page_push_route(ui: FletHarness, service: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    """Do what the client does: change the route, then send ``route_change``."""
    assert args is not None
    route = args["route"]
    ui.session.apply_page_patch({"route": route})
    ui._spawn(ui.session.dispatch_event(ui.page._i, "route_change", {"route": route}))
    return None


def _focus(ui: FletHarness, control: BaseControl, args: Optional[dict[str, Any]]) -> Any:
    """The client moves the keyboard focus: the harness remembers to which control (by key)."""
    ui.focused = control_key(control)
    return None


DEFAULT_SERVICE_HANDLERS: Mapping[tuple[str, str], ServiceHandler] = {
    ("SharedPreferences", "get"): _shared_preferences_get,
    ("SharedPreferences", "set"): _shared_preferences_set,
    ("SharedPreferences", "remove"): _shared_preferences_remove,
    ("SharedPreferences", "contains_key"): _shared_preferences_contains_key,
    ("SharedPreferences", "get_keys"): _shared_preferences_get_keys,
    ("SharedPreferences", "clear"): _shared_preferences_clear,
    ("Clipboard", "set"): _clipboard_set,
    ("Clipboard", "get"): _clipboard_get,
    ("Page", "push_route"): _page_push_route,
    ("TextField", "focus"): _focus,
}


class FletHarness:
    """One client-less app session; use as ``async with FletHarness(main) as ui``.

    :param main: the app's ``main(page)`` (sync or async).
    :param route: the route the browser opened (``page.route`` inside ``main``).
    :param width: page width the client reports (phone-sized by default).
    :param height: page height the client reports.
    :param platform: ``page.platform`` value (``"android"``, ``"ios"``, ``"linux"``...).
    :param web: ``page.web`` (True for the browser builds).
    :param shared_preferences: the fake ``localStorage``; pass the same dict to a
        second harness to simulate a reload.
    :param services: extra or replacement method handlers by
        ``(control type, method)``, e.g. ``("FilePicker", "save_file")``.
    :param raise_on_crash: turn a crashed handler into :class:`HandlerCrashed`.
    :param pubsub: the server's one ``PubSubHub`` shared with other harnesses: their sessions
        then hear each other's ``page.pubsub`` messages, as the tabs of one local server do.
    """

    def __init__(
        self,
        main: Callable[[ft.Page], Any],
        *,
        route: str = "/",
        width: float = 390,
        height: float = 844,
        platform: str = "android",
        web: bool = True,
        shared_preferences: Optional[dict[str, Any]] = None,
        services: Optional[Mapping[tuple[str, str], ServiceHandler]] = None,
        raise_on_crash: bool = True,
        pubsub: Optional[PubSubHub] = None,
    ) -> None:
        self.main = main
        self.pubsub = pubsub
        self.client_page_props: dict[str, Any] = {
            "route": route,
            "width": width,
            "height": height,
            "platform": platform,
            "web": web,
            "pwa": False,
            "debug": False,
            "multi_view": False,
        }
        self.shared_preferences: dict[str, Any] = {} if shared_preferences is None else shared_preferences
        self.clipboard: Optional[str] = None
        self.focused: Any = None
        """The key of the control the app last moved the focus to (``await field.focus()``)."""
        self.service_handlers: dict[tuple[str, str], ServiceHandler] = {**DEFAULT_SERVICE_HANDLERS, **(services or {})}
        self.raise_on_crash = raise_on_crash
        self.method_calls: list[tuple[str, str, Any]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._checked_messages = 0
        self._executor: Optional[ThreadPoolExecutor] = None
        self._connection: Optional[FakeConnection] = None
        self._session: Optional[Session] = None

    # --- lifecycle ---------------------------------------------------------

    async def __aenter__(self) -> FletHarness:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException],
                        traceback: Optional[TracebackType]) -> None:
        await self.close()

    async def start(self) -> None:
        """Register a client and run ``main`` as Flet's web server does."""
        loop = asyncio.get_running_loop()
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="flet-harness")
        self._connection = FakeConnection(loop, self._executor, self._answer_method_call)
        if self.pubsub is not None:
            self._connection.pubsubhub = self.pubsub
        self._session = Session(self._connection)
        _context_page.set(self._session.page)
        self._session.apply_page_patch(dict(self.client_page_props))
        self._connection.send_message(
            Message(
                MessageAction.REGISTER_CLIENT,
                RegisterClientResponseBody(
                    session_id=self._session.id, page_patch=self._session.get_page_patch(), error=""
                ),
            )
        )
        context.reset_auto_update()
        try:
            result = self.main(self._session.page)
            if inspect.isawaitable(result):
                await result
            await self._session.after_event(self._session.page)
        except Exception as error:
            self._session.error(f"{error}")
            raise HandlerCrashed(f"main() raised: {error!r}") from error
        await self.settle()

    async def close(self) -> None:
        """Cancel leftover tasks and stop the executor."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("FletHarness not started: use 'async with FletHarness(main) as ui'")
        return self._session

    @property
    def page(self) -> ft.Page:
        page: ft.Page = self.session.page
        return page

    @property
    def messages(self) -> list[Message]:
        """Everything the app sent to the (absent) client, in order."""
        assert self._connection is not None
        return self._connection.messages

    # --- finding controls ----------------------------------------------------

    def walk(self, include_hidden: bool = False) -> Iterator[tuple[BaseControl, bool]]:
        """Every control under the page (views, overlay, dialogs) with whether
        it or an ancestor is disabled; hidden subtrees are skipped unless asked."""
        visited: set[int] = set()

        def visit(value: Any, disabled: bool) -> Iterator[tuple[BaseControl, bool]]:
            if value is None or isinstance(value, (str, bytes, int, float, bool)) or id(value) in visited:
                return
            visited.add(id(value))
            if isinstance(value, BaseControl):
                if not include_hidden and getattr(value, "visible", True) is False:
                    return
                if not include_hidden and isinstance(value, DialogControl) and not value.open:
                    return  # a closed dialog stays in the page until the client confirms it is gone
                disabled = disabled or bool(getattr(value, "disabled", False))
                yield value, disabled
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                for field in dataclasses.fields(value):
                    if field.metadata.get("skip", False) or field.name in ("_parent", "_services"):
                        continue
                    yield from visit(getattr(value, field.name, None), disabled)
            elif isinstance(value, dict):
                for item in value.values():
                    yield from visit(item, disabled)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    yield from visit(item, disabled)

        yield from visit(self.page, False)

    def find_all(self, control_type: type[C] = BaseControl,  # type: ignore[assignment]
                 predicate: Optional[Callable[[C], bool]] = None) -> list[C]:
        """Visible controls of a type (and matching ``predicate``), in tree order."""
        return [
            control for control, _ in self.walk()
            if isinstance(control, control_type) and (predicate is None or predicate(control))
        ]

    def find(self, key: Any, control_type: type[C] = BaseControl) -> C:  # type: ignore[assignment]
        """The one visible control with this ``key``; a clear error listing the
        keys on screen when it is missing."""
        matches = [c for c in self.find_all(control_type) if control_key(c) == key]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            on_screen = sorted({str(control_key(c)) for c in self.find_all() if control_key(c) is not None})
            raise LookupError(f"No visible control with key {key!r}; keys on screen: {on_screen}")
        raise LookupError(f"{len(matches)} visible controls share the key {key!r}")

    def exists(self, key: Any) -> bool:
        """Whether a visible control has this key."""
        return any(control_key(c) == key for c in self.find_all())

    def is_disabled(self, key: Any) -> bool:
        """Whether the control or one of its ancestors is disabled."""
        for control, disabled in self.walk():
            if control_key(control) == key:
                return disabled
        raise LookupError(f"No visible control with key {key!r}")

    def texts(self) -> list[str]:
        """Every visible ``ft.Text`` value, in tree order (what a person reads)."""
        return [str(t.value) for t in self.find_all(ft.Text) if t.value is not None]

    def text_of(self, key: Any) -> str:
        """The words of one control: a Text's value, else its content/label/value."""
        control = self.find(key)
        if isinstance(control, ft.Text):
            return str(control.value or "")
        for attribute in ("content", "label", "value", "text", "tooltip"):
            value = getattr(control, attribute, None)
            if isinstance(value, str):
                return value
            if isinstance(value, ft.Text):
                return str(value.value or "")
        inner = [str(t.value) for t in self._texts_under(control)]
        return " ".join(inner)

    def _texts_under(self, root: BaseControl) -> list[ft.Text]:
        found: list[ft.Text] = []
        seen: set[int] = set()

        def visit(value: Any) -> None:
            if value is None or id(value) in seen or isinstance(value, (str, bytes, int, float, bool)):
                return
            seen.add(id(value))
            if isinstance(value, ft.Text) and value.visible is not False:
                found.append(value)
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                for field in dataclasses.fields(value):
                    if field.name != "_parent":
                        visit(getattr(value, field.name, None))
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)

        visit(root)
        return found

    # --- acting like a person -------------------------------------------------

    def _resolve(self, target: Union[BaseControl, Any]) -> BaseControl:
        return target if isinstance(target, BaseControl) else self.find(target)

    async def dispatch(self, target: Union[BaseControl, Any], event: str, data: Any = None) -> None:
        """Send one client event (``"click"``, ``"change"``, ``"submit"``...)."""
        control = self._resolve(target)
        await self.session.dispatch_event(control._i, event, data)
        await self.settle()

    async def click(self, target: Union[BaseControl, Any]) -> None:
        """Tap a control by key (a gesture detector's tap too); refuses a disabled one, as a
        screen would."""
        control = self._resolve(target)
        if self.is_disabled_control(control):
            raise AssertionError(f"Cannot click {control_key(control)!r}: it is disabled")
        await self.dispatch(control, "tap" if isinstance(control, ft.GestureDetector) else "click")

    def is_disabled_control(self, control: BaseControl) -> bool:
        for candidate, disabled in self.walk():
            if candidate is control:
                return disabled
        raise LookupError(f"{control!r} is not visible on the page")

    async def type_text(self, target: Union[BaseControl, Any], text: str, submit: bool = False) -> None:
        """Replace a field's text as the client does (value, then ``change``)."""
        control = self._resolve(target)
        self.session.apply_patch(control._i, {"value": text})
        await self.dispatch(control, "change", text)
        if submit:
            await self.dispatch(control, "submit", text)

    async def set_value(self, target: Union[BaseControl, Any], value: Any, event: str = "change") -> None:
        """Set any control's ``value`` (switch, dropdown, slider) and send ``event``."""
        control = self._resolve(target)
        self.session.apply_patch(control._i, {"value": value})
        await self.dispatch(control, event, value if isinstance(value, str) else None)

    async def press_key(self, key: str, *, shift: bool = False, ctrl: bool = False,
                        alt: bool = False, meta: bool = False) -> None:
        """A key on a physical keyboard (``page.on_keyboard_event``), e.g. ``"5"``,
        ``"Enter"``, ``"Backspace"`` (Flutter's key labels)."""
        data = {"key": key, "shift": shift, "ctrl": ctrl, "alt": alt, "meta": meta}
        await self.dispatch(self.page, "keyboard_event", data)

    def accessible_name(self, control: BaseControl) -> str:
        """Roughly what a screen reader announces for a control: its semantics
        label, tooltip, label, text content, or the texts inside it."""
        parent = getattr(control, "parent", None)
        if isinstance(parent, ft.Semantics) and parent.label:
            return parent.label.strip()
        for attribute in ("semantics_label", "tooltip", "label", "content", "text", "hint_text"):
            value = getattr(control, attribute, None)
            if isinstance(value, str) and value.strip():
                return value.strip()
            if isinstance(value, ft.Text) and value.value:
                return str(value.value)
            message = getattr(value, "message", None)
            if isinstance(message, str) and message.strip():
                return message.strip()
        return " ".join(str(t.semantics_label or t.value) for t in self._texts_under(control) if t.value).strip()

    def unlabelled_controls(self) -> list[BaseControl]:
        """Visible controls a person can act on (click or type) that a screen
        reader, and so a browser test, could not name."""
        actionable = [
            control for control in self.find_all()
            if getattr(control, "on_click", None) is not None or getattr(control, "on_tap", None) is not None
            or isinstance(control, ft.TextField)
        ]
        return [control for control in actionable if not self.accessible_name(control)]

    async def navigate(self, route: str) -> None:
        """The person opens a route (address bar or back button)."""
        self.session.apply_page_patch({"route": route})
        await self.session.dispatch_event(self.page._i, "route_change", {"route": route})
        await self.settle()

    async def reconnect(self) -> None:
        """The person reloads a local server's page: Flet reattaches the tab to its session
        (the page's connect event) instead of starting the app again."""
        await self.session.dispatch_connect_event()
        await self.settle()

    async def settle(self, rounds: int = 20) -> None:
        """Let tasks started by handlers (``page.run_task``, ``navigate``) run."""
        for _ in range(rounds):
            await asyncio.sleep(0)
        pending = [task for task in self._tasks if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=2)
        self._raise_crashes()

    # --- the client side of method calls --------------------------------------

    def _spawn(self, awaitable: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(awaitable)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _answer_method_call(self, request: InvokeMethodRequestBody) -> None:
        control = self.session.index.get(request.control_id)
        control_type = getattr(control, "_c", type(control).__name__)
        self.method_calls.append((control_type, request.name, request.args))
        handler = self.service_handlers.get((control_type, request.name))

        async def answer() -> None:
            result: Any = None
            error: Optional[str] = None
            if handler is None or control is None:
                error = f"FletHarness has no fake for {control_type}.{request.name}(); pass services={{...}}"
            else:
                try:
                    result = handler(self, control, request.args)
                    if inspect.isawaitable(result):
                        result = await result
                except Exception as failure:  # sent to the app as the client would
                    error = str(failure)
            self.session.handle_invoke_method_results(request.control_id, request.call_id, result, error)

        self._spawn(answer())

    def crashes(self) -> list[str]:
        """Messages of every "session crashed" the app produced so far."""
        return [
            str(getattr(m.body, "message", m.body))
            for m in self.messages
            if m.action == MessageAction.SESSION_CRASHED
        ]

    def _raise_crashes(self) -> None:
        new = [m for m in self.messages[self._checked_messages:] if m.action == MessageAction.SESSION_CRASHED]
        self._checked_messages = len(self.messages)
        if new and self.raise_on_crash:
            raise HandlerCrashed("\n".join(str(getattr(m.body, "message", m.body)) for m in new))
