"""The fallback fonts: with noCdn the Flutter client asks the site itself for a font covering
a character that Roboto lacks, at Google Fonts' path under ``assets/fonts/`` (see
main.dart.js); without a file there the character is a box.

The build ships the ones that fit in the size budget (``FALLBACK_FONTS``, pre-cached), made
from pinned npm packages (build/templates/fonts/package*.json, fetched once into
build/cache/ with ``npm ci``, subset and merged with fontTools). Fonts of other scripts (CJK
above all) are too large to pre-cache: they are copied as they are, at the path the client
asks for, and fetched on first need (``ON_DEMAND_FAMILIES``, found in the client's own
fallback table: ``client_fallback_fonts``). ``write_local_fonts`` writes the same files for
the local server (``python -m app``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from build_support import BUILD_DIR, FLET_VERSION, TEMPLATES, PatchError
from web_client import web_client_dir

__all__ = ["FONT_LICENSE", "EMOJI_PARTS", "EMOJI_FONT", "SYMBOL_PARTS", "SYMBOLS_FONT", "OTHER_SCRIPTS",
           "ON_DEMAND_FAMILIES", "ON_DEMAND_FOLDERS", "is_on_demand", "FallbackFont", "FALLBACK_FONTS",
           "add_fallback_fonts", "ClientFont", "client_fallback_fonts", "add_on_demand_fonts",
           "write_local_fonts"]

FONT_PACKAGES = TEMPLATES / "fonts"
FONTSOURCE = "node_modules/@fontsource/"
FONT_LICENSE = "assets/fonts/LICENSE-Noto-OFL.txt"
# Flutter's Noto Color Emoji is split in 12 parts (10+ MB): all 12 are pointed at one
# monochrome Noto Emoji file (every emoji, 0.45 MB).
EMOJI_PARTS = re.compile(r'"notocoloremoji/v32/Yq6P-KqIXTD0t4D9z1ESnKM3-HpFabsE4tq3luCC7p-aXxcn\.(\d+)\.woff2"')
EMOJI_FONT = "notoemoji/farkle/noto-emoji-mono.woff2"
# Noto Sans Symbols (1 file) and Symbols 2 (6 parts) all name the shipped symbols font.
SYMBOL_PARTS = re.compile(r'"notosanssymbols2?/v\d+/[A-Za-z0-9_-]+\.woff2"')
SYMBOLS_FONT = "notosanssymbols2/farkle/noto-sans-symbols.woff2"
# Fonts for names in other scripts: Chinese (hanzi and kana: Noto Sans SC, 101 parts) and Korean
# (hangul: Noto Sans KR, 124 parts) as Google Fonts slices them, and one font per script below.
# The site holds each at the path the client asks for, but the service worker does not pre-cache
# them (4.8 MB): it fetches one from the site the first time a name needs it and keeps it. The
# local server serves the same files (--local-fonts).
OTHER_SCRIPTS = ("Arabic", "Armenian", "Bengali", "Devanagari", "Ethiopic", "Georgian", "Gujarati", "Gurmukhi",
                 "Hebrew", "Kannada", "Khmer", "Lao", "Malayalam", "Myanmar", "Sinhala", "Tamil", "Telugu", "Thai")
ON_DEMAND_FAMILIES = {"Noto Sans SC": "noto-sans-sc", "Noto Sans KR": "noto-sans-kr",
                      **{f"Noto Sans {script}": f"noto-sans-{script.lower()}" for script in OTHER_SCRIPTS}}
ON_DEMAND_FOLDERS = tuple(f"assets/fonts/{family.replace(' ', '').lower()}/" for family in ON_DEMAND_FAMILIES)


def is_on_demand(rel: str) -> bool:
    """Whether a file of the site is fetched on first need rather than pre-cached."""
    return rel.startswith(ON_DEMAND_FOLDERS)


@dataclass(frozen=True)
class FallbackFont:
    """A pre-cached fallback font: slices of one family merged, kept to ``ranges``."""

    path: str  # under assets/fonts/, as the client requests it
    what: str
    sources: tuple[str, ...]  # files of the npm packages, merged
    ranges: tuple[tuple[int, int], ...] = ((0x20, 0x10FFFF),)


FALLBACK_FONTS = (
    FallbackFont("notosans/v37/o-0mIpQlx3QUlC5A4PNB6Ryti20_6n1iPHjcz6L1SoM-jCpoiyD9A99Y41P6zHtY.woff2",
                 "Noto Sans: accented Latin, Greek, Cyrillic, Vietnamese, Devanagari",
                 tuple(f"noto-sans/files/noto-sans-{subset}-400-normal.woff2" for subset in
                       ("latin", "latin-ext", "greek", "greek-ext", "cyrillic", "cyrillic-ext", "vietnamese",
                        "devanagari"))),  # the client's Noto Sans covers Devanagari: it picks this font
    # The Noto Sans Symbols and Symbols 2 entries of the client name it.
    FallbackFont(SYMBOLS_FONT,
                 "symbols: arrows, shapes, stars, dingbats (Noto Sans Symbols 2 + Math)",
                 ("noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff2",
                  "noto-sans-symbols-2/files/noto-sans-symbols-2-math-400-normal.woff2",
                  "noto-sans-math/files/noto-sans-math-latin-400-normal.woff2"),
                 ((0x2190, 0x23FF), (0x2460, 0x27FF), (0x2900, 0x2BFF))),
    FallbackFont(EMOJI_FONT, "Noto Emoji (monochrome): every emoji",
                 tuple(f"noto-emoji/files/noto-emoji-{part}-400-normal.woff2" for part in range(11))),
)


def font_packages() -> Path:
    """The pinned npm font packages (build/templates/fonts/), installed once per lock file
    into build/cache/ with ``npm ci`` (no scripts run)."""
    lock = (FONT_PACKAGES / "package-lock.json").read_bytes()
    folder = BUILD_DIR / "cache" / f"fonts-npm-{hashlib.sha256(lock).hexdigest()[:12]}"
    if (folder / ".complete").is_file():
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise PatchError("npm not found: the fallback fonts come from pinned npm packages "
                         "(build/templates/fonts/package.json); install Node.js and npm")
    work = folder.with_name(f"{folder.name}.tmp{os.getpid()}")  # builds may run side by side
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(FONT_PACKAGES / name, work / name)
    proc = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                          cwd=work, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise PatchError(f"npm ci of the fallback fonts failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    (work / ".complete").write_text("ok\n")
    _settle(work, folder)
    return folder


def _settle(work: Path, final: Path) -> None:
    """Move a finished cache folder into place, unless another build got there first."""
    if not (final / ".complete").is_file():
        shutil.rmtree(final, ignore_errors=True)
        try:
            work.rename(final)
            return
        except OSError:
            pass
    shutil.rmtree(work, ignore_errors=True)


def make_font(font: FallbackFont, packages: Path) -> bytes:
    """Merge the font's source files (slices of one family) and keep its ranges, as WOFF2."""
    try:
        from fontTools import subset
        from fontTools.merge import Merger
        from fontTools.ttLib import TTFont
    except ImportError as missing:
        raise PatchError("fontTools is needed to build the fallback fonts: "
                         "pip install 'fonttools[woff]' (with brotli)") from missing
    with_tmp = BUILD_DIR / "cache" / f"fonts-tmp{os.getpid()}"
    shutil.rmtree(with_tmp, ignore_errors=True)
    with_tmp.mkdir(parents=True)
    try:
        plain = []
        for index, rel in enumerate(font.sources):
            source = packages / FONTSOURCE / rel
            if not source.is_file():
                raise PatchError(f"{source}: expected this font file in the pinned npm package")
            ttf = TTFont(source)
            ttf.flavor = None
            for tag in ("MATH", "vhea", "vmtx"):  # maths layout, vertical metrics: unused here,
                if tag in ttf:                   # and fonts cannot be merged with them
                    del ttf[tag]
            plain.append(str(with_tmp / f"{index}.ttf"))
            ttf.save(plain[-1])
        merged = Merger().merge(plain) if len(plain) > 1 else TTFont(plain[0])
        options = subset.Options()
        options.flavor, options.hinting, options.desubroutinize = "woff2", False, True
        options.layout_features, options.name_IDs, options.notdef_outline = ["*"], ["*"], True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=[c for low, high in font.ranges for c in range(low, high + 1)])
        subsetter.subset(merged)
        merged.flavor = "woff2"
        out = io.BytesIO()
        merged.save(out, reorderTables=False)
        return out.getvalue()
    finally:
        shutil.rmtree(with_tmp, ignore_errors=True)


