"""End-to-end fixtures: the real server in a subprocess (tests/conftest.py) and Debian's
Chromium via Playwright.

The browser is the system one (CHROMIUM, default /usr/bin/chromium): Playwright never
downloads its own here. Every page records console errors and uncaught exceptions, and a
test fails if any appeared.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]

pytestmark = pytest.mark.e2e


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory,
           live_server_class: type[Any]) -> Iterator[Any]:
    if not (ROOT / "dist" / "index.html").exists():
        pytest.fail("dist/ is not built: run `make build` (make test does it).")
    live = live_server_class(tmp_path_factory.mktemp("e2e") / "tabletop.db")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"No Chromium at {CHROMIUM}: apt-get install chromium (make test does it).")
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
    yield chromium
    chromium.close()


def open_page(browser: Browser, server: Any, viewport: dict[str, int]
              ) -> tuple[BrowserContext, Page, list[str]]:
    """A new browser context (its own cookies: another person) and a page in it, recording
    the console errors and uncaught exceptions it logs."""
    context = browser.new_context(base_url=server.url, viewport=viewport)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_default_timeout(10_000)
    return context, page, problems


def network_trouble(message: str) -> bool:
    """What Chromium and htmx log when a request cannot reach the server."""
    return "net::ERR_" in message or message.startswith(("htmx:sendError", "htmx:afterRequest"))


@pytest.fixture
def page(browser: Browser, server: Any) -> Iterator[Page]:
    context, page, problems = open_page(browser, server, {"width": 1200, "height": 900})
    yield page
    context.close()
    if getattr(page, "expects_not_found", False):
        # Chromium logs every 404 response, the not-found page's own included.
        problems = [p for p in problems if "404 (Not Found)" not in p]
    if getattr(page, "expects_network_errors", False):
        # Chromium logs every failed request, as while a server restarts.
        problems = [p for p in problems if not network_trouble(p)]
    assert problems == [], f"the page logged errors: {problems}"


@pytest.fixture
def people(browser: Browser, server: Any) -> Iterator[Callable[..., Page]]:
    """A factory of pages, each in a browser context of its own (1280×800 unless a
    viewport is given): people in different browsers. Each must end with no console
    error."""
    opened: list[tuple[BrowserContext, Page, list[str]]] = []

    def new(viewport: dict[str, int] | None = None) -> Page:
        opened.append(open_page(browser, server, viewport or {"width": 1280, "height": 800}))
        return opened[-1][1]

    yield new
    for context, _, _ in opened:
        context.close()
    for _, page, problems in opened:
        if getattr(page, "expects_network_errors", False):
            # Chromium logs every failed request, as while a server restarts.
            problems = [p for p in problems if not network_trouble(p)]
        assert problems == [], f"a page logged errors: {problems}"


def wait_settled(page: Page) -> None:
    """Waits until htmx has finished every request and wired up the content it swapped in
    (new content answers clicks and keys only once it is settled)."""
    busy = ".htmx-request, .htmx-settling, .htmx-added, .htmx-swapping"
    expect(page.locator(busy)).to_have_count(0)


@pytest.fixture
def settled() -> object:
    """The wait_settled function, for tests (tests import nothing from conftest)."""
    return wait_settled


def place_on_page(page: Page, selector: str) -> dict[str, float]:
    """Where the element is on the page (not the window: clicks scroll it)."""
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return {**found, "y": found["y"] + page.evaluate("() => window.scrollY")}


@pytest.fixture
def where() -> object:
    """place_on_page, for tests: where(page, selector) is the element's box on the page."""
    return place_on_page


INSIDE_PANEL = """(selector) => {
  const inner = document.querySelector(selector);
  const panel = inner.closest('.game-panel');
  const style = getComputedStyle(panel);
  const box = panel.getBoundingClientRect();
  const own = inner.getBoundingClientRect();
  return {
    left: own.left - box.left - parseFloat(style.borderLeftWidth) - parseFloat(style.paddingLeft),
    right: box.right - own.right - parseFloat(style.borderRightWidth)
      - parseFloat(style.paddingRight),
    scroll: inner.scrollWidth - inner.clientWidth,
  };
}"""


@pytest.fixture
def panel_margins() -> Callable[[Page, str], dict[str, float]]:
    """panel_margins(page, selector): how far the element stays inside its .game-panel's
    padding on the left and right (negative: it runs into it), and how far its own content
    overflows it (`scroll`)."""
    def margins(page: Page, selector: str) -> dict[str, float]:
        result: dict[str, float] = page.evaluate(INSIDE_PANEL, selector)
        return result
    return margins


def pass_turn(page: Page) -> None:
    """Passes as the side to move, answering the question an early or first pass asks (it
    is put up by the click itself, so it is there, or not, as soon as the click returns)."""
    wait_settled(page)
    page.locator("#go-pass").click()
    confirm = page.locator("[data-pass-confirm]")
    if confirm.count():
        confirm.click()


@pytest.fixture
def passes() -> object:
    """The pass_turn function, for tests."""
    return pass_turn
