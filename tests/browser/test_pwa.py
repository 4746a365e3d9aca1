"""The offline PWA (build/build_pwa.py): the build's patches fail loudly, the built site
is complete and installable, and in real Chromium it boots from its own service worker
with the network cut and keeps its data across reloads and browser restarts.

The site is built once per input hash (build/cache/) and served with http.server under
a sub-path. Browser tests: `pytest -m browser tests/browser/test_pwa.py`.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.support.baseline_app import app_source
from tests.support.browser_support import new_game, throw
from tests.support.pwa_harness import (
    BOOT_TIMEOUT_MS,
    ROOT,
    Browser,
    app_ready,
    built_site,
    load_build_module,
    serving,
    time_to_interactive,
)

bp = load_build_module()
SIZE_BUDGET = 37_500_000
"""What a new phone caches on its first visit: 37.0 MB since the eight languages' catalogues
(1.9 MB of text, 0.5 MB packed in app.tar.gz), 36.5 MB before them since the win tables of
progressive and classic passing (1.80 MB of advice tables in all, within the 2 MB issue 26 gives them)."""


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
                               base_snippet='<base href="./">', locale_script="LOCALE();",
                               storage_script="STORAGE();")
    assert 'flet.pyodideUrl="./pyodide/pyodide.mjs"' in html
    assert '<base href="./">' in html and "REG" in html
    assert html.index("LOCALE();") < html.index("flutter_bootstrap.js"), "languages made readable before Flutter"
    assert html.index("STORAGE();") < html.index("flutter_bootstrap.js"), "stored values made readable before Flutter"
    assert not re.search(r'"/(canvaskit/)?";', html), "absolute URLs left in the config"
    boot = bp.patch_flutter_bootstrap(flet_web_file("flutter_bootstrap.js"))
    assert "serviceWorkerSettings" not in boot.split("_flutter.buildConfig")[1]
    build_config = json.loads(re.search(r"_flutter\.buildConfig = (\{.*?\});", boot)[1])  # type: ignore[index]
    assert [b["compileTarget"] for b in build_config["builds"]] == ["dart2js"]
    assert 'canvasKitVariant: "full"' in boot
    assert bp.RIVE_CDN not in bp.patch_main_dart_js(flet_web_file("main.dart.js"))
    bp.patch_python_worker(flet_web_file("python-worker.js"))
    worker = bp.patch_python_worker(flet_web_file("python-worker.js"), "const fletSnapshot = 1;")
    assert "await fletSnapshot.load(loadPyodide, {" in worker and "fletMakeSnapshot" in worker


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
        bp.patch_index_html(mutate(published_index(tmp_path)), register_snippet="", base_snippet="",
                           locale_script="", storage_script="")
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
    asm = flet_web_file("pyodide/pyodide.asm.mjs")
    assert "Module.growMemory(t.length)" in bp.patch_pyodide_asm(asm)
    with pytest.raises(bp.PatchError, match=r"pyodide\.asm\.mjs.*HEAP8"):
        bp.patch_pyodide_asm(asm.replace("return Module.HEAP8.set(t),l}", "return Module.HEAP8.set(t), l}"))
    dart = flet_web_file("main.dart.js")
    with pytest.raises(bp.PatchError, match=r"main\.dart\.js.*Noto Color Emoji"):
        bp.patch_main_dart_js(dart.replace("aXxcn.11.woff2", "aXxcn.x.woff2"))
    with pytest.raises(bp.PatchError, match=r"main\.dart\.js.*l=this\.w"):
        bp.patch_main_dart_js(dart.replace("if(r.length>1){l=this.w", "if(r.length>1){l=this.W"))
    with pytest.raises(bp.PatchError, match=r"main\.dart\.js.*Symbols"):
        bp.patch_main_dart_js(dart.replace('"notosanssymbols2/v24/I_uyMoGduATTei9eI8daxVHDyfisHr71-vrgfE71.woff2"',
                                           '"notosanssymbols2/v24/renamed.woff"'))
    worker = flet_web_file("python-worker.js")
    with pytest.raises(bp.PatchError, match=r"python-worker\.js.*__pypackages__"):
        bp.patch_python_worker(worker.replace('pkgs_path = "__pypackages__"', 'pkgs_path = "x"'))
    with pytest.raises(bp.PatchError, match=r"python-worker\.js.*loadPyodide"):
        bp.patch_python_worker(worker.replace("self.pyodide = await loadPyodide({", "x"), "/* snapshot */")
    python_js = flet_web_file("python.js")
    assert "fletEarlyWorker.take(args)" in bp.patch_python_js(python_js, "/* early */")
    with pytest.raises(bp.PatchError, match=r"python\.js.*// initialize worker"):
        bp.patch_python_js(python_js.replace("// initialize worker", "// start worker"), "")
    with pytest.raises(bp.PatchError, match=r"FontManifest\.json.*MaterialIcons"):
        bp.patch_font_manifest([{"family": "Roboto", "fonts": []}], [])


def test_pack_app_refuses_an_app_without_entry_point(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.py").write_text("print('no main here')\n")
    with pytest.raises(bp.PatchError, match=r"main\.py.*def main\(page\)"):
        bp.pack_app(tmp_path / "app", ROOT / "engine", tmp_path / "a.tar.gz", tmp_path)


# --------------------------------------------------------------------- the built site


@pytest.fixture(scope="module")
def site() -> tuple[Path, dict[str, Any]]:
    """The real app (app/ + engine/) built once per input hash; with FARKLE_APP_COMMIT set,
    that commit's app (tests/support/baseline_app.py) built the same way."""
    source = app_source()
    return built_site(source.app_dir, source.engine_dir, label=source.cache_label)


