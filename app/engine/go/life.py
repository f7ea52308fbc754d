"""Benson's unconditional life: chains that can never be captured, even if their owner passes
every move from now on - the part of life and death that is certain, with no search.

Start with `benson(board, color)`. A colour's "enclosed regions" are the connected areas of
points not holding its stones. A region is *vital* to a chain when every empty point of the
region is a liberty of that chain. Repeatedly drop every chain with fewer than two vital
regions among the remaining regions, then every region that touches a dropped chain; what is
left is unconditionally alive (Benson 1976). Enemy stones inside a remaining region that is
vital to one of those chains can never make an eye there: they are dead, and the region is the
colour's territory for certain.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board


@dataclass(frozen=True, slots=True)
class Settled:
    """What Benson proves for one colour: `alive` chain keys (see `Board.chains`) and the
    `territory` points (empty points and dead enemy stones) its regions hold for certain."""

    alive: frozenset[int]
    territory: frozenset[int]


def benson(board: Board, color: int) -> Settled:
    """The unconditionally alive chains of `color` and the territory they secure."""
    colors, chain_id, chains = board.colors, board.chain_id, board.chains
    neighbours = board.geometry.neighbours
    region_of = [-1] * len(colors)
    regions: list[list[int]] = []
    borders: list[set[int]] = []  # chain keys of `color` touching each region
    for start, c in enumerate(colors):
        if c == color or region_of[start] != -1:
            continue
        number = len(regions)
        region_of[start] = number
        points, todo, touching = [start], [start], set()
        while todo:
            for n in neighbours[todo.pop()]:
                if colors[n] == color:
                    touching.add(chain_id[n])
                elif region_of[n] == -1:
                    region_of[n] = number
                    points.append(n)
                    todo.append(n)
        regions.append(points)
        borders.append(touching)

    # vital[r]: the bordering chains that have every empty point of region r as a liberty.
    vital: list[set[int]] = []
    for points, touching in zip(regions, borders, strict=True):
        empty = [p for p in points if colors[p] == 0]
        vital.append(
            {key for key in touching if all(p in chains[key].liberties for p in empty)}
        )

    alive = {key for key, chain in chains.items() if chain.color == color}
    live_regions = set(range(len(regions)))
    while True:
        count = dict.fromkeys(alive, 0)
        for r in live_regions:
            for key in vital[r]:
                if key in count:
                    count[key] += 1
        dropped = {key for key, n in count.items() if n < 2}
        if not dropped:
            break
        alive -= dropped
        live_regions = {r for r in live_regions if borders[r] <= alive}

    territory: set[int] = set()
    for r in live_regions:
        if vital[r] & alive:
            territory.update(regions[r])
    return Settled(frozenset(alive), frozenset(territory))
