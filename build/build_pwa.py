"""Build Farkle Table as a static, installable, offline PWA (Python in the browser).

    .venv/bin/python build/build_pwa.py            # -> build/out/site/

Inputs: the Flet app (``app/``, entry ``app/main.py`` defining ``main(page)``), the
``engine/`` package, the source icon ``assets/icon.png`` and the packages installed in
the running interpreter (pinned PyPI packages: flet / flet-web 1.0.5, tinydb, qrcode,
pypng, ...). No Flutter SDK, no CDN, no package index: the web client, CanvasKit,
fonts and the Pyodide runtime come from the ``flet-web`` wheel, and every Python
dependency is vendored into ``app.tar.gz`` so micropip is never loaded.

The result runs from any static server under any sub-path
(``python -m http.server -d build/out/site``), pre-caches itself through its own
versioned service worker (``build/templates/sw.js``) and keeps working offline.

Every file the build patches is checked for the exact text it expects: when a Flet
upgrade changes one, the build stops with a ``PatchError`` naming the file and the
missing text instead of shipping a site that breaks at run time.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import importlib.metadata
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable

ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = ROOT / "build"
TEMPLATES = BUILD_DIR / "templates"
DEFAULT_OUT = BUILD_DIR / "out" / "site"
DEFAULT_APP = ROOT / "app"
DEFAULT_ENGINE = ROOT / "engine"
DEFAULT_ICON = ROOT / "assets" / "icon.png"

FLET_VERSION = "1.0.5"  # the web client below is patched for exactly this release
APP_NAME = "Farkle Table"
APP_DESCRIPTION = "Offline Farkle scorekeeper for tables and tournaments"
THEME_COLOR = "#145A32"
BACKGROUND_COLOR = "#0E4D2A"

# Python distributions vendored into app.tar.gz (__pypackages__/): pure Python only.
# flet's own requirements httpx and oauthlib are only used by its OAuth helpers and
# are never imported by `import flet`; six is repath's dependency.
VENDORED_DISTRIBUTIONS = ("flet", "repath", "six", "msgpack", "tinydb", "qrcode", "pypng")
# Parts of the vendored packages an app in the browser never uses.
VENDOR_EXCLUDE = (
    re.compile(r"(^|/)__pycache__/"),
    re.compile(r"(^|/)tests?/"),
    re.compile(r"^flet/testing/"),
    re.compile(r"^flet/pytest_plugin\.py$"),
    re.compile(r"\.(so|pyd|dylib|dll|pyc|pyi)$"),
    re.compile(r"\.dist-info/(RECORD|INSTALLER|REQUESTED|direct_url\.json|entry_points\.txt)$"),
    re.compile(r"\.dist-info/sboms/"),
)

# Files of the flet-web client this app never requests (see FLET_NOTES.md, "Offline static
# PWA"): `flet publish` forces the canvaskit renderer, so every browser runs main.dart.js
# with CanvasKit; this build makes every browser load the full canvaskit/canvaskit.*.
PRUNE = (
    ("main.dart.wasm", "dart2wasm build (skwasm renderer only)"),
    ("main.dart.mjs", "dart2wasm build (skwasm renderer only)"),
    ("canvaskit/skwasm*", "skwasm renderer"),
    ("canvaskit/wimp*", "wimp renderer"),
    ("canvaskit/experimental_webparagraph/**", "experimental renderer"),
    ("canvaskit/chromium/**", "Chromium-only CanvasKit (the full one serves all browsers)"),
    ("**/*.symbols", "debug symbols"),
    ("**/*.map", "source maps"),
    ("flutter.js", "loader already inlined in flutter_bootstrap.js"),
    ("flutter_service_worker.js", "replaced by our own sw.js"),
    ("pyodide/*.d.ts", "TypeScript declarations"),
    ("pyodide/python", "Node.js launcher"),
    ("pyodide/python.bat", "Node.js launcher"),
    ("pyodide/python.exe", "Node.js launcher"),
    ("pyodide/python_cli_entry.mjs", "Node.js launcher"),
    ("pyodide/package.json", "npm metadata"),
    ("pyodide/pyodide.js", "classic-script build (the worker imports pyodide.mjs)"),
    ("pyodide/micropip-*.whl", "dependencies are vendored: micropip never loads"),
    ("pyodide/packaging-*.whl", "micropip's dependency"),
    ("assets/packages/media_kit/**", "video plugin asset"),
    ("assets/packages/record_web/**", "audio recorder plugin asset"),
    ("assets/packages/wakelock_plus/**", "wakelock plugin asset"),
    ("assets/packages/flutter_map/**", "map plugin asset"),
)
# Font families declared in FontManifest.json that Flutter downloads at start-up. They are
# kept only when the app's source shows it may need them.
OPTIONAL_FONTS = {
    "packages/cupertino_icons/": re.compile(r"Cupertino"),
    "packages/flutter_math_fork/": re.compile(r"Markdown|latex|LaTeX|Math"),
}

# Fallback fonts. With noCdn the Flutter client asks the site itself for a font covering a
# character that Roboto lacks, at Google Fonts' path under assets/fonts/ (see main.dart.js);
# without a file there the character is a box. The build ships the ones that fit in the size
# budget, made from pinned npm packages (build/templates/fonts/package*.json, fetched at
# build time into build/cache/, subset and merged with fontTools). Fonts of other scripts (CJK
# above all) are too large to pre-cache: see ON_DEMAND_FAMILIES.
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

# Icons generated from the single source image.
ICON_SIZES = (192, 512)
MASKABLE_SAFE_ZONE = 0.8  # W3C maskable icons: keep content inside the central 80% circle


class PatchError(RuntimeError):
    """A file of the Flet web client does not contain what this build expects."""


# --------------------------------------------------------------------------- patch helpers


def replace_once(text: str, old: str, new: str, *, file: str) -> str:
    """Replace ``old`` by ``new``; ``old`` must occur exactly once in ``text``."""
    count = text.count(old)
    if count != 1:
        raise PatchError(
            f"{file}: expected exactly one occurrence of {old!r}, found {count}. "
            f"The Flet web client changed (this build targets flet-web {FLET_VERSION}); "
            "review build/build_pwa.py before publishing."
        )
    return text.replace(old, new)


def sub_once(text: str, pattern: str, new: str | Callable[[re.Match[str]], str], *,
             file: str, expected: str, flags: int = 0) -> str:
    """Regex version of replace_once; ``expected`` describes the text for the error."""
    result, count = re.subn(pattern, new, text, flags=flags)
    if count != 1:
        raise PatchError(
            f"{file}: expected exactly one {expected} (pattern {pattern!r}), found {count}. "
            f"The Flet web client changed (this build targets flet-web {FLET_VERSION}); "
            "review build/build_pwa.py before publishing."
        )
    return result


def patch_index_html(html: str, *, register_snippet: str, base_snippet: str, locale_script: str) -> str:
    """Make flet_web's generated index.html work offline, under any sub-path and in any locale.

    Input is the page after flet_web.patch_index_html(base_href="/", no_cdn=True, ...).
    """
    f = "index.html"
    # Relative <base>, made absolute at run time (Flutter's path URL strategy needs it),
    # then the browser's languages made readable before Flutter parses them (app/web/locale.js).
    html = replace_once(html, '<base href="/">',
                        base_snippet.strip() + f"\n  <script>\n{locale_script.strip()}\n  </script>", file=f)
    # The worker imports the runtime with import(): a bare "pyodide/..." is not a URL.
    html = replace_once(html, 'flet.pyodideUrl="pyodide/pyodide.mjs";',
                        'flet.pyodideUrl="./pyodide/pyodide.mjs";', file=f)
    # Absolute "/..." URLs would only work at the server root: derive them from <base>.
    html = replace_once(html, 'flet.canvasKitBaseUrl="/canvaskit/";',
                        'flet.canvasKitBaseUrl=document.baseURI.replace(/[?#].*$/, "") + "canvaskit/";',
                        file=f)
    html = replace_once(html, 'flet.entrypointBaseUrl="/";',
                        'flet.entrypointBaseUrl=document.baseURI.replace(/[?#].*$/, "");', file=f)
    html = replace_once(html, 'flet.assetBase="/";',
                        'flet.assetBase=document.baseURI.replace(/[?#].*$/, "");', file=f)
    # (checked only: the worker fetches the archive relative to itself, which works anywhere)
    html = replace_once(html, 'flet.appPackageUrl = "app.tar.gz";',
                        'flet.appPackageUrl = "app.tar.gz";', file=f)
    html = replace_once(html, '<link rel="manifest" href="manifest.json">',
                        f'<meta name="theme-color" content="{THEME_COLOR}">\n'
                        '  <link rel="manifest" href="manifest.json">', file=f)
    html = replace_once(html, '<link rel="apple-touch-icon" href="icons/apple-touch-icon-192.png">',
                        '<link rel="apple-touch-icon" href="icons/apple-touch-icon-180.png">', file=f)
    html = sub_once(html, r"#loading \{(\s*position: fixed;[^}]*?)background: #ffffff;",
                    lambda m: f"#loading {{{m[1]}background: {BACKGROUND_COLOR};",
                    file=f, expected="splash background colour")
    html = replace_once(html, "</body>", register_snippet.rstrip() + "\n</body>", file=f)
    return html


def patch_flutter_bootstrap(js: str, early_python: bool = True) -> str:
    """Stop Flutter's loader from installing its own (self-unregistering) service worker,
    and list only the dart2js build (the wasm build is not shipped)."""
    f = "flutter_bootstrap.js"
    js = sub_once(js, r"\n[ \t]*serviceWorkerSettings:\s*\{[^{}]*\},", "", file=f,
                  expected="serviceWorkerSettings: {...} block in _flutter.loader.load()")

    def only_dart2js(m: re.Match[str]) -> str:
        config = json.loads(m[1])
        builds = [b for b in config.get("builds", []) if b.get("compileTarget") == "dart2js"
                  and b.get("renderer") == "canvaskit"]
        if len(builds) != 1:
            raise PatchError(f"{f}: expected one dart2js/canvaskit build in _flutter.buildConfig, "
                             f"found {config.get('builds')!r}")
        config["builds"] = builds
        return f"_flutter.buildConfig = {json.dumps(config, separators=(',', ':'))};"

    # One CanvasKit for every browser: the full build runs in Chromium, Firefox and Safari
    # alike, so the 5.9 MB Chromium-only variant is not shipped (and the build that the
    # Chromium tests exercise is the very one Firefox and Safari load).
    js = replace_once(js, "var flutterConfig = {\n",
                      'var flutterConfig = {\n    canvasKitVariant: "full",\n', file=f)
    # Flutter starts when Python is nearly ready (templates/python-early.js).
    if early_python:
        js = sub_once(js, r"\n_flutter\.loader\.load\(\{(.*)\n\}\);\n?$",
                      lambda m: f"\nfletStartFlutter(() => _flutter.loader.load({{{m[1]}\n}}));\n",
                      file=f, expected="_flutter.loader.load({...}); call ending the file", flags=re.S)
    js = sub_once(js, r"_flutter\.buildConfig = (\{.*?\});\n", only_dart2js, file=f,
                  expected="_flutter.buildConfig = {...}; line")
    return js


RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"


def patch_main_dart_js(js: str) -> str:
    """The rive plugin injects a <script> from a CDN at start-up: point it at a local
    folder that does not exist, so the app never contacts a CDN (the request fails fast,
    the rive animation control, unused here, stays unavailable). The 12 parts of the colour
    emoji fallback font all name the one shipped monochrome emoji font; the other shipped
    fallback fonts must be at the paths the client asks for."""
    f = "main.dart.js"
    js = replace_once(js, f'"{RIVE_CDN}"', '"no-cdn/rive/"', file=f)
    parts = sorted(int(m[1]) for m in EMOJI_PARTS.finditer(js))
    if parts != list(range(12)):
        raise PatchError(f"{f}: expected the 12 parts of the Noto Color Emoji fallback font "
                         f"(pattern {EMOJI_PARTS.pattern!r}), found parts {parts}. The Flet web client "
                         f"changed (this build targets flet-web {FLET_VERSION}); review FALLBACK_FONTS.")
    js = EMOJI_PARTS.sub(json.dumps(EMOJI_FONT), js)
    # Flutter picks, among the fonts that cover the most missing characters, Noto Sans
    # Symbols, else a Noto Sans SC part (CJK, fetched on first need: "→" alone went to one of
    # several parts). Prefer a pre-cached font among those first (NotoFont fields: a name, b url).
    shipped = json.dumps([font.path for font in FALLBACK_FONTS])
    js = replace_once(js, "if(r.length>1){l=this.w\nif(B.b.q(r,l))p=l\nelse{",
                      "if(r.length>1){l=this.w\n"
                      f"var farkleShipped=r.filter(function(f){{return {shipped}.indexOf(f.b)>=0}})\n"
                      "if(farkleShipped.length!==0)p=farkleShipped[0]\n"
                      "else if(B.b.q(r,l))p=l\nelse{", file=f)
    js, count = SYMBOL_PARTS.subn(json.dumps(SYMBOLS_FONT), js)
    if count != 7:
        raise PatchError(f"{f}: expected 7 Noto Sans Symbols / Symbols 2 fallback font paths "
                         f"(pattern {SYMBOL_PARTS.pattern!r}), found {count}. The Flet web client "
                         f"changed (this build targets flet-web {FLET_VERSION}); review FALLBACK_FONTS.")
    for font in FALLBACK_FONTS:
        if font.path != EMOJI_FONT and f'"{font.path}"' not in js:
            raise PatchError(f"{f}: expected the fallback font path {font.path!r}; the Flet web client "
                             f"changed (this build targets flet-web {FLET_VERSION}); review FALLBACK_FONTS.")
    return js


def patch_python_js(js: str, early_snippet: str) -> str:
    """Start the Python worker as soon as the page loads (see templates/python-early.js)."""
    f = "python.js"
    js = replace_once(js, "let _apps = {};", early_snippet.rstrip() + "\nlet _apps = {};", file=f)
    js = replace_once(js, "    app.worker = new Worker(",
                      "    app.worker = (fletEarlyWorker && fletEarlyWorker.take(args)) || new Worker(",
                      file=f)
    js = replace_once(js, "    // initialize worker\n    app.worker.postMessage({",
                      "    // initialize worker, or replay what the early-started one already said\n"
                      "    if (app.worker.fletEarlyQueue) {\n"
                      "        app.worker.fletEarlyQueue.splice(0).forEach((event) => app.worker.onmessage(event));\n"
                      "    } else app.worker.postMessage({", file=f)
    return js


def patch_pyodide_asm(js: str) -> str:
    """Pyodide restores a memory snapshot into the wasm memory as first allocated (32 MiB):
    a snapshot of a larger heap (the app's imports now take 36 MiB) failed with "RangeError:
    offset is out of bounds". Grow the memory to the snapshot's size first."""
    return replace_once(js, "return Module.HEAP8.set(t),l}",
                        "return t.length>Module.HEAP8.length&&Module.growMemory(t.length),"
                        "Module.HEAP8.set(t),l}", file="pyodide/pyodide.asm.mjs")


def patch_python_worker(js: str, snapshot_snippet: str | None = None) -> str:
    """Check the worker still runs the app the way this build packages it, and let it tell
    the early starter (templates/python-early.js) when Pyodide is loaded.

    With ``snapshot_snippet`` (templates/python-snapshot.js, its key filled in), Pyodide
    starts from a memory snapshot kept in the browser when there is one, and the same
    worker file can be started to make that snapshot."""
    f = "python-worker.js"
    js = replace_once(js, "        self.pythonModuleName = event.data.pythonModuleName;\n",
                      "        self.pythonModuleName = event.data.pythonModuleName;\n"
                      "        self.fletEarly = event.data.fletEarly === true;\n", file=f)
    loaded = ('        if (self.fletEarly) self.postMessage({ fletEarly: "pyodide-loaded"'
              + (", snapshot: fletSnapshot.info.used, reason: fletSnapshot.info.reason, "
                 "ms: fletSnapshot.info.ms" if snapshot_snippet else "") + " });\n")
    js = replace_once(js, '        self.pyodide.registerJsModule("flet_js", flet_js);\n',
                      loaded + '        self.pyodide.registerJsModule("flet_js", flet_js);\n', file=f)
    if snapshot_snippet:
        js = replace_once(js, "self.pyodideUrl = null;\n",
                          snapshot_snippet.rstrip() + "\n\nself.pyodideUrl = null;\n", file=f)
        js = replace_once(js, "        self.pyodide = await loadPyodide({\n",
                          "        self.pyodide = await fletSnapshot.load(loadPyodide, {\n", file=f)
        js = replace_once(js, "    } catch (error) {\n        self.postMessage(error.toString());\n",
                          "    } catch (error) {\n        await fletSnapshot.failed();\n"
                          "        self.postMessage(error.toString());\n", file=f)
        js = replace_once(js, "    // run only once\n    if (!self.initialized) {\n",
                          "    if (event.data && event.data.fletMakeSnapshot) {\n"
                          "        if (!self.initialized) {\n"
                          "            self.initialized = true;\n"
                          "            await fletSnapshot.make(event.data);\n"
                          "        }\n"
                          "        return;\n"
                          "    }\n"
                          "    // run only once\n    if (!self.initialized) {\n", file=f)
        js = replace_once(js, "        self.fletEarly = event.data.fletEarly === true;\n",
                          "        self.fletEarly = event.data.fletEarly === true;\n"
                          "        fletSnapshot.prefetch(self.fletEarly);\n", file=f)
    for needed in ('pkgs_path = "__pypackages__"', 'if os.path.exists("requirements.txt"):',
                   'if os.path.exists("pyproject.toml"):',
                   "runpy.run_module(python_module_name, run_name=\"__main__\")"):
        if needed not in js:
            raise PatchError(f"{f}: expected {needed!r}; the Flet worker changed, the app "
                             "packaging in build/build_pwa.py must be reviewed.")
    return js


def patch_font_manifest(fonts: list[dict[str, Any]], keep_optional: Iterable[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Drop the optional font families the app does not use; add flet's bundled Roboto."""
    keep = set(keep_optional)
    families = {entry.get("family") for entry in fonts}
    if "MaterialIcons" not in families:
        raise PatchError("assets/FontManifest.json: expected a MaterialIcons family, "
                         f"found {sorted(map(str, families))}")
    kept, dropped_assets = [], []
    for entry in fonts:
        prefix = next((p for p in OPTIONAL_FONTS if str(entry.get("family", "")).startswith(p)), None)
        if prefix is not None and prefix not in keep:
            dropped_assets += [font["asset"] for font in entry["fonts"]]
        else:
            kept.append(entry)
    # Same entry as flet_web.patch_font_manifest_json (used by `flet publish --no-cdn`).
    kept.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    return kept, dropped_assets


# --------------------------------------------------------------------------- building blocks


@dataclass
class BuildResult:
    site: Path
    build_hash: str
    files: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    report: dict[str, Any] = field(default_factory=dict)


def log(msg: str) -> None:
    print(f"[build_pwa] {msg}", flush=True)


def _match(path: str, pattern: str) -> bool:
    """Whole-path glob match: ``*`` stays inside one folder, ``**/`` spans folders."""
    rx = re.escape(pattern).replace(r"\*\*/", "(.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
    return re.fullmatch(rx, path) is not None


def web_client_dir() -> Path:
    import flet_web

    return Path(flet_web.get_package_web_dir())


def check_versions() -> dict[str, str]:
    versions = {d: importlib.metadata.version(d) for d in ("flet", "flet-web")}
    for dist, version in versions.items():
        if version != FLET_VERSION:
            raise PatchError(f"{dist} {version} is installed, build/build_pwa.py targets "
                             f"{FLET_VERSION}: review its patches, then update FLET_VERSION.")
    return versions


def copy_web_client(src: Path, dst: Path, app_source: str) -> tuple[list[tuple[str, int, str]], list[str]]:
    """Copy the flet-web client minus everything in PRUNE; return what was left out."""
    keep_fonts = [p for p, rx in OPTIONAL_FONTS.items() if rx.search(app_source)]
    fonts = json.loads((src / "assets/FontManifest.json").read_text(encoding="utf-8"))
    fonts, dropped_fonts = patch_font_manifest(fonts, keep_fonts)
    pruned: list[tuple[str, int, str]] = []
    for path in sorted(src.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(src).as_posix()
        reason = next((why for pattern, why in PRUNE if _match(rel, pattern)), None)
        if reason is None and rel.removeprefix("assets/") in dropped_fonts:
            reason = "font family the app does not use"
        if reason:
            pruned.append((rel, path.stat().st_size, reason))
            continue
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    (dst / "assets/FontManifest.json").write_text(json.dumps(fonts, indent=1), encoding="utf-8")
    for must in ("index.html", "flutter_bootstrap.js", "main.dart.js", "python.js", "python-worker.js",
                 "canvaskit/canvaskit.wasm", "canvaskit/canvaskit.js",
                 "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
                 "pyodide/pyodide-lock.json", "assets/fonts/MaterialIcons-Regular.otf",
                 "assets/fonts/roboto.woff2"):
        if not (dst / must).is_file():
            raise PatchError(f"{src / must}: expected file is missing from the flet-web client")
    return pruned, keep_fonts


BROWSER_ONLY_MODULES = {"flet_js", "js", "pyodide", "pyodide_js", "micropip"}
# Imported only by the local web server (app/server.py: `python -m app`), never in the
# browser: vendoring them would pull in the whole flet-web client (76 MB) and FastAPI.
SERVER_ONLY_MODULES = {"flet_web": "the local web server's (python -m app)",
                       "uvicorn": "the local web server's (python -m app)",
                       "fastapi": "the local web server's (python -m app)",
                       "starlette": "the local web server's (python -m app)",
                       "filelock": "the data folder's lock (a disk folder; the browser keeps localStorage)"}


def _is_pure(dist: importlib.metadata.Distribution) -> bool:
    return not any(str(f).endswith((".so", ".pyd", ".dylib")) for f in dist.files or [])


def _requirements(dist: importlib.metadata.Distribution) -> list[str]:
    names = []
    for req in dist.requires or []:
        if "extra ==" in req or "extra==" in req:
            continue
        names.append(re.split(r"[\s;<>=!~\[(]", req, maxsplit=1)[0])
    return names


def imported_distributions(roots: Iterable[Path], local: set[str]) -> tuple[list[str], dict[str, str]]:
    """Third-party distributions the app's and engine's source import (top level or lazily
    inside functions), with their pure-Python requirements. Distributions with compiled
    code cannot run in Pyodide: they are left out and reported (the app must cope with the
    ImportError there, as it does for desktop-only features)."""
    import ast

    modules: set[str] = set()
    for root in roots:
        for path in _source_files(root):
            if path.suffix != ".py":
                continue
            tree = ast.parse(path.read_bytes(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    modules.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules.add(node.module.split(".")[0])
    modules -= set(sys.stdlib_module_names) | local | BROWSER_ONLY_MODULES | {"__future__"}
    by_module = importlib.metadata.packages_distributions()
    wanted: list[str] = []
    skipped: dict[str, str] = {}
    queue = []
    for module in sorted(modules):
        if module in SERVER_ONLY_MODULES:
            skipped[module] = SERVER_ONLY_MODULES[module]
        elif module not in by_module:
            skipped[module] = "not installed"
        else:
            queue += by_module[module]
    seen = {d.lower() for d in VENDORED_DISTRIBUTIONS}
    while queue:
        name = queue.pop(0)
        if name.lower().replace("_", "-") in seen or name.lower() in seen:
            continue
        seen.add(name.lower().replace("_", "-"))
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            skipped[name] = "not installed"
            continue
        if not _is_pure(dist):
            skipped[name] = "compiled code: cannot run in the browser"
            continue
        wanted.append(dist.metadata["Name"])
        queue += _requirements(dist)
    return wanted, skipped


def vendor_distributions(target: Path, extra: Iterable[str] = ()) -> dict[str, str]:
    """Copy the pure-Python files of VENDORED_DISTRIBUTIONS (+ ``extra``) into ``target``."""
    versions = {}
    for name in (*VENDORED_DISTRIBUTIONS, *extra):
        dist = importlib.metadata.distribution(name)
        versions[name] = dist.version
        base = Path(str(dist.locate_file(""))).resolve()
        for f in dist.files or []:
            rel = PurePosixPath(str(f))
            if rel.parts[0] == ".." or any(rx.search(str(rel)) for rx in VENDOR_EXCLUDE):
                continue
            src = base / rel
            if not src.is_file():
                continue
            dst = target / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    if not (target / "msgpack" / "fallback.py").is_file():
        raise PatchError("msgpack: expected msgpack/fallback.py (its pure-Python implementation)")
    return versions


def _source_files(root: Path) -> list[Path]:
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            continue
        if path.suffix in (".pyc", ".pyo"):
            continue
        out.append(path)
    return out


LAUNCHER = '''\
# Generated by build/build_pwa.py: runs the app package the way `python -m {module}` would.
import runpy
import sys

sys.path.insert(1, "{package}")  # the app's directory, for apps that import siblings
runpy.run_module("{module}", run_name="__main__", alter_sys=True)
'''


def precompile(tree: Path, pyodide_dir: Path) -> dict[str, Any]:
    """Byte-compile ``tree`` with the shipped Pyodide running in Node.js (optional: without
    node the site works the same, Python just compiles the modules at every start)."""
    node = shutil.which("node")
    if node is None:
        log("WARNING: node not found: Python files are shipped without bytecode (slower start)")
        return {"precompiled": False, "reason": "node not found"}
    proc = subprocess.run([node, str(TEMPLATES / "compile_pyc.mjs"), str(pyodide_dir), str(tree)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise PatchError(f"{TEMPLATES / 'compile_pyc.mjs'}: byte-compiling the app with Pyodide "
                         f"failed (a syntax error?):\n{proc.stdout[-2000:]}{proc.stderr[-4000:]}")
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    pycs = list(tree.rglob(f"*.{info['cache_tag']}.pyc"))
    if not pycs:
        raise PatchError(f"{TEMPLATES / 'compile_pyc.mjs'}: no {info['cache_tag']} bytecode was written")
    return {"precompiled": True, "python": info["version"], "pyc_files": len(pycs)}


def zip_vendored(vendor: Path, dest: Path, sourceless: bool) -> int:
    """Zip the vendored packages into one file imported in place by zipimport (nothing to
    unpack in the browser). With bytecode, modules ship as sourceless ``.pyc`` (hash-based,
    moved out of ``__pycache__``): smaller, and nothing to compile or check at import."""
    entries: dict[str, bytes] = {}
    for path in sorted(p for p in vendor.rglob("*") if p.is_file()):
        rel = path.relative_to(vendor)
        if sourceless and rel.parent.name == "__pycache__" and path.suffix == ".pyc":
            module = rel.name.split(".")[0]
            entries[(rel.parent.parent / f"{module}.pyc").as_posix()] = path.read_bytes()
        elif "__pycache__" in rel.parts or (sourceless and path.suffix == ".py"
                                             and (path.parent / "__pycache__").is_dir()):
            continue
        else:
            entries[rel.as_posix()] = path.read_bytes()
    if sourceless:
        missing = [p.relative_to(vendor).as_posix() for p in vendor.rglob("*.py")
                   if p.relative_to(vendor).with_suffix(".pyc").as_posix() not in entries]
        if missing:
            raise PatchError(f"__pypackages__: no bytecode for {missing[:5]}")
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, data in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return len(entries)


def pack_app(app_dir: Path, engine_dir: Path, dest: Path, vendor_dir: Path,
             pyodide_dir: Path | None = None) -> dict[str, Any]:
    """Write app.tar.gz: a launcher main.py, the app package, engine/ (with their bytecode
    when ``pyodide_dir`` is given and Node.js is available) and ``__pypackages__``: the
    vendored packages as ONE zip file, which the worker puts on sys.path as it is.

    No requirements.txt and no pyproject.toml inside: the worker would load micropip.
    The archive is reproducible (sorted entries, fixed mtimes).
    """
    entry = app_dir / "main.py"
    if not entry.is_file():
        raise PatchError(f"{entry}: the app entry point is missing (expected main.py with main(page))")
    if not re.search(r"^(async\s+)?def main\(", entry.read_text(encoding="utf-8"), re.M):
        raise PatchError(f"{entry}: expected a top-level 'def main(page)' (or 'async def main')")
    if "__name__" not in entry.read_text(encoding="utf-8"):
        raise PatchError(f"{entry}: expected an `if __name__ == \"__main__\": ft.run(main)` block")

    package = app_dir.name
    tree = dest.parent / (dest.name + ".tree")
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    (tree / "main.py").write_text(LAUNCHER.format(module=f"{package}.main", package=package))
    for src_root, arc_root in ((app_dir, package), (engine_dir, engine_dir.name), (vendor_dir, "vendor")):
        for path in _source_files(src_root):
            rel = path.relative_to(src_root).as_posix()
            if src_root == app_dir and (rel.split("/")[0] in ("assets", "tests")
                                         or rel in ("requirements.txt", "pyproject.toml")):
                continue
            target = tree / arc_root / rel
            if target.exists():
                raise PatchError(f"app.tar.gz: {arc_root}/{rel} would be packed twice")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    if not (tree / package / "__init__.py").exists():
        (tree / package / "__init__.py").write_bytes(b"")
    compiled = precompile(tree, pyodide_dir) if pyodide_dir else {"precompiled": False}
    zipped = zip_vendored(tree / "vendor", tree / "__pypackages__", sourceless=compiled["precompiled"])
    shutil.rmtree(tree / "vendor")

    names = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())
    if any(n in ("requirements.txt", "pyproject.toml") for n in names):
        raise PatchError("app.tar.gz must not contain requirements.txt/pyproject.toml (micropip)")
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name in names:
            data = (tree / name).read_bytes()
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    shutil.rmtree(tree)
    with open(dest, "wb") as fh, gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, compresslevel=9,
                                              filename="") as gz:
        gz.write(raw.getvalue())
    return {"files": len(names), "vendored_zip_entries": zipped, "uncompressed": len(raw.getvalue()),
            "compressed": dest.stat().st_size, **compiled}


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
    """The fallback fonts for the local server (``python -m app``, app/server.py), which serves
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


# Standard-library modules a scorekeeper in the browser never imports (a REPL, a debugger,
# mail and FTP clients, test runners): left out of Pyodide's python_stdlib.zip. The build
# fails if a remaining module, the app or the engine imports one of them at top level.
STDLIB_DROPPED = ("_pyrepl", "pdb", "pydoc", "wsgiref", "xmlrpc", "imaplib", "smtplib", "ftplib",
                  "poplib", "mailbox", "doctest", "unittest")


def prune_python_stdlib(site: Path, app_dirs: Iterable[Path]) -> int:
    """Rewrite pyodide/python_stdlib.zip without STDLIB_DROPPED; returns the bytes saved."""
    path = site / "pyodide" / "python_stdlib.zip"
    top_level = re.compile(r"^(?:import|from)\s+(" + "|".join(STDLIB_DROPPED) + r")\b", re.M)
    before = path.stat().st_size
    out = io.BytesIO()
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            top = info.filename.split("/")[0].removesuffix(".py")
            if top in STDLIB_DROPPED:
                continue
            data = src.read(info)
            if info.filename.endswith(".py") and not info.filename.endswith("__main__.py") and (found := top_level.search(data.decode("utf-8", "replace"))):
                raise PatchError(f"pyodide/python_stdlib.zip: {info.filename} imports {found[1]} at top "
                                 "level; remove it from STDLIB_DROPPED in build/build_pwa.py")
            dst.writestr(info, data)
    for root in app_dirs:
        for source in _source_files(root):
            if source.suffix == ".py" and (found := re.search(
                    r"^\s*(?:import|from)\s+(" + "|".join(STDLIB_DROPPED) + r")\b",
                    source.read_text(encoding="utf-8", errors="replace"), re.M)):
                raise PatchError(f"{source} imports {found[1]}, which the browser build leaves out "
                                 "(STDLIB_DROPPED in build/build_pwa.py)")
    path.write_bytes(out.getvalue())
    return before - path.stat().st_size


def prune_pyodide_lock(site: Path) -> int:
    """pyodide-lock.json lists 357 packages the site does not ship (dependencies are
    vendored; micropip is never loaded): keep only those whose file is in the site."""
    path = site / "pyodide" / "pyodide-lock.json"
    before = path.stat().st_size
    lock = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(lock.get("packages"), dict) or "info" not in lock:
        raise PatchError(f"{path}: expected a Pyodide lock file with info and packages")
    lock["packages"] = {name: pkg for name, pkg in lock["packages"].items()
                        if (site / "pyodide" / str(pkg.get("file_name", ""))).is_file()}
    path.write_text(json.dumps(lock, separators=(",", ":")), encoding="utf-8")
    return before - path.stat().st_size


def pack_notices(site: Path) -> int:
    """Flutter's licence notices (1.5 MB, shown only on a licence page the app never opens)
    ship gzipped; the service worker answers assets/NOTICES from NOTICES.gz."""
    notices = site / "assets" / "NOTICES"
    if not notices.is_file():
        raise PatchError(f"{notices}: expected Flutter's licence notices in the flet-web client")
    with open(notices.with_name("NOTICES.gz"), "wb") as fh, gzip.GzipFile(
            fileobj=fh, mode="wb", mtime=0, compresslevel=9, filename="") as gz:
        gz.write(notices.read_bytes())
    notices.unlink()
    return notices.with_name("NOTICES.gz").stat().st_size


def make_icons(source: Path, site: Path) -> list[dict[str, Any]]:
    """All icons from ONE source image (square PNG, ideally 1024x1024)."""
    from PIL import Image

    icons_dir = site / "icons"
    icons_dir.mkdir(parents=True, exist_ok=True)
    for old in icons_dir.glob("*"):
        old.unlink()
    img = Image.open(source).convert("RGBA")
    if img.width != img.height or img.width < 512:
        raise PatchError(f"{source}: expected a square icon of at least 512x512, got {img.size}")
    # Full-bleed background for maskable/apple icons: the colour of the source's centre-top.
    bg = img.getpixel((img.width // 2, img.height // 12))[:3]

    def full_bleed(size: int, scale: float) -> Image.Image:
        canvas = Image.new("RGBA", (size, size), bg + (255,))
        inner = round(size * scale)
        canvas.alpha_composite(img.resize((inner, inner), Image.LANCZOS),
                               ((size - inner) // 2, (size - inner) // 2))
        return canvas.convert("RGB")

    manifest_icons = []
    for size in ICON_SIZES:
        img.resize((size, size), Image.LANCZOS).save(icons_dir / f"icon-{size}.png", optimize=True)
        manifest_icons.append({"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}",
                               "type": "image/png", "purpose": "any"})
    for size in ICON_SIZES:
        full_bleed(size, MASKABLE_SAFE_ZONE).save(icons_dir / f"icon-maskable-{size}.png", optimize=True)
        manifest_icons.append({"src": f"icons/icon-maskable-{size}.png", "sizes": f"{size}x{size}",
                               "type": "image/png", "purpose": "maskable"})
    full_bleed(180, 0.92).save(icons_dir / "apple-touch-icon-180.png", optimize=True)
    img.resize((256, 256), Image.LANCZOS).save(icons_dir / "loading-animation.png", optimize=True)
    img.resize((48, 48), Image.LANCZOS).save(site / "favicon.png", optimize=True)
    return manifest_icons


def write_manifest(site: Path, icons: list[dict[str, Any]]) -> None:
    manifest = json.loads((TEMPLATES / "manifest.json").read_text(encoding="utf-8"))
    if manifest.get("icons") != "__ICONS__":
        raise PatchError(f"{TEMPLATES / 'manifest.json'}: expected \"icons\": \"__ICONS__\"")
    manifest["icons"] = icons
    manifest["theme_color"], manifest["background_color"] = THEME_COLOR, BACKGROUND_COLOR
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def write_service_worker(site: Path) -> str:
    """sw.js pre-caching every file of the site but the on-demand fonts (fetched and kept on
    first use); its cache name is the site's content hash."""
    entries: list[list[str]] = []
    later: list[list[str]] = []
    digest = hashlib.sha256()
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = path.relative_to(site).as_posix()
        if rel == "sw.js":
            continue
        data = path.read_bytes()
        (later if is_on_demand(rel) else entries).append([rel, sri(data)])
        digest.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    build_hash = digest.hexdigest()[:16]
    template = (TEMPLATES / "sw.js").read_text(encoding="utf-8")
    sw = replace_once(template, '"__BUILD_HASH__"', json.dumps(build_hash), file="templates/sw.js")
    sw = replace_once(sw, "__PRECACHE__", json.dumps(entries, indent=0), file="templates/sw.js")
    sw = replace_once(sw, "__ON_DEMAND__", json.dumps(later, indent=0), file="templates/sw.js")
    (site / "sw.js").write_text(sw, encoding="utf-8")
    return build_hash


ON_DEMAND_CATEGORY = "Fonts of other scripts (CJK, Arabic, Indic...): fetched on first need"
CATEGORIES = (
    ("Flutter app (main.dart.js + loader)", r"^(main\.dart\.js|flutter_bootstrap\.js|index\.html|404\.html|python(-worker)?\.js|version\.json|sw\.js|manifest\.json)$"),
    ("QR decoder (zxing-wasm)", r"^qr/"),
    ("CanvasKit (all browsers)", r"^canvaskit/"),
    ("Pyodide runtime", r"^pyodide/"),
    ("Python app + vendored packages", r"^app\.tar\.gz$"),
    (ON_DEMAND_CATEGORY, "^(" + "|".join(map(re.escape, ON_DEMAND_FOLDERS)) + ")"),
    ("Fallback fonts (symbols, accented/Greek/Cyrillic, emoji)", r"^assets/fonts/(noto|LICENSE-Noto)"),
    ("Fonts", r"^assets/(fonts|packages)/"),
    ("Other Flutter assets (NOTICES, shaders, manifests)", r"^assets/"),
    ("Icons", r"^(icons/|favicon\.png)"),
)


def size_report(site: Path) -> dict[str, Any]:
    files = {p.relative_to(site).as_posix(): p for p in site.rglob("*") if p.is_file()}
    cats: dict[str, list[int]] = {}
    total = [0, 0]
    for rel, path in sorted(files.items()):
        data = path.read_bytes()
        gz = len(gzip.compress(data, 6, mtime=0))
        name = next((c for c, rx in CATEGORIES if re.search(rx, rel)), "Other")
        row = cats.setdefault(name, [0, 0, 0])
        row[0] += 1
        row[1] += len(data)
        row[2] += gz
        total[0] += len(data)
        total[1] += gz
    # Flutter's loader picks canvaskit/chromium/ in Chromium when present, else the full one.
    has_chromium_variant = any(r.startswith("canvaskit/chromium/") for r in files)
    precached = {r: p for r, p in files.items() if not is_on_demand(r)}
    per_browser = {
        "chromium": sum(p.stat().st_size for r, p in precached.items()
                        if not (has_chromium_variant and r.startswith("canvaskit/canvaskit."))),
        "firefox_safari": sum(p.stat().st_size for r, p in precached.items()
                              if not r.startswith("canvaskit/chromium/")),
    }
    return {"total_bytes": total[0], "total_gzip_bytes": total[1], "files": len(files),
            "precached_bytes": sum(p.stat().st_size for p in precached.values()),
            "categories": {k: {"files": v[0], "bytes": v[1], "gzip_bytes": v[2]} for k, v in cats.items()},
            "downloaded_by": per_browser}


def _mb(n: int) -> str:
    return f"{n / 1e6:7.2f} MB"


def print_report(report: dict[str, Any], pruned: list[tuple[str, int, str]]) -> None:
    mb = _mb
    print("\nSite size by category (raw / gzip -6):")
    for name, row in sorted(report["categories"].items(), key=lambda kv: -kv[1]["bytes"]):
        print(f"  {name:<52} {mb(row['bytes'])} / {mb(row['gzip_bytes'])}  ({row['files']} files)")
    print(f"  {'TOTAL':<52} {mb(report['total_bytes'])} / {mb(report['total_gzip_bytes'])}  "
          f"({report['files']} files)")
    print(f"  what a first visit downloads: Chromium {mb(report['downloaded_by']['chromium'])}, "
          f"Firefox/Safari {mb(report['downloaded_by']['firefox_safari'])}")
    reasons: dict[str, int] = {}
    for _, size, why in pruned:
        reasons[why] = reasons.get(why, 0) + size
    print(f"Left out of the flet-web client ({mb(sum(s for _, s, _ in pruned))}):")
    for why, size in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {why:<60} {mb(size)}")


# --------------------------------------------------------------------------- main build


def input_fingerprint(app_dir: Path = DEFAULT_APP, engine_dir: Path = DEFAULT_ENGINE,
                      icon: Path = DEFAULT_ICON) -> str:
    """Hash of everything that determines the site (for caching builds in tests)."""
    h = hashlib.sha256()
    inputs = [Path(__file__), icon, *_source_files(TEMPLATES), *_source_files(app_dir),
              *_source_files(engine_dir)]
    for path in inputs:
        h.update(str(path).encode() + b"\0" + path.read_bytes())
    for dist in ("flet", "flet-web", *VENDORED_DISTRIBUTIONS):
        h.update(f"{dist}=={importlib.metadata.version(dist)}".encode())
    return h.hexdigest()[:16]


SNAPSHOT_INPUTS = ("app.tar.gz", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs",
                   "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


def snapshot_snippet(site: Path, package: str) -> str:
    """templates/python-snapshot.js with its key: a hash of everything the snapshot's
    memory depends on (the app archive, the Pyodide runtime and stdlib, the template), so
    a new build never restores another build's Python."""
    template = (TEMPLATES / "python-snapshot.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(template.encode())
    for rel in SNAPSHOT_INPUTS:
        digest.update(rel.encode() + b"\0" + hashlib.sha256((site / rel).read_bytes()).digest())
    js = replace_once(template, '"__SNAPSHOT_KEY__"', json.dumps(digest.hexdigest()[:16]),
                      file="templates/python-snapshot.js")
    return replace_once(js, '"__APP_PACKAGE__"', json.dumps(package), file="templates/python-snapshot.js")


def _assemble(staging: Path, web: Path, app_dir: Path, engine_dir: Path, icon: Path,
              no_precompile: bool, early_python: bool, snapshot: bool = True) -> dict[str, Any]:
    """Everything that writes into the staging folder (removed by the caller on failure)."""
    out = staging.with_name(staging.name.removesuffix(".tmp"))

    app_source = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                           for p in _source_files(app_dir) if p.suffix == ".py")
    pruned, kept_fonts = copy_web_client(web, staging, app_source)
    stdlib_saved = prune_python_stdlib(staging, (app_dir, engine_dir))
    lock_saved = prune_pyodide_lock(staging)
    pruned += [("pyodide/python_stdlib.zip", stdlib_saved, "stdlib modules the app never imports"),
               ("pyodide/pyodide-lock.json", lock_saved, "Pyodide packages the site does not ship")]

    # 1. index.html: flet_web's own patcher (as `flet publish --no-cdn`), then ours.
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_index_html as flet_patch_index_html

    pyodide_version = json.loads((web / "pyodide/package.json").read_text(encoding="utf-8"))["version"]
    flet_patch_index_html(
        index_path=str(staging / "index.html"), base_href="/", app_name=APP_NAME,
        app_description=APP_DESCRIPTION, pyodide=True, pyodide_script_path="main.py",
        pyodide_version=pyodide_version, app_package_url="app.tar.gz",
        web_renderer=WebRenderer.CANVAS_KIT, route_url_strategy=RouteUrlStrategy.PATH, no_cdn=True,
    )
    index = staging / "index.html"
    index.write_text(patch_index_html(
        index.read_text(encoding="utf-8"),
        register_snippet=(TEMPLATES / "register-sw.html").read_text(encoding="utf-8"),
        base_snippet=(TEMPLATES / "base-root.html").read_text(encoding="utf-8"),
        locale_script=(app_dir / "web" / "locale.js").read_text(encoding="utf-8"),
    ), encoding="utf-8")

    # 2. Flutter's loader and the Python worker.
    boot = staging / "flutter_bootstrap.js"
    boot.write_text(patch_flutter_bootstrap(boot.read_text(encoding="utf-8"), early_python), encoding="utf-8")
    pyjs = staging / "python.js"
    if early_python:
        pyjs.write_text(patch_python_js(pyjs.read_text(encoding="utf-8"),
                                        (TEMPLATES / "python-early.js").read_text(encoding="utf-8")),
                        encoding="utf-8")
    dart = staging / "main.dart.js"
    dart.write_text(patch_main_dart_js(dart.read_text(encoding="utf-8")), encoding="utf-8")

    # 3. The app: vendored packages + engine + app package, without requirements.txt.
    vendor = staging.parent / (out.name + ".vendor")
    shutil.rmtree(vendor, ignore_errors=True)
    extra, not_vendored = imported_distributions([app_dir, engine_dir], {app_dir.name, engine_dir.name})
    for module, why in not_vendored.items():
        log(f"not in the browser build: {module} ({why})")
    vendored = vendor_distributions(vendor, extra)
    packed = pack_app(app_dir, engine_dir, staging / "app.tar.gz", vendor,
                      None if no_precompile else web / "pyodide")
    shutil.rmtree(vendor)
    worker = staging / "python-worker.js"
    snippet = None
    if snapshot and early_python:
        asm = staging / "pyodide" / "pyodide.asm.mjs"
        asm.write_text(patch_pyodide_asm(asm.read_text(encoding="utf-8")), encoding="utf-8")
        snippet = snapshot_snippet(staging, app_dir.name)
    worker.write_text(patch_python_worker(worker.read_text(encoding="utf-8"), snippet), encoding="utf-8")
    # QR decoder hook (build/qr_decoder.py): zxing-wasm into qr/ and fletReadQr() into the worker.
    qr_decoder = __import__("runpy").run_path(str(BUILD_DIR / "qr_decoder.py"))["add_to_site"](staging)
    app_assets = app_dir / "assets"
    if app_assets.is_dir():  # like `flet publish`: the app's assets are served from the root
        for path in _source_files(app_assets):
            target = staging / path.relative_to(app_assets)
            if target.exists():
                raise PatchError(f"{path}: would overwrite {target.relative_to(staging)} of the web client")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)

    # 4. Fallback fonts, licence notices, the app shell for deep links on static hosts
    #    (404.html: the page as is; its <base> script finds the site's folder).
    fonts = add_fallback_fonts(staging)
    on_demand = add_on_demand_fonts(staging, (web / "main.dart.js").read_text(encoding="utf-8"))
    notices = pack_notices(staging)
    shutil.copyfile(index, staging / "404.html")

    # 5. Manifest and icons from the one source image, then the service worker (last:
    #    it lists and hashes every other file).
    write_manifest(staging, make_icons(icon, staging))
    build_hash = write_service_worker(staging)

    return {"fallback_fonts": fonts, "on_demand_fonts": on_demand, "notices_gz_bytes": notices,"pruned": pruned, "optional_fonts_kept": kept_fonts, "vendored": vendored,
            "not_vendored": not_vendored, "app_archive": packed, "pyodide": pyodide_version,
            "build_hash": build_hash}


def build(app_dir: Path = DEFAULT_APP, engine_dir: Path = DEFAULT_ENGINE, out: Path = DEFAULT_OUT,
          icon: Path = DEFAULT_ICON, quiet: bool = False, no_precompile: bool = False,
          early_python: bool = True, snapshot: bool = True) -> BuildResult:
    """Build the site into ``out``. ``no_precompile`` and ``early_python=False`` exist to
    measure what they gain (tests/bench_pwa.py --compare); so does ``snapshot=False``
    (--compare-snapshot)."""
    start = time.monotonic()
    app_dir, engine_dir, out = app_dir.resolve(), engine_dir.resolve(), out.resolve()
    versions = check_versions()
    if not any(engine_dir.glob("*.py")):
        raise PatchError(f"{engine_dir}: expected the engine package (Python files), found none")
    web = web_client_dir()
    staging = out.with_name(out.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        info = _assemble(staging, web, app_dir, engine_dir, icon, no_precompile, early_python, snapshot)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(staging.parent / (out.name + ".vendor"), ignore_errors=True)
        raise
    pruned = info.pop("pruned")
    build_hash = info["build_hash"]

    report = size_report(staging)
    report.update(options={"precompile": not no_precompile, "early_python": early_python,
                           "snapshot": snapshot and early_python},
                  flet=versions, pruned_bytes=sum(s for _, s, _ in pruned), **info)
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    (out.parent / (out.name + "-report.json")).write_text(json.dumps(report, indent=2), encoding="utf-8")
    seconds = time.monotonic() - start
    if not quiet:
        print_report(report, pruned)
        log(f"built {out} (build {build_hash}) in {seconds:.1f} s")
    files = {p.relative_to(out).as_posix(): p.stat().st_size for p in out.rglob("*") if p.is_file()}
    return BuildResult(site=out, build_hash=build_hash, files=files, seconds=seconds, report=report)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--app", type=Path, default=DEFAULT_APP, help="app package (default: app/)")
    parser.add_argument("--engine", type=Path, default=DEFAULT_ENGINE, help="engine package (default: engine/)")
    parser.add_argument("--icon", type=Path, default=DEFAULT_ICON, help="source icon (default: assets/icon.png)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: build/out/site)")
    parser.add_argument("--no-precompile", action="store_true",
                        help="ship Python sources only (skip byte-compiling them with Node.js)")
    parser.add_argument("--no-early-python", action="store_true",
                        help="boot like flet publish: Flutter first, Python once Flutter is up "
                             "(only to measure the difference)")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="never start Python from a memory snapshot (only to measure the difference)")
    parser.add_argument("--local-fonts", type=Path, metavar="DIR",
                        help="only write the fallback fonts the local server serves into DIR "
                             "(make run: build/out/fonts)")
    args = parser.parse_args(argv)
    try:
        if args.local_fonts:
            sizes = write_local_fonts(args.local_fonts.resolve())
            log(f"wrote {len(sizes)} fallback fonts ({sum(sizes.values()) / 1e6:.2f} MB) into {args.local_fonts}")
            return 0
        build(args.app, args.engine, args.out, args.icon, no_precompile=args.no_precompile,
              early_python=not args.no_early_python, snapshot=not args.no_snapshot)
    except PatchError as err:
        print(f"build_pwa: FAILED: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
