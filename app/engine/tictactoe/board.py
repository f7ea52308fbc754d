"""The tic-tac-toe board: an immutable value object over two 9-bit masks.

Start with `Board`. Cells are numbered 0-8 row-major from the top-left:

    0 1 2
    3 4 5
    6 7 8

A board holds one mask per side (`x`, `o`); bit i is set when cell i holds that side's mark.
X always moves first, so whose turn it is follows from the counts. The module-level constants
(`LINES`, `LINE_MASKS`, `HAS_LINE`, ...) are the geometry the searches and the rules player share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import quoted
from .errors import CellOccupied, CellOutOfRange, GameOver, InvalidBoard

Mark = Literal["X", "O"]

CELL_COUNT = 9
FULL_MASK = (1 << CELL_COUNT) - 1
CENTER = 4
CORNERS: tuple[int, ...] = (0, 2, 6, 8)
EDGES: tuple[int, ...] = (1, 3, 5, 7)
OPPOSITE_CORNER: dict[int, int] = {0: 8, 2: 6, 6: 2, 8: 0}

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)
LINE_MASKS: tuple[int, ...] = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in LINES)

# HAS_LINE[mask] tells whether a side holding `mask` has three in a row: computed once here so
# the searches answer "did that move win?" with one index instead of eight tests.
HAS_LINE: tuple[bool, ...] = tuple(
    any(mask & line == line for line in LINE_MASKS) for mask in range(FULL_MASK + 1)
)


def _problem(x: int, o: int) -> str | None:
    """The sentence that says why masks `x`/`o` are not a position of a real game, or None."""
    for mask in (x, o):
        if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= FULL_MASK:
            return "A board's masks must be whole numbers from 0 to 511 (one bit per cell)."
    if x & o:
        both = ", ".join(str(c) for c in range(CELL_COUNT) if (x & o) >> c & 1)
        return f"Cells {both} hold both X and O."
    xs, os = x.bit_count(), o.bit_count()
    if xs not in (os, os + 1):
        return (
            f"X has {xs} marks and O has {os}; X moves first, so X must have as many marks "
            "as O or exactly one more."
        )
    x_line, o_line = HAS_LINE[x], HAS_LINE[o]
    if x_line and o_line:
        return "Both X and O have three in a row, but a game stops at its first line."
    if x_line and xs == os:
        return "X has three in a row, but O moved after it; a game stops at its first line."
    if o_line and xs == os + 1:
        return "O has three in a row, but X moved after it; a game stops at its first line."
    return None


@dataclass(frozen=True, slots=True)
class Board:
    """A position of a real game: immutable, hashable, compared by value.

    Build one with `Board.empty()`, `Board.from_string(...)` or `board.play(cell)`; the
    constructor takes the two masks and refuses any pair that no game could produce.
    """

    x: int = 0
    o: int = 0

    def __post_init__(self) -> None:
        problem = _problem(self.x, self.o)
        if problem is not None:
            raise InvalidBoard(problem)

    # -- construction and notation -------------------------------------------------------------

    @classmethod
    def empty(cls) -> Board:
        """The board before the first move."""
        return cls(0, 0)

    @classmethod
    def from_string(cls, text: str) -> Board:
        """Parse 9 characters row-major from the top-left: 'X', 'O', or '.' for empty."""
        if not isinstance(text, str):
            raise InvalidBoard(
                f"A board is a string of 9 characters, not {type(text).__name__}."
            )
        if len(text) != CELL_COUNT:
            raise InvalidBoard(
                f"A board has 9 cells, one character each; got {len(text)} characters."
            )
        x = o = 0
        for cell, char in enumerate(text):
            if char == "X":
                x |= 1 << cell
            elif char == "O":
                o |= 1 << cell
            elif char != ".":
                raise InvalidBoard(
                    f"Cell {cell} holds {quoted(char)}; each cell must be 'X', 'O' or '.' (empty)."
                )
        return cls(x, o)

    def to_string(self) -> str:
        """The 9-character notation `from_string` reads."""
        return "".join(
            "X" if self.x >> cell & 1 else "O" if self.o >> cell & 1 else "."
            for cell in range(CELL_COUNT)
        )

    def __repr__(self) -> str:
        return f"Board({self.to_string()!r})"

    # -- state ---------------------------------------------------------------------------------

    @property
    def move_count(self) -> int:
        """How many marks are on the board."""
        return (self.x | self.o).bit_count()

    @property
    def to_move(self) -> Mark:
        """The side whose turn it is (still defined once the game is over)."""
        return "X" if self.x.bit_count() == self.o.bit_count() else "O"

    def sides(self) -> tuple[int, int]:
        """(mask of the side to move, mask of the other side): the searches' point of view."""
        return (self.x, self.o) if self.to_move == "X" else (self.o, self.x)

    def empty_cells(self) -> list[int]:
        """The free cells, in increasing order."""
        taken = self.x | self.o
        return [cell for cell in range(CELL_COUNT) if not taken >> cell & 1]

    @property
    def winner(self) -> Mark | None:
        """The side with three in a row, if any."""
        if HAS_LINE[self.x]:
            return "X"
        if HAS_LINE[self.o]:
            return "O"
        return None

    @property
    def winning_line(self) -> tuple[int, int, int] | None:
        """The winner's line; if the last move made two lines at once, the first in `LINES`."""
        mask = self.x if HAS_LINE[self.x] else self.o if HAS_LINE[self.o] else 0
        for line, line_mask in zip(LINES, LINE_MASKS, strict=True):
            if mask and mask & line_mask == line_mask:
                return line
        return None

    @property
    def is_full(self) -> bool:
        return (self.x | self.o) == FULL_MASK

    @property
    def is_over(self) -> bool:
        """True once a side has three in a row or no cell is left."""
        return self.is_full or HAS_LINE[self.x] or HAS_LINE[self.o]

    # -- moves ---------------------------------------------------------------------------------

    def play(self, cell: int) -> Board:
        """The board after the side to move marks `cell`.

        Checks, in this order: the cell is an int 0-8 (bools are refused too), the game is not
        over, the cell is free.
        """
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < CELL_COUNT:
            raise CellOutOfRange(
                f"Cell {quoted(cell)} is off the board; cells are numbered 0 to 8."
            )
        if self.is_over:
            raise GameOver(self.over_message())
        bit = 1 << cell
        if (self.x | self.o) & bit:
            raise CellOccupied(f"Cell {cell} is already taken.")
        if self.to_move == "X":
            return Board(self.x | bit, self.o)
        return Board(self.x, self.o | bit)

    def over_message(self) -> str:
        """A sentence saying how the game ended (for `GameOver` errors)."""
        winner = self.winner
        if winner is not None:
            return f"The game is over: {winner} has won."
        return "The game is over: it ended in a draw."
