"""/docs: FastAPI's OpenAPI explorer (Swagger UI), under a Content-Security-Policy that
allows its stylesheet and script from their CDN and its one inline script by hash, so the
rest of the site keeps a policy without 'unsafe-inline'."""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import APIRouter
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

CDN = "https://cdn.jsdelivr.net"


def inline_script_hashes(html: str) -> list[str]:
    scripts = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in scripts
    ]


@router.get("/docs")
def swagger_ui() -> HTMLResponse:
    page = get_swagger_ui_html(openapi_url="/openapi.json", title="Tabletop API")
    html = page.body.decode()
    policy = (
        f"default-src 'self'; script-src 'self' {CDN} {' '.join(inline_script_hashes(html))}; "
        f"style-src 'self' {CDN}; img-src 'self' data: https://fastapi.tiangolo.com; "
        "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
    )
    return HTMLResponse(html, headers={"Content-Security-Policy": policy})
