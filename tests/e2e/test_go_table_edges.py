"""Rough edges of the Go table, as a player finds them (issue 34): an early pass asks first,
in the reserved notice line, so nothing moves, and a live refresh keeps the question; ←/→
step through the game after a click on the board, while a board entered with Tab keeps its
cursor keys; a ?move=N past the end is corrected in the URL; "New game" is a button and the
current game's settings say they are this game's."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

Settled = Callable[[Page], None]
GO_URL = re.compile(r"/go/[A-Za-z0-9_-]+$")
VIEWPORTS = [{"width": 1280, "height": 800}, {"width": 375, "height": 740}]
SHOTS = Path("/tmp/shots/e2e")


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def open_local_game(page: Page, settled: Settled, *points: str) -> str:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    for point in points:
        settled(page)
        page.click(f"#go-point-{point}")
        expect(page.locator(f"#go-point-{point}")).to_have_attribute(
            "aria-label", re.compile("stone"))
    settled(page)
    return page.url


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280x800", "375x740"])
def test_an_early_pass_asks_first_and_moves_nothing(browser: Browser, server: Any,
                                                    settled: Settled,
                                                    viewport: dict[str, int]) -> None:
    context = browser.new_context(base_url=server.url, viewport=viewport)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    open_local_game(page, settled, "E5")
    board, pass_button = box(page, ".go-board"), box(page, "#go-pass")

    page.locator("#go-pass").click()
    question = page.locator(".go-notice--confirm")
    expect(question).to_have_text(
        "Pass this early? If Black passes too, the game ends.PassKeep playing")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"pass-question-{viewport['width']}.png"))
    assert box(page, ".go-board") == board and box(page, "#go-pass") == pass_button
    asked = box(page, ".go-notice--confirm")
    assert asked["y"] + asked["height"] <= board["y"]  # in the line above the board
    # ...and all of it readable there: the reserved line does not clip the question.
    assert page.locator(".go-notices").evaluate("n => n.scrollHeight <= n.clientHeight")
    assert question.evaluate("q => q.scrollHeight <= q.clientHeight + 1")
    page.get_by_role("button", name="Keep playing").click()
    expect(question).to_have_count(0)
    expect(page.locator(".game-status")).to_have_text("White to play.")  # nothing was sent
    expect(page.locator(".go-moves li")).to_have_count(2)  # Start and E5

    page.keyboard.press("p")  # P asks too; Escape puts the question away
    expect(question).to_be_visible()
    page.keyboard.press("Escape")
    expect(question).to_have_count(0)
    page.keyboard.press("p")
    expect(question).to_be_visible()
    # A live refresh replaces the widget while the question is up: it is asked again in
    # the new one. A swap elsewhere keeps it. Either way the next P answers it.
    page.evaluate("""() => { const w = document.getElementById('go-game');
        return htmx.ajax('GET', w.dataset.refresh, {target: '#go-game', swap: 'outerHTML'}); }""")
    expect(page.locator("#go-game.htmx-settling")).to_have_count(0)
    expect(question).to_be_visible()
    page.evaluate("() => document.dispatchEvent(new Event('htmx:afterSettle'))")
    expect(question).to_be_visible()
    page.keyboard.press("p")  # the second P answers the question
    expect(page.locator(".go-notice--pass")).to_have_text("White passed. Another pass ends play.")
    expect(page.locator(".game-status")).to_have_text("Black to play.")
    assert box(page, ".go-board") == board
    # Passing back after the other side's pass does not ask: the notice has said it.
    page.locator("#go-pass").click()
    expect(page.locator(".go-score")).to_be_visible()
    context.close()
    assert problems == []


def test_arrows_step_through_the_game_after_a_click_on_the_board(
        page: Page, settled: Settled) -> None:
    url = open_local_game(page, settled, "E5", "D4")
    assert page.evaluate("() => document.activeElement.id") == "go-point-D4"
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(url + "?move=1")
    expect(page.locator(".game-status")).to_have_text("Move 1 of 2: Black played E5.")
    settled(page)
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(url)
    expect(page.locator(".game-status")).to_have_text("Black to play.")
    settled(page)

    # Entered deliberately with Tab, the board's cursor keeps the arrows.
    page.focus("[data-go-mute]")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement.id")
    assert focused.startswith("go-point-"), focused
    page.keyboard.press("ArrowLeft")
    moved = page.evaluate("() => document.activeElement.id")
    assert moved != focused and moved.startswith("go-point-")
    assert page.url == url  # no step through the game
    # A click on the board lends the arrows back to stepping.
    page.click("#go-point-A1")
    expect(page.locator("#go-point-A1")).to_have_attribute("aria-label", "A1, black stone")
    settled(page)
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(url + "?move=2")


def test_a_move_past_the_end_is_corrected_in_the_url(page: Page, settled: Settled) -> None:
    url = open_local_game(page, settled, "E5", "D4", "C3")
    page.goto(url + "?move=999")
    expect(page.locator(".game-status")).to_have_text("White to play.")
    expect(page).to_have_url(url)  # the live game, as shown
    page.goto(url + "?move=2")
    expect(page.locator(".game-status")).to_have_text("Move 2 of 3: White played D4.")
    expect(page).to_have_url(url + "?move=2")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280x800", "375x740"])
def test_new_game_is_a_button_and_this_games_settings_say_so(
        browser: Browser, server: Any, viewport: dict[str, int]) -> None:
    context = browser.new_context(base_url=server.url, viewport=viewport)
    page = context.new_page()
    page.goto("/go?size=9&opponent=computer&level=easy")
    expect(page).to_have_url(GO_URL)
    expect(page.locator(".go-this-game legend")).to_have_text("This game")
    expect(page.locator(".go-this-game")).to_contain_text("Opponent")
    summary = page.locator(".new-game-box > summary")
    style = summary.evaluate("""s => { const c = getComputedStyle(s);
        return [c.borderTopStyle, c.borderTopWidth, getComputedStyle(s, '::before').content]; }""")
    assert style[0] == "solid" and style[1] != "0px" and style[2] != "none"
    summary.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"new-game-button-{viewport['width']}.png"))
    summary.click()
    expect(page.locator("#go-new-size")).to_be_visible()  # the size comes first
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280x800", "375x740"])
def test_move_numbers_and_coordinates_switch_and_are_remembered(
        browser: Browser, server: Any, settled: Settled, viewport: dict[str, int]) -> None:
    context = browser.new_context(base_url=server.url, viewport=viewport)
    page = context.new_page()
    open_local_game(page, settled, "E5", "D4", "C3")
    numbers = page.locator("#go-point-C3").locator("xpath=..").locator("..").locator(
        ".go-stone-number", has_text="3")
    expect(numbers).to_be_hidden()  # off until asked for
    expect(page.locator(".go-coordinates")).to_be_visible()
    board = box(page, ".go-board")
    head = box(page, ".go-head")
    page.get_by_role("button", name="Move numbers").click()
    expect(page.get_by_role("button", name="Move numbers")).to_have_attribute(
        "aria-pressed", "true")
    expect(numbers).to_be_visible()
    expect(page.locator(".go-last")).to_be_hidden()  # the red number marks the last move
    page.get_by_role("button", name="Coordinates").click()
    expect(page.locator(".go-coordinates")).to_be_hidden()
    assert box(page, ".go-board") == board and box(page, ".go-head") == head
    page.screenshot(path=str(SHOTS / f"numbers-{viewport['width']}.png"))
    # A new board after a move, and a reload, keep the choice.
    page.click("#go-point-G7")
    expect(page.locator(".go-stone-number--last")).to_have_text("4")
    expect(page.locator(".go-stone-number--last")).to_be_visible()
    page.reload()
    expect(page.get_by_role("button", name="Coordinates")).to_have_attribute(
        "aria-pressed", "false")
    expect(page.locator(".go-coordinates")).to_be_hidden()
    expect(page.locator(".go-stone-number--last")).to_be_visible()
    if viewport["width"] < 600:  # the switches share the title's line on a phone
        assert box(page, ".go-head")["height"] < 60
    context.close()
