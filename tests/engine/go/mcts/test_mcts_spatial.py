"""Large spatial patterns (`priors.spatial_hashes`, `spatial_feature`) and their table
(`features.build_spatial_table`, `spatial_table`).

Start with `test_a_shape_has_one_hash_in_every_orientation`: random stones around a move, the
board turned and mirrored eight ways, and the hashes of every size must not change. Then the
colours (seen from the mover), the nesting of the sizes, the table's lookup of the largest
known pattern, and the training's numpy lookup against the kernel's.
"""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.go import BLACK, PASS, WHITE
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import priors, scratch, warm_up
from app.engine.go.mcts.features import (
    build_spatial_table,
    gamma_table,
    parse_spatial_key,
    spatial_key,
    spatial_table,
)
from tools import train_patterns

SIZE = 13
W = SIZE + 2


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def board_with(stones: dict[tuple[int, int], int], to_move: int = BLACK) -> np.ndarray:
    """A 13x13 array board with stones at (row, column), 1-based."""
    black = np.array([r * W + c for (r, c), s in stones.items() if s == BLACK], np.int64)
    white = np.array([r * W + c for (r, c), s in stones.items() if s == WHITE], np.int64)
    return fb.setup_board(SIZE, black, white, to_move, PASS)


def hashes(b: np.ndarray, row: int, column: int, color: int = BLACK) -> list[int]:
    out = np.zeros(priors.N_SPATIAL_SIZES, np.int64)
    colors = np.zeros(priors.SPATIAL_POINTS, np.int64)
    priors.spatial_hashes(b, row * W + column, color, colors, out)
    return out.tolist()


def random_stones(seed: int, centre: tuple[int, int]) -> dict[tuple[int, int], int]:
    rng = np.random.default_rng(seed)
    stones = {}
    for dy in range(-4, 5):
        for dx in range(-4, 5):
            r, c = centre[0] + dy, centre[1] + dx
            if (dy, dx) != (0, 0) and 1 <= r <= SIZE and 1 <= c <= SIZE and rng.random() < 0.4:
                stones[(r, c)] = BLACK if rng.random() < 0.5 else WHITE
    return stones


def transform(point: tuple[int, int], k: int) -> tuple[int, int]:
    """The k-th of the board's 8 symmetries (k < 4 rotations, then mirrored)."""
    r, c = point
    for _ in range(k % 4):
        r, c = c, SIZE + 1 - r
    return (r, SIZE + 1 - c) if k >= 4 else (r, c)


@pytest.mark.parametrize("centre", [(7, 7), (2, 3), (1, 1), (4, 12)])
def test_a_shape_has_one_hash_in_every_orientation(centre: tuple[int, int]) -> None:
    stones = random_stones(sum(centre), centre)
    expected = hashes(board_with(stones), *centre)
    for k in range(8):
        turned = {transform(p, k): s for p, s in stones.items()}
        assert hashes(board_with(turned), *transform(centre, k)) == expected, k
    assert len(set(expected)) == priors.N_SPATIAL_SIZES  # each size its own hash


def test_colours_are_seen_from_the_player_to_move() -> None:
    stones = random_stones(5, (7, 7))
    swapped = {p: BLACK + WHITE - s for p, s in stones.items()}
    assert hashes(board_with(stones), 7, 7, BLACK) == hashes(board_with(swapped), 7, 7, WHITE)
    assert hashes(board_with(stones), 7, 7, BLACK) != hashes(board_with(stones), 7, 7, WHITE)


def test_a_stone_changes_only_the_sizes_that_reach_it() -> None:
    """A stone at gridcular distance 6 (three lines away) from the move is outside the
    patterns of sizes 4 and 5 and inside those of 6, 7 and 8; the same shape elsewhere on
    the board, away from the edges, has the same hashes."""
    empty = hashes(board_with({}), 7, 7)
    one = hashes(board_with({(7, 10): WHITE}), 7, 7)
    assert one[:2] == empty[:2] and all(a != b for a, b in zip(one[2:], empty[2:], strict=True))
    assert hashes(board_with({(6, 9): WHITE}), 6, 6) == one
    # Off the board counts as a colour of its own: the edge changes the hash.
    assert hashes(board_with({}), 2, 7)[0] != empty[0]


def test_the_table_finds_the_largest_known_pattern() -> None:
    found = hashes(board_with(random_stones(3, (7, 7))), 7, 7)
    out = np.array(found, np.int64)
    table = build_spatial_table([found[1], found[3], 12345])
    assert priors.spatial_feature(out, table) == priors.F_SPATIAL + 1 + 1  # size 7 (index 3)
    table = build_spatial_table([found[0]])
    assert priors.spatial_feature(out, table) == priors.F_SPATIAL + 1
    assert priors.spatial_feature(out, build_spatial_table([])) == priors.F_SPATIAL
    # Collisions in the table's slots are probed past: a full enough table still finds all.
    many = [int(h) * 2 + 1 for h in range(1, 200)] + found
    table = build_spatial_table(many)
    assert table.shape[1] >= 2 * len(many)
    assert priors.spatial_feature(out, table) == priors.F_SPATIAL + 1 + len(many) - 1


def test_the_training_looks_patterns_up_as_the_search_does() -> None:
    """train_patterns.spatial_column (numpy, over every candidate of the corpus) and
    priors.spatial_feature (the kernel the priors use) agree on real positions."""
    rng = np.random.default_rng(11)
    b = board_with(random_stones(8, (7, 7)) | random_stones(9, (3, 10)))
    work = np.zeros((scratch.WORK_ROWS, scratch.WORK_WIDTH_PER_POINT * b.shape[1]), np.int64)
    out = np.zeros((SIZE * SIZE, priors.FEATURE_COLUMNS), np.int64)
    count = priors.position_features(b, work, build_spatial_table([]), out)
    rows = out[:count, priors.FEATURE_HASHES :]
    known = rng.choice(rows.ravel(), 40, replace=False).tolist()
    table = [(int(h), priors.SPATIAL_SIZES[0]) for h in dict.fromkeys(known)]
    column = train_patterns.spatial_column(rows, table)
    kernel = build_spatial_table([h for h, _ in table])
    assert [priors.spatial_feature(row, kernel) for row in rows] == column.tolist()
    assert (column > priors.F_SPATIAL).sum() >= 10
    again = priors.position_features(b, work, kernel, out)
    assert again == count and out[:count, priors.FEATURE_SPATIAL].tolist() == column.tolist()


def test_the_weights_file_spatial_patterns_are_in_the_gamma_table() -> None:
    table = spatial_table()
    gammas = gamma_table()
    assert not table.flags.writeable
    used = table[1][table[0] != 0]
    first = priors.F_SPATIAL + 1
    assert sorted(used.tolist()) == list(range(first, first + used.size))
    assert np.all(gammas[2, used] > 0)
    assert parse_spatial_key(spatial_key(6, -5)) == (6, -5)
    with pytest.raises(ValueError, match="16 hex"):
        parse_spatial_key("6:abc")
