"""Zobrist keys: one random 64-bit number per (colour, point), so a position hashes to the XOR
of the keys of its stones and a move updates the hash with one or a few XORs.

Start with `zobrist_keys(size)`. The keys come from a generator seeded per size, so hashes are
the same in every process (a stored game replays to the same hashes) and no global random state
is touched. Positional superko (`game.Game`) compares these hashes.
"""

from __future__ import annotations

import random
from functools import cache

ZOBRIST_SEED = 0x60_BA_0D  # any fixed value: hashes need to be stable, not secret
KEY_BITS = 64  # 2**-64 collision odds per pair: no game will ever meet a false superko


@cache
def zobrist_keys(size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Keys indexed `[colour][point]`: colour 1 is black, 2 white; index 0 (empty) is all zero."""
    rng = random.Random(ZOBRIST_SEED * 1000 + size)
    area = size * size
    black = tuple(rng.getrandbits(KEY_BITS) for _ in range(area))
    white = tuple(rng.getrandbits(KEY_BITS) for _ in range(area))
    return (0,) * area, black, white
