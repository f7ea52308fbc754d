"""The Go position: stones, chains with their exact liberty sets, captures, suicide, simple ko.

Start with `Board.play`. A `Board` is mutable (explicit `play` / `pass_turn`, undo by keeping a
`copy()`), because playouts apply thousands of moves and a fresh object per move would cost more
than the move. Points are ints (see `coords`); colours are the ints `BLACK` and `WHITE`.

Chains are maintained INCREMENTALLY: every chain keeps its stones and the SET of its liberties,
so a liberty shared by two stones of one chain is counted once, and a move touches only the
(at most four) chains next to it plus the stones it captures - never a whole-board flood fill.

The board knows the simple ko (the one point the next player may not retake at once) but not
the game's history; positional superko is checked by `game.Game`, which hands `play` the set of
earlier position hashes as `forbidden`.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import Literal

from .coords import PASS, Geometry, geometry
from .errors import InvalidSetup, Ko, Occupied, Suicide
from .zobrist import zobrist_keys

EMPTY = 0
BLACK = 1
WHITE = 2

Color = Literal["black", "white"]
COLOR_NAMES: dict[int, Color] = {BLACK: "black", WHITE: "white"}
COLOR_VALUES: dict[str, int] = {"black": BLACK, "white": WHITE}
ROW_CHARS = ".XO"  # indexed by colour: how board_rows() draws a point

NO_CHAIN = -1  # chain id of an empty point
NO_POINT = -1  # "no simple ko now"


class Chain:
    """A maximal set of connected stones of one colour and the set of its liberties.

    Owned by its `Board`: read `stones` and `liberties`, never change them.
    """

    __slots__ = ("color", "liberties", "stones")

    def __init__(self, color: int, stones: list[int], liberties: set[int]) -> None:
        self.color = color
        self.stones = stones
        self.liberties = liberties

    def copy(self) -> Chain:
        return Chain(self.color, self.stones[:], set(self.liberties))

    def __repr__(self) -> str:
        return f"Chain({COLOR_NAMES[self.color]}, stones={sorted(self.stones)})"


class Board:
    """A position: whose stones are where, grouped into chains, plus the simple-ko point.

    Attributes are public for the engine's own fast paths (`playout`, `life`, `scoring`) and
    read-only for everyone else: `colors[p]`, `chain_id[p]` (the key of p's chain in `chains`,
    `NO_CHAIN` when empty), `chains`, `empties` (the empty points in no particular order),
    `hash` (Zobrist hash of the stones only, for positional superko), `ko_point`/`ko_color`
    (the point `ko_color` may not play next, or `NO_POINT`).
    """

    __slots__ = (
        "chain_id",
        "chains",
        "colors",
        "empties",
        "empty_index",
        "geometry",
        "hash",
        "ko_color",
        "ko_point",
        "size",
    )

    def __init__(self, size: int) -> None:
        """An empty `size` x `size` board (`coords.check_size` rules apply)."""
        self.geometry: Geometry = geometry(size)
        self.size = size
        area = self.geometry.area
        self.colors: list[int] = [EMPTY] * area
        self.chain_id: list[int] = [NO_CHAIN] * area
        self.chains: dict[int, Chain] = {}
        self.empties: list[int] = list(range(area))
        # empty_index[p] is p's position in `empties` (meaningless while p holds a stone), so a
        # point leaves the list in O(1) by swapping with the last entry.
        self.empty_index: list[int] = list(range(area))
        self.hash = 0
        self.ko_point = NO_POINT
        self.ko_color = EMPTY

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def from_stones(cls, size: int, black: Iterable[int], white: Iterable[int]) -> Board:
        """A board holding exactly these stones (set-up positions, handicap, SGF AB/AW).

        Raises `InvalidSetup` if a point is given twice or a chain would have no liberty.
        """
        board = cls(size)
        names = board.geometry.names
        for color, points in ((BLACK, black), (WHITE, white)):
            for point in points:
                if board.colors[point] != EMPTY:
                    raise InvalidSetup(
                        f"invalid setup: {names[point]} is given a stone twice."
                    )
                board._put(point, color)
        board._rebuild_chains()
        for chain in board.chains.values():
            if not chain.liberties:
                stones = ", ".join(sorted(names[s] for s in chain.stones))
                raise InvalidSetup(
                    f"invalid setup: the {COLOR_NAMES[chain.color]} stones at {stones} would "
                    "have no liberty."
                )
        return board

    def _put(self, point: int, color: int) -> None:
        """Place a stone without any rule or chain bookkeeping (set-up only)."""
        self.colors[point] = color
        self.hash ^= zobrist_keys(self.size)[color][point]
        self._remove_empty(point)

    def _rebuild_chains(self) -> None:
        """Flood-fill every chain from scratch: used once per set-up, never per move."""
        colors, neighbours = self.colors, self.geometry.neighbours
        self.chain_id = [NO_CHAIN] * self.geometry.area
        self.chains = {}
        for start, color in enumerate(colors):
            if color == EMPTY or self.chain_id[start] != NO_CHAIN:
                continue
            stones, liberties, todo = [start], set(), [start]
            self.chain_id[start] = start
            while todo:
                for n in neighbours[todo.pop()]:
                    if colors[n] == EMPTY:
                        liberties.add(n)
                    elif colors[n] == color and self.chain_id[n] == NO_CHAIN:
                        self.chain_id[n] = start
                        stones.append(n)
                        todo.append(n)
            self.chains[start] = Chain(color, stones, liberties)

    def copy(self) -> Board:
        """An independent copy (the undo of the fast paths: copy, play, throw away)."""
        other = Board.__new__(Board)
        other.geometry = self.geometry
        other.size = self.size
        other.colors = self.colors[:]
        other.chain_id = self.chain_id[:]
        other.chains = {key: chain.copy() for key, chain in self.chains.items()}
        other.empties = self.empties[:]
        other.empty_index = self.empty_index[:]
        other.hash = self.hash
        other.ko_point = self.ko_point
        other.ko_color = self.ko_color
        return other

    # -- reading -------------------------------------------------------------------------------

    def chain_at(self, point: int) -> Chain | None:
        """The chain through `point`, or None if it is empty."""
        key = self.chain_id[point]
        return None if key == NO_CHAIN else self.chains[key]

    def all_chains(self) -> list[Chain]:
        return list(self.chains.values())

    def atari_chains(self) -> list[Chain]:
        """Chains with exactly one liberty, in board order of their first stone."""
        return sorted(
            (chain for chain in self.chains.values() if len(chain.liberties) == 1),
            key=lambda chain: min(chain.stones),
        )

    def rows(self) -> list[str]:
        """The board as text rows from the top: '.' empty, 'X' black, 'O' white."""
        size, colors = self.size, self.colors
        return [
            "".join(ROW_CHARS[c] for c in colors[row * size : (row + 1) * size])
            for row in range(size)
        ]

    def stones(self, color: int) -> list[int]:
        return [p for p, c in enumerate(self.colors) if c == color]

    # -- moves ---------------------------------------------------------------------------------

    def is_legal(self, point: int, color: int) -> bool:
        """Whether `color` may play `point` now: empty, not the simple ko, not suicide.

        (Positional superko needs the game's history: see `Game.is_legal`.)
        """
        if self.colors[point] != EMPTY or (point == self.ko_point and color == self.ko_color):
            return False
        colors, chain_id, chains = self.colors, self.chain_id, self.chains
        for n in self.geometry.neighbours[point]:
            c = colors[n]
            if c == EMPTY:
                return True
            libs = len(chains[chain_id[n]].liberties)
            # Joining an own chain that keeps another liberty, or taking an enemy's last one.
            if (c == color) == (libs > 1):
                return True
        return False

    def legal_moves(self, color: int) -> list[int]:
        """Every point `color` may play now (simple ko, not superko), in board order."""
        is_legal = self.is_legal
        return sorted(p for p in self.empties if is_legal(p, color))

    def hash_after(self, point: int, color: int) -> int:
        """The position hash after `color` plays legal move `point` (board unchanged)."""
        keys = zobrist_keys(self.size)
        result = self.hash ^ keys[color][point]
        colors, chain_id, chains = self.colors, self.chain_id, self.chains
        enemy, enemy_keys = 3 - color, keys[3 - color]
        seen: list[int] = []
        for n in self.geometry.neighbours[point]:
            if colors[n] == enemy:
                key = chain_id[n]
                if key not in seen and len(chains[key].liberties) == 1:
                    seen.append(key)
                    for stone in chains[key].stones:
                        result ^= enemy_keys[stone]
        return result

    def pass_turn(self) -> None:
        """A pass changes no stone but ends the simple-ko ban."""
        self.ko_point = NO_POINT

    def play(self, point: int, color: int, forbidden: Container[int] | None = None) -> list[int]:
        """Put a `color` stone on `point`, capture, and return the captured points.

        Refuses (raising, with the board unchanged) an occupied point, a suicide of one stone or
        of several, the simple-ko retake, and - when `forbidden` holds earlier position hashes -
        any move whose resulting position hash is among them (positional superko).
        """
        if point == PASS:
            self.pass_turn()
            return []
        colors = self.colors
        if colors[point] != EMPTY:
            raise Occupied(
                f"occupied: {self.geometry.names[point]} already holds a stone; choose an "
                "empty point."
            )
        if point == self.ko_point and color == self.ko_color:
            raise Ko(
                f"ko: {self.geometry.names[point]} would retake the ko at once; play elsewhere "
                "first."
            )
        chain_id, chains = self.chain_id, self.chains
        free: list[int] = []  # empty neighbours: the new stone's own liberties
        own: list[int] = []  # keys of friendly chains that the stone joins
        enemy: list[int] = []  # keys of enemy chains that lose a liberty
        for n in self.geometry.neighbours[point]:
            c = colors[n]
            if c == EMPTY:
                free.append(n)
            elif c == color:
                key = chain_id[n]
                if key not in own:
                    own.append(key)
            else:
                key = chain_id[n]
                if key not in enemy:
                    enemy.append(key)
        doomed = [key for key in enemy if len(chains[key].liberties) == 1]
        if not free and not doomed and all(len(chains[key].liberties) == 1 for key in own):
            raise Suicide(self._suicide_message(point, own))

        keys = zobrist_keys(self.size)
        new_hash = self.hash ^ keys[color][point]
        enemy_keys = keys[3 - color]
        for key in doomed:
            for stone in chains[key].stones:
                new_hash ^= enemy_keys[stone]
        if forbidden is not None and new_hash in forbidden:
            raise Ko(
                f"ko: {self.geometry.names[point]} would repeat an earlier position of this "
                "game (positional superko); play elsewhere first."
            )

        # The move is legal: from here on nothing raises.
        colors[point] = color
        self._remove_empty(point)
        if own:
            # Merge into the longest chain so the fewest stones are relabelled.
            base_key = own[0]
            for key in own[1:]:
                if len(chains[key].stones) > len(chains[base_key].stones):
                    base_key = key
            base = chains[base_key]
            for key in own:
                if key != base_key:
                    merged = chains.pop(key)
                    for stone in merged.stones:
                        chain_id[stone] = base_key
                    base.stones.extend(merged.stones)
                    base.liberties |= merged.liberties
            base.stones.append(point)
            chain_id[point] = base_key
            base.liberties.discard(point)
            base.liberties.update(free)
        else:
            base = Chain(color, [point], set(free))
            chains[point] = base
            chain_id[point] = point
        for key in enemy:
            chains[key].liberties.discard(point)

        captured: list[int] = []
        if doomed:
            neighbours = self.geometry.neighbours
            for key in doomed:
                dead = chains.pop(key)
                for stone in dead.stones:
                    colors[stone] = EMPTY
                    chain_id[stone] = NO_CHAIN
                    self.empty_index[stone] = len(self.empties)
                    self.empties.append(stone)
                captured.extend(dead.stones)
            # Only now are all captured points empty: each becomes a liberty of the mover's
            # chains around it (no enemy chain can touch a captured stone and survive).
            for stone in captured:
                for n in neighbours[stone]:
                    if colors[n] == color:
                        chains[chain_id[n]].liberties.add(stone)
        self.hash = new_hash
        if len(captured) == 1 and len(base.stones) == 1 and len(base.liberties) == 1:
            self.ko_point, self.ko_color = captured[0], 3 - color
        else:
            self.ko_point = NO_POINT
        return captured

    def _remove_empty(self, point: int) -> None:
        empties, index = self.empties, self.empty_index
        slot = index[point]
        last = empties.pop()
        if last != point:
            empties[slot] = last
            index[last] = slot

    def _suicide_message(self, point: int, own: list[int]) -> str:
        name = self.geometry.names[point]
        if not own:
            return (
                f"suicide: a stone at {name} would have no liberties and capture nothing; "
                "choose another point."
            )
        count = 1 + sum(len(self.chains[key].stones) for key in own)
        return (
            f"suicide: {name} would fill the last liberty of your own group of {count} stones "
            "without capturing; choose another point."
        )

    def __repr__(self) -> str:
        return "Board(\n  " + "\n  ".join(self.rows()) + "\n)"
