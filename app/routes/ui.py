"""HTML fragments shared by all games: the home page and the not-found view."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.templating import templates

router = APIRouter(prefix="/ui", include_in_schema=False)


@router.get("/home", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "home.html")


@router.get("/not-found", response_class=HTMLResponse)
def not_found(request: Request, path: str = "") -> HTMLResponse:
    return templates.TemplateResponse(request, "not_found.html", {"path": path}, status_code=404)
