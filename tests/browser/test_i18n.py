"""The app's text in the person's language: the language chosen per session from what the
client reports (region, then language, then English), read from a ``.po`` catalogue.

The catalogues here are test ones written into a temporary folder: the app ships English only.
"""

from __future__ import annotations

import asyncio
import tarfile
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app.i18n import available_languages, catalogue_from_po, choose_language, language_candidates
from app.main import app_on
from app.storage import MemoryStore
from tests.support.app_driver import run, start_game
from tests.support.flet_harness import FletHarness

PORTUGUESE = r'''
# A test catalogue: a few of the home and table screens' texts.
msgid ""
msgstr ""
"Language: pt\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

msgid "New game"
msgstr "Novo jogo"

msgid "Farkle Table"
msgstr "Mesa de Farkle"

msgid "Unfinished games"
msgstr "Jogos por terminar"

#, python-brace-format
msgid "{name}'s turn · turn total {turn_points:,} · {dice} in hand"
msgstr "Vez de {name} · {dice} na mão · total do turno {turn_points:,}"

msgid "six dice"
msgstr "seis dados"

#, python-brace-format
msgid "to play · {in_hand} in hand"
msgstr "a jogar · {na_mao} na mão"

#, fuzzy
msgid "Score lookup"
msgstr "Consulta (por rever)"

msgid "Start game"
msgstr ""

#, python-brace-format
msgid "{count:,} game"
msgid_plural "{count:,} games"
msgstr[0] "{count:,} jogo"
msgstr[1] "{count:,} jogos"
'''
BRAZILIAN = '''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "New game"
msgstr "Novo jogo (Brasil)"
'''


@pytest.mark.parametrize("tag, names", [
    ("pt-BR", ["pt_BR", "pt"]),
    ("pt_br", ["pt_BR", "pt"]),
    ("de", ["de"]),
    ("es-419", ["es_419", "es"]),
    ("zh-Hant-TW", ["zh_Hant_TW", "zh_Hant", "zh_TW", "zh"]),
    ("en_US.UTF-8", ["en_US", "en"]),
    ("sr-Latn@latin", ["sr_Latn", "sr"]),
    ("C", []), ("POSIX", []), ("", []), ("not a tag", []), ("../../etc/passwd", []), ("x", []), ("12", []),
])
def test_a_language_tag_names_catalogues_from_the_region_to_the_language(tag: str, names: list[str]) -> None:
    assert language_candidates(tag) == names


@pytest.mark.parametrize("tags, available, chosen", [
    (["pt-BR"], {"pt"}, "pt"),
    (["pt-BR"], {"pt", "pt_BR"}, "pt_BR"),
    (["pt-PT"], {"pt_BR"}, "pt_BR"),  # the language's one regional catalogue, before English
    (["pt-PT", "de"], {"pt_BR", "de"}, "pt_BR"),
    (["zh-HK", "de"], {"zh_CN", "zh_TW", "de"}, "de"),  # two regions of the language: no guess between them
    (["en-GB", "pt"], {"pt_BR", "en_US"}, None),
    (["de-AT", "pt-BR"], {"pt"}, "pt"),
    (["en-GB", "pt"], {"pt"}, None),
    (["C", "", "junk!", "pt"], {"pt"}, "pt"),
    ([], {"pt"}, None),
    (["fr"], set(), None),
])
def test_the_first_wanted_language_with_a_catalogue_is_chosen_and_english_otherwise(
        tags: list[str], available: set[str], chosen: str | None) -> None:
    assert choose_language(tags, available) == chosen


def test_a_catalogue_translates_picks_plural_forms_and_leaves_fuzzy_and_empty_entries_english() -> None:
    catalogue = catalogue_from_po(PORTUGUESE)
    assert catalogue.gettext("New game") == "Novo jogo"
    assert catalogue.gettext("Score lookup") == "Score lookup"  # fuzzy: not yet a translation
    assert catalogue.gettext("Start game") == "Start game"  # not translated yet
    assert catalogue.gettext("Home") == "Home"  # not in the catalogue
    assert catalogue.ngettext("{count:,} game", "{count:,} games", 1) == "{count:,} jogo"
    assert catalogue.ngettext("{count:,} game", "{count:,} games", 0) == "{count:,} jogo"  # pt: 0 is singular
    assert catalogue.ngettext("{count:,} game", "{count:,} games", 2) == "{count:,} jogos"


