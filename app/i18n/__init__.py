"""The app's text in the person's language, where it has one; English otherwise.

English is the source language: a message id is the English text itself, so with no
catalogue for a language the app shows English, byte for byte. Values go in by name,
so a translator may reorder them::

    tr("{name} banked {points}.", name="Ann", points=350)
    ntr("{count} game", "{count} games", count, count=count)

Text kept in a table at import time is marked with :func:`translatable` and translated
where it is shown (``tr(LABELS[name])``): an import runs once for every session.

Catalogues are gettext ``.po`` files in ``app/i18n/locale`` named by language (``pt.po``,
``pt_BR.po``), read as they are (nothing to compile, in CPython and in the PWA's Pyodide
alike) and served through the standard :mod:`gettext` classes, plural rules included.
``python -m app.i18n.template`` writes the template ``app/i18n/locale/messages.pot``.

Each app session has its own language (two phones on one server may differ), chosen
from the languages the client reports: region, then language, then English.

The engine's words (its refusals, notices, the rules' and advice's descriptions) are
:class:`engine.words.Words`: English text that keeps its template and values. A screen shows
them through :func:`tr_words` (``tr_words(refusal.words)``), which looks the template up in the
same catalogue; the template writer collects the engine's ``say``/``say_n`` templates too.

Numbers put into a message (``{points:,}``, ``{share:.1f}``, a plain ``{count}``) are written as
the session's language writes them (:mod:`app.i18n.numbers`: 10.000 in German); English stays
byte for byte as Python writes it. CSV exports and codes do not go through here: plain digits.

Not translated, by design: the storage layer's errors (``app/storage``) and data kept in
documents (a table's game title, a format's name).

>>> language_candidates("pt-BR")
['pt_BR', 'pt']
>>> choose_language(["pt-BR", "fr"], {"pt", "fr"})
'pt'
>>> choose_language(["C", "", "not a tag!"], {"pt"}) is None
True
>>> tr("{name} banked {points}.", name="Ann", points=350)
'Ann banked 350.'
>>> ntr("{count} game", "{count} games", 1, count=1)
'1 game'
>>> tr_words(say("{points:,} to win", points=10000))
'10,000 to win'
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import io
import json
import re
import string
import struct
import weakref
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.i18n.numbers import localised
from engine.errors import FarkleError
from engine.words import LISTING, Phrases, Words, say  # noqa: F401 (say: the example above)

if TYPE_CHECKING:
    import gettext  # loaded with the first catalogue: an English-only start never needs it

    import flet as ft

__all__ = ["CATALOGUE_FOLDER", "ENGLISH", "tr", "tr_in", "speaking", "ntr", "tr_words", "local_number", "translatable", "language_candidates", "choose_language",
           "available_languages", "catalogue_from_po", "po_messages", "use_language", "session_language",
           "client_languages", "language_name", "DEVICE_INFO_WAIT"]

CATALOGUE_FOLDER = Path(__file__).parent / "locale"
"""Where the ``<language>.po`` catalogues are (packed into the PWA's app.tar.gz with app/)."""
ENGLISH = "en"
"""The source language: shown when no catalogue fits."""
DEVICE_INFO_WAIT = 2.0
"""Seconds to wait for the client to report its languages (or the language picked on it) before
settling on what it said so far: a client that does not answer still gets its screen."""

_TAG = (r"^(?P<language>[A-Za-z]{2,3}|[A-Za-z]{5,8})"
        r"(?:[-_](?P<script>[A-Za-z]{4}))?(?:[-_](?P<region>[A-Za-z]{2}|[0-9]{3}))?(?:[-_].*)?$")
"""A language tag as browsers and systems write it (compiled on first use, not at start-up)."""
_loaded: dict[tuple[Path, str], gettext.NullTranslations] = {}
_named: contextvars.ContextVar[tuple[str, gettext.NullTranslations | None] | None] = contextvars.ContextVar(
    "farkle_named_language", default=None)
"""The language :func:`speaking` names for the messages made in its block (None: the session's)."""
_sessions: weakref.WeakKeyDictionary[Any, tuple[str, gettext.NullTranslations | None]] = weakref.WeakKeyDictionary()


def language_candidates(tag: str) -> list[str]:
    """Catalogue names for one language tag, most specific first; none for "C", "" or junk.

    >>> language_candidates("zh-Hant-TW")
    ['zh_Hant_TW', 'zh_Hant', 'zh_TW', 'zh']
    >>> language_candidates("en_US.UTF-8"), language_candidates("C"), language_candidates("../x")
    (['en_US', 'en'], [], [])
    """
    found = re.match(_TAG, tag.split(".")[0].split("@")[0].strip())
    if found is None or found["language"].upper() in ("C", "POSIX"):
        return []
    language = found["language"].lower()
    script = found["script"].title() if found["script"] else None
    region = found["region"].upper() if found["region"] else None
    names = [f"{language}_{script}_{region}" if script and region else "", f"{language}_{script}" if script else "",
             f"{language}_{region}" if region else "", language]
    return [name for name in names if name]


def choose_language(tags: Iterable[str], available: Collection[str]) -> str | None:
    """The first catalogue that fits the person's languages, in their order of preference
    (a region's catalogue, then the language's, then the language's one other region: a
    reader in Portugal reads Brazilian Portuguese before English); None means English.

    >>> choose_language(["pt-PT", "en"], {"pt_BR", "de"})
    'pt_BR'
    """
    for tag in tags:
        candidates = language_candidates(str(tag or ""))
        for name in candidates:
            if name in available:
                return name
            if name.split("_")[0] == ENGLISH:
                return None  # English is asked for before any catalogue: the source text
        if candidates:
            regions = [name for name in available if name.split("_")[0] == candidates[-1]]
            if len(regions) == 1:  # several (zh_CN, zh_TW) would be a guess between scripts or spellings
                return regions[0]
    return None


def available_languages(folder: Path | None = None) -> frozenset[str]:
    """The languages with a catalogue in ``folder`` (by default :data:`CATALOGUE_FOLDER`)."""
    return _languages_in(CATALOGUE_FOLDER if folder is None else folder)


@functools.cache
def _languages_in(folder: Path) -> frozenset[str]:
    """Looked up once per folder and process: catalogues ship with the app and do not change
    while it runs, and a session's start asks three times (client, stored pick, choice)."""
    return frozenset(path.stem for path in folder.glob("*.po")) if folder.is_dir() else frozenset()


def catalogue_from_po(text: str) -> gettext.GNUTranslations:
    """A gettext catalogue from a ``.po`` file's text (fuzzy and empty translations left out,
    so their English shows); its plural rule comes from the ``Plural-Forms`` header."""
    import gettext

    messages = po_messages(text)
    header = messages.get("", "")
    if "charset=" not in header:
        messages[""] = header + "Content-Type: text/plain; charset=UTF-8\n"
    return gettext.GNUTranslations(io.BytesIO(_mo_bytes(messages)))


def po_messages(text: str) -> dict[str, str]:
    """msgid -> msgstr as a compiled catalogue keys them (plural forms joined by NUL)."""
    messages: dict[str, str] = {}
    entry: dict[str, str] = {}
    field = ""
    fuzzy = False

    def keep() -> None:
        if "msgid" in entry and (not fuzzy or entry["msgid"] == ""):  # a fuzzy header still counts
            key = entry["msgid"] + ("\0" + entry["msgid_plural"] if "msgid_plural" in entry else "")
            forms = [entry[name] for name in sorted(entry) if name.startswith("msgstr")]
            if all(forms) and forms and "msgctxt" not in entry:
                messages[key] = "\0".join(forms)

    for line in text.splitlines():
        line = line.strip()
        if line.startswith('"'):
            entry[field] += json.loads(line)
            continue
        if not line or line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                keep()
                entry, fuzzy = {}, True
            continue
        keyword, _, quoted = line.partition(" ")
        if keyword in ("msgid", "msgctxt") and any(name.startswith("msgstr") for name in entry):
            keep()
            entry, fuzzy = {}, False
        field = keyword
        entry[field] = json.loads(quoted)
    keep()
    return messages


def _mo_bytes(messages: dict[str, str]) -> bytes:
    """The GNU ``.mo`` form of a catalogue, as :class:`gettext.GNUTranslations` reads it."""
    keys = sorted(messages)
    ids = [key.encode() for key in keys]
    strs = [messages[key].encode() for key in keys]
    key_start = 7 * 4 + 16 * len(keys)
    value_start = key_start + sum(len(i) + 1 for i in ids)
    table: list[int] = []
    offset = 0
    for data in ids:
        table += [len(data), key_start + offset]
        offset += len(data) + 1
    offset = 0
    for data in strs:
        table += [len(data), value_start + offset]
        offset += len(data) + 1
    head = struct.pack("<7I", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return head + struct.pack(f"<{len(table)}I", *table) + b"".join(i + b"\0" for i in ids) + \
        b"".join(s + b"\0" for s in strs)


def _catalogue(language: str, folder: Path) -> gettext.NullTranslations:
    """The catalogue of one language, read once per process; what a regional catalogue lacks
    comes from its language's (``pt_BR`` then ``pt``), and what that lacks is English."""
    if (folder, language) not in _loaded:
        catalogue = catalogue_from_po((folder / f"{language}.po").read_text(encoding="utf-8"))
        broader = [name for name in language_candidates(language)[1:] if name in available_languages(folder)]
        if broader:
            catalogue.add_fallback(_catalogue(broader[0], folder))
        _loaded[folder, language] = catalogue
    return _loaded[folder, language]


def use_language(page: ft.Page, tags: Iterable[str], folder: Path | None = None) -> str:
    """Show this page's session in the first of ``tags`` (language tags, most wanted first)
    with a catalogue; returns the catalogue's name, or :data:`ENGLISH`."""
    folder = CATALOGUE_FOLDER if folder is None else folder
    chosen = choose_language(tags, available_languages(folder))
    before = session_language(page)
    _sessions[page.session] = (chosen, _catalogue(chosen, folder)) if chosen else (ENGLISH, None)
    if (chosen or ENGLISH) != before:
        page.locale_configuration = _flutter_locales(chosen or "en_US")
    return chosen or ENGLISH


def _flutter_locales(language: str) -> ft.LocaleConfiguration:
    """Flutter's own words (a text field's Copy and Paste, a dialog's buttons) in the same
    language as the app's, with American English as the fallback, as Flutter has it."""
    import flet as ft

    parts = language.split("_")
    script = next((part for part in parts[1:] if len(part) == 4), None)
    region = next((part for part in parts[1:] if len(part) != 4), None)
    shown = ft.Locale(parts[0], region, script_code=script)
    return ft.LocaleConfiguration(supported_locales=[shown, ft.Locale("en", "US")], current_locale=shown)


def session_language(page: ft.Page) -> str:
    """The language this page's session shows (:data:`ENGLISH` until one is chosen)."""
    return _sessions.get(page.session, (ENGLISH, None))[0]


async def client_languages(page: ft.Page) -> list[str]:
    """The languages the client (browser or phone) says its person reads, most wanted first;
    none when it does not answer in time. Asked only when some catalogue exists, so an
    English-only app starts without the round trip."""
    if not available_languages():
        return []
    try:
        info = await asyncio.wait_for(page.get_device_info(), DEVICE_INFO_WAIT)
        return [locale.language_tag for locale in info.locales] if info is not None else []
    except Exception:  # no answer, or one Flet cannot read: the source language, as without a catalogue
        return []


def language_name(language: str, folder: Path | None = None) -> str:
    """What a language calls itself ("Deutsch"), from its catalogue's ``Language-Name`` header,
    so a language is offered in words its reader knows whatever the app shows now; the
    catalogue's name when it has none.

    >>> language_name(ENGLISH)
    'English'
    """
    return ("English" if language == ENGLISH
            else _name_in_catalogue(language, CATALOGUE_FOLDER if folder is None else folder))


@functools.cache
def _name_in_catalogue(language: str, folder: Path) -> str:
    """Read once per process: the Language screen names every language on each draw."""
    try:
        with (folder / f"{language}.po").open(encoding="utf-8") as catalogue:
            head = catalogue.read(4096)  # the header comes first: the whole file is not read for a name
    except OSError:
        return language
    named = re.search(r'^"Language-Name: *([^"\\]+)', head, re.MULTILINE)
    return named[1].strip() if named else language


def _current() -> tuple[str, gettext.NullTranslations | None]:
    """The language and catalogue of the session whose event or drawing is running now
    (English and None outside any session)."""
    import flet as ft  # already loaded by the app; kept out of this module's import (storage uses it alone)

    named = _named.get()
    if named is not None:
        return named
    try:
        session = ft.context.page.session
    except RuntimeError:  # outside any app session: a doctest, a unit test of plain code
        return ENGLISH, None
    return _sessions.get(session, (ENGLISH, None))


def tr(message: str, /, **values: Any) -> str:
    """``message`` (English, the catalogue's id) in the session's language, with ``values``
    put into its ``{named}`` places (the engine's words among them translated too)."""
    language, catalogue = _current()
    text = catalogue.gettext(message) if catalogue is not None and message else message  # "" is the header's id
    return _filled(text, message, _translated_values(values, catalogue), language)


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within this block :func:`tr`, :func:`ntr` and :func:`tr_words` speak ``language`` (a
    catalogue's name; English without one), outside any session: what a device set to that
    language reads, made by the same catalogue and number style its screens use (a journey
    checking a screen in German, a survey of every screen in the longest language)."""
    catalogue = _catalogue(language, CATALOGUE_FOLDER) if language in available_languages() else None
    token = _named.set((language, catalogue) if catalogue is not None else (ENGLISH, None))
    try:
        yield
    finally:
        _named.reset(token)


def tr_in(language: str, message: str, /, **values: Any) -> str:
    """One message as :func:`speaking` ``language`` says it.

    >>> tr_in("xx", "{points:,} to win", points=10000)
    '10,000 to win'
    """
    with speaking(language):
        return tr(message, **values)


def ntr(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """The form of a message for ``count`` things, in the session's language (English: the
    singular for exactly one), with ``values`` put into its ``{named}`` places."""
    language, catalogue = _current()
    english = singular if count == 1 else plural
    text = catalogue.ngettext(singular, plural, count) if catalogue is not None else english
    return _filled(text, english, _translated_values(values, catalogue), language)


def tr_words(words: str, /) -> str:
    """What the engine said (:class:`engine.words.Words`) in the session's language: its
    template looked up like :func:`tr`'s, a phrase among its values translated first.
    Plain text (a document's data) is shown as it is."""
    if not isinstance(words, Words):
        return words
    language, catalogue = _current()
    if catalogue is None and language == ENGLISH:
        return str(words)  # the engine's English as it made it
    values = _translated_values(words.values, catalogue)
    if words.template == LISTING:
        return _filled(words.template, words.template, values, language)
    if words.plural is None or words.form_count is None:
        return _filled(catalogue.gettext(words.template) if catalogue is not None and words.template else words.template,
                       words.template, values, language)
    english = words.template if words.form_count == 1 else words.plural
    text = catalogue.ngettext(words.template, words.plural, words.form_count) if catalogue is not None else english
    return _filled(text, english, values, language)


def _translated_values(values: Mapping[str, Any], catalogue: gettext.NullTranslations | None) -> dict[str, Any]:
    """Values as the session reads them: with a catalogue, the engine's words among them translated."""
    return {name: _translated_value(value) for name, value in values.items()} if catalogue is not None else dict(values)


def _translated_value(value: object) -> object:
    """A value of the engine's words as the session reads it: a phrase translated, phrases listed,
    an engine refusal put in a sentence (``tr("... {problem}", problem=error)``) by its words."""
    if isinstance(value, FarkleError):
        return tr_words(value.words)
    if isinstance(value, Phrases):
        return value.separator.join(tr_words(phrase) for phrase in value)
    return tr_words(value) if isinstance(value, Words) else value


def local_number(value: float, spec: str = ",") -> str:
    """A number shown alone (a total, a chart's scale) as the session's language writes it:
    ``local_number(10050)`` is 10,050 in English, 10.050 in German. Exports keep plain digits.

    >>> local_number(10050), local_number(2.5, ".1f")
    ('10,050', '2.5')
    """
    language = _current()[0]
    return format(value, spec) if language == ENGLISH else localised(format(value, spec), language)


class _NumbersFormatter(string.Formatter):
    """``str.format`` that writes numbers the way one language does."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> Any:
        text = super().format_field(value, format_spec)
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return localised(text, self.language) if is_number else text


def _filled(text: str, english: str, values: dict[str, Any], language: str = ENGLISH) -> str:
    """``text`` with ``values`` in its places, numbers as ``language`` writes them; a
    translation that names a place the English does not have (a translator's slip) shows
    the English instead of failing the screen.

    >>> _filled("{nome} ganhou", "{name} won", {"name": "Ann"})
    'Ann won'
    >>> _filled("{points:,} Punkte", "{points:,} points", {"points": 10050}, "de")
    '10.050 Punkte'
    """
    if not values:
        return text
    try:
        return _formatted(text, values, language)
    except (KeyError, IndexError, ValueError):
        if text is english:
            raise  # the app's own text names a value it was not given: a bug to see, not to hide
        return _formatted(english, values, language)


def _formatted(text: str, values: dict[str, Any], language: str) -> str:
    """``text.format(**values)``, numbers as ``language`` writes them (English: as Python does)."""
    return text.format(**values) if language == ENGLISH else _NumbersFormatter(language).format(text, **values)


def translatable(message: str, /) -> str:
    """Mark English kept as data (a label table) for the catalogue; it is returned as it is and
    translated where it is shown, with ``tr(message)``."""
    return message
