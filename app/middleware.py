"""What every request passes through, and the one shape every refusal takes.

Start at `install`, which app/main.py calls. From the outside in:

- `SecurityHeaders` adds the security headers to every response — a 500 included: it is the
  last line of defence, turning any unhandled exception into a JSON 500 {detail, code} that
  carries them too (and logging the exception), and a request the stopping server cuts
  short (a search still running after its grace period) into a JSON 503 with Retry-After.
- `BodyLimit` refuses a request body larger than its content type allows with 413, before
  reading it when Content-Length says so, else as soon as the bytes read pass the limit —
  never after parsing it.
- `SameSiteOnly` refuses changes asked for by another website (403), cookies or not.
- `BrowserCookie` gives every browser a random id cookie (HttpOnly, SameSite=Lax; Secure
  when the request came over https — directly, or as X-Forwarded-Proto from a trusted proxy
  — or always or never, as TABLETOP_SECURE_COOKIE says): it holds the browser's seats at its
  games, and its tally hangs off it.

The exception handlers render ApiError, validation errors and Starlette's HTTP errors (404,
405 with its Allow header, 413) as {"detail": <sentence>, "code": <word>}.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import cookie_parser
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import ApiError
from app.games.options import error_code, explain

log = logging.getLogger("tabletop")

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
MAX_JSON_BYTES = 64 * 1024  # a move or options object is under 1 KB; 64 KB is generous
MAX_UPLOAD_BYTES = 1_000_000 + 64 * 1024  # an SGF file (app/routes/api_go.py) plus its form
UPLOAD_TYPES = ("multipart/form-data", "application/x-go-sgf", "application/sgf", "text/plain")
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")  # what an Allow header may name
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")  # they change nothing, from any site
BROWSER_COOKIE = "tabletop_browser"
BROWSER_COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers accept
BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")  # what token_urlsafe makes; else a new one
SECURE_COOKIE = ("auto", "always", "never")  # TABLETOP_SECURE_COOKIE; auto: over https only
SHUTTING_DOWN_RETRY = 5  # seconds: a restarting server is back (or another instance answers)


def error_body(detail: str, code: str) -> bytes:
    return json.dumps({"detail": detail, "code": code}).encode()


def error_response(status: int, detail: str, code: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code}, status_code=status, headers=headers)


async def send_error(send: Send, status: int, detail: str, code: str,
                     extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """A complete JSON error response, sent straight from a middleware."""
    body = error_body(detail, code)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


class HttpMiddleware:
    """A pure ASGI middleware for HTTP requests; other scopes (lifespan) pass through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class SecurityHeaders(HttpMiddleware):
    """Security headers on every response; no-cache revalidation for static files; and a
    JSON 500 with those headers for any exception nothing else handled."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        static = scope["path"].startswith(("/static/", "/dist/"))
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    if name.decode() not in headers:
                        headers.append(name.decode(), value.decode())
                if static:
                    headers["cache-control"] = "no-cache"
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except asyncio.CancelledError:
            # The server is stopping and cut this request short. Answered here, uvicorn has
            # nothing left to do for it; re-raised, it would log the cancellation as an
            # error and answer a plain-text 500. What the request stored before stays.
            if not started:
                await send_error(
                    send_with_headers, 503, "The server is restarting; anything already "
                    "played is kept. Try again in a few seconds.", "shutting_down",
                    [(b"retry-after", str(SHUTTING_DOWN_RETRY).encode())])
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), scope["path"])
            if started:
                raise  # too late for a clean answer: the server closes the connection
            await send_error(send_with_headers, 500, "Something went wrong on the server; "
                             "nothing was changed. Try again.", "internal_error")


class BodyLimit(HttpMiddleware):
    """413 for bodies over MAX_JSON_BYTES (uploads: MAX_UPLOAD_BYTES)."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        limit = MAX_UPLOAD_BYTES if content_type in UPLOAD_TYPES else MAX_JSON_BYTES
        sentence = (f"The request body is larger than {limit:,} bytes, the most this "
                    "endpoint reads; nothing was changed.")
        declared = headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            # Refused before a byte of the body is read; the connection closes after.
            await send_error(send, 413, sentence, "too_large", [(b"connection", b"close")])
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise StarletteHTTPException(413, sentence)
            return message

        await self.app(scope, limited_receive, send)


