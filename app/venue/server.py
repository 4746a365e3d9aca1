"""The web server ``python -m app`` runs: Flet's FastAPI app behind an Origin check, on uvicorn.

It is what ``ft.run(main, view=None, host=..., port=..., no_cdn=True)`` builds (Flet's
``get_fastapi_web_app`` factory: the websocket, the static Flutter client served from the
flet_web package, uploads) with these additions:

* :class:`OriginCheck`, an ASGI middleware that refuses (403) a page request or websocket
  whose ``Origin`` header is present and is not the app's own origin (the same scheme, host
  and port as the request's ``Host``) or one of the configured ``allowed_origins``; and a
  request whose ``Host`` is a name other than ``localhost`` or a configured origin's host
  (a DNS-rebinding page would otherwise be "its own origin").
* :class:`FallbackFonts`, which serves the fallback fonts the client asks for (made at setup).
* :class:`NotIsolated`, which takes Flet's cross-origin isolation headers off, so Flutter draws on one thread.
* :class:`WakeLockScript`, which answers the wakelock plugin's page-side script with app/web/wake_lock.js.
* :class:`app.venue.printouts.Printouts`, which serves a printable the organizer opened to print.
* :mod:`app.venue.server_limits`: disconnected sessions dropped after seconds, sessions capped per
  address and overall, request headers given a deadline and a size, idle sockets closed.
* Flet's ``before_main`` records each session's client address once
  (:func:`app.venue.client_address.remember_peer`), for the organizer's gate.

uvicorn runs without proxy headers: the client address is the socket's peer, so no
``X-Forwarded-For`` can make a phone look like the organizer's own device.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from app.venue import client_address
from app.venue.printouts import Printouts
from app.venue.server_limits import (CONCURRENCY, KEEP_ALIVE_SECONDS, SESSION_KEEP_SECONDS, SessionLimits,
                               guarded_http)

__all__ = ["ALLOWED_ORIGINS_ENV", "ISOLATION_HEADERS", "NotIsolated", "OriginCheck", "build_app", "flet_web_app", "serve",
           "origin_of", "parse_origins"]

ALLOWED_ORIGINS_ENV: Final = "FARKLE_ALLOWED_ORIGINS"
"""Further origins allowed to open the app (a comma list, ``https://farkle.example``), e.g. behind a proxy."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
logger = logging.getLogger(__name__)


def origin_of(scheme: str, host: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of a scheme and a ``host[:port]``, the default port filled in; None if unreadable.

    >>> origin_of("ws", "127.0.0.1:8550"), origin_of("https", "Example.org")
    (('http', '127.0.0.1', 8550), ('https', 'example.org', 443))
    """
    scheme = {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme.lower())
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    try:
        parts = urlsplit(f"{scheme}://{host}")
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    if not parts.hostname or parts.path or parts.query or parts.username is not None:
        return None
    return scheme, parts.hostname.lower(), port


def _parse_url_origin(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return origin_of(parts.scheme, parts.netloc)


def parse_origins(text: str | None = None) -> tuple[tuple[str, str, int], ...]:
    """The configured extra origins: ``text`` (a comma list), else the environment.

    :raises ValueError: an entry is not an origin such as ``https://host:port``.
    """
    spec = os.environ.get(ALLOWED_ORIGINS_ENV, "") if text is None else text
    out: list[tuple[str, str, int]] = []
    for entry in (item.strip() for item in spec.split(",")):
        if not entry:
            continue
        origin = _parse_url_origin(entry)
        if origin is None:
            raise ValueError(f"{entry!r} is not an origin (scheme://host[:port]) for {ALLOWED_ORIGINS_ENV}.")
        out.append(origin)
    return tuple(out)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    return True


class OriginCheck:
    """Refuses cross-origin page requests and websockets before the app sees them.

    :param app: the ASGI app behind it.
    :param allowed_origins: further origins allowed besides the request's own.
    """

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[tuple[str, str, int]] = ()) -> None:
        self.app = app
        self.allowed = frozenset(allowed_origins)
        self.allowed_hosts = frozenset(host for _, host, _ in self.allowed)

    def refusal(self, scope: Scope) -> str | None:
        """Why this request is refused, or None to let it through."""
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
        own = origin_of(str(scope.get("scheme", "http")), headers.get("host", ""))
        if own is None:
            return "no readable Host header"
        host = own[1]
        if not (_is_ip(host) or host == "localhost" or host in self.allowed_hosts):
            return f"host {host!r} is not this app's (open it by its address, or configure {ALLOWED_ORIGINS_ENV})"
        origin = headers.get("origin")
        if origin is None:
            return None
        given = _parse_url_origin(origin)
        if given is not None and (given == own or given in self.allowed):
            return None
        return f"origin {origin!r} is not this app's"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        reason = self.refusal(scope)
        if reason is None:
            await self.app(scope, receive, send)
            return
        logger.warning("Refused %s %s: %s", scope["type"], scope.get("path", ""), reason)
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": "origin refused"})
            return
        body = f"Refused: {reason}.\n".encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode("ascii"))]})
        await send({"type": "http.response.body", "body": body})


CONNECTION_SCRIPT = (Path(__file__).parent.parent / "web" / "connection.js").read_text(encoding="utf-8")
"""Injected into the app's page: a banner when the server is gone, and a reload when it is back."""
LOCALE_SCRIPT = (Path(__file__).parent.parent / "web" / "locale.js").read_text(encoding="utf-8")
"""Injected into the app's page before Flutter starts: any language setting the browser reports starts the app."""


class ConnectionBanner:
    """Adds :data:`LOCALE_SCRIPT` and :data:`CONNECTION_SCRIPT` to every HTML page the server answers (not to other files).

    Python cannot draw anything once the connection is lost, so the page itself must say so.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        body: list[bytes] = []

        async def capture(message: Any) -> None:
            if message["type"] == "http.response.start":
                named = {key.lower(): value for key, value in message.get("headers", [])}
                html = named.get(b"content-type", b"").startswith(b"text/html")
                if not html or b"content-encoding" in named:
                    start["pass"] = True
                    await send(message)
                    return
                start.update(message)
                return
            if start.get("pass"):
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            page = b"".join(body)
            tag = f"<script>{LOCALE_SCRIPT}</script><script>{CONNECTION_SCRIPT}</script>".encode()
            page = page.replace(b"</head>", tag + b"</head>", 1) if b"</head>" in page else tag + page
            headers = [(key, value) for key, value in start.get("headers", []) if key.lower() != b"content-length"]
            headers.append((b"content-length", str(len(page)).encode("ascii")))
            await send({"type": "http.response.start", "status": start.get("status", 200), "headers": headers})
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, capture)


ISOLATION_HEADERS: Final = frozenset({b"cross-origin-opener-policy", b"cross-origin-embedder-policy"})
"""What Flet adds to every answer and this app takes off. With both, Chromium isolates the page and
Flutter draws with skwasm's two threads, which can corrupt its heap when text is laid out while a
frame is drawn (flutter/flutter#190039): the page then freezes, a core pinned. Without them
Flutter draws on one thread, as it does in every page that is not isolated."""


class NotIsolated:
    """Takes :data:`ISOLATION_HEADERS` off every HTTP answer, so the client draws on one thread."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def strip(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [(key, value) for key, value in message.get("headers", [])
                                                  if key.lower() not in ISOLATION_HEADERS]}
            await send(message)

        await self.app(scope, receive, strip)


FONTS_DIR_ENV: Final = "FARKLE_FONTS_DIR"
"""The folder of fallback fonts (``build_pwa.py --local-fonts``); default ``build/out/fonts`` (``make run``)."""
DEFAULT_FONTS_DIR: Final = Path(__file__).resolve().parents[2] / "build" / "out" / "fonts"
_FONT_PATH: Final = re.compile(r"/assets/fonts/((?:[A-Za-z0-9_-]+/)+[A-Za-z0-9_.-]+\.woff2)$")  # folder names have no dots: no ".."


class FallbackFonts:
    """Answers the Flutter client's requests for fallback fonts (``…/assets/fonts/<family>/…``:
    symbols, emoji, accented Latin, CJK), which Flet's server has not, from the fonts folder
    made at setup from the pinned npm packages the PWA uses; ``aliases.json`` there names the
    file for the paths that share one (the emoji and symbols parts). Other requests pass on.

    Without it, "→", emoji and CJK names draw as boxes in local mode (Flet's client, with
    no CDN, asks this server for them and got 404).
    """

    def __init__(self, app: ASGIApp, folder: Path) -> None:
        self.app = app
        self.fonts = folder / "assets" / "fonts"
        aliases = self.fonts / "aliases.json"
        self.aliases: dict[str, str] = json.loads(aliases.read_text(encoding="utf-8")) if aliases.is_file() else {}
        if not self.fonts.is_dir():
            logger.warning("No fallback fonts in %s (make run writes them): names in other scripts, emoji "
                           "and symbols show as boxes", folder)

    def font_file(self, scope: Scope) -> Path | None:
        """The font file this request asks for, or None if it is not one this folder has."""
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            return None
        wanted = _FONT_PATH.search(str(scope.get("path", "")))
        if wanted is None:
            return None
        file = self.fonts / self.aliases.get(wanted[1], wanted[1])
        return file if file.is_file() else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        file = self.font_file(scope)
        if file is None:
            await self.app(scope, receive, send)
            return
        body = await asyncio.to_thread(file.read_bytes)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"font/woff2"), (b"content-length", str(len(body)).encode()),
                                (b"cache-control", b"public, max-age=86400")]})
        await send({"type": "http.response.body", "body": body if scope["method"] == "GET" else b""})


