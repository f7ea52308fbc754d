"""Area scoring and the dead-stone proposal that precedes it.

Start with `propose_dead`, then `area_score`. Area scoring (Chinese-style) gives each colour its
living stones plus the empty points that only its living stones surround; dead stones are taken
off first and their points count like the empty ones around them; points that touch both
colours (dame, and the shared liberties of a seki) count for nobody. White adds komi.
`status_groups` names each chain alive, dead or seki, as GTP's `final_status_list` wants.

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
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from .board import BLACK, COLOR_NAMES, EMPTY, WHITE, Board, Color
from .errors import AliveGroup
from .life import benson
from .playout import ownership, playout

PLAYOUTS = 96  # ownership is stable to a few percent by then; a 9x9 proposal takes ~0.1 s
DEAD_STONE_SEED = 2024  # fixed: the same finished position always gets the same proposal
DEAD_LIFE = 0.0  # a chain its opponent owns in more playouts than its owner is dead
STRONG_LIFE = 0.5  # a chain alive in 3 playouts out of 4 is no dead stone to sweep along
TERRITORY_POINTS = 7  # a region of one's own this big holds two eyes (killable shapes have <= 6)
CHAIN_STATUSES = ("alive", "dead", "seki")  # `status_groups` files chains under these


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


@dataclass(frozen=True, slots=True)
class Regions:
    """A position cut into regions: the maximal connected sets of points that are empty or hold
    a dead stone. `of[p]` is the region of point p (-1 for a living stone); per region, its
    `points`, the keys of the living chains `around` it (see `Board.chains`) and its `owner`:
    the colour of all those chains when they agree, EMPTY when they do not or there are none."""

    of: list[int]
    points: list[list[int]]
    around: list[set[int]]
    owner: list[int]


def regions(board: Board, dead: AbstractSet[int]) -> Regions:
    """The regions of `board` once the stones in `dead` are taken off."""
    colors, chain_id, chains = board.colors, board.chain_id, board.chains
    neighbours = board.geometry.neighbours
    found = Regions([-1] * len(colors), [], [], [])
    of = found.of
    for start, color in enumerate(colors):
        if of[start] != -1 or (color != EMPTY and start not in dead):
            continue
        number = len(found.points)
        of[start] = number
        points, todo, around = [start], [start], set()
        while todo:
            for n in neighbours[todo.pop()]:
                if colors[n] == EMPTY or n in dead:
                    if of[n] == -1:
                        of[n] = number
                        points.append(n)
                        todo.append(n)
                else:
                    around.add(chain_id[n])
        owners = {chains[key].color for key in around}
        found.points.append(points)
        found.around.append(around)
        found.owner.append(owners.pop() if len(owners) == 1 else EMPTY)
    return found


def territory_owners(board: Board, dead: AbstractSet[int]) -> list[int]:
    """Per point: BLACK or WHITE for a point of that colour's area that is not a living stone
    (territory: empty or dead), EMPTY for dame and for living stones.

    Each region (`regions`) belongs to a colour when the living stones around it are all of
    that colour, and to nobody otherwise.
    """
    found = regions(board, dead)
    return [EMPTY if region == -1 else found.owner[region] for region in found.of]


def area_score(board: Board, dead: AbstractSet[int], komi: float) -> Score:
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


def status_groups(board: Board, dead: AbstractSet[int]) -> dict[str, list[list[str]]]:
    """Each chain's vertices filed under "alive", "dead" or "seki" - GTP's `final_status_list`.

    A chain with its stones in `dead` is dead. A living chain is in seki when Benson does not
    prove it alive (`life.benson`) and one of its liberties is dame (`territory_owners`) that
    touches a living enemy chain: the shared liberty neither side may fill. The judgement is
    meant for finished games, where the dame are filled - earlier, an open border between two
    groups reads as seki too. Chains come in board order (by their first stone), each chain's
    vertices in board order.
    """
    names = board.geometry.names
    neighbours = board.geometry.neighbours
    owners = territory_owners(board, dead)
    proved = benson(board, BLACK).alive | benson(board, WHITE).alive
    colors = board.colors
    groups: dict[str, list[list[str]]] = {status: [] for status in CHAIN_STATUSES}
    for key, chain in sorted(board.chains.items(), key=lambda item: min(item[1].stones)):
        stones = sorted(chain.stones)
        enemy = 3 - chain.color
        if stones[0] in dead:
            status = "dead"
        elif key not in proved and any(
            owners[liberty] == EMPTY
            and any(colors[n] == enemy and n not in dead for n in neighbours[liberty])
            for liberty in chain.liberties
        ):
            status = "seki"
        else:
            status = "alive"
        groups[status].append([names[s] for s in stones])
    return groups


def propose_dead(
    board: Board, *, playouts: int = PLAYOUTS, seed: int = DEAD_STONE_SEED
) -> frozenset[int]:
    """The stones (points) proposed dead in a finished position; see the module docstring."""
    life = chain_life(board, playouts=playouts, seed=seed)
    dead = {p for key, value in life.items() if value < DEAD_LIFE for p in board.chains[key].stones}
    return frozenset(whole_groups(board, dead, life))


def chain_life(
    board: Board, *, playouts: int = PLAYOUTS, seed: int = DEAD_STONE_SEED
) -> dict[int, float]:
    """Per chain key, how alive the chain is, from -1 (dead for certain) to 1 (alive for
    certain): Benson's verdicts where they exist, else the mean over the chain's stones of
    their Monte-Carlo ownership (`ownership_totals`) counted for the chain's colour."""
    life: dict[int, float] = {}
    for color in (BLACK, WHITE):
        settled = benson(board, color)
        life.update(dict.fromkeys(settled.alive, 1.0))
        life.update((board.chain_id[p], -1.0) for p in settled.territory
                    if board.colors[p] == 3 - color)
    undecided = [key for key in board.chains if key not in life]
    if undecided:
        totals = ownership_totals(board, playouts=playouts, seed=seed)
        for key in undecided:
            chain = board.chains[key]
            sign = 1 if chain.color == BLACK else -1
            life[key] = sign * sum(totals[s] for s in chain.stones) / (len(chain.stones) * playouts)
    return life


