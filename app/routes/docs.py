"""/docs: FastAPI's OpenAPI explorer (Swagger UI), served from our own origin under the
site's Content-Security-Policy (app/middleware.py) like every other page.

Swagger UI is the swagger-ui-dist version pinned in package.json, which the Rollup build
copies into dist/swagger-ui/; the page starts it with static/js/docs/swagger-init.js, so
it needs no CDN and no inline script."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tabletop API</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dist/swagger-ui/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi-url="/openapi.json"></div>
<script src="/dist/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/static/js/docs/swagger-init.js"></script>
</body>
</html>
"""


@router.get("/docs")
def swagger_ui() -> HTMLResponse:
    return HTMLResponse(PAGE)
