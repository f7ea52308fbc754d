"""The human-like rules player: perfect from every reachable position, for either side.

The exhaustive tests are the proof; the named positions show the rules a person would recognise
and the traps the seed article's player fell into.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

from app.engine.tictactoe import Board, get_strategy
from app.engine.tictactoe.rules import decide

# `oracle` and `live_positions` are fixtures from conftest.py.
Oracle = Any


def test_every_candidate_of_every_rule_is_a_best_move(
    live_positions: list[Board], oracle: Oracle
) -> None:
    """Stronger than checking one random choice: all cells a rule allows are tied-best, so the
    player never loses a drawable position, never misses a forced win, takes the fastest win
    and the slowest loss - in all 4,520 positions."""
    for board in live_positions:
        text = board.to_string()
        decision = decide(board)
        assert decision.cells, board
        values = oracle.move_values(text)
        for cell in decision.cells:
            assert values[cell] == oracle.best_value(text), (board, decision)


def test_rules_against_every_opponent_from_every_position(
    live_positions: list[Board], oracle: Oracle
) -> None:
    """Brute force: the rules player moves (any cell its rule allows), the opponent tries every
    reply, to the end of every game. Its worst result equals the perfect-play value."""

    @cache
    def worst(text: str, rules_mark: str) -> tuple[str, int]:
        board = Board.from_string(text)
        rules_to_move = board.to_move == rules_mark
        cells = decide(board).cells if rules_to_move else tuple(board.empty_cells())
        results = []
        for cell in cells:
            after = board.play(cell)
            if after.winner is not None:
                results.append(("win" if rules_to_move else "loss", 1))
            elif after.is_full:
                results.append(("draw", 1))
            else:
                outcome, plies = worst(after.to_string(), rules_mark)
                results.append((outcome, plies + 1))
        return min(results, key=oracle.rank)

    for board in live_positions:
        text = board.to_string()
        assert worst(text, board.to_move) == oracle.best_value(text), board


def test_every_rule_is_used_somewhere(live_positions: list[Board]) -> None:
    used = Counter(decide(board).rule for board in live_positions)
    assert set(used) == {
        "win",
        "block",
        "fork",
        "combination",
        "block the fork",
        "two in a row that blocks every fork",
        "two in a row to force a block",
        "centre",
        "opposite corner",
        "corner",
        "edge",
        "anything (lost)",
    }


@pytest.mark.parametrize(
    ("text", "rule", "cells"),
    [
        ("XX.OO....", "win", (2,)),  # its own line before blocking theirs
        ("XX..O....", "block", (2,)),
        (".........", "centre", (4,)),
        ("....X....", "corner", (0, 2, 6, 8)),  # O answers the centre with a corner
        # X corner, O centre, X opposite corner: O must not take a corner (X would fork);
        # any edge makes a two-in-a-row whose forced block gives X no fork.
        ("X...O...X", "two in a row to force a block", (1, 3, 5, 7)),
        # X holds two edges next to corner 2: the single fork point must be taken. The seed's
        # player, seeing fewer than 4 marks, takes the centre here and loses.
        (".X.O.X...", "block the fork", (2,)),
        ("X...O.X..", "block", (3,)),
        # X on 0 and 4: a mark on 3 threatens 5 and 6, a mark on 6 threatens 3 and 2.
        ("XO..X...O", "fork", (3, 6)),
    ],
)
def test_named_positions(text: str, rule: str, cells: tuple[int, ...]) -> None:
    decision = decide(Board.from_string(text))
    assert (decision.rule, decision.cells) == (rule, cells)


def test_combination_takes_the_shortest_forcing_line(
    live_positions: list[Board], oracle: Oracle
) -> None:
    combos = [b for b in live_positions if decide(b).rule == "combination"]
    assert combos
    for board in combos:
        outcome, plies = oracle.best_value(board.to_string())
        assert outcome == "win" and plies >= 5  # forks (3 plies) come first


def test_rules_play_either_side_after_a_random_opening(oracle: Oracle) -> None:
    """Mid-game switch: a random player opens, then the rules player takes one side and minimax
    the other. The game ends exactly as perfect play from the switch says it should."""
    rules = get_strategy("rules")
    minimax = get_strategy("minimax")
    randomly = get_strategy("random")
    rng = random.Random(3)
    flip = {"win": "loss", "loss": "win", "draw": "draw"}
    for game in range(300):
        board = Board.empty()
        for _ in range(rng.randrange(0, 5)):
            board = board.play(randomly.choose(board, rng).cell)
        if board.is_over:
            continue
        rules_moves_first = game % 2 == 0
        rules_mark = board.to_move if rules_moves_first else ("O" if board.to_move == "X" else "X")
        expected, _ = oracle.best_value(board.to_string())
        if not rules_moves_first:
            expected = flip[expected]
        while not board.is_over:
            player = rules if board.to_move == rules_mark else minimax
            board = board.play(player.choose(board, rng).cell)
        result = "draw" if board.winner is None else "win" if board.winner == rules_mark else "loss"
        assert result == expected
