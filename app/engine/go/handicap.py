"""Fixed handicap placement, exactly as GTP's `fixed_handicap` (GTP v2 spec section 4.1.1).

Start with `handicap_points(size, stones)`. The stones go on the star points: on the third line
for boards up to 11x11, the fourth line from 12x12 up. 2 to 4 stones take corners (lower-left,
upper-right, upper-left, lower-right in that order); 5 adds the centre; 6 the two side points
on the middle row; 7 adds the centre to those; 8 the four side points; 9 adds the centre.
Boards of 7x7 and up take a handicap; only odd sizes of 9 and up have the side and centre
points, so other sizes stop at 4 stones. Anything else is an `InvalidHandicap`.
"""

from __future__ import annotations

from ..errors import quoted
from .coords import check_size, geometry
from .errors import InvalidHandicap

MIN_HANDICAP = 2  # one "handicap stone" is just black moving first without komi: not fixed
MAX_HANDICAP = 9  # all nine star points are taken
MIN_HANDICAP_SIZE = 7  # on smaller boards the star points would touch the edge region
FOURTH_LINE_FROM = 12  # from 12x12 up the star points sit on the fourth line (GNU Go, GTP)
EVEN_KOMI = 7.5  # the common area-scoring komi for an even game
HANDICAP_KOMI = 0.5  # with handicap white already gives stones; half a point breaks ties


def max_handicap(size: int) -> int:
    """The largest fixed handicap on a `size` board (0 when the board takes none)."""
    check_size(size)
    if size < MIN_HANDICAP_SIZE:
        return 0
    if size % 2 == 1 and size >= 9:
        return MAX_HANDICAP
    return 4


def handicap_points(size: int, stones: int) -> list[int]:
    """The points (see `coords`) of a fixed handicap of `stones` on a `size` board, in GTP's
    order. 0 stones means no handicap and gives an empty list."""
    check_size(size)
    if isinstance(stones, bool) or not isinstance(stones, int):
        raise InvalidHandicap(f"invalid handicap: {quoted(stones)} is not a number of stones.")
    if stones == 0:
        return []
    limit = max_handicap(size)
    if limit == 0:
        raise InvalidHandicap(
            f"invalid handicap: a {size}x{size} board is too small for handicap stones; "
            f"use a board of {MIN_HANDICAP_SIZE}x{MIN_HANDICAP_SIZE} or larger."
        )
    if not MIN_HANDICAP <= stones <= limit:
        raise InvalidHandicap(
            f"invalid handicap: a {size}x{size} board takes {MIN_HANDICAP} to {limit} "
            f"handicap stones, not {stones}."
        )
    low = 3 if size >= FOURTH_LINE_FROM else 2  # 0-based distance of the star points from an edge
    high = size - 1 - low
    mid = size // 2
    # (column, row from the bottom) in GTP's order of adding them.
    corners = [(low, low), (high, high), (low, high), (high, low)]
    if stones <= 4:
        chosen = corners[:stones]
    else:
        chosen = corners[:]
        if stones >= 6:
            chosen += [(low, mid), (high, mid)]
        if stones >= 8:
            chosen += [(mid, low), (mid, high)]
        if stones % 2 == 1:
            chosen.append((mid, mid))
    shape = geometry(size)
    return [shape.point(column, size - 1 - row) for column, row in chosen]


def default_komi(handicap: int) -> float:
    """Komi when the caller gives none: 7.5 in an even game, 0.5 with handicap stones."""
    return EVEN_KOMI if handicap == 0 else HANDICAP_KOMI
