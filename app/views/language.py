"""The language setting: every language the app speaks, each named in its own words, and
"this device's language" (the default, which follows the device as it changes).

A pick is kept on this device before the app shows it (:class:`app.i18n.setting.LanguageSetting`);
the screen then reads in the language picked."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from app.context import use_model, use_services
from app.i18n import language_name, session_language, tr
from app.i18n.setting import offered_languages
from app.views.widgets import notice_banner, on, screen_view

__all__ = ["LanguageScreen", "LANGUAGE_ROUTE", "DEVICE"]

LANGUAGE_ROUTE = "/language"
DEVICE = "device"
"""The choice "this device's language" (nothing picked): a radio needs a value."""


@dataclass
class LanguagePicker(ft.Observable):
    """Why a pick changed nothing (a pick that works draws the screen anew in its language,
    with the radio on it: that is its answer)."""

    refusal: str = ""


@ft.component
def LanguageScreen() -> ft.View:
    services = use_services()
    setting = services.language
    picker = use_model(LanguagePicker)
    page = ft.context.page

    async def pick(event: ft.Event[ft.RadioGroup]) -> None:
        wanted = "" if event.control.value == DEVICE else str(event.control.value or "")
        try:
            await setting.choose(wanted)
        except Exception as failure:  # the device's storage refused it: nothing was changed
            picker.refusal = tr("The language was not changed: this device did not keep it ({failure}).",
                                failure=failure)

    device_now = language_name(session_language(page)) if setting.follows_device() else None
    choices: list[ft.Control] = [ft.Radio(value=DEVICE, label=(tr("This device's language ({language})", language=device_now)
                                             if device_now else tr("This device's language")),
                        key="language-device")]
    choices += [ft.Radio(value=language, label=name, key=f"language-{language}")
                for language, name in offered_languages()]
    controls: list[ft.Control] = [
        ft.Text(tr("Which language the app speaks on this device. Other phones keep their own."), size=16,
                key="language-help"),
        ft.RadioGroup(content=ft.Column(choices, spacing=0), value=setting.chosen or DEVICE, on_change=pick,
                      key="language-choices"),
    ]
    if picker.refusal:
        controls.append(notice_banner([picker.refusal], error=True, key="language-message"))
    return screen_view(LANGUAGE_ROUTE, tr("Language"), controls, on_home=on(services.navigate, "/"))


