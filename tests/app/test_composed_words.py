"""Sentences the app used to compose in English (an ordinal, a month's name, a lowercased round,
a raw preset key, "event(s)", a number written by an f-string) are whole messages now, so a
German screen shows no English and German numbers.

The catalogue here is a tiny German one written for the test (not shipped), so each test
fails if the screen goes back to composing its words.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from app.documents.events import CopyMark
from app.event.codes import CodeHolder, SharedCode
from app.event.event_copy import copy_line
from app.event.number_entry import parse_number
from app.event.organizer import Organizer
from app.event.sign_in_guard import FailedTries
from app.i18n import local_number, use_language
from app.storage import StoreProblem
from app.views.organizer.event import failed_tries_line
from app.views.widgets import problem_line
from engine import InvalidInput, Tournament
from tests.app.test_organizer import Desk
from tests.app.test_organizer_messages import round_two
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness

GERMAN: dict[str, str | list[str]] = {
    "Round {number}": "Runde {number}",
    "{round} {total:,} (place {place} overall)": "{round} {total:,} (Platz {place} gesamt)",
    "{round} {total:,} (place {place} at table {table})": "{round} {total:,} (Platz {place} an Tisch {table})",
    "Close round {number} and apply the cut": "Runde {number} schließen und den Cut anwenden",
    "Results saved as {file}.": "Ergebnisse als {file} gespeichert.",
    "Draw round {number}": "Runde {number} auslosen",
    "Draw the seats for round {number}": "Plätze für Runde {number} auslosen",
    "Last copy saved on {date} at {time}: {after}.": "Letzte Kopie gespeichert am {date} um {time}: {after}.",
    "nothing has changed since": "seitdem hat sich nichts geändert",
    "Could not read {location} ({reason}); it was kept aside as {kept_as}.":
        "{location} ließ sich nicht lesen ({reason}); die Datei liegt jetzt als {kept_as} beiseite.",
    "{count} event on this device has the event code {code}: choose the one this result is for.":
        ["{count} Turnier auf diesem Gerät hat den Turniercode {code}: wähle das richtige.",
         "{count} Turniere auf diesem Gerät haben den Turniercode {code}: wähle das richtige."],
    " and {count} other address": [" und {count} weitere Adresse", " und {count} weitere Adressen"],
    "Wrong organizer passphrases from other devices: {count}, the last at {time}, from {addresses}{others}.":
        "Falsche Passwörter anderer Geräte: {count}, zuletzt um {time}, von {addresses}{others}.",
}
"""German for the messages these tests read; a list holds a plural's two forms."""

PLURALS = {
    "{count} event on this device has the event code {code}: choose the one this result is for.":
        "{count} events on this device have the event code {code}: choose the one this result is for.",
    " and {count} other address": " and {count} other addresses",
}


def german(folder: Path) -> Path:
    """A ``de.po`` in ``folder`` holding :data:`GERMAN`."""
    entries = ['msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n'
               'Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n']
    for english, translated in GERMAN.items():
        if isinstance(translated, list):
            forms = "".join(f"msgstr[{n}] {json.dumps(form, ensure_ascii=False)}\n"
                            for n, form in enumerate(translated))
            entries.append(f"msgid {json.dumps(english)}\nmsgid_plural {json.dumps(PLURALS[english])}\n{forms}")
        else:
            entries.append(f"msgid {json.dumps(english)}\nmsgstr {json.dumps(translated, ensure_ascii=False)}\n")
    (folder / "de.po").write_text("\n".join(entries), encoding="utf-8")
    return folder


def organizer_desk(act: object) -> Desk:
    """An event in a store, as ``act`` (a tournament's actions) leaves it."""
    desk = Desk()

    async def setup() -> None:
        organizer = Organizer(desk.store)
        desk.tournament_id = await organizer.create("Cup")
        await organizer.act(act)

    asyncio.run(setup())
    return desk


def test_a_rounds_place_in_the_german_standings_is_a_number_with_no_english_ordinal(tmp_path: Path) -> None:
    desk = organizer_desk(round_two)
    folder = german(tmp_path)

    async def test(ui: FletHarness) -> None:
        use_language(ui.page, ["de"], folder)
        await ui.navigate(desk.route())
        await ui.navigate(desk.route("standings"))
        assert ui.text_of("standing-6").endswith(
            "· Runde 1 9.200 (Platz 3 gesamt) · Runde 2 10.000 (Platz 1 an Tisch 2)")
        await ui.click("save-results-csv")
        assert ui.text_of("organizer-notice") == "Ergebnisse als /tmp/cup-1-results.csv gespeichert."
        await ui.navigate(desk.route("results"))
        assert ui.text_of("close-round") == "Runde 2 schließen und den Cut anwenden"

    saved_as = {("FilePicker", "save_file"): lambda *_: "/tmp/cup-1-results.csv"}
    desk.run(test, route=desk.route("standings"), services=saved_as)


def test_the_draw_names_its_round_as_german_writes_it_not_lowercased_english(tmp_path: Path) -> None:
    def checked_in(t: Tournament) -> Tournament:
        for n in range(1, 9):
            t.check_in(t.sign_up(f"P{n}"))
        return t

    desk = organizer_desk(checked_in)
    folder = german(tmp_path)

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("draw-seats") == "Draw the seats for round 1"
        use_language(ui.page, ["de"], folder)
        await ui.navigate(desk.route())
        await ui.navigate(desk.route("seating"))
        assert ui.text_of("draw-seats") == "Plätze für Runde 1 auslosen"
        assert "Runde 1 auslosen" in ui.texts()

    desk.run(test, route=desk.route("seating"))


def test_counts_dates_numbers_and_storage_problems_read_as_german_writes_them(tmp_path: Path) -> None:
    folder = german(tmp_path)
    tries = FailedTries(count=9, last=0.0, addresses={f"10.0.0.{n}": n for n in range(1, 5)})
    shown: list[str] = []

    async def test(ui: FletHarness) -> None:
        use_language(ui.page, ["de"], folder)
        shown.append(str(SharedCode("CUP-1", [CodeHolder("a", "Cup"), CodeHolder("b", "Cup")])))
        shown.append(failed_tries_line(tries))
        shown.append(copy_line(CopyMark("2026-12-05T13:02:00+00:00", 4), 4))
        shown.append(problem_line(StoreProblem("games/7", "Expecting value: line 1 column 1", "games/7.damaged")))
        shown.append(local_number(1050))
        shown.append(str(parse_number("Punkte", local_number(1050))))

    run(test)
    codes, tried, copied, problem, number, parsed = shown
    assert codes == "2 Turniere auf diesem Gerät haben den Turniercode CUP-1: wähle das richtige."
    assert tried.endswith(" und 1 weitere Adresse.")
    assert copied.startswith("Letzte Kopie gespeichert am 2026-12-0") and copied.endswith(
        ": seitdem hat sich nichts geändert.")
    assert "Dec" not in copied
    assert problem == ("games/7 ließ sich nicht lesen (Expecting value: line 1 column 1); die Datei liegt jetzt als "
                       "games/7.damaged beiseite.")
    assert (number, parsed) == ("1.050", "1050")


def test_a_dot_is_a_thousands_mark_only_where_the_language_groups_with_it() -> None:
    with pytest.raises(InvalidInput, match="is not a whole number"):
        parse_number("Points", "1.050")  # English: a decimal point, not a whole number
    assert parse_number("Points", "1,050") == 1050
