"""Pieces shared by several screens: dice, headers, notices, section cards."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import flet as ft

from app.i18n import tr, translatable
from app.qr import qr_image
from app.storage import StoreProblem

Handler = Callable[[Any], Awaitable[None] | None]


def on(action: Callable[..., Awaitable[None] | None], *args: Any) -> Callable[[Any], Awaitable[None]]:
    """An event handler running ``action(*args)`` (awaited if it is a coroutine function).

    Flet awaits only coroutine handlers; state changes without I/O may be plain methods.
    """

    async def handler(event: Any) -> None:
        outcome = action(*args)
        if inspect.isawaitable(outcome):
            await outcome

    return handler


def on_value(action: Callable[[str, Any], Awaitable[None]], name: str) -> Callable[[Any], Awaitable[None]]:
    """A handler passing the control's new value on: ``action(name, value)``."""

    async def handler(event: Any) -> None:
        await action(name, event.control.value)

    return handler

FELT = "#1E6B45"
SELECTED = "#F2B705"
INK = ft.Colors.WHITE
BOARD = "#0B3D26"
"""White on dark felt, for screens read across a room (the room display, a follower): the contrast
a projector in a lit room keeps."""
DIE_SIZE = 50
TAP_HEIGHT = 52
MIN_TARGET = 48
"""The smallest box a finger is asked to hit (px), as the accessibility guidelines ask."""

# pip positions on a 3x3 grid, row-major
_PIPS = {
    1: {4},
    2: {0, 8},
    3: {0, 4, 8},
    4: {0, 2, 6, 8},
    5: {0, 2, 4, 6, 8},
    6: {0, 2, 3, 5, 6, 8},
}


