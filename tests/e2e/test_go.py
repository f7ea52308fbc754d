"""Go in a real browser: captures, ko, passing to the score, SGF out and in, navigation."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

GO_URL = re.compile(r"/go/[A-Za-z0-9_-]+$")
TTT_URL = re.compile(r"/tictactoe/[A-Za-z0-9_-]+$")
Settled = Callable[[Page], None]


def click_points(page: Page, settled: Settled, *vertices: str) -> None:
    for vertex in vertices:
        page.locator(f"#go-point-{vertex}").click()
        expect(page.locator(f"#go-point-{vertex}")).to_have_attribute(
            "aria-label", re.compile(r"stone"))
        settled(page)


def board_labels(page: Page) -> list[str]:
    return page.locator(".go-point").evaluate_all("points => points.map(p => p.ariaLabel)")


def test_a_capture_by_clicks(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    expect(page).to_have_title("Go · Tabletop")
    click_points(page, settled, "E5", "D5", "A1", "F5", "A2", "E6")
    expect(page.locator(".go-notice--atari")).to_contain_text("E5")
    in_atari = "E5, black stone, in atari"
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", in_atari)
    page.locator("#go-point-A3").click()
    settled(page)
    page.locator("#go-point-E4").click()
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, empty")
    expect(page.locator(".go-facts")).to_contain_text(re.compile(r"Captured by white\s*1"))


def test_an_illegal_ko_click_is_explained(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    click_points(page, settled, "C4", "D4", "B3", "E3", "C2", "D2", "D3", "C3")
    page.locator("#go-point-D3").click()
    expect(page.locator(".go-notice--error")).to_contain_text(re.compile(r"^Ko: .*play elsewhere"))
    expect(page.locator("#go-point-D3")).to_have_attribute("aria-label", "D3, empty")


def test_pass_pass_then_scoring_and_a_result(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    click_points(page, settled, "E5")
    page.get_by_role("button", name=re.compile("^Pass")).click()
    # The game's first pass, this early, asks first.
    expect(page.locator(".go-notice--confirm")).to_contain_text("Pass this early?")
    page.locator("[data-pass-confirm]").click()
    expect(page.locator(".game-status")).to_have_text("Black to play.")  # white passed
    settled(page)
    page.keyboard.press("p")  # the P key passes too, at once after the other side's pass
    expect(page.locator(".go-score caption")).to_contain_text("Area count")
    expect(page.locator(".game-status")).to_contain_text("Both players passed")
    page.locator("#go-point-E5").click()  # mark the lone stone dead...
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", re.compile("marked dead"))
    settled(page)
    page.locator("#go-point-E5").click()  # ...and alive again
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone")
    settled(page)
    page.get_by_role("button", name="Accept score").click()
    expect(page.locator(".game-status")).to_have_text("Black wins by 73.5 points (B+73.5).")


def test_sgf_download_then_upload_gives_the_same_position(page: Page, settled: Settled,
                                                          tmp_path: Path) -> None:
    page.goto("/go?size=13&opponent=local")
    expect(page).to_have_url(GO_URL)
    click_points(page, settled, "D4", "K10", "C3", "D3")
    original, first_url = board_labels(page), page.url
    with page.expect_download() as download:
        page.get_by_role("link", name="Download SGF").click()
    path = tmp_path / "game.sgf"
    download.value.save_as(path)
    assert download.value.suggested_filename.endswith(".sgf")
    assert "SZ[13]" in path.read_text()
    page.locator("#go-sgf").set_input_files(str(path))
    page.get_by_role("button", name="Open game").click()
    expect(page).not_to_have_url(first_url)
    expect(page).to_have_url(re.compile(r"/go/[A-Za-z0-9_-]+\?move=0$"))  # at its start
    expect(page.locator("#go-point-D3")).to_have_attribute("aria-label", "D3, empty")
    page.get_by_role("button", name="The end").click()
    expect(page).to_have_url(re.compile(r"/go/[A-Za-z0-9_-]+\?move=4$"))
    expect(page.locator("#go-point-D3")).to_have_attribute("aria-label", "D3, white stone")
    assert board_labels(page) == original
    expect(page.locator(".game-status")).to_have_text("Move 4 of 4: White played D3.")
    # Play on from the record's end: a new game at one screen, from that position.
    page.get_by_role("button", name="Play on from move 4").click()
    expect(page).to_have_url(GO_URL)
    expect(page.locator(".game-status")).to_have_text("Black to play.")
    assert board_labels(page)[:5] == original[:5]
    page.go_back()
    page.go_back()
    expect(page).to_have_url(first_url)


def test_a_broken_sgf_upload_is_explained(page: Page, tmp_path: Path) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    path = tmp_path / "broken.sgf"
    path.write_text("(;FF[4]SZ[9];B[ee]")
    page.locator("#go-sgf").set_input_files(str(path))
    page.get_by_role("button", name="Open game").click()
    expect(page.locator("#go-import-status .game-error")).to_contain_text("Could not open")


def test_back_and_forward_between_go_and_tictactoe(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    click_points(page, settled, "C7")
    go_url = page.url
    page.evaluate("window.__marker = 'kept'")
    page.get_by_role("navigation").get_by_role("link", name="Tic-tac-toe").click()
    expect(page).to_have_url(TTT_URL)
    page.locator("#ttt-cell-4").click()
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    ttt_url = page.url
    page.go_back()
    expect(page).to_have_url(go_url)
    expect(page.locator("#go-point-C7")).to_have_attribute("aria-label", "C7, black stone")
    page.go_forward()
    expect(page).to_have_url(ttt_url)
    expect(page.locator("#ttt-cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    assert page.evaluate("window.__marker") == "kept"


def test_keyboard_play_on_the_go_board(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    page.locator("#go-point-E5").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone")
    settled(page)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#go-point-F6")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#go-point-F6")).to_have_attribute("aria-label", "F6, white stone")


def test_against_the_computer_the_stone_appears_at_once_then_its_reply(page: Page,
                                                                       settled: Settled) -> None:
    # Medium thinks for a second: long enough to see the indicator (easy can answer in
    # a few milliseconds, before the test looks).
    page.goto("/go?size=9&opponent=computer&level=medium")
    expect(page).to_have_url(GO_URL)
    page.locator("#go-point-E5").click()
    # The human's stone is on the board while the computer is still thinking.
    expect(page.locator(".go-notice--thinking")).to_contain_text("thinking as white… up to 1 s")
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone")
    expect(page.locator(".go-point[hx-post]")).to_have_count(0)  # no clicks while it thinks
    expect(page.locator(".go-notice--thinking")).to_have_count(0, timeout=60_000)
    expect(page.locator(".go-point[aria-label*='white stone']")).to_have_count(1)
    expect(page.locator(".game-status")).to_have_text("Your move (black).")
    expect(page.locator(".go-graph figcaption")).to_contain_text("winning chances")
    settled(page)
    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".go-point[aria-label*='stone']")).to_have_count(0)


def test_the_computer_opens_when_the_human_takes_white(page: Page) -> None:
    page.goto("/go?size=9&opponent=computer&level=easy&human=white")
    expect(page).to_have_url(GO_URL)
    expect(page.locator(".go-point[aria-label*='black stone']")).to_have_count(1,
                                                                             timeout=60_000)
    expect(page.locator(".game-status")).to_have_text("Your move (white).")
