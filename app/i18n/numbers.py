"""Numbers as a language writes them: 10,000 in English, 10.000 in German, 10 000 in French.

The symbols are CLDR's (as Babel 2.19 formats them), kept here for the languages the app is
translated into or about to be: Babel itself is not in Pyodide's package set and its wheel is
11 MB (35 MB of locale data unpacked) for two characters per language. A language not listed
writes numbers as English does. Only what a person reads is formatted so: CSV exports and
codes keep plain digits.

>>> localised("10,050.5", "de"), localised("10,000", "fr"), localised("10,000", "en")
('10.050,5', '10\\u202f000', '10,000')
"""

from __future__ import annotations

from typing import Final

__all__ = ["NUMBER_SYMBOLS", "number_symbols", "localised"]

NARROW_NO_BREAK_SPACE: Final = "\u202f"
NO_BREAK_SPACE: Final = "\u00a0"
NUMBER_SYMBOLS: Final[dict[str, tuple[str, str]]] = {
    # language: (thousands group, decimal mark)
    "en": (",", "."), "ja": (",", "."), "es_MX": (",", "."),
    "de": (".", ","), "es": (".", ","), "it": (".", ","), "nl": (".", ","), "pt": (".", ","), "da": (".", ","),
    "tr": (".", ","),
    "fr": (NARROW_NO_BREAK_SPACE, ","),
    "pl": (NO_BREAK_SPACE, ","), "sv": (NO_BREAK_SPACE, ","), "pt_PT": (NO_BREAK_SPACE, ","), "fi": (NO_BREAK_SPACE, ","),
    "nb": (NO_BREAK_SPACE, ","), "cs": (NO_BREAK_SPACE, ","), "ru": (NO_BREAK_SPACE, ","),
    "de_CH": ("'", "."), "fr_CH": ("'", ","),
}
"""CLDR's thousands group and decimal mark, by language (a region where it differs)."""


def number_symbols(language: str) -> tuple[str, str]:
    """The thousands group and decimal mark of ``language`` (a region's, then its language's;
    English's when neither is listed)."""
    from app.i18n import language_candidates

    for name in language_candidates(language):
        if name in NUMBER_SYMBOLS:
            return NUMBER_SYMBOLS[name]
    return NUMBER_SYMBOLS["en"]


def localised(english: str, language: str) -> str:
    """A number Python wrote the English way (``f"{n:,}"``, ``f"{x:.1f}"``) as ``language`` writes it."""
    group, decimal = number_symbols(language)
    return english.translate({ord(","): group, ord("."): decimal})
