"""Where the local app keeps its data folder on each platform."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final, Optional

__all__ = ["APP_DIR_NAME", "DATA_DIR_ENV", "FLET_DATA_DIR_ENV", "default_data_dir"]

APP_DIR_NAME: Final = "farkle-table"
DATA_DIR_ENV: Final = "FARKLE_TABLE_DATA"
FLET_DATA_DIR_ENV: Final = "FLET_APP_STORAGE_DATA"
"""Set by Flet in packaged (``flet build``) apps and by ``flet run``: the
app's durable data folder on a phone, where a home folder is not usable."""


def default_data_dir(environ: Optional[Mapping[str, str]] = None,
                     platform: Optional[str] = None,
                     home: Optional[Path] = None) -> Path:
    """The per-user folder for the local app's data.

    ``$FARKLE_TABLE_DATA`` wins; then ``$FLET_APP_STORAGE_DATA/farkle-table``
    (a packaged Flet app on a phone, or ``flet run``); otherwise
    ``$XDG_DATA_HOME/farkle-table`` or
    ``~/.local/share/farkle-table`` on Linux, ``~/Library/Application
    Support/farkle-table`` on macOS, ``%LOCALAPPDATA%\\farkle-table`` on
    Windows.  The parameters exist for tests; the app passes none.
    """
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if env.get(DATA_DIR_ENV):
        return Path(env[DATA_DIR_ENV]).expanduser()
    if env.get(FLET_DATA_DIR_ENV):
        return Path(env[FLET_DATA_DIR_ENV]) / APP_DIR_NAME
    if platform == "darwin":
        return home / "Library" / "Application Support" / APP_DIR_NAME
    if platform.startswith("win"):
        base = env.get("LOCALAPPDATA") or env.get("APPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / APP_DIR_NAME
    xdg = env.get("XDG_DATA_HOME")
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base_dir / APP_DIR_NAME
