"""GTP vertices: columns A-Z without I, row 1 at the bottom, "pass" and "resign"."""

from __future__ import annotations

import pytest

from app.engine.go import PASS, RESIGN, MalformedMove, OffBoard, parse_move, parse_vertex, vertex
from app.engine.go.coords import geometry


def test_corners_of_a_9x9_board() -> None:
    assert vertex(0, 9) == "A9"  # top-left
    assert vertex(8, 9) == "J9"  # top-right: no column I
    assert vertex(72, 9) == "A1"  # bottom-left
    assert vertex(80, 9) == "J1"
    assert parse_vertex("A1", 9) == 72 and parse_vertex("j9", 9) == 8


def test_largest_board_uses_every_letter_but_i() -> None:
    names = geometry(25).names
    assert names[24] == "Z25" and names[600] == "A1"
    assert "I" not in "".join(name[0] for name in names)
    assert all(parse_vertex(name, 25) == point for point, name in enumerate(names))


def test_pass_and_resign() -> None:
    assert parse_move("pass", 9) == PASS and parse_move(" PASS ", 9) == PASS
    assert parse_move("Resign", 9) == RESIGN
    assert vertex(PASS, 9) == "pass" and vertex(RESIGN, 9) == "resign"


@pytest.mark.parametrize("text", ["I5", "5D", "D", "DD4", "D-4", "", "D4x", "D1234"])
def test_malformed(text: str) -> None:
    with pytest.raises(MalformedMove):
        parse_vertex(text, 19)


@pytest.mark.parametrize("text", ["T20", "U1", "A0", "Z25"])
def test_off_board(text: str) -> None:
    with pytest.raises(OffBoard) as caught:
        parse_vertex(text, 19)
    assert "A1 to T19" in caught.value.message


def test_neighbours_stay_on_the_board() -> None:
    shape = geometry(5)
    assert len(shape.neighbours[0]) == 2 and len(shape.diagonals[0]) == 1
    assert len(shape.neighbours[2]) == 3 and len(shape.neighbours[12]) == 4
    assert sorted(shape.names[p] for p in shape.neighbours[shape.index["C3"]]) == [
        "B3", "C2", "C4", "D3"
    ]
