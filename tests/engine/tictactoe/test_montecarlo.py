"""The Monte Carlo player: not perfect, but it wins, blocks and beats a random player."""

from __future__ import annotations

import random

import pytest

from app.engine.tictactoe import Board, get_strategy
from app.engine.tictactoe.montecarlo import MONTECARLO_PLAYOUTS, MonteCarloStrategy, playout


def test_default_playouts_and_validation() -> None:
    assert MonteCarloStrategy().playouts == MONTECARLO_PLAYOUTS
    assert str(MONTECARLO_PLAYOUTS) in MonteCarloStrategy().description
    assert MonteCarloStrategy(10).playouts == 10
    for bad in (0, -5, True, 2.5):
        with pytest.raises(ValueError):
            MonteCarloStrategy(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "win"), [("XX.OO....", 2), ("XOX.O.X..", 7), ("XO..XO...", 8)])
def test_takes_an_immediate_win(text: str, win: int) -> None:
    board = Board.from_string(text)
    for seed in range(10):
        assert get_strategy("montecarlo").choose(board, random.Random(seed)).cell == win


@pytest.mark.parametrize(
    ("text", "block"),
    [
        ("XX..O....", 2),
        ("XO..X....", 8),
        ("X.X.O....", 1),
        ("O...X..X.", 1),
        ("X...O.X..", 3),
        ("XXO.O.X..", 3),
    ],
)
def test_blocks_an_obvious_loss(text: str, block: int) -> None:
    board = Board.from_string(text)
    strategy = get_strategy("montecarlo")
    for seed in range(10):
        assert strategy.choose(board, random.Random(seed)).cell == block


def test_playout_scores_from_the_first_players_side() -> None:
    # `me` = X on 0 and 1, `them` = O to move with 2 left: O must take 2 or X wins next.
    me, them = 0b000000011, 0b000011000
    rng = random.Random(0)
    results = {playout(me, them, [1 << c for c in (2, 5, 6, 7, 8)], rng) for _ in range(300)}
    assert results <= {-1, 0, 1} and 1 in results and -1 in results


def test_beats_a_random_player_most_of_the_time() -> None:
    rng = random.Random(11)
    mc = MonteCarloStrategy(100)
    rnd = get_strategy("random")
    wins = losses = 0
    games = 60
    for game in range(games):
        mc_mark = "X" if game % 2 == 0 else "O"
        board = Board.empty()
        while not board.is_over:
            player = mc if board.to_move == mc_mark else rnd
            board = board.play(player.choose(board, rng).cell)
        wins += board.winner == mc_mark
        losses += board.winner not in (None, mc_mark)
    assert wins >= 0.7 * games
    assert losses <= 0.1 * games
