"""The knight's tour in a real browser: a 5×5 puzzle played to the end by clicks, warnings,
an animated solve, and back/forward to and from the other games; the board's coordinates,
the numbers' contrast, and a closed tour's closing move."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
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
    expect(page.locator(".notice--warning")).to_contain_text("no longer be completed")
    expect(page.locator(".notice--warning")).to_contain_text("a1")


def test_hint_and_an_animated_solve(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=6")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "a1")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".kt-square--hint")).to_have_count(1)
    expect(page.locator(".notice--hint")).to_contain_text("Warnsdorff's rule suggests")
    settled(page)
    page.get_by_role("button", name="Solve from here").click()
    expect(page.locator("#kt-player")).to_be_visible()
    page.get_by_role("slider", name="Moves per second").fill("1")
    page.get_by_role("button", name="Play").click()
    # The hint goes as soon as the animation starts, before its first move is drawn.
    assert page.locator(".kt-square--hint").count() == 0
    assert page.locator(".notice--hint").count() == 0
    assert page.locator("[aria-label$=', hint']").count() == 0
    page.get_by_role("slider", name="Moves per second").fill("30")
    expect(page.locator(".kt-progress")).to_have_text("Tour complete: all 36 squares.",
                                                      timeout=15_000)
    expect(page.locator(".kt-square--solution")).to_have_count(35)
    expect(page.locator(".kt-closing")).to_have_count(0)  # an open tour does not close
    expect(page.get_by_role("button", name="Play")).to_be_visible()  # the player stopped
    # The player's own game is unchanged.
    expect(page.locator(".game-status")).to_have_text("1 of 36 squares visited.")


def test_stepping_through_a_solution_clears_the_hint_too(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=8")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "d4")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".notice--hint")).to_be_visible()
    settled(page)
    page.get_by_role("button", name="Solve from here").click()
    page.get_by_role("button", name="Step").click()
    expect(page.locator(".kt-square--hint")).to_have_count(0)
    expect(page.locator(".notice--hint")).to_have_count(0)


def centre_of(name: str, size: int) -> tuple[float, float]:
    """A square's centre in the path's SVG units: files left to right, rank 1 at the bottom."""
    return ord(name[0]) - ord("a") + 0.5, size - int(name[1:]) + 0.5


def closing_line(page: Page) -> tuple[float, float, float, float]:
    line = page.locator(".kt-path .kt-closing")
    expect(line).to_have_count(1)
    ends = [line.get_attribute(a) for a in ("x1", "y1", "x2", "y2")]
    assert None not in ends
    x1, y1, x2, y2 = (float(str(e)) for e in ends)
    return x1, y1, x2, y2


def test_an_animated_closed_tour_draws_its_closing_move(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=6&closed=true")
    expect(page).to_have_url(KT_URL)
    expect(page.locator("h1 .subtitle")).to_have_text("6×6, closed")
    click_squares(page, settled, "c3")
    page.get_by_role("button", name="Solve from here").click()
    page.get_by_role("slider", name="Moves per second").fill("30")
    page.get_by_role("button", name="Play").click()
    page.wait_for_timeout(200)
    expect(page.locator(".kt-closing")).to_have_count(0)  # not before the tour is complete
    expect(page.locator(".kt-progress")).to_have_text("Tour complete: all 36 squares.",
                                                      timeout=15_000)
    last = page.locator(".kt-square--solution:has(.kt-knight)")  # the knight ends there
    expect(last).to_have_attribute("aria-label", re.compile(r"the knight, solution, move 36$"))
    last_name = last.get_attribute("data-square")
    assert last_name is not None
    assert closing_line(page) == (*centre_of(last_name, 6), *centre_of("c3", 6))


def test_a_solved_closed_puzzle_draws_its_closing_move(page: Page, server: Any) -> None:
    page.goto("/knights-tour?size=6&closed=true")
    expect(page).to_have_url(KT_URL)
    tour = httpx.get(f"{server.url}/api/knights-tour/solve",
                     params={"size": 6, "start": "a1", "closed": "true"}).json()["squares"]
    cookie = next(c for c in page.context.cookies() if c["name"] == "tabletop_browser")
    headers = {"Cookie": f"tabletop_browser={cookie['value']}", "Origin": server.url}
    game_id = page.url.rsplit("/", 1)[1]
    for square in tour:
        response = httpx.post(f"{server.url}/api/games/{game_id}/moves",
                              json={"move": square}, headers=headers)
        assert response.status_code == 200, response.text
    page.reload()
    expect(page.locator(".game-status")).to_contain_text("Closed tour complete")
    assert closing_line(page) == (*centre_of(tour[-1], 6), *centre_of(tour[0], 6))


CONTRASTS = """() => {
  const channels = (colour) => colour.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const linear = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92
      : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  return Array.from(document.querySelectorAll('.kt-number'), (number) => {
    let under = number;  // the nearest box with a background: what the number sits on
    while (channels(getComputedStyle(under).backgroundColor)[3] === 0) under = under.parentElement;
    const back = channels(getComputedStyle(under).backgroundColor);
    const [light, dark] = [luminance(channels(getComputedStyle(number).color)), luminance(back)]
      .sort((a, b) => b - a);
    return { square: number.closest('.kt-square').className, opaque: back.length === 3,
             ratio: (light + 0.05) / (dark + 0.05) };
  });
}"""


def test_numbers_on_the_path_read_at_4_5_to_1(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=8")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "a1", "b3", "c1", "e2")  # dark, light, dark, light
    page.get_by_role("button", name="Solve from here").click()
    for _ in range(4):
        page.get_by_role("button", name="Step").click()
    expect(page.locator(".kt-square--solution")).to_have_count(4)
    numbers = page.evaluate(CONTRASTS)
    kinds = {("dark" in n["square"], "solution" in n["square"]) for n in numbers}
    assert kinds == {(False, False), (True, False), (False, True), (True, True)}
    for number in numbers:
        assert number["opaque"] and number["ratio"] >= 4.5, number


@pytest.mark.parametrize(("width", "height", "size"), [(1280, 800, 8), (375, 740, 8),
                                                       (375, 740, 16)])
def test_coordinates_frame_the_board_and_fit_the_window(page: Page, width: int, height: int,
                                                        size: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/knights-tour?size={size}")
    expect(page).to_have_url(KT_URL)
    files = [chr(ord("a") + c) for c in range(size)]
    ranks = [str(r) for r in range(size, 0, -1)]
    for side in ("top", "bottom"):
        expect(page.locator(f".kt-coords--{side} span")).to_have_text(files)
    for side in ("left", "right"):
        expect(page.locator(f".kt-coords--{side} span")).to_have_text(ranks)
    # Each label is centred on its file or rank, and its text fits the frame.
    for index, file in enumerate(files):
        label = box(page.locator(".kt-coords--bottom span").nth(index))
        square = box(page.locator(f"#kt-sq-{file}1"))
        assert abs(middle(label, "x") - middle(square, "x")) < 1
    for index, rank in enumerate(ranks):
        label = box(page.locator(".kt-coords--left span").nth(index))
        square = box(page.locator(f"#kt-sq-a{rank}"))
        assert abs(middle(label, "y") - middle(square, "y")) < 1
    assert page.locator(".kt-coords span").evaluate_all(
        "spans => spans.every(s => s.scrollWidth <= s.clientWidth)")
    # The whole board, coordinates included, is in the window without scrolling, and
    # nothing is wider than the window.
    board = box(page.locator(".kt-board"))
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    assert board["y"] + board["height"] <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def box(locator: Any) -> dict[str, float]:
    found: dict[str, float] | None = locator.bounding_box()
    assert found is not None
    return found


def middle(found: dict[str, float], axis: str) -> float:
    return found[axis] + found["width" if axis == "x" else "height"] / 2


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


# Issue 34, point 11: the solve on a phone, the knight, and the comparison's width.

BOARD_IN_VIEW = """() => {
  const board = document.querySelector('.kt-board').getBoundingClientRect();
  const header = document.querySelector('.site-header').getBoundingClientRect();
  return board.top >= header.bottom - 1 && board.bottom <= window.innerHeight + 1;
}"""


def test_a_solve_on_a_phone_brings_the_board_into_view(page: Page, settled: Settled) -> None:
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto("/knights-tour?size=8")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "d4", "f5")
    page.get_by_role("button", name="Solve from here").click()
    expect(page.locator("#kt-player")).to_be_visible()
    # The player scrolled down to the buttons: the board's top is out of view.
    page.evaluate("document.querySelector('#kt-player').scrollIntoView({block: 'end'})")
    page.evaluate("window.scrollBy(0, 400)")
    assert not page.evaluate(BOARD_IN_VIEW)
    page.get_by_role("slider", name="Moves per second").fill("30")
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(BOARD_IN_VIEW, timeout=5_000)
    # Still in view while it plays, and the player's buttons are still on the screen.
    page.wait_for_timeout(300)
    assert page.evaluate(BOARD_IN_VIEW)
    expect(page.get_by_role("button", name="Pause")).to_be_in_viewport()
    page.get_by_role("button", name="Pause").click()


def test_a_board_in_view_is_not_scrolled(page: Page, settled: Settled) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/knights-tour?size=8")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "d4")
    page.get_by_role("button", name="Solve from here").click()
    before = page.evaluate("window.scrollY")
    page.get_by_role("button", name="Step").click()
    expect(page.locator(".kt-square--solution")).to_have_count(1)
    assert page.evaluate("window.scrollY") == before


def test_the_knight_moves_along_the_solution(page: Page, settled: Settled) -> None:
    page.goto("/knights-tour?size=8")
    expect(page).to_have_url(KT_URL)
    click_squares(page, settled, "d4", "f5")
    page.get_by_role("button", name="Solve from here").click()
    page.get_by_role("button", name="Step").click()
    page.get_by_role("button", name="Step").click()
    expect(page.locator(".kt-square--solution")).to_have_count(2)
    # One knight on the board: on the solution's last square drawn, none left behind.
    expect(page.locator(".kt-knight")).to_have_count(1)
    expect(page.locator("#kt-sq-f5 .kt-knight")).to_have_count(0)
    expect(page.locator("#kt-sq-f5")).to_have_text("2")
    expect(page.locator("#kt-sq-f5")).to_have_attribute("aria-label", "f5, visited, move 2")
    head = page.locator(".kt-square--solution:has(.kt-knight)")
    expect(head).to_have_attribute("aria-label", re.compile(r", the knight, solution, move 4$"))
    expect(page.locator(".kt-square--solution", has_text=re.compile(r"^3$"))).to_have_count(1)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1280, 1000), (800, 1000),
                                               (375, 740), (320, 640)])
def test_the_solver_comparison_fits_its_panel(page: Page, width: int, height: int,
                                              panel_margins: Callable[[Page, str], Any]
                                              ) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/knights-tour?size=8")
    expect(page).to_have_url(KT_URL)
    page.locator(".kt-comparison").scroll_into_view_if_needed()
    expect(page.locator(".kt-table")).to_be_visible()
    margins = panel_margins(page, ".kt-table")
    assert margins["left"] >= -0.5 and margins["right"] >= -0.5, margins
    assert page.evaluate("document.documentElement.scrollWidth") <= width
