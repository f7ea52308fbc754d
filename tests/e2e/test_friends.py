"""Two friends play through an invite link, in two browsers, while a third watches: each sees
the other's moves without reloading, and the watcher's clicks play nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

Settled = Callable[[Page], None]


def invite(page: Page) -> str:
    """The invitation link the creator's view offers, as a path."""
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    value = link.input_value()
    return value[value.index("/", len("http://")):]


def test_two_friends_play_tictactoe_to_the_end_while_a_third_watches(
        people: Callable[[], Page], settled: Settled) -> None:
    alice, bob, carol = people(), people(), people()
    alice.goto("/tictactoe?opponent=remote&human=X")
    link = invite(alice)
    bob.goto(link)
    expect(bob.locator(".table-seats")).to_contain_text("O: you")
    expect(bob).to_have_url(re.compile(r"/tictactoe/[A-Za-z0-9_-]+$"))  # the code is gone
    expect(alice.locator(".table-seats")).to_contain_text("O: friend")  # live, no reload
    expect(alice.locator("#invite-link")).to_have_count(0)
    carol.goto(link.split("?")[0])
    expect(carol.locator(".table-watcher")).to_contain_text("You are watching")
    expect(alice.locator("[data-watching]")).to_have_text("1 watching")

    moves = [(alice, 4), (bob, 0), (alice, 2), (bob, 6), (alice, 3), (bob, 5), (alice, 1),
             (bob, 7), (alice, 8)]
    for number, (player, cell) in enumerate(moves):
        settled(player)
        player.click(f"#ttt-cell-{cell}")
        mark = "X" if number % 2 == 0 else "O"
        for viewer in (alice, bob, carol):
            expect(viewer.locator(f"#ttt-cell-{cell}")).to_have_text(mark)
        if number == 2:
            # The watcher's click plays nothing: its board has no playable cell.
            carol.click("#ttt-cell-8", force=True)
            expect(carol.locator("#ttt-cell-8")).to_have_text("")
            expect(carol.locator("#ttt-board [hx-post]")).to_have_count(0)
    for viewer in (alice, bob, carol):
        expect(viewer.locator(".game-status")).to_contain_text("draw")


def test_two_friends_play_go_to_the_score_while_a_third_watches(
        people: Callable[[], Page], settled: Settled, passes: Callable[[Page], None]) -> None:
    alice, bob, carol = people(), people(), people()
    alice.goto("/go?size=9&opponent=remote&human=black")
    link = invite(alice)
    bob.goto(link)
    expect(bob.locator(".table-seats")).to_contain_text("White: you")
    carol.goto(link.split("?")[0])
    expect(carol.locator(".table-watcher")).to_be_visible()

    for player, point in ((alice, "E5"), (bob, "C3"), (alice, "G7"), (bob, "D4")):
        settled(player)
        player.click(f"#go-point-{point}")
        for viewer in (alice, bob, carol):
            expect(viewer.locator(f"#go-point-{point}")).to_have_attribute(
                "aria-label", f"{point}, {'black' if player is alice else 'white'} stone")
    expect(carol.locator("#go-board [hx-post]")).to_have_count(0)
    for player, after in ((alice, "White to play"), (bob, "Both players passed")):
        passes(player)  # alice's, the game's first, asks first
        expect(carol.locator(".game-status")).to_contain_text(after)
    for viewer in (alice, bob, carol):
        expect(viewer.locator(".go-score")).to_be_visible()
    settled(alice)
    alice.get_by_role("button", name="Accept score").click()
    expect(alice.get_by_role("button", name="Accepted")).to_be_disabled()
    expect(bob.locator(".game-status")).to_contain_text("Both players passed")
    settled(bob)
    bob.get_by_role("button", name="Accept score").click()
    for viewer in (alice, bob, carol):
        expect(viewer.locator(".game-status")).to_have_text(re.compile(
            r"^(You win|Your friend wins|(Black|White) wins) by .* points"))


def test_leaving_closes_the_stream_and_a_lost_server_is_found_again(
        people: Callable[[], Page], server: Any, settled: Settled) -> None:
    alice, carol = people(), people()
    alice.goto("/tictactoe?opponent=remote&human=X")
    game_path = invite(alice).split("?")[0]
    carol.goto(game_path)
    expect(alice.locator("[data-watching]")).to_have_text("1 watching")
    carol.goto("/")  # leaving the game's view closes its stream
    expect(alice.locator("[data-watching]")).to_have_text("0 watching")

    alice.expects_network_errors = True  # type: ignore[attr-defined]
    server.stop()
    expect(alice.locator(".live-status")).to_have_text("Reconnecting…")
    server.start()
    expect(alice.locator(".live-status")).to_be_hidden(timeout=15_000)
    settled(alice)
    alice.click("#ttt-cell-4")
    expect(alice.locator("#ttt-cell-4")).to_have_text("X")


def test_the_invitation_copies_and_the_clocks_run_in_both_browsers(
        people: Callable[[], Page], settled: Settled) -> None:
    alice, bob = people(), people()
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"])
    alice.goto("/tictactoe?opponent=remote&human=X&minutes=5&increment=3")
    link = invite(alice)
    alice.get_by_role("button", name="Copy").click()
    expect(alice.get_by_role("button", name="Copied")).to_be_visible()
    assert alice.evaluate("() => navigator.clipboard.readText()").endswith(link)
    bob.goto(link)
    expect(bob.locator(".table-seats")).to_contain_text("O: you")
    settled(alice)
    alice.click("#ttt-cell-4")
    for viewer in (alice, bob):  # O's clock runs, in both browsers
        running = viewer.locator("[data-clock-running]:visible")
        expect(running).to_have_count(1)
        expect(running).not_to_have_text("5:00", timeout=3000)
        expect(viewer.locator(".clock:visible").first).to_have_text("5:00")  # X's waits