def test_a_catalogue_reads_escapes_and_strings_continued_over_lines() -> None:
    catalogue = catalogue_from_po('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                  'msgid "Say \\"hi\\"\\n"\n"then go"\nmsgstr "Diga \\"olá\\"\\n"\n"e vá"\n')
    assert catalogue.gettext('Say "hi"\nthen go') == 'Diga "olá"\ne vá'


def test_only_po_files_count_as_languages(tmp_path: Path) -> None:
    (tmp_path / "pt.po").write_text(PORTUGUESE, encoding="utf-8")
    (tmp_path / "messages.pot").write_text("", encoding="utf-8")
    assert available_languages(tmp_path) == {"pt"}
    assert available_languages(tmp_path / "missing") == set()


def device_info(*tags: str) -> Any:
    """The client's answer to ``page.get_device_info()`` in a browser reporting these languages."""

    def answer(ui: FletHarness, control: Any, args: Any) -> dict[str, Any]:
        locales = []
        for tag in tags:
            language, _, country = tag.partition("-")
            locales.append({"language_code": language, "country_code": country or None})
        return {"browser_name": "chrome", "locales": locales, "languages": list(tags)}

    return {("Page", "get_device_info"): answer}


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's catalogue folder holding the test's Portuguese (and Brazilian) catalogues."""
    (tmp_path / "pt.po").write_text(PORTUGUESE, encoding="utf-8")
    (tmp_path / "pt_BR.po").write_text(BRAZILIAN, encoding="utf-8")
    monkeypatch.setattr("app.i18n.CATALOGUE_FOLDER", tmp_path)
    return tmp_path


def test_a_portuguese_browser_sees_the_screens_in_portuguese(catalogues: Path) -> None:
    async def test(ui: FletHarness) -> None:
        assert ui.page.title == "Mesa de Farkle"
        assert ui.page.locale_configuration is not None  # Flutter's own words (Copy, Paste) follow
        assert ui.page.locale_configuration.current_locale == ft.Locale("pt")
        assert ui.text_of("new-game") == "Novo jogo"
        assert "Jogos por terminar" in ui.texts()
        assert ui.text_of("lookup") == "Score lookup"  # a fuzzy entry shows the English
        await start_game(ui, "Ann", "Bob")
        assert ui.text_of("turn-line") == "Vez de Ann · seis dados na mão · total do turno 0"  # reordered
        assert "to play · seis dados in hand" in ui.texts()  # a translation naming an unknown place: English
        await ui.navigate("/")
        assert ui.text_of("storage-usage").startswith("1 jogo ")

    run(test, store=MemoryStore(), services=device_info("pt-PT", "en-US"))


def test_a_regional_catalogue_comes_before_the_language_one_and_falls_back_to_it(catalogues: Path) -> None:
    async def test(ui: FletHarness) -> None:
        assert ui.page.locale_configuration is not None
        assert ui.page.locale_configuration.current_locale == ft.Locale("pt", "BR")
        assert ui.text_of("new-game") == "Novo jogo (Brasil)"
        assert "Jogos por terminar" in ui.texts()  # not in the Brazilian catalogue: the Portuguese one says it
        assert ui.text_of("lookup") == "Score lookup"  # in neither: English

    run(test, store=MemoryStore(), services=device_info("pt-BR"))


@pytest.mark.parametrize("tags", [("de-DE",), ("en-GB", "pt-PT"), ("C",), ()])
def test_a_language_without_a_catalogue_shows_english(catalogues: Path, tags: tuple[str, ...]) -> None:
    async def test(ui: FletHarness) -> None:
        assert ui.page.title == "Farkle Table"
        assert ui.page.locale_configuration is None  # Flutter's default, as in an English-only app
        assert ui.text_of("new-game") == "New game"
        assert "Unfinished games" in ui.texts()

    run(test, store=MemoryStore(), services=device_info(*tags))


def test_a_client_that_does_not_say_its_languages_gets_english(catalogues: Path) -> None:
    async def test(ui: FletHarness) -> None:
        assert ("Page", "get_device_info", None) in ui.method_calls  # asked, and the client answered an error
        assert ui.text_of("new-game") == "New game"

    run(test, store=MemoryStore())


def test_an_english_only_app_starts_without_asking_the_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.i18n.CATALOGUE_FOLDER", tmp_path)

    async def test(ui: FletHarness) -> None:
        assert [call for call in ui.method_calls if call[1] == "get_device_info"] == []
        assert ui.text_of("new-game") == "New game"

    run(test, store=MemoryStore())



def test_a_language_changed_on_the_device_shows_at_once(catalogues: Path) -> None:
    async def test(ui: FletHarness) -> None:
        assert ui.text_of("new-game") == "New game"
        await ui.dispatch(ui.page, "locale_change", {"locales": [{"language_code": "pt", "country_code": "PT"}]})
        assert ui.text_of("new-game") == "Novo jogo"

    run(test, store=MemoryStore(), services=device_info("de-DE"))


def test_a_change_to_another_language_without_a_catalogue_leaves_the_screen_as_it_is(catalogues: Path) -> None:
    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        await ui.type_text("player-name-1", "Ann")
        await ui.dispatch(ui.page, "locale_change", {"locales": [{"language_code": "fr"}]})
        assert ui.find("player-name-1").value == "Ann"  # the screen was not opened anew

    run(test, store=MemoryStore(), services=device_info("de-DE"))

def test_two_phones_on_one_server_each_see_their_own_language(catalogues: Path) -> None:
    store = MemoryStore()

    async def both() -> None:
        async with FletHarness(app_on(store), services=device_info("pt")) as portuguese, \
                FletHarness(app_on(store), services=device_info("fr")) as french:
            await portuguese.click("new-game")
            await french.click("new-game")
            await portuguese.navigate("/")
            await french.navigate("/")
            assert portuguese.text_of("new-game") == "Novo jogo"
            assert french.text_of("new-game") == "New game"

    asyncio.run(both())



def test_the_pwa_ships_the_catalogues_with_the_app(tmp_path: Path) -> None:
    """app.tar.gz carries app/i18n/locale/*.po as they are: the browser's Python reads them there."""
    from tests.support.pwa_harness import ROOT, load_build_module

    app = tmp_path / "app"
    (app / "i18n" / "locale").mkdir(parents=True)
    (app / "main.py").write_text("import flet as ft\n\n\ndef main(page):\n    pass\n\n\n"
                                 "if __name__ == \"__main__\":\n    ft.run(main)\n")
    (app / "i18n" / "locale" / "pt.po").write_text(PORTUGUESE, encoding="utf-8")
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    (vendor / "six.py").write_text("")  # a vendored package, as the build always has
    load_build_module().pack_app(app, ROOT / "engine", tmp_path / "app.tar.gz", vendor)
    with tarfile.open(tmp_path / "app.tar.gz") as tar:
        shipped = tar.extractfile("app/i18n/locale/pt.po")
        assert shipped is not None and shipped.read().decode("utf-8") == PORTUGUESE
