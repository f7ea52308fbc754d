"""Baselines: for bench/http_moves.py the smallest FastAPI app that answers JSON
(`create_app`); for bench/first_load.py a page with the shell's style sheet and htmx and
nothing of Tabletop's own (`create_shell_floor`)."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent.parent / "static"
HTMX = "/static/vendor/htmx-2.0.11.min.js"  # the one static/index.html loads
SHELL_FLOOR = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Floor</title>
<link rel="stylesheet" href="/static/css/app.css"><script src="{HTMX}" defer></script>
</head><body><main><h1>The shell's files, no app</h1></main></body></html>"""


def create_app() -> FastAPI:
    app = FastAPI()

    @app.post("/ping")
    def ping() -> dict[str, bool]:
        return {"ok": True}

    return app


def create_shell_floor() -> FastAPI:
    """The least a page with the shell's files costs: the same style sheet and htmx, served
    the same way, and none of Tabletop's script, fragments or game."""
    app = FastAPI()
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/")
    def page() -> HTMLResponse:
        return HTMLResponse(SHELL_FLOOR)

    return app
