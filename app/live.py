"""Live games: every stored change reaches the open event streams (Server-Sent Events).

Start at LiveHub.stream. A stream is one client's GET /api/games/{id}/events. It first sends
what the client missed — every stored version after its Last-Event-ID, in order, or the
current version for a new client — then each new version as it is stored. The store keeps
each version's public JSON (app/store.py's events), so a client that reconnects after a
dropped connection or a server restart misses nothing.

Fan-out: GameService calls `changed(game_id)` after each write (from any thread). The hub
reads the new events from the store once per game, however many watch it, and hands the
same bytes to every stream of that game. Streams also get the computer's "thinking", a new
chat message's id ("chat", app/chat.py) and the number of watchers ("presence"), which are
not versions and carry no id; a comment line
every HEARTBEAT_SECONDS keeps idle connections open through proxies.

Bounds (app/limits.py): a client address may hold `streams_per_client` streams at once, and
the server `total_streams()`; past either, the stream is refused before it starts (429 or
503 with Retry-After, as JSON) and the browser's view tries again by itself.

Many instances (PostgreSQL): a write in another instance reaches this one's streams through
the store's announcements (LISTEN/NOTIFY, see `_follow`), which wake the same read; the
computer's thinking and the chat's news are relayed the same way. Presence counts the
watchers of this instance only: with several instances behind a balancer, "N watching" is a
lower bound.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import json
import logging
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.limits import Limits, OpenCounts
from app.store import GameStore

HEARTBEAT_SECONDS = 15.0  # proxies drop connections idle for 30-60 s
RETRY_MILLISECONDS = 1000  # how soon a browser reconnects a dropped stream
QUEUE_LIMIT = 1000  # frames a stream may fall behind before it is closed (a stuck client)
PRESENCE_SECONDS = 0.3  # watcher counts are sent at most this often per game
TRIM_AFTER = 200  # streams closed since the peak before their memory is given back
TRIM_DELAY_SECONDS = 2.0  # a wave of closing streams gives back once, after it
RUNNING: weakref.WeakSet[LiveHub] = weakref.WeakSet()  # started hubs (see close_all_soon)
log = logging.getLogger("tabletop.live")


def give_back_memory() -> None:
    """Asks glibc to return the free memory it holds to the system (malloc_trim); nothing
    where the C library is not glibc."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):
        pass


def frame(data: str, event: str, version: int | None = None) -> bytes:
    """One SSE message; `version` becomes its id (what Last-Event-ID sends back)."""
    head = f"id: {version}\n" if version is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n".encode()


@dataclass(eq=False)
class Stream:
    """One open event stream: its queue of frames (None: closed by the server)."""

    seated: bool
    queue: asyncio.Queue[tuple[int | None, bytes] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))


