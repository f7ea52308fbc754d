"""A game of Go: turns, passes, resignation, positional superko, undo, and the scoring phase.

Start with `Game.play`. A `Game` owns a `Board` and the history a board cannot know: whose turn
it is, every earlier position's hash (positional superko: no move may recreate any earlier
whole-board position), the captures, the consecutive passes and the dead-stone marks.

Life cycle (`status`): "playing" -> two passes in a row -> "scoring" (the engine proposes dead
stones; `toggle_dead` corrects them; `accept_score` ends the game) -> "over". Resigning ends the
game at once. `undo` takes back the last move whatever the status - a stone, a pass or the
resignation - by replaying the rest from the start (a few milliseconds even for 300 moves), so
captures, ko and passes come back exactly. `to_dict`/`from_dict` store a game as JSON: the
set-up, the moves and the dead marks; everything else is replayed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from ..errors import quoted
from .board import BLACK, COLOR_NAMES, COLOR_VALUES, EMPTY, NO_POINT, WHITE, Board, Color
from .coords import PASS, RESIGN, check_size, geometry, parse_move, parse_vertex, vertex
from .errors import (
    GameOver,
    GoError,
    InvalidHandicap,
    InvalidKomi,
    InvalidState,
    NoStone,
    NothingToUndo,
    NotScoring,
    NotYourTurn,
)
from .handicap import default_komi, handicap_points
from .scoring import Score, area_score, propose_dead, territory_owners, toggle_group

Status = Literal["playing", "scoring", "over"]

MAX_KOMI = 1000  # far beyond any real komi; stops absurd numbers reaching the score display
STATE_VERSION = 1  # bump when the shape of `to_dict` changes ("ended" is optional: still 1)
ENDINGS = {"resign": "R", "time": "T"}  # how a game ends outside play, as SGF's RE writes it


@dataclass(frozen=True, slots=True)
class Setup:
    """Stones on the board before the first move (an SGF's AB/AW) and the first player."""

    black: tuple[str, ...] = ()
    white: tuple[str, ...] = ()
    to_move: Color = "black"


@dataclass(frozen=True, slots=True)
class AtariGroup:
    """A chain with a single liberty: its colour, its stones and that liberty (vertices)."""

    color: Color
    stones: tuple[str, ...]
    liberty: str


def check_komi(komi: object) -> float:
    """`komi` as a float if it is a finite multiple of 0.5 within +-`MAX_KOMI`."""
    if isinstance(komi, bool) or not isinstance(komi, int | float):
        raise InvalidKomi(f"invalid komi: {quoted(komi)} is not a number.")
    value = float(komi)
    if not math.isfinite(value) or abs(value) > MAX_KOMI or value * 2 != int(value * 2):
        raise InvalidKomi(
            f"invalid komi: {quoted(komi)}; komi is a whole or half number such as 7.5, 6 or 0.5."
        )
    return value


class Game:
    """One game of Go between black and white; see the module docstring for the life cycle."""

    def __init__(
        self,
        size: int = 9,
        komi: float | None = None,
        handicap: int = 0,
        *,
        setup: Setup | None = None,
    ) -> None:
        """A new game. `komi` defaults to 7.5, or 0.5 with a handicap; `handicap` stones go
        on GTP's fixed points and white then moves first. `setup` places arbitrary stones
        instead (e.g. from an SGF) and says who moves first; it excludes a handicap."""
        self.size = check_size(size)
        points = handicap_points(size, handicap)
        if points and setup is not None and (setup.black or setup.white):
            raise InvalidHandicap(
                "invalid handicap: give either a handicap or set-up stones, not both."
            )
        self.handicap = handicap
        self.komi = default_komi(handicap) if komi is None else check_komi(komi)
        self.setup = setup
        shape = geometry(size)
        if setup is not None:
            black = [parse_vertex(v, size) for v in setup.black]
            white = [parse_vertex(v, size) for v in setup.white]
            first = COLOR_VALUES.get(setup.to_move) if isinstance(setup.to_move, str) else None
            if first is None:
                raise InvalidState(
                    f"invalid state: set-up to_move must be \"black\" or \"white\", not "
                    f"{setup.to_move!r}."
                )
            self._first = first
        else:
            black, white = points, []
            self._first = WHITE if points else BLACK
        self._start = Board.from_stones(size, black, white)
        self._names = shape.names
        self._index = shape.index
        self._reset()

    def _reset(self) -> None:
        self._board = self._start.copy()
        self._positions: set[int] = {self._board.hash}
        self._moves: list[int] = []
        self._to_move = self._first
        self._captures = {BLACK: 0, WHITE: 0}
        self._passes = 0
        self._resigned = EMPTY  # the colour that resigned, if any
        self._ended: tuple[int, str] | None = None  # (loser, "resign" | "time"): see end()
        self._dead: set[int] = set()
        self._accepted = False

    # -- state ---------------------------------------------------------------------------------

    @property
    def status(self) -> Status:
        if self._resigned or self._accepted or self._ended:
            return "over"
        if self._passes >= 2:
            return "scoring"
        return "playing"

    @property
    def to_move(self) -> Color | None:
        """The colour to move while playing; None in scoring and once the game is over."""
        return COLOR_NAMES[self._to_move] if self.status == "playing" else None

    @property
    def result(self) -> dict[str, str | None] | None:
        """None until the game is over; then {"winner": "black"|"white"|None, "text": ...}
        with text in SGF style: "B+R" / "W+R" for a resignation, "B+3.5", "0" for a draw."""
        if self._ended:
            loser, reason = self._ended
            winner = 3 - loser
            return {"winner": COLOR_NAMES[winner],
                    "text": f"{'B' if winner == BLACK else 'W'}+{ENDINGS[reason]}"}
        if self._resigned:
            winner = 3 - self._resigned
            return {"winner": COLOR_NAMES[winner], "text": f"{'B' if winner == BLACK else 'W'}+R"}
        if self._accepted:
            score = self.score()
            return {"winner": score.winner, "text": score.text}
        return None

    @property
    def captures(self) -> dict[str, int]:
        """Stones captured BY each colour."""
        return {"black": self._captures[BLACK], "white": self._captures[WHITE]}

    @property
    def ko(self) -> str | None:
        """The point the simple ko forbids to the player to move now, or None."""
        board = self._board
        if self.status != "playing" or board.ko_point == NO_POINT:
            return None
        return self._names[board.ko_point] if board.ko_color == self._to_move else None

    @property
    def moves(self) -> list[str]:
        """Every move so far as vertices, with "pass" and "resign"."""
        return [vertex(m, self.size) for m in self._moves]

    @property
    def last_move(self) -> str | None:
        return vertex(self._moves[-1], self.size) if self._moves else None

    @property
    def move_number(self) -> int:
        return len(self._moves)

    @property
    def first_to_move(self) -> Color:
        return COLOR_NAMES[self._first]

    @property
    def board(self) -> Board:
        """A copy of the current position (for analysis and computer players)."""
        return self._board.copy()

    def board_rows(self) -> list[str]:
        """Rows from the top: '.' empty, 'X' black, 'O' white."""
        return self._board.rows()

    @property
    def atari(self) -> list[AtariGroup]:
        """The chains with exactly one liberty in the current position, both colours."""
        names = self._names
        return [
            AtariGroup(
                color=COLOR_NAMES[chain.color],
                stones=tuple(names[s] for s in sorted(chain.stones)),
                liberty=names[next(iter(chain.liberties))],
            )
            for chain in self._board.atari_chains()
        ]

    # -- moves ---------------------------------------------------------------------------------

    def play(self, move: str, color: Color | None = None) -> list[str]:
        """Play `move` ("D4", "pass" or "resign") for the side to move and return the vertices
        it captured. With `color`, refuse the move (`NotYourTurn`) unless that side is to move.

        Refusals raise a `GoError` subclass and change nothing: `GameOver`, `NotYourTurn`,
        `MalformedMove`, `OffBoard`, `Occupied`, `Suicide`, `Ko`.
        """
        self._check_playing()
        if color is not None and COLOR_VALUES.get(color) != self._to_move:
            raise NotYourTurn(
                f"not your turn: it is {COLOR_NAMES[self._to_move]}'s move, not {quoted(color)}'s."
            )
        point = self._index.get(move) if isinstance(move, str) else None
        if point is None:
            point = parse_move(move, self.size)
        captured = self._apply(point)
        if self.status == "scoring":
            self._dead = set(propose_dead(self._board))
        return [self._names[p] for p in captured]

    def _check_playing(self) -> None:
        status = self.status
        if status == "over":
            result = self.result
            text = result["text"] if result else ""
            raise GameOver(
                f"game over: this game has ended ({text}); undo the last move to go back, or "
                "start a new game."
            )
        if status == "scoring":
            raise GameOver(
                "game over: play stopped after two passes; mark the dead stones and accept the "
                "score, or undo the last pass to play on."
            )

    def _apply(self, point: int) -> list[int]:
        """Apply a parsed move for the side to move (raising, unchanged, if it is illegal)."""
        color = self._to_move
        captured: list[int] = []
        if point == RESIGN:
            self._resigned = color
        elif point == PASS:
            self._board.pass_turn()
            self._passes += 1
        else:
            captured = self._board.play(point, color, self._positions)
            self._positions.add(self._board.hash)
            self._captures[color] += len(captured)
            self._passes = 0
        self._moves.append(point)
        self._to_move = 3 - color
        return captured

    def is_legal(self, move: str) -> bool:
        """Whether `play(move)` would succeed now."""
        try:
            point = parse_move(move, self.size)
            self._check_playing()
        except GoError:
            return False
        if point in (PASS, RESIGN):
            return True
        return point in self._legal_points()

    def legal_moves(self) -> list[str]:
        """Every point the side to move may play now (positional superko included), in board
        order from the top-left; passing and resigning are always allowed while playing."""
        if self.status != "playing":
            return []
        return [self._names[p] for p in sorted(self._legal_points())]

    def _legal_points(self) -> set[int]:
        board, color = self._board, self._to_move
        seen = self._positions
        return {p for p in board.legal_moves(color) if board.hash_after(p, color) not in seen}

    def end(self, loser: str, reason: str) -> None:
        """`loser` ("black" | "white") loses now, while playing or scoring, by `reason`:
        "resign" (in or out of turn: no move is recorded) or "time" (the clock ran out).
        The result reads "W+R" / "B+T" as SGF writes them."""
        color = COLOR_VALUES.get(loser)
        if color is None or reason not in ENDINGS:
            raise InvalidState(f"invalid state: {quoted(loser)} cannot lose by "
                               f"{quoted(reason)}.")
        if self.status == "over":
            self._check_playing()  # raises GameOver, naming the result
        self._ended = (color, reason)

    def undo(self) -> None:
        """Take back the last move (stone, pass or resignation) — or an ending by end() —
        whatever the status."""
        if self._ended:
            self._ended = None
            return
        if not self._moves:
            raise NothingToUndo("nothing to undo: no move has been played yet.")
        self._replay(self._moves[:-1])
        if self.status == "scoring":
            self._dead = set(propose_dead(self._board))

    def _replay(self, moves: Iterable[int]) -> None:
        self._reset()
        for point in moves:
            self._apply(point)

    # -- scoring -------------------------------------------------------------------------------

    @property
    def dead_stones(self) -> frozenset[str]:
        """The stones marked dead (in scoring, and kept once the score is accepted)."""
        return frozenset(self._names[p] for p in self._dead)

    def _check_scoring(self) -> None:
        if self.status != "scoring":
            raise NotScoring(
                "not scoring: dead stones are marked only after both players pass in a row."
            )

    def toggle_dead(self, point_name: str) -> frozenset[str]:
        """Mark the group at `point_name` dead if it is alive, alive if it is dead; return the
        vertices that changed.

        The group is the chain at the vertex and the same-colour stones that die with it inside
        the other colour's area, even when they are not solidly connected - never a living
        group beyond the dame (see `scoring.toggle_group`). Clicking a stone of the group again
        undoes the click. A group with two eyes cannot be marked dead (`AliveGroup`).
        """
        self._check_scoring()
        point = parse_vertex(point_name, self.size)
        if self._board.colors[point] == EMPTY:
            raise NoStone(
                f"no stone: {self._names[point]} is empty; click a stone to mark it dead or "
                "alive."
            )
        changed = toggle_group(self._board, self._dead, point)
        self._dead ^= changed
        return frozenset(self._names[p] for p in changed)

    def accept_score(self) -> dict[str, str | None]:
        """Accept the dead stones as marked: the game is over; return `result`."""
        self._check_scoring()
        self._accepted = True
        result = self.result
        assert result is not None
        return result

    def score(self) -> Score:
        """The area count with the current dead marks (in scoring, or after the score was
        accepted): stones, territory and area per colour, dame, komi, margin, SGF text."""
        if self._passes < 2:
            raise NotScoring(
                "not scoring: the score is counted only after both players pass in a row."
            )
        return area_score(self._board, self._dead, self.komi)

    @property
    def territory(self) -> dict[str, list[str]] | None:
        """Once play has stopped by two passes: which empty or dead points count for "black",
        for "white", and for nobody ("neutral": dame and shared liberties of a seki)."""
        if self._passes < 2:
            return None
        owners = territory_owners(self._board, self._dead)
        split: dict[str, list[str]] = {"black": [], "white": [], "neutral": []}
        colors, names = self._board.colors, self._names
        for point, owner in enumerate(owners):
            if owner != EMPTY:
                split[COLOR_NAMES[owner]].append(names[point])
            elif colors[point] == EMPTY or point in self._dead:
                split["neutral"].append(names[point])
        return split

    # -- storage -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready record from which `from_dict` rebuilds this exact game."""
        data: dict[str, object] = {
            "version": STATE_VERSION,
            "size": self.size,
            "komi": self.komi,
            "handicap": self.handicap,
            "setup": None,
            "moves": self.moves,
        }
        if self.setup is not None:
            data["setup"] = {
                "black": list(self.setup.black),
                "white": list(self.setup.white),
                "to_move": self.setup.to_move,
            }
        if self._passes >= 2:
            data["dead"] = sorted(self.dead_stones, key=self._index.__getitem__)
            data["accepted"] = self._accepted
        if self._ended:
            data["ended"] = [COLOR_NAMES[self._ended[0]], self._ended[1]]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Game:
        """Rebuild a game stored by `to_dict` (raises `InvalidState` if it does not replay)."""
        if not isinstance(data, Mapping):
            raise InvalidState("invalid state: a stored Go game is a JSON object.")
        try:
            setup_data = data.get("setup")
            setup = None
            if setup_data is not None:
                if not isinstance(setup_data, Mapping):
                    raise InvalidState("invalid state: \"setup\" must be an object or null.")
                setup = Setup(
                    black=tuple(_str_list(setup_data.get("black", []), "setup.black")),
                    white=tuple(_str_list(setup_data.get("white", []), "setup.white")),
                    to_move=setup_data.get("to_move", "black"),
                )
            komi = data.get("komi")
            game = cls(
                size=data.get("size", 9),  # type: ignore[arg-type]
                komi=None if komi is None else check_komi(komi),
                handicap=data.get("handicap", 0),  # type: ignore[arg-type]
                setup=setup,
            )
            moves = _str_list(data.get("moves", []), "moves")
            game._replay_names(moves)
            if game._passes >= 2:
                dead = data.get("dead")
                if dead is None:
                    game._dead = set(propose_dead(game._board))
                else:
                    game._dead = game._stones_at(_str_list(dead, "dead"))
                game._accepted = data.get("accepted") is True
            ended = data.get("ended")
            if ended is not None:
                if not (isinstance(ended, list) and len(ended) == 2):
                    raise InvalidState("invalid state: \"ended\" is [loser, reason].")
                game.end(str(ended[0]), str(ended[1]))
        except InvalidState:
            raise
        except GoError as error:
            raise InvalidState(f"invalid state: {error.message}") from error
        return game

    @classmethod
    def from_moves(
        cls,
        moves: Iterable[str],
        size: int = 9,
        komi: float | None = None,
        handicap: int = 0,
        *,
        setup: Setup | None = None,
    ) -> Game:
        """A game replayed from its moves; ends in "scoring" (with the engine's proposal) if
        the moves end with two passes. Raises the first illegal move's `GoError`."""
        game = cls(size, komi, handicap, setup=setup)
        game._replay_names(list(moves))
        if game.status == "scoring":
            game._dead = set(propose_dead(game._board))
        return game

    def _replay_names(self, moves: list[str]) -> None:
        index, size = self._index, self.size
        for number, move in enumerate(moves, start=1):
            try:
                self._check_playing()
                point = index.get(move)
                if point is None:
                    point = parse_move(move, size)
                self._apply(point)
            except GoError as error:
                raise type(error)(f"move {number} ({quoted(move)}): {error.message}") from error

    def _stones_at(self, vertices: list[str]) -> set[int]:
        points = set()
        for name in vertices:
            point = parse_vertex(name, self.size)
            if self._board.colors[point] == EMPTY:
                raise InvalidState(f"invalid state: dead stone {name} is on an empty point.")
            points.add(point)
        return points

    def __repr__(self) -> str:
        return (
            f"Game(size={self.size}, komi={self.komi}, handicap={self.handicap}, "
            f"moves={len(self._moves)}, status={self.status!r})"
        )


def _str_list(value: object, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidState(f"invalid state: \"{field}\" must be a list of strings.")
    return list(value)
