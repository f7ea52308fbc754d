"""The GTP client every script that speaks GTP imports: one engine process, a command, its
answer (`GtpClient`, raising `GtpError`), and `replay` to set up a game on an engine's board.

Import it by the package path from the repository root, as the scripts run:
`from bench.gtp_client import GtpClient` (`.venv/bin/python -m bench.gtp_match ...`).
"""

from __future__ import annotations

import os
import select
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the engines run in the repository
MIN_REPLY_TIMEOUT = 300.0  # seconds to answer one command; a cold numba cache can take a minute
STDERR_TAIL = 2_000  # characters of an engine's stderr quoted when it fails


class GtpError(RuntimeError):
    """An engine answered '? ...', died, or did not answer in time."""


class GtpRefused(GtpError):
    """An engine answered '? ...': alive and well, it just would not do it."""


class GtpClient:
    """One engine process spoken to over GTP: `send` a command, get the text after '='."""

    def __init__(self, name: str, command: Sequence[str], timeout: float) -> None:
        self.name = name
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the engine
        self._process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            cwd=ROOT,
        )
        self._buffer = b""

    def send(self, command: str) -> str:
        """The answer to `command` (raises `GtpError` for an error reply, death or silence)."""
        process = self._process
        assert process.stdin is not None
        try:
            process.stdin.write(command.encode() + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            raise GtpError(f"{self.name} exited before {command!r}{self._tail()}") from None
        reply = self._read_reply(command)
        if reply.startswith("?"):
            raise GtpRefused(f"{self.name} refused {command!r}: {reply[1:].strip()}")
        if not reply.startswith("="):
            raise GtpError(f"{self.name} answered {command!r} with {reply!r}")
        return reply[1:].strip()

    def _read_reply(self, command: str) -> str:
        """Read up to the blank line that ends a GTP reply, within `timeout` seconds."""
        process = self._process
        assert process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while True:
            # Skip blank lines before a reply; a reply ends at its first empty line.
            self._buffer = self._buffer.lstrip(b"\r\n")
            end = self._buffer.find(b"\n\n")
            if end >= 0:
                reply, self._buffer = self._buffer[:end], self._buffer[end + 2 :]
                return reply.decode("utf-8", "replace").replace("\r", "")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                raise GtpError(f"{self.name} did not answer {command!r} in {self.timeout:g} s")
            ready, _, _ = select.select([fd], [], [], remaining)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise GtpError(f"{self.name} exited during {command!r}{self._tail()}")
                self._buffer += chunk

    def stderr_size(self) -> int:
        """Bytes the engine has written to stderr so far (a mark for `stderr_since`)."""
        return os.fstat(self._stderr.fileno()).st_size

    def stderr_since(self, mark: int) -> str:
        """What the engine wrote to stderr after `mark` (its reports, e.g. Pachi's win rate).
        Read with pread: the engine writes through the same open file, so moving the shared
        offset with seek could make its next lines overwrite earlier ones."""
        fd = self._stderr.fileno()
        size = os.fstat(fd).st_size
        return os.pread(fd, max(size - mark, 0), mark).decode("utf-8", "replace")

    def _tail(self) -> str:
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace")[-STDERR_TAIL:].strip()
        return f"; its stderr ends: {text}" if text else ""

    def close(self) -> None:
        """Say `quit` and wait a little; kill the process if it lingers."""
        if self._process.poll() is None:
            try:
                self.send("quit")
                self._process.wait(timeout=5)
            except (GtpError, OSError, subprocess.TimeoutExpired):
                self.kill()
        self._stderr.close()

    def exited(self) -> bool:
        """Whether the engine's process has ended (a crash, or killed from outside)."""
        return self._process.poll() is not None

    def kill(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()


def replay(send: Callable[[str], str], moves: Sequence[str], size: int, komi: float) -> None:
    """Put the game on a GTP engine's board through `send` (one command, one answer): the
    size, an empty board, the komi, then `moves` alternately from black."""
    send(f"boardsize {size}")
    send("clear_board")
    send(f"komi {komi:g}")
    color = "black"
    for move in moves:
        send(f"play {color} {move}")
        color = "white" if color == "black" else "black"
