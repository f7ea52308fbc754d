"""The chat of a friend game (issue 34), in three browsers: the two players write, each
message appears at once on the other screens — the watcher's too, who has no line to write
in — escaped, in a box that keeps its size (nothing moves the board), and the line written
in survives the friend's move. A mute hides the chat in this browser, and is remembered.
Screenshots in /tmp/shots/chat/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

SHOTS = Path("/tmp/shots/chat")
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), caret="initial", full_page=True)


def box(page: Page, selector: str) -> dict[str, float]:
    """Where the element is on the page (not the window: clicks scroll it)."""
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return {**found, "y": found["y"] + page.evaluate("() => window.scrollY")}


def send(page: Page, text: str, settled: Callable[[Page], None]) -> None:
    settled(page)
    page.locator("#chat-text").fill(text)
    page.get_by_role("button", name="Send").click()


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_two_friends_chat_while_a_watcher_reads(
        people: Callable[..., Page], settled: Callable[[Page], None], screen: str) -> None:
    viewport = VIEWPORTS[screen]
    alice, bob, carol = people(viewport), people(viewport), people(viewport)
    alice.goto("/go?size=9&opponent=remote&human=black")
    link = alice.locator("#invite-link")
    expect(link).to_be_visible()
    value = link.input_value()
    path = value[value.index("/", len("http://")):]
    bob.goto(path)
    carol.goto(path.split("?")[0])
    expect(carol.locator(".chat-readonly")).to_contain_text("Watchers read the chat")
    expect(carol.locator("#chat-text")).to_have_count(0)
    expect(alice.locator(".chat-log")).to_contain_text("No messages yet.")
    board, log = box(alice, "#go-board"), box(alice, ".chat-log")

    send(alice, "Hello <b>Bob</b>, have fun", settled)
    for page in (alice, bob, carol):
        expect(page.locator(".chat-line").last).to_contain_text("Hello <b>Bob</b>, have fun")
    expect(alice.locator(".chat-line").last).to_contain_text("You:")
    expect(bob.locator(".chat-line").last).to_contain_text("Black:")
    expect(carol.locator(".chat-line b")).to_have_count(0)  # the text, not markup
    expect(alice.locator("#chat-text")).to_have_value("")  # sent: the line is free

    # Bob writes while Alice moves: his unsent line survives the live re-render.
    settled(bob)
    bob.locator("#chat-text").fill("thanks, you")
    settled(alice)
    alice.click("#go-point-E5")
    expect(bob.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone")
    settled(bob)
    expect(bob.locator("#chat-text")).to_have_value("thanks, you")
    bob.locator("#chat-text").press("End")
    bob.locator("#chat-text").type(" too")
    bob.get_by_role("button", name="Send").click()
    for page in (alice, bob, carol):
        expect(page.locator(".chat-line").last).to_contain_text("thanks, you too")
    for number in range(6):  # more than the box holds: it scrolls, the page does not move
        send(alice if number % 2 else bob, f"line {number}", settled)
        expect(carol.locator(".chat-line").last).to_contain_text(f"line {number}")
    assert box(alice, "#go-board") == board
    assert box(alice, ".chat-log")["height"] == log["height"]
    newest, shown = box(carol, ".chat-line >> nth=-1"), box(carol, ".chat-log")
    assert newest["y"] + newest["height"] <= shown["y"] + shown["height"] + 1  # scrolled
    shot(carol, f"{screen}-watcher")
    shot(bob, f"{screen}-player")

    # Carol mutes the chat: hidden (its place kept), remembered after a reload.
    settled(carol)
    carol.get_by_role("button", name="Mute chat").click()
    expect(carol.locator(".chat-log")).to_be_hidden()
    expect(carol.locator(".chat-muted")).to_be_visible()
    carol.reload()
    expect(carol.get_by_role("button", name="Unmute chat")).to_have_attribute(
        "aria-pressed", "true")
    expect(carol.locator(".chat-log")).to_be_hidden()
    send(alice, "are you there?", settled)
    expect(bob.locator(".chat-line").last).to_contain_text("are you there?")
    carol.get_by_role("button", name="Unmute chat").click()
    expect(carol.locator(".chat-line").last).to_contain_text("are you there?")


def test_a_sent_line_is_freed_when_the_widget_was_redrawn_meanwhile(
        people: Callable[..., Page], settled: Callable[[Page], None]) -> None:
    """The friend's move (or seat) redraws the game's widget while a message is on its way:
    the line written in survives the redraw (hx-preserve), and once the message is sent it is
    emptied all the same; a refused message's line stays to be mended."""
    alice, bob = people(VIEWPORTS["desktop"]), people(VIEWPORTS["desktop"])
    alice.goto("/go?size=9&opponent=remote&human=black")
    link = alice.locator("#invite-link")
    expect(link).to_be_visible()
    value = link.input_value()
    bob.goto(value[value.index("/", len("http://")):])
    expect(bob.locator("#chat-text")).to_be_visible()
    held: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    alice.route("**/chat", hold)
    settled(alice)
    alice.locator("#chat-text").fill("sent across a redraw")
    alice.get_by_role("button", name="Send").click()
    for _ in range(100):
        if held:
            break
        alice.wait_for_timeout(50)
    assert held, "the message was never sent"
    alice.evaluate("""() => {
        const widget = document.querySelector('[data-live]');
        return window.htmx.ajax('GET', widget.dataset.refresh,
                                {target: '#' + widget.id, swap: 'outerHTML'});
    }""")
    expect(alice.locator("#chat-text")).to_have_value("sent across a redraw")  # preserved
    held.pop().continue_()
    expect(bob.locator(".chat-line").last).to_contain_text("sent across a redraw")
    expect(alice.locator("#chat-text")).to_have_value("")
    alice.unroute("**/chat")

    # Too fast, or too long for the server: refused, and the line keeps what was written.
    too_long = "x" * 301
    settled(alice)
    alice.evaluate("""text => {
        const line = document.getElementById('chat-text');
        line.removeAttribute('maxlength');
        line.value = text;
    }""", too_long)
    alice.get_by_role("button", name="Send").click()
    expect(alice.locator(".chat-error")).not_to_be_empty()
    expect(alice.locator("#chat-text")).to_have_value(too_long)
