"""/docs, the Swagger UI page: everything it loads comes from our own origin (Swagger UI
from dist/swagger-ui/, which the Rollup build copies from the pinned swagger-ui-dist), and
its Content-Security-Policy names no other host and allows no inline code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]


def referenced_urls(html: str) -> list[str]:
    return re.findall(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""", html)


def test_docs_loads_only_same_origin_urls(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    urls = referenced_urls(response.text)
    assert "/dist/swagger-ui/swagger-ui-bundle.js" in urls
    assert "/dist/swagger-ui/swagger-ui.css" in urls
    for url in urls:
        assert "http://" not in url and "https://" not in url, url
        assert url.startswith("/") and not url.startswith("//"), url
    assert "<script>" not in response.text and "<style" not in response.text


def test_docs_policy_allows_only_its_own_origin(client: TestClient) -> None:
    policy = client.get("/docs").headers["content-security-policy"]
    assert "http" not in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    for name in ("default-src", "script-src", "style-src", "connect-src"):
        assert directives[name] == "'self'", name
    for name, sources in directives.items():
        assert set(sources.split()) <= {"'self'", "'none'", "data:"}, name


def test_docs_assets_are_built_and_served(client: TestClient) -> None:
    if not (ROOT / "dist" / "swagger-ui").is_dir():
        pytest.fail("dist/swagger-ui/ is not built: run `make build` (make test does it).")
    for url in referenced_urls(client.get("/docs").text):
        if url.startswith("/dist/"):
            assert (ROOT / url.removeprefix("/")).is_file(), url
        assert client.get(url).status_code == 200, url
    assert (ROOT / "dist" / "swagger-ui" / "LICENSE").is_file()  # shipped with the copy
