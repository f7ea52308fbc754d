"""Connections, before any request is read: how many one client address may hold, how many
the server holds, and how long a request may take to arrive.

Start at GuardedH11Protocol, uvicorn's HTTP/1.1 protocol (h11) with three additions, set by
app/limits.py's bounds:

- A cap on connections per client address (`connections_per_client`; not for the trusted
  proxies, whose connections carry many clients: docs/nginx.conf limits those in front) and in
  total (`total_connections()`, below the descriptor limit, so the server never runs out of
  files and can always answer). A connection past a cap is answered at once — 429 or 503,
  JSON with a sentence — and closed, without reading a request.
- A deadline for the request to arrive: its headers within `header_seconds` of the
  connection's start (or of its last answer, on a kept-alive connection), its body within
  `body_seconds` of the headers. A connection that trickles (slowloris) is closed when its
  deadline passes — with 408 if it had started a request. uvicorn's own keep-alive timeout
  closes connections idle between requests.
- The guard's counts live on uvicorn's ServerState, one per serving process.

`RateLimitedLog` keeps a descriptor shortage from flooding the log: asyncio reports every
failed accept, and the filter lets one such report through a second.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from app.limits import Limits, OpenCounts

LINGER_SECONDS = 0.5  # a refused connection is read (and discarded) this long before closing
MAX_LINGERING = 32  # refused connections lingering at once; past it they close at once (a flood)
ACCEPT_FAILURE = "socket.accept() out of system resource"  # asyncio's message (EMFILE etc.)
log = logging.getLogger("tabletop.connections")


class TrustedProxies:
    """The addresses whose X-Forwarded-For uvicorn believes (its forwarded_allow_ips): "*",
    or addresses and networks separated by commas."""

    def __init__(self, spec: str) -> None:
        items = [item.strip() for item in spec.split(",") if item.strip()]
        self.everyone = "*" in items
        self.networks = []
        for item in items:
            if item != "*":
                try:
                    self.networks.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    continue  # a Unix socket's name, say: no TCP peer has it

    def __contains__(self, host: str) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


class ConnectionGuard:
    """The connections of one server (one per serving process), by client address."""

    def __init__(self, limits: Limits, trusted: TrustedProxies) -> None:
        self.limits = limits
        self.trusted = trusted
        self.counts = OpenCounts(limits.connections_per_client, limits.total_connections())
        self.lingering = 0  # refused connections not closed yet (they hold descriptors too)

    def admit(self, host: str) -> tuple[int, str, str] | None:
        """Counts a new connection from `host`, or the refusal (status, code, sentence)."""
        refused = self.counts.take(host, exempt=host in self.trusted)
        if refused == "total":
            return (503, "server_full", "The server holds as many connections as it can; "
                    "try again in a few seconds.")
        if refused == "client":
            return (429, "too_many_connections", f"This address already holds "
                    f"{self.counts.per_client} connections to the server, the most one "
                    "client may; close some and try again.")
        return None

    def release(self, host: str) -> None:
        self.counts.release(host)


def guard_of(state: ServerState, config: Config) -> ConnectionGuard:
    """The server's guard, made by its first connection."""
    guard: ConnectionGuard | None = getattr(state, "tabletop_guard", None)
    if guard is None:
        allowed = config.forwarded_allow_ips
        spec = allowed if isinstance(allowed, str) else ",".join(allowed)
        guard = ConnectionGuard(Limits.from_env(), TrustedProxies(spec))
        state.tabletop_guard = guard  # type: ignore[attr-defined]
    return guard


