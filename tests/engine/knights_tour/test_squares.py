"""Square names and indices: "c2" is file c, rank 2; index = row * n + col with row 0 = rank 1."""

from __future__ import annotations

import pytest

from app.engine.knights_tour import InvalidSquare, OffBoard, TooLarge, parse_square, square_name
from app.engine.knights_tour.squares import KNIGHT_STEPS, is_knight_move, neighbours


def test_names_run_from_a1_bottom_left() -> None:
    assert square_name(8, 0) == "a1"
    assert square_name(8, 10) == "c2"
    assert square_name(8, 63) == "h8"
    assert square_name(26, 26 * 26 - 1) == "z26"
    assert [parse_square(8, name) for name in ("a1", "c2", "H8", " e4 ")] == [0, 10, 63, 28]


def test_every_square_name_round_trips_on_every_named_size() -> None:
    for n in range(1, 27):
        for index in range(n * n):
            assert parse_square(n, square_name(n, index)) == index


def test_pairs_and_indices_are_accepted() -> None:
    assert parse_square(8, (1, 2)) == 10
    assert parse_square(8, 10) == 10
    assert parse_square(1000, (999, 999)) == 999_999


@pytest.mark.parametrize("square", ["i1", "a9", (8, 0), (0, -1), 64, -1])
def test_squares_off_the_board_are_refused(square: object) -> None:
    with pytest.raises(OffBoard) as caught:
        parse_square(8, square)
    assert caught.value.code == "off_board"


@pytest.mark.parametrize("square", ["", "c", "2c", "c2x", "aa1", "c0", 2.0, None, True])
def test_malformed_squares_are_refused(square: object) -> None:
    with pytest.raises(InvalidSquare):
        parse_square(8, square)


def test_names_stop_at_26_files() -> None:
    with pytest.raises(TooLarge):
        square_name(27, 0)


def test_knight_steps_go_clockwise_from_one_oclock() -> None:
    # Angle measured clockwise from "up the board" (towards rank 8): strictly increasing.
    import math

    angles = [math.atan2(file, rank) % (2 * math.pi) for rank, file in KNIGHT_STEPS]
    assert angles == sorted(angles)
    assert neighbours(8)[0] == (17, 10)  # from a1: b3 (one o'clock), then c2 (two o'clock)


def test_neighbour_tables_hold_exactly_the_knights_moves() -> None:
    for n in (1, 2, 5, 8):
        table = neighbours(n)
        for a in range(n * n):
            assert sorted(table[a]) == [b for b in range(n * n) if is_knight_move(n, a, b)]
    assert sum(len(moves) for moves in neighbours(8)) == 336  # 168 knight's moves, both ways