def die_face(face: int, size: int = DIE_SIZE, *, selected: bool = False, dim: bool = False) -> ft.Control:
    """A die drawn with pips (no font needed offline): only the pips it shows are controls,
    placed on a 3x3 grid, so a row of dice stays cheap to draw and to compare."""
    pip = size * 0.16
    colour = ft.Colors.BLACK if not dim else ft.Colors.BLACK_38
    inner = size - 2 * (3 if selected else 1)
    step = (inner - 3 * pip) / 4
    pips: list[ft.Control] = [
        ft.Container(width=pip, height=pip, border_radius=pip / 2, bgcolor=colour,
                     left=step + (cell % 3) * (pip + step), top=step + (cell // 3) * (pip + step))
        for cell in sorted(_PIPS[face])
    ]
    return ft.Container(
        ft.Stack(pips, width=inner, height=inner),
        width=size,
        height=size,
        border_radius=size * 0.2,
        bgcolor=SELECTED if selected else (ft.Colors.GREY_300 if dim else ft.Colors.WHITE),
        border=ft.Border.all(3 if selected else 1, ft.Colors.BLACK_54 if not selected else ft.Colors.ORANGE_900),
    )


def die_button(
    face: int,
    label: str,
    on_click: Handler | None,
    *,
    key: str | None = None,
    selected: bool = False,
    dim: bool = False,
    size: int = DIE_SIZE,
) -> ft.Control:
    """A die the scorekeeper taps; the label is what a screen reader (and a test) calls it.

    It takes no keyboard focus (a gesture, not a focusable button): the keys enter faces
    on their own, and Enter after a tap must enter the throw, not tap the die again.
    """
    return ft.Semantics(
        content=ft.GestureDetector(
            content=die_face(face, size, selected=selected, dim=dim),
            on_tap=on_click,
            key=key,
            mouse_cursor=ft.MouseCursor.CLICK,
        ),
        label=label,
        button=True,
        selected=selected,
    )


def notice_banner(texts: list[str], *, error: bool = False, key: str = "notice") -> ft.Control:
    """Plain announcements of what just happened (or why an entry was refused)."""
    colour = ft.Colors.RED_100 if error else ft.Colors.AMBER_100
    return ft.Container(
        ft.Column([ft.Text(text, size=16, color=ft.Colors.BLACK, weight=ft.FontWeight.W_500) for text in texts],
                  spacing=4),
        bgcolor=colour,
        padding=10,
        border_radius=8,
        key=key,
        width=float("inf"),
    )


PRESET_LABELS = {"house": translatable("House"), "progressive": translatable("Progressive"),
                 "official": translatable("Official"), "classic": translatable("Classic")}


def preset_label(name: str) -> str:
    """A rules preset's name as a person reads it (a preset the list lacks: its name, capitalised)."""
    return tr(PRESET_LABELS[name]) if name in PRESET_LABELS else name.capitalize()


def problem_line(problem: StoreProblem) -> str:
    """A file the store could not read, in the person's language: the storage layer knows no
    language, so its reason (a parser's words) is shown as it is, inside a translated sentence."""
    if problem.kept_as:
        return tr("Could not read {location} ({reason}); it was kept aside as {kept_as}.",
                  location=problem.location, reason=problem.reason, kept_as=problem.kept_as)
    return tr("Could not read {location} ({reason}); it was left where it was.",
              location=problem.location, reason=problem.reason)


def section(title: str, *controls: ft.Control) -> ft.Control:
    return ft.Column(
        [ft.Text(title, size=18, weight=ft.FontWeight.BOLD), *controls],
        spacing=8,
    )


def icon_button(icon: Any, label: str, on_click: Handler | None, *, key: str | None = None,
                disabled: bool = False) -> ft.Control:
    """An icon button a screen reader names: Flutter web ignores the tooltip, not the icon's label."""
    return ft.IconButton(
        icon=ft.Icon(icon, semantics_label=label),
        tooltip=label,
        on_click=on_click,
        key=key,
        disabled=disabled,
        size_constraints=ft.BoxConstraints(min_width=MIN_TARGET, min_height=MIN_TARGET),
    )


def secret_field(label: str, value: str, on_change: Handler, *, shown: bool, on_reveal: Handler, key: str,
                 on_submit: Handler | None = None) -> ft.TextField:
    """A hidden-text field with its own show/hide button, which a screen reader names
    (the reveal icon Flutter draws for ``can_reveal_password`` has no name)."""
    field = label[:1].lower() + label[1:]
    return ft.TextField(
        label=label, value=value, on_change=on_change, on_submit=on_submit, key=key, password=not shown,
        suffix_icon=icon_button(ft.Icons.VISIBILITY_OFF if shown else ft.Icons.VISIBILITY,
                                tr("Hide {field}", field=field) if shown else tr("Show {field}", field=field),
                                on_reveal, key=f"{key}-reveal"),
    )


def labelled_dropdown(label: str, value: str, options: list[tuple[str, str]], on_select: Handler, *,
                      key: str, width: int | None = None) -> ft.Control:
    """A dropdown named "Label: Choice" for screen readers (Flutter web leaves it unnamed)."""
    chosen = dict(options).get(value, value)
    return ft.Semantics(
        label=f"{label}: {chosen}" if chosen else label,
        content=ft.Dropdown(
            label=label,
            value=value,
            options=[ft.dropdown.Option(key=option_key, text=text) for option_key, text in options],
            on_select=on_select,
            key=key,
            width=width,
        ),
    )


def big_button(text: str, on_click: Handler | None, *, key: str | None = None, filled: bool = True,
               disabled: bool = False, icon: Any = None, expand: bool | int | None = None) -> ft.Control:
    kind = ft.FilledButton if filled else ft.OutlinedButton
    return kind(
        text,
        icon=icon,
        on_click=on_click,
        key=key,
        disabled=disabled,
        height=TAP_HEIGHT,
        expand=expand,
    )


def screen_view(route: str, title: str, controls: Sequence[ft.Control], *,
                actions: list[ft.Control] | None = None, on_home: Handler | None = None,
                leading: ft.Control | None = None, scrolls: bool = True) -> ft.View:
    """One screen: the felt app bar (Home unless this is home) over scrolling content
    (``scrolls=False``: the content's own parts scroll, each in its place)."""
    if leading is None and on_home is not None:
        leading = icon_button(ft.Icons.HOME, tr("Home"), on_click=on_home, key="home")
    return ft.View(
        route=route,
        padding=12,
        scroll=ft.ScrollMode.AUTO if scrolls else None,
        appbar=ft.AppBar(
            title=ft.Text(title),
            leading=leading,
            automatically_imply_leading=False,
            actions=actions or [],
            bgcolor=FELT,
            color=ft.Colors.WHITE,
        ),
        controls=list(controls),
    )


def link_qr(link: str, qr_text: str, label: str, key: str) -> list[ft.Control]:
    """A link other screens open, as its QR (``qr_text``, white behind it as a camera wants it) and in
    words; ``key`` names both (``<key>-qr``, ``<key>-link``)."""
    image = qr_image(qr_text, box_size=5)
    return [
        ft.Container(ft.Image(src=image.png, width=220, height=220, fit=ft.BoxFit.CONTAIN, semantics_label=label,
                              key=f"{key}-qr"), bgcolor=ft.Colors.WHITE, padding=6),
        ft.Text(tr("Link: {link}", link=link), key=f"{key}-link"),
    ]
