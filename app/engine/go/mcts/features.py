"""The trained move features: what the priors know about a move before the search reads it.

Start with `gamma_table()`, the table `walk.expand` multiplies a move's strength from,
`spatial_table()`, the hash table of the large patterns it looks up, and `GAMMA_FILE`, the
weights both are built from. A move is described by six features (`priors.move_features`,
its 3x3 pattern and its large spatial pattern): its tactical meaning (capture, escape,
self-atari, atari, ladder), its distance to the last two moves, its place on the board (its
lines from the two nearer edges) and whether the area around it is empty, the 3x3 pattern
around it, and the largest of its spatial patterns - the stones out to two, three or four lines
away (`priors.SPATIAL_SIZES`) - that the training saw chosen often enough to know, colours
always seen from the player to move. Each feature value has a strength gamma; a move's strength
is the product of its features' gammas, and the probability that a strong player chooses it is
its strength over the sum of all candidates' (Coulom, "Computing Elo Ratings of Move Patterns
in the Game of Go", 2007).

The gammas are fitted by tools/train_patterns.py with Coulom's minorization-maximization from
games recorded in tests/data/go/ (`.venv/bin/python -m tools.train_patterns` rewrites GAMMA_FILE
reproducibly). 3x3 patterns are keyed in that file by their picture in the canonical
orientation, eight characters around the move in reading order (top-left, top, top-right,
left, right, bottom-left, bottom, bottom-right): X the player to move, O the opponent, . empty,
# off the board. "###.O.X." is a move on the first line, under the edge, with an opponent
stone to its right and an own stone below. Spatial patterns are keyed by their size and hash
(`spatial_key`): too many points for a picture, and the hash is what the search looks up.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import priors
from .patterns import NEIGHBOUR_ORDER

GAMMA_FILE = Path(__file__).with_name("move_gammas.json")

_SYMBOLS = ".XO#"  # 2-bit values relative to the mover: empty, own, opponent, edge

# Group names in the weights file and where each group starts in the gamma vector.
GROUPS: dict[str, tuple[int, int]] = {
    "tactic": (priors.F_TACTIC, priors.N_TACTICS),
    "distance": (priors.F_DIST, priors.N_DIST),
    "distance_before": (priors.F_DIST2, priors.N_DIST),
    "place": (priors.F_PLACE, priors.N_PLACE),
    "spatial_none": (priors.F_SPATIAL, 1),  # no large pattern of the table matches
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
    """The weights file: one list of gammas per group of `GROUPS`, `pattern` - a picture to
    gamma mapping for the 3x3 shapes seen in training (unseen shapes have gamma 1) - and
    `spatial`, a `spatial_key` to gamma mapping for the table's large patterns."""
    data: dict[str, Any] = json.loads(path.read_text())
    for name, (_, length) in GROUPS.items():
        if len(data[name]) != length:
            raise ValueError(f"{path}: group {name} has {len(data[name])} gammas, not {length}")
    return data


def spatial_key(size: int, hashed: int) -> str:
    """How the weights file names a spatial pattern: its size and its hash in hex."""
    return f"{size}:{hashed & 0xFFFFFFFFFFFFFFFF:016x}"


def parse_spatial_key(text: str) -> tuple[int, int]:
    """(size, hash as an int64) of a `spatial_key`."""
    size, _, digits = text.partition(":")
    if int(size) not in priors.SPATIAL_SIZES or len(digits) != 16:
        raise ValueError(f"spatial pattern {text!r}: expected <size>:<16 hex digits>")
    value = int(digits, 16)
    return int(size), value - (1 << 64) if value >= 1 << 63 else value


@cache
def _spatial_entries() -> list[tuple[int, float]]:
    """The weights file's spatial patterns as (hash, gamma), in the file's order: the k-th has
    gamma index F_SPATIAL + 1 + k."""
    entries = [(parse_spatial_key(text)[1], float(gamma))
               for text, gamma in load_weights()["spatial"].items()]
    if len(entries) > priors.N_SPATIAL_MAX:
        raise ValueError(f"{len(entries)} spatial patterns: at most {priors.N_SPATIAL_MAX} fit")
    return entries


def build_spatial_table(hashes: list[int]) -> npt.NDArray[np.int64]:
    """The open-addressing table `priors.spatial_feature` reads: the k-th hash maps to gamma
    index F_SPATIAL + 1 + k; at least twice as wide as it is full (a power of two), so probes
    stay short. An empty list gives a table with one empty slot (no spatial feature)."""
    width = 1
    while width < 2 * len(hashes):
        width *= 2
    table = np.zeros((2, max(width, 1)), np.int64)
    mask = table.shape[1] - 1
    for k, key in enumerate(hashes):
        slot = key & mask
        while table[0, slot] not in (0, key):
            slot = (slot + 1) & mask
        table[0, slot] = key
        table[1, slot] = priors.F_SPATIAL + 1 + k
    return table


@cache
def spatial_table() -> npt.NDArray[np.int64]:
    """The spatial patterns of the weights file as `build_spatial_table` lays them out;
    read-only. Their gammas are in row 2 of `gamma_table()`."""
    table = build_spatial_table([key for key, _ in _spatial_entries()])
    table.flags.writeable = False
    return table


@cache
def gamma_table() -> npt.NDArray[np.float64]:
    """Shape (3, 65536), read-only: row color-1 the gamma of each 3x3 board code for that
    colour to move, row 2 the gammas of the other features at their F_* indices (the spatial
    patterns' at F_SPATIAL + 1 + k, see `spatial_table`)."""
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
    for k, (_, gamma) in enumerate(_spatial_entries()):
        table[2, priors.F_SPATIAL + 1 + k] = gamma
    table.flags.writeable = False
    return table
