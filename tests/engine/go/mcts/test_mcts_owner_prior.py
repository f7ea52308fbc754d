"""The search's ownership in the trained priors (`priors.move_priors`, `tuning.OWNER_GAMMAS`):
once `OWNER_MIN_SIMULATIONS` playouts have run, a move's gamma is scaled by how often its point
ended the mover's - a point the opponent surely holds, or the mover's settled area, weighs
less than a contested one."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import priors, scratch, tuning
from app.engine.go.mcts.fastboard import padded_point
from app.engine.go.mcts.features import gamma_table, spatial_table
from app.engine.go.mcts.patterns import pattern_table

SIZE = 9


def strengths(owners: dict[str, int], simulations: int,
              black_to_move: bool = True) -> dict[int, float]:
    """Each candidate's gamma on an empty 9x9 board, the work arrays saying that the search's
    `simulations` playouts ended with these points' owner sums (+1 a black point)."""
    b = fb.new_board(SIZE)
    if not black_to_move:
        fb.pass_move(b)
    work = scratch.make_work(b)
    for name, total in owners.items():
        work[scratch.W_OWNER, padded_point(name, SIZE)] = total
    work[scratch.W_SIMULATIONS, 0] = simulations
    params = tuning.make_params(7.5, SIZE)
    area = SIZE * SIZE
    points = np.empty(area, np.int64)
    visits = np.empty(area, np.float64)
    wins = np.empty(area, np.float64)
    strength = np.empty(area, np.float64)
    count = priors.move_priors(b, params, pattern_table(), gamma_table(), spatial_table(), work,
                               False, points, visits, wins, strength)
    return dict(zip(points[:count].tolist(), strength[:count].tolist(), strict=True))


@pytest.mark.parametrize(("total", "black_to_move", "bucket"), [
    (-200, True, 0),  # white's in every playout: black would invade a point it never holds
    (200, True, 7),  # black's own settled point
    (-200, False, 7),  # the same point with white to move: white's own
    (-150, True, 1),  # black's in 1 of 8 playouts
])
def test_a_moves_gamma_is_scaled_by_its_ownership(total: int, black_to_move: bool,
                                                  bucket: int) -> None:
    point = padded_point("E5", SIZE)
    plain = strengths({}, 0, black_to_move)  # no playouts yet: no ownership
    owned = strengths({"E5": total}, 200, black_to_move)
    assert owned[point] == pytest.approx(plain[point] * tuning.OWNER_GAMMAS[bucket])
    other = padded_point("C3", SIZE)  # black's in half the playouts, white's in half
    assert owned[other] == pytest.approx(plain[other] * tuning.OWNER_GAMMAS[4])


def test_too_few_playouts_say_nothing_of_ownership() -> None:
    point = padded_point("E5", SIZE)
    few = tuning.OWNER_MIN_SIMULATIONS - 1
    assert strengths({"E5": -few}, few)[point] == pytest.approx(strengths({}, few)[point])
