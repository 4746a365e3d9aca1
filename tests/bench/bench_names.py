"""Names' speed (report, never assert on time): the look-alike check over a 500-name sign-up
list with Unicode's full confusables (engine/names_unicode.txt) beside the hand-written
Latin/Cyrillic/Greek table it replaced (engine/names.py of commit 529c55b~1, loaded in the
same run), the first use's cost of reading the data, and the same in the browser's Python
(the Pyodide flet-web ships, run by Node.js, importing from bytecode after a first run as
the PWA does).

    .venv/bin/python -m pytest -s tests/bench/bench_names.py
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from engine import Tournament
from engine import names as engine_names

ROOT = Path(__file__).resolve().parents[2]
BEFORE = "529c55b~1"  # the last commit with the hand-written table
FIRST = ["Ann", "Bob", "Cy", "Dana", "Eve", "Fred", "Gus", "Hana", "Ivo", "Jo", "Kim", "Lea", "Mo", "Nia", "Oto",
         "Pia", "Quin", "Rosa", "Sam", "Tove", "Uma", "Vik", "Wen", "Xia", "Yuri", "Zoe", "Νίκος", "Ольга", "王小明",
         "محمد", "José", "Zoë", "Søren", "Łukasz"]
LAST = ["Lee", "Ng", "Ortiz", "Berg", "Kovač", "Smith", "Diaz", "Hale", "Ito", "Park", "Roy", "Sá", "Tan", "Vo", "Wu"]
SIGN_UP_LIST = [f"{first} {last}" for first, last in itertools.islice(itertools.product(FIRST, LAST), 500)]


def hand_written_table(folder: Path) -> ModuleType:
    """engine/names.py as it was before Unicode's data (it imports only engine.errors)."""
    path = folder / "names_before.py"
    path.write_text(subprocess.run(["git", "show", f"{BEFORE}:engine/names.py"], cwd=ROOT, capture_output=True,
                                   text=True, check=True).stdout, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("names_before", path)
    assert spec is not None and spec.loader is not None
    module = sys.modules["names_before"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def best_of(rounds: int, run: Callable[[], object], reset: Callable[[], None]) -> float:
    """The fastest of ``rounds`` runs, in seconds, each after ``reset`` (cold caches)."""
    times = []
    for _ in range(rounds):
        reset()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def check_list(module: ModuleType) -> Callable[[], int]:
    """Each name against every name before it, as a pasted sign-up list is checked."""
    def run() -> int:
        taken: dict[int, str] = {}
        for number, name in enumerate(SIGN_UP_LIST, 1):
            assert module.find_clash(name, taken) is None
            taken[number] = name
        return len(taken)
    return run


def test_bench_the_look_alike_check_over_a_500_name_list_beside_the_hand_written_table(tmp_path: Path) -> None:
    before = hand_written_table(tmp_path)
    engine_names.skeleton("warm")  # the data is read once per process: measured below

    def clear(module: ModuleType) -> Callable[[], None]:
        return lambda: (module.skeleton.cache_clear(), module.name_key.cache_clear())

    rows = []
    for label, module in (("hand-written table (before)", before), ("UTS #39, all scripts (now)", engine_names)):
        skeletons = best_of(5, lambda m=module: [m.skeleton(name) for name in SIGN_UP_LIST], clear(module))
        whole = best_of(3, check_list(module), clear(module))
        rows.append((label, skeletons, whole))
    trial = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
    trial.change_format(dataclasses.replace(trial.format, cap=len(SIGN_UP_LIST)))
    assert len(trial.preview_sign_ups("\n".join(SIGN_UP_LIST)).added) == len(SIGN_UP_LIST)
    preview = best_of(3, lambda: trial.preview_sign_ups("\n".join(SIGN_UP_LIST)), clear(engine_names))
    print(f"\n{'500 names':<30}{'skeletons':>12}{'list checked':>14}")
    for label, skeletons, whole in rows:
        print(f"{label:<30}{skeletons * 1000:>10.2f}ms{whole * 1000:>12.1f}ms")
    print(f"ratio now/before: skeletons {rows[1][1] / rows[0][1]:.2f}, list checked {rows[1][2] / rows[0][2]:.2f}; "
          f"preview_sign_ups of the list (every check of sign_up): {preview * 1000:.0f} ms")
    print(f"os.getloadavg(): {' '.join(f'{load:.2f}' for load in os.getloadavg())} (2 shared cores)")


FIRST_USE = """
import time
start = time.perf_counter()
import engine.names as names
imported = time.perf_counter()
names.clean_name("Ann")
print(imported - start, time.perf_counter() - imported)
"""


def test_bench_reading_the_unicode_data_on_first_use() -> None:
    runs = [subprocess.run([sys.executable, "-c", FIRST_USE], cwd=ROOT, capture_output=True, text=True, check=True)
            for _ in range(5)]
    imports, first_uses = zip(*([float(x) for x in run.stdout.split()] for run in runs))
    size = engine_names.UNICODE_DATA.stat().st_size
    print(f"\nCPython {sys.version.split()[0]}: import engine.names {min(imports) * 1000:.1f} ms, first clean_name "
          f"(reads names_unicode.txt, {size:,} bytes) {min(first_uses) * 1000:.1f} ms, best of 5; "
          f"load {os.getloadavg()[0]:.2f}")


PYODIDE_RUN = """
import { pathToFileURL } from "node:url";
const [pyodideDir, root] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.FS.mkdirTree("/src");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/src");
console.log(pyodide.runPython(`
import json, sys, time
sys.path.insert(0, "/src")
start = time.perf_counter()
import engine.names as names
imported = time.perf_counter()
names.clean_name("Ann")
first = time.perf_counter()
json.dumps({"python": sys.version.split()[0], "import": imported - start, "first_use": first - imported})
`));
"""


def test_bench_the_same_in_the_browsers_python(tmp_path: Path) -> None:
    pyodide = Path(str(importlib.util.find_spec("flet_web").submodule_search_locations[0])) / "web" / "pyodide"  # type: ignore[union-attr, index]
    node = shutil.which("node")
    if node is None or not (pyodide / "pyodide.mjs").is_file():
        pytest.skip("needs Node.js and flet-web's Pyodide")
    script = tmp_path / "bench_names.mjs"
    script.write_text(PYODIDE_RUN)
    shutil.copytree(ROOT / "engine", tmp_path / "src" / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    runs = [json.loads(subprocess.run([node, str(script), str(pyodide), str(tmp_path / "src")],
                                      capture_output=True, text=True, check=True, timeout=300).stdout.splitlines()[-1])
            for _ in range(3)]
    print(f"\nPyodide (Python {runs[0]['python']}): import engine.names "
          f"{min(r['import'] for r in runs) * 1000:.0f} ms, first clean_name (reads names_unicode.txt) "
          f"{min(r['first_use'] for r in runs) * 1000:.0f} ms, best of 3; load {os.getloadavg()[0]:.2f}")
