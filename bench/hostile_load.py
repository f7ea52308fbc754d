"""One hostile client against the real server (`python -m app`, default limits), in one run:
what it can take, what the other clients still get, and what it leaves behind.

Clients are loopback addresses (Linux routes all of 127/8 to the loopback): the attacker is
127.0.0.3, the other client 127.0.0.2 (as in tests/test_connection_limits.py); set-up uses
127.0.0.4, the creation flood a fresh 127.0.0.5, the memory waves 127.0.0.10–13. The server
runs with a descriptor limit of 1024 (a small production box), every TABLETOP_* variable of
this shell removed, so every bound is its default (app/limits.py).

1. Idle: the other client times GET /api/games/{id} back to back (GETS requests: p50 and
   p99, each with its 95% order-statistic interval) and MOVES moves of its own against the
   Go computer (level "easy", 9×9, POST /api/games/{id}/moves with its Bearer token; the
   computer's reply included): median and range.
2. Under attack, the same measures while the attacker, from a separate process (so its
   threads do not share the measuring client's interpreter lock), holds its share of event
   streams (GET /api/games/{id}/events on the other client's game, until refused) and of
   connections (idle ones, opened until refused with 429 and reopened when the server
   drops them), and keeps asking for analyses of positions nobody asked for before
   (ANALYSIS_THREADS threads over ANALYSIS_GAMES games of ANALYSIS_MOVES moves, a position
   asked again only if it was refused) and creating games, pausing PAUSE_SECONDS after each
   answer. Idle and attack side by side, with the ratio; the attacker's counts by status.
3. A creation flood: POST /api/games back to back from one fresh address for FLOOD_SECONDS;
   created (201) vs refused (429), the SQLite files' sizes (.db and -wal) before and after,
   the pages in use as a reader sees them (the -wal is reused, so the files' sizes lag), and
   what that would mean a day.
4. Memory: a second server, with TABLETOP_STREAMS_PER_CLIENT and
   TABLETOP_CONNECTIONS_PER_CLIENT raised (the defaults refuse one address its 17th stream
   and its 65th connection, as part 2 shows) and a descriptor limit of MEMORY_NOFILE. Its
   VmRSS and PSS (/proc/pid/status, /proc/pid/smaps_rollup) idle, with the streams open (in
   waves of WAVE when the total stream cap is below STREAMS), 5 s and 15 s after the last
   closed, and the same after a second identical round: is the memory reused, or does it
   grow?
Run: .venv/bin/python -m bench.hostile_load
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import math
import multiprocessing
import os
import random
import resource
import selectors
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any

import httpx

from app.limits import RESERVED_DESCRIPTORS, Limits
from bench._server import free_port, workers_of

ROOT = Path(__file__).resolve().parent.parent

ATTACKER, OTHER, SETUP, FLOODER = "127.0.0.3", "127.0.0.2", "127.0.0.4", "127.0.0.5"
WAVE_SOURCES = ("127.0.0.10", "127.0.0.11", "127.0.0.12", "127.0.0.13")
NOFILE = 1024  # the attacked server's descriptor limit
MEMORY_NOFILE = 8192  # the memory server's
GETS = 400
MOVES = 12
ANALYSIS_GAMES = 4
ANALYSIS_MOVES = 40  # per game: positions 1..40 of each, none alike
ANALYSIS_THREADS = 6  # more than the pool's anonymous places, so some are refused
PAUSE_SECONDS = 0.01  # the attacker's pause after each answer (its CPU is the server's too)
ATTACK_SECONDS = 90  # the attack's bound; it ends as soon as the measures are taken
FLOOD_SECONDS = 15.0
STREAMS = 4000
WAVE = 2000
GO_EASY = {"game": "go", "options": {"opponent": "computer", "level": "easy", "size": 9,
                                     "human": "black"}}
COLUMNS = "ABCDEFGHJ"
DEFAULTS = Limits()


# -- processes -------------------------------------------------------------------------------

def die_with_parent() -> None:
    """Asks Linux to SIGKILL this process when the one that started it dies."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


