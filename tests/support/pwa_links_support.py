"""Static hosts for the PWA's link and update tests (tests/browser/test_browser_pwa_links.py).

* ``plain``: what ``python3 -m http.server`` does (a missing path is a bare 404);
* ``pages``: what GitHub Pages and most static hosts do (a missing path gets the site's
  ``404.html``, with status 404).

Both serve the site under a sub-path (``/apps/farkle-table/``, as tests/support/pwa_harness.py
does) and log every request (path and status), so a test can count what was downloaded,
and the bytes each response took on the wire, headers included (``transfers``; read by
tests/bench/bench_phones.py).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.pwa_harness import SUB_PATH

__all__ = ["StaticHost", "static_host", "setup_code", "SUB_PATH"]


class _CountingWriter:
    """The handler's socket writer, counting the bytes written through it."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.count = 0

    def write(self, data: bytes) -> Any:
        written = self.raw.write(data)
        self.count += len(data) if written is None else written
        return written

    def __getattr__(self, name: str) -> Any:  # flush, close, closed...
        return getattr(self.raw, name)


class _LoggingHandler(http.server.SimpleHTTPRequestHandler):
    host: "StaticHost"
    wfile: Any
    _status = 0  # of the request being answered (0: none yet)

    def setup(self) -> None:
        super().setup()
        self.wfile = _CountingWriter(self.wfile)

    def handle_one_request(self) -> None:
        before, self._status = self.wfile.count, 0
        try:
            super().handle_one_request()
        finally:
            if self._status:  # a request was answered (a closed keep-alive connection is not one)
                self.host.transfers.append((getattr(self, "path", "").split("?", 1)[0], self._status,
                                            self.wfile.count - before))

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        self._status = int(code) if str(code).isdigit() else 0
        self.host.log.append((self.path.split("?", 1)[0], self._status))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = self.host.site / "404.html"
        if code != 404 or not self.host.pages or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@dataclass
class StaticHost:
    site: Path
    root: Path
    pages: bool = False
    log: list[tuple[str, int]] = field(default_factory=list)
    transfers: list[tuple[str, int, int]] = field(default_factory=list)
    """(path, status, bytes sent: status line, headers and body) of every answered request."""
    httpd: http.server.ThreadingHTTPServer | None = None

    def start(self) -> "StaticHost":
        mount = self.root / SUB_PATH.strip("/")
        mount.parent.mkdir(parents=True, exist_ok=True)
        if not mount.exists():
            mount.symlink_to(self.site, target_is_directory=True)
        handler = type("Handler", (_LoggingHandler,), {"host": self})
        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=str(self.root)))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    @property
    def url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_port}{SUB_PATH}"

    def downloads(self) -> list[str]:
        """Site files answered with content (200) since the log was last cleared."""
        return [path.removeprefix(SUB_PATH) for path, status in self.log if status == 200]

    def bytes_sent(self) -> int:
        """Bytes sent in answers since ``transfers`` was last cleared."""
        return sum(size for _, _, size in list(self.transfers))

    def stop(self) -> None:
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


@contextlib.contextmanager
def static_host(site: Path, root: Path, pages: bool = False) -> Iterator[StaticHost]:
    host = StaticHost(site, root, pages).start()
    try:
        yield host
    finally:
        host.stop()


def setup_code(table: int = 3) -> str:
    """A real table setup code (house rules, four players, one of them with an accent)."""
    from engine import Rules, SeatedPlayer, TableSetup, encode_setup

    players = (SeatedPlayer(12, "Ann"), SeatedPlayer(7, "Bob"), SeatedPlayer(31, "Zoë"), SeatedPlayer(4, "Di"))
    return encode_setup(TableSetup("MAYOR-26", 1, table, players, Rules(), bytes(range(16))))
