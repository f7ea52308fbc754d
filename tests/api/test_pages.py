"""The shell, fragments, static files and the headers every response carries."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


def test_page_paths_return_the_shell(client: TestClient) -> None:
    for path in ("/", "/tictactoe", "/tictactoe/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html")
        assert '<main id="main"' in response.text
        assert "/dist/app.js" in response.text


def test_unknown_page_paths_return_the_shell_with_404(client: TestClient) -> None:
    for path in ("/nowhere", "/tictactoe/unknown-game-id", "/tictactoe/a/b"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert '<main id="main"' in response.text


def test_a_stored_game_path_returns_the_shell(client: TestClient) -> None:
    game = public(client.post("/api/games", json={"game": "tictactoe", "options": {}}).json())
    assert client.get(f"/tictactoe/{game['id']}").status_code == 200


def test_api_and_ui_paths_never_fall_back_to_the_shell(client: TestClient) -> None:
    for path in ("/api/unknown", "/ui/unknown"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_security_headers_on_every_response(client: TestClient) -> None:
    for path in ("/", "/api/games/nope", "/static/css/app.css", "/dist/app.js", "/ui/home"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"]


def test_static_files_revalidate_by_etag(client: TestClient) -> None:
    first = client.get("/dist/app.js")
    assert first.status_code == 200
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    again = client.get("/dist/app.js", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_the_shell_needs_no_inline_script_or_style(client: TestClient) -> None:
    html = client.get("/").text
    assert "<script>" not in html and "style=" not in html and "<style" not in html
    assert 'name="htmx-config"' in html


def test_docs_page_and_openapi(client: TestClient) -> None:
    assert client.get("/openapi.json").json()["paths"]["/api/games"]
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "unsafe-inline" not in docs.headers["content-security-policy"]


def test_browser_cookie_is_set_once(client: TestClient) -> None:
    response = client.get("/")
    assert "tabletop_browser" in response.cookies
    assert "tabletop_browser" not in client.get("/").headers.get("set-cookie", "")