class Server:
    """`python -m app` in a process group of its own, with `nofile` descriptors, no TABLETOP_*
    variable but the database and `env`; its output goes to `log`."""

    def __init__(self, database: Path, log: Path, nofile: int,
                 env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = database
        self.log = log
        clean = {key: value for key, value in os.environ.items()
                 if not key.startswith("TABLETOP_")}
        environ = {**clean, "TABLETOP_DATABASE_URL": f"sqlite:///{database}",
                   "PORT": str(self.port), **(env or {})}

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
            die_with_parent()

        with open(log, "ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app"], cwd=ROOT, env=environ, stdout=output,
                stderr=output, start_new_session=True, preexec_fn=limit)
        self.pid = self.process.pid
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    httpx.get(f"{self.url}/ui/home", timeout=2)
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or self.process.poll() is not None:
                        raise RuntimeError(f"the server did not start; see {log}") from None
                    time.sleep(0.1)
            while len(workers_of(self.pid)) < (os.cpu_count() or 1) \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1)  # the workers finish warming up
        except BaseException:
            self.stop()
            raise

    def sockets(self) -> int:
        count = 0
        for name in os.listdir(f"/proc/{self.pid}/fd"):
            with contextlib.suppress(OSError):
                count += os.readlink(f"/proc/{self.pid}/fd/{name}").startswith("socket:")
        return count

    def memory(self) -> tuple[float, float, int]:
        """VmRSS and PSS in MB, and the descriptors open."""
        rss = pss = 0
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        for line in Path(f"/proc/{self.pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
        return rss / 1024, pss / 1024, len(os.listdir(f"/proc/{self.pid}/fd"))

    def stop(self) -> None:
        """SIGTERM to the whole group, SIGKILL to whatever is left of it after 10 s."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


# -- clients ---------------------------------------------------------------------------------

def client(url: str, source: str, timeout: float = 30) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=timeout,
                        transport=httpx.HTTPTransport(local_address=source))


class Tally:
    """Answers by "status code" (the refusal's code from its JSON body), and the refusals
    whose body was not JSON with a code."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.not_json: list[str] = []
        self.lock = threading.Lock()

    def add(self, status: int, body: bytes, content_type: str = "") -> None:
        key = str(status)
        if status >= 400:
            try:
                code = json.loads(body).get("code")
            except (ValueError, AttributeError):
                code = None
            if code is None:
                with self.lock:
                    if len(self.not_json) < 5:
                        self.not_json.append(f"{status} {content_type!r} {body[:120]!r}")
                key = f"{status} (not JSON)"
            else:
                key = f"{status} {code}"
        with self.lock:
            self.counts[key] += 1

    def response(self, response: httpx.Response) -> None:
        self.add(response.status_code, response.content,
                 response.headers.get("content-type", ""))

    def error(self, error: Exception) -> None:
        with self.lock:
            self.counts[f"error {type(error).__name__}"] += 1

    def state(self) -> dict[str, Any]:
        return {"counts": dict(self.counts), "not_json": list(self.not_json)}


def connect(port: int, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))


def read_reply(sock: socket.socket, seconds: float) -> tuple[int, bytes, str]:
    """The status, body and content type of what the server sends within `seconds`: the
    whole body if it says its length, else (an event stream) the head only."""
    sock.settimeout(seconds)
    data = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        end = data.find(b"\r\n\r\n")
        if end >= 0:
            head = data[:end].decode("latin-1").lower().split("\r\n")
            fields = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
            length = fields.get("content-length")
            if length is None or len(data) - end - 4 >= int(length):
                status = int(head[0].split(" ", 2)[1])
                return status, data[end + 4:], fields.get("content-type", "")
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, OSError):
            break
        if not chunk:
            break
        data += chunk
    if data.startswith(b"HTTP/1.1 "):
        return int(data.split(b" ", 2)[1]), data.partition(b"\r\n\r\n")[2], ""
    return 0, data, ""


def events_request(game_id: str) -> bytes:
    return f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: tabletop\r\n\r\n".encode()


def point_name(row: int, column: int, size: int = 9) -> str:
    return f"{COLUMNS[column]}{size - row}"


def empty_points(state: dict[str, Any]) -> list[str]:
    return [point_name(row, column, state["size"]) for row, line in enumerate(state["board"])
            for column, cell in enumerate(line) if cell == "."]


# -- statistics ------------------------------------------------------------------------------

