"""The server's worker processes: `python -m app.worker_process` is the pool's zygote, the
one process that loads what the workers run and forks every worker from itself (started by
app/pool.py). Start reading at main(), then serve_forks() and work().

Why a zygote: every worker needs the compiled Go search (numba and its kernels, ~100 MB).
Loaded once, before the forks, its pages are shared by all the workers (copy-on-write), so a
second worker costs ~25 MB, not ~110; and a new worker - a replacement for one killed at its
deadline - is ready in milliseconds, with nothing to load.

The zygote speaks to the pool on a Unix socket (its fd in TABLETOP_POOL_CONTROL): once it has
warmed up it sends one byte, READY; then for each b"F" that arrives with two descriptors (the
read end of a job pipe, the write end of a reply pipe; SCM_RIGHTS) it forks a worker on them
and answers its pid (4 bytes, big-endian). It leaves reaping to the kernel (SIGCHLD ignored).

A worker speaks a tiny protocol on its two pipes: every message is a 4-byte big-endian length
and a pickle. The pool sends `(function, payload)` (a module-level function, pickled by name);
the worker answers `("ok", result)` or `("error", "<what went wrong>")`. The first message a
worker sends is `("ready", pid)`. Anything a job prints goes to stderr, never into the protocol.

Neither outlives the server: the kernel kills the zygote when the server dies and each worker
when the zygote dies (PR_SET_PDEATHSIG), each checks that its parent is still the one that
started it, the zygote exits when its socket closes and a worker when its job pipe does. They
ignore Ctrl-C (the server, which gets it too, stops the pool) and run at a lower priority, so
the server itself stays responsive while every core searches.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import os
import pickle
import signal
import socket
import struct
import traceback
from typing import Any, BinaryIO

NICENESS = 10  # workers yield the CPU to the server's own process (its requests stay fast)
PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>
HEADER = struct.Struct("!I")  # a message's length; also a forked worker's pid
READY = b"R"  # the zygote has warmed up and forks on request
FORK = b"F"  # the pool asks for a worker, on the two descriptors that come with it


def die_with_parent(parent: int) -> None:
    """Asks Linux to SIGKILL this process when the parent dies; exits now if it already has."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the EOF checks below still end the process
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
    """Runs "module:function" once before the first fork (e.g. loads the compiled search)."""
    module, _, function = target.partition(":")
    getattr(importlib.import_module(module), function)()


def main() -> None:
    """The zygote: dies with the server, warms up, then forks workers on request."""
    parent = int(os.environ.get("TABLETOP_POOL_PARENT", os.getppid()))
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    os.dup2(2, 1)  # stray prints go to stderr, as a worker's do
    control = socket.socket(fileno=int(os.environ["TABLETOP_POOL_CONTROL"]))
    target = os.environ.get("TABLETOP_POOL_WARM_UP", "")
    if target:
        warm_up(target)
    serve_forks(control)


def serve_forks(control: socket.socket) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the workers
    # What is loaded now stays out of the collector's reach: its passes would otherwise
    # write to every shared object's page and copy it into each worker.
    gc.freeze()
    zygote = os.getpid()
    control.sendall(READY)
    while True:
        try:
            message, descriptors, _, _ = socket.recv_fds(control, len(FORK), 2)
        except OSError:
            return
        if message != FORK or len(descriptors) != 2:
            for descriptor in descriptors:
                os.close(descriptor)
            return  # the pool closed the socket: the server is gone or shutting down
        jobs, replies = descriptors
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                control.close()
                work(jobs, replies, zygote)
                status = 0
            finally:
                os._exit(status)  # never back into the zygote's loop
        os.close(jobs)
        os.close(replies)
        control.sendall(HEADER.pack(pid))


def work(jobs_fd: int, replies_fd: int, zygote: int) -> None:
    """A worker: runs the jobs that come down its pipe until the pipe closes."""
    die_with_parent(zygote)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    jobs = os.fdopen(jobs_fd, "rb")
    replies = os.fdopen(replies_fd, "wb")
    write_message(replies, ("ready", os.getpid()))
    while True:
        try:
            function, payload = read_message(jobs)
        except EOFError:
            return  # the pool closed the pipe: the server is gone or shutting down
        try:
            reply = ("ok", function(payload))
        except Exception as error:  # noqa: BLE001 - reported to the server, which decides
            traceback.print_exc()
            reply = ("error", f"{type(error).__name__}: {error}")
        write_message(replies, reply)


if __name__ == "__main__":
    main()
