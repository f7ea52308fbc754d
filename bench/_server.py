"""Shared by the benchmarks: run an ASGI app with uvicorn (`serving`) or Tabletop itself
(`tabletop`) in a subprocess on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def wait_until_up(url: str, process: subprocess.Popen[bytes], probe: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url + probe, timeout=1)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise
            time.sleep(0.1)


@contextmanager
def tabletop(database_url: str) -> Iterator[str]:
    """`python -m app` on a free port, serving `database_url`; yields its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app"], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PORT": str(port), "TABLETOP_DATABASE_URL": database_url})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process, "/ui/home")
        yield url
    finally:
        process.terminate()
        process.wait()


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (a server's workers), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # "pid (comm) state ppid …": comm may hold spaces, so split after its ')'.
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def workers_of(server: int) -> list[int]:
    """The worker processes of a server's pool: the children of its zygote, the server's
    own child (app/pool.py)."""
    return [worker for zygote in children_of(server) for worker in children_of(zygote)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(app: str, env: dict[str, str] | None = None, probe: str = "/") -> Iterator[str]:
    """Serves `app` ("module:factory") and yields its base URL until the block ends."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--factory", "--port", str(port),
         "--log-level", "warning"],
        cwd=ROOT, env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process, probe)
        yield url
    finally:
        process.terminate()
        process.wait()
