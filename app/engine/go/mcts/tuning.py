"""Every number that sets how the Go player plays, each with why, and the `params` array that
carries the search's to the kernels. Start with `make_params`.

Values marked "michi" are those of Petr Baudis's michi (a minimalistic Go engine in Python,
2015), where this search started; no match here has found better ones. The others were
measured here: docs/go-experiments.md has the matches and docs/benchmarks.md the latest
figures. The numbers in `params` reach the compiled code at run time (a change needs no
recompile); the others are compiled in (the kernels' cache is keyed to the package's sources,
see `jit`, so a change here recompiles them on the next start).
"""

from __future__ import annotations

import numpy as np

from .jit import Floats
from .patterns import PATTERNS

# -- the playout policy (`policy.heavy_move`, `policy.random_move`) ------------------------------

# Its coins, passed in `params` (`policy.coin`). tools/balance_playouts.py fits them to
# labelled positions by simulation balancing: on 2026-12-07 its coins brought the playouts'
# value 13-27 % nearer Pachi's deep labels and won no more against Pachi (13 and 14 of 100
# where these won 17; docs/go-experiments.md), so these stay:
PROB_CAPTURE = 0.9  # michi: answer ataris next to the last moves most of the time (variety)
PROB_TWO_LIBERTIES = 0.9  # likewise for the fights of two-liberty chains at the last move ...
# (... on boards up to TWO_LIBERTIES_MAX_SIZE, below)
PROB_PATTERN = 0.95  # michi: likewise for 3x3 shape replies next to the last moves
# ... and once a shape is picked, the coin of its class (`patterns.PATTERNS`, in that order)
# says whether it is played or another is looked for (`policy.pick_candidate`): at 1 every
# shape is played, michi's uniform pick among them (a coin at 1 draws no random number).
# Balanced shape coins (2026-12-07: three classes moved, to 0.12-0.84) won 14 of 100 against
# Pachi where these won 17.
PROB_SHAPES = (1.0,) * len(PATTERNS)
# michi (its PROB_RSAREJECT): a lone stone's self-atari is half nonsense, half a throw-in that
# kills an eye, so random moves refuse it half the time - unless `tactics.lone_throw_in` sees
# it gain (a capture, an eye made false, a snapback), when they always play it.
PROB_REJECT_SINGLE_SELF_ATARI = 0.5
# Pachi: a random move filling an own false eye takes away the enemy stone that makes it false
# instead (`policy.eye_fill_instead`), this often; Pachi's source notes that some false eyes
# are real ones spoilt by a dead stone.
PROB_EYE_FILL_INSTEAD = 0.6
# Pachi's playouts (its eye fix, at 100 %): an enemy move that threatens to make an eye of ours
# false is answered by filling the point it would take (`policy.eye_fix_candidates`).
PROB_EYE_FIX = 1.0
# Pachi's playouts (its nakade check, at 80 %): when the enemy's move borders an eye space of
# its own with a vital point, play there (`tactics.vital_point`).
PROB_VITAL_POINT = 0.8
# Compiled in:
TWO_LIBERTIES_MAX_SIZE = 9  # the two-liberty fights: measured a gain on 9x9, a loss on 19x19
# The search's playouts throw stones in to kill (`tactics.nakade`) only from a position with
# at most this share of the board empty (`walk.simulate`). Throughout, they read endgames
# better and lost games (9x9: 2 / 40 against Pachi where the base won 9; 13x13: 14 / 20
# against GNU Go level 10 where it won 17); from half-full boards on they keep most of the
# endgame's gain (the diagnostic's late gap 0.284 -> 0.180) and won 18 / 100 against Pachi
# where the base won 16, and against GNU Go level 10 20 / 20 on 9x9 (base 18) and 14 / 20 on
# 13x13 (base 14), and 18 / 24 on 19x19 (the base 15 / 24, 2026-12-02) (docs/go-experiments.md).
THROW_INS_EMPTY_SHARE = 0.5

# -- tactical reading (`tactics`), compiled in ---------------------------------------------------

