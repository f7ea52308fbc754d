"""The page's chrome in a real browser (issue 34, points 8, 11 and 12): the trouble strip in
the header's own space, in a player's words, when the server cannot be reached or is
restarting; the header on one line on a phone; keyboard hints hidden on touch screens; the
tic-tac-toe new-game box within its panel."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

GO_URL = re.compile(r"/go/[A-Za-z0-9_-]+$")
TTT_URL = re.compile(r"/tictactoe/[A-Za-z0-9_-]+$")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}
VIEWPORTS = [pytest.param(DESKTOP, id="1280x800"), pytest.param(PHONE, id="375x740")]
# What Chromium and htmx log while requests fail on purpose here: not the page's errors.
EXPECTED = re.compile(r"net::ERR_|^htmx:(sendError|responseError|afterRequest)|"
                      r"status of 503|Failed to load resource|Response Status Error Code 503")
# Screenshots for a person to look at, when TABLETOP_SHOTS names a directory.
SHOTS = os.environ.get("TABLETOP_SHOTS")


class Opened:
    """Browser contexts opened by a test, each checked for console errors at its end."""

    def __init__(self, browser: Browser, server: Any) -> None:
        self.browser, self.server = browser, server
        self.opened: list[tuple[BrowserContext, list[str]]] = []

    def page(self, viewport: dict[str, int], **options: Any) -> Page:
        context = self.browser.new_context(base_url=self.server.url, viewport=viewport,
                                           **options)
        page = context.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.set_default_timeout(10_000)
        self.opened.append((context, problems))
        return page


@pytest.fixture
def pages(browser: Browser, server: Any) -> Iterator[Opened]:
    opened = Opened(browser, server)
    yield opened
    for context, _ in opened.opened:
        context.close()
    for _, problems in opened.opened:
        unexpected = [p for p in problems if not EXPECTED.search(p)]
        assert unexpected == [], f"the page logged errors: {unexpected}"


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        # caret="initial": hiding the caret needs an inline style, which the CSP refuses.
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), caret="initial")


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# Every control of the game (and the board) that the strip must leave uncovered.
CONTROLS = """() => [...document.querySelectorAll(
    '#main button, #main select, #main input, #main a, #main .go-board, #main .ttt-board')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => { const r = e.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height}; })"""


def go_page(pages: Opened, viewport: dict[str, int]) -> Page:
    page = pages.page(viewport)
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    expect(page.locator("#go-point-E5")).to_be_visible()
    expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)
    return page


def assert_strip_in_the_header(page: Page, board_before: dict[str, float]) -> None:
    strip = box(page, ".site-header .trouble")
    header = box(page, ".site-header")
    assert header["height"] <= 56.5
    assert strip["y"] >= header["y"] and strip["y"] + strip["height"] <= header["y"] + 56.5
    assert box(page, "#go-board") == board_before  # nothing moved
    for control in page.evaluate(CONTROLS):
        assert not overlaps(strip, control), (strip, control)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_server_down_strip_is_in_the_header_and_the_move_goes_through_later(
        pages: Opened, viewport: dict[str, int]) -> None:
    page = go_page(pages, viewport)
    board = box(page, "#go-board")
    expect(page.locator(".site-header .trouble")).to_be_hidden()
    page.route("**/ui/**", lambda route: route.abort())
    page.click("#go-point-E5")
    strip = page.locator(".site-header .trouble")
    expect(strip).to_have_text(
        "The server cannot be reached; your move will be sent when it's back.")
    expect(strip).to_have_attribute("role", "alert")
    assert_strip_in_the_header(page, board)
    shot(page, f"test-down-{viewport['width']}")
    # The strip is not tapped away while the server is down.
    strip.click()
    expect(strip).to_be_visible()
    page.unroute("**/ui/**")
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone",
                                                           timeout=15_000)
    expect(strip).to_be_hidden()
    assert box(page, "#go-board") == board


def shutting_down(route: Route) -> None:
    route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": "application/json"},
                  body=json.dumps({"detail": "The server is restarting; anything already "
                                   "played is kept. Try again in a few seconds.",
                                   "code": "shutting_down"}))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_restarting_server_is_said_so_and_the_move_is_sent_again(
        pages: Opened, viewport: dict[str, int]) -> None:
    """While the server shuts down it answers 503 `shutting_down` (app/middleware.py): the
    page says it is restarting, in the header, and sends the move again once it answers."""
    page = go_page(pages, viewport)
    board = box(page, "#go-board")
    page.route("**/ui/go/*/moves", shutting_down)
    page.click("#go-point-E5")
    strip = page.locator(".site-header .trouble")
    expect(strip).to_have_text("The server is restarting; your move will be sent when it's back.")
    assert_strip_in_the_header(page, board)
    shot(page, f"test-restarting-{viewport['width']}")
    page.unroute("**/ui/go/*/moves")
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone",
                                                           timeout=15_000)
    expect(strip).to_be_hidden()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_reconnecting_is_shown_over_the_header(pages: Opened, viewport: dict[str, int]) -> None:
    page = go_page(pages, viewport)
    board = box(page, "#go-board")
    # live.js's strip, as it shows it when the event stream drops.
    page.evaluate("""() => {
      let p = document.querySelector('.live-status');
      if (!p) {
        p = document.createElement('p'); p.className = 'live-status'; document.body.append(p);
      }
      p.textContent = 'Reconnecting…'; p.hidden = false; }""")
    status = box(page, ".live-status")
    header = box(page, ".site-header")
    assert status["y"] >= header["y"] and status["y"] + status["height"] <= 56.5
    assert not overlaps(status, board)
    page.evaluate("window.scrollTo(0, 300)")  # the header, and the message, stay on screen
    assert box(page, ".site-header")["y"] == 0
    assert box(page, ".live-status")["y"] == status["y"]


@pytest.mark.parametrize("width", [375, 320])
def test_the_phone_header_is_one_line(pages: Opened, width: int) -> None:
    page = pages.page({"width": width, "height": 740})
    page.goto("/")
    header = box(page, ".site-header")
    assert header["height"] <= 56.5
    brand = box(page, ".brand")
    nav = page.get_by_role("navigation", name="Games")
    links = nav.get_by_role("link")
    expect(links).to_have_count(4)
    for index in range(4):
        link = links.nth(index).bounding_box()
        assert link is not None
        assert link["y"] >= 0 and link["y"] + link["height"] <= 56.5  # all on the one line
        assert link["x"] > brand["x"] + brand["width"] and link["x"] + link["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Short labels on the screen; whole names for screen readers.
    assert nav.get_by_role("link", name="Knight's tour", exact=True).inner_text() == "Tour"
    assert nav.get_by_role("link", name="My games", exact=True).inner_text() == "Games"
    shot(page, f"test-header-{width}")


def test_the_desktop_header_shows_the_whole_labels(pages: Opened) -> None:
    page = pages.page(DESKTOP)
    page.goto("/")
    assert box(page, ".site-header")["height"] <= 56.5
    nav = page.get_by_role("navigation", name="Games")
    assert nav.get_by_role("link", name="Knight's tour", exact=True).inner_text() == \
        "Knight's tour"
    assert nav.get_by_role("link", name="My games", exact=True).inner_text() == "My games"


def test_keyboard_hints_are_hidden_on_a_touch_screen(pages: Opened) -> None:
    touch = pages.page(PHONE, has_touch=True, is_mobile=True)
    touch.goto("/go?size=9&opponent=local")
    expect(touch).to_have_url(GO_URL)
    expect(touch.locator("#go-pass")).to_be_visible()
    assert touch.locator("#go-pass kbd").count() == 1
    expect(touch.locator("#go-pass kbd")).to_be_hidden()
    assert touch.evaluate("matchMedia('(hover: none), (pointer: coarse)').matches")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_keyboard_hints_show_with_a_mouse(pages: Opened, viewport: dict[str, int]) -> None:
    page = pages.page(viewport)
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    expect(page.locator("#go-pass kbd")).to_be_visible()
    expect(page.locator("#go-pass kbd")).to_have_text("P")


@pytest.mark.parametrize("viewport", [*VIEWPORTS, pytest.param({"width": 320, "height": 640},
                                                               id="320x640")])
def test_the_tictactoe_new_game_box_is_within_its_panel(
        pages: Opened, viewport: dict[str, int],
        panel_margins: Callable[[Page, str], dict[str, float]]) -> None:
    page = pages.page(viewport)
    page.goto("/tictactoe?opponent=minimax")
    expect(page).to_have_url(TTT_URL)
    expect(page.locator("#ttt-game .new-game fieldset").first).to_be_visible()
    margins = panel_margins(page, "#ttt-game .new-game fieldset")
    assert margins["left"] >= -0.5 and margins["right"] >= -0.5, margins
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
