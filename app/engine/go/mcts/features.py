"""The trained move features: what the priors know about a move before the search reads it.

Start with `gamma_table()`, the table `fastboard.expand` multiplies a move's strength from, and
`GAMMA_FILE`, the weights it is built from. A move is described by five features
(`fastboard.move_features` plus its 3x3 pattern): its tactical meaning (capture, escape,
self-atari, atari, ladder), its distance to the last two moves, its place on the board (its lines
from the two nearer edges) and whether the area around it is empty, and the 3x3 pattern around
it with colours seen from the player to move. Each feature value has a strength gamma; a move's
strength is the product of its features' gammas, and the probability that a strong player
chooses it is its strength over the sum of all candidates' (Coulom, "Computing Elo Ratings of
Move Patterns in the Game of Go", 2007).

The gammas are fitted by bench/train_patterns.py with Coulom's minorization-maximization from
the GNU Go self-play games recorded in tests/data/go/ (`python bench/train_patterns.py`
rewrites GAMMA_FILE reproducibly). Patterns are keyed in that file by their picture in the
canonical orientation, eight characters around the move in reading order (top-left, top,
top-right, left, right, bottom-left, bottom, bottom-right): X the player to move, O the
opponent, . empty, # off the board. "###.O.X." is a move on the first line, under the edge,
with an opponent stone to its right and an own stone below.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import fastboard as fb
from .patterns import NEIGHBOUR_ORDER

GAMMA_FILE = Path(__file__).with_name("move_gammas.json")

_SYMBOLS = ".XO#"  # 2-bit values relative to the mover: empty, own, opponent, edge

# Group names in the weights file and where each group starts in the gamma vector.
GROUPS: dict[str, tuple[int, int]] = {
    "tactic": (fb.F_TACTIC, fb.N_TACTICS),
    "distance": (fb.F_DIST, fb.N_DIST),
    "distance_before": (fb.F_DIST2, fb.N_DIST),
    "place": (fb.F_PLACE, fb.N_PLACE),
}


def _permutations() -> list[list[int]]:
    """For each of the 8 rotations and reflections, where each code slot's colour comes from."""
    result = []
    grid = [[(r, c) for c in range(3)] for r in range(3)]
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # rotate 90 degrees
        for variant in (grid, [row[::-1] for row in grid]):
            result.append([NEIGHBOUR_ORDER.index(variant[r][c]) for r, c in NEIGHBOUR_ORDER])
    return result


@cache
def canonical_codes() -> npt.NDArray[np.int64]:
    """For each 16-bit code seen from black to move (1 own, 2 opponent), the smallest code
    among its 8 rotations and reflections - one representative per shape."""
    codes = np.arange(1 << 16, dtype=np.int64)
    fields = [(codes >> (2 * k)) & 3 for k in range(8)]
    best = np.full(1 << 16, 1 << 16, np.int64)
    for source in _permutations():
        variant = sum((fields[source[k]] << (2 * k) for k in range(8)), np.zeros_like(codes))
        best = np.minimum(best, variant)
    return best


def swap_colours(code: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The codes with black and white exchanged (edges and empty points stay)."""
    fields = [(code >> (2 * k)) & 3 for k in range(8)]
    swapped = [np.where(f == 1, 2, np.where(f == 2, 1, f)) for f in fields]
    return sum((f << (2 * k) for k, f in enumerate(swapped)), np.zeros_like(code))


@cache
def pattern_keys() -> npt.NDArray[np.int64]:
    """Shape (2, 65536): the canonical code (relative to the mover) of every board code, for
    black to move (row 0) and white to move (row 1). Read-only."""
    canonical = canonical_codes()
    codes = np.arange(1 << 16, dtype=np.int64)
    keys = np.stack([canonical, canonical[swap_colours(codes)]])
    keys.flags.writeable = False
    return keys


def picture(key: int) -> str:
    """A canonical code as the 8-character picture of the weights file."""
    return "".join(_SYMBOLS[(key >> (2 * k)) & 3] for k in range(8))


def from_picture(text: str) -> int:
    """The canonical code of a picture (the inverse of `picture`)."""
    if len(text) != 8 or any(ch not in _SYMBOLS for ch in text):
        raise ValueError(f"pattern picture {text!r}: expected 8 of {_SYMBOLS!r}")
    return sum(_SYMBOLS.index(ch) << (2 * k) for k, ch in enumerate(text))


def load_weights(path: Path = GAMMA_FILE) -> dict[str, Any]:
    """The weights file: one list of gammas per group of `GROUPS`, and `pattern` - a picture
    to gamma mapping for the shapes seen in training (unseen shapes have gamma 1)."""
    data: dict[str, Any] = json.loads(path.read_text())
    for name, (_, length) in GROUPS.items():
        if len(data[name]) != length:
            raise ValueError(f"{path}: group {name} has {len(data[name])} gammas, not {length}")
    return data


@cache
def gamma_table() -> npt.NDArray[np.float64]:
    """Shape (3, 65536), read-only: row color-1 the gamma of each 3x3 board code for that
    colour to move, row 2 the gammas of the other features at their F_* indices."""
    data = load_weights()
    by_key = np.ones(1 << 16, np.float64)
    for text, gamma in data["pattern"].items():
        by_key[from_picture(text)] = gamma
    table = np.ones((3, 1 << 16), np.float64)
    keys = pattern_keys()
    table[0] = by_key[keys[0]]
    table[1] = by_key[keys[1]]
    for name, (offset, length) in GROUPS.items():
        table[2, offset : offset + length] = data[name]
    table.flags.writeable = False
    return table
