"""One worker process of the server's pool: `python -m app.worker_process`, started by
app/pool.py. Start reading at main().

It speaks a tiny protocol on its stdin/stdout: every message is a 4-byte big-endian length and
a pickle. The parent sends `(function, payload)` (a module-level function, pickled by name);
the worker answers `("ok", result)` or `("error", "<what went wrong>")`. The first message the
worker sends is `("ready", pid)`, once it has warmed up. Anything a job prints goes to stderr,
never into the protocol.

It never outlives the server: the kernel kills it when its parent dies (PR_SET_PDEATHSIG), it
checks that its parent is still the one that started it, and it exits when its stdin closes.
It ignores Ctrl-C (the server, which gets it too, stops the pool) and runs at a lower
priority, so the server itself stays responsive while every core searches.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import pickle
import signal
import struct
import sys
import traceback
from typing import Any, BinaryIO

NICENESS = 10  # workers yield the CPU to the server's own process (its requests stay fast)
PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>
HEADER = struct.Struct("!I")


def die_with_parent(parent: int) -> None:
    """Asks Linux to SIGKILL this process when the parent dies; exits now if it already has."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the stdin EOF check below still ends the worker
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)


def read_message(stream: BinaryIO) -> Any:
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        raise EOFError
    (length,) = HEADER.unpack(header)
    data = stream.read(length)
    if len(data) < length:
        raise EOFError
    return pickle.loads(data)


def write_message(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def warm_up(target: str) -> None:
    """Runs "module:function" once before the first job (e.g. loads the compiled search)."""
    module, _, function = target.partition(":")
    getattr(importlib.import_module(module), function)()


def main() -> None:
    parent = int(os.environ.get("TABLETOP_POOL_PARENT", os.getppid()))
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    # The protocol keeps the real stdout; fd 1 becomes stderr, so stray prints stay harmless.
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    jobs = sys.stdin.buffer
    target = os.environ.get("TABLETOP_POOL_WARM_UP", "")
    if target:
        warm_up(target)
    write_message(replies, ("ready", os.getpid()))
    while True:
        try:
            function, payload = read_message(jobs)
        except EOFError:
            return  # the server closed the pipe: it is gone or shutting down
        try:
            reply = ("ok", function(payload))
        except Exception as error:  # noqa: BLE001 - reported to the server, which decides
            traceback.print_exc()
            reply = ("error", f"{type(error).__name__}: {error}")
        write_message(replies, reply)


if __name__ == "__main__":
    main()