WAKE_LOCK_SCRIPT = (Path(__file__).parent.parent / "web" / "wake_lock.js").read_text(encoding="utf-8")
"""The page's side of keeping the screen on at the table (app/views/table_awake.py)."""
WAKE_LOCK_PATH: Final = "/assets/packages/wakelock_plus/assets/no_sleep.js"
"""Where Flutter's wakelock plugin (``ft.Wakelock``) loads its page-side script from."""


class WakeLockScript:
    """Answers the wakelock plugin's request for its page-side script with :data:`WAKE_LOCK_SCRIPT`,
    which asks for the lock again when the page is shown again and says when the browser has
    none (the plugin's own NoSleep.js does neither); the PWA ships it at the same address."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD")
                or not str(scope.get("path", "")).endswith(WAKE_LOCK_PATH)):
            await self.app(scope, receive, send)
            return
        body = WAKE_LOCK_SCRIPT.encode("utf-8")
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/javascript; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-cache")]})
        await send({"type": "http.response.body", "body": body if scope["method"] == "GET" else b""})


def build_app(main: Callable[[Any], Any], *, no_cdn: bool = True,
              allowed_origins: Iterable[tuple[str, str, int]] = ()) -> ASGIApp:
    """Flet's web app for ``main`` (as ``ft.run(view=None)`` builds it) behind :class:`OriginCheck`."""
    client_address.mark_network_served()
    os.environ.setdefault("FLET_SESSION_TIMEOUT", str(SESSION_KEEP_SECONDS))  # Flet's default: an hour
    fonts = Path(os.environ.get(FONTS_DIR_ENV) or DEFAULT_FONTS_DIR)
    served = Printouts(WakeLockScript(FallbackFonts(NotIsolated(flet_web_app(main, no_cdn)), fonts)))
    return OriginCheck(SessionLimits(ConnectionBanner(served)), allowed_origins)


