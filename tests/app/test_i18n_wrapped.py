"""Every English text the screens show goes through app.i18n, and the template lists it all.

An AST check over app/views and the app modules that word things for people: a bare English
literal (or an f-string, which no catalogue can hold) where a person reads it fails here,
named by file and line, as does ``tr()`` run at import time (once for every session).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from app.i18n import available_languages
from app.i18n.template import (TEMPLATE, Message, TranslationCallError, app_messages, catalogue_gaps,
                               catalogue_problems, messages_in, template_text)

APP = Path(__file__).resolve().parents[2] / "app"
# The screens, and the app modules whose words reach them.
CHECKED = sorted([*APP.glob("views/**/*.py"), *(APP / name for name in (
    "main.py", "table/scorekeeper.py", "qr/camera.py", "event/event_copy.py", "table/export.py", "table/player_record.py",
    "table/table_advice.py", "event/desk.py", "event/organizer.py", "event/access.py", "event/format_draft.py",
    "documents/events.py", "documents/games.py", "event/sign_up_file.py", "event/passphrase.py", "event/sign_in_guard.py",
    "event/number_entry.py"))])
# Not checked: table/tournament_table.py names a table's game in the game's stored title (data, kept in English);
# the storage's errors (app/storage) speak English, as raised errors do; engine/ says its words with say() and the
# screens show them through tr_words (tests/app/test_engine_words.py checks they reach a person translated).

WORDING = ("tr", "ntr", "translatable")
NOT_TEXT_KEYWORDS = {"key", "route", "font_family", "data", "url", "src", "file_name", "allowed_extensions"}
TEXT_KEYWORDS = {"text", "label", "tooltip", "hint_text", "helper_text", "error_text", "title", "semantics_label",
                 "message", "dialog_title", "prefix_text", "suffix_text", "counter_text"}
TEXT_CALLS = {"Text", "TextButton", "Button", "FilledButton", "OutlinedButton", "ElevatedButton", "Tab", "Option",
              "Checkbox", "Switch", "Radio", "SnackBar", "Tooltip", "section", "big_button", "notice_banner"}
# Types named in a string, and lines for the log (read by developers, in English).
NOT_TEXT_CALLS = {"cast", "TypeVar", "debug", "info", "warning", "error", "exception", "DocumentSchema"}
PROSE = re.compile(r"[A-Za-z]{2,}\S*\s+\S|^[A-Z][a-z]")


def _called(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")


def _literal_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values)
    return None


def bare_texts(source: str, filename: str = "<source>") -> list[str]:
    """``file:line: text`` for each English literal shown without going through app.i18n."""
    tree = ast.parse(source, filename)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    docstrings = {node.value for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}

    def exempt(node: ast.AST) -> bool:
        parent = parents.get(node)
        if node in docstrings or isinstance(parent, (ast.Compare, ast.arg, ast.AnnAssign)) or \
                isinstance(parent, ast.Dict) and node in parent.keys or \
                isinstance(parent, ast.keyword) and parent.arg in NOT_TEXT_KEYWORDS:
            return True
        while parent is not None:
            if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in WORDING:
                return not isinstance(node, ast.JoinedStr)
            if isinstance(parent, ast.Call) and _called(parent) in NOT_TEXT_CALLS:
                return True
            if isinstance(parent, (ast.Raise, ast.Assert, ast.Subscript)) or isinstance(parent, ast.Assign) and any(
                    isinstance(target, ast.Name) and target.id == "__all__" for target in parent.targets):
                return True
            parent = parents.get(parent)
        return False

    def shown_directly(node: ast.AST) -> bool:
        parent = parents.get(node)
        if isinstance(parent, ast.keyword):
            return parent.arg in TEXT_KEYWORDS
        if isinstance(parent, ast.Call) and parent.args[:1] == [node]:
            return _called(parent) in TEXT_CALLS
        return False

    found = []
    for node in ast.walk(tree):
        text = _literal_text(node)
        if text is None or isinstance(parents.get(node), ast.JoinedStr) or exempt(node):
            continue
        parent = parents.get(node)
        worded = isinstance(parent, ast.Call) and _called(parent) in WORDING
        if worded or PROSE.search(text) or (re.search(r"[A-Za-z]{2,}", text) and shown_directly(node)):
            found.append((node.lineno, node.col_offset, f"{filename}:{node.lineno}: {text!r}"))  # type: ignore[attr-defined]
    return [line for *_, line in sorted(found)]


def module_level_wording(source: str, filename: str) -> list[str]:
    """``tr``/``ntr`` calls that run at import: once for every session, in no session's language."""
    tree = ast.parse(source, filename)
    inside = {id(node) for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
              for node in ast.walk(fn)}
    return [f"{filename}:{node.lineno}: {ast.unparse(node)[:80]}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "ntr")
            and id(node) not in inside]


