"""The move list keeps the current move in sight — at move 25 in review, at the last move
live — by scrolling the list alone, never the page (issue 34, point 1)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

# 38 moves on 9×9 that capture nothing: black fills rows 1-2, white rows 9-8, then A3, A7.
BLACK = [f"{c}{r}" for r in (1, 2) for c in "ABCDEFGHJ"] + ["A3"]
WHITE = [f"{c}{r}" for r in (9, 8) for c in "ABCDEFGHJ"] + ["A7"]
MOVES = [move for pair in zip(BLACK, WHITE, strict=True) for move in pair]


def in_sight(page: Page) -> bool:
    return bool(page.evaluate("""() => {
        const list = document.querySelector('.go-moves');
        const item = list.querySelector('[aria-current="step"]').getBoundingClientRect();
        const box = list.getBoundingClientRect();
        return item.top >= box.top - 1 && item.bottom <= box.bottom + 1
            && list.scrollHeight > list.clientHeight;
    }"""))


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800},
                                      {"width": 375, "height": 740}])
def test_the_current_move_is_kept_in_sight(page: Page, server: Any,
                                            viewport: dict[str, int]) -> None:
    game = httpx.post(f"{server.url}/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    seat = {"Authorization": f"Bearer {game['token']}"}
    for move in MOVES:
        assert httpx.post(f"{server.url}/api/games/{game['id']}/moves", json={"move": move},
                          headers=seat).status_code == 200
    page.set_viewport_size(viewport)
    page.goto(f"/go/{game['id']}?move=25")
    expect(page.locator('.go-moves [aria-current="step"]')).to_have_attribute(
        "data-step", "25")
    assert in_sight(page)
    assert page.evaluate("window.scrollY") == 0  # the page itself did not move
    page.goto(f"/go/{game['id']}")
    expect(page.locator('.go-moves [aria-current="step"]')).to_have_attribute(
        "data-step", str(len(MOVES)))
    assert in_sight(page)
    assert page.evaluate("window.scrollY") == 0
