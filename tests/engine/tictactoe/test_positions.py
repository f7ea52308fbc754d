"""Every reachable position, checked against the published counts."""

from __future__ import annotations

from collections import Counter

from app.engine.tictactoe import Board, reachable_positions


def test_published_counts() -> None:
    positions = reachable_positions()
    assert len(positions) == 5_478
    assert len(set(positions)) == 5_478
    assert sum(not board.is_over for board in positions) == 4_520
    outcomes = Counter(
        board.winner or ("draw" if board.is_full else "live") for board in positions
    )
    # The 958 finished positions: 626 won by X, 316 by O, 16 drawn.
    assert outcomes == {"live": 4_520, "X": 626, "O": 316, "draw": 16}


def test_positions_are_ordered_and_a_fresh_list_each_time() -> None:
    first = reachable_positions()
    assert first[0] == Board.empty()
    assert [b.move_count for b in first] == sorted(b.move_count for b in first)
    first.clear()
    assert len(reachable_positions()) == 5_478


def test_every_position_follows_from_one_with_a_mark_fewer() -> None:
    known = set(reachable_positions())
    for board in known:
        if board.move_count == 0:
            continue
        last = "O" if board.to_move == "X" else "X"
        text = board.to_string()
        parents = {
            Board.from_string(text[:cell] + "." + text[cell + 1 :])
            for cell, char in enumerate(text)
            if char == last and _valid(text[:cell] + "." + text[cell + 1 :])
        }
        assert any(p in known and not p.is_over and p.play(c) == board
                   for p in parents for c in p.empty_cells())


def _valid(text: str) -> bool:
    try:
        Board.from_string(text)
    except ValueError:
        return False
    return True
