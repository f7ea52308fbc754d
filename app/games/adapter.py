"""What the service needs of one game: the adapter protocols and the shapes they return.

Start at GameAdapter. An adapter (app/games/tictactoe.py, go.py, knights_tour.py) translates
between the JSON contract (docs/architecture.md and /docs) and a pure engine in app/engine;
its methods that change a game's `data` do so in place and raise app.errors exceptions,
never engine ones. Optional protocols add what only some games have: TwoSided (take-backs,
losses outside the rules) and SlowComputer (a computer that thinks in the worker pool).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


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

    @property
    def kind(self) -> str: ...

    @property
    def label(self) -> str:
        """What one game is called in a sentence: "Go game", "knight's-tour puzzle"."""
        ...

    @property
    def sides(self) -> tuple[str, ...]:
        """The game's seats: ("X", "O"), ("black", "white"), ("player",)."""
        ...

    def new_game(self, options: Mapping[str, Any],
                 rng: random.Random) -> tuple[dict[str, Any], int]: ...

    def play(self, data: dict[str, Any], move: Any, rng: random.Random,
             seats: frozenset[str]) -> int:
        """A move by whoever holds `seats` (the adapter checks it is theirs to make)."""
        ...

    def undo(self, data: dict[str, Any]) -> int:
        """Takes back at once (one screen, or against the computer)."""
        ...

    def set_options(self, data: dict[str, Any], options: Mapping[str, Any],
                    rng: random.Random) -> int: ...

    def view(self, data: dict[str, Any]) -> GameView: ...

    def outcome(self, data: dict[str, Any], view: GameView) -> str | None:
        """'win' | 'draw' | 'loss' for the human once a game against the computer is over;
        None for other games (and for games whose sides or opponent changed mid-game).
        `view` is view(data), which the service has at hand: a Go game is replayed for it."""
        ...


@runtime_checkable
class TwoSided(Protocol):
    """A game between two sides (tic-tac-toe, Go): take-backs between friends, and losses
    outside the rules (resignation out of turn, the clock)."""

    def last_move_of(self, data: dict[str, Any], seat: str) -> int | None: ...

    def take_back(self, data: dict[str, Any], seat: str) -> int: ...

    def lose(self, data: dict[str, Any], seat: str, reason: str) -> int: ...


@dataclass(frozen=True)
class ComputerJob:
    """A search to run in a worker process: `run(payload)` returns the computer's move, in
    about `seconds`. `run` is a module-level function (pickled by name), `payload` plain
    data."""

    run: Callable[[Any], Any]
    payload: Any
    seconds: float
    seat: str  # the colour the computer plays


@runtime_checkable
class SlowComputer(Protocol):
    """An adapter whose computer thinks for seconds (Go): its reply is not applied inside
    play() but searched for in a worker process, then applied. Fast computers (tic-tac-toe)
    reply inside play() and do not implement this."""

    def search_seconds(self, data: dict[str, Any]) -> float | None:
        """How long the computer thinks per move in this game, or None if it has no
        computer opponent (a move there never needs a search)."""
        ...

    def owes_reply(self, data: dict[str, Any], view: GameView) -> bool:
        """Whether it is the computer's turn to move (`view`: view(data), as for outcome)."""
        ...

    def may_hand_over(self, move: Any) -> bool:
        """Whether a person's `move` can give the computer its turn (a resignation cannot:
        it needs no place in the worker pool)."""
        ...

    def computer_job(self, game_id: str, data: dict[str, Any],
                     rng: random.Random) -> ComputerJob | None:
        """The job to run; the service asks for it only when owes_reply says it is the
        computer's turn. None if it has no computer opponent."""
        ...

    def apply_computer(self, data: dict[str, Any], result: Any) -> int:
        """Plays a worker's result on the game; returns the changes applied."""
        ...
