"""A scored game's territory written as TB/TW (read back by sgfmill, our reader and GNU Go),
and `SgfRecord.variations`: every variation's moves from the start node on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sgfmill import sgf  # type: ignore[import-untyped]

from app.engine.go import Game, read_record, write_record
from app.engine.go.sgf import MAX_SGF_DEPTH

GNUGO = Path("/usr/games/gnugo")
# Black walls off the bottom two rows of a 5x5 board, white the top one; white's stone at B1
# is dead in black's area; both pass.
MOVES = ["C3", "C4", "B3", "B4", "D3", "D4", "A3", "A4", "E3", "E4", "pass", "B1", "pass",
         "pass"]


def scored() -> Game:
    game = Game(5, 0.5)
    for move in MOVES:
        game.play(move)
    assert game.dead_stones == {"B1"}
    game.accept_score()
    return game


def test_territory_is_on_the_last_node_dead_stones_included() -> None:
    text = write_record(scored())
    record = sgf.Sgf_game.from_string(text)
    last = record.get_last_node()
    assert last.get_move() == ("w", None)
    black = {(row, column) for row in (0, 1) for column in range(5)}
    assert last.get("TB") == black and (0, 1) in black  # B1, where the dead stone stood
    assert last.get("TW") == {(4, column) for column in range(5)}
    assert record.get_root().get("RE") == "B+4.5"
    again = read_record(text)
    assert again.game.moves == MOVES and again.game.status == "scoring"


def test_no_territory_before_the_score_is_accepted() -> None:
    game = Game(5, 0.5)
    for move in MOVES:
        game.play(move)
    assert "TB[" not in write_record(game) and "TW[" not in write_record(game)


def test_territory_replaces_the_trees_own() -> None:
    game = Game(5, 0.5)
    for move in MOVES:
        game.play(move)
    tree = read_record(write_record(game).replace("W[])", "TB[aa]W[])")).tree
    text = write_record(scored(), tree=tree)
    assert text.count("TB[") == 1 and "TB[aa]" not in text
    assert sgf.Sgf_game.from_string(text).get_last_node().get("TB") == {
        (row, column) for row in (0, 1) for column in range(5)}


@pytest.mark.usefixtures("gnugo")
def test_gnu_go_reads_the_scored_record(tmp_path: Path) -> None:
    path = tmp_path / "scored.sgf"
    path.write_text(write_record(scored()), encoding="utf-8")
    commands = f"loadsgf {path}\nfinal_score\nquit\n"
    replies = subprocess.run([str(GNUGO), "--mode", "gtp"], input=commands, text=True,
                             capture_output=True, timeout=60, check=True).stdout
    assert replies.split("\n\n")[:2] == ["= black", "= B+4.5"], replies


def test_variations_keep_every_line() -> None:
    record = read_record("(;SZ[9];B[ee](;W[cc];B[gg](;W[cg])(;W[gc]))(;W[dd]C[x];B[ff])"
                         "(;C[only a comment](;W[ab])(;W[ba])))")
    assert record.game.moves == ["E5", "C7", "G3", "C3"]
    assert record.variations == [["B E5"], [
        [["W C7", "B G3"], [[["W C3"], []], [["W G7"], []]]],
        [["W D6", "B F4"], []],
        [["W A8"], []],  # a move-less variation gives its place to its own
        [["W B9"], []],
    ]]


def test_variations_start_at_the_start_node_and_stop_at_set_up() -> None:
    record = read_record("(;SZ[9];B[ee];W[cc];AB[aa]PL[w](;W[gg];B[dd])(;W[dc];AW[ff];B[fg]))")
    assert record.game.moves == ["G3", "D6"]  # from the set-up node on
    assert record.variations == [[], [[["W G3", "B D6"], []], [["W D7"], []]]]


def test_variations_of_a_deeply_nested_record() -> None:
    depth = MAX_SGF_DEPTH - 1
    text = "(;SZ[9](;B[ee])" + "(;B[aa];W[bb]" * depth + ")" * depth + ")"
    record = read_record(text)  # no recursion: as deep as the reader allows
    assert record.game.moves == ["E5"]
    node, moves = record.variations[1][1], 0
    while node[1]:
        node = node[1][0]
        moves += len(node[0])
    assert moves == 2 * (depth - 1)
