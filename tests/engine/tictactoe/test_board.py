"""Board notation, validation, moves and results, as a player or an API client sees them."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from app.engine.tictactoe import (
    Board,
    CellOccupied,
    CellOutOfRange,
    GameOver,
    InvalidBoard,
    TicTacToeError,
    UnknownStrategy,
    reachable_positions,
)


def test_error_classes_are_value_errors_with_codes() -> None:
    expected = {
        InvalidBoard: "invalid_board",
        CellOutOfRange: "off_board",
        CellOccupied: "occupied",
        GameOver: "game_over",
        UnknownStrategy: "unknown_strategy",
    }
    for cls, code in expected.items():
        assert issubclass(cls, TicTacToeError)
        assert issubclass(cls, ValueError)
        assert cls.code == code


def test_empty_board() -> None:
    board = Board.empty()
    assert board.to_string() == "........."
    assert board.to_move == "X"
    assert board.move_count == 0
    assert board.empty_cells() == list(range(9))
    assert board.winner is None and board.winning_line is None
    assert not board.is_full and not board.is_over


def test_play_alternates_sides_and_returns_a_new_board() -> None:
    start = Board.empty()
    after = start.play(4)
    assert start.to_string() == "........."  # unchanged
    assert after.to_string() == "....X...."
    assert after.to_move == "O"
    after2 = after.play(0)
    assert after2.to_string() == "O...X...."
    assert after2.to_move == "X"
    assert after2.move_count == 2
    assert after2.empty_cells() == [1, 2, 3, 5, 6, 7, 8]


def test_board_is_an_immutable_hashable_value() -> None:
    a = Board.from_string("X...O....")
    b = Board.empty().play(0).play(4)
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Board.empty()}) == 2
    assert a != Board.from_string("O...X....")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 0  # type: ignore[misc]
    assert repr(a) == "Board('X...O....')"


def test_round_trip_of_every_reachable_position() -> None:
    for board in reachable_positions():
        assert Board.from_string(board.to_string()) == board


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "got 0 characters"),
        ("X...O...", "got 8 characters"),
        ("X...O.....", "got 10 characters"),
        ("x........", "Cell 0 holds 'x'"),
        ("....0....", "Cell 4 holds '0'"),
        ("X... ....", "Cell 4 holds ' '"),
        ("O........", "X has 0 marks and O has 1"),
        ("XX.......", "X has 2 marks and O has 0"),
        ("XXXOOO...", "Both X and O have three in a row"),
        ("XXX.O.OO.", "X has three in a row, but O moved after it"),
        ("OOOXX.X.X", "O has three in a row, but X moved after it"),
    ],
)
def test_from_string_refuses_impossible_boards(text: str, fragment: str) -> None:
    with pytest.raises(InvalidBoard) as raised:
        Board.from_string(text)
    assert fragment in str(raised.value)
    assert raised.value.code == "invalid_board"
    assert str(raised.value).endswith(".")


def test_from_string_refuses_non_strings() -> None:
    with pytest.raises(InvalidBoard, match="string of 9 characters"):
        Board.from_string(123)  # type: ignore[arg-type]


def test_valid_boards_are_exactly_the_reachable_ones() -> None:
    reachable = {board.to_string() for board in reachable_positions()}
    valid = set()
    for chars in itertools.product("XO.", repeat=9):
        text = "".join(chars)
        try:
            Board.from_string(text)
        except InvalidBoard:
            continue
        valid.add(text)
    assert valid == reachable


def test_constructor_refuses_bad_masks() -> None:
    with pytest.raises(InvalidBoard, match="hold both X and O"):
        Board(0b1, 0b1)
    with pytest.raises(InvalidBoard, match="whole numbers from 0 to 511"):
        Board(1 << 9, 0)
    with pytest.raises(InvalidBoard):
        Board(-1, 0)


@pytest.mark.parametrize("cell", [-1, 9, 100, True, False, 1.0, "4", None])
def test_play_refuses_cells_off_the_board(cell: object) -> None:
    with pytest.raises(CellOutOfRange) as raised:
        Board.empty().play(cell)  # type: ignore[arg-type]
    assert raised.value.code == "off_board"
    assert "off the board" in str(raised.value)


def test_play_refuses_taken_cells() -> None:
    with pytest.raises(CellOccupied) as raised:
        Board.from_string("....X....").play(4)
    assert str(raised.value) == "Cell 4 is already taken."
    assert raised.value.code == "occupied"


def test_play_refuses_moves_after_the_game_ends() -> None:
    won = Board.from_string("XXXOO....")
    with pytest.raises(GameOver, match="X has won") as raised:
        won.play(8)
    assert raised.value.code == "game_over"
    with pytest.raises(GameOver, match="X has won"):
        won.play(0)  # an occupied cell on a finished board: the game being over comes first
    drawn = Board.from_string("XOXXOOOXX")
    with pytest.raises(GameOver, match="draw"):
        drawn.play(0)


def test_winner_and_winning_line() -> None:
    board = Board.from_string("XX.OO....").play(2)
    assert board.winner == "X"
    assert board.winning_line == (0, 1, 2)
    assert board.is_over and not board.is_full
    assert board.to_move == "O"

    o_wins = Board.from_string("XX..OO..X").play(3)
    assert o_wins.to_string() == "XX.OOO..X"
    assert o_wins.winner == "O" and o_wins.winning_line == (3, 4, 5)

    diagonal = Board.from_string("XO..XO...").play(8)
    assert diagonal.winning_line == (0, 4, 8)


def test_a_move_that_makes_two_lines_reports_the_first() -> None:
    board = Board.from_string(".XXXOOXOO").play(0)
    assert board.to_string() == "XXXXOOXOO"
    assert board.winner == "X"
    assert board.winning_line == (0, 1, 2)


def test_full_board_without_a_line_is_a_draw() -> None:
    board = Board.from_string("XOXXOOOXX")
    assert board.is_full and board.is_over
    assert board.winner is None and board.winning_line is None
    assert board.empty_cells() == []


def test_the_ninth_mark_can_win_or_draw() -> None:
    win = Board.from_string("XOXOXOOX.").play(8)
    assert win.is_full and win.winner == "X" and win.winning_line == (0, 4, 8)
    draw = Board.from_string("XOXXOOOX.").play(8)
    assert draw.is_full and draw.winner is None and draw.is_over
