"""The computer's review of a whole game (issue 34), at 1280×800 and 375×740: a player who
has just finished a game asks for it; it runs in the background while the box keeps its
height and nothing below it moves; when done the graph shows black's chances at every
position. A reviewed game's costliest move is ringed on the graph and marked in the list,
and stepping to it says what the computer preferred. Screenshots in /tmp/shots/review/."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.store import GameStore

SHOTS = Path("/tmp/shots/review")
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}
BLUNDER = ["C5", "B5", "C4", "B4", "C6", "B6", "C3", "B3", "G5", "C7", "G4", "D6", "G6", "D5",
           "G3", "D4", "G7", "D3", "J9", "C2"]


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_a_finished_game_reviewed_in_the_background(people: Callable[..., Page],
                                                     settled: Callable[[Page], None],
                                                     where: Callable[[Page, str], dict[str, float]],
                                                     screen: str) -> None:
    page = people(VIEWPORTS[screen])
    page.goto("/go?size=9&opponent=local")
    for point in ("E5", "D5", "E4", "D4", "E6", "D6"):
        settled(page)
        page.click(f"#go-point-{point}")
    settled(page)
    page.once("dialog", lambda dialog: dialog.accept())  # "Resign this game as black?"
    page.get_by_role("button", name="Resign").click()
    box = page.locator(".go-game-review")
    expect(box.get_by_role("button", name="Review the whole game")).to_be_visible()
    settled(page)
    board, before, new_game = where(page, "#go-board"), where(page, ".go-game-review"), \
        where(page, ".new-game-box summary")
    box.get_by_role("button", name="Review the whole game").click()
    expect(box.locator("[role=status]")).to_contain_text("The computer is reviewing the game")
    expect(page.locator(".go-graph figcaption")).to_contain_text("by the computer's review")
    settled(page)
    assert where(page, "#go-board") == board and where(page, ".go-game-review") == before
    assert where(page, ".new-game-box summary") == new_game  # the graph's room was there
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"running-{screen}.png"), caret="initial", full_page=True)
    # The positions are read one by one and the widget follows (a game event each save).
    expect(box.locator("[role=status]")).to_contain_text("Reviewed: 7 positions.",
                                                         timeout=60_000)
    expect(page.locator(".go-graph-dot")).to_have_count(7)
    settled(page)
    assert where(page, "#go-board") == board and where(page, ".go-game-review") == before
    assert where(page, ".new-game-box summary") == new_game
    page.screenshot(path=str(SHOTS / f"done-{screen}.png"), caret="initial", full_page=True)


def blundered(url: str, database_url: str) -> str:
    """A game whose review (stored as a finished review would be) marks black's J9."""
    game = httpx.post(f"{url}/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    token = {"Authorization": f"Bearer {game['token']}"}
    for move in BLUNDER:
        httpx.post(f"{url}/api/games/{game['id']}/moves", json={"move": move}, headers=token)
    httpx.post(f"{url}/api/games/{game['id']}/resign", json={}, headers=token)
    shares = [0.52, 0.5, 0.55, 0.5, 0.56, 0.5, 0.58, 0.5, 0.6, 0.55, 0.6, 0.5, 0.58, 0.52,
              0.55, 0.5, 0.5, 0.45, 0.45, 0.06, 0.04]
    review: dict[str, Any] = {"positions": [[share, "E5"] for share in shares], "to": 21,
                              "by": "done", "updated": time.time(), "stopped": None}
    review["positions"][18][1] = "C2"
    store = GameStore(database_url)
    try:
        record = store.find(game["id"])
        assert record is not None
        record.data["review"] = review
        store.update(record, record.version, {"type": "test"})
    finally:
        store.close()
    return str(game["id"])


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_the_costliest_move_is_marked_and_explained(people: Callable[..., Page],
                                                    settled: Callable[[Page], None],
                                                    where: Callable[[Page, str], dict[str, float]],
                                                    server: Any, screen: str) -> None:
    game_id = blundered(server.url, server.database_url)
    page = people(VIEWPORTS[screen])
    page.goto(f"/go/{game_id}?move=10")
    settled(page)
    expect(page.locator(".go-game-review [role=status]")).to_have_text(
        "Reviewed: 21 positions. One move cost 15 points or more: ringed on the graph, ? in "
        "the list.")
    expect(page.locator(".go-mistake")).to_have_count(1)
    expect(page.locator(".go-moves a[data-step='19'] .go-mistake")).to_contain_text("??")
    board, box = where(page, "#go-board"), where(page, ".go-game-review")
    page.locator(".go-graph-mistake").click()
    expect(page.locator(".go-review-here")).to_have_text(
        "Move 19, black J9, cost black 39 points (45% to 6%); the computer preferred C2.")
    expect(page.locator(".game-status")).to_contain_text("Move 19 of 20")
    settled(page)
    assert where(page, "#go-board") == board and where(page, ".go-game-review") == box
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"marked-{screen}.png"), caret="initial", full_page=True)
