"""Go engine speed: moves per second and random playouts per second, on 9x9 and 19x19.

Three figures per size, each the median of ROUNDS rounds:
- board moves/s: random legal moves applied with `Board.play` (chains and liberty sets kept
  incrementally; simple ko only) - the raw move application;
- game moves/s: the same moves through `Game.play` (vertex parsing, turn, positional superko);
- playouts/s: random legal non-eye-filling playouts from the empty board to two passes
  (`playout.playout`, the Monte-Carlo fast path), with the playout moves/s beside it.
The move sequences are recorded once (from seeded playouts) so every round replays the same
games. Run: .venv/bin/python -m bench.go_moves
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from app.engine.go import BLACK, PASS, Board, Game
from app.engine.go.coords import vertex
from app.engine.go.playout import playout, random_move

ROUNDS = 5  # medians of five damp the noise of a shared machine
GAMES = {9: 40, 19: 6}  # recorded games per size: about 4,000 moves each
PLAYOUTS = {9: 200, 19: 20}  # playouts per round


def record_games(size: int, count: int, seed: int) -> list[list[int]]:
    """Move lists (points and passes) of `count` random games."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board, color, moves, passes = Board(size), BLACK, [], 0
        while passes < 2:
            point = random_move(board, color, rng)
            passes = passes + 1 if point == PASS else 0
            board.play(point, color)
            moves.append(point)
            color = 3 - color
        games.append(moves)
    return games


def board_rate(size: int, games: list[list[int]]) -> float:
    began = time.perf_counter()
    count = 0
    for moves in games:
        board, color = Board(size), BLACK
        for point in moves:
            board.play(point, color)
            color = 3 - color
        count += len(moves)
    return count / (time.perf_counter() - began)


def game_rate(size: int, games: list[list[str]]) -> float:
    began = time.perf_counter()
    count = 0
    for moves in games:
        game = Game(size)
        for move in moves:
            game.play(move)
        count += len(moves)
    return count / (time.perf_counter() - began)


def playout_rate(size: int, count: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    began = time.perf_counter()
    moves = 0
    for _ in range(count):
        moves += playout(Board(size), BLACK, rng)
    elapsed = time.perf_counter() - began
    return count / elapsed, moves / elapsed


def main() -> None:
    print(f"Go engine, pure Python {sys.version.split()[0]}; medians of {ROUNDS} rounds")
    print(f"{'size':>5} {'board moves/s':>14} {'game moves/s':>13} {'playouts/s':>11} "
          f"{'playout moves/s':>16}")
    for size in (9, 19):
        points = record_games(size, GAMES[size], seed=size)
        # Game.play gets the same games as vertices; a random game may revisit a position
        # (the playouts use the simple ko only), so keep the games the superko rule accepts.
        named = []
        for moves in points:
            names = [vertex(p, size) for p in moves]
            try:
                Game.from_moves(names, size)
            except ValueError:
                continue
            named.append(names[:-2])  # without the final two passes: no scoring phase
        boards, games, playouts, playout_moves = [], [], [], []
        for number in range(ROUNDS):
            boards.append(board_rate(size, points))
            games.append(game_rate(size, named))
            rate, moves = playout_rate(size, PLAYOUTS[size], seed=number)
            playouts.append(rate)
            playout_moves.append(moves)
        print(f"{size:>5} {statistics.median(boards):>14,.0f} {statistics.median(games):>13,.0f} "
              f"{statistics.median(playouts):>11,.1f} {statistics.median(playout_moves):>16,.0f}")


if __name__ == "__main__":
    main()
