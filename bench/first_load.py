"""First load of each game in Chromium, to a board that answers a click; and the JS it loads.

For each game (/tictactoe, /go, /knights-tour), LOADS loads, each in a fresh browser context
(empty cache, no cookies): a true first visit. The clock runs from `page.goto` to the moment
htmx has wired up a playable point of the board (its internal data is set: a click now
posts the move) - whatever the page did to get there: the bare link's redirect to a new
game, the shell with the game's fragment inside, the styles and scripts. In the same run, the
floor: a navigation to a static file (/static/favicon.svg) in a fresh context, waited for the
same way, the least a page load costs here; and the shell's floor: a page with the shell's
style sheet and htmx and nothing of the app (bench/trivial_app.py), the least the shell's own
files cost. Prints medians with the 10th-90th percentile
range, the ratio to the floor, and the gzipped size of the JS loaded besides htmx.

The server runs with a high burst of new games (TABLETOP_NEW_GAMES_BURST): every load
starts a game from one address.

Run: .venv/bin/python -m bench.first_load [--latency MS]
(--latency: each request takes MS more, as over a real network; the goal is on loopback)
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import tempfile
import time

from playwright.sync_api import Browser, sync_playwright

from bench._server import serving

LOADS = 20
JS_BUDGET_GZIP = 10 * 1024
GOAL_MS = 60.0
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
# A playable point of each game's board, once htmx has processed it.
PLAYABLE = {
    "/tictactoe": "#ttt-cell-0[hx-post]",
    "/go": "#go-game button[hx-post][hx-vals]",
    "/knights-tour": "#kt-board button[hx-post]",
}
WIRED = """(selector) => {
  const point = document.querySelector(selector);
  const data = point && point['htmx-internal-data'];
  return Boolean(data && data.initHash);
}"""
LOADED = "() => document.readyState === 'complete'"
FLOOR = "/static/favicon.svg"


def load_times(browser: Browser, base: str, path: str, latency_ms: float,
               scripts: dict[str, int] | None = None) -> list[float]:
    """Seconds to a wired board (or, for a floor, to the page loaded), LOADS times after one
    uncounted warm-up load; the page is polled on each frame, as a click needs one."""
    times: list[float] = []
    for _ in range(LOADS + 1):
        context = browser.new_context(base_url=base)
        page = context.new_page()
        if latency_ms:  # each request's round trip, as over a network (Chromium's emulation)
            network = context.new_cdp_session(page)
            network.send("Network.enable")
            network.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": latency_ms, "downloadThroughput": -1,
                "uploadThroughput": -1})
        if scripts is not None:
            def record(response, loaded=scripts):  # type: ignore[no-untyped-def]
                if response.request.resource_type == "script":
                    loaded[response.url] = len(gzip.compress(response.body(), 9))

            page.on("response", record)
        start = time.perf_counter()
        page.goto(path, wait_until="commit")
        if path in PLAYABLE:
            page.wait_for_function(WIRED, arg=PLAYABLE[path], polling="raf")
        else:  # a floor, waited for as the boards are: a frame after it is all there
            page.wait_for_function(LOADED, polling="raf")
        times.append(time.perf_counter() - start)
        context.close()
    return times[1:]


def spread(times: list[float]) -> str:
    deciles = statistics.quantiles(times, n=10)
    return (f"median {1000 * statistics.median(times):5.1f} ms "
            f"(10-90 %: {1000 * deciles[0]:.1f}-{1000 * deciles[-1]:.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.0, metavar="MS",
                        help="a round trip's added latency (default 0: loopback as it is)")
    latency = parser.parse_args().latency
    with tempfile.TemporaryDirectory() as tmp, \
            serving("app.main:create_app", {"TABLETOP_DATABASE_URL": f"sqlite:///{tmp}/b.db",
                                            "TABLETOP_NEW_GAMES_BURST": "1000"},
                    probe="/ui/home") as base, \
            serving("bench.trivial_app:create_shell_floor", probe="/") as shell_base, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        scripts: dict[str, int] = {}
        floor = load_times(browser, base, FLOOR, latency)
        shell = load_times(browser, shell_base, "/", latency)
        results = {path: load_times(browser, base, path, latency,
                                    scripts if path == "/tictactoe" else None)
                   for path in PLAYABLE}
        floor += load_times(browser, base, FLOOR, latency)  # after too: the machine may drift
        shell += load_times(browser, shell_base, "/", latency)
        browser.close()
    floor_median = statistics.median(floor)
    print(f"first load to a board that answers a click, {LOADS} fresh contexts each"
          + (f", {latency:g} ms a round trip:" if latency else ":"))
    for path, times in results.items():
        median = statistics.median(times)
        verdict = "within" if 1000 * median <= GOAL_MS else "OVER"
        print(f"  {path:14} {spread(times)} = {median / floor_median:.1f} x the floor "
              f"({verdict} the {GOAL_MS:g} ms goal)")
    print(f"  {'floor':14} {spread(floor)}: {FLOOR} in a fresh context")
    print(f"  {'shell floor':14} {spread(shell)}: a page of the shell's style sheet and htmx, "
          "no app (bench/trivial_app.py)")
    own_js = {url: size for url, size in scripts.items() if "htmx" not in url}
    total = sum(own_js.values())
    for url, size in sorted(own_js.items()):
        print(f"  JS {url.split('/', 3)[-1]}: {size:,} bytes gzipped")
    print(f"JS loaded besides htmx: {total:,} bytes gzipped "
          f"({'within' if total <= JS_BUDGET_GZIP else 'OVER'} the {JS_BUDGET_GZIP:,}-byte budget)")


if __name__ == "__main__":
    main()
