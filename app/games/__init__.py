"""What a game is to the server: the service every route calls, and one adapter per game.

Start at GameService. It loads a stored game, lets the game's adapter (app/games/<kind>.py)
apply a change to the game's JSON data, and stores the result only if nobody else changed
the game meanwhile. Adapters translate between the JSON contract (docs in ../shared/design.md
and /docs) and the pure engines in app/engine; they raise app.errors exceptions, never
engine ones.
"""

from __future__ import annotations

import copy
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from fastapi.concurrency import run_in_threadpool

from app.errors import ApiError, StaleVersion
from app.games.thinking import ThinkingPool
from app.store import GameRecord, GameStore


@dataclass(frozen=True)
class GameView:
    """The game-specific parts of the public Game JSON."""

    status: str  # "playing" | "scoring" | "over"
    to_move: str | None
    result: dict[str, Any] | None
    options: dict[str, Any]
    state: dict[str, Any]


class GameAdapter(Protocol):
    """One game's rules as the server needs them. Methods that change `data` do so in place
    and return how many changes they applied (each adds one to the game's version)."""

    kind: str

    def new_game(self, options: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int]:
        ...

    def play(self, data: dict[str, Any], move: Any, rng: random.Random) -> int:
        ...

    def undo(self, data: dict[str, Any]) -> int:
        ...

    def set_options(self, data: dict[str, Any], options: dict[str, Any], rng: random.Random) -> int:
        ...

    def view(self, data: dict[str, Any]) -> GameView:
        ...

    def outcome(self, data: dict[str, Any]) -> str | None:
        """'win' | 'draw' | 'loss' for the human once a game against the computer is over."""
        ...


@dataclass(frozen=True)
class ComputerJob:
    """A search to run in a worker process: `run(payload)` returns the computer's move.
    `run` is a module-level function (pickled by name) and `payload` plain data."""

    run: Callable[[Any], Any]
    payload: Any


@runtime_checkable
class SlowComputer(Protocol):
    """An adapter whose computer thinks for seconds (Go): its reply is not applied inside
    play() but searched for in a worker process, then applied. Fast computers (tic-tac-toe)
    reply inside play() and do not implement this."""

    def computer_job(self, game_id: str, data: dict[str, Any],
                     rng: random.Random) -> ComputerJob | None:
        """The job to run when it is the computer's turn, else None."""
        ...

    def apply_computer(self, data: dict[str, Any], result: Any) -> int:
        """Plays a worker's result on the game; returns the changes applied."""
        ...


def new_game_id() -> str:
    """A short, unguessable, URL-safe id (so a shared link reveals no other game)."""
    return secrets.token_urlsafe(9)


class GameService:
    """Create, read and change stored games; the one place that bumps versions."""

    def __init__(self, store: GameStore, adapters: dict[str, GameAdapter],
                 rng: random.Random | None = None, pool: ThinkingPool | None = None) -> None:
        self.store = store
        self.adapters = adapters
        self._rng = rng
        self.pool = pool or ThinkingPool()

    def rng(self) -> random.Random:
        # A seeded generator in tests; fresh entropy for every request in production.
        return self._rng if self._rng is not None else random.Random()

    def adapter(self, kind: str) -> GameAdapter:
        try:
            return self.adapters[kind]
        except KeyError:
            names = ", ".join(sorted(self.adapters))
            raise ApiError(f"There is no game called {kind!r}; choose one of: {names}.",
                           code="unknown_game", status=422) from None

    def create(self, kind: str, options: dict[str, Any], owner: str | None = None) -> GameRecord:
        adapter = self.adapter(kind)
        data, changes = adapter.new_game(options, self.rng())
        record = GameRecord(id=new_game_id(), kind=kind, version=changes, data=data,
                            owner=owner, outcome=adapter.outcome(data))
        self.store.create(record)
        return record

    def create_from_data(self, kind: str, data: dict[str, Any],
                         owner: str | None = None) -> GameRecord:
        """Stores a game an adapter built itself (e.g. from an imported SGF record)."""
        adapter = self.adapter(kind)
        record = GameRecord(id=new_game_id(), kind=kind, version=0, data=data, owner=owner,
                            outcome=adapter.outcome(data))
        self.store.create(record)
        return record

    def get(self, game_id: str) -> GameRecord:
        return self.store.get(game_id)

    def _change(self, game_id: str, version: int | None, change: Any) -> GameRecord:
        record = self.store.get(game_id)
        if version is not None and version != record.version:
            raise StaleVersion(game_id)
        adapter = self.adapter(record.kind)
        read_version = record.version
        data = copy.deepcopy(record.data)  # a refused change must leave nothing half-applied
        changes = change(adapter, data)
        record.data = data
        record.version = read_version + changes
        record.outcome = adapter.outcome(data)
        if changes:
            self.store.update(record, read_version)
        return record

    def play(self, game_id: str, move: Any, version: int | None = None) -> GameRecord:
        rng = self.rng()
        return self._change(game_id, version, lambda adapter, data: adapter.play(data, move, rng))

    def undo(self, game_id: str, version: int | None = None) -> GameRecord:
        return self._change(game_id, version, lambda adapter, data: adapter.undo(data))

    def update_options(self, game_id: str, options: dict[str, Any],
                       version: int | None = None) -> GameRecord:
        rng = self.rng()
        return self._change(
            game_id, version, lambda adapter, data: adapter.set_options(data, options, rng)
        )

    async def computer_reply(self, record: GameRecord) -> GameRecord:
        """If it is a slow computer's turn, lets it think in a worker process and plays its
        move. The human's move was stored before, so a crash while thinking loses nothing;
        if the game changed meanwhile (an undo, another reply), the stale result is dropped."""
        adapter = self.adapter(record.kind)
        if not isinstance(adapter, SlowComputer):
            return record
        job = adapter.computer_job(record.id, record.data, self.rng())
        if job is None:
            return record
        result = await self.pool.run(job.run, job.payload)
        try:
            return await run_in_threadpool(
                self._change, record.id, record.version,
                lambda adapter, data: adapter.apply_computer(data, result))
        except StaleVersion:
            return await run_in_threadpool(self.get, record.id)

    def view(self, record: GameRecord) -> GameView:
        return self.adapter(record.kind).view(record.data)

    def to_json(self, record: GameRecord) -> dict[str, Any]:
        view = self.view(record)
        return {
            "id": record.id,
            "game": record.kind,
            "version": record.version,
            "status": view.status,
            "to_move": view.to_move,
            "result": view.result,
            "options": view.options,
            "state": view.state,
        }
