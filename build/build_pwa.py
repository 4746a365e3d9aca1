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

This module is the command line and the order of the build's steps; each step lives in
the module of its concept (build/README.md, "Layout"). ``__all__`` is the build's API, as
the tests use it.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import qr_decoder
from app_archive import VENDORED_DISTRIBUTIONS, imported_distributions, pack_app, vendor_distributions
from build_support import (APP_DESCRIPTION, APP_NAME, BUILD_DIR, ROOT, TEMPLATES, PatchError, log,
                           source_files)
from client_patches import (RIVE_CDN, patch_flutter_bootstrap, patch_index_html, patch_main_dart_js,
                            patch_pyodide_asm, patch_python_js, patch_python_worker, snapshot_snippet)
from fallback_fonts import (FALLBACK_FONTS, FONT_LICENSE, ON_DEMAND_FAMILIES, OTHER_SCRIPTS, add_fallback_fonts,
                            add_on_demand_fonts, client_fallback_fonts, is_on_demand, write_local_fonts)
from site_files import make_icons, print_report, size_report, sri, write_manifest, write_service_worker
from web_client import (STDLIB_DROPPED, check_versions, copy_web_client, pack_notices, patch_font_manifest,
                        prune_pyodide_lock, prune_python_stdlib, web_client_dir)

__all__ = [
    "build", "BuildResult", "input_fingerprint", "main", "PatchError",
    # the patches of flet-web files, each checked on its own by tests/browser/test_pwa.py
    "RIVE_CDN", "patch_index_html", "patch_flutter_bootstrap", "patch_main_dart_js", "patch_python_js",
    "patch_pyodide_asm", "patch_python_worker", "patch_font_manifest", "web_client_dir", "STDLIB_DROPPED",
    # the app archive
    "pack_app", "imported_distributions",
    # the fallback fonts
    "FALLBACK_FONTS", "FONT_LICENSE", "ON_DEMAND_FAMILIES", "OTHER_SCRIPTS", "client_fallback_fonts",
    "is_on_demand", "write_local_fonts",
    # the service worker (tests deploy a changed site with it)
    "write_service_worker", "sri",
]

DEFAULT_OUT = BUILD_DIR / "out" / "site"
DEFAULT_APP = ROOT / "app"
DEFAULT_ENGINE = ROOT / "engine"
DEFAULT_ICON = ROOT / "assets" / "icon.png"


@dataclass
class BuildResult:
    """A finished build: the site folder, its content hash, each file's size, the report."""

    site: Path
    build_hash: str
    files: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    report: dict[str, Any] = field(default_factory=dict)


def input_fingerprint(app_dir: Path = DEFAULT_APP, engine_dir: Path = DEFAULT_ENGINE,
                      icon: Path = DEFAULT_ICON) -> str:
    """Hash of everything that determines the site (for caching builds in tests)."""
    h = hashlib.sha256()
    inputs = [*sorted(BUILD_DIR.glob("*.py")), icon, *source_files(TEMPLATES), *source_files(app_dir),
              *source_files(engine_dir)]
    for path in inputs:
        h.update(str(path).encode() + b"\0" + path.read_bytes())
    for dist in ("flet", "flet-web", *VENDORED_DISTRIBUTIONS):
        h.update(f"{dist}=={importlib.metadata.version(dist)}".encode())
    return h.hexdigest()[:16]


def _assemble(staging: Path, web: Path, app_dir: Path, engine_dir: Path, icon: Path,
              no_precompile: bool, early_python: bool, snapshot: bool = True) -> dict[str, Any]:
    """Everything that writes into the staging folder (removed by the caller on failure)."""
    out = staging.with_name(staging.name.removesuffix(".tmp"))

    app_source = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                           for p in source_files(app_dir) if p.suffix == ".py")
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
        storage_script=(app_dir / "web" / "local_storage.js").read_text(encoding="utf-8"),
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
        snippet = snapshot_snippet(staging, app_dir)
    worker.write_text(patch_python_worker(worker.read_text(encoding="utf-8"), snippet), encoding="utf-8")
    # QR decoder hook (build/qr_decoder.py): zxing-wasm into qr/ and fletReadQr() into the worker.
    qr_decoder.add_to_site(staging)
    # The page's side of keeping the screen on, where Flutter's wakelock plugin loads it from.
    wake_lock = staging / "assets/packages/wakelock_plus/assets/no_sleep.js"
    wake_lock.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(app_dir / "web" / "wake_lock.js", wake_lock)
    app_assets = app_dir / "assets"
    if app_assets.is_dir():  # like `flet publish`: the app's assets are served from the root
        for path in source_files(app_assets):
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

    return {"fallback_fonts": fonts, "on_demand_fonts": on_demand, "notices_gz_bytes": notices,
            "pruned": pruned, "optional_fonts_kept": kept_fonts, "vendored": vendored, "not_vendored": not_vendored, "app_archive": packed, "pyodide": pyodide_version,
            "build_hash": build_hash}


def build(app_dir: Path = DEFAULT_APP, engine_dir: Path = DEFAULT_ENGINE, out: Path = DEFAULT_OUT,
          icon: Path = DEFAULT_ICON, quiet: bool = False, no_precompile: bool = False,
          early_python: bool = True, snapshot: bool = True) -> BuildResult:
    """Build the site into ``out``. ``no_precompile`` and ``early_python=False`` exist to
    measure what they gain (tests/bench/bench_pwa.py --compare); so does ``snapshot=False``
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
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

