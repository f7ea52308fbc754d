"""The knight's tour in a real browser: a 5×5 puzzle played to the end by clicks, warnings,
an animated solve, and back/forward to and from the other games."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
from playwright.sync_api import Page, expect

KT_URL = re.compile(r"/knights-tour/[A-Za-z0-9_-]+$")
TTT_URL = re.compile(r"/tictactoe/[A-Za-z0-9_-]+$")
Settled = Callable[[Page], None]


def click_squares(page: Page, settled: Settled, *squares: str) -> None:
    for square in squares:
        page.locator(f"#kt-sq-{square}").click()
        expect(page.locator(f"#kt-sq-{square}")).to_have_attribute(
            "aria-label", re.compile("the knight"))
        settled(page)


def test_a_5x5_puzzle_played_to_the_end_by_clicks(page: Page, settled: Settled,
                                                  server: object) -> None:
    tour = httpx.get(f"{server.url}/api/knights-tour/solve",  # type: ignore[attr-defined]
                     params={"size": 5, "start": "a1"}).json()["squares"]
    page.goto("/knights-tour?size=5")
    expect(page).to_have_url(KT_URL)
    expect(page).to_have_title("Knight's tour · Tabletop")
    click_squares(page, settled, *tour)
    expect(page.locator(".game-status")).to_have_text("Tour complete: all 25 squares visited.")
    expect(page.locator("#kt-sq-a1")).to_have_attribute("aria-label", "a1, visited, move 1")


def test_illegal_squares_cannot_be_played_and_trouble_is_warned(page: Page,
                                                                settled: Settled) -> None:
    page.goto("/knights-tour?size=6")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "c2")
    expect(page.locator("#kt-sq-c3")).to_have_attribute("aria-disabled", "true")
    expect(page.locator(".kt-square--legal")).to_have_count(6)
    click_squares(page, settled, "d4", "b3", "c5")
    expect(page.locator(".kt-warning")).to_contain_text("no longer be completed")
    expect(page.locator(".kt-warning")).to_contain_text("a1")


def test_hint_and_an_animated_solve(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=6")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "a1")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".kt-square--hint")).to_have_count(1)
    settled(page)
    page.get_by_role("button", name="Solve from here").click()
    expect(page.locator("#kt-player")).to_be_visible()
    page.get_by_role("slider", name="Moves per second").fill("30")
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".kt-progress")).to_have_text("Tour complete: all 36 squares.",
                                                      timeout=15_000)
    expect(page.locator(".kt-square--solution")).to_have_count(35)
    expect(page.get_by_role("button", name="Play")).to_be_visible()  # the player stopped
    # The player's own game is unchanged.
    expect(page.locator(".game-status")).to_have_text("1 of 36 squares visited.")


def test_step_by_step_and_pause(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=8")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "d4")
    page.get_by_role("button", name="Solve from here").click()
    page.get_by_role("button", name="Step").click()
    page.get_by_role("button", name="Step").click()
    expect(page.locator(".kt-square--solution")).to_have_count(2)
    expect(page.locator(".kt-progress")).to_have_text("Move 3 of 64.")


def test_back_and_forward_to_and_from_the_other_games(page: Page, settled: Settled) -> None:
    page.goto("/tictactoe?opponent=local")
    expect(page).to_have_url(TTT_URL)
    ttt = page.url
    page.get_by_role("navigation").get_by_role("link", name="Knight's tour").click()
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "b1")
    kt = page.url
    page.go_back()
    expect(page).to_have_url(ttt)
    expect(page.locator("#ttt-board")).to_be_visible()
    page.go_forward()
    expect(page).to_have_url(kt)
    expect(page.locator("#kt-sq-b1")).to_have_attribute("aria-label", "b1, the knight, move 1")
    page.get_by_role("link", name="Tabletop").click()
    page.get_by_role("link", name=re.compile("Knight's tour")).last.click()
    expect(page).to_have_url(kt)  # the bare link resumes the current puzzle


def test_keyboard_play(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=5")
    expect(page).to_have_url(KT_URL)
    page.locator("#kt-sq-a1").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#kt-sq-a1")).to_have_attribute("aria-label", re.compile("the knight"))
    settled(page)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#kt-sq-b3")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#kt-sq-b3")).to_have_attribute("aria-label", re.compile("the knight"))
