"""The app as the browser's Python gets it: ``app.tar.gz``, with a launcher ``main.py``, the
app package, ``engine/`` and every pure-Python dependency vendored into ``__pypackages__``
(one zip imported in place), byte-compiled by the very Pyodide the site ships.

Dependencies are found by reading the app's imports (``imported_distributions``) and
vendored, and no requirements.txt or pyproject.toml is packed, so Flet's worker never loads
micropip and the site never asks a package index for anything.
"""

from __future__ import annotations

import ast
import gzip
import importlib.metadata
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from build_support import TEMPLATES, PatchError, log, source_files

__all__ = ["VENDORED_DISTRIBUTIONS", "imported_distributions", "vendor_distributions", "precompile",
           "sourceless_files", "zip_vendored", "pack_app"]

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

# Modules that exist only in the browser (Pyodide's and Flet's), never vendored.
BROWSER_ONLY_MODULES = {"flet_js", "js", "pyodide", "pyodide_js", "micropip"}
# Imported only by the local web server (app/venue/server.py: `python -m app`), never in the
# browser: vendoring them would pull in the whole flet-web client (76 MB) and FastAPI.
SERVER_ONLY_MODULES = {"flet_web": "the local web server's (python -m app)",
                       "uvicorn": "the local web server's (python -m app)",
                       "fastapi": "the local web server's (python -m app)",
                       "starlette": "the local web server's (python -m app)",
                       "filelock": "the data folder's lock (a disk folder; the browser keeps localStorage)"}


def _is_pure(dist: importlib.metadata.Distribution) -> bool:
    """Whether a distribution ships no compiled code (only such can run in Pyodide as vendored)."""
    return not any(str(f).endswith((".so", ".pyd", ".dylib")) for f in dist.files or [])


def _requirements(dist: importlib.metadata.Distribution) -> list[str]:
    """The names of a distribution's requirements, without those of its extras."""
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
    modules: set[str] = set()
    for root in roots:
        for path in source_files(root):
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
    queue: list[str] = []
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
    versions: dict[str, str] = {}
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


# The archive's main.py (this text ships in app.tar.gz).
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


def sourceless_files(root: Path, sourceless: bool) -> dict[str, bytes]:
    """The files under ``root`` by relative path. With ``sourceless``, each module is its
    bytecode alone (hash-based, moved out of ``__pycache__`` to where the ``.py`` was):
    smaller, nothing for the browser to unpack twice, compile or check at import. A module
    left without bytecode stops the build."""
    entries: dict[str, bytes] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if sourceless and rel.parent.name == "__pycache__" and path.suffix == ".pyc":
            module = rel.name.split(".")[0]
            entries[(rel.parent.parent / f"{module}.pyc").as_posix()] = path.read_bytes()
        elif "__pycache__" in rel.parts or (sourceless and path.suffix == ".py"):
            continue
        else:
            entries[rel.as_posix()] = path.read_bytes()
    if sourceless:
        missing = [p.relative_to(root).as_posix() for p in root.rglob("*.py")
                   if p.relative_to(root).with_suffix(".pyc").as_posix() not in entries]
        if missing:
            raise PatchError(f"{root.name}: no bytecode for {missing[:5]}")
    return entries


def zip_vendored(vendor: Path, dest: Path, sourceless: bool) -> int:
    """Zip the vendored packages into one file imported in place by zipimport (nothing to
    unpack in the browser), sourceless when there is bytecode (``sourceless_files``)."""
    entries = sourceless_files(vendor, sourceless)
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, data in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return len(entries)


def pack_app(app_dir: Path, engine_dir: Path, dest: Path, vendor_dir: Path,
             pyodide_dir: Path | None = None) -> dict[str, Any]:
    """Write app.tar.gz: a launcher main.py, the app package, engine/ (as bytecode alone
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
        for path in source_files(src_root):
            rel = path.relative_to(src_root).as_posix()
            if src_root == app_dir and (rel.split("/")[0] in ("assets", "tests")
                                         or rel in ("requirements.txt", "pyproject.toml")
                                         or rel.endswith(".pot")):  # the translators' template: never read
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
    if compiled["precompiled"]:  # the app and the engine as bytecode alone, like __pypackages__
        for top in (package, engine_dir.name):
            files = sourceless_files(tree / top, sourceless=True)
            shutil.rmtree(tree / top)
            for rel, data in files.items():
                (tree / top / rel).parent.mkdir(parents=True, exist_ok=True)
                (tree / top / rel).write_bytes(data)

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
