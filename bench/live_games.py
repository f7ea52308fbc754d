"""Live games, measured in one run on the real server (`python -m app`):

1. Move to screen: two Chromium contexts play a Go game between friends through the invite
   link; for each move, the time from the mover's click (Date.now() in its page) to the
   stone appearing in the other browser (a MutationObserver's Date.now() there) — the event
   stream, the fragment fetch and the swap included. MOVES moves, half by each.
2. Fan-out: WATCHERS event streams (one asyncio client on loopback) on one game; for each
   of ROUNDS moves, the time from the move's request until every stream has its event; and
   the server's resident memory with the streams open, per stream.
Run: .venv/bin/python -m bench.live_games
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from bench._server import free_port

ROOT = Path(__file__).resolve().parent.parent

WATCHERS = 1000
ROUNDS = 5
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
# Black fills the bottom rows, white the top ones: no stone ever touches another colour.
BLACK = [f"{column}{row}" for row in (1, 2) for column in "ABCDEFGHJ"]
WHITE = [f"{column}{row}" for row in (9, 8) for column in "ABCDEFGHJ"]
SEEN = """() => {
  window.__seen = {};
  new MutationObserver(() => {
    for (const point of document.querySelectorAll('.go-point[aria-label*="stone"]')) {
      const name = point.id.slice('go-point-'.length);
      if (!(name in window.__seen)) window.__seen[name] = Date.now();
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def move_to_screen(url: str) -> list[float]:
    latencies = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        alice = browser.new_context(base_url=url).new_page()
        bob = browser.new_context(base_url=url).new_page()
        alice.goto("/go?size=9&opponent=remote&human=black")
        link = alice.locator("#invite-link").input_value()
        bob.goto(link[link.index("/go/"):])
        bob.wait_for_selector(".table-seats:has-text('White: you')")
        for page in (alice, bob):
            page.wait_for_selector("[data-live]")
            page.evaluate(SEEN)
        for black, white in zip(BLACK, WHITE, strict=True):
            for mover, viewer, point in ((alice, bob, black), (bob, alice, white)):
                mover.wait_for_selector(f"#go-point-{point}[hx-post]")
                mover.wait_for_function("() => !document.querySelector('.htmx-request')")
                clicked = mover.evaluate(
                    "(id) => { const t = Date.now(); document.getElementById(id).click();"
                    " return t; }", f"go-point-{point}")
                viewer.wait_for_function("(p) => window.__seen && p in window.__seen", arg=point)
                seen = viewer.evaluate("(p) => window.__seen[p]", point)
                latencies.append(float(seen - clicked))
        browser.close()
    return latencies


async def fan_out(urls: list[str], server_pid: int | None = None,
                  watchers: int = WATCHERS) -> tuple[list[float], float, float]:
    """`watchers` streams on one game, spread evenly over the instances at `urls`; for each
    of ROUNDS moves (made through the first), ms until every stream has its event. With
    `server_pid`, also that server's memory before the streams (MB) and per stream (KB)."""
    url = urls[0]
    game = httpx.post(f"{url}/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    seat = {"Authorization": f"Bearer {game['token']}"}
    versions = [0] * watchers
    waiting: dict[int, asyncio.Future[None]] = {}  # version → done once every stream has it

    async def watch(index: int, client: httpx.AsyncClient, ready: asyncio.Event) -> None:
        async with client.stream("GET", f"/api/games/{game['id']}/events") as response:
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    versions[index] = int(line[4:])
                    ready.set()
                    for version, future in waiting.items():
                        if not future.done() and min(versions) >= version:
                            future.set_result(None)

    before = rss_kb(server_pid) if server_pid else 0
    limits = httpx.Limits(max_connections=watchers + 10, max_keepalive_connections=0)
    clients = [httpx.AsyncClient(base_url=each, timeout=120, limits=limits) for each in urls]
    readies = [asyncio.Event() for _ in range(watchers)]
    tasks = [asyncio.create_task(watch(index, clients[index % len(clients)], readies[index]))
             for index in range(watchers)]
    times = []
    try:
        await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readies)), 120)
        await asyncio.sleep(1)
        opened = rss_kb(server_pid) if server_pid else 0
        async with httpx.AsyncClient(base_url=url, timeout=30) as mover:
            for round_ in range(ROUNDS):
                version = round_ + 1
                done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                waiting[version] = done
                began = time.perf_counter()
                reply = await mover.post(f"/api/games/{game['id']}/moves", headers=seat,
                                         json={"move": BLACK[round_] if round_ % 2 == 0
                                               else WHITE[round_]})
                assert reply.status_code == 200, reply.text
                await asyncio.wait_for(done, 60)
                times.append((time.perf_counter() - began) * 1000)
                await asyncio.sleep(0.5)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in clients:
            await client.aclose()
    return times, before / 1024, (opened - before) / watchers


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise KeyError("VmRSS")


def main() -> None:
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores)\n")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env={**os.environ, "PORT": str(port),
                                            "TABLETOP_DATABASE_URL": f"sqlite:///{tmp}/b.db"})
        try:
            for _ in range(300):
                try:
                    httpx.get(f"{url}/ui/home", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            latencies = move_to_screen(url)
            print(f"| move to screen, {len(latencies)} moves | median "
                  f"{statistics.median(latencies):.0f} ms | p95 {percentile(latencies, 0.95):.0f}"
                  f" ms | min {min(latencies):.0f} ms | max {max(latencies):.0f} ms |")
            times, base_mb, per_stream_kb = asyncio.run(fan_out([url], server.pid))
            print(f"| one move to {WATCHERS} watchers, {ROUNDS} moves | median "
                  f"{statistics.median(times):.0f} ms | max {max(times):.0f} ms | "
                  f"min {min(times):.0f} ms | |")
            print(f"| server memory | {base_mb:.0f} MB before the streams | "
                  f"+{per_stream_kb:.1f} KB per open stream | | |")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