def ownership_totals(board: Board, *, playouts: int, seed: int) -> list[int]:
    """Per point, the sum over `playouts` random playouts of its owner (+1 black, -1 white).

    Half the playouts start with black to move and half with white, so a position's verdict
    does not depend on whose turn it happens to be.
    """
    rng = random.Random(seed)
    totals = [0] * board.geometry.area
    for number in range(playouts):
        scratch = board.copy()
        playout(scratch, BLACK if number % 2 == 0 else WHITE, rng, replies=True)
        for point, owner in enumerate(ownership(scratch)):
            totals[point] += owner
    return totals


def toggle_group(
    board: Board, dead: AbstractSet[int], point: int, life: Mapping[int, float] | None = None
) -> frozenset[int]:
    """The stones whose mark one click on the stone at `point` changes in the scoring phase:
    marked dead if that stone is alive, alive again if it is dead.

    The group is the clicked chain and the same-colour stones that die with it inside the
    other colour's area: from the chain, `_reach` floods across empty points and dead stones
    that are not the clicked colour's own area, and across same-colour chains - except those
    of a living group (`_living_chains`), which stop the flood, as do the points next to them.
    Marking repeats the flood with what it found marked dead, until it finds nothing new;
    reviving takes the dead stones the same flood reaches, so the second click undoes the
    first. Raises `AliveGroup` for a chain with two eyes (`_two_eyed`).
    """
    if point in dead:
        life = chain_life(board) if life is None else life
        return frozenset(p for p in _reach(board, dead, life, [point]) if p in dead)
    key = board.chain_id[point]
    color = board.colors[point]
    if key in _two_eyed(board, regions(board, dead), color):
        raise AliveGroup(
            f"alive group: the {COLOR_NAMES[color]} group at {board.geometry.names[point]} has "
            "two eyes and can never be captured; mark only groups without two eyes dead."
        )
    life = chain_life(board) if life is None else life
    group = set(board.chains[key].stones)
    while True:
        marked = dead | group
        reached = _reach(board, marked, life, [point])
        if reached <= group:
            return frozenset(group - dead)
        group |= reached


