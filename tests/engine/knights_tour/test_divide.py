"""Divide and conquer: how boards are cut into blocks, and what the construction reports."""

from __future__ import annotations

import pytest

from app.engine.knights_tour.divide import (
    EVEN_PARTS,
    ODD_PARTS,
    _split_even,
    _split_odd,
    divide_tour,
)
from app.engine.knights_tour.verify import verify


def test_every_even_side_up_to_1000_cuts_into_block_sides() -> None:
    for n in range(6, 1001, 2):
        parts = _split_even(n)
        assert sum(parts) == n and set(parts) <= set(EVEN_PARTS)


def test_every_odd_side_cuts_with_its_odd_part_on_any_row() -> None:
    for n in range(7, 80, 2):
        for position in range(n):
            parts, odd = _split_odd(n, position)
            assert sum(parts) == n
            assert [p % 2 for p in parts].count(1) == 1 and parts[odd] in ODD_PARTS
            assert sum(parts[:odd]) <= position < sum(parts[: odd + 1])


def test_a_1000_board_is_thousands_of_blocks_glued_along_a_spanning_tree() -> None:
    built = divide_tour(1000, 123_456, closed=True)
    verify(1000, built.tour, closed=True)
    assert built.tour[0] == 123_456
    assert built.glues == built.blocks - 1 and built.blocks > 1000


@pytest.mark.parametrize("n", [6, 8, 10, 12, 14, 16])
def test_small_even_boards_are_one_block(n: int) -> None:
    assert divide_tour(n, 0, closed=True).blocks == 1
