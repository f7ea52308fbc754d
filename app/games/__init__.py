"""What a game is to the server: the service every route calls, and one adapter per game.

Start at GameService. It loads a stored game (checking its kind), lets the game's adapter
(app/games/<kind>.py) apply a change to a copy of the game's JSON data, and stores the result
only if nobody else changed the game meanwhile. Adapters translate between the JSON contract
(../shared/design.md and /docs) and the pure engines in app/engine; they raise app.errors
exceptions, never engine ones. A computer that thinks for seconds (Go) searches in the
server's worker pool (app/pool.py), after the pool has admitted the search.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from fastapi.concurrency import run_in_threadpool

from app.errors import GameNotFound, StaleVersion
from app.pool import Ticket, WorkerPool
from app.store import GameRecord, GameStore

SEARCH_MARGIN = 0.5  # a search may overrun its level's budget by half (at least MIN_MARGIN)
MIN_MARGIN = 3.0  # seconds: pickling, a busy machine, the last playouts


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
    label: str  # what one game is called in a sentence: "Go game", "knight's-tour puzzle"

    def new_game(self, options: Mapping[str, Any],
                 rng: random.Random) -> tuple[dict[str, Any], int]: ...

    def play(self, data: dict[str, Any], move: Any, rng: random.Random) -> int: ...

    def undo(self, data: dict[str, Any]) -> int: ...

    def set_options(self, data: dict[str, Any], options: Mapping[str, Any],
                    rng: random.Random) -> int: ...

    def view(self, data: dict[str, Any]) -> GameView: ...

    def outcome(self, data: dict[str, Any]) -> str | None:
        """'win' | 'draw' | 'loss' for the human once a game against the computer is over;
        None for other games (and for games whose sides or opponent changed mid-game)."""
        ...


@dataclass(frozen=True)
class ComputerJob:
    """A search to run in a worker process: `run(payload)` returns the computer's move, in
    about `seconds`. `run` is a module-level function (pickled by name), `payload` plain
    data."""

    run: Callable[[Any], Any]
    payload: Any
    seconds: float


@runtime_checkable
class SlowComputer(Protocol):
    """An adapter whose computer thinks for seconds (Go): its reply is not applied inside
    play() but searched for in a worker process, then applied. Fast computers (tic-tac-toe)
    reply inside play() and do not implement this."""

    def search_seconds(self, data: dict[str, Any]) -> float | None:
        """How long the computer thinks per move in this game, or None if it has no
        computer opponent (a move there never needs a search)."""
        ...

    def owes_reply(self, data: dict[str, Any]) -> bool:
        """Whether it is the computer's turn to move."""
        ...

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


def search_deadline(seconds: float) -> float:
    """The hard limit for a search whose budget is `seconds`."""
    return seconds + max(MIN_MARGIN, SEARCH_MARGIN * seconds)


