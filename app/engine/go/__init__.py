"""Go: rules, scoring and SGF, in pure Python.

Where to start reading: `game.Game` - what the web adapter drives (play a vertex, pass, resign,
undo, then mark dead stones and accept the score) - and behind it `board.Board`, the position
with its chains and exact liberty sets, updated incrementally move by move. Then `scoring`
(area count and the dead-stone proposal, built on `life.benson` and `playout`), `handicap`
(GTP's fixed placement), `sgf` (records in and out: `read_record`, `write_record`) and `coords`
(vertices such as "D4").
Every refusal is a `errors.GoError`, a `ValueError` whose `code` names the rule.
"""

from .board import BLACK, EMPTY, WHITE, Board, Chain, Color
from .coords import MAX_SIZE, MIN_SIZE, PASS, RESIGN, parse_move, parse_vertex, vertex
from .errors import (
    AliveGroup,
    GameOver,
    GoError,
    InvalidHandicap,
    InvalidKomi,
    InvalidSetup,
    InvalidSize,
    InvalidState,
    Ko,
    MalformedMove,
    NoStone,
    NothingToUndo,
    NotScoring,
    NotYourTurn,
    Occupied,
    OffBoard,
    SgfError,
    Suicide,
)
from .game import AtariGroup, Game, Setup, Status
from .handicap import handicap_points, max_handicap
from .life import benson
from .playout import playout
from .scoring import Score, area_score, propose_dead
from .sgf import SgfRecord, from_sgf, read_record, to_sgf, write_record

__all__ = [
    "BLACK",
    "EMPTY",
    "MAX_SIZE",
    "MIN_SIZE",
    "PASS",
    "RESIGN",
    "WHITE",
    "AliveGroup",
    "AtariGroup",
    "Board",
    "Chain",
    "Color",
    "Game",
    "GameOver",
    "GoError",
    "InvalidHandicap",
    "InvalidKomi",
    "InvalidSetup",
    "InvalidSize",
    "InvalidState",
    "Ko",
    "MalformedMove",
    "NoStone",
    "NotScoring",
    "NotYourTurn",
    "NothingToUndo",
    "Occupied",
    "OffBoard",
    "Score",
    "Setup",
    "SgfError",
    "SgfRecord",
    "Status",
    "Suicide",
    "area_score",
    "benson",
    "from_sgf",
    "handicap_points",
    "max_handicap",
    "parse_move",
    "parse_vertex",
    "playout",
    "propose_dead",
    "read_record",
    "to_sgf",
    "vertex",
    "write_record",
]
