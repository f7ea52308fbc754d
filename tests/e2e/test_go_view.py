"""The Go view as players of Go sites expect it: a board that never moves under the pointer
and fits the window, a second tap on phones, the game record to step through with deep links,
the computer's opinion in review, announcements, and recovery when the server goes away."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

Settled = Callable[[Page], None]
GO_URL = re.compile(r"/go/[A-Za-z0-9_-]+$")


def board_box(page: Page) -> dict[str, float]:
    box = page.locator(".go-board").bounding_box()
    assert box is not None
    return box


def token_of(page: Page, server: Any) -> dict[str, str]:
    """The creator's seat, as an API client: the page's browser cookie."""
    cookie = next(c for c in page.context.cookies() if c["name"] == "tabletop_browser")
    return {"Cookie": f"tabletop_browser={cookie['value']}", "Origin": server.url}


def test_nothing_that_appears_moves_the_board(page: Page, settled: Settled,
                                              passes: Callable[[Page], None]) -> None:
    page.goto("/go?size=9&opponent=computer&level=medium")
    expect(page).to_have_url(GO_URL)
    before = board_box(page)
    settled(page)
    page.click("#go-point-E5")
    expect(page.locator(".go-notice--thinking")).to_be_visible()  # the computer thinks…
    assert board_box(page) == before
    expect(page.locator(".go-notice--thinking")).to_have_count(0, timeout=30_000)
    assert board_box(page) == before

    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    before = board_box(page)
    for point in ("E4", "E5", "D5", "A1", "F5"):  # white E5 ends in atari
        settled(page)
        page.click(f"#go-point-{point}")
        expect(page.locator(f"#go-point-{point}")).to_have_attribute(
            "aria-label", re.compile(r"stone"))
        assert board_box(page) == before
    expect(page.locator(".go-notice--atari")).to_contain_text("Atari: white's stone at E5")
    passes(page)  # white passes (confirmed: it is early): black to play
    expect(page.locator(".game-status")).to_have_text("Black to play.")
    assert board_box(page) == before


def test_the_levels_are_explained_where_one_is_chosen(page: Page, settled: Settled) -> None:
    """One sentence of what the levels mean under the game's level chooser; it does not
    change with the level, so choosing one moves nothing below it."""
    page.goto("/go?size=9&opponent=computer&level=medium")
    expect(page).to_have_url(GO_URL)
    meaning = page.locator(".go-opponent .hint")
    expect(meaning).to_contain_text("Easy is the gentlest")
    settled(page)
    download = page.get_by_role("link", name="Download SGF")
    before = download.bounding_box()
    page.select_option("#go-level", "strongest")
    expect(page.locator("#go-level")).to_have_value("strongest")
    settled(page)
    expect(page.locator(".go-opponent .hint")).to_contain_text("Easy is the gentlest")
    assert download.bounding_box() == before


@pytest.mark.parametrize("size", [9, 13, 19])
def test_the_board_and_its_actions_fit_1280_by_800(browser: Browser, server: Any,
                                                  size: int) -> None:
    context = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"/go?size={size}&opponent=local")
    expect(page).to_have_url(GO_URL)
    box = board_box(page)
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box
    for name in ("Pass", "Undo"):
        button = page.get_by_role("button", name=name)
        target = button.bounding_box()
        assert target is not None and target["y"] + target["height"] <= 800, name
    context.close()


def test_a_phone_asks_for_a_second_tap_on_a_big_board(browser: Browser, server: Any) -> None:
    context = browser.new_context(base_url=server.url, viewport={"width": 375, "height": 740},
                                  has_touch=True)
    page = context.new_page()
    page.goto("/go?size=13&opponent=local")
    expect(page).to_have_url(GO_URL)
    point = page.locator("#go-point-D4")
    point.tap()
    expect(point).to_have_class(re.compile("go-point--pending"))
    expect(page.locator(".go-notice--confirm")).to_contain_text("Tap D4 again")
    expect(point).to_have_attribute("aria-label", "D4, empty")
    point.tap()
    expect(point).to_have_attribute("aria-label", "D4, black stone")
    context.close()


def test_stepping_through_the_record_with_deep_links(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    game_url = page.url
    for point in ("E5", "C3", "G7", "D4"):
        settled(page)
        page.click(f"#go-point-{point}")
    settled(page)
    history = page.evaluate("() => history.length")
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(game_url + "?move=3")
    expect(page.locator(".game-status")).to_have_text("Move 3 of 4: Black played G7.")
    expect(page.locator("#go-point-D4")).to_have_attribute("aria-label", "D4, empty")
    page.keyboard.press("Home")
    expect(page).to_have_url(game_url + "?move=0")
    page.locator(".go-moves a", has_text="C3").click()
    expect(page).to_have_url(game_url + "?move=2")
    assert page.evaluate("() => history.length") == history  # no history flood
    page.reload()
    expect(page.locator(".game-status")).to_have_text("Move 2 of 4: White played C3.")
    page.keyboard.press("End")
    expect(page).to_have_url(game_url)
    expect(page.locator(".game-status")).to_have_text("Black to play.")


def test_the_computers_opinion_in_review(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    settled(page)
    page.click("#go-point-E5")
    settled(page)
    page.locator(".go-moves a", has_text="Start").click()
    settled(page)
    page.get_by_role("button", name="What would the computer play?").click()
    analysis = page.locator(".go-analysis")
    expect(analysis).to_contain_text("The computer would play", timeout=20_000)
    expect(analysis).to_contain_text("chance of winning")
    expect(analysis).to_contain_text(re.compile(
        r"(ahead|behind) by about (1 point |\d+ points)|about even on points"))
    expect(page.locator(".go-line")).not_to_have_count(0)  # its line, numbered on the board


def test_the_computers_move_is_announced(page: Page) -> None:
    page.goto("/go?size=9&opponent=computer&level=easy")
    expect(page).to_have_url(GO_URL)
    page.click("#go-point-E5")
    expect(page.locator("#announcer")).to_have_text(re.compile(r"^White (played [A-T]\d+"
                                                              r"|passed)"), timeout=30_000)


def test_coming_back_with_the_back_button_shows_the_game_as_it_stands(
        page: Page, server: Any) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    game_id = page.url.rsplit("/", 1)[1]
    page.goto("about:blank")
    played = httpx.post(f"{server.url}/api/games/{game_id}/moves", json={"move": "E5"},
                        headers=token_of(page, server))
    assert played.status_code == 200, played.text
    page.go_back()
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone")


def test_a_click_while_the_server_is_down_says_so_and_goes_through_when_it_is_back(
        page: Page, server: Any, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    settled(page)
    page.expects_network_errors = True  # type: ignore[attr-defined]
    server.stop()
    page.click("#go-point-E5")
    expect(page.locator(".trouble")).to_contain_text("cannot be reached")
    server.start()
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", "E5, black stone",
                                                           timeout=20_000)
    expect(page.locator(".trouble")).to_be_hidden()


VIEWPORTS = [{"width": 1280, "height": 800}, {"width": 375, "height": 740}]
# A spy on the Web Audio API: counts the stone sounds the page makes (each has one oscillator).
COUNT_SOUNDS = """
window.__stoneSounds = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__stoneSounds += 1; return super.createOscillator(); }
};
"""
# Each select's natural width (that of its longest option) against its width on the page:
# a select cut narrower than its text still has scrollWidth == clientWidth, so both are asked.
SELECT_WIDTHS = """() => [...document.querySelectorAll('#go-game select')]
  .filter(select => select.offsetParent !== null)
  .map(select => {
    const copy = select.cloneNode(true);
    copy.removeAttribute('id');
    Object.assign(copy.style, {position: 'absolute', visibility: 'hidden', width: 'auto',
                               minWidth: '0', maxWidth: 'none'});
    select.parentElement.append(copy);
    const natural = copy.offsetWidth;
    copy.remove();
    return {id: select.id, natural, width: select.offsetWidth,
            scrollWidth: select.scrollWidth, clientWidth: select.clientWidth};
  })"""


def new_page(browser: Browser, server: Any, viewport: dict[str, int],
             init_script: str = "") -> tuple[BrowserContext, Page, list[str]]:
    """A page in a context of its own at `viewport`, recording console errors."""
    context = browser.new_context(base_url=server.url, viewport=viewport)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return context, page, problems


def stone_sounds(page: Page) -> int:
    return int(page.evaluate("window.__stoneSounds"))


def test_level_and_colour_are_asked_only_against_the_computer(page: Page,
                                                              settled: Settled) -> None:
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    level, human = page.locator("#go-new-level"), page.locator("#go-new-human")
    meaning = page.locator(".new-game-box .hint", has_text="Easy is the gentlest")
    # Hidden from the first render (the form is closed: open it to look), and not sent.
    page.locator(".new-game-box summary").click()
    expect(level).to_be_hidden()
    expect(human).to_be_hidden()
    expect(meaning).to_be_hidden()
    expect(level).to_be_disabled()
    before = board_box(page)
    opponent = page.locator("#go-new-opponent")
    opponent.select_option("computer")
    expect(level).to_be_visible()
    expect(human).to_be_visible()
    expect(meaning).to_be_visible()  # what the levels mean, where one is chosen
    expect(human).to_be_enabled()
    for person in ("remote", "local"):
        opponent.select_option(person)
        expect(level).to_be_hidden()
        expect(human).to_be_hidden()
        expect(meaning).to_be_hidden()
        expect(human).to_be_disabled()
    assert board_box(page) == before
    # A game against a friend starts without them.
    opponent.select_option("remote")
    page.get_by_role("button", name="Start a new game").click()
    expect(page.locator("#invite-link")).to_be_visible()
    settled(page)
    expect(page.locator("#go-new-level")).to_be_hidden()  # its new-game form starts so too

    page.goto("/go?size=9&opponent=computer&level=easy")
    expect(page).to_have_url(GO_URL)
    page.locator(".new-game-box summary").click()
    expect(page.locator("#go-new-level")).to_be_visible()
    expect(page.locator("#go-new-human")).to_be_visible()


def test_a_stone_clicks_unless_muted_and_the_switch_is_remembered(
        browser: Browser, server: Any) -> None:
    context, page, problems = new_page(browser, server, VIEWPORTS[0], COUNT_SOUNDS)
    page.goto("/go?size=9&opponent=computer&level=easy")
    expect(page).to_have_url(GO_URL)
    mute = page.get_by_role("button", name="Mute stone sounds")
    expect(mute).to_have_attribute("aria-pressed", "false")
    assert stone_sounds(page) == 0  # nothing on arrival
    page.click("#go-point-E5")
    # The player's stone, then the computer's reply.
    page.wait_for_function("() => window.__stoneSounds >= 2", timeout=30_000)
    expect(page.locator(".go-notice--thinking")).to_have_count(0, timeout=30_000)
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    heard = stone_sounds(page)
    free = page.locator(".go-point--legal").first
    free.click()
    expect(page.locator(".go-point[aria-label*='black stone']")).to_have_count(2)
    expect(page.locator(".go-notice--thinking")).to_have_count(0, timeout=30_000)
    assert stone_sounds(page) == heard  # muted: silent
    page.reload()
    expect(page.get_by_role("button", name="Mute stone sounds")).to_have_attribute(
        "aria-pressed", "true")
    page.get_by_role("button", name="Mute stone sounds").click()
    page.reload()
    expect(page.get_by_role("button", name="Mute stone sounds")).to_have_attribute(
        "aria-pressed", "false")
    context.close()
    assert problems == [], problems


@pytest.mark.parametrize("audio", [
    "window.AudioContext = undefined; window.webkitAudioContext = undefined;",
    "window.AudioContext = function () { throw new Error('blocked'); };",
], ids=["missing", "refused"])
def test_without_web_audio_a_stone_is_silent_and_nothing_breaks(page: Page, settled: Settled,
                                                                audio: str) -> None:
    page.add_init_script(audio)
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    for point in ("E5", "D4"):
        settled(page)
        page.click(f"#go-point-{point}")
        expect(page.locator(f"#go-point-{point}")).to_have_attribute(
            "aria-label", re.compile("stone"))
    # The page fixture fails the test on any console error or uncaught exception.


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280x800", "375x740"])
def test_the_score_table_fits_its_panel(browser: Browser, server: Any,
                                        passes: Callable[[Page], None],
                                        viewport: dict[str, int]) -> None:
    context, page, problems = new_page(browser, server, viewport)
    page.goto("/go?size=9&opponent=local")
    expect(page).to_have_url(GO_URL)
    page.click("#go-point-E5")
    expect(page.locator("#go-point-E5")).to_have_attribute("aria-label", re.compile("stone"))
    for _ in range(2):
        passes(page)
    expect(page.locator(".go-score table")).to_be_visible()
    fits = page.evaluate("""() => {
        const score = document.querySelector('.go-score');
        const table = score.querySelector('table');
        const panel = document.querySelector('.game-panel');
        const page = document.documentElement;
        return {score: [score.scrollWidth, score.clientWidth],
                panel: [panel.scrollWidth, panel.clientWidth],
                page: [page.scrollWidth, page.clientWidth],
                table: [table.getBoundingClientRect().right, score.getBoundingClientRect().right],
                rows: [...table.rows].map(row => Math.round(row.getBoundingClientRect().height))};
    }""")
    for name in ("score", "panel", "page"):
        assert fits[name][0] <= fits[name][1], (name, fits)
    assert fits["table"][0] <= fits["table"][1] + 0.5, fits
    assert len(set(fits["rows"])) == 1, fits  # the header as high as a row of numbers: no
    # word broken over two lines ("Stone/s")
    context.close()
    assert problems == [], problems


def test_a_loss_to_the_computer_is_not_styled_as_a_win(page: Page, settled: Settled) -> None:
    page.goto("/go?size=9&opponent=computer&level=easy")
    expect(page).to_have_url(GO_URL)
    settled(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    status = page.locator(".game-status")
    expect(status).to_have_text("The computer wins by resignation.")
    expect(status).to_have_class(re.compile(r"\bgo-result--lost\b"))
    classes = status.get_attribute("class") or ""
    assert "go-result--won" not in classes and "game-status--over" not in classes, classes
    looks = page.evaluate("""() => {
        const status = document.querySelector('.game-status');
        const won = status.cloneNode(true);
        won.className = 'game-status go-result go-result--won';
        status.after(won);
        const style = element => {
          const s = getComputedStyle(element);
          return [s.color, s.backgroundColor];
        };
        const result = {lost: style(status), won: style(won)};
        won.remove();
        return result;
    }""")
    assert looks["lost"][0] != looks["won"][0] and looks["lost"][1] != looks["won"][1], looks


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280x800", "375x740"])
def test_no_select_cuts_its_text(browser: Browser, server: Any,
                                 viewport: dict[str, int]) -> None:
    context, page, problems = new_page(browser, server, viewport)
    page.goto("/go?size=9&opponent=computer&level=easy&human=white")
    expect(page).to_have_url(GO_URL)
    expect(page.locator(".go-point[aria-label*='black stone']")).to_have_count(1,
                                                                             timeout=30_000)
    live = page.url
    for url, forms in ((live, ("new-game-box",)), (f"{live}?move=0", ("new-game-box",
                                                                      "go-continue"))):
        page.goto(url)
        for form in forms:
            page.locator(f".{form} summary").click()
        for prefix in ("go-new", "go-continue")[:len(forms)]:
            page.select_option(f"#{prefix}-opponent", "computer")
            page.select_option(f"#{prefix}-human", "random")  # "Either, at random"
            page.select_option(f"#{prefix}-clock", "30+10")  # "30 min + 10 s a move"
        widths = page.evaluate(SELECT_WIDTHS)
        assert len(widths) >= 6, widths
        for select in widths:
            assert select["scrollWidth"] <= select["clientWidth"], select
            assert select["natural"] <= select["width"], select
    context.close()
    assert problems == [], problems
