"""Where the app's Python runs: on a host (the local server) or in the browser (the offline PWA).

Asked in one place, by :func:`in_browser`: the PWA has no threads, no files, no server
and no organizer gate, and the screens and services that differ ask this.
"""

from __future__ import annotations

import sys

__all__ = ["in_browser"]


def in_browser() -> bool:
    """Whether Python runs in the browser: the offline PWA's Pyodide (``sys.platform`` is ``emscripten``)."""
    return sys.platform == "emscripten"