def quantile(samples: list[float], share: float) -> float:
    if share == 0.5:
        return statistics.median(samples)
    return statistics.quantiles(samples, n=100)[round(share * 100) - 1]


def interval(samples: list[float], share: float) -> tuple[float, float]:
    """A 95% distribution-free interval for the `share` quantile: the order statistics at
    n·q ∓ 1.96·√(n·q·(1−q)) (the binomial's normal approximation, rounded outward)."""
    ordered = sorted(samples)
    n = len(ordered)
    half = 1.96 * math.sqrt(n * share * (1 - share))
    low = max(0, math.floor(n * share - half) - 1)
    high = min(n - 1, math.ceil(1 + n * share + half) - 1)
    return ordered[low], ordered[high]


def with_interval(samples: list[float], share: float, digits: int = 2) -> str:
    if len(samples) < 2:
        return "–"
    low, high = interval(samples, share)
    return f"{quantile(samples, share):.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def ratio(attack: float, idle: float) -> str:
    return f"{attack / idle:.2f}×" if idle > 0 else "–"


# -- the other client ------------------------------------------------------------------------

def new_go_game(http: httpx.Client, tally: Tally) -> tuple[str, dict[str, str], dict[str, Any]]:
    response = http.post("/api/games", json=GO_EASY)
    tally.response(response)
    response.raise_for_status()
    body = response.json()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}, body["state"]


def time_gets(http: httpx.Client, path: str, tally: Tally) -> list[float]:
    samples: list[float] = []
    deadline = time.monotonic() + 60
    while len(samples) < GETS and time.monotonic() < deadline:
        began = time.perf_counter()
        response = http.get(path)
        samples.append((time.perf_counter() - began) * 1000)
        tally.response(response)
    return samples


def time_moves(http: httpx.Client, tally: Tally, seed: int,
               game: tuple[str, dict[str, str], dict[str, Any]] | None = None,
               count: int = MOVES) -> tuple[list[float], int]:
    """`count` moves against the computer (a new game when one ends); their seconds, and how
    many replies the computer owed and did not give."""
    rng = random.Random(seed)
    game_id, seat, state = game or new_go_game(http, tally)
    seconds: list[float] = []
    missing = 0
    deadline = time.monotonic() + 90
    for _ in range(count * 4):
        if len(seconds) >= count or time.monotonic() > deadline:
            break
        move = rng.choice(empty_points(state))
        began = time.perf_counter()
        response = http.post(f"/api/games/{game_id}/moves", json={"move": move}, headers=seat)
        took = time.perf_counter() - began
        tally.response(response)
        if response.status_code in (409, 422):
            continue  # an illegal point (suicide, ko): another one
        if response.status_code != 200:
            time.sleep(0.5)
            continue
        seconds.append(took)
        body = response.json()
        if body["status"] == "playing" and body["to_move"] == "black":
            state = body["state"]
            continue
        if body["status"] == "playing":
            missing += 1  # the computer's reply did not come
        game_id, seat, state = new_go_game(http, tally)
    return seconds, missing


# -- the attacker (its own process) ----------------------------------------------------------

def open_streams(port: int, game_id: str, source: str, attempts: int
                 ) -> tuple[list[socket.socket], Tally]:
    """Event streams from `source` until one is refused (or `attempts`)."""
    held: list[socket.socket] = []
    refusals = Tally()
    for _ in range(attempts):
        sock = connect(port, source)
        sock.sendall(events_request(game_id))
        status, body, kind = read_reply(sock, 5)
        if status == 200:
            held.append(sock)
            continue
        refusals.add(status, body, kind)
        sock.close()
        break
    return held, refusals