NAKADE_MAX = 6  # stones: no bigger eye space is killed by one vital point (the rabbity six)
LADDER_BUDGET = 200  # positions one ladder reading may visit; past that it counts as an escape

# -- the tree walk and the priors, passed in `params` --------------------------------------------

RAVE_EQUIV = 3500.0  # michi: own playouts at which AMAF and own statistics weigh about the same
EXPAND_VISITS = 8  # michi: a leaf gets children after this many playouts: saves memory, few lost
UCT_C = 0.05  # small: priors and RAVE do most of the exploring; this only unsticks starved moves
PRIOR_EVEN = 10.0  # michi: every move starts as if 10 playouts had gone 50:50
# The hand-made priors (`priors.hand_prior`), in virtual playouts, all michi's:
PRIOR_SELF_ATARI = 10.0  # losses for putting oneself in atari (or running in a lost ladder)
PRIOR_CAPTURE_ONE = 15.0  # wins for capturing (or saving) a single stone
PRIOR_CAPTURE_MANY = 30.0  # and for capturing (or saving) two or more stones
PRIOR_PATTERN = 10.0  # wins for a 3x3 shape match
PRIOR_CFG = (24.0, 22.0, 8.0)  # wins at distance 1, 2, 3 from the last move: fights are local
PRIOR_EMPTY_AREA = 10.0  # losses on lines 1-2 and wins on line 3 where no stone is near
# The trained priors: PRIOR_GAMMA * sqrt(p) virtual wins, p a move's probability by the move
# features (michi's weight for its large patterns). On their own they won 4 of 10 13x13 games
# against GNU Go level 10 where the hand-made priors won 7; added to them, 9 of 10
# (docs/go-experiments.md, "Priors trained on GNU Go's games").
PRIOR_GAMMA = 100.0
# Progressive widening (`walk.width`): a node's children are tried likeliest first, two at
# first and one more each time its playouts grow WIDEN_RATE times past WIDEN_VISITS - on boards
# of WIDEN_MIN_SIZE and more only: on smaller ones the playouts tell the moves apart, and the
# model's low opinion of self-atari would keep the search from a throw-in it needs
# (test_mcts_nakade) and of captures (GNU Go's games leave dead stones on the board) from
# taking eight stones in atari at 300 playouts (test_mcts_player). Tried on 9x9 with throw-ins
# stored first: 5 / 20 against Pachi, no gain (docs/go-experiments.md, "Against Pachi again").
WIDEN_VISITS = 40.0
WIDEN_RATE = 1.4
WIDEN_MIN_SIZE = 19

# Indices of the float64 `params` array.
P_KOMI = 0
P_RAVE_EQUIV = 1
P_EXPAND_VISITS = 2
P_UCT_C = 3
P_PRIOR_EVEN = 4
P_PRIOR_SELF_ATARI = 5
P_PRIOR_CAPTURE_ONE = 6
P_PRIOR_CAPTURE_MANY = 7
P_PRIOR_PATTERN = 8
P_PRIOR_CFG1 = 9
P_PRIOR_CFG2 = 10
P_PRIOR_CFG3 = 11
P_PRIOR_EMPTY_AREA = 12
P_PRIOR_GAMMA = 13  # > 0: the trained move features add to the priors, with this weight
P_WIDEN_VISITS = 14  # > 0: progressive widening: a node's playouts per step ...
P_WIDEN_RATE = 15  # ... and the factor by which each further step needs more
P_COINS = 16  # the playout policy's coins: params[P_COINS + C_...] is a coin's probability
NCOINS = 7 + len(PATTERNS)
NPARAMS = P_COINS + NCOINS

