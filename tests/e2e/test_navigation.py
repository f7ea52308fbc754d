"""Navigation as a player meets it: deep links, cards, back/forward, reload, not-found."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

GAME_URL = re.compile(r"/tictactoe/[A-Za-z0-9_-]+$")


def test_deep_link_redirects_to_the_game_without_a_history_entry(page: Page) -> None:
    page.goto("/tictactoe")
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("#ttt-board")).to_be_visible()
    expect(page).to_have_title("Tic-tac-toe · Tabletop")
    # A new tab holds about:blank and this page: the redirect replaced its entry.
    assert page.evaluate("history.length") == 2
    page.go_back()
    expect(page).to_have_url("about:blank")


def test_home_card_navigates_without_a_reload(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    page.evaluate("window.__marker = 'still here'")
    page.get_by_role("link", name=re.compile("Tic-tac-toe")).first.click()
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("#ttt-board")).to_be_visible()
    assert page.evaluate("window.__marker") == "still here"
    # The view's heading has focus and the change was announced.
    expect(page.locator("h1")).to_be_focused()
    expect(page.locator("#announcer")).to_have_text("Tic-tac-toe page loaded")


def test_back_and_forward_switch_views_and_show_games_as_they_stand(page: Page) -> None:
    page.goto("/tictactoe?opponent=local")
    expect(page).to_have_url(GAME_URL)
    first_game = page.url
    page.evaluate("window.__marker = 1")
    page.locator("#ttt-cell-4").click()
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    # A new game gets its own history entry.
    page.get_by_role("button", name="Start a new game").click()
    expect(page).not_to_have_url(first_game)
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("empty"))
    second_game = page.url
    page.locator("#ttt-cell-0").click()
    expect(page.locator("#ttt-cell-0")).to_have_attribute("aria-label", re.compile("X$"))
    page.go_back()
    expect(page).to_have_url(first_game)
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    expect(page.locator("#ttt-cell-0")).to_have_attribute("aria-label", re.compile("empty"))
    page.go_forward()
    expect(page).to_have_url(second_game)
    expect(page.locator("#ttt-cell-0")).to_have_attribute("aria-label", re.compile("X$"))
    page.get_by_role("link", name="Tabletop").click()
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    page.go_back()
    expect(page).to_have_url(second_game)
    expect(page.locator("#ttt-cell-0")).to_have_attribute("aria-label", re.compile("X$"))
    assert page.evaluate("window.__marker") == 1  # no reload happened on the way


def test_reload_shows_the_same_game(page: Page) -> None:
    page.goto("/tictactoe?opponent=local")
    expect(page).to_have_url(GAME_URL)
    page.locator("#ttt-cell-2").click()
    expect(page.locator("#ttt-cell-2")).to_have_attribute("aria-label", re.compile("X$"))
    url = page.url
    page.reload()
    expect(page).to_have_url(url)
    expect(page.locator("#ttt-cell-2")).to_have_attribute("aria-label", re.compile("X$"))
    # The bare link resumes this browser's current game.
    page.goto("/tictactoe")
    expect(page).to_have_url(url)


def test_unknown_paths_show_the_not_found_view(page: Page) -> None:
    page.expects_not_found = True  # type: ignore[attr-defined]
    response = page.goto("/no/such/page")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    expect(page).to_have_title("Page not found · Tabletop")
    page.get_by_role("link", name="Back to the games").click()
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()


def test_unknown_game_id_says_so(page: Page) -> None:
    page.expects_not_found = True  # type: ignore[attr-defined]
    page.goto("/tictactoe/does-not-exist")
    expect(page.get_by_role("heading", name="Game not found")).to_be_visible()


def test_modified_clicks_are_left_to_the_browser(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    with page.context.expect_page() as popup:
        page.get_by_role("link", name=re.compile("Tic-tac-toe")).first.click(modifiers=["Control"])
    popup.value.close()
    expect(page).to_have_url(re.compile(r"/$"))  # this tab stayed on the home page


def test_new_pages_start_at_the_top_and_back_restores_the_scroll(page: Page) -> None:
    page.set_viewport_size({"width": 375, "height": 500})
    page.goto("/tictactoe?opponent=local")
    expect(page).to_have_url(GAME_URL)
    expect(page.locator(".tally")).to_be_visible()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 200
    page.evaluate("document.querySelector('a.brand').click()")  # no scrolling on the way
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    page.go_back()
    expect(page).to_have_url(GAME_URL)
    expect(page.locator(".tally")).to_be_visible()
    for _ in range(50):  # poll: wait_for_function would need eval, which the CSP forbids
        if abs(page.evaluate("window.scrollY") - scrolled) < 2:
            break
        page.wait_for_timeout(50)
    assert abs(page.evaluate("window.scrollY") - scrolled) < 2
