"""Odd input gets a 422 and a sentence, never a 5xx: numbers beyond a float (1e400),
Infinity, NaN, Unicode digits, 5,000-digit strings — in options, moves, query strings and
forms — and an error never repeats more than about 40 characters of what it refuses."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

HUGE = "9" * 5000
ODD_NUMBERS = ["1e400", "-1e400", "Infinity", "-Infinity", "NaN", '"²"', '"١٣"', '"１３"',
               f'"{HUGE}"', HUGE, '"inf"', '"nan"', '"13.25"', "true", "[]", "{}", "null"]
NUMERIC_OPTIONS = [("go", "size"), ("go", "komi"), ("go", "handicap"),
                   ("knights-tour", "size")]
MAX_DETAIL = 200  # a sentence plus at most ~40 characters of the refused input


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


def post_raw(client: TestClient, path: str, body: str) -> Any:
    return client.post(path, content=body.encode(), headers={"content-type": "application/json"})


def assert_sentence(response: Any, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.text[:300]
    body: dict[str, Any] = response.json()
    assert set(body) == {"detail", "code"}
    assert body["detail"].endswith(".") and len(body["detail"]) <= MAX_DETAIL, body["detail"]
    return body


@pytest.mark.parametrize(("kind", "option", "value"), [
    pytest.param(kind, option, value, id=f"{kind}-{option}-{value[:12]}")
    for kind, option in NUMERIC_OPTIONS for value in ODD_NUMBERS
    if (option, value) != ("komi", "null")])  # a null komi means the default komi
def test_odd_numbers_in_options_are_refused_with_a_sentence(
        client: TestClient, kind: str, option: str, value: str) -> None:
    response = post_raw(client, "/api/games",
                        f'{{"game": "{kind}", "options": {{"{option}": {value}}}}}')
    assert_sentence(response)


@pytest.mark.parametrize(("kind", "option", "value", "sentence"), [
    ("go", "size", "²", "The board size must be a whole number from 5 to 25, not '²'."),
    ("go", "komi", "inf", "The komi must be a whole or half number from -1000 to 1000, such "
                          "as 7.5, not 'inf'."),
    ("knights-tour", "size", "١٣", "The board size must be a whole number from 5 to 16, "
                                   "not '١٣'."),
])
def test_the_sentence_names_the_option_and_its_bounds(
        client: TestClient, kind: str, option: str, value: str, sentence: str) -> None:
    response = client.post("/api/games", json={"game": kind, "options": {option: value}})
    assert assert_sentence(response) == {"detail": sentence, "code": "bad_options"}


def test_non_json_numbers_are_refused_as_invalid_json(client: TestClient) -> None:
    body = assert_sentence(post_raw(client, "/api/games",
                                    '{"game": "go", "options": {"size": NaN}}'))
    assert body == {"detail": "The request body is not valid JSON: NaN is not a JSON number.",
                    "code": "malformed_request"}
    body = assert_sentence(post_raw(client, "/api/games",
                                    '{"game": "go", "options": {"size": 1e400}}'))
    assert "out of range" in body["detail"]


@pytest.mark.parametrize("value", ["²", "١٣", HUGE, "1e3", "-5", "inf", " "],
                         ids=lambda value: value[:12])
def test_odd_numbers_in_query_strings_are_refused(client: TestClient, value: str) -> None:
    for params in ({"size": value}, {"size": "8", "start": value}):
        response = client.get("/api/knights-tour/solve", params=params)
        assert_sentence(response)


@pytest.mark.parametrize("value", ODD_NUMBERS, ids=lambda value: value[:12])
def test_odd_moves_and_versions_are_refused(client: TestClient, value: str) -> None:
    for kind in ("tictactoe", "go", "knights-tour"):
        game = public(client.post("/api/games", json={"game": kind, "options": {}}).json())
        if kind == "go":
            game = public(client.post("/api/games", json={
                "game": "go", "options": {"opponent": "local"}}).json())
        bodies = [f'{{"move": {value}}}']
        if value != "null":  # a null version means "whatever the version is"
            bodies.append(f'{{"move": "a1", "version": {value}}}')
        for body in bodies:
            response = post_raw(client, f"/api/games/{game['id']}/moves", body)
            assert response.status_code in (409, 422), (kind, body[:60], response.text)
            assert_sentence(response, response.status_code)
            assert client.get(f"/api/games/{game['id']}").json() == game


def test_a_long_move_is_quoted_short(client: TestClient) -> None:
    for kind in ("tictactoe", "go", "knights-tour"):
        game = public(client.post("/api/games", json={"game": kind, "options": {}}).json())
        response = client.post(f"/api/games/{game['id']}/moves", json={"move": "a" * 60_000})
        body = assert_sentence(response)
        assert "(60,000 characters)" in body["detail"]


def test_forms_refuse_odd_numbers_without_a_server_error(client: TestClient) -> None:
    response = client.post("/ui/go/new", data={
        "size": "²", "handicap": "0", "opponent": "local", "level": "easy", "human": "black"})
    assert response.status_code == 200
    assert "The board size must be a whole number from 5 to 25" in response.text
    game = public(client.post("/api/games", json={"game": "tictactoe", "options": {}}).json())
    response = client.post(f"/ui/tictactoe/{game['id']}/moves",
                           data={"move": HUGE, "version": "0"})
    assert_sentence(response)
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_deep_json_is_refused_without_a_server_error(client: TestClient) -> None:
    body = '{"game": "go", "options": ' + "[" * 20_000 + "]" * 20_000 + "}"
    response = post_raw(client, "/api/games", body)
    assert response.status_code == 422
    assert json.loads(response.text)["detail"]
