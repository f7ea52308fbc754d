"""The tree `read_record` keeps, and `write_record`: a game written back into that tree,
keeping every variation.

The trees are counted with sgfmill (nodes and leaves, i.e. variations) so that "kept" means
kept, not merely "still parses".
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from sgfmill import sgf  # type: ignore[import-untyped]

from app.engine.go import Game, SgfError, read_record, to_sgf, write_record

DATA = Path(__file__).parents[2] / "data" / "go" / "sgf"
REVIEW = (DATA / "review.sgf").read_bytes()
MAIN_LINE = ["Q16", "D16", "Q3", "D4", "R9", "O17", "Q14", "Q18", "R17", "L17"]


def shape(text: str) -> tuple[int, int]:
    """(nodes, leaves) of a record's tree, counted by sgfmill."""
    nodes = leaves = 0
    stack = [sgf.Sgf_game.from_string(text).get_root()]
    while stack:
        node = stack.pop()
        nodes += 1
        leaves += not len(node)
        stack.extend(node)
    return nodes, leaves


def main_line_moves(text: str) -> list[tuple[str, object]]:
    """The main line's moves as sgfmill reads them, independently of read_record."""
    game = sgf.Sgf_game.from_string(text)
    return [node.get_move() for node in game.get_main_sequence() if node.get_move()[0]]


def test_the_tree_read_keeps_every_variation() -> None:
    record = read_record(REVIEW)
    assert record.game.moves == MAIN_LINE
    assert record.comments[0].startswith("A short review") and record.comments[6] == "Approach."
    assert record.comments[4] == "A node with only a comment and markup."
    assert shape(record.tree) == shape(REVIEW.decode("utf-8")) == (17, 4)
    assert "LB[qc:A][qk:B]" in record.tree and "TR[pd]" in record.tree
    assert read_record(record.tree).comments == record.comments


def test_the_same_game_written_back_keeps_everything() -> None:
    record = read_record(REVIEW)
    text = write_record(record.game, tree=record.tree, info=record.info,
                        comments=record.comments)
    again = read_record(text)
    assert again.game.moves == record.game.moves == MAIN_LINE
    assert again.comments == record.comments and again.info == record.info
    assert shape(text) == shape(record.tree) == (17, 4)
    assert "LB[qc:A][qk:B]" in text and "AP[CGoban:3]" in text  # what we do not read is kept
    assert text == write_record(again.game, tree=again.tree)  # stable


def test_a_game_that_went_back_and_played_on_becomes_the_first_variation() -> None:
    record = read_record(REVIEW)
    game = record.game
    for _ in range(4):  # back to move 6 (W O17), then a new black move 7
        game.undo()
    game.play("C3")
    game.play("R4")
    text = write_record(game, tree=record.tree)
    again = read_record(text)
    assert again.game.moves == MAIN_LINE[:6] + ["C3", "R4"]
    assert shape(text) == (19, 5)  # two new nodes, one new variation
    branch = sgf.Sgf_game.from_string(text).get_main_sequence()[7]  # W O17, move 6
    assert [child.get_move() for child in branch] == [("b", (2, 2)), ("b", (13, 15))]
    assert again.comments[6] == "Approach."  # shared nodes keep their comments


def test_a_divergence_inside_a_sequence_splits_it() -> None:
    record = read_record(REVIEW)
    game = Game(19, komi=7.5)
    for move in ["Q16", "D16", "C3"]:
        game.play(move)
    text = write_record(game, tree=record.tree)
    assert read_record(text).game.moves == ["Q16", "D16", "C3"]
    assert read_record(text).game.komi == 7.5  # the game's komi, not the tree's 6.50
    assert shape(text) == (18, 5)
    root = sgf.Sgf_game.from_string(text).get_root()
    assert [child.get_move() for child in root[0][0]] == [("b", (2, 2)), ("b", (2, 15))]


def test_following_an_existing_variation_makes_it_the_main_line() -> None:
    record = read_record(REVIEW)
    game = record.game
    for _ in range(2):
        game.undo()
    game.play("P18")  # the second variation at move 9: B[ob], then W[qc]
    game.play("R17")
    text = write_record(game, tree=record.tree)
    assert shape(text) == shape(record.tree)  # nothing added, only reordered
    again = read_record(text)
    assert again.game.moves == MAIN_LINE[:8] + ["P18", "R17"]
    assert again.comments[9] == "Hane instead."


def test_moves_beyond_the_tree_extend_its_main_line() -> None:
    record = read_record(REVIEW)
    game = record.game
    for move in ["K4", "K5", "resign"]:  # black resigns
        game.play(move)
    text = write_record(game, tree=record.tree)
    assert shape(text) == (19, 4)
    again = read_record(text)
    assert again.game.moves == MAIN_LINE + ["K4", "K5"] and again.info["result"] == "W+R"