@pytest.mark.parametrize("path", CHECKED, ids=lambda path: path.relative_to(APP).as_posix())
def test_every_english_text_of_a_screen_goes_through_the_translation(path: Path) -> None:
    assert bare_texts(path.read_text(encoding="utf-8"), path.relative_to(APP.parent).as_posix()) == [], \
        "show English through tr(), ntr() or translatable() (app/i18n/__init__.py), then run python -m app.i18n.template"


@pytest.mark.parametrize("path", CHECKED, ids=lambda path: path.relative_to(APP).as_posix())
def test_no_text_is_translated_at_import_time(path: Path) -> None:
    assert module_level_wording(path.read_text(encoding="utf-8"), path.relative_to(APP.parent).as_posix()) == []


def test_the_check_finds_bare_english_in_texts_labels_and_f_strings() -> None:
    source = '''
import flet as ft
def screen(name):
    """A docstring is not shown."""
    return [ft.Text("farkled"), ft.TextField(label="Player name", key="player-name"),
            ft.Text(f"{name} wins!"), ft.Text(tr("Rematch")), ft.Text(tr(f"{name} banked")),
            ft.Icon("casino"), ft.Text(tr("{name} wins!", name=name)), ft.Text(f"{name}: {1:,}")]
'''
    assert bare_texts(source, "x.py") == ["x.py:5: 'farkled'", "x.py:5: 'Player name'", "x.py:6: '{} wins!'",
                                          "x.py:6: '{} banked'"]


def test_the_check_finds_text_translated_at_import_time() -> None:
    source = 'LABELS = {"target": tr("Target")}\nKEPT = translatable("Target")\ndef f():\n    return tr("Target")\n'
    assert module_level_wording(source, "x.py") == ["x.py:1: tr('Target')"]


def test_a_translation_call_with_an_f_string_cannot_be_extracted() -> None:
    with pytest.raises(TranslationCallError, match=r"x.py:1: tr\(\) needs its English text as a string literal"):
        messages_in('tr(f"{name} banked")', "x.py")


def test_the_committed_template_lists_every_message_of_the_app() -> None:
    """Run ``python -m app.i18n.template`` after changing a text, and commit app/i18n/locale/messages.pot."""
    assert TEMPLATE.read_text(encoding="utf-8") == template_text(app_messages()), \
        "app/i18n/locale/messages.pot is out of date: run python -m app.i18n.template and commit it"


def test_every_catalogue_names_only_the_places_its_english_has() -> None:
    """A translation naming ``{nome}`` where the English has ``{name}`` would show English."""
    shipped = [problem for language in sorted(available_languages(TEMPLATE.parent)) for problem in
               catalogue_problems((TEMPLATE.parent / f"{language}.po").read_text(encoding="utf-8"), language)]
    assert shipped == []
    slip = 'msgid "{count} game"\nmsgid_plural "{count} games"\nmsgstr[0] "{count} jogo"\nmsgstr[1] "{n} jogos"\n'
    assert catalogue_problems(slip, "pt.po") == ["pt.po: '{n} jogos' names {n}, which '{count} game' does not have"]


def test_every_shipped_catalogue_translates_every_message_with_each_plural_form_its_language_has() -> None:
    """A message the template has and a catalogue lacks shows English in the middle of that
    language (``python -m app.i18n.template --check <language>`` lists what is missing)."""
    messages = app_messages()
    shipped = sorted(available_languages(TEMPLATE.parent))
    assert {"de", "fr", "es", "it", "nl", "pt_BR", "pl", "sv"} <= set(shipped)
    gaps = [gap for language in shipped for gap in
            catalogue_gaps((TEMPLATE.parent / f"{language}.po").read_text(encoding="utf-8"), messages, language)]
    assert gaps == []


def test_the_completeness_check_names_a_missing_message_a_wrong_plural_and_a_leftover() -> None:
    head = 'msgid ""\nmsgstr "Plural-Forms: nplurals=3; plural=(n==1 ? 0 : 1);\\n"\n'
    polish = head + ('msgid "Undo"\nmsgstr "Cofnij"\n'
                     'msgid "{count} game"\nmsgid_plural "{count} games"\nmsgstr[0] "{count} gra"\n'
                     'msgstr[1] "{count} gry"\nmsgid "Gone"\nmsgstr "Nie ma"\n')
    messages = [Message("Undo"), Message("{count} game", "{count} games"), Message("Redo")]
    assert catalogue_gaps(polish, messages, "pl") == [
        "pl: '{count} game' has 2 plural forms, not the 3 its header's nplurals says",
        "pl: no translation of 'Redo'",
        "pl: translates 'Gone', which the app no longer has",
    ]
