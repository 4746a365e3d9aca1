"""The offline PWA (build/build_pwa.py): the build's patches fail loudly, the built site
is complete and installable, and in real Chromium it boots from its own service worker
with the network cut and keeps its data across reloads and browser restarts.

The site is built once per input hash (build/cache/) and served with http.server under
a sub-path. Browser tests: `pytest -m browser tests/test_pwa.py`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import tarfile
from pathlib import Path
from typing import Any

import pytest

from tests.pwa_harness import (
    ROOT,
    SUB_PATH,
    Browser,
    built_site,
    load_build_module,
    serving,
    time_to_interactive,
)

bp = load_build_module()
STANDIN = ROOT / "build" / "dev_standin"
SIZE_BUDGET = 36_000_000


# --------------------------------------------------------------------- patches fail loudly


def flet_web_file(rel: str) -> str:
    return (bp.web_client_dir() / rel).read_text(encoding="utf-8")


def published_index(tmp_path: Path) -> str:
    """index.html as flet_web.patch_index_html leaves it for this build."""
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_index_html

    index = tmp_path / "index.html"
    index.write_text(flet_web_file("index.html"), encoding="utf-8")
    patch_index_html(index_path=str(index), base_href="/", app_name="X", pyodide=True,
                     pyodide_script_path="main.py", pyodide_version="314.0.7",
                     app_package_url="app.tar.gz", web_renderer=WebRenderer.CANVAS_KIT,
                     route_url_strategy=RouteUrlStrategy.PATH, no_cdn=True)
    return index.read_text(encoding="utf-8")


def test_patches_apply_to_the_installed_flet_web(tmp_path: Path) -> None:
    html = bp.patch_index_html(published_index(tmp_path), register_snippet="<script>REG</script>",
                               base_snippet='<base href="./">')
    assert 'flet.pyodideUrl="./pyodide/pyodide.mjs"' in html
    assert '<base href="./">' in html and "REG" in html
    assert not re.search(r'"/(canvaskit/)?";', html), "absolute URLs left in the config"
    boot = bp.patch_flutter_bootstrap(flet_web_file("flutter_bootstrap.js"))
    assert "serviceWorkerSettings" not in boot.split("_flutter.buildConfig")[1]
    build_config = json.loads(re.search(r"_flutter\.buildConfig = (\{.*?\});", boot)[1])  # type: ignore[index]
    assert [b["compileTarget"] for b in build_config["builds"]] == ["dart2js"]
    assert 'canvasKitVariant: "full"' in boot
    assert bp.RIVE_CDN not in bp.patch_main_dart_js(flet_web_file("main.dart.js"))
    bp.patch_python_worker(flet_web_file("python-worker.js"))


@pytest.mark.parametrize(
    ("name", "mutate", "file", "expected"),
    [
        ("index: pyodideUrl", lambda s: s.replace('flet.pyodideUrl="pyodide/pyodide.mjs";', ""),
         "index.html", "flet.pyodideUrl"),
        ("index: base", lambda s: s.replace('<base href="/">', '<base href="/x/">'),
         "index.html", "<base href"),
        ("index: canvaskit url", lambda s: s.replace('flet.canvasKitBaseUrl="/canvaskit/";', ""),
         "index.html", "canvasKitBaseUrl"),
        ("index: body twice", lambda s: s + "</body>", "index.html", "</body>"),
    ],
)
def test_index_patch_fails_loudly(tmp_path: Path, name: str, mutate: Any, file: str, expected: str) -> None:
    with pytest.raises(bp.PatchError) as err:
        bp.patch_index_html(mutate(published_index(tmp_path)), register_snippet="", base_snippet="")
    assert file in str(err.value) and expected in str(err.value), name


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda s: re.sub(r"serviceWorkerSettings:\s*\{[^{}]*\},", "", s), "serviceWorkerSettings"),
        (lambda s: s.replace('"compileTarget":"dart2js"', '"compileTarget":"dart2wasm"'), "dart2js"),
        (lambda s: s.replace("var flutterConfig = {", "var flutterConfig={"), "var flutterConfig"),
        (lambda s: s.replace("_flutter.buildConfig = ", "_flutter.buildConfig="), "buildConfig"),
    ],
)
def test_bootstrap_patch_fails_loudly(mutate: Any, expected: str) -> None:
    with pytest.raises(bp.PatchError) as err:
        bp.patch_flutter_bootstrap(mutate(flet_web_file("flutter_bootstrap.js")))
    assert "flutter_bootstrap.js" in str(err.value) and expected in str(err.value)


def test_other_patches_fail_loudly() -> None:
    with pytest.raises(bp.PatchError, match=r"main\.dart\.js.*jsdelivr"):
        bp.patch_main_dart_js("no rive here")
    worker = flet_web_file("python-worker.js")
    with pytest.raises(bp.PatchError, match=r"python-worker\.js.*__pypackages__"):
        bp.patch_python_worker(worker.replace('pkgs_path = "__pypackages__"', 'pkgs_path = "x"'))
    with pytest.raises(bp.PatchError, match=r"FontManifest\.json.*MaterialIcons"):
        bp.patch_font_manifest([{"family": "Roboto", "fonts": []}], [])


def test_pack_app_refuses_an_app_without_entry_point(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.py").write_text("print('no main here')\n")
    with pytest.raises(bp.PatchError, match=r"main\.py.*def main\(page\)"):
        bp.pack_app(tmp_path / "app", ROOT / "engine", tmp_path / "a.tar.gz", tmp_path)


# --------------------------------------------------------------------- the built site


def app_under_test() -> Path:
    """The real app once it has its entry point; the build's stand-in before that."""
    entry = ROOT / "app" / "main.py"
    return ROOT / "app" if entry.is_file() and "def main(" in entry.read_text() else STANDIN


