"""The knight's tour through HTTP: the puzzle as a game, its HTML fragments, and the stateless
solvers."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


def new_tour(client: TestClient, **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "knights-tour", "options": options})
    assert response.status_code == 201, response.text
    return public(response.json())


def play(client: TestClient, game: dict[str, Any], *squares: str) -> dict[str, Any]:
    for square in squares:
        response = client.post(f"/api/games/{game['id']}/moves", json={"move": square})
        assert response.status_code == 200, (square, response.text)
        game = response.json()
    return game


def assert_refused(client: TestClient, game: dict[str, Any], response: Any, status: int,
                   code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code and response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_new_puzzle_has_the_contract_shape(client: TestClient) -> None:
    game = new_tour(client)
    assert game["game"] == "knights-tour" and game["status"] == "playing"
    assert game["to_move"] is None and game["result"] is None
    assert game["options"] == {"size": 8, "closed": False}
    assert game["state"]["size"] == 8 and game["state"]["path"] == []
    assert len(game["state"]["legal_next"]) == 64


def test_moves_follow_the_knight(client: TestClient) -> None:
    game = play(client, new_tour(client, size=5), "a1")
    assert sorted(game["state"]["legal_next"]) == ["b3", "c2"]
    game = play(client, game, "c2")
    assert game["state"]["path"] == ["a1", "c2"] and game["version"] == 2


@pytest.mark.parametrize(("square", "code"), [
    ("c3", "not_a_knight_move"), ("a1", "visited"), ("z9", "off_board"), ("q", "invalid_square"),
    (7, "invalid_square"),
])
def test_bad_moves_are_422_and_change_nothing(client: TestClient, square: Any, code: str) -> None:
    game = play(client, new_tour(client, size=5), "a1")
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": square})
    assert_refused(client, game, response, 422, code)


def test_a_cut_off_corner_is_warned_about_at_once(client: TestClient) -> None:
    game = play(client, new_tour(client, size=6), "c2", "d4", "b3", "c5")
    warning = game["state"]["warning"]
    assert warning is not None and "a1" in warning["squares"]
    assert game["status"] == "playing"


def test_a_full_open_tour_ends_the_game(client: TestClient) -> None:
    tour = client.get("/api/knights-tour/solve", params={"size": 5, "start": "a1"}).json()
    game = play(client, new_tour(client, size=5), *tour["squares"])
    assert game["status"] == "over" and game["state"]["tour_status"] == "solved"
    assert "25" in game["result"]["text"]
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "a1"})
    assert_refused(client, game, response, 409, "over")


def test_closed_puzzle_needs_the_last_square_next_to_the_first(client: TestClient) -> None:
    closed = client.get("/api/knights-tour/solve",
                        params={"size": 6, "start": "a1", "closed": "true"}).json()
    game = play(client, new_tour(client, size=6, closed=True), *closed["squares"])
    assert game["state"]["tour_status"] == "solved"
    opened = client.get("/api/knights-tour/solve", params={"size": 6, "start": "a1"}).json()
    path = opened["squares"]
    first, last = path[0], path[-1]
    closes = {abs(ord(first[0]) - ord(last[0])), abs(int(first[1:]) - int(last[1:]))} == {1, 2}
    game = play(client, new_tour(client, size=6, closed=True), *path)
    assert game["state"]["tour_status"] == ("solved" if closes else "open_only")


def test_undo(client: TestClient) -> None:
    game = play(client, new_tour(client, size=5), "a1", "b3")
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert undone["state"]["path"] == ["a1"]
    fresh = new_tour(client)
    response = client.post(f"/api/games/{fresh['id']}/undo")
    assert_refused(client, fresh, response, 409, "nothing_to_undo")


@pytest.mark.parametrize("options", [{"size": 4}, {"size": 17}, {"size": "x"},
                                     {"closed": "maybe"}, {"colour": 1}])
def test_bad_options_are_422(client: TestClient, options: dict[str, Any]) -> None:
    response = client.post("/api/games", json={"game": "knights-tour", "options": options})
    assert response.status_code == 422 and response.json()["code"] == "bad_options"


def knight_tour_ok(n: int, tour: list[int], closed: bool) -> bool:
    squares = np.asarray(tour)
    if sorted(squares.tolist()) != list(range(n * n)):
        return False
    rows, cols = squares // n, squares % n
    if closed:
        rows, cols = np.append(rows, rows[0]), np.append(cols, cols[0])
    steps = {(a, b) for a, b in zip(np.abs(np.diff(rows)).tolist(),
                                    np.abs(np.diff(cols)).tolist(), strict=True)}
    return steps <= {(1, 2), (2, 1)}


@pytest.mark.parametrize(("size", "closed", "start"), [
    (5, False, "a1"), (6, True, "c3"), (8, False, "d4"), (7, False, "c3"), (30, True, None),
    (101, False, "0"),
])
def test_solve_returns_a_verified_tour(client: TestClient, size: int, closed: bool,
                                       start: str | None) -> None:
    params: dict[str, Any] = {"size": size, "closed": str(closed).lower()}
    if start is not None:
        params["start"] = start
    body = client.get("/api/knights-tour/solve", params=params).json()
    assert knight_tour_ok(size, body["tour"], closed)
    if start and not start.isdigit():
        assert body["squares"][0] == start
    assert ("squares" in body) == (size <= 26)


def test_a_closed_million_square_tour(client: TestClient) -> None:
    body = client.get("/api/knights-tour/solve", params={"size": 1000, "closed": "true"}).json()
    assert len(body["tour"]) == 1_000_000
    assert knight_tour_ok(1000, body["tour"], closed=True)


@pytest.mark.parametrize(("params", "code"), [
    ({"size": 5, "closed": "true"}, "no_closed_tour"),
    ({"size": 4}, "invalid_size"),  # below the stated minimum: no tour there
    ({"size": 5, "start": "b1"}, "impossible_start"),
    ({"size": 5, "start": "f1"}, "off_board"),
    ({"size": 1001}, "invalid_size"),
    ({"size": 8, "method": "magic"}, "unknown_method"),
])
def test_impossible_requests_are_422(client: TestClient, params: dict[str, Any],
                                     code: str) -> None:
    response = client.get("/api/knights-tour/solve", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code and response.json()["detail"]


def test_the_solver_comparison(client: TestClient) -> None:
    body = client.get("/api/knights-tour/comparison").json()
    assert body["size"] == 8 and set(body["steps"]) == set(body["solvers"])
    assert body["steps"]["circuit"] == [63] * 64


# --- the puzzle's fragments (app/routes/ui_knights_tour.py) -----------------------------------


def fragment(client: TestClient, game: dict[str, Any], **params: str) -> str:
    response = client.get(f"/ui/knights-tour/{game['id']}", params=params)
    assert response.status_code == 200, response.text
    return response.text


def hinted(page: str) -> list[str]:
    """The squares the board marks as the hint."""
    return re.findall(r'id="kt-sq-(\w+)"[^>]*class="[^"]*kt-square--hint', page)


def notice(page: str) -> str:
    found = re.search(r'<p class="notice[^"]*"[^>]*>(.*?)</p>', page, re.S)
    assert found is not None, page
    return re.sub(r"<[^>]+>|\s+", lambda m: " " if m.group().isspace() else "", found.group(1))


def test_the_board_is_framed_by_its_files_and_ranks(client: TestClient) -> None:
    page = fragment(client, new_tour(client, size=6))
    for side, labels in (("top", "abcdef"), ("bottom", "abcdef"), ("left", "654321"),
                         ("right", "654321")):
        row = re.search(rf'class="kt-coords kt-coords--{side}" aria-hidden="true">(.*?)</div>',
                        page)
        assert row is not None, side
        assert re.findall(r"<span>(\w+)</span>", row.group(1)) == list(labels)


def test_the_hint_is_warnsdorffs_square(client: TestClient) -> None:
    page = fragment(client, play(client, new_tour(client, size=8), "a1"), hint="on")
    assert hinted(page) == ["b3"]
    assert notice(page).startswith("Warnsdorff's rule suggests b3: of the squares within reach")
    assert "skipping" not in notice(page)


def test_the_hint_passes_over_a_square_the_dead_end_check_condemns(client: TestClient) -> None:
    # Warnsdorff's rule alone says f7, after which h8 could only be reached next, too soon.
    game = play(client, new_tour(client, size=8), "g6", "e5")
    page = fragment(client, game, hint="on")
    assert hinted(page) == ["g4"]
    assert notice(page) == ("Warnsdorff's rule suggests g4, skipping f7, after which the tour "
                            "could no longer be completed; of the other squares within reach, g4 "
                            "has the fewest onward moves.")
    after = play(client, game, "f7")["state"]["warning"]
    assert after is not None and after["squares"] == ["h8"]


def test_no_hint_when_every_square_within_reach_is_condemned(client: TestClient) -> None:
    game = play(client, new_tour(client, size=6), "c3", "d5", "b4")
    assert game["state"]["warning"] is None
    page = fragment(client, game, hint="on")
    assert hinted(page) == []
    text = notice(page)
    assert text.startswith("No hint: after a2, ")  # the rule's first choice first
    assert all(square in text for square in game["state"]["legal_next"])
    assert re.search(r" or \w+ the tour could no longer be completed\. Undo a move", text)


def test_no_hint_once_the_tour_can_no_longer_be_completed(client: TestClient) -> None:
    game = play(client, new_tour(client, size=8), "b3", "d4", "c2")
    page = fragment(client, game, hint="on")
    assert hinted(page) == []
    assert notice(page).startswith("No hint: this tour can no longer be completed. a1 can only")
    assert notice(fragment(client, game)).startswith("This tour can no longer be completed.")


def test_a_closed_puzzles_solution_says_where_it_closes(client: TestClient) -> None:
    closed = play(client, new_tour(client, size=6, closed=True), "c3")
    page = client.get(f"/ui/knights-tour/{closed['id']}/solution").text
    assert 'data-closes-to="c3"' in page
    opened = play(client, new_tour(client, size=6), "c3")
    page = client.get(f"/ui/knights-tour/{opened['id']}/solution").text
    assert 'id="kt-player"' in page and "data-closes-to" not in page