class Holder(threading.Thread):
    """Idle connections from `source`: opened until the server refuses one, checked every
    half second, and reopened when the server has closed them (its header deadline)."""

    def __init__(self, port: int, source: str, stop: threading.Event, deadline: float) -> None:
        super().__init__(daemon=True)
        self.port, self.source, self.stop, self.deadline = port, source, stop, deadline
        self.held: list[socket.socket] = []
        self.samples: list[int] = []  # held after each round
        self.refusals = Tally()
        self.dropped = 0  # closed by the server
        self.opened = 0

    def run(self) -> None:
        try:
            while not self.stop.is_set() and time.monotonic() < self.deadline:
                self._drop_closed()
                self._top_up()
                time.sleep(0.05)
                self._drop_closed()  # the server may have closed some while we opened others
                self.samples.append(len(self.held))
                self.stop.wait(0.5)
        finally:
            for sock in self.held:
                sock.close()

    def _drop_closed(self) -> None:
        poll = selectors.DefaultSelector()
        for sock in self.held:
            poll.register(sock, selectors.EVENT_READ)
        readable = {key.fileobj for key, _ in poll.select(0)}
        poll.close()
        alive = []
        for sock in self.held:
            if sock not in readable:
                alive.append(sock)
                continue
            try:
                data = sock.recv(65536, socket.MSG_PEEK)
            except OSError:
                data = b""
            if data.startswith(b"HTTP/1.1 "):  # a refusal that came late
                status, body, kind = read_reply(sock, 1)
                self.refusals.add(status, body, kind)
            else:
                self.dropped += 1
            sock.close()
        self.held = alive

    def _top_up(self) -> None:
        for _ in range(200):
            if self.stop.is_set():
                return
            try:
                sock = connect(self.port, self.source)
            except OSError as error:
                self.refusals.error(error)
                return
            poll = selectors.DefaultSelector()
            poll.register(sock, selectors.EVENT_READ)
            answered = poll.select(0.05)
            poll.close()
            if answered:
                status, body, kind = read_reply(sock, 1)
                self.refusals.add(status, body, kind)
                sock.close()
                return
            self.opened += 1
            self.held.append(sock)


def analyse_loop(url: str, positions: deque[tuple[str, int]], tally: Tally,
                 stop: threading.Event, deadline: float, served: list[float]) -> None:
    with client(url, ATTACKER) as http:
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                game_id, move = positions.popleft()
            except IndexError:
                return
            began = time.perf_counter()
            try:
                response = http.get(f"/api/games/{game_id}/analysis", params={"move": move})
            except httpx.HTTPError as error:
                tally.error(error)
                positions.append((game_id, move))
                stop.wait(0.1)
                continue
            tally.response(response)
            if response.status_code == 200:
                served.append(time.perf_counter() - began)
            else:
                positions.append((game_id, move))  # still nobody's: ask again later
            stop.wait(PAUSE_SECONDS)


def create_loop(url: str, tally: Tally, stop: threading.Event, deadline: float) -> None:
    with client(url, ATTACKER) as http:
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                tally.response(http.post("/api/games", json={"game": "go"}))
            except httpx.HTTPError as error:
                tally.error(error)
                stop.wait(0.1)
            stop.wait(PAUSE_SECONDS)


def attack(url: str, port: int, watched: str, positions: list[tuple[str, int]],
           stop: Any, ready: Any, results: Any) -> None:
    """The attacker's process: streams, request threads, then idle connections; until
    `stop` (or ATTACK_SECONDS). Its counts go to `results`."""
    die_with_parent()
    began = time.monotonic()
    deadline = began + ATTACK_SECONDS
    local_stop = threading.Event()
    streams, stream_refusal = open_streams(port, watched, ATTACKER,
                                           DEFAULTS.streams_per_client * 4)
    asked: deque[tuple[str, int]] = deque(positions)
    analyses, creations = Tally(), Tally()
    served: list[float] = []
    threads = [threading.Thread(target=analyse_loop, daemon=True, args=(
        url, asked, analyses, local_stop, deadline, served)) for _ in range(ANALYSIS_THREADS)]
    threads.append(threading.Thread(target=create_loop, daemon=True,
                                    args=(url, creations, local_stop, deadline)))
    holder = Holder(port, ATTACKER, local_stop, deadline)
    try:
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # their connections are open, the pool's anonymous places taken
        holder.start()
        while not holder.samples and time.monotonic() < began + 20:
            time.sleep(0.05)
        time.sleep(1.0)
        at_ready = holder.samples[-1] if holder.samples else 0
        ready.set()
        attack_began = time.monotonic()
        stop.wait(max(0.0, deadline - time.monotonic()))
        attack_seconds = time.monotonic() - attack_began
        local_stop.set()
        for thread in [*threads, holder]:
            thread.join(timeout=40)
    finally:
        local_stop.set()
        for sock in streams:
            sock.close()
    results.put({
        "streams": len(streams), "stream_refusal": stream_refusal.state(),
        "held_at_ready": at_ready, "held": holder.samples, "opened": holder.opened,
        "dropped": holder.dropped, "connection_refusals": holder.refusals.state(),
        "analyses": analyses.state(), "analysis_seconds": served,
        "analysed": len(positions) - len(asked), "creations": creations.state(),
        "seconds": attack_seconds})


