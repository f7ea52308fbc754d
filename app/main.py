"""The FastAPI application. Start reading at create_app().

Layers, top to bottom: routers in app/routes (thin: parse, call the service, render or
serialize) → GameService and the game adapters in app/games → the pure engines in
app/engine; games persist through app/store.py, heavy work runs in the worker processes of
app/pool.py, and app/live.py streams every change to those watching. This module wires those
together and runs the clock watch, the sweep of abandoned games and the Go reviews;
app/middleware.py adds what every request needs (security headers, body limits, the
cross-site check, the browser-id cookie, errors shaped {detail, code}). What one client
may take — connections, streams, new games, analyses — is bounded by app/limits.py
(connections at the socket, in app/connections.py, before a request reaches this app).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from app import middleware
from app.errors import GameNotFound
from app.games import GameService
from app.games.go_analysis import Analyst
from app.games.go_review import Reviewer
from app.games.kinds import ADAPTERS, BY_KIND
from app.games.tours import TourSolver
from app.limits import Limits, analyses_limiter
from app.live import LiveHub
from app.pool import WorkerPool
from app.routes import (
    api_games,
    api_go,
    api_knights_tour,
    api_tictactoe,
    docs,
    fragments,
    models,
    pages,
    ui,
    ui_chat,
    ui_go,
    ui_knights_tour,
    ui_tictactoe,
)
from app.store import DEFAULT_DATABASE_URL, SWEEP_BATCH, GameStore

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICK = 0.25  # seconds between looks for clocks that ran out: a flag falls this late
SWEEP_SECONDS = 300.0  # between sweeps for abandoned games
ABANDONED_HOURS = 24.0  # TABLETOP_ABANDONED_HOURS' default: a game nobody played is kept this long
log = logging.getLogger("tabletop")

async def watch_clocks(service: GameService) -> None:
    """Ends games whose clock ran out, whether or not anyone asks about them: every
    CLOCK_TICK seconds, from the deadlines stored with the games (a restart loses none)."""
    while True:
        try:
            await run_in_threadpool(service.expire_due)
        except Exception:  # noqa: BLE001 - a bad game must not stop every clock
            log.exception("the clock watch failed")
        await asyncio.sleep(CLOCK_TICK)


def abandoned_hours() -> float:
    """TABLETOP_ABANDONED_HOURS (default ABANDONED_HOURS): how long a game no person has
    moved in, and that has not ended, is kept after its last change."""
    text = os.environ.get("TABLETOP_ABANDONED_HOURS", "").strip()
    try:
        hours = float(text) if text else ABANDONED_HOURS
    except ValueError:
        hours = 0.0
    if not 0 < hours < float("inf"):
        raise ValueError(f"TABLETOP_ABANDONED_HOURS is a number of hours above 0 (default "
                         f"{ABANDONED_HOURS:g}), not {text[:40]!r}.")
    return hours


async def sweep_abandoned(store: GameStore, hours: float) -> None:
    """Deletes the games nobody played in once nothing has changed them for `hours`: every
    SWEEP_SECONDS, batch after batch until one is not full, each batch off the event loop in
    a transaction of its own (app/store.py's sweep_abandoned; every instance may sweep)."""
    while True:
        removed = 0
        try:
            while True:
                batch = await run_in_threadpool(store.sweep_abandoned,
                                                time.time() - hours * 3600)
                removed += len(batch)
                if len(batch) < SWEEP_BATCH:
                    break
        except Exception:  # noqa: BLE001 - a failed sweep is tried again at the next one
            log.exception("the sweep for abandoned games failed")
        if removed:  # a warning: the level shown without a logging configuration of ours
            log.warning("removed %d abandoned games (no person moved in them, unchanged for"
                        " %g hours)", removed, hours)
        await asyncio.sleep(SWEEP_SECONDS)


def create_app(database_url: str | None = None, rng: random.Random | None = None,
               warm_pool: bool = False, pool: WorkerPool | None = None,
               limits: Limits | None = None) -> FastAPI:
    """Builds the application; tests pass their own database, a seeded rng, a pool or
    limits (else from the environment, app/limits.py). With `warm_pool` the worker processes
    start with the server (see serve)."""
    url = database_url or os.environ.get("TABLETOP_DATABASE_URL", DEFAULT_DATABASE_URL)
    abandoned = abandoned_hours()
    limits = limits or Limits.from_env()
    workers = pool or WorkerPool()

    store = GameStore(url)
    hub = LiveHub(store, limits)
    service = GameService(store, ADAPTERS, rng=rng, pool=workers, live=hub, limits=limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        if warm_pool:
            workers.start()
        watch = asyncio.create_task(watch_clocks(service))
        sweep = asyncio.create_task(sweep_abandoned(store, abandoned))
        yield
        watch.cancel()
        sweep.cancel()
        await reviewer.close()  # stale from now: asked again, they go on where they stood
        hub.close()  # open event streams end; browsers reconnect to the next server
        await workers.shutdown()  # at once, mid-search or not: nothing in them is kept
        store.close()  # PostgreSQL's pooled connections

    app = FastAPI(
        lifespan=lifespan,
        title="Tabletop",
        summary="Classic board games against a computer.",
        version="0.1.0",
        docs_url=None,  # served by app/routes/docs.py, from our own copy of Swagger UI
        redoc_url=None,
    )
    app.state.service = service
    app.state.hub = hub
    heavy_asks = analyses_limiter(limits)  # one rate for both: anonymous work in the pool
    app.state.tours = TourSolver(workers, heavy_asks)
    app.state.analyst = analyst = Analyst(workers, heavy_asks)
    app.state.reviewer = reviewer = Reviewer(service, analyst)
    app.state.root = ROOT
    middleware.install(app)

    @app.exception_handler(GameNotFound)
    async def game_not_found(request: Request, error: GameNotFound) -> Response:
        """/ui/<kind>/… answers with that game's not-found view; everything else with JSON."""
        parts = request.url.path.split("/")
        if len(parts) > 2 and parts[1] == "ui" and parts[2] in BY_KIND:
            return fragments.missing_fragment(request, parts[2], error.game_id)
        return middleware.error_response(error.status, error.detail, error.code)

    app.include_router(api_go.router)  # before api_games: /api/games/import is not an id
    app.include_router(api_games.router)
    app.include_router(api_tictactoe.router)
    app.include_router(api_knights_tour.router)
    app.include_router(ui.router)
    app.include_router(ui_tictactoe.router)
    app.include_router(ui_go.router)
    app.include_router(ui_knights_tour.router)
    app.include_router(ui_chat.router)
    app.include_router(docs.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.mount("/dist", StaticFiles(directory=ROOT / "dist", check_dir=False), name="dist")
    app.include_router(pages.router)  # last: the shell answers every other page path
    models.document_errors(app)
    return app


def serve() -> FastAPI:
    """The application as `python -m app` serves it: worker processes started up front."""
    return create_app(warm_pool=True)
