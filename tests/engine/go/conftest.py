"""Shared fixtures for the Go engine tests: ASCII boards, rows from the top, 'X' black,
'O' white, '.' empty.

Start with the `boards` fixture (an `AsciiBoards`): `boards.game(picture)` starts a game from a
drawing. Spaces inside a row are ignored, so boards can be drawn spaced out; blank lines around
the picture are dropped. `chains_by_flood_fill` is an independent, deliberately naive oracle for
the engine's incremental chains. (The suite imports test modules with importlib, so helpers
reach the tests as a fixture rather than as an importable module.)
"""

from __future__ import annotations

import pytest

from app.engine.go import BLACK, WHITE, Board, Game, Setup
from app.engine.go.coords import geometry


def parse_rows(picture: str) -> list[str]:
    rows = [line.replace(" ", "") for line in picture.strip().splitlines()]
    rows = [row for row in rows if row]
    size = len(rows)
    assert all(len(row) == size for row in rows), f"not a square board: {rows}"
    return rows


def stones_of(picture: str) -> tuple[int, list[str], list[str]]:
    """(size, black vertices, white vertices) of a picture."""
    rows = parse_rows(picture)
    size = len(rows)
    names = geometry(size).names
    cells = [(r * size + c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row)]
    black = [names[p] for p, ch in cells if ch == "X"]
    white = [names[p] for p, ch in cells if ch == "O"]
    return size, black, white


def game_from(picture: str, to_move: str = "black", komi: float = 7.5) -> Game:
    """A game starting from the pictured position with `to_move` to play."""
    size, black, white = stones_of(picture)
    return Game(size, komi, setup=Setup(tuple(black), tuple(white), to_move))  # type: ignore


def board_from(picture: str) -> Board:
    rows = parse_rows(picture)
    size = len(rows)
    black = [r * size + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]
    white = [r * size + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O"]
    return Board.from_stones(size, black, white)


def picture(rows: list[str]) -> str:
    return "\n".join(rows)


def same(rows: list[str], expected: str) -> bool:
    return rows == parse_rows(expected)


def chains_by_flood_fill(board: Board) -> set[tuple[int, frozenset[int], frozenset[int]]]:
    """Every chain as (colour, stones, liberties), recomputed from the colours alone."""
    size = board.size
    colors = board.colors
    seen: set[int] = set()
    found = set()
    for start in range(size * size):
        if colors[start] not in (BLACK, WHITE) or start in seen:
            continue
        stones, liberties, todo = {start}, set(), [start]
        while todo:
            p = todo.pop()
            r, c = divmod(p, size)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < size and 0 <= cc < size:
                    q = rr * size + cc
                    if colors[q] == 0:
                        liberties.add(q)
                    elif colors[q] == colors[start] and q not in stones:
                        stones.add(q)
                        todo.append(q)
        seen |= stones
        found.add((colors[start], frozenset(stones), frozenset(liberties)))
    return found


def chains_incremental(board: Board) -> set[tuple[int, frozenset[int], frozenset[int]]]:
    return {
        (chain.color, frozenset(chain.stones), frozenset(chain.liberties))
        for chain in board.all_chains()
    }


class AsciiBoards:
    """The helpers above, handed to tests by the `boards` fixture."""

    parse_rows = staticmethod(parse_rows)
    stones_of = staticmethod(stones_of)
    game = staticmethod(game_from)
    board = staticmethod(board_from)
    chains_by_flood_fill = staticmethod(chains_by_flood_fill)
    chains_incremental = staticmethod(chains_incremental)


@pytest.fixture
def boards() -> AsciiBoards:
    return AsciiBoards()
