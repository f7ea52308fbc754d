"""The FastAPI application. Start reading at create_app().

Layers, top to bottom: routers in app/routes (thin: parse, call the service, render or
serialize) → GameService and the game adapters in app/games → the pure engines in
app/engine; games persist through app/store.py. This module wires those together and adds
what every response needs: security headers, revalidated static files, the browser-id
cookie behind "this browser's games", and JSON errors shaped {"detail", "code"}.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import ApiError
from app.games import GameService
from app.games.go import GoAdapter
from app.games.knights_tour import KnightsTourAdapter
from app.games.tictactoe import TicTacToeAdapter
from app.routes import (
    api_games,
    api_knights_tour,
    api_sgf,
    api_tictactoe,
    docs,
    pages,
    ui,
    ui_go,
    ui_knights_tour,
    ui_tictactoe,
)
from app.store import DEFAULT_DATABASE_URL, GameStore

ROOT = Path(__file__).resolve().parent.parent
BROWSER_COOKIE = "tabletop_browser"
BROWSER_COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers accept

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)


class SecurityHeaders:
    """Adds the security headers to every response, and makes browsers revalidate static
    files (by ETag) instead of using a stale copy after a rebuild."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                if b"content-security-policy" not in names:  # /docs sets its own
                    headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"same-origin"),
                    (b"x-frame-options", b"DENY"),
                ]
                if path.startswith(("/static/", "/dist/")):
                    headers.append((b"cache-control", b"no-cache"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def error_response(status: int, detail: str, code: str) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code}, status_code=status)


def validation_sentence(error: RequestValidationError) -> str:
    """The first validation problem as a sentence a person can act on."""
    problems = error.errors()
    if not problems:
        return "The request could not be read."
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = str(first.get("msg", "is not valid")).rstrip(".")
    if first.get("type") == "json_invalid":
        return "The request body is not valid JSON."
    return f"{where or 'The request'}: {message}." if where else f"{message}."


def create_app(database_url: str | None = None, rng: random.Random | None = None,
               warm_pool: bool = False) -> FastAPI:
    """Builds the application; tests pass their own database and a seeded rng. With
    `warm_pool` the computer players' worker processes start with the server (see serve)."""
    url = database_url or os.environ.get("TABLETOP_DATABASE_URL", DEFAULT_DATABASE_URL)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_pool:
            app.state.service.pool.start()
        yield
        app.state.service.pool.shutdown()  # the computer players' worker processes

    app = FastAPI(
        lifespan=lifespan,
        title="Tabletop",
        summary="Classic board games against a computer.",
        version="0.1.0",
        docs_url=None,  # served by app/routes/docs.py, with a CSP of its own
        redoc_url=None,
    )
    adapters = {"tictactoe": TicTacToeAdapter(), "go": GoAdapter(),
                "knights-tour": KnightsTourAdapter()}
    app.state.service = GameService(GameStore(url), adapters, rng=rng)
    app.state.root = ROOT

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.detail, error.code)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return error_response(422, validation_sentence(error), "malformed_request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = error.detail if isinstance(error.detail, str) else "The request was refused."
        if error.status_code == 404:
            detail = f"There is nothing at {request.url.path}."
        elif error.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}."
        codes = {404: "not_found", 405: "method_not_allowed"}
        return error_response(error.status_code, detail, codes.get(error.status_code, "error"))

    @app.middleware("http")
    async def browser_cookie(request: Request, call_next):  # type: ignore[no-untyped-def]
        """Every browser gets a random id cookie; its games and tally hang off it."""
        browser = request.cookies.get(BROWSER_COOKIE)
        fresh = browser is None or not 8 <= len(browser) <= 64
        request.state.browser = secrets.token_urlsafe(16) if fresh else browser
        response = await call_next(request)
        if fresh:
            response.set_cookie(BROWSER_COOKIE, request.state.browser,
                                max_age=BROWSER_COOKIE_MAX_AGE, httponly=True, samesite="lax")
        return response

    app.add_middleware(SecurityHeaders)

    app.include_router(api_sgf.router)  # before api_games: /api/games/import is not an id
    app.include_router(api_games.router)
    app.include_router(api_tictactoe.router)
    app.include_router(api_knights_tour.router)
    app.include_router(ui.router)
    app.include_router(ui_tictactoe.router)
    app.include_router(ui_go.router)
    app.include_router(ui_knights_tour.router)
    app.include_router(docs.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.mount("/dist", StaticFiles(directory=ROOT / "dist", check_dir=False), name="dist")
    app.include_router(pages.router)  # last: the shell answers every other page path
    return app


def serve() -> FastAPI:
    """The application as `python -m app` serves it: worker processes started up front."""
    return create_app(warm_pool=True)