def raw_response(status: int, code: str, detail: str, retry_after: int | None) -> bytes:
    """A whole HTTP/1.1 error response in the API's shape, for a connection no request
    has been read from (so no ASGI app can answer it)."""
    from app.middleware import SECURITY_HEADERS  # the app's own headers, on every answer

    reason = {408: "Request Timeout", 429: "Too Many Requests",
              503: "Service Unavailable"}[status]
    body = json.dumps({"detail": detail, "code": code}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
               *SECURITY_HEADERS]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return f"HTTP/1.1 {status} {reason}\r\n".encode() + head + b"\r\n" + body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with the guard's caps and the request's deadlines (see the
    module docstring). uvicorn makes one per connection (app/server.py names it)."""

    def __init__(self, config: Config, server_state: ServerState,
                 app_state: dict[str, Any], _loop: asyncio.AbstractEventLoop | None = None
                 ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.guard = guard_of(server_state, config)
        self.host: str | None = None  # counted against the guard while set
        self.refused = False
        self.lingering = False
        self.deadline: asyncio.TimerHandle | None = None
        self._waiting_for: str | None = None  # "headers" or "body" while a deadline runs

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) else ""
        refusal = self.guard.admit(host)
        if refusal is not None:
            self.refused = True
            self.transport = transport
            status, code, detail = refusal
            transport.write(raw_response(status, code, detail, 5 if status == 503 else 10))
            if self.guard.lingering >= MAX_LINGERING:
                transport.close()  # a flood: descriptors matter more than a clean close
                return
            # The client may be sending its request now: reading it (and throwing it away)
            # before closing keeps the kernel from resetting the connection under the answer.
            self.guard.lingering += 1
            self.lingering = True
            if transport.can_write_eof():
                transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, transport.close)
            return
        self.host = host
        super().connection_made(transport)
        self._expect_headers()

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # the answer is sent; what the client says is not read
        super().data_received(data)
        self._follow_request()

    def eof_received(self) -> None:
        if self.refused:
            self.transport.close()  # the client has read the answer and is done

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        if self.refused:
            if self.lingering:
                self.guard.lingering -= 1
                self.lingering = False
            return
        if self.host is not None:
            self.guard.release(self.host)
            self.host = None
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._follow_request()

    # -- deadlines -------------------------------------------------------------------------

    def _follow_request(self) -> None:
        """Sets the deadline for what the client owes now: headers, a body, or nothing
        (a request being answered, an event stream)."""
        state = self.conn.their_state
        if state is h11.IDLE:
            if self.deadline is None:
                self._expect_headers()
        elif state is h11.SEND_BODY:
            if self._waiting_for != "body":
                self._set_deadline(self.guard.limits.body_seconds, "body")
        else:
            self._cancel_deadline()

    def _expect_headers(self) -> None:
        self._set_deadline(self.guard.limits.header_seconds, "headers")

    def _set_deadline(self, seconds: float, waiting_for: str) -> None:
        self._cancel_deadline()
        self._waiting_for = waiting_for
        self.deadline = self.loop.call_later(seconds, self._deadline_passed)

    def _cancel_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self._waiting_for = None

    def _deadline_passed(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        started = self.conn.their_state is h11.IDLE and bool(self.conn.trailing_data[0])
        if self._waiting_for == "headers" and started and self.conn.our_state is h11.IDLE:
            seconds = self.guard.limits.header_seconds
            self.transport.write(raw_response(
                408, "request_timeout", f"The request's headers did not arrive within "
                f"{seconds:g} s; the connection is closed.", None))
        # A body that did not arrive: the request being read sees the client disconnect.
        self.transport.close()


class RateLimitedLog(logging.Filter):
    """Lets through one report of a failed accept (descriptors run out) a second, and says
    how many it held back."""

    def __init__(self, seconds: float = 1.0) -> None:
        super().__init__()
        self.seconds = seconds
        self.last = -float("inf")
        self.held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith(ACCEPT_FAILURE):
            return True
        now = time.monotonic()
        if now - self.last < self.seconds:
            self.held += 1
            return False
        self.last = now
        if self.held:
            record.msg = f"{record.msg} ({self.held} more in the last seconds not logged)"
            self.held = 0
        record.exc_info = None  # the same EMFILE traceback each time says nothing new
        return True


def quiet_accept_failures() -> None:
    """Installs RateLimitedLog on asyncio's logger (once per process)."""
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(existing, RateLimitedLog) for existing in asyncio_log.filters):
        asyncio_log.addFilter(RateLimitedLog())