class EventStreamResponse(Response):
    """An event stream that first takes its place in the hub's bounds, when it is sent (so
    the place is given back however the stream ends), or answers with the refusal."""

    def __init__(self, hub: LiveHub, client: str | None,
                 events: Callable[[], AsyncIterator[bytes]]) -> None:
        super().__init__(media_type="text/event-stream")
        self.hub = hub
        self.client = client
        self.events = events

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self.hub._refusal(self.client)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        try:
            await StreamingResponse(self.events(), media_type="text/event-stream", headers={
                "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})(scope, receive, send)
        finally:
            self.hub._release(self.client)


def close_all_soon() -> None:
    """Ends the streams of every hub in this process (app/server.py calls this as soon as
    the server is asked to stop, so streams end cleanly instead of being cut)."""
    for hub in list(RUNNING):
        hub.close_soon()


class LiveHub:
    """The open event streams of this server, by game."""

    def __init__(self, store: GameStore, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self._streams: dict[str, set[Stream]] = {}
        # Streams open (or starting) per client address, and in all.
        self._open = OpenCounts(self.limits.streams_per_client, self.limits.total_streams())
        self._most_open = 0  # the most streams open since memory was last given back
        self._trim_due = False
        self._published: dict[str, int] = {}  # the newest version handed to streams
        self._fetching: set[str] = set()
        self._again: set[str] = set()
        self._presence_due: set[str] = set()
        self._held: dict[str, list[bytes]] = {}  # messages waiting for a read of versions
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._follower: asyncio.Task[None] | None = None
        # One thread relays to the other instances, so "thinking" and "done" stay in order.
        self._relay = ThreadPoolExecutor(1, "live-relay") if store.shared else None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        RUNNING.add(self)
        if self.store.shared:
            self._follower = loop.create_task(self._follow())

    def close(self) -> None:
        """Ends every stream (the server is stopping): each ends cleanly, and browsers
        reconnect (to this server once it is back, or to another one)."""
        self._closing = True
        for streams in self._streams.values():
            for stream in streams:
                self._offer(stream, None)
        if self._follower is not None:
            self._follower.cancel()
        if self._relay is not None:
            self._relay.shutdown(wait=False)

    def close_soon(self) -> None:
        """close(), from any thread (a signal handler)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.close)

    # -- what the service tells us ---------------------------------------------------------

    def changed(self, game_id: str) -> None:
        """A new version of the game is stored; safe to call from any thread."""
        loop = self._loop
        if loop is not None and game_id in self._streams:
            loop.call_soon_threadsafe(self._wake, game_id)

    def thinking(self, game_id: str, seat: str, busy: bool) -> None:
        self._tell(game_id, "computer", json.dumps({"thinking": busy, "seat": seat}))

    def said(self, game_id: str, message_id: int) -> None:
        """A message was added to the game's chat (app/chat.py): its streams hear a `chat`
        event with its id, and read the chat again."""
        self._tell(game_id, "chat", json.dumps({"id": message_id}))

    def _tell(self, game_id: str, event: str, data: str) -> None:
        """Sends a message that is no version to the game's streams, here and in the other
        instances; safe to call from any thread."""
        loop = self._loop
        if loop is not None and game_id in self._streams:
            loop.call_soon_threadsafe(self._in_order, game_id, frame(data, event))
        if self._relay is not None and not self._closing:
            self._relay.submit(self._tell_others, game_id, event, data)

    def _tell_others(self, game_id: str, event: str, data: str) -> None:
        try:
            self.store.relay(game_id, event, data)
        except Exception:  # noqa: BLE001 - a lost "thinking" or "chat" must not fail the move
            log.warning("could not relay %s to the other instances", event, exc_info=True)

    def watching(self, game_id: str) -> int:
        return sum(1 for stream in self._streams.get(game_id, ()) if not stream.seated)

    # -- streams ---------------------------------------------------------------------------

    def response(self, game_id: str, last_seen: int | None, seated: bool,
                 current: Callable[[], dict[str, Any]], client: str | None) -> Response:
        """The HTTP response of one client's stream (see `stream`), counted against its
        address's share and the server's from when it is sent until it ends."""
        return EventStreamResponse(self, client, lambda: self.stream(game_id, last_seen,
                                                                     seated, current))

    def _refusal(self, client: str | None) -> Response | None:
        """Takes a place for a client's stream, or the response that refuses it."""
        refused = self._open.take(client)
        if refused == "client":
            return JSONResponse({
                "detail": f"This address already has {self._open.per_client} live games open "
                          "here, the most one client may follow at once; close some tabs and "
                          "this one follows the game again by itself.",
                "code": "too_many_streams"}, status_code=429, headers={"Retry-After": "10"})
        if refused == "total":
            return JSONResponse({
                "detail": "The server is following as many live games as it can; this view "
                          "tries again in a few seconds.",
                "code": "streams_full"}, status_code=503, headers={"Retry-After": "5"})
        return None

    def _release(self, client: str | None) -> None:
        self._open.release(client)
        self._most_open = max(self._most_open, self._open.open_total + 1)
        if self._most_open - self._open.open_total >= TRIM_AFTER and self._loop is not None \
                and not self._trim_due:
            self._trim_due = True
            self._loop.call_later(TRIM_DELAY_SECONDS, self._trim)

    def _trim(self) -> None:
        """Gives the memory of many closed streams back to the system: the C allocator keeps
        freed memory for reuse (and Python's threads each have an arena of it), so without
        this a burst of streams would hold its peak for the life of the process."""
        self._trim_due = False
        self._most_open = self._open.open_total
        gc.collect()
        give_back_memory()

    async def stream(self, game_id: str, last_seen: int | None, seated: bool,
                     current: Callable[[], dict[str, Any]]) -> AsyncIterator[bytes]:
        """The event stream of one client; `current` is the game's public JSON now, sent
        first to a client that has seen nothing."""
        stream = Stream(seated)
        if self._closing:
            return  # the server is stopping: the client reconnects to the next one
        self._streams.setdefault(game_id, set()).add(stream)
        self._presence(game_id)
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
            sent = -1
            if last_seen is None:
                game = await run_in_threadpool(current)
                sent = game["version"]
                yield frame(json.dumps(game, separators=(",", ":")), "game", sent)
            else:
                sent = last_seen
                for version, data in await run_in_threadpool(self.store.events_since,
                                                              game_id, last_seen):
                    sent = version
                    yield frame(data, "game", version)
            self._published[game_id] = max(self._published.get(game_id, -1), sent)
            self._wake(game_id)  # a version stored while this stream caught up
            while True:
                try:
                    item = await asyncio.wait_for(stream.queue.get(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
                if item is None:
                    return
                number, message = item
                if number is not None:
                    if number <= sent:
                        continue  # already sent while catching up
                    sent = number
                yield message
        finally:
            streams = self._streams.get(game_id)
            if streams is not None:
                streams.discard(stream)
                if not streams:
                    del self._streams[game_id]
                    self._published.pop(game_id, None)
            self._presence(game_id)

    def _presence(self, game_id: str) -> None:
        """Tells the game's streams how many watch, at most every PRESENCE_SECONDS (a
        thousand watchers arriving make one message, not a thousand)."""
        if game_id in self._presence_due or self._loop is None:
            return
        self._presence_due.add(game_id)

        def send() -> None:
            self._presence_due.discard(game_id)
            data = json.dumps({"watching": self.watching(game_id)})
            self._broadcast(game_id, frame(data, "presence"))

        self._loop.call_later(PRESENCE_SECONDS, send)

    def _in_order(self, game_id: str, data: bytes) -> None:
        """Sends a message after the versions being read now (the computer's search starts
        after the human's move, and its stream says so in that order)."""
        if game_id in self._fetching:
            self._held.setdefault(game_id, []).append(data)
        else:
            self._broadcast(game_id, data)

    def _broadcast(self, game_id: str, data: bytes, version: int | None = None) -> None:
        for stream in list(self._streams.get(game_id, ())):
            self._offer(stream, (version, data))

    def _offer(self, stream: Stream, item: tuple[int | None, bytes] | None) -> None:
        try:
            stream.queue.put_nowait(item)
        except asyncio.QueueFull:  # a client that stopped reading: drop it, it reconnects
            while not stream.queue.empty():
                stream.queue.get_nowait()
            stream.queue.put_nowait(None)

    def _wake(self, game_id: str) -> None:
        """Reads the game's new events once and hands them to all its streams; wakes that
        arrive while a read is under way are folded into one more read."""
        if game_id in self._fetching:
            self._again.add(game_id)
            return
        self._fetching.add(game_id)
        asyncio.get_running_loop().create_task(self._fetch(game_id))

    async def _follow(self) -> None:
        """Hands what the other instances store and relay to this instance's streams, as
        if it had happened here (runs while the server does)."""
        async for notice in self.store.announcements():
            if notice is None:  # (re)connected: changes made meanwhile were not announced
                for game_id in list(self._streams):
                    self._wake(game_id)
            elif notice.game_id not in self._streams:
                continue
            elif notice.version is not None:
                if self._published.get(notice.game_id, -1) < notice.version:
                    self._wake(notice.game_id)
            elif notice.event is not None:
                self._in_order(notice.game_id, frame(notice.data, notice.event))

    async def _fetch(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                since = self._published.get(game_id)
                if since is None:
                    return  # nobody watches any more
                for version, data in await run_in_threadpool(self.store.events_since,
                                                              game_id, since):
                    self._published[game_id] = max(version, self._published.get(game_id, 0))
                    self._broadcast(game_id, frame(data, "game", version), version)
                if game_id not in self._again:
                    return
        finally:
            self._fetching.discard(game_id)
            for held in self._held.pop(game_id, []):
                self._broadcast(game_id, held)
