"""Fit the gammas of the Go player's move features from GNU Go's games (Coulom's MM).

What it learns from: the GNU Go 3.8 self-play games recorded in tests/data/go/referee_games*.json
(9x9, 13x13 and 19x19, levels 1-3, made by `bench/go_referee.py generate`). Each game's random
opening moves are skipped (their count is the first draw of `random.Random(game number)`, as
go_referee.py drew it); every later move is a competition that the move GNU Go played won
against every other candidate (`fastboard.position_features`: the same candidates and
features the search's priors see). Games numbered 9 mod 10 are held out to measure how well
the fitted gammas predict moves they were not fitted on.

How: the generalized Bradley-Terry model - P(move) = gamma(move) / sum of the candidates',
gamma(move) the product of its features' gammas - fitted by minorization-maximization
(Hunter 2004, as Coulom 2007 applied it to Go), one feature group at a time, with Coulom's
prior (each feature value gets a virtual win and a virtual loss against a gamma of 1, so
rare values stay near 1, as unseen ones are). Deterministic: the same games give the same
file.

Run:
    .venv/bin/python bench/train_patterns.py          # rewrites app/engine/go/mcts/move_gammas.json
    .venv/bin/python bench/train_patterns.py --check  # exit 1 unless the file is what they give
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from go_referee import MAX_OPENING  # noqa: E402

from app.engine.go.mcts import fastboard as fb  # noqa: E402
from app.engine.go.mcts.features import GAMMA_FILE, GROUPS, pattern_keys, picture  # noqa: E402
from app.engine.go.mcts.player import padded_point  # noqa: E402
from app.engine.go.mcts.tree import make_work  # noqa: E402

GAMES = sorted((ROOT / "tests" / "data" / "go").glob("referee_games*.json"))
ITERATIONS = 40  # MM sweeps over all five groups; the log-likelihood has settled well before
HELD_OUT = 9  # games whose number is this mod 10 are kept out of the fit
MAX_CANDIDATES = 19 * 19  # the largest board: no position has more candidates

Array = npt.NDArray[np.int64]


@dataclass
class Competitions:
    """Every position as a block of candidate rows: `features` (rows x 5 feature indices:
    the four `move_features` groups, then the pattern), `position` (the block of each row) and
    `chosen` (the row GNU Go played, one per position)."""

    features: Array
    position: Array
    chosen: Array


def opening_moves(number: int) -> int:
    """How many random moves go_referee.py played before GNU Go took over in game `number`."""
    return random.Random(number).randint(0, MAX_OPENING)


def collect(held_out: bool) -> tuple[Competitions, dict[int, int]]:
    """The competitions of the training games (or of the held-out ones), with the pattern
    keys numbered in the order first seen: key -> index after fb.F_PATTERN."""
    keys = pattern_keys()
    index: dict[int, int] = {}
    rows: list[Array] = []
    positions: list[Array] = []
    chosen: list[int] = []
    out = np.zeros((MAX_CANDIDATES, 6), np.int64)
    total = 0
    for path in GAMES:
        for game in json.loads(path.read_text())["games"]:
            if (game["number"] % 10 == HELD_OUT) != held_out:
                continue
            size = game["size"]
            board = fb.new_board(size)
            work = make_work(board)
            skip = opening_moves(game["number"])
            for number, move in enumerate(game["moves"]):
                point = padded_point(move, size)
                if number >= skip and point != fb.PASS:
                    count = fb.position_features(board, work, True, out)
                    hit = np.flatnonzero(out[:count, 0] == point)
                    if count and hit.size:  # (an own-eye fill is no candidate: skipped)
                        color = int(board[fb.META, fb.M_TOMOVE])
                        block = np.empty((count, 5), np.int64)
                        block[:, :4] = out[:count, 2:6]
                        for r, key in enumerate(keys[color - 1, out[:count, 1]]):
                            block[r, 4] = fb.F_PATTERN + index.setdefault(int(key), len(index))
                        rows.append(block)
                        positions.append(np.full(count, len(chosen), np.int64))
                        chosen.append(total + int(hit[0]))
                        total += count
                if point == fb.PASS:
                    fb.pass_move(board)
                else:
                    fb.play(board, point, int(board[fb.META, fb.M_TOMOVE]))
    return Competitions(np.concatenate(rows), np.concatenate(positions),
                        np.array(chosen, np.int64)), index


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


def weights(gamma: npt.NDArray[np.float64], index: dict[int, int]) -> dict[str, object]:
    """The weights file's content: each group's gammas and the seen patterns by picture."""
    result: dict[str, object] = {
        "source": "bench/train_patterns.py: Coulom's MM on the GNU Go self-play games in "
                  "tests/data/go/referee_games*.json (game number 9 mod 10 held out)",
    }
    for name, (offset, length) in GROUPS.items():
        result[name] = [round(float(g), 4) for g in gamma[offset : offset + length]]
    result["pattern"] = {
        picture(key): round(float(gamma[fb.F_PATTERN + i]), 4)
        for key, i in sorted(index.items())
    }
    return result


def vector(data: dict[str, object], index: dict[int, int], size: int) -> npt.NDArray[np.float64]:
    """A weights file's gammas laid out as `fit` lays them out (unseen patterns 1)."""
    gamma = np.ones(size, np.float64)
    for name, (offset, length) in GROUPS.items():
        gamma[offset : offset + length] = data[name]  # type: ignore[index]
    patterns: dict[str, float] = data["pattern"]  # type: ignore[assignment]
    for key, i in index.items():
        gamma[fb.F_PATTERN + i] = patterns.get(picture(key), 1.0)
    return gamma


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="refit and compare with the committed file instead of writing it")
    parser.add_argument("--output", type=Path, default=GAMMA_FILE)
    args = parser.parse_args()
    began = time.perf_counter()
    train, index = collect(held_out=False)
    test, test_index = collect(held_out=True)
    size = fb.F_PATTERN + len(index)
    print(f"{train.chosen.size} training positions ({train.features.shape[0]} candidate moves),"
          f" {test.chosen.size} held out, {len(index)} patterns;"
          f" read in {time.perf_counter() - began:.0f} s")
    gamma = fit(train, size)
    content = weights(gamma, index)
    # The held-out games are read with their own pattern numbering: map it through the file.
    test_size = fb.F_PATTERN + len(test_index)
    test_gamma = vector(content, test_index, test_size)
    uniform = float(np.mean(-np.log(np.bincount(test.position))))
    top, loglik = evaluate(test, test_gamma)
    print(f"held out: the first choice is GNU Go's move in {top:.1%} of positions; "
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
