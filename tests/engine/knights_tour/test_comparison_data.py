"""The shipped 8×8 solver comparison (app/data) is what the solvers really do today."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engine.knights_tour import SOLVERS, compare_solvers

DATA = Path(__file__).resolve().parents[3] / "app" / "data" / "knights_tour_comparison_8.json"


def test_the_shipped_table_has_every_solver_and_start() -> None:
    table = json.loads(DATA.read_text())["steps"]
    assert list(table) == list(SOLVERS)
    assert all(len(steps) == 64 for steps in table.values())
    # Every tour of 64 squares takes at least 63 moves; the constructive solvers exactly 63.
    assert all(s is None or s >= 63 for steps in table.values() for s in steps)
    assert table["circuit"] == [63] * 64


@pytest.mark.slow
def test_the_shipped_table_matches_a_fresh_run() -> None:
    assert json.loads(DATA.read_text())["steps"] == compare_solvers(8)
