"""The flet-web client as the site ships it: copied from the ``flet-web`` wheel minus what no
browser of this app requests, with Pyodide's standard library and lock file trimmed and
Flutter's licence notices gzipped.

Kept apart from the patches (``client_patches.py``) because this is about which files ship,
not what they say: each left-out file is listed with its reason, and the size report adds
them up ("Left out of the flet-web client").
"""

from __future__ import annotations

import gzip
import importlib.metadata
import io
import json
import re
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from build_support import FLET_VERSION, PatchError, source_files

__all__ = ["PRUNE", "OPTIONAL_FONTS", "STDLIB_DROPPED", "web_client_dir", "check_versions",
           "patch_font_manifest", "copy_web_client", "prune_python_stdlib", "prune_pyodide_lock",
           "pack_notices"]

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
    ("assets/packages/wakelock_plus/**", "wakelock plugin asset (app/web/wake_lock.js in its place)"),
    ("assets/packages/flutter_map/**", "map plugin asset"),
)
# Font families declared in FontManifest.json that Flutter downloads at start-up. They are
# kept only when the app's source shows it may need them.
OPTIONAL_FONTS = {
    "packages/cupertino_icons/": re.compile(r"Cupertino"),
    "packages/flutter_math_fork/": re.compile(r"Markdown|latex|LaTeX|Math"),
}


def patch_font_manifest(fonts: list[dict[str, Any]], keep_optional: Iterable[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Drop the optional font families the app does not use; add flet's bundled Roboto."""
    keep = set(keep_optional)
    families = {entry.get("family") for entry in fonts}
    if "MaterialIcons" not in families:
        raise PatchError("assets/FontManifest.json: expected a MaterialIcons family, "
                         f"found {sorted(map(str, families))}")
    kept: list[dict[str, Any]] = []
    dropped_assets: list[str] = []
    for entry in fonts:
        prefix = next((p for p in OPTIONAL_FONTS if str(entry.get("family", "")).startswith(p)), None)
        if prefix is not None and prefix not in keep:
            dropped_assets += [font["asset"] for font in entry["fonts"]]
        else:
            kept.append(entry)
    # Same entry as flet_web.patch_font_manifest_json (used by `flet publish --no-cdn`).
    kept.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    return kept, dropped_assets


def _match(path: str, pattern: str) -> bool:
    """Whole-path glob match: ``*`` stays inside one folder, ``**/`` spans folders."""
    rx = re.escape(pattern).replace(r"\*\*/", "(.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
    return re.fullmatch(rx, path) is not None


def web_client_dir() -> Path:
    """The web client inside the installed flet-web wheel (imported only when building)."""
    import flet_web

    return Path(flet_web.get_package_web_dir())


def check_versions() -> dict[str, str]:
    """The installed flet and flet-web versions, which must be the one the patches target."""
    versions = {d: importlib.metadata.version(d) for d in ("flet", "flet-web")}
    for dist, version in versions.items():
        if version != FLET_VERSION:
            raise PatchError(f"{dist} {version} is installed, build/client_patches.py targets "
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
            if (info.filename.endswith(".py") and not info.filename.endswith("__main__.py")
                    and (found := top_level.search(data.decode("utf-8", "replace")))):
                raise PatchError(f"pyodide/python_stdlib.zip: {info.filename} imports {found[1]} at top "
                                 "level; remove it from STDLIB_DROPPED in build/web_client.py")
            dst.writestr(info, data)
    for root in app_dirs:
        for source in source_files(root):
            if source.suffix == ".py" and (found := re.search(
                    r"^\s*(?:import|from)\s+(" + "|".join(STDLIB_DROPPED) + r")\b",
                    source.read_text(encoding="utf-8", errors="replace"), re.M)):
                raise PatchError(f"{source} imports {found[1]}, which the browser build leaves out "
                                 "(STDLIB_DROPPED in build/web_client.py)")
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