@pytest.fixture(scope="module")
def site() -> tuple[Path, dict[str, Any]]:
    return built_site(app_under_test())


def test_site_is_complete_small_and_relative(site: tuple[Path, dict[str, Any]]) -> None:
    root, report = site
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    assert report["total_bytes"] == sum((root / f).stat().st_size for f in files)
    assert report["total_bytes"] <= SIZE_BUDGET, report["categories"]
    for gone in ("main.dart.wasm", "flutter_service_worker.js", "canvaskit/skwasm.wasm",
                 "canvaskit/chromium/canvaskit.wasm", "pyodide/python.exe"):
        assert gone not in files
    assert not [f for f in files if f.endswith((".symbols", ".map", ".whl", ".d.ts"))]
    index = (root / "index.html").read_text()
    assert not re.search(r'(href|src)="/', index), "absolute URL in index.html"
    assert "sw.js" in index and 'flet.pyodideUrl="./pyodide/pyodide.mjs"' in index
    with tarfile.open(root / "app.tar.gz") as tar:
        names = tar.getnames()
    assert "requirements.txt" not in names and "pyproject.toml" not in names
    for module in ("main.py", "engine/__init__.py", "__pypackages__/flet/__init__.py",
                   "__pypackages__/tinydb/__init__.py", "__pypackages__/qrcode/__init__.py",
                   "__pypackages__/png.py", "__pypackages__/msgpack/fallback.py"):
        assert module in names
    assert not [n for n in names if n.endswith((".so", ".pyc"))]


def test_service_worker_precaches_every_file_by_hash(site: tuple[Path, dict[str, Any]]) -> None:
    root, report = site
    sw = (root / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw, re.S)[1])  # type: ignore[index]
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} - {"sw.js"}
    assert {url for url, _ in precache} == files
    for url, integrity in precache:
        digest = base64.b64encode(hashlib.sha256((root / url).read_bytes()).digest()).decode()
        assert integrity == f"sha256-{digest}", url
    assert f'const BUILD = "{report["build_hash"]}"' in sw


def test_manifest_is_installable(site: tuple[Path, dict[str, Any]]) -> None:
    from PIL import Image

    root, _ = site
    manifest = json.loads((root / "manifest.json").read_text())
    assert manifest["name"] == "Farkle Table" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert re.fullmatch(r"#[0-9A-Fa-f]{6}", manifest["theme_color"])
    purposes = set()
    for icon in manifest["icons"]:
        assert not icon["src"].startswith("/")
        with Image.open(root / icon["src"]) as img:
            assert f"{img.width}x{img.height}" == icon["sizes"] and img.format == "PNG"
            if icon["purpose"] == "maskable":  # full bleed: no transparent corner
                assert img.convert("RGBA").getpixel((0, 0))[3] == 255
        purposes.add((icon["purpose"], icon["sizes"]))
    assert {("any", "192x192"), ("any", "512x512"), ("maskable", "192x192"),
            ("maskable", "512x512")} <= purposes


# --------------------------------------------------------------------- in Chromium


class StandinDriver:
    """build/dev_standin: a counter kept in SharedPreferences."""

    def ready(self, page: Any) -> None:
        page.get_by_role("button", name="Add throw").wait_for(timeout=90_000)

    def play(self, page: Any, throws: int, start: int) -> int:
        for n in range(start + 1, start + throws + 1):
            page.get_by_role("button", name="Add throw").click()
            page.get_by_text(f"Throws: {n}").wait_for(timeout=10_000)
        return start + throws

    def expect_state(self, page: Any, count: int) -> None:
        page.get_by_text(f"Throws: {count}").wait_for(timeout=10_000)


def driver_for(app_dir: Path) -> Any:
    return StandinDriver()


@pytest.mark.browser
def test_offline_journey(site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """Load once online; then with the server gone and the network cut: reload, keep
    playing, restart the browser on the same profile: the data is still there."""
    root, _ = site
    drv = driver_for(app_under_test())
    profile = tmp_path / "profile"
    external: list[str] = []
    with serving(root, tmp_path / "www") as server:
        url = server.url
        with Browser(profile) as b:
            tti = time_to_interactive(b, url, drv.ready)
            sw_url = b.wait_sw_control()
            assert sw_url == url + "sw.js"
            manifest = b.page.evaluate(
                "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
            assert manifest["name"] == "Farkle Table"
            state = drv.play(b.page, 2, 0)

            server.stop()
            b.cut_network()
            offline_tti = time_to_interactive(b, None, drv.ready, reload=True)
            drv.expect_state(b.page, state)
            assert b.page.evaluate("navigator.serviceWorker.controller !== null")
            state = drv.play(b.page, 1, state)
            external += b.external_requests()

    with Browser(profile, offline=True) as b:  # browser restart, still offline, no server
        relaunch_tti = time_to_interactive(b, url, drv.ready)
        drv.expect_state(b.page, state)
        external += b.external_requests()
    assert external == [], f"requests left the machine: {external}"
    print(f"\nTTI cold {tti:.1f} s, offline reload {offline_tti:.1f} s, relaunch {relaunch_tti:.1f} s")
