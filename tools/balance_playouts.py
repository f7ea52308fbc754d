"""Fit the playout policy's coins by simulation balancing (issue 32; Huang, Coulom & Lin 2010).

The playouts judge a position by the share of them that black wins: its playout value V.
Simulation balancing asks the policy not to play well but to play *balanced* - errors that
cancel, so that V comes near the position's true value V*. Here V* is Pachi's win rate after a
deep search, the labels of bench/go_diagnostic.py (tests/data/go/diagnostic_9.json: 500 9x9
positions of our games against Pachi, each labelled at 50,000 playouts), and the parameters
are the policy's coins (`policy.coin`, tuning.COIN_NAMES): how often it answers ataris,
fights two-liberty chains, plays a 3x3 shape, refuses a lone stone's self-atari, redirects a
false-eye fill, keeps an eye from being made false, takes a vital point - and which shapes it
prefers: each of the 11 shape classes has its own coin (tuning.PROB_SHAPES), a shape picked
is played if its coin agrees, so classes are chosen in proportion to their coins. `--fit
shapes` fits only those, `--fit coins` only the first seven.

How (the paper's policy-gradient algorithm): each coin's probability is p = sigmoid(theta).
A playout's tosses have log-likelihood sum(heads * log p + tails * log(1 - p)), whose gradient
in theta is psi = heads * (1 - p) - tails * p (`score`). For a position, M playouts estimate
V and N others the gradient of V, mean((z - V) * psi) (the other playouts' V as baseline:
unbiased, as E[psi] = 0); the squared error (V* - V)^2 falls along (V* - V) * that gradient.
Each iteration averages that step over the training positions and moves theta by Adam
(Kingma & Ba), which sets the step's size from the gradients' own scale. Every 10th position
is held out: the error on those says whether the fit generalises. The errors are measured
with the same seed before and after, from more playouts than a step uses.

The playouts are the search's: from the position as it is, heavy, learning last good replies
from each other (a fresh table for each position's batch, as a new search starts with), and
throwing stones in once the board is half full (tuning.THROW_INS_EMPTY_SHARE).

Run (prints the fitted probabilities, to carry into tuning.py by hand if a match agrees):
    .venv/bin/python -m tools.balance_playouts --labels tests/data/go/diagnostic_9.json
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.engine.go import Game
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import policy, warm_up
from app.engine.go.mcts.jit import Floats, Ints
from app.engine.go.mcts.patterns import pattern_table
from app.engine.go.mcts.player import array_board
from app.engine.go.mcts.scratch import make_work
from app.engine.go.mcts.tuning import (
    C_SHAPES,
    COIN_NAMES,
    NCOINS,
    P_COINS,
    THROW_INS_EMPTY_SHARE,
    make_params,
)
from bench.go_diagnostic import load_labels

LOWEST, HIGHEST = 0.01, 0.99  # no coin is fitted to certainty: the policy keeps its variety


@dataclass(frozen=True)
class Target:
    """A labelled position as the playouts see it: the array board, and black's true win
    rate."""

    board: Ints
    black_value: float
    komi: float
    throw_ins: bool


def targets(path: Path, count: int) -> list[Target]:
    """The first `count` labelled positions of `path` (bench.go_diagnostic's file)."""
    _, _, rows = load_labels(path)
    found = []
    for row in rows[:count]:
        position = row.position
        game = Game.from_moves(list(position.moves), position.size, position.komi)
        board = array_board(game)
        black_to_move = game.to_move == "black"
        late = board[fb.META, fb.M_NEMPTY] <= THROW_INS_EMPTY_SHARE * position.size ** 2
        found.append(Target(board, row.label if black_to_move else 1.0 - row.label,
                            position.komi, bool(late)))
    return found


def score(coins: Ints, probabilities: Floats) -> Floats:
    """psi: each playout's gradient of the log-likelihood of its tosses in each coin's logit
    (coins: a row per playout, heads and tails of each coin in turn)."""
    heads = coins[:, 0::2].astype(np.float64)
    tails = coins[:, 1::2].astype(np.float64)
    return heads * (1.0 - probabilities) - tails * probabilities


def playouts(target: Target, probabilities: Floats, count: int, rng: np.ndarray,
             pat3: np.ndarray) -> tuple[Floats, Ints]:
    """`count` playouts from the target with these coins: (black's results, tosses)."""
    params = make_params(target.komi, int(target.board[fb.META, fb.M_SIZE]))
    params[P_COINS : P_COINS + NCOINS] = probabilities
    results = np.zeros(count, np.float64)
    coins = np.zeros((count, 2 * NCOINS), np.int64)
    policy.balance_playouts(target.board, rng, pat3, make_work(target.board), params,
                            np.bool_(True), np.bool_(target.throw_ins), results, coins)
    return results, coins


def balance_step(label: float, value_results: Floats, results: Floats, coins: Ints,
                 probabilities: Floats) -> Floats:
    """One position's step in the coins' logits that lowers (label - V)^2: V from
    `value_results`, its gradient from the other playouts (`results`, `coins`)."""
    value = float(value_results.mean())
    gradient = ((results - value)[:, None] * score(coins, probabilities)).mean(axis=0)
    return (label - value) * gradient


def squared_error(chosen: list[Target], probabilities: Floats, count: int, seed: int,
                  pat3: np.ndarray) -> float:
    """Mean (V* - V)^2 over the positions, V from `count` playouts each (fixed seed)."""
    rng = np.array([seed], np.uint64)
    errors = [(t.black_value - playouts(t, probabilities, count, rng, pat3)[0].mean()) ** 2
              for t in chosen]
    return float(np.mean(errors))


def logit(p: Floats) -> Floats:
    return np.log(p / (1.0 - p))


def sigmoid(theta: Floats) -> Floats:
    """The coins' probabilities from their logits (`logit`'s inverse)."""
    return np.asarray(1.0 / (1.0 + np.exp(-theta)), np.float64)


def fit(train: list[Target], start: Floats, iterations: int, value_playouts: int,
        gradient_playouts: int, rate: float, seed: int, pat3: np.ndarray,
        free: np.ndarray | None = None) -> Floats:
    """The coins after `iterations` steps of simulation balancing on `train` from `start`;
    only the coins where `free` is True move (all of them by default): the others keep their
    value exactly (a shape's coin at 1 stays 1, not the fit's 0.99)."""
    if free is None:
        free = np.full(NCOINS, True)
    theta = logit(np.clip(start, LOWEST, HIGHEST))
    first, second = np.zeros(NCOINS), np.zeros(NCOINS)  # Adam's moment estimates
    beta1, beta2 = 0.9, 0.999
    rng = np.array([seed], np.uint64)
    for step in range(1, iterations + 1):
        probabilities = np.where(free, sigmoid(theta), start)
        total = np.zeros(NCOINS)
        for target in train:
            value_results, _ = playouts(target, probabilities, value_playouts, rng, pat3)
            results, coins = playouts(target, probabilities, gradient_playouts, rng, pat3)
            total += balance_step(target.black_value, value_results, results, coins,
                                  probabilities)
        gradient = total / len(train)  # ascent direction: lowers the squared error
        first = beta1 * first + (1 - beta1) * gradient
        second = beta2 * second + (1 - beta2) * gradient**2
        moved = rate * (first / (1 - beta1**step)) / (np.sqrt(second / (1 - beta2**step)) + 1e-12)
        theta = np.where(free, np.clip(theta + moved, logit(np.array(LOWEST)),
                                       logit(np.array(HIGHEST))), theta)
        shown = ", ".join(f"{p:.3f}" for p in np.where(free, sigmoid(theta), start))
        print(f"step {step:3d}: coins {shown}", flush=True)
    return np.asarray(np.where(free, sigmoid(theta), start), np.float64)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, required=True,
                        help="labelled positions (bench.go_diagnostic's --labels file)")
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--iterations", type=int, default=30,
                        help="steps of the fit (0: only measure the errors of --start)")
    parser.add_argument("--start", help="the coins to start from, comma-separated in "
                        "tuning.COIN_NAMES order: all of them, or the first seven and the "
                        "shapes' from tuning.py (default: tuning.py's)")
    parser.add_argument("--fit", choices=("all", "coins", "shapes"), default="all",
                        help="which coins move: all, the first seven, or the shapes' "
                        "(default all)")
    parser.add_argument("--value-playouts", type=int, default=64,
                        help="playouts a step's V of a position comes from")
    parser.add_argument("--gradient-playouts", type=int, default=64,
                        help="playouts a step's gradient of a position comes from")
    parser.add_argument("--check-playouts", type=int, default=400,
                        help="playouts a position's V comes from in the errors reported")
    parser.add_argument("--rate", type=float, default=0.1, help="Adam's step in the logits")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 10 <= args.positions <= 5000 or not 0 <= args.iterations <= 1000:
        parser.error("--positions must be 10-5000 and --iterations 0-1000")
    start = make_params(7.5)[P_COINS : P_COINS + NCOINS].copy()
    if args.start is not None:
        try:
            given = np.array([float(p) for p in args.start.split(",")], np.float64)
        except ValueError:
            parser.error("--start takes probabilities separated by commas, e.g. "
                         "0.9,0.9,0.95,0.5,0.6,1,0.8")
        if (given.shape not in ((C_SHAPES,), (NCOINS,))
                or not np.all((given >= 0.0) & (given <= 1.0))):
            parser.error(f"--start takes {C_SHAPES} or {NCOINS} probabilities between 0 "
                         f"and 1 ({', '.join(COIN_NAMES)})")
        start[: len(given)] = given
    index = np.arange(NCOINS)
    free = {"all": index >= 0, "coins": index < C_SHAPES, "shapes": index >= C_SHAPES}[args.fit]
    for name in ("value_playouts", "gradient_playouts", "check_playouts"):
        if not 2 <= getattr(args, name) <= 100_000:
            parser.error(f"--{name.replace('_', '-')} must be 2-100000")
    if not 0.0 < args.rate <= 2.0:
        parser.error("--rate must be in (0, 2]")
    warm_up()
    pat3 = pattern_table()
    chosen = targets(args.labels, args.positions)
    train = [t for i, t in enumerate(chosen) if i % 10 != 9]
    held = [t for i, t in enumerate(chosen) if i % 10 == 9]
    print(f"{len(train)} positions to fit, {len(held)} held out; coins: "
          + ", ".join(f"{n} {p:.3f}" for n, p in zip(COIN_NAMES, start, strict=True)))
    began = time.perf_counter()
    before = [squared_error(part, start, args.check_playouts, args.seed, pat3)
              for part in (train, held)]
    fitted = start
    if args.iterations > 0:
        fitted = fit(train, start, args.iterations, args.value_playouts,
                     args.gradient_playouts, args.rate, args.seed, pat3, free)
    after = [squared_error(part, fitted, args.check_playouts, args.seed, pat3)
             for part in (train, held)]
    print(f"\nmean (V* - V)^2, V from {args.check_playouts} playouts: fitted positions "
          f"{before[0]:.4f} -> {after[0]:.4f}, held out {before[1]:.4f} -> {after[1]:.4f} "
          f"({time.perf_counter() - began:.0f} s)")
    for name, old, new in zip(COIN_NAMES, start, fitted, strict=True):
        print(f"{name} = {new:.2f}  # was {old:.2f}")
    print("tuning.py: PROB_SHAPES = ("
          + ", ".join(f"{p:.2f}" for p in fitted[C_SHAPES:]) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
