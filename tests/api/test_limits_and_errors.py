"""Request limits and the shape of every error: 413 for bodies over 64 KB before they are
parsed, a JSON 500 that keeps the security headers, 405 with Allow, and a sentence for a body
that cannot be read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.middleware import MAX_JSON_BYTES

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy",
                    "x-frame-options")


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


def test_a_json_body_over_64_kb_is_413_with_a_sentence(client: TestClient) -> None:
    game = public(client.post("/api/games", json={"game": "tictactoe", "options": {}}).json())
    body = b'{"move": "' + b"a" * MAX_JSON_BYTES + b'"}'
    response = client.post(f"/api/games/{game['id']}/moves", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {
        "detail": "The request body is larger than 65,536 bytes, the most this endpoint "
                  "reads; nothing was changed.", "code": "too_large"}
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_a_streamed_body_is_cut_off_before_parsing(client: TestClient) -> None:
    """No Content-Length: the limit applies to the bytes read, so a long body that is not
    even JSON gets 413, not a parse error."""

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"x" * 1024

    response = client.post("/api/games", content=chunks(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "too_large"


def test_an_sgf_upload_may_be_larger_than_json_but_not_unbounded(client: TestClient) -> None:
    response = client.post("/api/games/import", content=b"(;" + b" " * 200_000 + b")",
                           headers={"content-type": "application/x-go-sgf"})
    assert response.status_code != 413  # 200 KB: a big record, but a record
    response = client.post("/api/games/import", content=b" " * 1_100_000,
                           headers={"content-type": "application/x-go-sgf"})
    assert response.status_code == 413


def test_an_unhandled_error_is_a_json_500_with_the_security_headers(tmp_path: Path) -> None:
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}")

    @app.post("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.post("/boom")
    assert response.status_code == 500
    assert response.json() == {"detail": "Something went wrong on the server; nothing was "
                                         "changed. Try again.", "code": "internal_error"}
    for header in SECURITY_HEADERS:
        assert header in response.headers, header
    assert "a bug" not in response.text


def test_405_names_the_allowed_methods(client: TestClient) -> None:
    response = client.delete("/api/games/abc")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, PATCH"
    assert response.json()["code"] == "method_not_allowed"
    assert client.head("/api/games/abc").status_code == 405  # never the page shell
    for header in SECURITY_HEADERS:
        assert header in response.headers


def test_unreadable_bodies_get_422_and_a_sentence(client: TestClient) -> None:
    response = client.post("/api/games", content=b"\xff\xfe not json",
                           headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["detail"].startswith(
        "The request body is not valid JSON")
    game = public(client.post("/api/games", json={"game": "tictactoe", "options": {}}).json())
    response = client.post(f"/ui/tictactoe/{game['id']}/moves", content=b"--x\r\nbroken",
                           headers={"content-type": "multipart/form-data"})
    assert response.status_code == 422 and response.json()["detail"].endswith(".")
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_a_long_path_is_not_echoed_whole(client: TestClient) -> None:
    response = client.get("/api/" + "x" * 5000)
    assert response.status_code == 404 and len(response.json()["detail"]) < 200