def add_fallback_fonts(site: Path) -> dict[str, int]:
    """Write FALLBACK_FONTS into the site (made once per lock file and font list, kept in
    build/cache/) with the fonts' licence; returns each font's size in bytes."""
    spec = json.dumps([[f.path, f.sources, f.ranges] for f in FALLBACK_FONTS]).encode()
    lock = (FONT_PACKAGES / "package-lock.json").read_bytes()
    made = BUILD_DIR / "cache" / f"fonts-{hashlib.sha256(lock + spec).hexdigest()[:12]}"
    if not (made / ".complete").is_file():
        packages = font_packages()
        work = made.with_name(f"{made.name}.tmp{os.getpid()}")
        shutil.rmtree(work, ignore_errors=True)
        for font in FALLBACK_FONTS:
            target = work / font.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(make_font(font, packages))
        shutil.copyfile(packages / FONTSOURCE / "noto-sans" / "LICENSE", work / "LICENSE")
        (work / ".complete").write_text("ok\n")
        _settle(work, made)
    sizes = {}
    for font in FALLBACK_FONTS:
        target = site / "assets" / "fonts" / font.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(made / font.path, target)
        sizes[font.path] = target.stat().st_size
    shutil.copyfile(made / "LICENSE", site / FONT_LICENSE)
    return sizes


