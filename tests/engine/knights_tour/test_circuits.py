"""Stored circuits: a closed tour as a next-square table, replayed from any square, both ways."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.knights_tour import Circuit, InvalidTour, NoClosedTour, stored_circuit, verify


@pytest.mark.parametrize("n", [6, 8, 10, 12, 30])
def test_a_stored_circuit_starts_on_every_square_in_both_directions(n: int) -> None:
    circuit = stored_circuit(n)
    assert sorted(circuit.next_square.tolist()) == list(range(n * n))
    for start in range(0, n * n, 7):
        forward = circuit.tour_from(start)
        backward = circuit.tour_from(start, reverse=True)
        verify(n, forward, closed=True)
        verify(n, backward, closed=True)
        assert forward[0] == backward[0] == start
        assert backward[1] == circuit.previous_square()[start]
        assert np.array_equal(backward[1:], forward[1:][::-1])


def test_walking_the_table_is_the_seeds_solver() -> None:
    circuit = stored_circuit(8)
    for start in range(64):
        assert circuit.walk(start) == circuit.tour_from(start).tolist()
        assert circuit.walk(start, reverse=True) == circuit.tour_from(start, True).tolist()


def test_a_circuit_is_made_only_of_a_closed_tour() -> None:
    circuit = stored_circuit(6)
    again = Circuit.from_tour(6, circuit.tour_from(13).tolist())
    assert np.array_equal(again.next_square, circuit.next_square)
    with pytest.raises(InvalidTour):
        Circuit.from_tour(5, list(range(25)))
    for n in (5, 4, 7):
        with pytest.raises(NoClosedTour):
            stored_circuit(n)
