"""SGF in and out: round trips, set-up stones, and hostile records refused quickly.

Every hostile input must raise `SgfError` (a ValueError with a sentence) within a second:
never a crash, a RecursionError or a hang.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from app.engine.go import Game, SgfError, from_sgf, to_sgf
from app.engine.go.sgf import MAX_SGF_BYTES, MAX_SGF_DEPTH, MAX_SGF_NODES


@contextmanager
def within(seconds: float) -> Iterator[None]:
    began = time.perf_counter()
    yield
    assert time.perf_counter() - began < seconds


def random_game(size: int, moves: int, seed: int, handicap: int = 0) -> Game:
    rng = random.Random(seed)
    game = Game(size, handicap=handicap)
    while len(game.moves) < moves:
        legal = game.legal_moves()
        game.play(rng.choice(legal) if legal and rng.random() > 0.05 else "pass")
        if game.status != "playing":
            game.undo()
            game.play(rng.choice(game.legal_moves()))
    return game


def same_game(a: Game, b: Game) -> None:
    assert (a.size, a.komi, a.handicap) == (b.size, b.komi, b.handicap)
    assert a.board_rows() == b.board_rows()
    assert a.moves == b.moves and a.captures == b.captures
    assert a.to_move == b.to_move and a.ko == b.ko and a.status == b.status
    assert a.legal_moves() == b.legal_moves()


@pytest.mark.parametrize(("size", "handicap"), [(9, 0), (13, 3), (19, 9), (25, 0)])
def test_round_trip(size: int, handicap: int) -> None:
    game = random_game(size, 150, seed=size, handicap=handicap)
    text = to_sgf(game)
    same_game(from_sgf(text), game)
    same_game(from_sgf(text.encode("utf-8")), game)


def test_what_to_sgf_writes() -> None:
    game = Game(9, handicap=2)
    game.play("E5")  # white
    game.play("pass")  # black
    game.play("resign")  # white resigns
    text = to_sgf(game, black_name="Ann [the] Black", white_name="Bob",
                  date=datetime.date(2024, 5, 17))
    for part in ("FF[4]", "GM[1]", "SZ[9]", "KM[0.5]", "HA[2]", "AB[cg][gc]",
                 "PB[Ann [the\\] Black]", "PW[Bob]", "DT[2024-05-17]", "RE[B+R]",
                 ";W[ee]", ";B[]"):
        assert part in text, part
    assert "resign" not in text
    again = from_sgf(text)
    assert again.handicap == 2 and again.moves == ["E5", "pass"]
    assert again.status == "playing"  # the record's moves are replayed; RE is not a move


def test_a_scored_game_round_trips_into_scoring() -> None:
    game = Game(9, komi=6)
    for move in ["E5", "D5", "pass", "pass"]:
        game.play(move)
    game.accept_score()
    text = to_sgf(game)
    assert "RE[W+6]" in text and "KM[6]" in text
    again = from_sgf(text)
    assert again.status == "scoring"
    assert again.score().text == "W+6"


def test_setup_stones_in_the_root() -> None:
    game = from_sgf("(;GM[1]FF[4]SZ[9]KM[6.5]AB[aa][bb]AW[cc]PL[W])")
    assert game.board_rows()[:3] == ["X........", ".X.......", "..O......"]
    assert game.to_move == "white" and game.komi == 6.5 and game.moves == []
    same_game(from_sgf(to_sgf(game)), game)


def test_setup_stones_in_a_later_node() -> None:
    game = from_sgf("(;SZ[9];B[ee];W[dd];AE[ee]AB[aa:ba]AW[ii];B[cc])")
    rows = game.board_rows()
    assert rows[0] == "XX......."  # AB[aa:ba] is a compressed list: A9 and B9
    assert rows[3][3] == "O" and rows[4][4] == "." and rows[8][8] == "O"
    assert rows[2][2] == "X"
    assert game.moves == ["C7"] and game.to_move == "white"


def test_handicap_record_and_the_main_line() -> None:
    game = from_sgf("(;SZ[9]HA[2]AB[cg][gc];W[ee](;B[dd];W[cc])(;B[ff]))")
    assert game.handicap == 2 and game.komi == 0.5
    assert game.moves == ["E5", "D6", "C7"]


def test_a_collection_reads_its_first_game() -> None:
    game = from_sgf("(;SZ[9];B[ee])(;SZ[13];B[aa])")
    assert game.size == 9 and game.moves == ["E5"]


HOSTILE = {
    "empty": "",
    "not sgf": "hello, world",
    "unbalanced brackets": "(;FF[4]SZ[9];B[ee];W[dd",
    "unbalanced parentheses": "(;FF[4]SZ[9];B[ee]",
    "occupied move": "(;SZ[9];B[ee];W[ee])",
    "suicide": "(;SZ[9]AB[ba][ab];W[aa])",
    "black after its own pass": "(;SZ[9];B[];B[dd])",
    "move after two passes": "(;SZ[9];B[];W[];B[ee])",
    "move off the board": "(;SZ[9];B[zz])",
    "size too small": "(;SZ[4];B[aa])",
    "size too large": "(;SZ[26])",
    "size far too large": "(;SZ[52];B[zz])",
    "rectangular": "(;SZ[19:13])",
    "size not a number": "(;SZ[nine])",
    "huge size number": "(;SZ[99999999999999999999])",
    "other game": "(;GM[2]SZ[9])",
    "bad komi": "(;SZ[9]KM[lots])",
    "odd komi": "(;SZ[9]KM[6.3])",
    "bad handicap": "(;SZ[9]HA[x])",
    "negative handicap": "(;SZ[9]HA[-2])",
    "bad setup point": "(;SZ[9]AB[zz])",
    "setup without liberties": "(;SZ[9]AB[aa]AW[ba][ab])",
    "set-up in every node": "(;SZ[19]" + ";AB[aa]AE[aa]" * 1999 + ";AB[aa]AW[ba][ab])",
    "deep nesting": "(;" * (MAX_SGF_DEPTH * 5) + ")" * (MAX_SGF_DEPTH * 5),
    "nesting without end": "(;" * 200_000,
    "many nodes": "(;SZ[9]" + ";C[x]" * 100_000 + ")",
    "many nodes without their semicolons": "(;SZ[9]" + "(C[x])" * (MAX_SGF_NODES + 1) + ")",
    "megabytes of comment": "(;SZ[9]C[" + "x" * (2 * MAX_SGF_BYTES) + "])",
    "unclosed megabyte value": "(;SZ[9]C[" + "\\]" * MAX_SGF_BYTES,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_records_are_refused_quickly(name: str) -> None:
    with within(1.0), pytest.raises(SgfError) as caught:
        from_sgf(HOSTILE[name])
    error = caught.value
    assert isinstance(error, ValueError) and error.code == "invalid_sgf"
    assert error.message.startswith("invalid SGF: ") and error.message.endswith((".", ")"))


def test_a_long_alternating_record_of_passes_is_refused_by_its_length() -> None:
    assert from_sgf("(;SZ[9];B[aa];W[bb];B[])").moves == ["A9", "B8", "pass"]
    with within(1.0), pytest.raises(SgfError, match="moves"):
        from_sgf("(;SZ[25]" + ";B[aa];W[]" * 1001 + ")")


def test_a_megabyte_of_undecodable_bytes_is_read_or_refused_quickly() -> None:
    junk = bytes(range(0x80, 0x100)) * (MAX_SGF_BYTES // 200)
    with within(1.0):
        assert from_sgf(b"(;SZ[9]C[" + junk + b"];B[ee])").moves == ["E5"]
    with within(1.0), pytest.raises(SgfError):
        from_sgf(b"(;SZ[9]" + junk + b";B[ee])")


def test_a_long_record_of_one_colour_is_repaired_quickly() -> None:
    points = [a + b for a in "abcdefghijklmnopqrstuvwxy" for b in "abcdefghijklmnopqrstuvwxy"]
    with within(1.0):
        game = from_sgf("(;SZ[25]" + "".join(f";B[{p}]" for p in points[:600]) + ")")
    assert len(game.moves) == 1199 and game.moves[1::2] == ["pass"] * 599


def test_a_bytes_record_with_an_unknown_charset_is_refused() -> None:
    with within(1.0), pytest.raises(SgfError, match="invalid SGF"):
        from_sgf(b"(;SZ[9]CA[no-such-codec];B[ee])")


def test_anything_after_the_first_game_is_ignored() -> None:
    assert from_sgf("(;SZ[9];B[ee]))))][[").moves == ["E5"]


def test_non_text_is_refused() -> None:
    with pytest.raises(SgfError):
        from_sgf(None)  # type: ignore[arg-type]


def test_a_large_but_honest_comment_is_read() -> None:
    game = from_sgf("(;SZ[9]C[" + "a long comment " * 30_000 + "];B[ee])")
    assert game.moves == ["E5"]
