"""Shared fixtures for the tic-tac-toe engine tests: an independent oracle of perfect play.

Start with `oracle`. It solves the game on plain 9-character strings, with none of the engine's
bitboards, scores or memo tables, so the exhaustive tests compare the engine against a second,
deliberately simple implementation rather than against itself.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from app.engine.tictactoe import Board, reachable_positions

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

# (outcome, plies) for the side making the move: "win" / "draw" / "loss" and the number of
# moves until the game ends, the move itself included.
Value = tuple[str, int]


def _has_line(cells: str, mark: str) -> bool:
    return any(all(cells[i] == mark for i in line) for line in LINES)


def _rank(value: Value) -> tuple[int, int]:
    """Bigger is better for the mover: fast wins, then draws, then slow losses."""
    outcome, plies = value
    if outcome == "win":
        return (2, -plies)
    if outcome == "draw":
        return (1, 0)
    return (0, plies)


@cache
def move_values(cells: str) -> dict[int, Value]:
    """Every free cell's value for the side to move, by exhaustive search on strings."""
    mark = "X" if cells.count("X") == cells.count("O") else "O"
    values: dict[int, Value] = {}
    for cell, char in enumerate(cells):
        if char != ".":
            continue
        after = cells[:cell] + mark + cells[cell + 1 :]
        if _has_line(after, mark):
            values[cell] = ("win", 1)
        elif "." not in after:
            values[cell] = ("draw", 1)
        else:
            reply = max(move_values(after).values(), key=_rank)
            flipped = {"win": "loss", "loss": "win", "draw": "draw"}[reply[0]]
            values[cell] = (flipped, reply[1] + 1)
    return values


def best_value(cells: str) -> Value:
    return max(move_values(cells).values(), key=_rank)


def best_cells(cells: str) -> set[int]:
    values = move_values(cells)
    top = best_value(cells)
    return {cell for cell, value in values.items() if value == top}


class Oracle:
    """Perfect-play facts about a position, keyed by its notation."""

    move_values: Callable[[str], dict[int, Value]] = staticmethod(move_values)
    best_value: Callable[[str], Value] = staticmethod(best_value)
    best_cells: Callable[[str], set[int]] = staticmethod(best_cells)
    rank: Callable[[Value], tuple[int, int]] = staticmethod(_rank)


@pytest.fixture(scope="session")
def oracle() -> Oracle:
    return Oracle()


@pytest.fixture(scope="session")
def live_positions() -> list[Board]:
    """The 4,520 reachable positions that are not over."""
    return [board for board in reachable_positions() if not board.is_over]
