"""One client cannot take what the others need: connections, event streams and the time a
request may take to arrive are bounded (app/connections.py, app/live.py, app/limits.py).

Each test starts the real server (`python -m app`) with a lowered descriptor limit, so the
machine's own is never at stake, and bounds its counts and its time. The attacking client
and the other client are different loopback addresses (127.0.0.3 and 127.0.0.2: Linux
routes all of 127/8 to the loopback), so the per-client caps tell them apart; 127.0.0.1 is
the trusted proxy's address (docs/nginx.conf), whose X-Forwarded-For the server believes.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.limits import Limits

pytestmark = pytest.mark.slow

ATTACKER, OTHER = "127.0.0.3", "127.0.0.2"
DEFAULTS = Limits()


def connect(port: int, source: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    return sock


def answer(sock: socket.socket, seconds: float = 3.0) -> bytes:
    """What the server sends until it has sent a whole head (and a little body), or closes."""
    sock.settimeout(seconds)
    data = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while b"\r\n\r\n" not in data or data.endswith(b"\r\n\r\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return data


def status_of(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else 0


def body_of(reply: bytes) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(reply.split(b"\r\n\r\n", 1)[1])
    return body


def request(path: str, headers: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: tabletop\r\n{headers}\r\n".encode()


@contextlib.contextmanager
def held(sockets: list[socket.socket]) -> Iterator[list[socket.socket]]:
    try:
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def other_client_get(url: str) -> tuple[int, float]:
    transport = httpx.HTTPTransport(local_address=OTHER)
    with httpx.Client(transport=transport, timeout=5) as client:
        began = time.monotonic()
        status = client.get(f"{url}/ui/home").status_code
        return status, time.monotonic() - began


def test_one_address_holds_at_most_its_share_of_connections(
        start_server: Callable[..., Any], tmp_path: Path) -> None:
    """Past connections_per_client the server answers 429 at once, in the API's shape, and
    another client is served as if nothing happened."""
    server = start_server(nofile=512, log=tmp_path / "server.log")
    cap = DEFAULTS.connections_per_client
    with held([connect(server.port, ATTACKER) for _ in range(cap)]):
        extra = connect(server.port, ATTACKER)
        extra.sendall(request("/ui/home"))
        reply = answer(extra)
        extra.close()
        assert status_of(reply) == 429, reply[:200]
        assert body_of(reply)["code"] == "too_many_connections"
        assert b"x-content-type-options: nosniff" in reply.lower()
        assert b"retry-after:" in reply.lower()
        status, seconds = other_client_get(server.url)
        assert status == 200 and seconds < 1.0


def test_a_full_server_refuses_new_connections_at_once_and_never_runs_out_of_files(
        start_server: Callable[..., Any], tmp_path: Path) -> None:
    """With every connection the descriptor limit allows taken (one client whose own cap is
    lifted), a new one gets 503 with a sentence rather than a time-out, and the log has no
    "Too many open files"; once they close, everyone is served again."""
    log = tmp_path / "server.log"
    server = start_server(nofile=512, log=log, TABLETOP_CONNECTIONS_PER_CLIENT="100000")
    with held([]) as sockets:
        for _ in range(400):  # past the 320 the server allows itself with 512 descriptors
            sockets.append(connect(server.port, ATTACKER))
        time.sleep(0.3)
        began = time.monotonic()
        transport = httpx.HTTPTransport(local_address=OTHER)
        with httpx.Client(transport=transport, timeout=5) as client:
            refused = client.get(f"{server.url}/ui/home")
        assert time.monotonic() - began < 1.0
        assert refused.status_code == 503
        assert refused.json()["code"] == "server_full"
        assert refused.headers["retry-after"]
    time.sleep(0.5)
    status, _ = other_client_get(server.url)
    assert status == 200
    assert b"Too many open files" not in log.read_bytes()


def test_accept_failures_are_logged_once_a_second(start_server: Callable[..., Any],
                                                  tmp_path: Path) -> None:
    """When descriptors do run out (a total cap set above the limit), asyncio's report of
    each failed accept is held to one a second, without its traceback."""
    log = tmp_path / "server.log"
    server = start_server(nofile=160, log=log, TABLETOP_CONNECTIONS="100000",
                          TABLETOP_CONNECTIONS_PER_CLIENT="100000")
    began = time.monotonic()
    with held([]) as sockets:
        while time.monotonic() - began < 3.0:
            with contextlib.suppress(OSError):
                sockets.append(connect(server.port, ATTACKER))
            if len(sockets) > 400:
                break
        elapsed = time.monotonic() - began
    time.sleep(1.2)
    text = log.read_text(errors="replace")
    reports = text.count("socket.accept() out of system resource")
    assert 1 <= reports <= elapsed + 3, (reports, elapsed)
    assert text.count("Traceback") <= 1
    assert len(text) < 50_000


def test_a_request_must_arrive_in_time(start_server: Callable[..., Any]) -> None:
    """Headers that trickle are cut off with 408 after header_seconds; a body that trickles
    is cut off after body_seconds; a connection that never says anything is closed."""
    server = start_server(TABLETOP_HEADER_SECONDS="1", TABLETOP_BODY_SECONDS="1")
    assert (DEFAULTS.header_seconds, DEFAULTS.body_seconds) == (10.0, 30.0)

    slow_headers = connect(server.port, ATTACKER)
    slow_headers.sendall(b"GET /ui/home HTTP/1.1\r\nHost: tabletop\r\n")
    began = time.monotonic()
    reply = answer(slow_headers, 4)
    assert status_of(reply) == 408 and 0.8 < time.monotonic() - began < 2.5
    assert body_of(reply)["code"] == "request_timeout"

    silent = connect(server.port, ATTACKER)
    began = time.monotonic()
    assert answer(silent, 4) == b""  # closed, with nothing to say to a client that said nothing
    assert time.monotonic() - began < 2.5

    slow_body = connect(server.port, ATTACKER)
    slow_body.sendall(b"POST /api/games HTTP/1.1\r\nHost: tabletop\r\n"
                      b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
    began = time.monotonic()
    closed = False
    with contextlib.suppress(OSError):
        for _ in range(20):
            slow_body.sendall(b" ")
            time.sleep(0.2)
    slow_body.settimeout(3)
    with contextlib.suppress(ConnectionResetError, TimeoutError):
        closed = slow_body.recv(65536) == b"" or True
    assert closed and time.monotonic() - began < 4.5
    for sock in (slow_headers, silent, slow_body):
        sock.close()
    assert httpx.get(f"{server.url}/ui/home").status_code == 200


def stream(port: int, game_id: str, source: str = ATTACKER,
           forwarded_for: str | None = None) -> tuple[socket.socket, bytes]:
    sock = connect(port, source)
    extra = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for else ""
    sock.sendall(request(f"/api/games/{game_id}/events", extra))
    return sock, answer(sock)


def test_event_streams_per_client_and_in_total(start_server: Callable[..., Any]) -> None:
    """A client address may follow streams_per_client streams (then 429); the server
    `streams` in all (then 503); a stream's place is given back when it closes. Behind the
    trusted proxy, each forwarded client has its own share."""
    share = DEFAULTS.streams_per_client
    server = start_server(TABLETOP_STREAMS="24", TABLETOP_STREAMS_PER_CLIENT=str(share))
    game = httpx.post(f"{server.url}/api/games", json={"game": "tictactoe"}).json()["id"]
    with held([]) as sockets:
        for _ in range(share):
            sock, head = stream(server.port, game)
            sockets.append(sock)
            assert status_of(head) == 200, head[:200]
        sock, refused = stream(server.port, game)
        sock.close()
        assert status_of(refused) == 429
        assert body_of(refused)["code"] == "too_many_streams"
        sockets.pop().close()  # one closes: its place is free again
        time.sleep(0.3)
        sock, again = stream(server.port, game)
        sockets.append(sock)
        assert status_of(again) == 200

        # Two clients behind the proxy (127.0.0.1 sends X-Forwarded-For): shares of their own,
        # until the server's total of 24 is reached.
        for number in range(24 - share):
            sock, head = stream(server.port, game, "127.0.0.1", f"203.0.113.{number % 2 + 1}")
            sockets.append(sock)
            assert status_of(head) == 200
        sock, full = stream(server.port, game, OTHER)
        sock.close()
        assert status_of(full) == 503
        assert body_of(full)["code"] == "streams_full"


def test_last_event_ids_that_are_no_version_count_as_none(
        start_server: Callable[..., Any]) -> None:
    """A Last-Event-ID past a 64-bit version, or of digits that are not ASCII, starts the
    stream with the game as it stands (it used to cut the stream, or answer 500)."""
    server = start_server()
    game = httpx.post(f"{server.url}/api/games", json={"game": "tictactoe"}).json()["id"]
    # As bytes: b"\xb2" is "²" to a server reading headers as Latin-1, as Starlette does.
    for value in (b"9223372036854775808", b"\xb2", "\u0663".encode(), b"9" * 20):
        sock = connect(server.port, OTHER)
        sock.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: tabletop\r\n".encode()
                     + b"Last-Event-ID: " + value + b"\r\n\r\n")
        reply = answer(sock)
        deadline = time.monotonic() + 3
        while b"event: game" not in reply and time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                reply += sock.recv(65536)
        sock.close()
        assert status_of(reply) == 200, (value, reply[:200])
        assert b"event: game" in reply, value
