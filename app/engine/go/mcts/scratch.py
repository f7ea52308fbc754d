"""The int64 scratch array `work` that the kernels of one search share: a row per use, a
column per padded point (or per step of a walk, which can outgrow the board). Start with
`make_work`."""

from __future__ import annotations

import numpy as np

from ..coords import PASS
from .jit import Ints

W_AMAF = 0  # per point: the colour that played it first in this simulation
W_PATH = 1  # the nodes of the current tree walk
W_CAND = 2  # candidate moves of the playout policy
W_KIND = 3  # their kind: policy.K_CAPTURE, K_ESCAPE, K_EXTEND or K_SHAPE + a shape class
W_CAPT = 4  # per point: stones a move there would capture (priors)
W_ESC = 5  # per point: size of the own chain in atari a move there would save (priors)
W_DIST = 6  # per point: common-fate-graph distance to the last move (priors)
W_QUEUE = 7  # breadth-first queue for W_DIST
W_MASK = 8  # per point: 1 if the root may play there (the game's superko-legal moves)
W_OLD = 9  # re-rooting: old index of each copied node
W_REPLY = 10  # rows 10 (black) and 11 (white): per point, the last good reply to a move there
W_SEQ = 12  # the moves of the current playout, after the move that preceded it
W_OWNER = 13  # per point: the sum over the search's simulations of its final owner (+1 black)
W_LIBS = 14  # scratch: the liberties of the chain the playout policy looks at (`chain_liberties`)
# ... and the eye space whose vital point it looks for (`tactics.vital_point`)
W_COINS = 15  # the playout policy's coin tosses (`policy.coin`): heads and tails per coin
WORK_ROWS = 16
WORK_WIDTH_PER_POINT = 4  # a tree walk can outgrow the board (captures refill points)


def make_work(board: Ints) -> Ints:
    """Scratch rows for the compiled code, sized for this board: zeros, but no last good
    reply yet (PASS)."""
    work = np.zeros((WORK_ROWS, WORK_WIDTH_PER_POINT * board.shape[1]), np.int64)
    work[W_REPLY : W_REPLY + 2] = PASS
    return work