def _reach(
    board: Board, dead: AbstractSet[int], life: Mapping[int, float], starts: list[int]
) -> set[int]:
    """The stones that the group flood (see `toggle_group`) reaches, dead or alive, from
    `starts`: stones of one colour, all in `dead`."""
    colors, chain_id, chains = board.colors, board.chain_id, board.chains
    neighbours = board.geometry.neighbours
    color = colors[starts[0]]
    found = regions(board, dead)
    walls = _living_chains(board, found, color, life)
    near_wall = {n for key in walls for s in chains[key].stones for n in neighbours[s]}
    seen, todo = set(starts), list(starts)
    while todo:
        for n in neighbours[todo.pop()]:
            if n in seen:
                continue
            c = colors[n]
            if c == color:
                if n not in dead and chain_id[n] in walls:
                    continue
            elif c == EMPTY or n in dead:
                if found.owner[found.of[n]] == color or n in near_wall:
                    continue
            else:
                continue  # a living stone of the other colour
            seen.add(n)
            todo.append(n)
    return {p for p in seen if colors[p] == color}


def whole_groups(board: Board, dead: AbstractSet[int], life: Mapping[int, float]) -> set[int]:
    """`dead` and every stone that dies with them: the dead stones' groups, as one click on
    each would mark them (`toggle_group`), until no group grows."""
    grown = set(dead)
    while True:
        added: set[int] = set()
        for color in (BLACK, WHITE):
            starts = [p for p in grown if board.colors[p] == color]
            if starts:
                added |= _reach(board, grown, life, starts) - grown
        if not added:
            return grown
        grown |= added


def _two_eyed(board: Board, found: Regions, color: int) -> set[int]:
    """Keys of the `color` chains with two eyes for certain: unconditionally alive by Benson's
    proof, or closing by themselves alone two regions of their own (`found`), which no
    opponent stone can fill without capturing the chain first."""
    alive = set(benson(board, color).alive)
    eyes: dict[int, int] = {}
    for around, owner in zip(found.around, found.owner, strict=True):
        if owner == color and len(around) == 1:
            key = next(iter(around))
            eyes[key] = eyes.get(key, 0) + 1
    return alive | {key for key, count in eyes.items() if count >= 2}


def _living_chains(
    board: Board, found: Regions, color: int, life: Mapping[int, float]
) -> set[int]:
    """Keys of the `color` chains that belong to a living group: a group being chains joined by
    the regions of their own they border (`found`), living when one of its chains has two eyes
    (`_two_eyed`) or the group borders two such regions, or one of `TERRITORY_POINTS`."""
    parent: dict[int, int] = {}

    def root(key: int) -> int:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    regions_of: dict[int, list[int]] = {}  # group root -> sizes of its own regions
    for around, owner, points in zip(found.around, found.owner, found.points, strict=True):
        if owner != color:
            continue
        keys = [root(key) for key in around]
        for other in keys[1:]:
            parent[root(other)] = keys[0]
        regions_of.setdefault(keys[0], []).append(len(points))
    sizes: dict[int, list[int]] = {}
    for top, counts in regions_of.items():
        sizes.setdefault(root(top), []).extend(counts)
    alive = _two_eyed(board, found, color)
    alive |= {key for key, value in life.items()
              if value >= STRONG_LIFE and board.chains[key].color == color}
    living_roots = {top for top, counts in sizes.items()
                    if len(counts) >= 2 or max(counts) >= TERRITORY_POINTS}
    living_roots |= {root(key) for key in alive}
    return alive | {key for key in list(parent) if root(key) in living_roots}
