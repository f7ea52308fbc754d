"""A browser that starts games faster than one client may is told so, in the view, with
the way to the games it has (app/limits.py: 429 from POST /api/games)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect


@pytest.fixture
def strict_server(tmp_path: Path, live_server_class: type[Any]) -> Iterator[Any]:
    """A server of its own that lets a client start two games, then one a minute."""
    live = live_server_class(tmp_path / "tabletop.db", {
        "TABLETOP_NEW_GAMES_BURST": "2", "TABLETOP_NEW_GAMES_PER_MINUTE": "1"})
    live.start()
    yield live
    live.stop()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800},
                                      {"width": 375, "height": 740}])
def test_starting_games_too_fast_says_so_and_leads_to_my_games(
        browser: Browser, strict_server: Any, viewport: dict[str, int]) -> None:
    context = browser.new_context(base_url=strict_server.url, viewport=viewport)
    page = context.new_page()
    try:
        for path in ("/tictactoe", "/go"):  # two games: the burst
            page.goto(path)
            expect(page.locator("[data-live]").first).to_be_attached()
        page.goto("/knights-tour")  # the third is refused
        expect(page.get_by_role("heading", level=1)).to_have_text("Too many new games at once")
        expect(page.get_by_text("nothing was created")).to_be_visible()
        page.locator("#main").get_by_role("link", name="My games").click()
        expect(page).to_have_url(f"{strict_server.url}/games")
    finally:
        context.close()
