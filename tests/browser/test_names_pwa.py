"""The PWA's Python refuses and flags names as the server's does: app.tar.gz carries the
names' Unicode data beside engine/'s bytecode, and the Pyodide the site ships reads it
(run by Node.js on the archive as built; the site is built once per input hash)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from engine.names import UNICODE_DATA
from tests.support.baseline_app import app_source
from tests.support.pwa_harness import built_site

IN_PYODIDE = """
import { pathToFileURL } from "node:url";
const [pyodideDir, app] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.FS.mkdirTree("/app");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: app }, "/app");
console.log(pyodide.runPython(`
import json, sys
sys.path.insert(0, "/app")
from engine import InvalidInput, table_names
from engine.names import clean_name
said = {}
for case, names in {"filler": ["Ann", "Ann\\u3164"], "armenian": ["Ann", "An\\u0578"], "emoji": ["\\u2764\\ufe0f Ann", "Bob"]}.items():
    try:
        said[case] = table_names(names)
    except InvalidInput as refused:
        said[case] = str(refused)
json.dumps({"said": said, "loaded_from": sys.modules["engine.names"].__file__})
`));
"""


@pytest.fixture(scope="module")
def site() -> tuple[Path, dict[str, Any]]:
    source = app_source()
    return built_site(source.app_dir, source.engine_dir, label=source.cache_label)


def test_the_pwas_app_archive_carries_the_names_unicode_data(site: tuple[Path, dict[str, Any]]) -> None:
    root, _ = site
    with tarfile.open(root / "app.tar.gz") as tar:
        shipped = tar.extractfile("engine/names_unicode.txt")
        assert shipped is not None
        assert shipped.read() == UNICODE_DATA.read_bytes()


def test_the_pwas_python_refuses_a_hidden_name_and_flags_a_look_alike_at_a_table(
        site: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    root, _ = site
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js to run the site's Pyodide")
    with tarfile.open(root / "app.tar.gz") as tar:
        tar.extractall(tmp_path / "app", filter="data")
    script = tmp_path / "names.mjs"
    script.write_text(IN_PYODIDE, encoding="utf-8")
    run = subprocess.run([node, str(script), str(root / "pyodide"), str(tmp_path / "app")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["said"] == {
        "filler": 'The name "Ann[hangul jungseong filler]" holds an invisible or control character, U+1160 hangul '
                  "jungseong filler. Type it again without it.",
        "armenian": '"An\u0578" looks like Ann, already at this table. Add something to tell them apart.',
        "emoji": ["\u2764\ufe0f Ann", "Bob"],
    }
    assert result["loaded_from"].startswith("/app/engine/names."), "the engine of the archive, not another"
