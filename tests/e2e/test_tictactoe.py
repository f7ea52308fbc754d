"""Tic-tac-toe in a real browser: a full game, keyboard play, strategies and move values."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

Settled = Callable[[Page], None]

GAME_URL = re.compile(r"/tictactoe/[A-Za-z0-9_-]+$")


def empty_cells(page: Page) -> list[int]:
    labels = page.locator("[data-cell]").evaluate_all("cells => cells.map(c => c.ariaLabel)")
    return [i for i, label in enumerate(labels) if "empty" in label]


def test_a_full_game_against_the_computer_reaches_a_result(page: Page, settled: Settled) -> None:
    page.goto("/tictactoe?opponent=minimax&human=X")
    expect(page).to_have_url(GAME_URL)
    status = page.locator(".game-status")
    for _ in range(5):
        if re.search("win|draw", status.inner_text()):
            break
        cells = empty_cells(page)
        version = page.locator("#ttt-game").get_attribute("hx-vals")
        page.locator(f"#ttt-cell-{cells[0]}").click()
        expect(page.locator("#ttt-game")).not_to_have_attribute("hx-vals", version or "")
        settled(page)
    expect(status).to_have_text(re.compile("The computer wins.|It's a draw."))
    expect(page.locator(".tally")).to_contain_text(re.compile(r"[1-9]\d* (draw|loss)"))


def test_winning_line_is_drawn(page: Page, settled: Settled) -> None:
    page.goto("/tictactoe?opponent=local")
    expect(page).to_have_url(GAME_URL)
    for cell in (0, 3, 1, 4, 2):
        page.locator(f"#ttt-cell-{cell}").click()
        expect(page.locator(f"#ttt-cell-{cell}")).to_have_attribute("aria-disabled", "true")
        settled(page)
    expect(page.locator(".game-status")).to_have_text("X wins!")
    expect(page.locator(".ttt-line line")).to_have_count(1)
    expect(page.locator(".ttt-cell--win")).to_have_count(3)


def test_keyboard_only_play(page: Page, settled: Settled) -> None:
    page.goto("/tictactoe?opponent=local")
    expect(page).to_have_url(GAME_URL)
    for _ in range(30):  # Tab into the board
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset?.cell !== undefined"):
            break
    assert page.evaluate("document.activeElement.id") == "ttt-cell-4"
    page.keyboard.press("Enter")  # X in the centre
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    settled(page)
    expect(page.locator("#ttt-cell-4")).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#ttt-cell-0")).to_be_focused()
    page.keyboard.press("Enter")  # O in the corner
    expect(page.locator("#ttt-cell-0")).to_have_attribute("aria-label", re.compile("O$"))
    settled(page)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#ttt-cell-7")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#ttt-cell-7")).to_have_attribute("aria-label", re.compile("X$"))


def test_switching_strategy_and_showing_move_values(page: Page, settled: Settled) -> None:
    page.goto("/tictactoe?opponent=random&human=X")
    expect(page).to_have_url(GAME_URL)
    page.locator("#ttt-cell-4").click()
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    settled(page)
    page.locator("#ttt-opponent").select_option("alphabeta")
    expect(page.locator("#ttt-opponent")).to_have_value("alphabeta")
    settled(page)
    expect(page.locator(".hint").first).to_contain_text("It plays O")
    page.get_by_label("Show move values").check()
    expect(page.locator(".ttt-value")).to_have_count(7)
    expect(page.locator(".ttt-analysis")).to_contain_text("Minimax visited")
    settled(page)
    # The choice sticks for the next move.
    page.locator(f"#ttt-cell-{empty_cells(page)[0]}").click()
    expect(page.locator(".ttt-value")).to_have_count(5)


def test_undo_takes_back_the_move_and_the_reply(page: Page) -> None:
    page.goto("/tictactoe?opponent=rules&human=X")
    expect(page).to_have_url(GAME_URL)
    page.locator("#ttt-cell-4").click()
    expect(page.locator("[data-cell][aria-label$='O']")).to_have_count(1)
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("[data-cell][aria-label$='empty']")).to_have_count(9)


def test_computer_opens_when_the_human_plays_o(page: Page) -> None:
    page.goto("/tictactoe?opponent=rules&human=O")
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("[data-cell][aria-label$='X']")).to_have_count(1)
    expect(page.locator(".game-status")).to_have_text("Your move: you play O.")
