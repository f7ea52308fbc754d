"""The computer players: the registry, exhaustive perfection of the perfect ones, randomness."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.engine.tictactoe import (
    STRATEGY_NAMES,
    Board,
    Choice,
    GameOver,
    UnknownStrategy,
    get_strategy,
    reachable_positions,
)
from app.engine.tictactoe.players import SLIP_PROBABILITY, FallibleStrategy
from app.engine.tictactoe.search import best_cells_alphabeta, best_cells_minimax

# `oracle` and `live_positions` are fixtures from conftest.py: `oracle` solves the game on
# plain strings, independently of the engine.
Oracle = Any

LABELS = {
    "random": "Random",
    "rules": "Human-like rules",
    "minimax": "Minimax",
    "alphabeta": "Alpha-beta",
    "montecarlo": "Monte Carlo",
    "fallible": "Perfect but fallible (5%)",
}
PERFECT = ("minimax", "alphabeta", "rules")


def test_strategy_names_in_order() -> None:
    assert STRATEGY_NAMES == ("random", "rules", "minimax", "alphabeta", "montecarlo", "fallible")


@pytest.mark.parametrize("name", STRATEGY_NAMES)
def test_registry_gives_named_labelled_described_players(name: str) -> None:
    strategy = get_strategy(name)
    assert strategy.name == name
    assert strategy.label == LABELS[name]
    assert strategy.description.endswith(".") and len(strategy.description) > 20


@pytest.mark.parametrize("name", ["", "Minimax", "perfect", "random "])
def test_unknown_strategy_is_a_value_error_not_a_key_error(name: str) -> None:
    with pytest.raises(UnknownStrategy) as raised:
        get_strategy(name)
    assert not isinstance(raised.value, KeyError)
    assert isinstance(raised.value, ValueError)
    assert raised.value.code == "unknown_strategy"
    assert "choose one of random, rules, minimax" in str(raised.value)


@pytest.mark.parametrize("name", STRATEGY_NAMES)
@pytest.mark.parametrize("text", ["XXXOO....", "XOXXOOOXX"])
def test_every_player_refuses_a_finished_game(name: str, text: str) -> None:
    with pytest.raises(GameOver):
        get_strategy(name).choose(Board.from_string(text), random.Random(0))


@pytest.mark.parametrize("name", STRATEGY_NAMES)
def test_same_seed_same_choices_and_the_global_random_is_untouched(name: str) -> None:
    strategy = get_strategy(name)
    boards = reachable_positions()[:200:7]
    boards = [b for b in boards if not b.is_over]
    random.seed(12345)
    global_state = random.getstate()
    first = [strategy.choose(b, random.Random(7)) for b in boards]
    second = [strategy.choose(b, random.Random(7)) for b in boards]
    assert first == second
    assert random.getstate() == global_state
    for board, choice in zip(boards, first, strict=True):
        assert isinstance(choice, Choice)
        assert choice.cell in board.empty_cells()


def test_choice_is_a_frozen_value() -> None:
    assert Choice(3) == Choice(3, slipped=False)
    assert Choice(3) != Choice(3, slipped=True)
    with pytest.raises(AttributeError):
        Choice(3).cell = 4  # type: ignore[misc]


# -- exhaustive: every reachable position --------------------------------------------------------


@pytest.mark.parametrize(
    "best_cells", [best_cells_minimax, best_cells_alphabeta], ids=["minimax", "alphabeta"]
)
def test_search_best_cells_are_exactly_the_oracles_best(
    best_cells: object, live_positions: list[Board], oracle: Oracle
) -> None:
    """Every tied-best cell (fastest win / slowest loss) and nothing else, in all 4,520."""
    assert callable(best_cells)
    for board in live_positions:
        assert set(best_cells(*board.sides())) == oracle.best_cells(board.to_string()), board


@pytest.mark.parametrize("name", [*PERFECT, "fallible"])
def test_perfect_players_choose_a_best_move_everywhere(
    name: str, live_positions: list[Board], oracle: Oracle
) -> None:
    strategy = FallibleStrategy(probability=0) if name == "fallible" else get_strategy(name)
    rng = random.Random(2024)
    for board in live_positions:
        text = board.to_string()
        choice = strategy.choose(board, rng)
        assert not choice.slipped
        assert oracle.move_values(text)[choice.cell] == oracle.best_value(text), (name, board)


def test_perfect_players_break_ties_at_random() -> None:
    """From the empty board every cell draws, so over many seeds every cell shows up."""
    for name in ("minimax", "alphabeta", "fallible"):
        strategy = get_strategy(name)
        seen = {strategy.choose(Board.empty(), random.Random(seed), may_slip=False).cell
                for seed in range(300)}
        assert seen == set(range(9)), name


def test_perfect_players_take_the_fastest_win() -> None:
    # X can win now at 2, or later by other routes: the immediate win is the only choice.
    board = Board.from_string("XX.OO....")
    for name in (*PERFECT, "fallible", "montecarlo"):
        for seed in range(20):
            assert get_strategy(name).choose(board, random.Random(seed), may_slip=False).cell == 2


# -- randomness --------------------------------------------------------------------------------


def test_random_player_is_uniform() -> None:
    rng = random.Random(99)
    strategy = get_strategy("random")
    trials = 9_000
    counts = Counter(strategy.choose(Board.empty(), rng).cell for _ in range(trials))
    expected = trials / 9
    chi_square = sum((counts[cell] - expected) ** 2 / expected for cell in range(9))
    assert chi_square < 26.12  # 8 degrees of freedom, p = 0.001
    partial = Board.from_string("X...O....")
    seen = {strategy.choose(partial, rng).cell for _ in range(500)}
    assert seen == set(partial.empty_cells())


def test_fallible_slips_about_five_percent_of_the_time() -> None:
    assert SLIP_PROBABILITY == 0.05
    strategy = get_strategy("fallible")
    rng = random.Random(5)
    board = Board.from_string("XX.OO....")  # X's only good move is 2
    trials = 20_000
    choices = [strategy.choose(board, rng) for _ in range(trials)]
    slips = sum(choice.slipped for choice in choices)
    assert 0.045 < slips / trials < 0.055
    assert all(choice.cell == 2 for choice in choices if not choice.slipped)
    slipped_cells = Counter(choice.cell for choice in choices if choice.slipped)
    assert set(slipped_cells) == set(board.empty_cells())  # a slip is any free cell


def test_fallible_never_slips_when_told_not_to() -> None:
    strategy = FallibleStrategy(probability=1.0)
    rng = random.Random(1)
    board = Board.from_string("XX.OO....")
    for _ in range(2_000):
        assert strategy.choose(board, rng, may_slip=False) == Choice(2)
    assert strategy.choose(board, rng).slipped


def test_fallible_probability_is_a_parameter() -> None:
    assert FallibleStrategy(0.1).label == "Perfect but fallible (10%)"
    assert FallibleStrategy(0.1).probability == 0.1
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError):
            FallibleStrategy(bad)
