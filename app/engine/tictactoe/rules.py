"""The human-like "rules" player: a short list of rules a person can follow at the table.

Start with `decide`, which walks the rules in order and returns the first that applies with
the cells it allows (`RulesStrategy` then picks one at random). The rules, for the side to move:

1. win       - complete a line.
2. block     - stop the opponent's line (if they have two threats the game is lost: block one).
3. fork      - make two threats at once.
4. combination - make a threat whose forced block lets you continue with threats until a fork
               (the shortest such line).
5. block the fork - if the opponent could fork next move:
               a. they have one fork point: take it;
               b. else make a two-in-a-row that also leaves them no fork point;
               c. else make any two-in-a-row (their forced block must not hand them a win).
6. position  - centre, else the corner opposite one of theirs, else a corner, else an edge.
7. anything  - only in lost positions, where no move is safe.

Rules 5 and 6 only offer *safe* moves: after the move the opponent must have no combination
(rule 3 or 4 from their side). Checking that is the same reading as rule 4, done for them - a
careful player asks "if I go here, can they fork me, or force a fork?".

Why this differs from the seed article's player. Its rules are perfect in the games it plays
itself from the empty board, but the site lets a person switch players mid-game, so the rules
must hold from any of the 4,520 reachable positions, for either side. A re-implementation of the
seed's rules allows a move with a worse outcome than the best in 144 of them:
- 72 through its "attack" rule, which plays any two-in-a-row when the opponent has a fork point
  to stop, even one whose forced block leaves them the fork; rule 4 here only plays threats that
  read out to a win, and rule 5 deals with their fork points;
- 52 through its opening rules, which fire on "fewer than 4 marks" and assume the player's own
  earlier moves: after a random opening they lose a drawable position (24) or miss a forced win
  (28). Rule 6 keeps positional preferences but guards them with the safety reading, whoever
  made the earlier moves;
- 20 through "play anything" while the opponent has a fork point: it never blocks a fork (rule 5
  is new, in the classic Newell-Simon order).
It also counts two lines through the same empty cell as a fork; here a fork needs two distinct
winning cells.

Is the reading needed? Yes. The same rules without the safety check (static rules only: "take
their fork point", "force with a two-in-a-row") still lose a drawable position in 30 of the
4,520 positions - 22 where the opponent's forced block of a two-in-a-row wins for them, 8 where
taking the centre lets them force a win. So static rules alone are not perfect; rules plus
reading of *forcing* lines (never quiet moves, never a full search) are, and there is no search
fallback. The tests check every candidate of every rule in
every reachable position against an independent solver, and walk every game from every position
against every opponent reply: the player never loses a drawable position, never misses a forced
win, and in fact always takes the fastest win and the slowest loss (rule 4 prefers the shortest
combination; in the 8 positions that reach rule 7 every move loses equally fast).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import CENTER, CORNERS, EDGES, FULL_MASK, HAS_LINE, OPPOSITE_CORNER, Board
from .strategy import Choice, ensure_in_play
from .tactics import cells_of, forcing_lines, forcing_win, fork_cells, winning_cells


@dataclass(frozen=True, slots=True)
class Decision:
    """The rule that applied and the cells it allows (all equally good to the rule)."""

    rule: str
    cells: tuple[int, ...]


def is_safe(me: int, them: int, cell: int) -> bool:
    """True if, after `me` marks `cell`, the opponent has no forcing line to a win."""
    mine = me | (1 << cell)
    if HAS_LINE[mine] or (mine | them) == FULL_MASK:
        return True
    return forcing_win(them, mine) is None


def _makes_one_threat(me: int, them: int, cell: int) -> bool:
    return winning_cells(me | (1 << cell), them).bit_count() == 1


def decide(board: Board) -> Decision:
    """Apply the rules in order to a position that is not over."""
    me, them = board.sides()

    mine = winning_cells(me, them)
    if mine:
        return Decision("win", tuple(cells_of(mine)))

    theirs = winning_cells(them, me)
    if theirs:
        return Decision("block", tuple(cells_of(theirs)))

    forks = fork_cells(me, them)
    if forks:
        return Decision("fork", tuple(cells_of(forks)))

    lines = forcing_lines(me, them)
    if lines:
        shortest = min(lines.values())
        return Decision("combination", tuple(c for c, p in lines.items() if p == shortest))

    empty = board.empty_cells()
    safe = [cell for cell in empty if is_safe(me, them, cell)]

    their_forks = fork_cells(them, me)
    if their_forks:
        if their_forks.bit_count() == 1 and _single(their_forks) in safe:
            return Decision("block the fork", (_single(their_forks),))
        twos = [cell for cell in safe if _makes_one_threat(me, them, cell)]
        covering = [cell for cell in twos if not fork_cells(them, me | (1 << cell))]
        if covering:
            return Decision("two in a row that blocks every fork", tuple(covering))
        if twos:
            return Decision("two in a row to force a block", tuple(twos))

    their_corners = [c for c in CORNERS if them >> c & 1]
    preferences: tuple[tuple[str, list[int]], ...] = (
        ("centre", [CENTER]),
        ("opposite corner", sorted({OPPOSITE_CORNER[c] for c in their_corners})),
        ("corner", list(CORNERS)),
        ("edge", list(EDGES)),
    )
    for rule, group in preferences:
        allowed = tuple(cell for cell in group if cell in safe)
        if allowed:
            return Decision(rule, allowed)

    return Decision("anything (lost)", tuple(empty))


def _single(mask: int) -> int:
    return mask.bit_length() - 1


class RulesStrategy:
    """Plays by the rules in `decide`, random among the cells the deciding rule allows."""

    name = "rules"
    label = "Human-like rules"
    description = (
        "Plays like a careful person: win, block, fork, read forcing threats, "
        "then take the centre, corners and edges."
    )

    def choose(self, board: Board, rng: random.Random, *, may_slip: bool = True) -> Choice:
        ensure_in_play(board)
        return Choice(rng.choice(decide(board).cells))
