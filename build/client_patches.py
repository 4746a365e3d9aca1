"""The patches of the flet-web client's files: ``index.html``, ``flutter_bootstrap.js``,
``main.dart.js``, ``python.js``, ``python-worker.js`` and Pyodide's ``pyodide.asm.mjs``.

Each is a function from the file's text to the patched text, and every change goes through
``replace_once``/``sub_once``: when a Flet upgrade changes a file, the build stops with a
``PatchError`` naming the file and the text it expected, instead of shipping a site that
breaks at run time. Kept in one module so that an upgrade of flet-web is reviewed here.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from build_support import (BACKGROUND_COLOR, FLET_VERSION, TEMPLATES, THEME_COLOR, PatchError, replace_once,
                           source_files, sub_once)
from fallback_fonts import EMOJI_FONT, EMOJI_PARTS, FALLBACK_FONTS, SYMBOL_PARTS, SYMBOLS_FONT

__all__ = ["RIVE_CDN", "patch_index_html", "patch_flutter_bootstrap", "patch_main_dart_js", "patch_python_js",
           "patch_pyodide_asm", "patch_python_worker", "snapshot_snippet"]

def patch_index_html(html: str, *, register_snippet: str, base_snippet: str, locale_script: str,
                     storage_script: str) -> str:
    """Make flet_web's generated index.html work offline, under any sub-path and in any locale.

    Input is the page after flet_web.patch_index_html(base_href="/", no_cdn=True, ...).
    """
    f = "index.html"
    # Relative <base>, made absolute at run time (Flutter's path URL strategy needs it),
    # then the browser's languages made readable before Flutter parses them (app/web/locale.js),
    # and every stored value made readable before Flutter's preferences read them (app/web/local_storage.js).
    html = replace_once(html, '<base href="/">',
                        base_snippet.strip() + f"\n  <script>\n{locale_script.strip()}\n  </script>"
                        f"\n  <script>\n{storage_script.strip()}\n  </script>", file=f)
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
                             "packaging in build/app_archive.py must be reviewed.")
    return js


SNAPSHOT_INPUTS = ("app.tar.gz", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs",
                   "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


FLET_NAME = re.compile(r"\bft\.([A-Za-z_]\w*)")
"""``ft.Text``, ``ft.Column``...: flet loads a control's module on first use of its name."""


def snapshot_snippet(site: Path, app_dir: Path) -> str:
    """templates/python-snapshot.js with its key: a hash of everything the snapshot's
    memory depends on (the app archive, the Pyodide runtime and stdlib, the template), so
    a new build never restores another build's Python; and the flet names the app's source
    uses, which the snapshot loads (the archive holds the app's bytecode, not its source)."""
    template = (TEMPLATES / "python-snapshot.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(template.encode())
    for rel in SNAPSHOT_INPUTS:
        digest.update(rel.encode() + b"\0" + hashlib.sha256((site / rel).read_bytes()).digest())
    names = sorted({name for path in source_files(app_dir) if path.suffix == ".py"
                    for name in FLET_NAME.findall(path.read_text(encoding="utf-8"))})
    js = replace_once(template, '"__SNAPSHOT_KEY__"', json.dumps(digest.hexdigest()[:16]),
                      file="templates/python-snapshot.js")
    js = replace_once(js, '"__FLET_NAMES__"', json.dumps(names), file="templates/python-snapshot.js")
    return replace_once(js, '"__APP_PACKAGE__"', json.dumps(app_dir.name), file="templates/python-snapshot.js")
