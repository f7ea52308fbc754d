"""What regulars look for (issue 34): a name for yourself and a rematch. Two friends name
themselves — the other player and a watcher read the names, escaped — play to the end, and
one offers a rematch the other accepts: both are taken to the new game with the colours
swapped, the watcher gets a link, and Back returns to the old game and stays there. Against
the computer the rematch starts at once, and the browser's name names its next game.
Screenshots in /tmp/shots/rematch/."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

SHOTS = Path("/tmp/shots/rematch")
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}
GAME_PATH = re.compile(r"/tictactoe/([A-Za-z0-9_-]+)$")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), caret="initial", full_page=True)


def invited(creator: Page, friend: Page) -> str:
    link = creator.locator("#invite-link")
    expect(link).to_be_visible()
    value = link.input_value()
    path = value[value.index("/", len("http://")):]
    friend.goto(path)
    return path.split("?")[0]


def name_myself(page: Page, kind: str, name: str, settled: Callable[[Page], None]) -> None:
    settled(page)
    page.locator(f"#{kind}-my-name").fill(name)
    page.get_by_role("button", name="Save").click()
    settled(page)


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_friends_name_themselves_and_play_a_rematch_from_both_sides(
        people: Callable[..., Page], settled: Callable[[Page], None], screen: str) -> None:
    viewport = VIEWPORTS[screen]
    alice, bob, carol = people(viewport), people(viewport), people(viewport)
    alice.goto("/tictactoe?opponent=remote&human=X")
    game = invited(alice, bob)
    carol.goto(game)
    expect(bob.locator(".table-seats")).to_contain_text("O: you")

    name_myself(alice, "tictactoe", "Alice <b>&", settled)
    name_myself(bob, "tictactoe", "  Bob   the  builder ", settled)
    seats = ".table-seats-list" if screen == "desktop" else ".seats-strip"
    expect(alice.locator(seats)).to_contain_text("X: Alice <b>& (you)")
    expect(alice.locator(seats)).to_contain_text("O: Bob the builder")  # live, no reload
    expect(bob.locator(seats)).to_contain_text("X: Alice <b>&")
    expect(bob.locator(seats)).to_contain_text("O: Bob the builder (you)")
    expect(carol.locator(seats)).to_contain_text("X: Alice <b>&")  # the text, not markup
    expect(carol.locator(f"{seats} b")).to_have_count(0)
    expect(carol.locator("#tictactoe-my-name")).to_have_count(0)  # a watcher has no name
    shot(bob, f"{screen}-named")

    for player, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
        settled(player)
        player.click(f"#ttt-cell-{cell}")
        expect(carol.locator(f"#ttt-cell-{cell}")).not_to_have_text("")
    expect(alice.locator(".game-status")).to_have_text("You win!")
    expect(bob.locator(".game-status")).to_have_text("Your friend wins.")
    expect(carol.locator(".rematch")).to_have_count(0)  # nothing to say to a watcher yet

    offer = alice.get_by_role("button", name="Offer a rematch")
    expect(alice.locator(".rematch")).to_contain_text("You play O.")
    expect(bob.get_by_role("button", name="Offer a rematch")).to_be_visible()
    shot(alice, f"{screen}-over")
    settled(alice)
    offer.click()
    expect(alice.locator(".rematch")).to_contain_text(
        "You offered a rematch (you play O); waiting for your friend's answer.")
    expect(bob.locator(".rematch")).to_contain_text(
        "Your friend offers a rematch: you would play X.")  # live
    shot(bob, f"{screen}-offered")
    settled(bob)
    bob.get_by_role("button", name="Accept the rematch").click()

    # Both are taken to the rematch, colours swapped; the watcher is offered a link.
    expect(bob).not_to_have_url(re.compile(re.escape(game) + "$"))
    expect(bob).to_have_url(GAME_PATH)
    rematch = bob.url[bob.url.index("/tictactoe/"):]
    expect(alice).to_have_url(re.compile(re.escape(rematch) + "$"))
    for page in (alice, bob):
        expect(page.locator(seats)).to_contain_text("X: Bob the builder")
        expect(page.locator(seats)).to_contain_text("O: Alice <b>&")
    expect(bob.locator(".game-status")).to_have_text("Your move: you play X.")
    expect(alice.locator(".game-status")).to_have_text("Your friend's move.")
    watch = carol.get_by_role("link", name="Watch the rematch")
    expect(watch).to_have_attribute("href", rematch)
    shot(carol, f"{screen}-watcher-link")
    shot(alice, f"{screen}-rematch")
    settled(bob)
    bob.click("#ttt-cell-4")
    expect(alice.locator("#ttt-cell-4")).to_have_text("X")

    # Back returns to the finished game, which offers the way to the rematch and stays.
    alice.go_back()
    expect(alice).to_have_url(re.compile(re.escape(game) + "$"))
    expect(alice.get_by_role("link", name="Go to the rematch")).to_be_visible()
    alice.wait_for_timeout(600)
    expect(alice).to_have_url(re.compile(re.escape(game) + "$"))
    carol.get_by_role("link", name="Watch the rematch").click()
    expect(carol.locator("#ttt-cell-4")).to_have_text("X")
    expect(carol.locator(".table-watcher")).to_be_visible()


def test_a_rematch_against_the_computer_starts_at_once_and_the_name_is_remembered(
        people: Callable[..., Page], settled: Callable[[Page], None]) -> None:
    alice = people(VIEWPORTS["phone"])
    alice.goto("/go?size=9&opponent=remote&human=black")
    name_myself(alice, "go", "Alice", settled)  # "p" typed in a field passes nothing
    expect(alice.locator(".go-notices")).not_to_contain_text("passed")
    expect(alice.locator(".seats-strip")).to_contain_text("Black: Alice (you)")

    # The browser remembers the name: its next game (against the computer) carries it.
    alice.goto("/go?size=9&opponent=computer&human=black&level=easy")
    expect(alice.locator(".table-seats")).to_contain_text("Black: Alice (you)")
    expect(alice.locator("#go-my-name")).to_have_count(0)  # only a friend game asks it
    first = alice.url
    settled(alice)
    alice.once("dialog", lambda dialog: dialog.accept())
    alice.get_by_role("button", name="Resign").click()
    expect(alice.locator(".game-status")).to_contain_text("resign")
    expect(alice.locator(".rematch")).to_contain_text("You play White.")
    shot(alice, "phone-go-over")
    settled(alice)
    alice.get_by_role("button", name="Rematch", exact=True).click()
    expect(alice).not_to_have_url(first)
    expect(alice.locator(".table-seats")).to_contain_text("White: Alice (you)")
    expect(alice.locator(".table-seats")).to_contain_text("Black: the computer")
    shot(alice, "phone-go-rematch")
