"""Area scoring and the dead-stone proposal that precedes it.

Start with `propose_dead`, then `area_score`. Area scoring (Chinese-style) gives each colour its
living stones plus the empty points that only its living stones surround; dead stones are taken
off first and their points count like the empty ones around them; points that touch both
colours (dame, and the shared liberties of a seki) count for nobody. White adds komi.

`propose_dead` proves what it can and estimates the rest: chains that Benson's algorithm shows
unconditionally alive (`life.benson`) live, enemy stones inside their certain territory die,
and every other chain is judged by Monte-Carlo ownership - `PLAYOUTS` random playouts from the
position (seeded, so the same position always gets the same proposal), after which a chain whose
points ended up more often the opponent's than its own is proposed dead. The playout policy never
fills an eye nor puts a chain of two or more stones into atari, so two-eyed groups and seki
survive the playouts and are proposed alive.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import BLACK, EMPTY, WHITE, Board, Color
from .life import benson
from .playout import ownership, playout

PLAYOUTS = 96  # ownership is stable to a few percent by then; a 9x9 proposal takes ~0.1 s
DEAD_STONE_SEED = 2024  # fixed: the same finished position always gets the same proposal


@dataclass(frozen=True, slots=True)
class Score:
    """An area count: each colour's living stones and territory, the dame, and komi."""

    black_stones: int
    black_territory: int
    white_stones: int
    white_territory: int
    dame: int
    komi: float

    @property
    def black_area(self) -> int:
        return self.black_stones + self.black_territory

    @property
    def white_area(self) -> int:
        return self.white_stones + self.white_territory

    @property
    def margin(self) -> float:
        """Black's lead: positive when black wins, negative when white wins."""
        return self.black_area - self.white_area - self.komi

    @property
    def winner(self) -> Color | None:
        margin = self.margin
        return "black" if margin > 0 else "white" if margin < 0 else None

    @property
    def text(self) -> str:
        """The result in SGF style: "B+3.5", "W+12", or "0" for a draw."""
        margin = self.margin
        if margin == 0:
            return "0"
        return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"

    def to_dict(self) -> dict[str, object]:
        return {
            "black": {
                "stones": self.black_stones,
                "territory": self.black_territory,
                "area": self.black_area,
            },
            "white": {
                "stones": self.white_stones,
                "territory": self.white_territory,
                "area": self.white_area,
            },
            "dame": self.dame,
            "komi": self.komi,
            "margin": self.margin,
            "text": self.text,
        }


def territory_owners(board: Board, dead: frozenset[int] | set[int]) -> list[int]:
    """Per point: BLACK or WHITE for a point of that colour's area that is not a living stone
    (territory: empty or dead), EMPTY for dame and for living stones.

    Each connected region of empty points and dead stones belongs to a colour when the living
    stones around it are all of that colour, and to nobody otherwise.
    """
    colors = board.colors
    neighbours = board.geometry.neighbours
    owners = [EMPTY] * len(colors)
    seen = [False] * len(colors)
    for start, color in enumerate(colors):
        if seen[start] or (color != EMPTY and start not in dead):
            continue
        seen[start] = True
        region, todo, around = [start], [start], set()
        while todo:
            for n in neighbours[todo.pop()]:
                if colors[n] == EMPTY or n in dead:
                    if not seen[n]:
                        seen[n] = True
                        region.append(n)
                        todo.append(n)
                else:
                    around.add(colors[n])
        if len(around) == 1:
            owner = around.pop()
            for point in region:
                owners[point] = owner
    return owners


def area_score(board: Board, dead: frozenset[int] | set[int], komi: float) -> Score:
    """The area count of `board` once the stones in `dead` are taken off."""
    owners = territory_owners(board, dead)
    stones = {BLACK: 0, WHITE: 0}
    territory = {BLACK: 0, WHITE: 0, EMPTY: 0}
    for point, color in enumerate(board.colors):
        if color != EMPTY and point not in dead:
            stones[color] += 1
        else:
            territory[owners[point]] += 1
    return Score(
        black_stones=stones[BLACK],
        black_territory=territory[BLACK],
        white_stones=stones[WHITE],
        white_territory=territory[WHITE],
        dame=territory[EMPTY],
        komi=komi,
    )


def propose_dead(
    board: Board, *, playouts: int = PLAYOUTS, seed: int = DEAD_STONE_SEED
) -> frozenset[int]:
    """The stones (points) proposed dead in a finished position; see the module docstring."""
    if not board.chains:
        return frozenset()
    certain_alive: set[int] = set()
    dead: set[int] = set()
    for color in (BLACK, WHITE):
        settled = benson(board, color)
        certain_alive |= settled.alive
        dead.update(p for p in settled.territory if board.colors[p] == 3 - color)

    undecided = [
        chain
        for key, chain in board.chains.items()
        if key not in certain_alive and chain.stones[0] not in dead
    ]
    if not undecided:
        return frozenset(dead)
    totals = ownership_totals(board, playouts=playouts, seed=seed)
    for chain in undecided:
        sign = 1 if chain.color == BLACK else -1
        if sign * sum(totals[s] for s in chain.stones) < 0:
            dead.update(chain.stones)
    return frozenset(dead)


def ownership_totals(board: Board, *, playouts: int, seed: int) -> list[int]:
    """Per point, the sum over `playouts` random playouts of its owner (+1 black, -1 white).

    Half the playouts start with black to move and half with white, so a position's verdict
    does not depend on whose turn it happens to be.
    """
    rng = random.Random(seed)
    totals = [0] * board.geometry.area
    for number in range(playouts):
        scratch = board.copy()
        playout(scratch, BLACK if number % 2 == 0 else WHITE, rng)
        for point, owner in enumerate(ownership(scratch)):
            totals[point] += owner
    return totals
