"""An invitation already used says so: the third person to open it reads that both seats
are taken and watches (it used to make them a watcher silently; issue 34, point 12)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect


def test_an_invitation_used_already_says_so(browser: Browser, server: Any) -> None:
    contexts = [browser.new_context(base_url=server.url, viewport={"width": 375, "height": 740})
                for _ in range(3)]
    try:
        alice, bob, carol = (context.new_page() for context in contexts)
        alice.goto("/tictactoe?opponent=remote&human=X")
        link = alice.locator("#invite-link")
        expect(link).to_be_visible()
        value = link.input_value()
        path = value[value.index("/", len("http://")):]
        bob.goto(path)
        expect(bob.locator(".table-seats")).to_contain_text("O: you")
        carol.goto(path)
        expect(carol.get_by_role("alert")).to_have_text(
            "This invitation has been used: both seats are taken, so you are watching the game.")
        expect(carol.locator(".table-watcher")).to_contain_text("You are watching")
        bob.goto(path)  # the friend who used it, opening it again: seated, no note
        expect(bob.locator(".table-seats")).to_contain_text("O: you")
        expect(bob.locator(".game-error")).to_have_count(0)
    finally:
        for context in contexts:
            context.close()
