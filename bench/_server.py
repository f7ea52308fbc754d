"""Shared by the benchmarks: run an ASGI app with uvicorn in a subprocess on a free port."""

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
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + probe, timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait()
