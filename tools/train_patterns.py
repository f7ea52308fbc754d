"""Fit the gammas of the Go player's move features from recorded games (Coulom's MM).

What it learns from (`--corpus`): by default Pachi's self-play games, recorded by
`tools/go_corpus.py` in tests/data/go/pachi_games_<size>.json (a fixed number of playouts a
move, no random opening); or the GNU Go 3.8 self-play games in
tests/data/go/referee_games*.json (levels 1-3, made by `bench.go_referee generate`; each
game's random opening moves are skipped - their count is the first draw of
`random.Random(game number)`, as go_referee.py drew it); or both. Every move is a competition
that the move played won against every other candidate (`priors.position_features`: the
same candidates and features the search's priors see). Games numbered 9 mod 10 are held out
to measure how well the fitted gammas predict moves they were not fitted on.

The large spatial patterns (`priors.spatial_hashes`) are harvested first: every pattern,
of any size, that the training moves chose at least `--min-spatial` times enters the table;
then each candidate's spatial feature is the largest of its patterns in the table
(`spatial_column`, the numpy twin of `priors.spatial_feature`).

How: the generalized Bradley-Terry model - P(move) = gamma(move) / sum of the candidates',
gamma(move) the product of its features' gammas - fitted by minorization-maximization
(Hunter 2004, as Coulom 2007 applied it to Go), one feature group at a time, with Coulom's
prior (each feature value gets a virtual win and a virtual loss against a gamma of 1, so
rare values stay near 1, as unseen ones are). Deterministic: the same games give the same
file.

Run:
    .venv/bin/python -m tools.train_patterns          # rewrites app/engine/go/mcts/move_gammas.json
    .venv/bin/python -m tools.train_patterns --check  # exit 1 unless the file is what they give
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.engine.go.coords import PASS
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import priors
from app.engine.go.mcts.fastboard import padded_point
from app.engine.go.mcts.features import (
    GAMMA_FILE,
    GROUPS,
    build_spatial_table,
    pattern_keys,
    picture,
    spatial_key,
)
from app.engine.go.mcts.scratch import make_work
from bench.go_referee import MAX_OPENING

ROOT = Path(__file__).resolve().parent.parent

GNUGO_GAMES = sorted((ROOT / "tests" / "data" / "go").glob("referee_games*.json"))
PACHI_GAMES = sorted((ROOT / "tests" / "data" / "go").glob("pachi_games_*.json"))
ITERATIONS = 40  # MM sweeps over all the groups; the log-likelihood has settled well before
HELD_OUT = 9  # games whose number is this mod 10 are kept out of the fit
MAX_CANDIDATES = 19 * 19  # the largest board: no position has more candidates
MIN_SPATIAL = 4  # a spatial pattern enters the table once chosen this often in training

Array = npt.NDArray[np.int64]


@dataclass
class Competitions:
    """Every position as a block of candidate rows: `features` (rows x groups of feature
    indices: the four `move_features` groups, the spatial pattern, then the 3x3 pattern),
    `position` (the block of each row) and `chosen` (the row that was played, one per
    position)."""

    features: Array
    position: Array
    chosen: Array


@dataclass
class Positions:
    """What `collect` reads from the games before the spatial table is known: the rows of
    `Competitions` without the spatial column, and every candidate's spatial hashes."""

    competitions: Competitions
    hashes: Array  # rows x N_SPATIAL_SIZES


def opening_moves(path: Path, number: int) -> int:
    """How many random moves the game's generator played before the engine took over:
    go_referee.py draws them for GNU Go's games; Pachi's self-play has none."""
    if path in PACHI_GAMES:
        return 0
    return random.Random(number).randint(0, MAX_OPENING)


