"""/games in the browser at 1280×800 and 375×740: a game merely opened is not listed; each
row names the game with its board, the opponent and when it was last played, and says how
it stands in words; the page never scrolls sideways; a tap anywhere on a row opens the game.
Screenshots go to /tmp/shots/games-list/."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, Page, expect

SHOTS = Path("/tmp/shots/games-list")
VIEWPORTS = [{"width": 1280, "height": 800}, {"width": 375, "height": 740}]


def api(page: Page, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """A request with this browser's cookies (its games are this browser's)."""
    response = page.request.fetch(path, method=method, data=body)
    assert response.ok, response.text()
    result: dict[str, Any] = response.json()
    return result


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["desktop", "phone"])
def test_the_list_in_words(people: Callable[..., Page], viewport: dict[str, int]) -> None:
    page = people(viewport)
    page.goto("/go?size=13")  # merely opening a game: not one to list
    expect(page.locator("#go-board")).to_be_visible()
    page.get_by_role("link", name="My games").first.click()
    expect(page).to_have_url(re.compile(r"/games$"))
    expect(page.get_by_text("No games yet in this browser")).to_be_visible()

    # A Go game at one screen, with a stone played by a click.
    page.goto("/go?size=13&opponent=local")
    page.locator("#go-point-D4").click()
    if viewport["width"] < 600:  # a phone confirms a tap on a big board: tap again
        page.locator("#go-point-D4").click()
    expect(page.locator("#go-point-D4")).to_have_attribute("aria-label",
                                                           re.compile("black"))
    go_url = page.url
    # Finished games, made through the API with this browser's cookies.
    lost = api(page, "POST", "/api/games", {"game": "tictactoe",
                                            "options": {"opponent": "minimax"}})
    api(page, "POST", f"/api/games/{lost['id']}/moves", {"move": 4})
    api(page, "POST", f"/api/games/{lost['id']}/resign")
    tour = api(page, "POST", "/api/games", {"game": "knights-tour",
                                            "options": {"size": 10, "closed": True}})
    for square in ("a1", "b3", "c5", "d7"):
        api(page, "POST", f"/api/games/{tour['id']}/moves", {"move": square})
    scored = api(page, "POST", "/api/games", {"game": "go", "options": {
        "opponent": "local", "size": 19}})
    for played in ("Q16", "pass", "pass", "done"):
        api(page, "POST", f"/api/games/{scored['id']}/moves", {"move": played})

    page.get_by_role("link", name="My games").first.click()
    expect(page).to_have_url(re.compile(r"/games$"))
    playing = page.locator(".games-list").first.locator("tbody tr")
    expect(playing).to_have_count(2)
    expect(playing.nth(0)).to_contain_text("Knight's tour 10×10, closed")  # newest first
    expect(playing.nth(0)).to_contain_text("Your move · 4 of 100 squares")
    expect(playing.nth(0)).to_contain_text("Solo puzzle")
    go_row = playing.nth(1)
    expect(go_row).to_contain_text("Go 13×13")
    expect(go_row).to_contain_text("Two players, one screen")
    expect(go_row).to_contain_text("White to play")
    finished = page.locator(".games-list").nth(1).locator("tbody tr")
    expect(finished).to_have_count(2)
    expect(finished.nth(0)).to_contain_text("Go 19×19")
    expect(finished.nth(0)).to_contain_text("Black won by 353.5 points")
    expect(finished.nth(1)).to_contain_text("Computer · Minimax")
    expect(finished.nth(1)).to_contain_text("You lost by resignation")
    when = go_row.locator("time")
    expect(when).to_have_attribute("datetime", re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"))
    # The server's UTC, rewritten in the browser's zone (the UTC kept as the tooltip).
    expect(when).to_have_attribute("title", re.compile(r"^\d{1,2} [A-Z][a-z]{2} \d{4}, "
                                                       r"\d\d:\d\d UTC$"))
    expect(when).not_to_contain_text("UTC")
    expect(go_row).to_contain_text("just now")
    expect(page.locator("#main")).not_to_contain_text("+R")
    no_sideways_scroll(page)
    name = "desktop" if viewport["width"] > 600 else "phone"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"games-{name}.png"), full_page=True)

    # Every cell of a row is within the row, and a tap on its words opens the game.
    box = go_row.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    # The link covers the row (so Playwright's own click refuses a covered cell): the
    # pointer goes where a thumb would, on the date.
    cell = go_row.locator(".games-list-when").bounding_box()
    assert cell is not None
    page.mouse.click(cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2)
    expect(page).to_have_url(go_url)
    expect(page.locator("#go-point-D4")).to_have_attribute("aria-label",
                                                           re.compile("black"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"/games$"))
    expect(playing).to_have_count(2)


def test_times_are_shown_in_the_viewers_zone(browser: Browser, server: Any) -> None:
    context = browser.new_context(base_url=server.url, timezone_id="Asia/Tokyo",
                                  locale="en-GB")
    page = context.new_page()
    page.goto("/")
    game = api(page, "POST", "/api/games", {"game": "tictactoe",
                                            "options": {"opponent": "minimax"}})
    api(page, "POST", f"/api/games/{game['id']}/moves", {"move": 4})
    page.goto("/games")
    when = page.locator(".games-list time").first
    expect(when).to_have_attribute("data-localised", "")
    moment = datetime.fromisoformat(when.get_attribute("datetime") or "")
    tokyo = moment.astimezone(ZoneInfo("Asia/Tokyo"))
    expect(when).to_have_text(f"{tokyo.day} {tokyo:%b} {tokyo.year}, {tokyo:%H:%M}")
    expect(when).to_have_attribute("title", re.compile(f" {moment:%H:%M} UTC$"))
    context.close()
