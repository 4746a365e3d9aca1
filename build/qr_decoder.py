"""The PWA's QR decoder: zxing-wasm (ZXing-C++ as WebAssembly, its reader-only build).

Called once by ``build/build_pwa.py`` (:func:`add_to_site`), after the Python worker is
patched and before the service worker lists the site's files:

- fetches the npm package at the exact version pinned in ``templates/qr/zxing-wasm.json``
  (``npm pack`` into ``build/cache/npm/``, reused when already there) and checks the
  tarball against the pinned npm integrity (SHA-512) and the WebAssembly file against the
  pinned SHA-256 (which the package's own JavaScript states as ``ZXING_WASM_SHA256``);
- copies the reader build into the site under ``qr/zxing-wasm/``: its two ES modules, its
  licence, and the ``.wasm`` gzipped (0.41 MB instead of 0.95 MB: the site has a 36 MB
  budget; the worker inflates it with ``DecompressionStream``);
- appends ``templates/qr/qr-worker.js`` to ``python-worker.js``: an async
  ``fletReadQr(bytes) -> [texts]`` on the worker's global scope, which Python reaches
  through Pyodide's ``js`` module (:func:`app.qr.read_qr`).

Nothing is fetched at run time and nothing comes from a CDN: the package's default
``locateFile`` (jsDelivr) is overridden and the wasm bytes are handed over directly.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

BUILD_DIR = Path(__file__).resolve().parent
TEMPLATES = BUILD_DIR / "templates" / "qr"
PIN_FILE = TEMPLATES / "zxing-wasm.json"
WORKER_SNIPPET = TEMPLATES / "qr-worker.js"
NPM_CACHE = BUILD_DIR / "cache" / "npm"
SITE_DIR = "qr/zxing-wasm"
WASM_NAME = "zxing_reader.wasm.gz"

__all__ = ["QrDecoderError", "pin", "fetch_package", "add_to_site", "SITE_DIR", "WASM_NAME"]


class QrDecoderError(RuntimeError):
    """The pinned decoder could not be fetched, or is not what the pin says."""


def pin() -> dict[str, Any]:
    """The pinned package: name, version, npm integrity, the wasm's SHA-256, the files to ship."""
    data: dict[str, Any] = json.loads(PIN_FILE.read_text(encoding="utf-8"))
    return data


def npm_integrity(data: bytes) -> str:
    """npm's integrity string (Subresource Integrity, SHA-512) of a tarball."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch_package(cache: Path = NPM_CACHE) -> bytes:
    """The pinned tarball, from the cache or ``npm pack``; its integrity checked either way."""
    p = pin()
    tarball = cache / f"{p['package']}-{p['version']}.tgz"
    if not tarball.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise QrDecoderError(f"{tarball} is not cached and npm is not installed: the QR decoder "
                                 f"{p['package']}@{p['version']} cannot be fetched")
        cache.mkdir(parents=True, exist_ok=True)
        spec = f"{p['package']}@{p['version']}"
        done = subprocess.run([npm, "pack", spec, "--pack-destination", str(cache), "--json",
                               "--ignore-scripts"],
                              capture_output=True, text=True, timeout=300, env={**os.environ, "npm_config_fund": "false"})
        if done.returncode != 0 or not tarball.is_file():
            raise QrDecoderError(f"npm pack {spec} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    data = tarball.read_bytes()
    got = npm_integrity(data)
    if got != p["integrity"]:
        tarball.unlink()  # never reuse a bad download
        raise QrDecoderError(f"{tarball.name}: integrity {got} is not the pinned {p['integrity']}")
    return data


def _members(tgz: bytes, names: list[str]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(tgz), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.name in names and member.isfile():
                extracted = archive.extractfile(member)
                assert extracted is not None
                out[member.name] = extracted.read()
    missing = sorted(set(names) - set(out))
    if missing:
        raise QrDecoderError(f"the pinned zxing-wasm tarball lacks {missing}: review templates/qr/zxing-wasm.json")
    return out


def worker_snippet() -> str:
    return WORKER_SNIPPET.read_text(encoding="utf-8").replace("__ZXING_VERSION__", pin()["version"])


def add_to_site(site: Path, cache: Path = NPM_CACHE) -> dict[str, Any]:
    """Put the decoder into ``site`` and its loader into ``site/python-worker.js``.

    Returns what was added (for the build's report): version, files and their sizes.
    """
    p = pin()
    members = _members(fetch_package(cache), [*p["files"], p["wasm"]])
    wasm = members[p["wasm"]]
    if hashlib.sha256(wasm).hexdigest() != p["wasm_sha256"]:
        raise QrDecoderError(f"{p['wasm']}: SHA-256 is not the pinned {p['wasm_sha256']}")
    reader = members["package/dist/es/reader/index.js"]
    stated = re.search(rb'"([0-9a-f]{64})";\s*//#endregion', reader)
    if stated is None or stated.group(1).decode() != p["wasm_sha256"]:
        raise QrDecoderError("es/reader/index.js: its ZXING_WASM_SHA256 is not the pinned wasm's")
    if b"from \"../share.js\"" not in reader:
        raise QrDecoderError("es/reader/index.js: expected it to import ../share.js only")
    target = site / SITE_DIR
    target.mkdir(parents=True, exist_ok=True)
    files: dict[str, int] = {}
    for member, rel in p["files"].items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(members[member])
        files[f"{SITE_DIR}/{rel}"] = len(members[member])
    packed = gzip.compress(wasm, 9, mtime=0)
    (target / WASM_NAME).write_bytes(packed)
    files[f"{SITE_DIR}/{WASM_NAME}"] = len(packed)

    worker = site / "python-worker.js"
    js = worker.read_text(encoding="utf-8")
    if "self.fletReadQr" in js:
        raise QrDecoderError(f"{worker}: the QR decoder is already in the worker")
    worker.write_text(js.rstrip("\n") + "\n" + worker_snippet(), encoding="utf-8")
    return {"package": p["package"], "version": p["version"], "integrity": p["integrity"],
            "wasm_bytes": len(wasm), "files": files, "site_bytes": sum(files.values())}
