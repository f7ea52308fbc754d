"""A route for one kind of game never touches a game of another kind: every /ui and /api
route that names a game answers "not found" for the wrong kind and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from app.games.kinds import BY_KIND
from app.routes import ui_go, ui_knights_tour, ui_tictactoe

KINDS = tuple(BY_KIND)
# Form fields every game route may ask for; each route reads the ones it needs.
FORM = {"move": "1", "version": "0", "opponent": "local", "level": "easy", "human": "black",
        "values": "on"}


def games_of_each_kind(client: TestClient) -> dict[str, dict[str, Any]]:
    games = {}
    for kind in KINDS:
        options = {} if kind == "knights-tour" else {"opponent": "local"}
        response = client.post("/api/games", json={"game": kind, "options": options})
        assert response.status_code == 201, response.text
        games[kind] = response.json()
    return games


def ui_game_routes(client: TestClient) -> list[tuple[str, str, str]]:
    """(method, path template, kind) of every /ui/<kind>/{game_id}… route."""
    found = []
    for route in [*ui_go.router.routes, *ui_tictactoe.router.routes,
                  *ui_knights_tour.router.routes]:
        if isinstance(route, APIRoute) and "{game_id}" in route.path:
            kind = route.path.split("/")[2]
            for method in route.methods:
                found.append((method, route.path, kind))
    return found


def test_every_ui_game_route_refuses_games_of_other_kinds(client: TestClient) -> None:
    games = games_of_each_kind(client)
    routes = ui_game_routes(client)
    assert len(routes) >= 10  # moves, undo, options, reply, solution, fragments…
    for method, template, kind in routes:
        for other, game in games.items():
            if other == kind:
                continue
            before = client.get(f"/api/games/{game['id']}").json()
            path = template.replace("{game_id}", game["id"])
            response = client.request(method, path, data=FORM if method == "POST" else None)
            assert response.status_code == 404, (method, path, response.text)
            assert "not found" in response.text.lower()
            assert 'data-title="' in response.text  # the game's not-found view, not JSON
            assert client.get(f"/api/games/{game['id']}").json() == before, (method, path)


def test_a_knights_tour_move_form_on_a_go_game_plays_nothing(client: TestClient) -> None:
    go = games_of_each_kind(client)["go"]
    response = client.post(f"/ui/knights-tour/{go['id']}/moves",
                           data={"move": "a1", "version": "0"})
    assert response.status_code == 404
    assert "There is no knight&#39;s-tour puzzle with the id" in response.text
    assert client.get(f"/api/games/{go['id']}").json()["version"] == 0


@pytest.mark.parametrize("kind", ["tictactoe", "knights-tour"])
def test_sgf_of_another_kind_is_json_404(client: TestClient, kind: str) -> None:
    game = games_of_each_kind(client)[kind]
    response = client.get(f"/api/games/{game['id']}/sgf")
    assert response.status_code == 404
    assert response.json() == {"detail": f"There is no Go game with the id '{game['id']}'.",
                               "code": "not_found"}


def test_a_missing_game_is_404_everywhere(client: TestClient) -> None:
    for method, template, _ in ui_game_routes(client):
        response = client.request(method, template.replace("{game_id}", "nosuchgame"),
                                  data=FORM if method == "POST" else None)
        assert response.status_code == 404, (method, template)
    for path in ("/api/games/nosuchgame", "/api/games/nosuchgame/sgf"):
        assert client.get(path).json()["code"] == "not_found"
    response = client.post("/api/games/nosuchgame/moves", json={"move": 1})
    assert response.status_code == 404 and response.json()["code"] == "not_found"
