"""An imported record's variations in the browser (issue 34, point 10): the record opens at
its start; at a branching move the alternatives are links into each line; a variation's
moves fill the move list, stepping keeps to the variation, "Back to the main line" returns,
back/forward walk the lines; the export still holds every variation. At 1280×800 and
375×740, with screenshots under /tmp/shots/review/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

SHOTS = Path("/tmp/shots/review")
# A main line E5 C7 G7 C3 G3; at move 3 two variations: C4 G3 (then D7 or F7) and G3 G7.
RECORD = (b"(;GM[1]FF[4]SZ[9]KM[7]PB[Honinbo Shusaku]PW[Gennan Inseki];B[ee];W[cc]"
          b"(;B[gc];W[cg];B[gg]C[main line comment])"
          b"(;B[cf]C[a variation];W[gg](;B[dc])(;B[fc]))"
          b"(;B[gg];W[gc]))")
VIEWPORTS = [{"width": 1280, "height": 800}, {"width": 375, "height": 740}]


# Screenshots keep the caret: hiding it leaves style="" on the inputs, which htmx then copies
# onto the next widget's, and the page's CSP (style-src 'self') logs each as an error.


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280x800", "375x740"])
def test_a_variation_is_entered_left_and_exported(page: Page, server: Any, settled: Any,
                                                  viewport: dict[str, int]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = f"{viewport['width']}x{viewport['height']}"
    page.set_viewport_size(viewport)
    page.goto("/go")
    settled(page)
    page.locator("#go-sgf").set_input_files(files=[{
        "name": "ear-reddening.sgf", "mimeType": "application/x-go-sgf", "buffer": RECORD}])
    page.get_by_role("button", name="Open game").click()
    expect(page).to_have_url(re.compile(r"/go/[^?]+\?move=0$"))
    status = page.locator(".game-status")
    expect(status).to_have_text("Move 0 of 5: The start of the game.")
    game_id = page.url.split("/go/")[1].split("?")[0]
    settled(page)

    page.keyboard.press("ArrowRight")
    expect(status).to_contain_text("Move 1 of 5")
    settled(page)
    variations = page.locator(".go-variations")
    expect(variations).to_contain_text("No variations at this move.")
    before = box(page, ".go-variations")
    page.keyboard.press("ArrowRight")
    expect(variations).to_contain_text("Next, move 3 has variations:")
    settled(page)
    after = box(page, ".go-variations")
    assert (after["y"], after["height"]) == (before["y"], before["height"])  # nothing moved
    page.screenshot(path=str(SHOTS / f"{name}-1-branch-ahead.png"), full_page=True, caret="initial")

    choice = variations.get_by_role("link", name=re.compile(r"^a:"))
    choice.scroll_into_view_if_needed()
    scroll = page.evaluate("window.scrollY")
    choice.click()
    expect(page).to_have_url(re.compile(rf"/go/{game_id}\?move=3&line=3\.1$"))
    expect(status).to_have_text("Move 3 of 5: Black played C4.")
    settled(page)
    assert page.evaluate("window.scrollY") == scroll  # swapped in place, not reloaded
    expect(variations).to_contain_text("In variation 3a")
    expect(page.locator(".go-moves")).to_contain_text("C4")
    expect(page.locator(".go-moves")).not_to_contain_text("C3")  # the main line's move 4
    expect(page.locator('.go-board [aria-label^="C4"], #go-point-C4')).not_to_have_count(0)

    page.keyboard.press("ArrowRight")
    expect(status).to_have_text("Move 4 of 5: White played G3.")
    settled(page)
    page.keyboard.press("ArrowRight")
    expect(status).to_have_text("Move 5 of 5: Black played D7.")
    expect(page).to_have_url(re.compile(r"\?move=5&line=3\.1$"))  # stepping keeps the line
    settled(page)
    expect(variations).to_contain_text("Variations at move 5:")
    page.screenshot(path=str(SHOTS / f"{name}-2-in-variation.png"), full_page=True, caret="initial")
    variations.get_by_role("link", name=re.compile(r"^a:")).click()
    expect(status).to_have_text("Move 5 of 5: Black played F7.")
    expect(page).to_have_url(re.compile(r"\?move=5&line=3\.1-5\.1$"))
    expect(variations).to_contain_text("In variation 3a, 5a")
    settled(page)

    variations.get_by_role("link", name="Back to the main line").click()
    expect(page).to_have_url(re.compile(rf"/go/{game_id}\?move=3$"))
    expect(status).to_have_text("Move 3 of 5: Black played G7.")
    expect(variations).to_contain_text("On the record's main line.")
    expect(page.locator(".go-moves")).to_contain_text("C3")
    settled(page)
    page.screenshot(path=str(SHOTS / f"{name}-3-main-line.png"), full_page=True, caret="initial")

    page.go_back()  # back into the variation, and forward out of it
    expect(page).to_have_url(re.compile(r"\?move=5&line=3\.1-5\.1$"))
    expect(status).to_have_text("Move 5 of 5: Black played F7.")
    page.go_back()
    expect(status).to_have_text("Move 5 of 5: Black played D7.")
    page.go_forward()
    page.go_forward()
    expect(status).to_have_text("Move 3 of 5: Black played G7.")
    settled(page)

    exported = page.request.get(f"/api/games/{game_id}/sgf").text()
    for move in ("B[gc]", "B[cf]", "B[dc]", "B[fc]", "W[gc]"):  # every line is kept
        assert move in exported, move