def test_a_game_that_stops_early_leaves_the_tree_as_it_is() -> None:
    record = read_record(REVIEW)
    game = record.game
    for _ in range(5):
        game.undo()
    text = write_record(game, tree=record.tree)
    assert shape(text) == shape(record.tree)
    assert main_line_moves(text) == main_line_moves(record.tree)


def test_passes_inserted_on_reading_write_back_without_a_new_variation() -> None:
    record = read_record("(;SZ[9];B[ee];B[cc](;W[gg])(;W[dd]))")
    assert record.inserted_passes == 1
    text = write_record(record.game, tree=record.tree)
    assert shape(text) == shape(record.tree) == (6, 2)
    assert read_record(text).game.moves == ["E5", "pass", "C7", "G3"]


def test_a_game_from_a_later_set_up_node_is_laid_after_it() -> None:
    record = read_record("(;SZ[9]C[old];B[ee];W[cc];AE[ee]AB[gg]C[new start];W[dd];B[ff])")
    game = record.game
    assert game.moves == ["D6", "F4"] and record.comments == {0: "new start"}
    game.undo()
    game.play("B2")
    text = write_record(game, tree=record.tree, comments={2: "changed"})
    again = read_record(text)
    assert again.game.moves == ["D6", "B2"] and again.comments[2] == "changed"
    assert shape(text) == (7, 2) and "C[old]" in text


def test_a_game_that_starts_elsewhere_is_refused() -> None:
    record = read_record(REVIEW)
    set_up = read_record("(;SZ[19]AB[aa];B[pd])").game.setup
    for game in [Game(9), Game(19, handicap=2), Game(19, setup=set_up)]:
        with pytest.raises(SgfError, match="does not start where"):
            write_record(game, tree=record.tree)


def test_comments_replace_only_what_changed() -> None:
    record = read_record(REVIEW)
    comments = dict(record.comments)
    comments[1] = "A new thought.\nOn two lines [with brackets]."
    comments[2] = "Added."
    comments[5] = ""  # removed
    comments[4] = record.comments[4]  # unchanged: stays on its move-less node
    comments[99] = "beyond the line: ignored"
    text = write_record(record.game, tree=record.tree, comments=comments)
    again = read_record(text)
    del comments[5], comments[99]
    assert again.comments == comments
    assert "C[A node with only a comment and markup.]" in text.replace("\n", " ")


def test_joined_comments_are_not_duplicated() -> None:
    record = read_record("(;SZ[9]C[root];C[second node];B[ee]C[x])")
    assert record.comments[0] == "root\n\nsecond node"
    text = write_record(record.game, tree=record.tree, comments=record.comments)
    assert read_record(text).comments == record.comments
    edited = write_record(record.game, tree=record.tree, comments={0: "one comment"})
    assert read_record(edited).comments == {0: "one comment", 1: "x"}


def test_information_is_set_removed_or_taken_from_the_game() -> None:
    record = read_record(REVIEW)
    game = record.game
    game.play("resign")  # black resigns: W+R
    text = write_record(
        game, tree=record.tree, date=datetime.date(2025, 1, 2),
        info={"black": "Shin\nJinseo\x00", "event": "", "komi": "99", "unknown": "x",
              "result": "B+R", "place": "Seoul"},
    )
    info = read_record(text).info
    assert info["black"] == "Shin Jinseo" and "event" not in info and info["place"] == "Seoul"
    assert info["result"] == "W+R" and info["date"] == "2025-01-02"
    assert info["komi"] == "6.50"  # the tree's spelling of the game's 6.5
    assert "unknown" not in text


def test_without_a_tree_the_record_is_written_from_the_game() -> None:
    game = Game(9, handicap=2)
    for move in ["E5", "pass", "D4"]:
        game.play(move)
    assert write_record(game, info={"black": "Ann", "white": "Bob"}) == to_sgf(
        game, black_name="Ann", white_name="Bob"
    )
    text = write_record(game, info={"black": "Ann", "white": "Bob", "result": "B+3"},
                        comments={0: "Handicap game.", 2: "Black passes."})
    assert "HA[2]" in text and "AB[cg][gc]" in text and ";B[]C[Black passes.]" in text
    again = read_record(text)
    assert again.game.moves == ["E5", "pass", "D4"] and again.game.handicap == 2
    assert again.comments == {0: "Handicap game.", 2: "Black passes."}
    assert again.info == {"black": "Ann", "white": "Bob", "result": "B+3", "komi": "0.5"}


def test_a_record_read_in_another_charset_is_written_as_utf8() -> None:
    record = read_record((DATA / "fox_gbk_no_charset.sgf").read_bytes())
    text = write_record(record.game, tree=record.tree)
    assert "CA[UTF-8]" in text and "PB[星阵围棋]" in text and "C[白棋打劫，黑棋提子]" in text
    assert read_record(text.encode("utf-8")).info == record.info
