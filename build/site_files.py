"""The files the build writes itself around the client and the app: icons and
``manifest.json`` (installing), ``sw.js`` (offline, updates by content), and the size
report that the build prints and keeps next to the site.

The service worker is written last, from the finished site: it lists every other file
with its SHA-256, so it must see exactly what ships.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from pathlib import Path
from typing import Any, cast

from build_support import BACKGROUND_COLOR, TEMPLATES, THEME_COLOR, PatchError, replace_once
from fallback_fonts import ON_DEMAND_FOLDERS, is_on_demand

__all__ = ["make_icons", "write_manifest", "sri", "write_service_worker", "size_report", "print_report"]

# Icons generated from the single source image.
ICON_SIZES = (192, 512)
MASKABLE_SAFE_ZONE = 0.8  # W3C maskable icons: keep content inside the central 80% circle


def make_icons(source: Path, site: Path) -> list[dict[str, Any]]:
    """All icons from ONE source image (square PNG, ideally 1024x1024)."""
    from PIL import Image

    icons_dir = site / "icons"
    icons_dir.mkdir(parents=True, exist_ok=True)
    for old in icons_dir.glob("*"):
        old.unlink()
    lanczos = Image.Resampling.LANCZOS
    img = Image.open(source).convert("RGBA")
    if img.width != img.height or img.width < 512:
        raise PatchError(f"{source}: expected a square icon of at least 512x512, got {img.size}")
    # Full-bleed background for maskable/apple icons: the colour of the source's centre-top.
    # (an RGBA image's pixel is a tuple of four ints)
    bg = cast(tuple[int, int, int, int], img.getpixel((img.width // 2, img.height // 12)))[:3]

    def full_bleed(size: int, scale: float) -> Image.Image:
        canvas = Image.new("RGBA", (size, size), bg + (255,))
        inner = round(size * scale)
        canvas.alpha_composite(img.resize((inner, inner), lanczos),
                               ((size - inner) // 2, (size - inner) // 2))
        return canvas.convert("RGB")

    manifest_icons = []
    for size in ICON_SIZES:
        img.resize((size, size), lanczos).save(icons_dir / f"icon-{size}.png", optimize=True)
        manifest_icons.append({"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}",
                               "type": "image/png", "purpose": "any"})
    for size in ICON_SIZES:
        full_bleed(size, MASKABLE_SAFE_ZONE).save(icons_dir / f"icon-maskable-{size}.png", optimize=True)
        manifest_icons.append({"src": f"icons/icon-maskable-{size}.png", "sizes": f"{size}x{size}",
                               "type": "image/png", "purpose": "maskable"})
    full_bleed(180, 0.92).save(icons_dir / "apple-touch-icon-180.png", optimize=True)
    img.resize((256, 256), lanczos).save(icons_dir / "loading-animation.png", optimize=True)
    img.resize((48, 48), lanczos).save(site / "favicon.png", optimize=True)
    return manifest_icons


def write_manifest(site: Path, icons: list[dict[str, Any]]) -> None:
    """manifest.json from its template, with the icons and the app's colours."""
    manifest = json.loads((TEMPLATES / "manifest.json").read_text(encoding="utf-8"))
    if manifest.get("icons") != "__ICONS__":
        raise PatchError(f"{TEMPLATES / 'manifest.json'}: expected \"icons\": \"__ICONS__\"")
    manifest["icons"] = icons
    manifest["theme_color"], manifest["background_color"] = THEME_COLOR, BACKGROUND_COLOR
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def sri(data: bytes) -> str:
    """Subresource Integrity of a file: how sw.js names and checks it."""
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
    """The site's bytes by category, raw and gzipped, and what a first visit downloads."""
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
    """Bytes as megabytes, aligned for the report."""
    return f"{n / 1e6:7.2f} MB"


def print_report(report: dict[str, Any], pruned: list[tuple[str, int, str]]) -> None:
    """The size report and what was left out of the flet-web client, by reason."""
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