def test_site_is_complete_small_and_relative(site: tuple[Path, dict[str, Any]]) -> None:
    root, report = site
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    assert report["total_bytes"] == sum((root / f).stat().st_size for f in files)
    on_demand = sum((root / f).stat().st_size for f in files if bp.is_on_demand(f))
    assert report["precached_bytes"] == report["total_bytes"] - on_demand <= SIZE_BUDGET, report["categories"]
    for gone in ("main.dart.wasm", "flutter_service_worker.js", "canvaskit/skwasm.wasm",
                 "canvaskit/chromium/canvaskit.wasm", "pyodide/python.exe"):
        assert gone not in files
    assert not [f for f in files if f.endswith((".symbols", ".map", ".whl", ".d.ts"))]
    index = (root / "index.html").read_text()
    assert not re.search(r'(href|src)="/', index), "absolute URL in index.html"
    assert "sw.js" in index and 'flet.pyodideUrl="./pyodide/pyodide.mjs"' in index
    with tarfile.open(root / "app.tar.gz") as tar:
        names = tar.getnames()
        vendored = zipfile.ZipFile(io.BytesIO(tar.extractfile("__pypackages__").read())).namelist()  # type: ignore[union-attr]
    assert "requirements.txt" not in names and "pyproject.toml" not in names
    assert not [n for n in names if n.endswith(".pot")]  # the translators' template stays out
    assert "main.py" in names
    if report["app_archive"]["precompiled"]:  # the app as bytecode alone, of the Python the site ships
        assert {"engine/__init__.pyc", "app/main.pyc", "app/views/table.pyc"} <= set(names)
        assert not [n for n in names if n.startswith(("app/", "engine/")) and n.endswith(".py")]
        for module in ("flet/__init__", "tinydb/__init__", "qrcode/__init__", "png",
                       "msgpack/fallback", "repath", "six"):
            assert f"{module}.pyc" in vendored
    else:
        assert {"flet/__init__.py", "png.py", "msgpack/fallback.py"} <= set(vendored)
    assert not [n for n in names + vendored if n.endswith((".so", ".dylib", ".pyd"))]


def test_the_snapshot_loads_the_flet_controls_the_apps_source_names(site: tuple[Path, dict[str, Any]]) -> None:
    """The archive holds the app's bytecode only, so the build lists the flet names for it."""
    root, _ = site
    listed = re.search(r"const FLET_NAMES = (\[.*?\]);", (root / "python-worker.js").read_text())
    assert listed, "no FLET_NAMES in python-worker.js"
    assert {"Text", "Column", "FilledButton", "TextField", "component"} <= set(json.loads(listed[1]))


