"""Today's app, for side-by-side runs: the ``app/`` and ``engine/`` of a fixed commit
(before the screens became declarative components), exported with ``git archive`` and
served with the same venv as the working tree.

    with baseline_server(tmp_path / "data") as server:   # python -m app, from the commit
        page.open(server.url)

The export goes to ``build/cache/src-<commit>/`` (ignored by git): a stable path, so the
PWA built from it (tests/support/pwa_harness.py ``built_site``, keyed by a hash of its inputs,
paths included) is built once and reused.

Set ``FARKLE_APP_COMMIT=<commit>`` to make tests/browser/test_browser_taps.py (and any test using
:func:`app_source`) drive that commit's app instead of the working tree's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from tests.support.browser_support import REPO_ROOT, AppServer, start_app_server

__all__ = ["APP_COMMIT_ENV", "BASELINE_COMMIT", "BASELINE_COMMIT_ENV", "AppSource", "app_source", "baseline_commit",
           "baseline_server", "export_commit", "served"]

BASELINE_COMMIT = "b9d2d65"
"""The last commit whose screens are rebuilt whole on every tap (``FarkleApp.render()``)."""
APP_COMMIT_ENV = "FARKLE_APP_COMMIT"
BASELINE_COMMIT_ENV = "FARKLE_BASELINE_COMMIT"
"""Another commit to compare the working tree against (a side-by-side benchmark's baseline)."""
EXPORTS = REPO_ROOT / "build" / "cache"


@dataclass(frozen=True)
class AppSource:
    """Where an app's ``app/`` and ``engine/`` packages live, and what to call it."""

    root: Path
    label: str

    @property
    def app_dir(self) -> Path:
        return self.root / "app"

    @property
    def engine_dir(self) -> Path:
        return self.root / "engine"

    @property
    def cache_label(self) -> str | None:
        """Its slot in build/cache/ for tests/support/pwa_harness.py ``built_site(label=...)``."""
        return None if self.root == REPO_ROOT else self.root.name

    @property
    def env(self) -> dict[str, str]:
        """Environment for ``python -m app`` run from :attr:`root`: its packages first
        (the venv's editable install of the working tree only answers after sys.path)."""
        if self.root == REPO_ROOT:
            return {}
        return {"PYTHONPATH": os.pathsep.join(filter(None, [str(self.root), os.environ.get("PYTHONPATH")]))}


WORKING_TREE = AppSource(REPO_ROOT, "working tree")


def export_commit(commit: str = BASELINE_COMMIT, dest_parent: Path = EXPORTS) -> AppSource:
    """``git archive <commit> app engine`` unpacked into ``build/cache/src-<sha>/``
    (reused when already there)."""
    sha = subprocess.run(["git", "rev-parse", "--short=12", f"{commit}^{{commit}}"], cwd=REPO_ROOT,
                         check=True, capture_output=True, text=True).stdout.strip()
    dest = dest_parent / f"src-{sha}"
    if not (dest / ".complete").is_file():
        shutil.rmtree(dest, ignore_errors=True)
        staging = dest.with_name(dest.name + ".tmp")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", "--format=tar", sha, "app", "engine"], cwd=REPO_ROOT,
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(staging)], input=archive, check=True)
        (staging / ".complete").write_text(sha + "\n")
        staging.rename(dest)
    return AppSource(dest, f"{commit} ({sha[:7]})" if not sha.startswith(commit) else commit)


def baseline_commit(environ: Optional[dict[str, str]] = None) -> str:
    """The commit named by ``FARKLE_BASELINE_COMMIT``, else :data:`BASELINE_COMMIT`."""
    return (os.environ if environ is None else environ).get(BASELINE_COMMIT_ENV, "").strip() or BASELINE_COMMIT


def app_source(environ: Optional[dict[str, str]] = None) -> AppSource:
    """The working tree, or the commit named by ``FARKLE_APP_COMMIT``."""
    commit = (os.environ if environ is None else environ).get(APP_COMMIT_ENV, "").strip()
    return export_commit(commit) if commit else WORKING_TREE


@contextmanager
def served(source: AppSource, data_dir: Path) -> Iterator[AppServer]:
    """``python -m app`` from ``source`` (its own app and engine) on a free port."""
    with start_app_server(data_dir, cwd=source.root, env=source.env) as server:
        yield server


@contextmanager
def baseline_server(data_dir: Path, commit: str = BASELINE_COMMIT) -> Iterator[AppServer]:
    with served(export_commit(commit), data_dir) as server:
        yield server