def collect(paths: list[Path], held_out: bool, index: dict[int, int]) -> Positions:
    """The positions of the training games (or of the held-out ones); 3x3 pattern keys are
    numbered in `index` in the order first seen (key -> index after the spatial patterns)."""
    keys = pattern_keys()
    empty = build_spatial_table([])
    rows: list[Array] = []
    hashes: list[Array] = []
    positions: list[Array] = []
    chosen: list[int] = []
    out = np.zeros((MAX_CANDIDATES, priors.FEATURE_COLUMNS), np.int64)
    total = 0
    for path in paths:
        for game in json.loads(path.read_text())["games"]:
            if (game["number"] % 10 == HELD_OUT) != held_out:
                continue
            size = game["size"]
            board = fb.new_board(size)
            work = make_work(board)
            skip = opening_moves(path, game["number"])
            for number, move in enumerate(game["moves"]):
                point = padded_point(move, size)
                if number >= skip and point != PASS:
                    count = priors.position_features(board, work, empty, out)
                    hit = np.flatnonzero(out[:count, 0] == point)
                    if count and hit.size:  # (an own-eye fill is no candidate: skipped)
                        color = int(board[fb.META, fb.M_TOMOVE])
                        block = np.empty((count, 5), np.int64)
                        block[:, :4] = out[:count, 2:6]
                        for r, key in enumerate(keys[color - 1, out[:count, 1]]):
                            block[r, 4] = index.setdefault(int(key), len(index))
                        rows.append(block)
                        hashes.append(out[:count, priors.FEATURE_HASHES :].copy())
                        positions.append(np.full(count, len(chosen), np.int64))
                        chosen.append(total + int(hit[0]))
                        total += count
                if point == PASS:
                    fb.pass_move(board)
                else:
                    fb.play(board, point, int(board[fb.META, fb.M_TOMOVE]))
    return Positions(Competitions(np.concatenate(rows), np.concatenate(positions),
                                  np.array(chosen, np.int64)), np.concatenate(hashes))


def harvest(positions: Positions, minimum: int = MIN_SPATIAL) -> list[tuple[int, int]]:
    """The spatial patterns chosen at least `minimum` times, as (hash, size), most often
    first (ties by hash), at most N_SPATIAL_MAX of them: the table's patterns."""
    chosen = positions.hashes[positions.competitions.chosen]
    found: list[tuple[int, int, int]] = []
    for column, size in enumerate(priors.SPATIAL_SIZES):
        values, counts = np.unique(chosen[:, column], return_counts=True)
        found += [(-int(c), int(v), size) for v, c in zip(values, counts, strict=True)
                  if c >= minimum]
    return [(h, size) for _, h, size in sorted(found)[: priors.N_SPATIAL_MAX]]


def spatial_column(hashes: Array, table: list[tuple[int, int]]) -> Array:
    """Each row's spatial feature index, as `priors.spatial_feature` finds it in the table
    of these patterns: the largest size whose hash is there, else F_SPATIAL."""
    lookup = np.array([h for h, _ in table], np.int64)
    order = np.argsort(lookup)
    column = np.full(hashes.shape[0], priors.F_SPATIAL, np.int64)
    if not lookup.size:
        return column
    for size in range(hashes.shape[1]):  # smallest first: a larger match overwrites it
        where = np.searchsorted(lookup[order], hashes[:, size]).clip(0, lookup.size - 1)
        found = lookup[order][where] == hashes[:, size]
        column[found] = priors.F_SPATIAL + 1 + order[where[found]]
    return column


def first_pattern(table: list[tuple[int, int]]) -> int:
    """The gamma index of the first 3x3 pattern: they follow the table's spatial patterns."""
    return priors.F_SPATIAL + 1 + len(table)


def competitions(positions: Positions, table: list[tuple[int, int]]) -> Competitions:
    """The competitions with the spatial column filled in and the 3x3 patterns moved past the
    spatial patterns' indices (`first_pattern` onwards)."""
    data = positions.competitions
    features = np.empty((data.features.shape[0], 6), np.int64)
    features[:, :4] = data.features[:, :4]
    features[:, 4] = spatial_column(positions.hashes, table)
    features[:, 5] = first_pattern(table) + data.features[:, 4]
    return Competitions(features, data.position, data.chosen)


def fit(data: Competitions, size: int, iterations: int = ITERATIONS) -> npt.NDArray[np.float64]:
    """The gamma vector (length `size`) maximizing the likelihood of the chosen moves, by MM
    with a prior of one win and one loss against gamma 1 for every feature value."""
    gamma = np.ones(size, np.float64)
    wins = np.bincount(data.features[data.chosen].ravel(), minlength=size).astype(np.float64)
    for _ in range(iterations):
        for group in range(data.features.shape[1]):
            strength = np.prod(gamma[data.features], axis=1)
            total = np.bincount(data.position, strength)
            column = data.features[:, group]
            share = strength / gamma[column] / total[data.position]
            present = np.bincount(column, share, minlength=size)
            touched = np.zeros(size, bool)
            touched[column] = True
            gamma[touched] = (wins[touched] + 1.0) / (
                present[touched] + 2.0 / (gamma[touched] + 1.0))
    return gamma