def test_fallback_fonts_404_shell_and_notices_are_in_the_site(site: tuple[Path, dict[str, Any]]) -> None:
    """Accented Latin, Greek, Cyrillic, symbols ("→" of History) and emoji have fonts in the
    site, at the paths the patched client asks for; 404.html is the app shell; the licence
    notices ship gzipped (and the fonts' licence too); unused stdlib modules are left out."""
    from fontTools.ttLib import TTFont

    root, report = site
    dart = (root / "main.dart.js").read_text()
    wanted = {"notosans": "éőŁΩωЖжराम", "notosanssymbols2": "→←★✓♥⚀", "notoemoji": "🎲😀🏆🎉👍"}
    for font in bp.FALLBACK_FONTS:
        path = root / "assets" / "fonts" / font.path
        assert f'"{font.path}"' in dart, font.path
        assert report["fallback_fonts"][font.path] == path.stat().st_size
        cmap = TTFont(path).getBestCmap()
        chars = wanted[font.path.split("/")[0]]
        assert [c for c in chars if ord(c) not in cmap] == [], font.what
    assert "notocoloremoji" not in dart and (root / bp.FONT_LICENSE).is_file()
    assert sum(report["fallback_fonts"].values()) < 700_000
    assert (root / "404.html").read_bytes() == (root / "index.html").read_bytes()
    assert not (root / "assets/NOTICES").exists()
    assert b"Flutter" in gzip.decompress((root / "assets/NOTICES.gz").read_bytes())
    with zipfile.ZipFile(root / "pyodide/python_stdlib.zip") as stdlib:
        tops = {name.split("/")[0].removesuffix(".py") for name in stdlib.namelist()}
    assert "asyncio" in tops and not tops & set(bp.STDLIB_DROPPED)


def test_every_font_of_other_scripts_the_client_may_ask_for_is_in_the_site(site: tuple[Path, dict[str, Any]]) -> None:
    """Flutter's fallback table names 101 parts of Noto Sans SC (hanzi, kana), 124 of Noto
    Sans KR (hangul) and one font per other script (Arabic, Hebrew, Indic, Thai...): each is
    in the site at its path, and those it may pick for these names have their characters."""
    from fontTools.ttLib import TTFont

    root, report = site
    client = bp.client_fallback_fonts(flet_web_file("main.dart.js"))
    parts = [font for font in client if font.family in bp.ON_DEMAND_FAMILIES]
    assert len(parts) == 101 + 124 + len(bp.OTHER_SCRIPTS)
    assert set(report["on_demand_fonts"]) == {font.path for font in parts}
    assert {font.name for font in client if ord("→") in font.codepoints} >= {"Noto Sans Symbols"}
    for char in "王小明김민준かなمريمדודरामสมชายதமிழ்ქეთი":
        holders = [font for font in parts if ord(char) in font.codepoints]
        assert holders, char
        for font in holders:
            assert ord(char) in TTFont(root / "assets/fonts" / font.path).getBestCmap(), (char, font.name)


def test_service_worker_precaches_every_file_by_hash(site: tuple[Path, dict[str, Any]]) -> None:
    """Every file but the CJK font parts is pre-cached; those are listed to be kept on first use."""
    root, report = site
    sw = (root / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw, re.S)[1])  # type: ignore[index]
    on_demand = json.loads(re.search(r"const ON_DEMAND = (\[.*?\]);", sw, re.S)[1])  # type: ignore[index]
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} - {"sw.js"}
    later = {f for f in files if bp.is_on_demand(f)}
    assert {url for url, _ in precache} == files - later
    assert {url for url, _ in on_demand} == later and len(later) > 200
    assert "fonts.gstatic" not in sw and "https://" not in sw
    for url, integrity in precache + on_demand:
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