# The playout policy's coins (`policy.coin`); COIN_NAMES[C_...] names each one's constant.
C_CAPTURE = 0
C_TWO_LIBERTIES = 1
C_PATTERN = 2
C_REJECT_SINGLE_SELF_ATARI = 3
C_EYE_FILL_INSTEAD = 4
C_EYE_FIX = 5
C_VITAL_POINT = 6
C_SHAPES = 7  # C_SHAPES + i: the coin of patterns.PATTERNS[i]
COIN_NAMES = ("PROB_CAPTURE", "PROB_TWO_LIBERTIES", "PROB_PATTERN",
              "PROB_REJECT_SINGLE_SELF_ATARI", "PROB_EYE_FILL_INSTEAD", "PROB_EYE_FIX",
              "PROB_VITAL_POINT",
              *(f"PROB_SHAPES[{i}] ({name})" for i, (name, _) in enumerate(PATTERNS)))

# -- the player's decisions (`player.MctsPlayer`) ------------------------------------------------

# Judging a pass by count (`MctsPlayer.judge_pass`). Over the 76 recorded games Tabletop ended by
# passing after its opponent (bench/go_pass_check.py, 2026-12-04), the passes that won the
# referee's count had win rates of 0.82-1.00 and agreements of 0.79-1.00, the two that lost it
# 0.43-0.63 and 0.54-0.63: the agreement threshold sits in the middle of that gap. Both lean
# towards playing on: a needless move costs nothing in an area count (a stone in one's own
# territory counts as the point did), a wrong pass the game.
PASS_CHECK_PLAYOUTS = 512  # 0.03 s on a 9x9 board, 0.1 s on 19x19
PASS_MIN_WIN_RATE = 0.5
PASS_MIN_AGREEMENT = 0.7
RESIGN_THRESHOLD = 0.1  # the default: a best move winning less often than this is lost
RESIGN_MIN_PLAYOUTS = 300  # fewer playouts give win rates too noisy to give up on
RESIGN_MIN_PROGRESS = 0.2  # moves (and set-up stones) per board point before resigning
REUSE_MAX_MOVES = 2  # reuse the tree when the game grew by our move and the reply (or one)


def make_params(komi: float, size: int = 9) -> Floats:
    """The float64 parameter array `walk.simulate` reads its tuning from, for a board of
    `size` lines."""
    params = np.zeros(NPARAMS, np.float64)
    params[P_KOMI] = komi
    params[P_RAVE_EQUIV] = RAVE_EQUIV
    params[P_EXPAND_VISITS] = EXPAND_VISITS
    params[P_UCT_C] = UCT_C
    params[P_PRIOR_EVEN] = PRIOR_EVEN
    params[P_PRIOR_SELF_ATARI] = PRIOR_SELF_ATARI
    params[P_PRIOR_CAPTURE_ONE] = PRIOR_CAPTURE_ONE
    params[P_PRIOR_CAPTURE_MANY] = PRIOR_CAPTURE_MANY
    params[P_PRIOR_PATTERN] = PRIOR_PATTERN
    params[P_PRIOR_CFG1] = PRIOR_CFG[0]
    params[P_PRIOR_CFG2] = PRIOR_CFG[1]
    params[P_PRIOR_CFG3] = PRIOR_CFG[2]
    params[P_PRIOR_EMPTY_AREA] = PRIOR_EMPTY_AREA
    params[P_PRIOR_GAMMA] = PRIOR_GAMMA
    params[P_WIDEN_VISITS] = WIDEN_VISITS if size >= WIDEN_MIN_SIZE else 0.0
    params[P_WIDEN_RATE] = WIDEN_RATE
    params[P_COINS + C_CAPTURE] = PROB_CAPTURE
    params[P_COINS + C_TWO_LIBERTIES] = PROB_TWO_LIBERTIES
    params[P_COINS + C_PATTERN] = PROB_PATTERN
    params[P_COINS + C_REJECT_SINGLE_SELF_ATARI] = PROB_REJECT_SINGLE_SELF_ATARI
    params[P_COINS + C_EYE_FILL_INSTEAD] = PROB_EYE_FILL_INSTEAD
    params[P_COINS + C_EYE_FIX] = PROB_EYE_FIX
    params[P_COINS + C_VITAL_POINT] = PROB_VITAL_POINT
    params[P_COINS + C_SHAPES : P_COINS + C_SHAPES + len(PROB_SHAPES)] = PROB_SHAPES
    return params
