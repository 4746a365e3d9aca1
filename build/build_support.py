"""What every step of the PWA build shares: where its inputs are, the app's name and colours,
the one error it stops with, and the exactly-once text replacement every patch of a flet-web
file goes through.

The build's modules import each other as top-level modules (``build/`` is the script's
folder when run as ``python build/build_pwa.py``; tests/support/pwa_harness.py puts it on
``sys.path`` the same way).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

__all__ = ["ROOT", "BUILD_DIR", "TEMPLATES", "FLET_VERSION", "APP_NAME", "APP_DESCRIPTION", "THEME_COLOR",
           "BACKGROUND_COLOR", "PatchError", "replace_once", "sub_once", "log", "source_files"]

ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = ROOT / "build"
TEMPLATES = BUILD_DIR / "templates"

FLET_VERSION = "1.0.5"  # the web client is patched for exactly this release
APP_NAME = "Farkle Table"
APP_DESCRIPTION = "Offline Farkle scorekeeper for tables and tournaments"
THEME_COLOR = "#145A32"
BACKGROUND_COLOR = "#0E4D2A"


class PatchError(RuntimeError):
    """A file of the Flet web client does not contain what this build expects."""


def replace_once(text: str, old: str, new: str, *, file: str) -> str:
    """Replace ``old`` by ``new``; ``old`` must occur exactly once in ``text``."""
    count = text.count(old)
    if count != 1:
        raise PatchError(
            f"{file}: expected exactly one occurrence of {old!r}, found {count}. "
            f"The Flet web client changed (this build targets flet-web {FLET_VERSION}); "
            "review build/client_patches.py before publishing."
        )
    return text.replace(old, new)


def sub_once(text: str, pattern: str, new: str | Callable[[re.Match[str]], str], *,
             file: str, expected: str, flags: int = 0) -> str:
    """Regex version of replace_once; ``expected`` describes the text for the error."""
    result, count = re.subn(pattern, new, text, flags=flags)
    if count != 1:
        raise PatchError(
            f"{file}: expected exactly one {expected} (pattern {pattern!r}), found {count}. "
            f"The Flet web client changed (this build targets flet-web {FLET_VERSION}); "
            "review build/client_patches.py before publishing."
        )
    return result


def log(msg: str) -> None:
    """One line of the build's progress, flushed at once (builds run for minutes)."""
    print(f"[build_pwa] {msg}", flush=True)


def source_files(root: Path) -> list[Path]:
    """The files under ``root`` a build reads, sorted: no hidden files, no bytecode."""
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            continue
        if path.suffix in (".pyc", ".pyo"):
            continue
        out.append(path)
    return out