def evaluate(data: Competitions, gamma: npt.NDArray[np.float64]) -> tuple[float, float]:
    """(share of positions where the chosen move has the highest gamma, mean log-likelihood
    per position) - the measure of how well the features predict the moves."""
    strength = np.prod(gamma[data.features], axis=1)
    total = np.bincount(data.position, strength)
    best = np.full(total.size, -1.0)
    np.maximum.at(best, data.position, strength)
    ties = np.bincount(data.position, strength >= best[data.position])
    top = float(np.mean((strength[data.chosen] >= best) / ties))
    loglik = float(np.mean(np.log(strength[data.chosen] / total)))
    return top, loglik


def weights(gamma: npt.NDArray[np.float64], index: dict[int, int],
            table: list[tuple[int, int]], sources: list[Path]) -> dict[str, object]:
    """The weights file's content: each group's gammas, the seen 3x3 patterns by picture and
    the spatial patterns by `spatial_key`, in table order."""
    names = ", ".join(path.name for path in sources)
    result: dict[str, object] = {
        "source": f"tools/train_patterns.py: Coulom's MM on {names} in tests/data/go/ "
                  "(game number 9 mod 10 held out)",
    }
    for name, (offset, length) in GROUPS.items():
        result[name] = [round(float(g), 4) for g in gamma[offset : offset + length]]
    result["pattern"] = {
        picture(key): round(float(gamma[first_pattern(table) + i]), 4)
        for key, i in sorted(index.items())
    }
    result["spatial"] = {
        spatial_key(size, h): round(float(gamma[priors.F_SPATIAL + 1 + k]), 4)
        for k, (h, size) in enumerate(table)
    }
    return result


def vector(data: dict[str, object], index: dict[int, int], table: list[tuple[int, int]],
           size: int) -> npt.NDArray[np.float64]:
    """A weights file's gammas laid out as `fit` lays them out (unseen 3x3 patterns 1)."""
    gamma = np.ones(size, np.float64)
    for name, (offset, length) in GROUPS.items():
        gamma[offset : offset + length] = data[name]  # type: ignore[index]
    spatial: dict[str, float] = data["spatial"]  # type: ignore[assignment]
    for k, g in enumerate(spatial.values()):
        gamma[priors.F_SPATIAL + 1 + k] = g
    patterns: dict[str, float] = data["pattern"]  # type: ignore[assignment]
    for key, i in index.items():
        gamma[first_pattern(table) + i] = patterns.get(picture(key), 1.0)
    return gamma


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="refit and compare with the committed file instead of writing it")
    parser.add_argument("--output", type=Path, default=GAMMA_FILE)
    parser.add_argument("--corpus", choices=("pachi", "gnugo", "both"), default="pachi",
                        help="whose games to learn from (default: Pachi's self-play)")
    parser.add_argument("--min-spatial", type=int, default=MIN_SPATIAL,
                        help="times a spatial pattern must be chosen to enter the table")
    args = parser.parse_args()
    if not 1 <= args.min_spatial <= 1_000_000:
        parser.error("--min-spatial must be 1-1000000: a pattern enters once chosen that often")
    sources = {"pachi": PACHI_GAMES, "gnugo": GNUGO_GAMES,
               "both": PACHI_GAMES + GNUGO_GAMES}[args.corpus]
    began = time.perf_counter()
    index: dict[int, int] = {}
    train_positions = collect(sources, held_out=False, index=index)
    table = harvest(train_positions, args.min_spatial)
    train = competitions(train_positions, table)
    test_index: dict[int, int] = {}
    test_positions = collect(sources, held_out=True, index=test_index)
    test = competitions(test_positions, table)
    size = first_pattern(table) + len(index)
    print(f"{train.chosen.size} training positions ({train.features.shape[0]} candidate moves),"
          f" {test.chosen.size} held out, {len(index)} 3x3 patterns, {len(table)}"
          f" spatial patterns; read in {time.perf_counter() - began:.0f} s")
    gamma = fit(train, size)
    content = weights(gamma, index, table, sources)
    # The held-out games are read with their own 3x3 numbering: map it through the file.
    test_size = first_pattern(table) + len(test_index)
    test_gamma = vector(content, test_index, table, test_size)
    uniform = float(np.mean(-np.log(np.bincount(test.position))))
    top, loglik = evaluate(test, test_gamma)
    print(f"held out: the first choice is the move played in {top:.1%} of positions; "
          f"log-likelihood {loglik:.3f} a move (uniform over the candidates {uniform:.3f})")
    text = json.dumps(content, indent=1) + "\n"
    if args.check:
        same = args.output.exists() and args.output.read_text() == text
        print(f"{args.output}: {'what the games give' if same else 'DIFFERS from a refit'}")
        return 0 if same else 1
    args.output.write_text(text)
    print(f"wrote {args.output} in {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