@dataclass(frozen=True)
class ClientFont:
    """A fallback font the Flutter client knows: its name, the path it asks for under
    assets/fonts/, and the characters it believes the font covers."""
    name: str
    path: str
    codepoints: frozenset[int]

    @property
    def family(self) -> str:
        return re.sub(r" \d+$", "", self.name)


CLIENT_FONT_LIST = re.compile(r'A\.d\(\[(A\.z\("Noto Color Emoji 0".*?)\],')
CLIENT_FONT = re.compile(r'A\.z\("([^"]+)","([^"]+\.woff2)"\)')
CLIENT_FONT_SETS = re.compile(r'"([0-9a-z,]+)"\)\s*f\.as!==')
CLIENT_FONT_RANGES = re.compile(r'A\.do1\("([0-9A-Za-z]+)",o,r\)')


def client_fallback_fonts(js: str) -> list[ClientFont]:
    """Flutter's fallback-font table in main.dart.js, decoded as the engine decodes it
    (font_fallbacks.dart: fonts, then font sets as deltas of font indices, then a run-length
    map of every code point to a font set)."""
    f = "main.dart.js"
    listed, sets_text, ranges_text = CLIENT_FONT_LIST.search(js), None, None
    if listed:
        sets_text = CLIENT_FONT_SETS.search(js, listed.end())
    if sets_text:
        ranges_text = CLIENT_FONT_RANGES.search(js, sets_text.end())
    if not (listed and sets_text and ranges_text):
        raise PatchError(f"{f}: expected Flutter's fallback-font table (fonts, font sets, code point map); "
                         f"the Flet web client changed (this build targets flet-web {FLET_VERSION}).")
    fonts = CLIENT_FONT.findall(listed[1])
    font_sets = []
    for encoded in sets_text[1].split(","):
        members, index, count = [], -1, 0
        for char in encoded:
            if char.isdigit():
                count = count * 10 + int(char)
            else:
                index += count * 26 + (ord(char) - ord("a")) + 1
                members.append(index)
                count = 0
        font_sets.append(members)
    covered: list[set[int]] = [set() for _ in fonts]
    start, number, run = 0, 0, 1
    for char in ranges_text[1]:
        if char.isdigit():
            number = number * 10 + int(char)
        elif char.islower():
            run, number = number * 26 + (ord(char) - ord("a")) + 2, 0
        else:
            for member in font_sets[number * 26 + (ord(char) - ord("A"))]:
                covered[member].update(range(start, start + run))
            start, number, run = start + run, 0, 1
    if start != 0x110000:
        raise PatchError(f"{f}: the fallback-font code point map covers {start} code points, not 0x110000")
    return [ClientFont(name, path, frozenset(cps)) for (name, path), cps in zip(fonts, covered)]


