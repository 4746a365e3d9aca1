"""The message catalogue template: every text the app passes to :func:`app.i18n.tr`,
:func:`app.i18n.ntr` and :func:`app.i18n.translatable`, and every template the engine says
through :func:`engine.words.say` and :func:`engine.words.say_n`, read from the source, for a
translator to start from. ``tr(label)`` with a variable translates text marked elsewhere.

``python -m app.i18n.template`` writes ``app/i18n/locale/messages.pot``; ``--check [language ...]``
only says whether the committed template is current and whether each catalogue (or the ones
named) translates every message, with its plural forms, naming only the ``{places}`` its English
has (exit status 1 when not). A new language is that template copied to
``app/i18n/locale/<language>.po`` with its ``msgstr`` filled in.

>>> [m.msgid for m in messages_in('tr("Undo")\\nntr("{n} die", "{n} dice", n, n=n)', "x.py")]
['Undo', '{n} die']
>>> [(m.msgid, m.plural) for m in messages_in('say_n("{n} die", "{n} dice", n, n=n)', "engine/x.py")]
[('{n} die', '{n} dice')]
"""

from __future__ import annotations

import ast
import json
import re
import string
import sys
from dataclasses import dataclass, field
from pathlib import Path

from app.i18n import available_languages, po_messages

__all__ = ["Message", "TranslationCallError", "messages_in", "app_messages", "template_text", "catalogue_problems",
           "catalogue_gaps", "TEMPLATE"]

CALLS = ("tr", "ntr", "translatable", "say", "say_n")
PLURAL_CALLS = ("ntr", "say_n")
APP = Path(__file__).parent.parent
ENGINE = APP.parent / "engine"
TEMPLATE = Path(__file__).parent / "locale" / "messages.pot"
HEADER = """\
# Farkle Table: the app's messages, for a translator to start from.
# Written by `python -m app.i18n.template`; do not edit by hand.
# A new language: copy this file to app/i18n/locale/<language>.po (pt.po, pt_BR.po), fill in
# each msgstr (keep every {name} as it is, in any order) and set Plural-Forms.
msgid ""
msgstr ""
"Project-Id-Version: Farkle Table\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"""


class TranslationCallError(ValueError):
    """A ``tr``/``ntr`` call whose text is not a plain string literal (it cannot be extracted)."""


@dataclass
class Message:
    """One message id (with its plural) and the files that show it."""

    msgid: str
    plural: str | None = None
    files: list[str] = field(default_factory=list)


