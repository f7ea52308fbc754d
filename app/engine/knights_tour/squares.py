"""Squares of an n x n board: indices, names like "c2", and the knight's moves between them.

Start with `neighbours`, the table every other module walks. A square is an index
`row * n + col` where row 0 is rank 1 (the bottom, White's side) and col 0 is file "a". Its name
is the file letter followed by the rank number ("c2" is row 1, col 2); names exist only for
n <= `MAX_NAMED_SIZE`, since the files run out at "z".

`KNIGHT_STEPS` lists the eight knight's moves clockwise from "one o'clock" (two ranks up, one
file right) as seen from rank 1. That order is the engine's deterministic tie-break: whenever
two moves are equally good, the one that comes first clockwise wins.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import quoted
from .errors import InvalidSize, InvalidSquare, OffBoard, TooLarge

MAX_NAMED_SIZE = 26  # one letter per file: "a" to "z"
# Neighbour tables kept: every puzzle size and block shape, in each of the eight tie-break
# orders, fits; boards over CACHED_TABLE_SQUARES (megabytes of tuples) are never kept.
NEIGHBOUR_TABLES = 1024
CACHED_TABLE_SQUARES = 32 * 32

# (rank change, file change), clockwise from one o'clock as seen from rank 1.
KNIGHT_STEPS: tuple[tuple[int, int], ...] = (
    (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1),
)

Square = int | str  # an index, or a name such as "c2"

_NAME = re.compile(r"^([a-z])([1-9][0-9]?)$")


def check_size(n: object, limit: int) -> int:
    """`n` as a board size in 1..limit, or the error that says why it is not one."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise InvalidSize(f"A board size must be a whole number, not {quoted(n)}.")
    if n < 1:
        raise InvalidSize(f"A board needs at least one square on a side, not {n}.")
    if n > limit:
        raise TooLarge(f"Boards go up to {limit}x{limit}; {n}x{n} is too large.")
    return n


def square_name(n: int, index: int) -> str:
    """The name of square `index` on an n x n board, e.g. 10 on 8x8 is "c2"."""
    if n > MAX_NAMED_SIZE:
        raise TooLarge(f"Squares have names only on boards up to {MAX_NAMED_SIZE} files wide.")
    row, col = divmod(index, n)
    return f"{chr(ord('a') + col)}{row + 1}"


def describe(n: int, index: int) -> str:
    """A square in words: its name where it has one, else its row and column from 1."""
    if n <= MAX_NAMED_SIZE:
        return square_name(n, index)
    row, col = divmod(index, n)
    return f"(rank {row + 1}, file {col + 1})"


def parse_square(n: int, square: object) -> int:
    """The index of `square` (a name like "c2", an index, or a (row, col) pair) on n x n."""
    if isinstance(square, str):
        match = _NAME.match(square.strip().lower())
        if match is None:
            raise InvalidSquare(
                f"{quoted(square)} is not a square: write a file letter and a rank number, "
                "like \"c2\"."
            )
        col = ord(match.group(1)) - ord("a")
        row = int(match.group(2)) - 1
        if col >= n or not 0 <= row < n:
            raise OffBoard(f"{quoted(square)} is not on the {n}x{n} board.")
        return row * n + col
    if isinstance(square, tuple) and len(square) == 2:
        row, col = square
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
            raise InvalidSquare(f"{quoted(square)} is not a (row, column) pair of whole numbers.")
        if not (0 <= row < n and 0 <= col < n):
            raise OffBoard(f"Row {row}, column {col} is not on the {n}x{n} board.")
        return int(row * n + col)
    if isinstance(square, int) and not isinstance(square, bool):
        if not 0 <= square < n * n:
            raise OffBoard(f"Square {square} is not on the {n}x{n} board (0 to {n * n - 1}).")
        return square
    raise InvalidSquare(f"{quoted(square)} is not a square.")


def is_knight_move(n: int, a: int, b: int) -> bool:
    """Whether squares a and b of an n x n board are a knight's move apart."""
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return abs((ra - rb) * (ca - cb)) == 2


def colour(n: int, index: int) -> int:
    """0 for the corners' colour, 1 for the other: a knight's move always changes it."""
    row, col = divmod(index, n)
    return (row + col) & 1


def neighbours(n: int, m: int | None = None, first: int = 0) -> tuple[tuple[int, ...], ...]:
    """For each square of an n-row, m-column board (m defaults to n), the squares a knight's
    move away, clockwise from `KNIGHT_STEPS[first]` (one o'clock by default). Indices are
    row * m + col. Tables of small boards are kept; big ones are built afresh each time."""
    width = n if m is None else m
    if n * width <= CACHED_TABLE_SQUARES:
        return _cached_neighbours(n, width, first)
    return _neighbours(n, width, first)


@lru_cache(maxsize=NEIGHBOUR_TABLES)
def _cached_neighbours(n: int, width: int, first: int) -> tuple[tuple[int, ...], ...]:
    return _neighbours(n, width, first)


def _neighbours(n: int, width: int, first: int) -> tuple[tuple[int, ...], ...]:
    steps = KNIGHT_STEPS[first:] + KNIGHT_STEPS[:first]
    table: list[tuple[int, ...]] = []
    for row in range(n):
        for col in range(width):
            table.append(tuple(
                (row + dr) * width + col + dc
                for dr, dc in steps
                if 0 <= row + dr < n and 0 <= col + dc < width
            ))
    return tuple(table)