def _cmap(path: Path) -> set[int]:
    from fontTools.ttLib import TTFont

    return set(TTFont(path, lazy=True).getBestCmap())


def on_demand_fonts(js: str) -> Path:
    """A folder with every font (or part) of ON_DEMAND_FAMILIES at the path the client asks
    for (made once per lock file and client, kept in build/cache/). Each is the npm package's
    regular file that has what the client expects of it (Fontsource slices fonts as Google
    Fonts does), copied as it is. Code points below U+0370 (Latin and its combining marks) do
    not count: Roboto and Noto Sans draw those."""
    wanted = [font for font in client_fallback_fonts(js) if font.family in ON_DEMAND_FAMILIES]
    if {font.family for font in wanted} != set(ON_DEMAND_FAMILIES):
        raise PatchError(f"main.dart.js: no fallback font named {set(ON_DEMAND_FAMILIES) - {f.family for f in wanted}}")
    roboto = _cmap(web_client_dir() / "assets" / "fonts" / "roboto.woff2")
    lock = (FONT_PACKAGES / "package-lock.json").read_bytes()
    spec = json.dumps([[font.path, sorted(font.codepoints)] for font in wanted]).encode()
    made = BUILD_DIR / "cache" / f"fonts-on-demand-{hashlib.sha256(lock + spec).hexdigest()[:12]}"
    if (made / ".complete").is_file():
        return made
    packages = font_packages()
    work = made.with_name(f"{made.name}.tmp{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    for family, package in ON_DEMAND_FAMILIES.items():
        files = sorted((packages / FONTSOURCE / package / "files").glob(f"{package}-*-400-normal.woff2"))
        if not files:
            raise PatchError(f"{packages / FONTSOURCE / package}: expected its regular woff2 files")
        cmaps = {path: _cmap(path) for path in files}
        for font in (font for font in wanted if font.family == family):
            expected = {c for c in font.codepoints if c >= 0x370} - roboto
            source = max(files, key=lambda path: (len(expected & cmaps[path]), -path.stat().st_size))
            missing = len(expected - cmaps[source])
            if missing * 5 > len(expected):  # Noto Sans Tamil's file lacks 12 of 89 (rare Vedic signs)
                raise PatchError(f"{font.name} ({font.path}): no file of @fontsource/{package} covers it "
                                 f"({missing} of {len(expected)} characters missing in the best, {source.name})")
            if not is_on_demand("assets/fonts/" + font.path):
                raise PatchError(f"{font.name}: the client asks for {font.path}, outside {ON_DEMAND_FOLDERS}")
            target = work / font.path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    (work / ".complete").write_text("ok\n")
    _settle(work, made)
    return made


def add_on_demand_fonts(site: Path, js: str) -> dict[str, int]:
    """Copy the on-demand fonts into the site; returns each one's size in bytes."""
    made = on_demand_fonts(js)
    sizes = {}
    for path in sorted(made.rglob("*.woff2")):
        rel = path.relative_to(made).as_posix()
        target = site / "assets" / "fonts" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        sizes[rel] = path.stat().st_size
    return sizes


def write_local_fonts(dest: Path) -> dict[str, int]:
    """The fallback fonts for the local server (``python -m app``, app/venue/server.py), which serves
    Flet's client unpatched: the shipped fonts and the on-demand ones at the paths the client
    asks for, and aliases.json naming the file that answers each other path it asks for (the
    12 colour emoji parts and 7 symbols parts). Returns the bytes of each file."""
    js = (web_client_dir() / "main.dart.js").read_text(encoding="utf-8")
    work = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    sizes = add_fallback_fonts(work)
    sizes.update(add_on_demand_fonts(work, js))
    aliases = {m[0].strip('"'): EMOJI_FONT for m in EMOJI_PARTS.finditer(js)}
    aliases.update({m[0].strip('"'): SYMBOLS_FONT for m in SYMBOL_PARTS.finditer(js)})
    (work / "assets" / "fonts" / "aliases.json").write_text(json.dumps(aliases, indent=0), encoding="utf-8")
    (work / ".complete").write_text("ok\n")
    shutil.rmtree(dest, ignore_errors=True)
    work.rename(dest)
    return sizes