class GameService:
    """Create, read and change stored games; the one place that bumps versions."""

    def __init__(self, store: GameStore, adapters: Mapping[str, GameAdapter],
                 rng: random.Random | None = None, pool: WorkerPool | None = None) -> None:
        self.store = store
        self.adapters = adapters
        self._rng = rng
        self.pool = pool or WorkerPool()

    def rng(self) -> random.Random:
        # A seeded generator in tests; fresh entropy for every request in production.
        return self._rng if self._rng is not None else random.Random()

    def adapter(self, kind: str) -> GameAdapter:
        return self.adapters[kind]

    def load(self, game_id: str, kind: str | None = None) -> GameRecord:
        """The stored game `game_id`, or GameNotFound — also when it is of another kind than
        `kind`, so a route for one game can never touch another kind's game."""
        label = self.adapters[kind].label if kind else "game"
        record = self.store.find(game_id)
        if record is None or (kind is not None and record.kind != kind):
            raise GameNotFound(game_id, label)
        return record

    def new_record(self, kind: str, options: Mapping[str, Any],
                   owner: str | None = None) -> GameRecord:
        """A new game, not stored yet (see insert): BadOptions if the options are wrong."""
        adapter = self.adapter(kind)
        data, changes = adapter.new_game(options, self.rng())
        return GameRecord(id=new_game_id(), kind=kind, version=changes, data=data,
                          owner=owner, outcome=adapter.outcome(data))

    def insert(self, record: GameRecord) -> GameRecord:
        self.store.create(record)
        return record

    def create(self, kind: str, options: Mapping[str, Any],
               owner: str | None = None) -> GameRecord:
        return self.insert(self.new_record(kind, options, owner))

    def create_from_data(self, kind: str, data: dict[str, Any],
                         owner: str | None = None) -> GameRecord:
        """Stores a game an adapter built itself (e.g. from an imported SGF record)."""
        record = GameRecord(id=new_game_id(), kind=kind, version=0, data=data, owner=owner,
                            outcome=self.adapter(kind).outcome(data))
        self.store.create(record)
        return record

    def _change(self, record: GameRecord, version: int | None,
                change: Callable[[GameAdapter, dict[str, Any]], int]) -> GameRecord:
        """Applies `change` to a copy of the game and stores it if the game is still at the
        version read; a refusal (ApiError) or a lost race (StaleVersion) changes nothing."""
        if version is not None and version != record.version:
            raise StaleVersion()
        adapter = self.adapter(record.kind)
        data = copy.deepcopy(record.data)  # a refused change must leave nothing half-applied
        changes = change(adapter, data)
        if not changes:
            return record
        # The tally is written once: a result, once recorded, stays recorded.
        changed = dataclasses.replace(record, data=data, version=record.version + changes,
                                      outcome=record.outcome or adapter.outcome(data))
        self.store.update(changed, record.version)
        return changed

    def play(self, record: GameRecord, move: Any, version: int | None = None) -> GameRecord:
        rng = self.rng()
        return self._change(record, version, lambda adapter, data: adapter.play(data, move, rng))

    def undo(self, record: GameRecord, version: int | None = None) -> GameRecord:
        return self._change(record, version, lambda adapter, data: adapter.undo(data))

    def update_options(self, record: GameRecord, options: Mapping[str, Any],
                       version: int | None = None) -> GameRecord:
        rng = self.rng()
        return self._change(
            record, version, lambda adapter, data: adapter.set_options(data, options, rng))

    def owes_reply(self, record: GameRecord) -> bool:
        """Whether a slow computer is to move in this game (it thinks in computer_reply)."""
        adapter = self.adapter(record.kind)
        return isinstance(adapter, SlowComputer) and adapter.owes_reply(record.data)

    def admit_search(self, record: GameRecord) -> Ticket | None:
        """A place in the worker pool for the computer's reply in this game, taken before
        the human's move is applied — or `Busy` at once, changing nothing. None when the
        game has no slow computer to think."""
        adapter = self.adapter(record.kind)
        if not isinstance(adapter, SlowComputer):
            return None
        seconds = adapter.search_seconds(record.data)
        if seconds is None:
            return None
        return self.pool.admit(seconds, "The computer is busy thinking in other games; "
                                        "nothing was played. Try again in a few seconds.")

    async def computer_reply(self, record: GameRecord,
                             ticket: Ticket | None = None) -> GameRecord:
        """If it is a slow computer's turn, lets it think in a worker process and plays its
        move. The human's move was stored before, so a failed search loses nothing; if the
        game changed meanwhile (an undo, another reply), the stale result is dropped.
        Uses `ticket` (from admit_search) or takes its own place in the pool."""
        adapter = self.adapter(record.kind)
        if not isinstance(adapter, SlowComputer):
            if ticket is not None:
                ticket.release()
            return record
        try:
            job = adapter.computer_job(record.id, record.data, self.rng())
            if job is None:
                return record
            ticket = ticket or self.admit_search(record)
            assert ticket is not None
            result = await self.pool.run(ticket, job.run, job.payload,
                                         search_deadline(job.seconds))
        finally:
            if ticket is not None:
                ticket.release()
        slow = adapter  # narrowed to SlowComputer above
        try:
            return await run_in_threadpool(
                self._change, record, record.version,
                lambda _, data: slow.apply_computer(data, result))
        except StaleVersion:
            return await run_in_threadpool(self.load, record.id)

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
