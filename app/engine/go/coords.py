"""Vertices and board geometry: the names players use ("D4") and the numbers the engine uses.

Start with `geometry(size)`. Inside the engine a point is an int, `row * size + column`, with
row 0 at the TOP (so `board_rows()` reads in index order). Outside, a point is a GTP vertex:
a column letter A-Z without I, then the row number counted from 1 at the BOTTOM - "A1" is the
bottom-left corner, "J9" the top-right of a 9x9 board. `parse_move` also reads "pass" and
"resign" and returns the `PASS` / `RESIGN` sentinels for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..errors import quoted
from .errors import InvalidSize, MalformedMove, OffBoard

MIN_SIZE = 5  # smaller boards have no room for two eyes and a fight; the issue asks 5 to 25
MAX_SIZE = 25  # GTP's letters A-Z without I name exactly 25 columns

COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips I, easily confused with J and 1

PASS = -1  # sentinel point for "pass" (never a board index)
RESIGN = -2  # sentinel point for "resign"

_VERTEX = re.compile(r"([A-Z])([0-9]{1,3})")


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything about a board's shape, computed once per size.

    `neighbours[p]` and `diagonals[p]` list only points on the board, so the hot loops never
    test for edges; `names[p]` is the vertex of point p and `index` the reverse map.
    """

    size: int
    area: int
    neighbours: tuple[tuple[int, ...], ...]
    diagonals: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    index: dict[str, int]

    def point(self, column: int, row_from_top: int) -> int:
        """The point at 0-based (column, row from the top)."""
        return row_from_top * self.size + column

    def column_row(self, point: int) -> tuple[int, int]:
        """(column, row from the top), both 0-based."""
        return point % self.size, point // self.size


def check_size(size: object) -> int:
    """`size` as an int if it is a supported board size, else `InvalidSize`."""
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidSize(
            f"invalid size: a Go board is {MIN_SIZE} to {MAX_SIZE} points wide, not {quoted(size)}."
        )
    return size


@cache
def geometry(size: int) -> Geometry:
    """The shared `Geometry` of a `size` x `size` board (checked with `check_size`)."""
    check_size(size)
    neighbours: list[tuple[int, ...]] = []
    diagonals: list[tuple[int, ...]] = []
    names: list[str] = []
    for row in range(size):
        for column in range(size):
            neighbours.append(_around(size, column, row, ((0, -1), (-1, 0), (1, 0), (0, 1))))
            diagonals.append(_around(size, column, row, ((-1, -1), (1, -1), (-1, 1), (1, 1))))
            names.append(f"{COLUMN_LETTERS[column]}{size - row}")
    return Geometry(
        size=size,
        area=size * size,
        neighbours=tuple(neighbours),
        diagonals=tuple(diagonals),
        names=tuple(names),
        index={name: point for point, name in enumerate(names)},
    )


def _around(
    size: int, column: int, row: int, steps: tuple[tuple[int, int], ...]
) -> tuple[int, ...]:
    return tuple(
        (row + dy) * size + column + dx
        for dx, dy in steps
        if 0 <= column + dx < size and 0 <= row + dy < size
    )


def parse_vertex(text: object, size: int) -> int:
    """The point a GTP vertex names ("D4", "d4" and " D4 " alike).

    Raises `MalformedMove` for text that is no vertex at all (including the skipped column I)
    and `OffBoard` for a vertex beyond this board's edge.
    """
    if not isinstance(text, str):
        raise MalformedMove(
            f"malformed move: a move is a vertex such as \"D4\", \"pass\" or \"resign\", "
            f"not {type(text).__name__}."
        )
    cleaned = text.strip().upper()
    match = _VERTEX.fullmatch(cleaned)
    if match is None or match.group(1) == "I":
        why = " (GTP skips the letter I)" if match is not None else ""
        raise MalformedMove(
            f"malformed move: {quoted(text)} is not a vertex{why}; write a column letter and a "
            "row number such as \"D4\", or \"pass\" or \"resign\"."
        )
    column = COLUMN_LETTERS.index(match.group(1))
    number = int(match.group(2))
    if column >= size or not 1 <= number <= size:
        last = f"{COLUMN_LETTERS[size - 1]}{size}"
        raise OffBoard(
            f"off board: {cleaned} is outside this {size}x{size} board, which runs from A1 "
            f"to {last}."
        )
    return (size - number) * size + column


def parse_move(text: object, size: int) -> int:
    """A point, `PASS` or `RESIGN` for a move's text (see `parse_vertex` for the errors)."""
    if isinstance(text, str):
        word = text.strip().lower()
        if word == "pass":
            return PASS
        if word == "resign":
            return RESIGN
    return parse_vertex(text, size)


def vertex(point: int, size: int) -> str:
    """The GTP name of a point, or "pass" / "resign" for the sentinels."""
    if point == PASS:
        return "pass"
    if point == RESIGN:
        return "resign"
    return geometry(size).names[point]