def flet_web_app(main: Callable[[Any], Any], no_cdn: bool = True) -> Any:
    """Flet's FastAPI app for ``main``: the websocket, the client's files and Flet's other routes
    (its ``routes`` list every one; :func:`build_app` adds the fonts and the checks around it)."""
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web.fastapi.serve_fastapi_web_app import get_fastapi_web_app  # type: ignore[import-untyped]

    assets = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "assets")
    return without_unused_routes(get_fastapi_web_app(
        main,
        before_main=client_address.remember_peer,
        page_name=os.environ.get("FLET_WEB_APP_PATH", ""),
        assets_dir=assets if os.path.isdir(assets) else None,
        upload_dir=None,
        web_renderer=WebRenderer.AUTO,
        route_url_strategy=RouteUrlStrategy.PATH,
        no_cdn=no_cdn,
    ))


UNUSED_ROUTES: Final = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/oauth_callback"})
"""What FastAPI and Flet serve by default and this app never uses: an API's self-description and
an OAuth sign-in's return address (the app signs in by passphrase). Not served, so not attacked."""


def without_unused_routes(app: Any) -> Any:
    """``app`` (and the Flet app mounted in it) without :data:`UNUSED_ROUTES`."""
    from starlette.routing import Mount

    for router_app in (app, *(route.app for route in app.routes if isinstance(route, Mount))):
        router_app.router.routes = [route for route in router_app.router.routes
                                    if getattr(route, "path", None) not in UNUSED_ROUTES]
    return app


def serve(main: Callable[[Any], Any], host: str, port: int, *, no_cdn: bool = True,
          allowed_origins: Iterable[tuple[str, str, int]] = ()) -> None:
    """Serve the app until SIGINT/SIGTERM (uvicorn's own handlers stop it gracefully)."""
    import uvicorn

    config = uvicorn.Config(build_app(main, no_cdn=no_cdn, allowed_origins=allowed_origins), host=host, port=port,
                            ws="websockets-sansio", proxy_headers=False, log_level="warning",
                            timeout_graceful_shutdown=2, http=guarded_http(), timeout_keep_alive=KEEP_ALIVE_SECONDS,
                            limit_concurrency=CONCURRENCY)
    uvicorn.Server(config).run()