def messages_in(source: str, filename: str) -> list[Message]:
    """The messages one module's ``tr``/``ntr``/``translatable`` calls pass, in order of appearance."""
    calls = sorted((node for node in ast.walk(ast.parse(source, filename))
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS),
                   key=lambda node: (node.lineno, node.col_offset))
    found = []
    for node in calls:
        assert isinstance(node.func, ast.Name)
        needed = 2 if node.func.id in PLURAL_CALLS else 1
        texts = node.args[:needed]
        if node.func.id == "tr" and texts and isinstance(texts[0], (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
            continue  # text marked translatable() where it is kept
        if len(texts) < needed or not all(isinstance(t, ast.Constant) and isinstance(t.value, str) for t in texts):
            raise TranslationCallError(f"{filename}:{node.lineno}: {node.func.id}() needs its English text as a "
                                       f"string literal (not an f-string or a variable), found {ast.unparse(node)!r}")
        msgid = str(texts[0].value)  # type: ignore[attr-defined]
        plural = str(texts[1].value) if needed == 2 else None  # type: ignore[attr-defined]
        found.append(Message(msgid, plural, [filename]))
    return found


def app_messages(app: Path = APP, engine: Path = ENGINE) -> list[Message]:
    """Every message a person can read, once each, with the files that use it: the app's
    modules' and the engine's words the app shows."""
    merged: dict[tuple[str, str | None], Message] = {}
    for path in [*sorted(app.rglob("*.py")), *sorted(engine.rglob("*.py"))]:
        rel = path.relative_to(app.parent).as_posix()
        for message in messages_in(path.read_text(encoding="utf-8"), rel):
            known = merged.setdefault((message.msgid, message.plural), Message(message.msgid, message.plural))
            if rel not in known.files:
                known.files.append(rel)
    return list(merged.values())


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def template_text(messages: list[Message]) -> str:
    """The ``.pot`` file of these messages (files named without line numbers, so moving code
    does not change the template)."""
    parts = [HEADER]
    for message in messages:
        lines = [f"#: {' '.join(message.files)}"]
        if "{" in message.msgid:
            lines.append("#, python-brace-format")
        lines.append(f"msgid {_quoted(message.msgid)}")
        if message.plural is None:
            lines.append('msgstr ""')
        else:
            lines += [f"msgid_plural {_quoted(message.plural)}", 'msgstr[0] ""', 'msgstr[1] ""']
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def _places(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def catalogue_problems(text: str, filename: str = "<catalogue>") -> list[str]:
    """Translations that name a ``{place}`` their English does not have (the English would show
    instead), or whose braces do not pair up.

    >>> catalogue_problems('msgid "{name} won"\\nmsgstr "{nome} ganhou"\\n', "pt.po")
    ["pt.po: '{nome} ganhou' names {nome}, which '{name} won' does not have"]
    """
    problems = []
    for key, translated in po_messages(text).items():
        if not key:
            continue
        english = key.split("\0")
        try:
            known = set().union(*(_places(form) for form in english))
            for form in translated.split("\0"):
                unknown = _places(form) - known
                if unknown:
                    problems.append(f"{filename}: {form!r} names {', '.join('{' + n + '}' for n in sorted(unknown))}, "
                                    f"which {english[0]!r} does not have")
        except ValueError as error:
            problems.append(f"{filename}: {translated!r} ({error})")
    return problems


def catalogue_gaps(text: str, messages: list[Message], filename: str = "<catalogue>") -> list[str]:
    """What a catalogue lacks for the app as it is: each message with no translation (or with
    fewer or more plural forms than its ``Plural-Forms`` header's ``nplurals``), and each
    translation of a message the app no longer has.

    >>> pot = [Message("Undo"), Message("{n} die", "{n} dice")]
    >>> head = 'msgid ""\\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\\\n"\\n'
    >>> catalogue_gaps(head + 'msgid "Undo"\\nmsgstr "Rückgängig"\\nmsgid "Old"\\nmsgstr "Alt"\\n', pot, "de.po")
    ["de.po: no translation of '{n} die'", "de.po: translates 'Old', which the app no longer has"]
    """
    translated = po_messages(text)
    header = translated.get("", "")
    forms = re.search(r"nplurals\s*=\s*(\d+)", header)
    if forms is None:
        return [f"{filename}: its header has no Plural-Forms with nplurals (see the template's header)"]
    wanted = {message.msgid + ("\0" + message.plural if message.plural is not None else ""): message
              for message in messages}
    gaps = []
    for key, message in wanted.items():
        if key not in translated:
            gaps.append(f"{filename}: no translation of {message.msgid!r}")
        elif message.plural is not None and translated[key].count("\0") + 1 != int(forms[1]):
            gaps.append(f"{filename}: {message.msgid!r} has {translated[key].count(chr(0)) + 1} plural forms, "
                        f"not the {forms[1]} its header's nplurals says")
    gaps += [f"{filename}: translates {key.split(chr(0))[0]!r}, which the app no longer has"
             for key in translated if key and key not in wanted]
    return gaps


def main(argv: list[str]) -> int:
    messages = app_messages()
    text = template_text(messages)
    current = TEMPLATE.read_text(encoding="utf-8") if TEMPLATE.exists() else ""
    if "--check" in argv:
        asked = [name for name in argv if name != "--check"] or sorted(available_languages(TEMPLATE.parent))
        problems = []
        for language in asked:
            po = (TEMPLATE.parent / f"{language}.po").read_text(encoding="utf-8")
            filename = f"app/i18n/locale/{language}.po"
            problems += catalogue_problems(po, filename) + catalogue_gaps(po, messages, filename)
        print(f"{TEMPLATE} is {'current' if text == current else 'out of date: run python -m app.i18n.template'}")
        print("\n".join(problems) or f"{', '.join(asked) or 'no catalogue'}: every message translated, "
                                    "every place and plural form as the English has them")
        return 0 if text == current and not problems else 1
    TEMPLATE.parent.mkdir(exist_ok=True)
    TEMPLATE.write_text(text, encoding="utf-8")
    print(f"{TEMPLATE}: {len(text.split(chr(10) + 'msgid ')) - 2} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
