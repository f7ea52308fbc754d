"""The knight's tour: the player's puzzle, five solvers and a checker, in pure Python + numpy.

Where to start reading: `puzzle.Puzzle` (the game a player plays: moves, undo, status, the
forward-checking warning and Warnsdorff's hint), then `solve.solve` (one entry point for every
solver) and `solve.solve_from` (finish a player's path). The solvers are, in the order of the
seed's comparison (`compare.compare_solvers`): plain backtracking and the search engine in
`backtracking`, Warnsdorff's rule in `warnsdorff`, stored closed tours as next-square tables in
`circuits`, and divide and conquer for boards up to 1000x1000 in `divide`. `verify.verify`
checks any tour; `squares` names squares ("c2": file c, rank 2) and lists knight's moves.
Every error is a `KnightsTourError` with a `code` (see `errors`).
"""

from .backtracking import DEFAULT_BUDGET
from .circuits import Circuit, stored_circuit
from .compare import SOLVERS, compare_solvers
from .errors import (
    AlreadyVisited,
    BudgetExhausted,
    ImpossibleStart,
    InvalidSize,
    InvalidSquare,
    InvalidTour,
    KnightsTourError,
    NoClosedTour,
    NoCompletion,
    NotAKnightMove,
    NothingToUndo,
    NoTour,
    OffBoard,
    PuzzleOver,
    TooLarge,
    UnknownMethod,
)
from .puzzle import Hint, Puzzle, Status, Trouble
from .solve import MAX_SIZE, METHODS, TourResult, check_request, solve, solve_from
from .squares import MAX_NAMED_SIZE, parse_square, square_name
from .verify import verify
from .warnsdorff import warnsdorff_choice

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_NAMED_SIZE",
    "MAX_SIZE",
    "METHODS",
    "SOLVERS",
    "AlreadyVisited",
    "BudgetExhausted",
    "Circuit",
    "Hint",
    "ImpossibleStart",
    "InvalidSize",
    "InvalidSquare",
    "InvalidTour",
    "KnightsTourError",
    "NoClosedTour",
    "NoCompletion",
    "NoTour",
    "NotAKnightMove",
    "NothingToUndo",
    "OffBoard",
    "Puzzle",
    "PuzzleOver",
    "Status",
    "TooLarge",
    "TourResult",
    "Trouble",
    "UnknownMethod",
    "check_request",
    "compare_solvers",
    "parse_square",
    "solve",
    "solve_from",
    "square_name",
    "stored_circuit",
    "verify",
    "warnsdorff_choice",
]
