"""Issue 34 point 6: on a phone a friend game's seats and clocks sit just above the board,
within the first screen, in a line that keeps its height as the clocks run (nothing moves
the board); on a wide screen they stay in the panel beside it, and each screen shows one
copy of them. Screenshots in /tmp/shots/seats/."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

SHOTS = Path("/tmp/shots/seats")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), caret="initial")


def invited(creator: Page, friend: Page) -> None:
    link = creator.locator("#invite-link")
    expect(link).to_be_visible()
    value = link.input_value()
    friend.goto(value[value.index("/", len("http://")):])


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def test_a_phone_shows_the_clocks_just_above_the_go_board(
        people: Callable[..., Page], settled: Callable[[Page], None]) -> None:
    alice, bob = people(DESKTOP), people(PHONE)
    alice.goto("/go?size=19&opponent=remote&human=black&minutes=10&system=byoyomi"
               "&periods=5&period=30")
    invited(alice, bob)
    strip = bob.locator(".seats-strip")
    expect(strip).to_be_visible()
    expect(strip).to_contain_text("White: you")
    expect(strip).to_contain_text("Black: friend")
    expect(bob.locator(".table-seats-list")).to_be_hidden()  # one copy on the screen
    expect(bob.locator("[data-watching]")).to_be_visible()  # the count stays in the panel
    expect(bob.locator(".clock:visible")).to_have_count(2)
    seats, board = box(bob, ".seats-strip"), box(bob, "#go-board")
    assert seats["y"] + seats["height"] <= board["y"] + 0.5, "the strip overlaps the board"
    assert seats["y"] + seats["height"] <= PHONE["height"], "the clocks are below the screen"
    assert bob.evaluate("() => window.scrollY") == 0
    # On the wide screen the seats stay beside the board, once.
    expect(alice.locator(".seats-strip")).to_be_hidden()
    expect(alice.locator(".table-seats-list")).to_be_visible()
    expect(alice.locator(".clock:visible")).to_have_count(2)

    settled(alice)
    alice.click("#go-point-D4")
    running = bob.locator(".seats-strip [data-clock-running]")
    expect(running).to_have_text(re.compile(r"^9:5\d \+ 5×30s$"), timeout=5000)
    expect(bob.locator(".seats-strip .seat--running")).to_contain_text("White: you")
    expect(bob.locator(".game-status")).to_have_text("Your move (white).")
    after = box(bob, "#go-board")
    assert after["y"] == board["y"], "the board moved when the clock started"
    assert box(bob, ".seats-strip")["height"] == seats["height"]
    shot(bob, "go-375")
    shot(alice, "go-1280")


def test_a_phone_shows_the_clocks_just_above_the_tictactoe_board(
        people: Callable[..., Page], settled: Callable[[Page], None]) -> None:
    alice, bob = people(PHONE), people(PHONE)
    alice.goto("/tictactoe?opponent=remote&human=X&minutes=5&increment=3")
    invited(alice, bob)
    for viewer, words in ((alice, "O: friend"), (bob, "O: you")):
        expect(viewer.locator(".seats-strip")).to_contain_text(words)
        seats, board = box(viewer, ".seats-strip"), box(viewer, "#ttt-board")
        assert seats["y"] + seats["height"] <= board["y"] + 0.5
        expect(viewer.locator(".table-seats-list")).to_be_hidden()
    settled(alice)
    alice.click("#ttt-cell-4")
    expect(bob.locator(".seats-strip [data-clock-running]")).not_to_have_text(
        "5:00", timeout=3000)
    shot(bob, "tictactoe-375")


def test_a_game_against_the_computer_without_a_clock_has_no_strip(
        people: Callable[..., Page]) -> None:
    page = people(PHONE)
    page.goto("/go?size=9")
    expect(page.locator("#go-board")).to_be_visible()
    expect(page.locator(".seats-strip")).to_have_count(0)
    expect(page.locator(".table-seats-list")).to_be_visible()
