"""/docs in Chromium: Swagger UI renders the API's operations, loading nothing from another
origin, with no console error or Content-Security-Policy violation (Chromium logs those as
console errors, and the page fixture fails on any)."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page, expect


def test_docs_lists_the_operations_from_our_own_origin(page: Page) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("/docs")
    expect(page.locator(".opblock").first).to_be_visible()
    expect(page.locator(".opblock-post", has_text="/api/games").first).to_be_visible()
    origin = urlsplit(page.url).netloc
    elsewhere = [url for url in requested
                 if urlsplit(url).scheme != "data" and urlsplit(url).netloc != origin]
    assert elsewhere == []
