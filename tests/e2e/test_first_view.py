"""The first view comes with the page (app/routes/pages.py, static/js/fragments.js): a full
load of a bare link or a game's own link asks the server for no fragment and no new game
after the shell, and the board it shows answers at once; the router takes over from there."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, Request, expect

GAME_URL = re.compile(r"/(tictactoe|go|knights-tour)/[A-Za-z0-9_-]+$")


def requests_after_the_shell(page: Page) -> Callable[[], list[str]]:
    """What the page's scripts ask the server from here on (the router's fetches, htmx's
    requests): not the documents, static files or the live event stream."""
    made: list[str] = []

    def record(request: Request) -> None:
        if request.resource_type in ("fetch", "xhr"):
            made.append(f"{request.method} {re.sub(r'^https?://[^/]+', '', request.url)}")

    page.on("request", record)
    return lambda: made


def test_a_bare_link_lands_on_a_playable_board_with_no_fetch(page: Page) -> None:
    made = requests_after_the_shell(page)
    page.goto("/tictactoe?opponent=minimax")
    expect(page).to_have_url(GAME_URL)
    expect(page).to_have_title("Tic-tac-toe · Tabletop")
    assert made() == []  # the server started the game and served its board in the page
    page.locator("#ttt-cell-4").click()
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    assert made()[0].startswith("POST /ui/tictactoe/")
    # A bare link with no query resumes this game, in a full load as inside the page.
    game = page.url
    page.goto("/tictactoe")
    expect(page).to_have_url(game)
    page.get_by_role("link", name="Tabletop").click()
    page.get_by_role("link", name=re.compile("Tic-tac-toe")).first.click()
    expect(page).to_have_url(game)


def test_each_games_own_link_shows_its_board_without_fetching_it(page: Page) -> None:
    for path, point in (("/go?size=9", "#go-game button[hx-post][hx-vals]"),
                        ("/knights-tour?size=6", "#kt-board button[hx-post]")):
        page.goto(path)
        expect(page).to_have_url(GAME_URL)
        made = requests_after_the_shell(page)
        page.reload()
        expect(page.locator(point).first).to_be_visible()
        kind, game_id = page.url.rsplit("/", 2)[1:]
        # Parts of the view load themselves (the tours' comparison); the view itself is not
        # fetched, nor the game read.
        asked = [request.split("?")[0] for request in made()]
        assert f"GET /ui/{kind}/{game_id}" not in asked, asked
        assert not [request for request in asked if request.startswith("GET /api/")], asked
    page.locator("#kt-board button[hx-post]").first.click()
    expect(page.locator("#kt-board .kt-square--visited")).to_have_count(1)


def test_back_and_forward_after_a_served_view_fetch_as_before(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    page.evaluate("window.__marker = 1")
    made = requests_after_the_shell(page)
    page.get_by_role("link", name=re.compile("Knight")).first.click()
    expect(page).to_have_url(GAME_URL)
    page.go_back()
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    # The home page's served fragment was adopted once; going back to it fetches it.
    assert "GET /ui/home" in made()
    page.go_forward()
    expect(page.locator("#kt-board")).to_be_visible()
    assert page.evaluate("window.__marker") == 1  # never reloaded


def test_a_view_with_choices_of_its_own_replaces_the_served_one(page: Page) -> None:
    """The served fragment is the view without this browser's own choices (kept by the
    browser, unseen by the server); a view that asks for them fetches its own, and the
    served one is never shown (hidden until adopted: app.css)."""
    page.goto("/tictactoe?opponent=local")
    expect(page).to_have_url(GAME_URL)
    page.locator("#ttt-values").check()
    expect(page.locator("#ttt-values")).to_be_checked()
    made = requests_after_the_shell(page)
    page.reload()
    expect(page.locator("#ttt-values")).to_be_checked()
    assert any("?values=on" in request for request in made())
    expect(page.locator("#main")).not_to_have_attribute("data-fragment", re.compile(".*"))
    expect(page.locator("#ttt-cell-0")).to_be_visible()