@pytest.mark.browser
def test_offline_journey(site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """Load once online and start a game. Then with the server gone and the network cut:
    reload (deep in the game's URL), finish the game, start another; restart the browser
    on the same profile: both games are still there. Nothing is ever fetched off-machine."""
    root, _ = site
    profile = tmp_path / "profile"
    external: list[str] = []
    with serving(root, tmp_path / "www") as server:
        url = server.url
        with Browser(profile) as b:
            page = b.flutter
            tti = time_to_interactive(b, url)
            assert b.wait_sw_control() == url + "sw.js"
            manifest = b.page.evaluate(
                "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
            assert manifest["name"] == "Farkle Table" and manifest["display"] == "standalone"
            new_game(page, "Ann", "Bob", target="1000")
            throw(page, "2 2 3 3 4 6")
            page.wait_for_text("Farkle! 2 2 3 3 4 6 has nothing to set aside.")
            page.wait_for_text("Enter Bob's throw")
            game_url = b.page.url
            assert game_url.startswith(url + "game/"), game_url

            assert b.python_start()["snapshot"] is False  # first visit: none yet
            assert b.wait_python_snapshot() == "saved", b.page.evaluate("globalThis.fletSnapshotDetail")

            server.stop()
            b.cut_network()
            offline_tti = time_to_interactive(b, reload=True,
                                              ready=lambda p: p.wait_for_text("Enter Bob's throw", 90_000))
            assert b.page.evaluate("navigator.serviceWorker.controller !== null")
            assert b.python_start()["snapshot"] is True, b.python_start()  # Python from the snapshot
            throw(page, "5 2 3 4 6 6")
            page.click_button("Die 1 shows 5")  # the dice in the order typed
            page.click_button("Roll five dice")
            throw(page, "1 1 1 2 3")
            page.click_button("Best: keep 1 1 1 for 1,000")
            page.click_button("Bank 1,050")
            page.wait_for_text("Bob is on the board with 1,050.")
            throw(page, "1 2 3 3 3 5")
            page.click_button("Best: keep 1 3 3 3 5 for 450")
            page.click_button("Roll one die")
            throw(page, "1")
            page.click_button("Die 1 shows 1")
            page.click_button("Hot dice! Roll six again")
            throw(page, "1 2 3 4 5 6")
            page.click_button("Best: keep 1 2 3 4 5 6 for 1,500")
            page.click_button("Bank 2,050")
            page.wait_for_text("Ann wins!")

            page.button("Home").first.click()
            new_game(page, "Cy", "Di")
            throw(page, "2 2 3 3 4 6")
            page.wait_for_text("Enter Di's throw")
            external += b.external_requests()

    with Browser(profile, offline=True) as b:  # browser restart: still offline, no server
        page = b.flutter
        relaunch_tti = time_to_interactive(b, url)
        assert b.python_start()["snapshot"] is True, b.python_start()
        finished = b.page.get_by_role("button", name=re.compile(r"Ann 2,050, Bob 1,050\s+Ann won"))
        finished.wait_for(timeout=10_000)
        b.page.get_by_role("button", name=re.compile(r"Cy 0, Di 0\s+last played")).click()
        page.wait_for_text("Enter Di's throw")
        external += b.external_requests()
    assert external == [], f"requests left the machine: {external}"
    print(f"\nTTI cold {tti:.1f} s, offline reload {offline_tti:.1f} s, relaunch {relaunch_tti:.1f} s")


SNAPSHOT_CACHE = "farkle-table-python-snapshot:/apps/farkle-table/"
# A gzipped file that is not a Pyodide snapshot, stored where the snapshot is.
SPOIL_SNAPSHOT = """async (name) => {
  const cache = await caches.open(name);
  const [request] = await cache.keys();
  const junk = new Blob([new Uint8Array(4096).fill(7)]).stream().pipeThrough(new CompressionStream("gzip"));
  await cache.put(request, new Response(await new Response(junk).blob()));
  return request.url;
}"""


@pytest.mark.browser
def test_python_snapshot_is_made_used_and_replaced_when_broken(
        site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """After the first visit the page keeps a memory snapshot of the started Python; the
    next start restores it (and the app works). A snapshot that cannot be restored is
    dropped: Python starts the usual way and a good snapshot is made again."""
    root, _ = site
    with serving(root, tmp_path / "www") as server, Browser(tmp_path / "profile") as b:
        time_to_interactive(b, server.url)
        assert b.wait_python_snapshot() == "saved"
        detail = b.page.evaluate("globalThis.fletSnapshotDetail")
        assert detail["stored"] < detail["bytes"] / 2, detail  # kept gzipped

        time_to_interactive(b, reload=True)
        assert b.python_start()["snapshot"] is True, b.python_start()
        new_game(b.flutter, "Ann", "Bob")  # the restored Python runs the app
        throw(b.flutter, "2 2 3 3 4 6")
        b.flutter.wait_for_text("Enter Bob's throw")

        url = b.page.evaluate(SPOIL_SNAPSHOT, SNAPSHOT_CACHE)
        assert "/apps/farkle-table/python-snapshot/" in url
        time_to_interactive(b, server.url)
        start = b.python_start()
        assert start["snapshot"] is False and start["reason"].startswith("restore failed"), start
        assert b.wait_python_snapshot() == "saved"
        time_to_interactive(b, server.url)
        assert b.python_start()["snapshot"] is True
        assert b.page.evaluate("caches.open(arguments[0]).then(c => c.keys()).then(k => k.length)"
                               .replace("arguments[0]", repr(SNAPSHOT_CACHE))) == 1


FILES_CACHE = "farkle-table:/apps/farkle-table/:files"
# The service worker's cache of files by content: how many entries, and the build's caches.
CACHE_STATE = """async (files) => {
  const names = (await caches.keys()).filter(n => n.startsWith('farkle-table:'));
  const keys = names.includes(files) ? await (await caches.open(files)).keys() : [];
  return {names, files: keys.length};
}"""


@pytest.mark.browser
def test_a_new_deployment_is_offered_and_taken_on_reload(site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """Deploy build A, load it: its files are cached by content. Deploy build B over it:
    B's service worker installs but waits (never takes over a page mid-game); the page
    offers "A new version is ready: Reload"; the tap activates B and reloads. B's cache
    then holds B's files only, and B is what the next load runs, offline too."""
    import shutil

    root, _ = site
    deployed = tmp_path / "deployed"
    shutil.copytree(root, deployed)
    listed = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", (root / "sw.js").read_text(), re.S)[1])  # type: ignore[index]
    precache = len({integrity for _, integrity in listed})  # files of the same content are kept once
    with serving(deployed, tmp_path / "www") as server, Browser(tmp_path / "profile") as b:
        time_to_interactive(b, server.url)
        b.wait_sw_control()
        assert b.page.evaluate(CACHE_STATE, FILES_CACHE) == {"names": [FILES_CACHE], "files": precache}

        index = deployed / "index.html"  # build B: a changed page, its own sw.js
        index.write_text(index.read_text().replace("<title>", "<!-- build B --><title>"))
        bp.write_service_worker(deployed)
        listed_b = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", (deployed / "sw.js").read_text(),
                                        re.S)[1])  # type: ignore[index]
        precache_b = len({integrity for _, integrity in listed_b})  # index.html no longer = 404.html

        b.page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        reload = b.page.locator("#farkle-update button.reload")
        reload.wait_for(timeout=90_000)
        assert b.page.evaluate("navigator.serviceWorker.getRegistration().then(r => !!r.waiting)")
        assert "<!-- build B -->" not in b.page.evaluate("fetch('index.html').then(r => r.text())")
        with b.page.expect_navigation(timeout=60_000):
            reload.click()
        b.flutter.enable_semantics(BOOT_TIMEOUT_MS)  # the reloaded page, under build B
        app_ready(b.flutter)
        assert "<!-- build B -->" in b.page.evaluate("fetch('index.html').then(r => r.text())")
        # B's files only: every file of A that B has too was kept (same content)
        assert b.page.evaluate(CACHE_STATE, FILES_CACHE) == {"names": [FILES_CACHE], "files": precache_b}
        server.stop()  # from here on, only build B's cache can answer
        b.cut_network()
        time_to_interactive(b, reload=True)
        assert "<!-- build B -->" in b.page.evaluate("fetch('index.html').then(r => r.text())")


def test_the_apps_imports_decide_what_is_vendored(tmp_path: Path) -> None:
    app = tmp_path / "app"
    app.mkdir()
    (app / "main.py").write_text(
        "import flet_camera\nimport tinydb\n\ndef scan():\n    import zxingcpp\n    from PIL import Image\n"
        "    import not_a_module_anywhere\n    from . import main\n    import app.main\n")
    wanted, skipped = bp.imported_distributions([app], {"app"})
    assert wanted == ["flet-camera"]  # tinydb is vendored anyway
    assert skipped["not_a_module_anywhere"] == "not installed"
    assert "compiled code" in skipped["zxing-cpp"] and "compiled code" in skipped["pillow"]
