"""The learned move predictor: input planes from the array board, and a small residual
network run in numpy (no PyTorch at play time). Start with `Network.predict`.

`input_planes` describes the position for the side to move, one n x n plane each:

    0 own stones         3-5 own chains with 1, 2, >= 3 liberties     9 the last move
    1 the opponent's     6-8 the opponent's with 1, 2, >= 3           10 the move before
    2 empty points       11 the simple-ko point (forbidden to the side to move)
                         12 every point (the network's zero padding marks the edge)
                         13 the legal moves that fill no own eye (`priors.candidate`)
                         14 today's priors: each move's probability by the trained move
                            features (`prior_probabilities`), on a log scale (`prior_plane`)

The network (trained by tools/train_policy.py on the games tools/go_corpus.py records) is
fully convolutional, so one set of weights serves every board size: a 3x3 stem, residual
blocks of two 3x3 convolutions (batch norm folded into them at export), a 1x1 policy head
giving a logit per point, a pass logit from the trunk's mean, and a 1x1 ownership head
(tanh: +1 the side to move's, -1 the opponent's).

The network learns a correction to today's priors rather than a rival to them: to each
point's logit it adds a learnt multiple (`prior.weight`) of the log-probability the move
features give it, so before training it already predicts as they do, and the trunk (which
sees plane 14 too) learns where they are wrong. The search blends the network with those
priors anyway; learning the blend is better than guessing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..board import EMPTY
from ..coords import PASS
from . import priors
from .fastboard import (
    COLOR,
    HEAD,
    M_KO,
    M_LAST,
    M_LAST2,
    M_SIZE,
    M_TOMOVE,
    M_WIDTH,
    META,
    chain_liberties,
)
from .jit import Ints, kernel
from .priors import candidate
from .scratch import make_work

PLANES = 15
PRIOR = 14  # the plane of today's priors
PRIOR_FLOOR = 1e-6  # the probability at which the prior plane reads 0, as it does off the moves
LOG_FLOOR = -float(np.log(PRIOR_FLOOR))
SYMMETRIES = 8  # the board's quarter turns, each with and without a reflection
Planes = npt.NDArray[np.float32]


@kernel
def input_planes(b: Ints, out: Planes) -> None:
    """Fill out[:PRIOR, :n, :n] with the position `b` as the side to move sees it (rows from
    the top, as the engine numbers points); the last plane is `prior_plane`'s."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    color = b[META, M_TOMOVE]
    out[:PRIOR, :size, :size] = 0.0
    libs = np.zeros(3, np.int64)
    mask = np.zeros(1, np.int64)
    for row in range(size):
        for column in range(size):
            p = (row + 1) * w + column + 1
            c = b[COLOR, p]
            out[12, row, column] = 1.0
            if c == EMPTY:
                out[2, row, column] = 1.0
                if candidate(b, p, color, mask, False):
                    out[13, row, column] = 1.0
                continue
            own = c == color
            out[0 if own else 1, row, column] = 1.0
            n = chain_liberties(b, b[HEAD, p], libs)
            out[(3 if own else 6) + min(n, 3) - 1, row, column] = 1.0
    for plane, slot in ((9, M_LAST), (10, M_LAST2), (11, M_KO)):
        p = b[META, slot]
        if p != PASS:
            out[plane, p // w - 1, p % w - 1] = 1.0


def prior_probabilities(b: Ints, work: Ints, out: Ints) -> tuple[Ints, npt.NDArray[np.float64]]:
    """Today's priors' view of the position: the candidate moves (padded points) and each
    one's probability by the trained move features (Coulom's MM gammas: the 3x3 pattern, the
    four move features, the large spatial pattern), as `priors.move_priors` weighs them.
    `work` is the board's scratch (`scratch.make_work`), `out` a (points, FEATURE_COLUMNS)
    array of int64."""
    # Imported here, not above: this module defines a kernel, and every module a kernel
    # module imports at its top joins the compiled code's digest (jit.kernel_sources), so an
    # edit to the Python-only features.py would compile everything afresh.
    from .features import gamma_table, spatial_table

    count = priors.position_features(b, work, spatial_table(), out)
    gammas = gamma_table()
    color = int(b[META, M_TOMOVE])
    rows = out[:count]
    strength = gammas[color - 1, rows[:, 1]] * gammas[2, rows[:, priors.FEATURE_SPATIAL]]
    for k in range(4):
        strength = strength * gammas[2, rows[:, 2 + k]]
    return rows[:, 0].copy(), strength / strength.sum()


def prior_plane(
    plane: Planes, size: int, points: Ints, probabilities: npt.NDArray[np.float64]
) -> None:
    """Fill `plane` (n x n) with the priors' probabilities as 1 + log(p) / LOG_FLOOR, clipped
    at 0: 1 for a certain move, 0 for a non-move or one below PRIOR_FLOOR."""
    plane[:size, :size] = 0.0
    w = size + 2
    logs = np.log(np.maximum(probabilities, PRIOR_FLOOR)) / LOG_FLOOR + 1.0
    plane[points // w - 1, points % w - 1] = logs


def position_planes(b: Ints) -> Planes:
    """All PLANES input planes of the position `b` (fresh scratch arrays: a caller that reads
    many positions keeps its own and calls `input_planes` and `prior_plane`)."""
    return _planes_and_priors(b)[0]


def _planes_and_priors(b: Ints) -> tuple[Planes, Ints, npt.NDArray[np.float64]]:
    """The input planes of `b`, and `prior_probabilities`' candidates and probabilities."""
    size = int(b[META, M_SIZE])
    planes = np.zeros((PLANES, size, size), np.float32)
    input_planes(b, planes)
    out = np.zeros((size * size, priors.FEATURE_COLUMNS), np.int64)
    points, probabilities = prior_probabilities(b, make_work(b), out)
    prior_plane(planes[PRIOR], size, points, probabilities)
    return planes, points, probabilities


def turned(planes: Planes, k: int) -> Planes:
    """`planes` (..., n, n) turned by the board's symmetry k (0-7): k % 4 quarter turns,
    then a transpose if k >= 4 - as tools/train_policy.symmetry turns its batches."""
    x = np.rot90(planes, k % 4, axes=(-2, -1))
    return np.swapaxes(x, -2, -1) if k >= 4 else x


def turned_back(board: npt.NDArray[np.float64], k: int) -> npt.NDArray[np.float64]:
    """`board` (n, n), read in symmetry k's frame, put back in the position's own."""
    x = np.swapaxes(board, -2, -1) if k >= 4 else board
    return np.rot90(x, -(k % 4), axes=(-2, -1))


@dataclass(frozen=True)
class Prediction:
    """The network's view of a position: `policy` a probability per point (rows from the
    top) and, last, for a pass; `ownership` per point, -1..1 for the side to move."""

    policy: npt.NDArray[np.float64]
    ownership: npt.NDArray[np.float64]


def _conv(x: Planes, weight: Planes, bias: Planes) -> Planes:
    """A same-padded 2-D convolution of x (channels, n, n) by weight (out, in, k, k)."""
    out_channels, in_channels, k, _ = weight.shape
    n = x.shape[1]
    pad = k // 2
    padded = np.zeros((in_channels, n + 2 * pad, n + 2 * pad), np.float32)
    padded[:, pad : pad + n, pad : pad + n] = x
    # im2col: one column per point, its k*k neighbourhood of every input channel.
    columns = np.empty((in_channels, k, k, n, n), np.float32)
    for dy in range(k):
        for dx in range(k):
            columns[:, dy, dx] = padded[:, dy : dy + n, dx : dx + n]
    result = weight.reshape(out_channels, -1) @ columns.reshape(in_channels * k * k, n * n)
    return (result + bias[:, None]).reshape(out_channels, n, n)


@cache
def load(path: Path) -> Network:
    """The network of the weights file at `path`, read once per process: the players of a
    process share it (it is never changed after loading)."""
    return Network(path)


class Network:
    """The trained weights (an .npz from tools/train_policy.py) and the forward pass."""

    def __init__(self, path: Path) -> None:
        with np.load(path) as data:
            self.weights = {name: data[name].astype(np.float32) for name in data.files}
        self.blocks = sum(1 for name in self.weights if name.endswith(".a.weight"))

    def predict(self, b: Ints, symmetries: int = 1) -> Prediction:
        """The move probabilities and ownership of the position `b`, the side to move's
        (averaged over `symmetries` turns of the board: see `forward`)."""
        return self.forward(position_planes(b), symmetries)

    def candidates(self, b: Ints, symmetries: int = 1
                   ) -> tuple[Ints, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The candidate moves of the position `b` (padded points, as `prior_probabilities`
        gives them), today's priors' probability of each, and the network's (averaged over
        `symmetries` turns), renormalised over the same moves."""
        planes, points, probabilities = _planes_and_priors(b)
        size = int(b[META, M_SIZE])
        w = size + 2
        policy = self.forward(planes, symmetries).policy
        mine = policy[(points // w - 1) * size + points % w - 1]
        return points, probabilities, mine / mine.sum()

    def forward(self, planes: Planes, symmetries: int = 1) -> Prediction:
        """The network on input planes of one position, averaged over the first
        `symmetries` of the board's 8 turns: the network is not exactly symmetric, and the
        average of all 8 predicts better than one (docs/benchmarks.md) at 8 times the cost."""
        if not 1 <= symmetries <= SYMMETRIES:
            raise ValueError(f"symmetries must be 1-{SYMMETRIES}, not {symmetries}")
        size = planes.shape[1]
        policy = np.zeros(size * size + 1)
        ownership = np.zeros((size, size))
        for k in range(symmetries):
            one = self._forward_once(np.ascontiguousarray(turned(planes, k)))
            policy[:-1] += turned_back(one.policy[:-1].reshape(size, size), k).reshape(-1)
            policy[-1] += one.policy[-1]
            ownership += turned_back(one.ownership.reshape(size, size), k)
        return Prediction(policy / symmetries, (ownership / symmetries).reshape(-1))

    def _forward_once(self, planes: Planes) -> Prediction:
        weights = self.weights
        x = np.maximum(_conv(planes, weights["stem.weight"], weights["stem.bias"]), 0.0)
        for block in range(self.blocks):
            name = f"block{block}"
            y = np.maximum(_conv(x, weights[f"{name}.a.weight"], weights[f"{name}.a.bias"]), 0)
            y = _conv(y, weights[f"{name}.b.weight"], weights[f"{name}.b.bias"])
            x = np.maximum(x + y, 0.0)
        size = planes.shape[1]
        logits = _conv(x, weights["policy.weight"], weights["policy.bias"]).reshape(-1)
        # Today's priors' log-probability, LOG_FLOOR below it for a non-move, times the weight.
        logits += weights["prior.weight"][0] * (planes[PRIOR].reshape(-1) - 1.0) * LOG_FLOOR
        mean = x.reshape(x.shape[0], -1).mean(axis=1)
        pass_logit = float((weights["pass.weight"] @ mean)[0] + weights["pass.bias"][0])
        scores = np.concatenate([logits.astype(np.float64), [pass_logit]])
        scores -= scores.max()
        policy = np.exp(scores)
        policy /= policy.sum()
        owner = _conv(x, weights["ownership.weight"], weights["ownership.bias"]).reshape(-1)
        return Prediction(policy, np.tanh(owner.astype(np.float64)).reshape(size * size))
