"""3x3 shape patterns: the local "good shape" knowledge of the playouts and the priors.

Start with `PATTERNS`, named and drawn as pictures, then `pattern_table()`, which turns them
into a lookup table of 4**8 = 65,536 shape classes indexed by `fastboard.pattern_code` - the 8
points around a candidate move, 2 bits each (0 empty, 1 black, 2 white, 3 off the board), in
reading order: top-left, top, top-right, left, right, bottom-left, bottom, bottom-right.

The patterns are the classic hand-made set of the early Monte-Carlo programs (MoGo's 2006
paper, kept by Pachi and michi): hane around an enemy stone, cuts and the answers to them,
and a few edge shapes. A pattern matches in any of its 8 rotations and reflections and with
the colours swapped - good shape for one side is usually the urgent point for the other.
Pure Python, computed once per process; the compiled code receives the table as an argument.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

# Picture symbols: the centre is always the candidate move, an empty point.
#   X, O  a stone of one colour / of the other      .  empty
#   x     anything but X (O, empty or edge)          o  anything but O
#   ?     anything at all                            #  off the board (the edge)
PATTERNS: tuple[tuple[str, tuple[str, str, str]], ...] = (
    # Hane: answer a contact play by wrapping around the enemy stone.
    ("hane that encloses", ("XOX", "...", "???")),
    ("hane that leaves no cut", ("XO.", "...", "?.?")),
    ("hane at the head of two stones", ("XO?", "X..", "x.?")),  # (magari)
    ("diagonal attachment to a lone stone", (".O.", "X..", "...")),
    # Cuts: cut where the enemy is thin, connect where we would be cut.
    ("unprotected cut", ("XO?", "O.o", "?o?")),
    ("cut after the peep", ("XO?", "O.X", "???")),
    ("cut through a one-point jump", ("?X?", "O.O", "ooo")),
    ("cut of a knight's move", ("OX?", "o.O", "???")),
    # On the edge (bottom row off the board).
    ("chase along the edge", ("X.?", "O.?", "###")),
    ("block the connection along the side", ("?X?", "x.O", "###")),
    ("descend to the edge", ("?XO", "x.x", "###")),  # (sagari)
    # (michi's set has two more edge shapes, "OX?/X.O/###" and "?OX/X.O/###": each is a case of
    # the cut after the peep above, with the colours swapped or mirrored, so they add nothing.)
)

_VALUES = {
    "X": (1,),
    "O": (2,),
    ".": (0,),
    "#": (3,),
    "x": (0, 2, 3),
    "o": (0, 1, 3),
    "?": (0, 1, 2, 3),
}
_SWAP = str.maketrans("XOxo", "OXox")

# The 8 neighbours in code order (`fastboard.pattern_code`), as (row, column) of the picture.
NEIGHBOUR_ORDER = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


def _symmetries(picture: tuple[str, str, str]) -> set[tuple[str, str, str]]:
    """The picture in its 8 rotations and reflections, each also with colours swapped."""
    found: set[tuple[str, str, str]] = set()
    grid = [list(row) for row in picture]
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # rotate 90 degrees
        for variant in (grid, [row[::-1] for row in grid]):
            rows = tuple("".join(row) for row in variant)
            assert len(rows) == 3
            found.add((rows[0], rows[1], rows[2]))
            found.add((rows[0].translate(_SWAP), rows[1].translate(_SWAP),
                       rows[2].translate(_SWAP)))
    return found


def _codes(picture: tuple[str, str, str]) -> list[int]:
    """Every 16-bit neighbourhood code the picture matches (wildcards expanded)."""
    if picture[1][1] != ".":
        raise ValueError(f"pattern {picture}: the centre must be the empty candidate point")
    codes = [0]
    for shift, (row, column) in enumerate(NEIGHBOUR_ORDER):
        values = _VALUES[picture[row][column]]
        codes = [code | (value << (2 * shift)) for code in codes for value in values]
    return codes


@cache
def pattern_table() -> npt.NDArray[np.uint8]:
    """Shape classes indexed by a neighbourhood code: 0 where no pattern matches, else one
    more than the index in PATTERNS of the first pattern that does (read-only). The priors
    read it as a flag; the playouts weigh each class by its own coin (`policy.pick_candidate`,
    tuning.PROB_SHAPES)."""
    table = np.zeros(1 << 16, np.uint8)
    for index in reversed(range(len(PATTERNS))):  # the first pattern's class wins
        for variant in _symmetries(PATTERNS[index][1]):
            table[_codes(variant)] = index + 1
    table.flags.writeable = False
    return table
