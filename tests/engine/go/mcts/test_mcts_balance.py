"""Simulation balancing of the playout policy's coins (tools/balance_playouts.py): the playouts
count their coin tosses (`policy.coin`), the score function is the gradient of the tosses'
log-likelihood, and a step moves a coin the way that brings the playout value to the label."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.engine.go import WHITE, Game
from app.engine.go.coords import PASS
from app.engine.go.mcts import policy, warm_up
from app.engine.go.mcts.patterns import pattern_table
from app.engine.go.mcts.player import array_board
from app.engine.go.mcts.scratch import W_CAND, W_KIND, make_work
from app.engine.go.mcts.tuning import (
    C_CAPTURE,
    C_PATTERN,
    C_SHAPES,
    NCOINS,
    P_COINS,
    make_params,
)
from tools import balance_playouts

LABELS = Path(__file__).resolve().parents[3] / "data" / "go" / "diagnostic_9.json"


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def tosses(capture: float, pattern: float, shapes: float = 1.0) -> np.ndarray:
    """The coin tosses of 50 playouts from a middle-game 9x9 position with these coins (every
    shape class's coin at `shapes`)."""
    game = Game.from_moves(["E5", "D4", "D5", "C5", "E3", "E4", "F4", "D3", "F3", "C6"], 9, 7.5)
    board = array_board(game)
    params = make_params(7.5)
    params[P_COINS + C_CAPTURE] = capture
    params[P_COINS + C_PATTERN] = pattern
    params[P_COINS + C_SHAPES : P_COINS + NCOINS] = shapes
    results = np.zeros(50)
    coins = np.zeros((50, 2 * NCOINS), np.int64)
    policy.balance_playouts(board, np.array([3], np.uint64), pattern_table(), make_work(board),
                            params, np.bool_(True), np.bool_(True), results, coins)
    assert set(results) <= {0.0, 0.5, 1.0}
    return coins


def test_the_playouts_count_each_coin_s_tosses() -> None:
    never = tosses(0.0, 1.0)
    always = tosses(1.0, 0.0)
    capture, pattern = 2 * C_CAPTURE, 2 * C_PATTERN
    assert never[:, capture].sum() == 0 and never[:, capture + 1].sum() > 100
    assert never[:, pattern + 1].sum() == 0 and never[:, pattern].sum() > 100
    assert always[:, capture + 1].sum() == 0 and always[:, capture].sum() > 100
    assert always[:, pattern].sum() == 0 and always[:, pattern + 1].sum() > 100


def test_a_shape_is_played_only_if_its_class_coin_agrees() -> None:
    refused = tosses(0.9, 1.0, shapes=0.0)[:, 2 * C_SHAPES :]
    played = tosses(0.9, 1.0, shapes=1.0)[:, 2 * C_SHAPES :]
    assert refused[:, 0::2].sum() == 0 and refused[:, 1::2].sum() > 100
    assert played[:, 1::2].sum() == 0 and played[:, 0::2].sum() > 100
    # several classes come up in these playouts, each counted in its own columns
    assert np.count_nonzero(played[:, 0::2].sum(axis=0)) >= 4


def test_shapes_are_picked_in_proportion_to_their_class_coins() -> None:
    # Two acceptable shape candidates of classes 0 and 1 on an open board, coins 0.2 and 0.8:
    # a uniform pick is played if its coin agrees, else the other is tried. So class 1 is
    # played with 1/2 * 0.8 + 1/2 * 0.8 * 0.8 = 0.72, class 0 with 0.12, neither with 0.16.
    board = array_board(Game.from_moves(["E5"], 9, 7.5))
    work = make_work(board)
    params = make_params(7.5)
    params[P_COINS + C_SHAPES] = 0.2
    params[P_COINS + C_SHAPES + 1] = 0.8
    width = 9 + 2  # the array board's rows carry an edge point on each side
    first, second = 5 * width + 3, 5 * width + 7  # two empty points of the fifth row, apart
    rng = np.array([5], np.uint64)
    counts = {first: 0, second: 0, PASS: 0}
    for _ in range(20_000):
        work[W_CAND, :2] = (first, second)
        work[W_KIND, :2] = (policy.K_SHAPE, policy.K_SHAPE + 1)
        picked = policy.pick_candidate(board, WHITE, rng, work, params, np.bool_(False),
                                       np.int64(2))
        counts[picked] += 1
    assert counts[second] / 20_000 == pytest.approx(0.72, abs=0.015)
    assert counts[first] / 20_000 == pytest.approx(0.12, abs=0.01)
    assert counts[PASS] / 20_000 == pytest.approx(0.16, abs=0.01)


def test_the_score_is_the_gradient_of_the_tosses_log_likelihood() -> None:
    rng = np.random.default_rng(1)
    coins = rng.integers(0, 30, size=(4, 2 * NCOINS))
    theta = rng.normal(size=NCOINS)

    def log_likelihood(t: np.ndarray) -> np.ndarray:
        p = 1.0 / (1.0 + np.exp(-t))
        return np.asarray(coins[:, 0::2] * np.log(p) + coins[:, 1::2] * np.log(1 - p))

    eps = 1e-6
    numeric = np.stack([(log_likelihood(theta + eps * np.eye(NCOINS)[i])
                         - log_likelihood(theta - eps * np.eye(NCOINS)[i])).sum(axis=1)
                        / (2 * eps) for i in range(NCOINS)], axis=1)
    probabilities = 1.0 / (1.0 + np.exp(-theta))
    assert np.allclose(balance_playouts.score(coins, probabilities), numeric, atol=1e-5)


def test_a_step_moves_a_coin_towards_the_label() -> None:
    # Black wins exactly the playouts in which the first coin came up heads more often than
    # tails: heads raise V. A label above V asks for more heads, one below for fewer; a coin
    # the results do not depend on gets no step on average.
    rng = np.random.default_rng(2)
    probabilities = np.full(NCOINS, 0.5)
    coins = rng.integers(0, 20, size=(4000, 2 * NCOINS))
    results = (coins[:, 0] > coins[:, 1]).astype(np.float64)
    value_results = results[:2000]
    up = balance_playouts.balance_step(0.9, value_results, results[2000:], coins[2000:],
                                       probabilities)
    down = balance_playouts.balance_step(0.1, value_results, results[2000:], coins[2000:],
                                         probabilities)
    assert up[0] > 0.5 and down[0] < -0.5
    assert np.all(np.abs(up[1:]) < 0.3 * up[0])


def test_the_script_fits_and_reports_on_held_out_positions(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert balance_playouts.main(["--labels", str(LABELS), "--positions", "10",
                                  "--iterations", "2", "--value-playouts", "8",
                                  "--gradient-playouts", "8", "--check-playouts", "8"]) == 0
    out = capsys.readouterr().out
    assert "9 positions to fit, 1 held out" in out
    assert "held out" in out and "step   2" in out
    fitted = [float(line.split("=")[1].split("#")[0]) for line in out.splitlines()
              if line.startswith("PROB_")]
    assert len(fitted) == NCOINS and all(0.01 <= p <= 0.99 for p in fitted)


def test_the_script_measures_given_coins_without_fitting(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert balance_playouts.main(["--labels", str(LABELS), "--positions", "10",
                                  "--iterations", "0", "--check-playouts", "8",
                                  "--start", "1,0,0.5,0.25,1,1,0.8"]) == 0
    out = capsys.readouterr().out
    assert "step" not in out
    assert "PROB_CAPTURE = 1.00" in out and "PROB_TWO_LIBERTIES = 0.00" in out
    before, after = out.split("fitted positions ")[1].split(",")[0].split(" -> ")
    assert before == after


@pytest.mark.parametrize("fit", ["coins", "shapes"])
def test_the_script_fits_only_the_coins_it_is_told_to(
        capsys: pytest.CaptureFixture[str], fit: str) -> None:
    assert balance_playouts.main(["--labels", str(LABELS), "--positions", "10",
                                  "--iterations", "2", "--value-playouts", "8",
                                  "--gradient-playouts", "8", "--check-playouts", "8",
                                  "--fit", fit]) == 0
    rows = [line.split("=")[1].split("  # was ") for line in capsys.readouterr().out.splitlines()
            if line.startswith("PROB_")]
    assert len(rows) == NCOINS
    kept = rows[C_SHAPES:] if fit == "coins" else rows[:C_SHAPES]
    assert all(new.strip() == old for new, old in kept)  # exactly as they were: 1.00 too


@pytest.mark.parametrize("arguments", [
    ["--iterations", "-1"], ["--value-playouts", "1"], ["--positions", "5"],
    ["--rate", "0"], ["--start", "0.9,0.9"], ["--start", "0.9,0.9,0.9,0.9,0.9,0.9,1.5"],
    ["--start", "a,b,c,d,e"], ["--start", "0.9,0.9,0.9,0.9,0.9,0.9"], ["--fit", "priors"],
])
def test_the_script_refuses_nonsense(arguments: list[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        balance_playouts.main(["--labels", str(LABELS), *arguments])
    assert refused.value.code == 2