# -- the parts -------------------------------------------------------------------------------

def analysis_games(url: str) -> list[tuple[str, int]]:
    """ANALYSIS_GAMES games between two people at one screen, ANALYSIS_MOVES moves each, no
    two alike (black fills columns A–D, white F–J, each game in its own order: nothing is
    ever captured); the positions (game, moves) to analyse."""
    black_points = [f"{column}{row}" for column in "ABCD" for row in range(1, 10)]
    white_points = [f"{column}{row}" for column in "FGHJ" for row in range(1, 10)]
    positions = []
    with client(url, SETUP) as http:
        for number in range(ANALYSIS_GAMES):
            body = http.post("/api/games", json={"game": "go", "options": {
                "opponent": "local", "size": 9}}).raise_for_status().json()
            seat = {"Authorization": f"Bearer {body['token']}"}
            turn = number * 7
            black = black_points[turn:] + black_points[:turn]
            white = white_points[turn:] + white_points[:turn]
            for index in range(ANALYSIS_MOVES):
                move = (black if index % 2 == 0 else white)[index // 2]
                http.post(f"/api/games/{body['id']}/moves", json={"move": move},
                          headers=seat).raise_for_status()
            positions += [(body["id"], moves) for moves in range(1, ANALYSIS_MOVES + 1)]
    rng = random.Random(1)
    rng.shuffle(positions)
    return positions


def under_attack(server: Server) -> None:
    """Parts 1 and 2; prints their tables."""
    victim = Tally()
    with client(server.url, OTHER) as http:
        probe_id = http.post("/api/games", json={"game": "go", "options": {
            "opponent": "local"}}).raise_for_status().json()["id"]
        probe = f"/api/games/{probe_id}"
        warm = new_go_game(http, victim)
        time_moves(http, Tally(), 99, warm, count=3)  # the workers' first searches: untimed
        idle_gets = time_gets(http, probe, victim)
        idle_moves, idle_missing = time_moves(http, victim, 7)
        idle_counts = Counter(victim.counts)
        positions = analysis_games(server.url)
        watched = new_go_game(http, Tally())

        context = multiprocessing.get_context("spawn")
        stop, ready, results = context.Event(), context.Event(), context.Queue()
        attacker = context.Process(target=attack, daemon=True, args=(
            server.url, server.port, watched[0], positions, stop, ready, results))
        attacker.start()
        try:
            if not ready.wait(60):
                raise RuntimeError("the attack did not start")
            attack_victim = Tally()
            attack_gets = time_gets(http, probe, attack_victim)
            attack_moves, attack_missing = time_moves(http, attack_victim, 7, watched)
            stop.set()
            report: dict[str, Any] = results.get(timeout=90)
            attacker.join(timeout=10)
        finally:
            stop.set()
            if attacker.is_alive():
                attacker.kill()
                attacker.join(timeout=10)

    print("## 1–2. The other client (127.0.0.2), idle and while 127.0.0.3 attacks\n")
    print("| the other client | idle | under attack | attack/idle |")
    print("|---|---|---|---|")
    rows = [("GET /api/games/{id}: p50 ms (95% interval)", idle_gets, attack_gets, 0.5),
            ("GET /api/games/{id}: p99 ms (95% interval)", idle_gets, attack_gets, 0.99)]
    for label, idle, busy, share in rows:
        print(f"| {label} | {with_interval(idle, share)} | {with_interval(busy, share)} | "
              f"{ratio(quantile(busy, share), quantile(idle, share))} |")
    print(f"| GET requests timed | {len(idle_gets)} | {len(attack_gets)} | |")
    for label, idle, busy in [("move vs easy Go 9×9, reply included: median s (range)",
                               idle_moves, attack_moves)]:
        print(f"| {label} | {statistics.median(idle):.3f} ({min(idle):.3f}–{max(idle):.3f}) | "
              f"{statistics.median(busy):.3f} ({min(busy):.3f}–{max(busy):.3f}) | "
              f"{ratio(statistics.median(busy), statistics.median(idle))} |")
    print(f"| moves timed (computer's reply missing) | {len(idle_moves)} ({idle_missing}) | "
          f"{len(attack_moves)} ({attack_missing}) | |")
    print(f"| the other client's answers by status | {counts_text(idle_counts)} | "
          f"{counts_text(attack_victim.counts)} | |\n")

    share, cap = DEFAULTS.streams_per_client, DEFAULTS.connections_per_client
    held = report["held"] or [0]
    threads = ANALYSIS_THREADS + 1
    analyses = report["analyses"]["counts"]
    asked = sum(analyses.values())
    seconds = report["analysis_seconds"]
    print(f"| the attacker (127.0.0.3), {report['seconds']:.1f} s of measured attack | |")
    print("|---|---|")
    print(f"| event streams held (per-client cap {share}) | {report['streams']}; the next: "
          f"{counts_text(report['stream_refusal']['counts'])} |")
    print(f"| idle connections held (per-client cap {cap}, its {report['streams']} streams "
          f"and {threads} request connections count too) | {report['held_at_ready']} when "
          f"the measures began; {min(held)}–{max(held)} over {len(held)} checks; "
          f"{report['opened']} opened, {report['dropped']} closed by the server |")
    print(f"| its connections refused | "
          f"{counts_text(report['connection_refusals']['counts'])} |")
    print(f"| analyses of new positions ({ANALYSIS_THREADS} threads) | {asked} asked "
          f"({asked / report['seconds']:.1f}/s): {counts_text(analyses)}; "
          f"{report['analysed']} positions analysed"
          + (f", {statistics.median(seconds):.2f} s median each" if seconds else "") + " |")
    creations = report["creations"]["counts"]
    print(f"| games created | {sum(creations.values())} asked: {counts_text(creations)} |")
    not_json = [*victim.not_json, *attack_victim.not_json]
    for key in ("stream_refusal", "connection_refusals", "analyses", "creations"):
        not_json += report[key]["not_json"]
    print(f"| refusals whose body is not JSON with a code | "
          f"{len(not_json)}{': ' + '; '.join(not_json) if not_json else ''} |\n")


def counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{key}: {value}" for key, value in sorted(counts.items())) or "none"


def database_bytes(database: Path) -> tuple[int, int]:
    def size(path: Path) -> int:
        return path.stat().st_size if path.exists() else 0
    return size(database), size(Path(f"{database}-wal"))


def database_content(database: Path) -> tuple[int, int, int]:
    """The games stored, the bytes of the pages in use as a reader sees the database (the
    -wal's committed pages included; the files' sizes lag: the -wal is reused), and the bytes
    of the games' and their events' JSON."""
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        rows = sum(db.execute(f"SELECT coalesce(sum(length(data)), 0) FROM {table}"
                              ).fetchone()[0] for table in ("games", "events"))
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        page = db.execute("PRAGMA page_size").fetchone()[0]
    return int(games), int((pages - free) * page), int(rows)


def creation_flood(server: Server) -> None:
    """Part 3; prints its table."""
    before = database_bytes(server.database)
    games_before, used_before, json_before = database_content(server.database)
    tally = Tally()
    with client(server.url, FLOODER) as http:
        began = time.monotonic()
        while time.monotonic() - began < FLOOD_SECONDS:
            try:
                tally.response(http.post("/api/games", json={"game": "go"}))
            except httpx.HTTPError as error:
                tally.error(error)
        took = time.monotonic() - began
    time.sleep(0.5)
    after = database_bytes(server.database)
    games_after, used_after, json_after = database_content(server.database)
    counts = tally.counts
    created = counts.get("201", 0)
    refused = sum(value for key, value in counts.items() if key.startswith("429"))
    asked = sum(counts.values())
    growth = used_after - used_before
    per_game = growth / created if created else 0.0
    steady = DEFAULTS.new_games_per_minute * 60 * 24
    measured = created / took * 86400
    print(f"## 3. Creation flood: POST /api/games back to back from {FLOODER} (fresh) for "
          f"{took:.1f} s\n")
    print("| measure | result |\n|---|---|")
    print(f"| requests | {asked} ({asked / took:.0f}/s): {counts_text(counts)} |")
    print(f"| created (201) vs refused (429) | {created} vs {refused} (limit: burst "
          f"{DEFAULTS.new_games_burst}, then {DEFAULTS.new_games_per_minute:g}/min) |")
    print(f"| database files before → after (.db + -wal) | {before[0] / 1024:.0f} KB + "
          f"{before[1] / 1024:.0f} KB → {after[0] / 1024:.0f} KB + {after[1] / 1024:.0f} KB |")
    print(f"| games stored; pages in use | {games_before} → {games_after} games; "
          f"{used_before / 1024:.0f} KB → {used_after / 1024:.0f} KB ({growth / 1024:+.0f} KB, "
          f"{per_game / 1024:.2f} KB a created game); their JSON "
          f"{(json_after - json_before) / max(1, games_after - games_before):.0f} B a game |")
    print(f"| a day at this run's rate ({created} in {took:.0f} s, burst included) | "
          f"{measured:,.0f} games, {measured * per_game / 2**20:,.1f} MB |")
    print(f"| a day at the limiter's steady rate, one address | {steady:,.0f} games, "
          f"{steady * per_game / 2**20:,.1f} MB; N addresses: N times that |")
    if tally.not_json:
        print(f"| refusals not JSON | {'; '.join(tally.not_json)} |")
    print()


def open_wave(port: int, games: list[str], count: int) -> tuple[list[socket.socket], Counter[str],
                                                                float]:
    """`count` event streams (round robin over `games` and WAVE_SOURCES); the sockets, their
    answers' statuses, and the seconds until every head arrived."""
    began = time.monotonic()
    sockets: list[socket.socket] = []
    statuses: Counter[str] = Counter()
    poll = selectors.DefaultSelector()
    buffers: dict[socket.socket, bytes] = {}

    def read(timeout: float) -> None:
        for key, _ in poll.select(timeout):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                chunk = sock.recv(65536)
            except OSError:
                chunk = b""
            buffers[sock] += chunk
            if not chunk or b"\r\n\r\n" in buffers[sock]:
                data = buffers.pop(sock)
                statuses[data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/1.1 ")
                         else "no answer"] += 1
                poll.unregister(sock)

    try:
        for number in range(count):
            try:
                sock = connect(port, WAVE_SOURCES[number % len(WAVE_SOURCES)])
                sock.sendall(events_request(games[number % len(games)]))
            except OSError as error:
                statuses[f"error {type(error).__name__}"] += 1
                continue
            sockets.append(sock)
            buffers[sock] = b""
            poll.register(sock, selectors.EVENT_READ)
            if number % 50 == 49:
                read(0)
        deadline = time.monotonic() + 60
        while buffers and time.monotonic() < deadline:
            read(1.0)
        statuses["no answer in 60 s"] += len(buffers)
    finally:
        poll.close()
    return sockets, statuses, time.monotonic() - began


def wait_closed(server: Server, idle_sockets: int) -> float:
    """Seconds until the server holds no more sockets than idle (+4), at most 30."""
    began = time.monotonic()
    while time.monotonic() - began < 30:
        if server.sockets() <= idle_sockets + 4:
            break
        time.sleep(0.1)
    return time.monotonic() - began


def memory_rounds(tmp: Path) -> None:
    """Part 4; prints its table."""
    raised = {"TABLETOP_STREAMS_PER_CLIENT": "100000",
              "TABLETOP_CONNECTIONS_PER_CLIENT": "100000"}
    connections = min(4096, MEMORY_NOFILE - RESERVED_DESCRIPTORS)
    total_streams = max(1, connections * 3 // 4)
    wave = STREAMS if total_streams >= STREAMS else WAVE
    server = Server(tmp / "memory.db", tmp / "memory.log", MEMORY_NOFILE, raised)
    rows: list[tuple[str, str, float, float, int, int]] = []
    waited: list[float] = []
    try:
        with client(server.url, SETUP) as http:
            games = [http.post("/api/games", json={"game": "go", "options": {
                "opponent": "local"}}).raise_for_status().json()["id"] for _ in range(10)]
        time.sleep(0.5)
        rss, pss, fds = server.memory()
        idle_sockets = server.sockets()
        rows.append(("idle", "0", rss, pss, fds, idle_sockets))
        for round_ in (1, 2):
            opened = 0
            while opened < STREAMS:
                count = min(wave, STREAMS - opened)
                sockets, statuses, took = open_wave(server.port, games, count)
                try:
                    time.sleep(1.0)
                    rss, pss, fds = server.memory()
                    rows.append((f"round {round_}: streams {opened + 1:,}–{opened + count:,} "
                                 f"open ({took:.1f} s to open)", counts_text(statuses), rss,
                                 pss, fds, server.sockets()))
                finally:
                    for sock in sockets:
                        sock.close()
                opened += count
                waited.append(wait_closed(server, idle_sockets))
            closed = time.monotonic()
            for after in (5, 15):
                time.sleep(max(0.0, closed + after - time.monotonic()))
                rss, pss, fds = server.memory()
                rows.append((f"round {round_}: {after} s after its last stream closed", "0",
                             rss, pss, fds, server.sockets()))
    finally:
        server.stop()
    print(f"## 4. Memory: {STREAMS:,} streams open and close, twice (second server)\n")
    print(f"TABLETOP_STREAMS_PER_CLIENT=100000, TABLETOP_CONNECTIONS_PER_CLIENT=100000 (the "
          f"defaults, {DEFAULTS.streams_per_client} streams and "
          f"{DEFAULTS.connections_per_client} connections an address, would refuse these); "
          f"descriptor limit {MEMORY_NOFILE}: connection cap {connections}, total stream cap "
          f"{total_streams}" + (f" < {STREAMS:,}, so waves of {wave:,}" if wave < STREAMS
                                else "") + f"; streams on {len(games)} games from "
          f"{len(WAVE_SOURCES)} addresses.\n")
    print("| moment | streams' answers | server fds (sockets) | VmRSS MB | PSS MB |")
    print("|---|---|---|---|---|")
    for label, answers, rss, pss, fds, held in rows:
        print(f"| {label} | {answers} | {fds} ({held}) | {rss:.1f} | {pss:.1f} |")
    print(f"\nA wave's sockets were all closed on the server {min(waited):.1f}–"
          f"{max(waited):.1f} s after the client closed them (the \"after\" times count from "
          f"then).\n")


def log_findings(log: Path) -> str:
    text = log.read_text(errors="replace") if log.exists() else ""
    found = {needle: text.count(needle) for needle in
             ("Traceback", "ERROR", "Too many open files", "out of system resource")}
    return ", ".join(f"{needle!r}: {count}" for needle, count in found.items())


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so every finally runs
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 16384), hard))
    started = time.monotonic()
    print("command: .venv/bin/python -m bench.hostile_load\n")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)\n")
    connections = min(4096, NOFILE - RESERVED_DESCRIPTORS)
    print(f"Attacked server: `python -m app`, SQLite, default limits, descriptor limit "
          f"{NOFILE} (connection cap {connections}, stream cap {connections * 3 // 4}; per "
          f"client {DEFAULTS.connections_per_client} connections, "
          f"{DEFAULTS.streams_per_client} streams, {DEFAULTS.new_games_burst} new games then "
          f"{DEFAULTS.new_games_per_minute:g}/min, {DEFAULTS.analyses_burst} analyses then "
          f"{DEFAULTS.analyses_per_minute:g}/min), {os.cpu_count()} workers.\n")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        server = Server(tmp / "attacked.db", tmp / "attacked.log", NOFILE)
        try:
            under_attack(server)
            creation_flood(server)
        finally:
            server.stop()
        attacked_log = log_findings(tmp / "attacked.log")
        memory_rounds(tmp)
        memory_log = log_findings(tmp / "memory.log")
        print("| server logs | counts |\n|---|---|")
        print(f"| attacked server | {attacked_log} |")
        print(f"| memory server | {memory_log} |\n")
    print(f"whole run: {time.monotonic() - started:.0f} s; load average at end: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