class SameSiteOnly(HttpMiddleware):
    """Refuses (403) a request that would change something when it comes from another site:
    an Origin that is not this host, or Sec-Fetch-Site: cross-site — cookies or not, so no
    other website can make a visitor's browser play a move."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        foreign = headers.get("sec-fetch-site") == "cross-site"
        if origin is not None:
            host = headers.get("host", "")
            foreign = foreign or origin == "null" or urlsplit(origin).netloc != host
        if foreign:
            await send_error(send, 403, "Requests from another website cannot change games "
                                        "here; open Tabletop itself to play.", "cross_site")
            return
        await self.app(scope, receive, send)


class BrowserCookie(HttpMiddleware):
    """Every browser gets a random id cookie (scope["state"]["browser"]); `secure` is one of
    SECURE_COOKIE."""

    def __init__(self, app: ASGIApp, secure: str = "auto") -> None:
        super().__init__(app)
        self.secure = secure

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        browser = cookie_parser(Headers(scope=scope).get("cookie", "")).get(BROWSER_COOKIE, "")
        fresh = BROWSER_ID.fullmatch(browser) is None
        if fresh:
            browser = secrets.token_urlsafe(16)
        scope.setdefault("state", {})["browser"] = browser

        # uvicorn has set the scheme from X-Forwarded-Proto if a trusted proxy sent it.
        secure = self.secure == "always" or (self.secure == "auto" and
                                             scope.get("scheme") == "https")
        attributes = "; Secure" if secure else ""

        async def send_with_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                MutableHeaders(scope=message).append(
                    "set-cookie", f"{BROWSER_COOKIE}={browser}; HttpOnly; Max-Age="
                                  f"{BROWSER_COOKIE_MAX_AGE}; Path=/; SameSite=Lax{attributes}")
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def allowed_methods(request: Request) -> list[str]:
    """Every method that a route answers on this path (Starlette's own Allow header names
    only the first route that matched the path). Of the API's paths (its OpenAPI
    document), a path named literally is that route's alone: /api/games/import is no game
    id, so the methods of /api/games/{game_id} are not its own."""
    path = request.url.path
    documented = [(template.count("{"), [method.upper() for method in operations])
                  for template, operations in request.app.openapi()["paths"].items()
                  if re.fullmatch(re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)), path)]
    if documented:
        fewest = min(params for params, _ in documented)
        named = {method for params, methods in documented if params == fewest
                 for method in methods}
        return [method for method in METHODS if method in named]
    return [method for method in METHODS
            if any(route.matches({**request.scope, "method": method})[0] == Match.FULL
                   for route in request.app.router.routes)]


def install(app: FastAPI) -> None:
    """Adds the middlewares (outermost last) and the exception handlers to `app`."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.detail, error.code, error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return error_response(422, explain(error.errors()), error_code(error.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        status = error.status_code
        detail = error.detail if isinstance(error.detail, str) else "The request was refused."
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(status,
                                                                                  "error")
        if status == 404:
            detail = f"There is nothing at {request.url.path[:80]}."
        elif status == 405:
            detail = f"{request.method} is not allowed on {request.url.path[:80]}."
            error.headers = {"Allow": ", ".join(allowed_methods(request))}
        elif status == 400:  # FastAPI could not parse the body (e.g. a broken form)
            status, code = 422, "malformed_request"
            detail = "The request body could not be read; send JSON (or the form) it expects."
        return error_response(status, detail, code, dict(error.headers or {}))

    secure = os.environ.get("TABLETOP_SECURE_COOKIE", "auto")
    if secure not in SECURE_COOKIE:  # refused at start-up, not at the first request
        raise SystemExit(f"TABLETOP_SECURE_COOKIE={secure!r}: expected one of "
                         f"{', '.join(SECURE_COOKIE)}.")
    app.add_middleware(BrowserCookie, secure=secure)
    app.add_middleware(SameSiteOnly)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
