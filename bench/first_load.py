"""First load of /tictactoe in Chromium to a clickable board, and the JS the page loads.

Each of LOADS loads uses a fresh browser context (empty cache, no cookies), so each is a
true first visit: the shell, the bundle, htmx, the redirect to /tictactoe/<id> and the board
fragment. Prints the median and p90 time, and the gzipped size of the JS loaded besides htmx.
Run: .venv/bin/python -m bench.first_load
"""

from __future__ import annotations

import gzip
import os
import statistics
import tempfile
import time

from playwright.sync_api import sync_playwright

from bench._server import serving

LOADS = 20
JS_BUDGET_GZIP = 10 * 1024
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, \
            serving("app.main:create_app", {"TABLETOP_DATABASE_URL": f"sqlite:///{tmp}/b.db"},
                    probe="/ui/home") as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        times: list[float] = []
        scripts: dict[str, int] = {}
        for _ in range(LOADS + 1):  # the first load warms the server; it is not counted
            context = browser.new_context(base_url=base)
            page = context.new_page()
            loaded: dict[str, int] = {}

            def record(response, loaded=loaded):  # type: ignore[no-untyped-def]
                if response.request.resource_type == "script":
                    loaded[response.url] = len(gzip.compress(response.body(), 9))

            page.on("response", record)
            start = time.perf_counter()
            page.goto("/tictactoe")
            # The view inserts the fragment and has htmx process it in one go, so a visible
            # cell with hx-post is a cell that answers a click.
            page.locator("#ttt-cell-0[hx-post]").wait_for(state="visible")
            times.append(time.perf_counter() - start)
            scripts = loaded
            context.close()
        browser.close()
    times = times[1:]
    own_js = {url: size for url, size in scripts.items() if "htmx" not in url}
    total = sum(own_js.values())
    median_ms = statistics.median(times) * 1000
    print(f"first load of /tictactoe to a clickable board: median {median_ms:.0f} ms, "
          f"p90 {statistics.quantiles(times, n=10)[-1]*1000:.0f} ms over {LOADS} fresh contexts")
    for url, size in sorted(own_js.items()):
        print(f"  JS {url.split('/', 3)[-1]}: {size:,} bytes gzipped")
    print(f"JS loaded besides htmx: {total:,} bytes gzipped "
          f"({'within' if total <= JS_BUDGET_GZIP else 'OVER'} the {JS_BUDGET_GZIP:,}-byte budget)")


if __name__ == "__main__":
    main()
