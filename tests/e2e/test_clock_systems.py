"""Byo-yomi from the new-game form, in two browsers at both viewports: a friend game started
with custom byo-yomi values (15 s of main time, 3 periods of 5 s) shows the periods on the
seats, ticks through main time into them, uses one up when it runs out, and ends on time
when the last one does. Screenshots in /tmp/shots/clocks/."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

SHOTS = Path("/tmp/shots/clocks")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # caret="initial": hiding the caret needs an inline style, which the CSP refuses.
    page.screenshot(path=str(SHOTS / f"{name}.png"), caret="initial")


def test_a_byoyomi_friend_game_from_the_form_ticks_through_its_periods(
        people: Callable[..., Page], settled: Callable[[Page], None]) -> None:
    alice, bob = people(DESKTOP), people(PHONE)
    alice.goto("/go?size=9&opponent=local")
    expect(alice.locator("#go-board")).to_be_visible()
    alice.locator(".new-game-box summary").click()
    alice.select_option("#go-new-opponent", "remote")
    custom = alice.locator(".clock-custom")
    expect(custom).to_be_hidden()  # the presets come first; custom values on request
    expect(alice.locator("#go-new-clock optgroup")).to_have_count(3)
    alice.select_option("#go-new-clock", "custom")
    expect(custom).to_be_visible()
    expect(alice.locator("#go-new-clock-periods")).to_be_visible()
    expect(alice.locator("#go-new-clock-block")).to_be_hidden()  # Canadian's, not chosen
    alice.fill("#go-new-clock-minutes", "0.25")
    alice.fill("#go-new-clock-periods", "3")
    alice.fill("#go-new-clock-period", "5")
    custom.scroll_into_view_if_needed()
    shot(alice, "form-custom-1280")
    start = alice.get_by_role("button", name="Start a new game")
    start.click()
    link = alice.locator("#invite-link")
    expect(link).to_be_visible()
    value = link.input_value()
    bob.goto(value[value.index("/", len("http://")):])
    expect(bob.locator(".table-seats")).to_contain_text("White: you")
    for viewer in (alice, bob):
        expect(viewer.locator(".clock:visible").first).to_have_text("0:15 + 3×5s")
    settled(alice)
    alice.click("#go-point-E5")
    white = [viewer.locator("[data-clock-running]:visible") for viewer in (alice, bob)]
    for clock in white:  # white's main time runs, with its periods after it
        expect(clock).to_have_text(re.compile(r"^0:1[0-4] \+ 3×5s$"), timeout=3000)
        expect(clock).to_have_attribute("aria-label", re.compile(
            r"^White's clock: 0:1\d of main time, then 3 × 5 seconds$"))
    shot(alice, "main-time-1280")
    shot(bob, "main-time-375")
    for clock in white:  # main time spent: the first period runs
        expect(clock).to_have_text(re.compile(r"^0:0[0-4]\.\d \(3×5s\)$"), timeout=17_000)
    expect(white[1]).to_have_attribute("aria-label", re.compile(
        r"^White's clock: byo-yomi, 0:0\d\.\d of this period, 3 periods of 5 seconds left$"))
    shot(alice, "byoyomi-1280")
    shot(bob, "byoyomi-375")
    for clock in white:  # it ran out: the next period, full
        expect(clock).to_have_text(re.compile(r"^0:0[0-4]\.\d \(2×5s\)$"), timeout=6000)
    settled(bob)
    bob.click("#go-point-C3")  # a move in the period: black's main time runs now
    for viewer in (alice, bob):
        expect(viewer.locator(".clock:visible").last).to_have_text("0:05.0 (2×5s)")
        expect(viewer.locator("[data-clock-running]:visible")).to_have_text(
            re.compile(r"^0:1[0-4] \+ 3×5s$"))
    shot(bob, "after-move-375")
    settled(alice)
    alice.click("#go-point-G7")
    for viewer in (alice, bob):  # white lets both periods run out: black wins on time
        expect(viewer.locator(".game-status")).to_contain_text("time", timeout=15_000)
        expect(viewer.locator(".clock:visible").last).to_have_text("0:00.0")
    shot(alice, "flag-1280")
    shot(bob, "flag-375")
