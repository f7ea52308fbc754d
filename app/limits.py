"""How much one client may ask of a server, and how much all of them may: the bounds that
keep one hostile or careless client from taking what the players need.

Start at `Limits`, every bound with its environment variable and its default; `Limits.from_env`
reads them once per process. Who enforces what:

- connections (per client address, and in total) and the time a request may take to arrive
  (headers, then body): app/connections.py, at the socket, before any request is read;
- open event streams (per client address, and in total): app/live.py, before a stream starts;
- new games and the anonymous heavy work (analyses, tour solves) per client address:
  `RateLimiter` below, called by the services that do the work (app/games);
- the worker pool's share for anonymous work: app/pool.py.

A client is its IP address as the server sees it: the peer of the connection, or — behind a
proxy listed in TABLETOP_TRUSTED_PROXIES — the address the proxy reports in
X-Forwarded-For (uvicorn resolves it). Behind nginx, docs/nginx.conf limits connections per
client in front, since every connection then comes from the proxy's own address.
"""

from __future__ import annotations

import math
import os
import resource
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields

from app.errors import ApiError

# Kept free of connections: SQLite's files (3 for each of up to 40 threads' connections; or
# PostgreSQL's pool), the workers' pipes, the logs, static files being sent.
RESERVED_DESCRIPTORS = 192
MAX_CLIENTS_TRACKED = 10_000  # addresses a rate limiter remembers (the least recent go first)


def descriptor_limit() -> int:
    """How many files this process may hold open (RLIMIT_NOFILE's soft limit)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(frozen=True)
class Limits:
    """Every bound, with its default. Each field is read from TABLETOP_<FIELD NAME IN
    CAPITALS> (e.g. TABLETOP_CONNECTIONS_PER_CLIENT); 0 for `connections` and `streams` means
    "derive it from the descriptor limit"."""

    connections_per_client: int = 64  # a browser opens at most 6, plus one a watched game
    connections: int = 0  # in total; 0: the descriptor limit less RESERVED_DESCRIPTORS, ≤ 4096
    header_seconds: float = 10.0  # from a connection's start (or its last answer) to its headers
    body_seconds: float = 30.0  # from the headers to the body's last byte (1 MB at 33 KB/s)
    streams_per_client: int = 16  # open event streams: a tab each, for a few tabs
    streams: int = 0  # in total; 0: three quarters of `connections`, so requests still fit
    new_games_per_minute: float = 20.0  # per client; opening a view makes one
    new_games_burst: int = 20
    analyses_per_minute: float = 20.0  # anonymous searches and solves per client (cache misses)
    analyses_burst: int = 10

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The limits as this process's environment sets them (invalid values are refused
        with a sentence, at start-up)."""
        env = os.environ if environ is None else environ
        values: dict[str, float | int] = {}
        for spec in fields(cls):
            name = f"TABLETOP_{spec.name.upper()}"
            text = env.get(name)
            if text is None or text == "":
                continue
            kind = float if spec.type in ("float", float) else int
            try:
                value = kind(text)
            except ValueError:
                raise SystemExit(f"{name}={text!r}: expected a number ({kind.__name__}).") from None
            if not math.isfinite(value) or value < 0:
                raise SystemExit(f"{name}={text!r}: expected a number of at least 0.")
            values[spec.name] = value
        return cls(**values)  # type: ignore[arg-type]

    def total_connections(self) -> int:
        if self.connections:
            return self.connections
        return max(16, min(4096, descriptor_limit() - RESERVED_DESCRIPTORS))

    def total_streams(self) -> int:
        return self.streams or max(1, self.total_connections() * 3 // 4)


class OpenCounts:
    """How many of something (connections, streams) each client holds open, and all of
    them, against a cap per client and one in total."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self.open: dict[str | None, int] = {}
        self.open_total = 0

    def take(self, client: str | None, exempt: bool = False) -> str | None:
        """Counts one more for `client`, or says which cap refuses it: "total" or "client"
        (an `exempt` client, a trusted proxy, has no cap of its own)."""
        if self.open_total >= self.total:
            return "total"
        if not exempt and self.open.get(client, 0) >= self.per_client:
            return "client"
        self.open[client] = self.open.get(client, 0) + 1
        self.open_total += 1
        return None

    def release(self, client: str | None) -> None:
        self.open_total -= 1
        left = self.open[client] - 1
        if left:
            self.open[client] = left
        else:
            del self.open[client]


class RateLimited(ApiError):
    """One client asked for more than its share; nothing was done."""

    status = 429
    code = "rate_limited"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})


class RateLimiter:
    """A token bucket per client: `burst` at once, then `per_minute` a minute. Remembers
    the MAX_CLIENTS_TRACKED clients seen last, so its memory is bounded whoever asks."""

    def __init__(self, per_minute: float, burst: int, refusal: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1, burst)
        self.refusal = refusal  # the sentence, with {seconds}
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()  # services call it from the event loop and from threads

    def take(self, client: str | None) -> None:
        """Spends one of the client's tokens, or refuses with 429 (RateLimited) and the
        seconds until it has one again. A request with no client address (over a Unix
        socket, or in-process) is not limited."""
        if client is None:
            return
        with self._lock:
            self._take(client, self.clock())

    def _take(self, client: str, now: float) -> None:
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            wait = math.ceil((1.0 - tokens) / self.rate) if self.rate > 0 else 3600
            raise RateLimited(self.refusal.format(seconds=wait), max(1, wait))
        self._buckets[client] = (tokens - 1.0, now)
        while len(self._buckets) > MAX_CLIENTS_TRACKED:
            self._buckets.popitem(last=False)


def new_games_limiter(limits: Limits) -> RateLimiter:
    return RateLimiter(limits.new_games_per_minute, limits.new_games_burst,
                       "You have started games faster than one client may; nothing was "
                       "created. Try again in {seconds} s, or go on with a game you have.")


def analyses_limiter(limits: Limits) -> RateLimiter:
    return RateLimiter(limits.analyses_per_minute, limits.analyses_burst,
                       "You have asked the computer to analyse faster than one client may; "
                       "it answers again in {seconds} s.")
