"""The first view inside the shell (app/routes/pages.py): a full page load of a game's path,
the home page or the games list carries the fragment its view would fetch; a browser's
navigation to a bare /<kind> resumes or starts the game on the server and serves its view."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient

from app.limits import Limits
from app.main import create_app
from app.seats import digest

# What Chromium sends when its user loads a page (a link typed, followed or bookmarked).
NAVIGATION = {"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document",
              "Sec-Fetch-Site": "none", "Sec-Fetch-User": "?1"}
OUTLET = re.compile(r'<main id="main" tabindex="-1"(?: data-fragment="([^"]*)")?>(.*?)</main>',
                    re.S)


def outlet(page: str) -> tuple[str | None, str]:
    """The URL the shell's outlet names (None: nothing served in it) and what it holds."""
    found = OUTLET.search(page)
    assert found is not None, "the shell has no outlet"
    return found[1], found[2]


def served_game(client: TestClient, path: str, kind: str) -> str:
    """The game whose view a browser's navigation to a bare link was served."""
    response = client.get(path, headers=NAVIGATION)
    assert response.status_code == 200, path
    served, body = outlet(response.text)
    assert served is not None and served.startswith(f"/ui/{kind}/"), path
    assert "hx-post" in body
    return served.removeprefix(f"/ui/{kind}/")


def my_games(client: TestClient) -> int:
    """How many games this browser has created or sits at, played or not."""
    client.get("/")  # the browser's cookie, if it had none
    browser = digest(client.cookies["tabletop_browser"])
    return len(client.app.state.service.store.games_of(browser, 1000))  # type: ignore[attr-defined]


def new_game(client: TestClient, kind: str, **options: Any) -> str:
    response = client.post("/api/games", json={"game": kind, "options": options})
    assert response.status_code == 201
    return str(response.json()["id"])


def test_a_games_page_holds_its_fragment(client: TestClient) -> None:
    for kind, options, widget in (("tictactoe", {}, "ttt-game"), ("go", {"size": 9}, "go-game"),
                                  ("knights-tour", {"size": 6}, "kt-game")):
        game_id = new_game(client, kind, **options)
        page = client.get(f"/{kind}/{game_id}")
        assert page.headers["cache-control"] == "private, no-cache"  # this browser's seats
        served, body = outlet(page.text)
        assert served == f"/ui/{kind}/{game_id}"
        # Exactly what the view would fetch: the same route, with this browser's seats.
        assert body == client.get(served, headers={"HX-Request": "true"}).text
        assert f'id="{widget}"' in body and "hx-post" in body, kind


def test_the_home_page_and_the_games_list_hold_theirs(client: TestClient) -> None:
    for path, url in (("/", "/ui/home"), ("/games", "/ui/games")):
        served, body = outlet(client.get(path).text)
        assert served == url
        assert body == client.get(url, headers={"HX-Request": "true"}).text


def test_nothing_is_served_where_the_view_must_fetch_its_own(client: TestClient) -> None:
    game_id = new_game(client, "tictactoe")
    for path in (f"/tictactoe/{game_id}?invite=abc",  # an invitation joins before it shows
                 f"/go/{game_id}",  # a game of another kind: not found
                 "/tictactoe/no-such-game", "/nowhere", "/tictactoe"):
        served, body = outlet(client.get(path).text)
        assert served is None, path
        assert 'class="loading"' in body, path


def test_a_fragment_served_in_the_shell_is_escaped_once(client: TestClient) -> None:
    """A chosen name is the one thing a player writes into a game's view; served in the
    shell it is escaped exactly as in the fragment, never raw."""
    name = '<b title="x">Eve</b>'
    client.cookies.set("tabletop_name", quote(name))
    game_id = new_game(client, "go", size=9, opponent="remote")
    page = client.get(f"/go/{game_id}").text
    assert name not in page
    assert "&lt;b title=&#34;x&#34;&gt;Eve&lt;/b&gt;" in outlet(page)[1]


def test_a_navigation_to_a_bare_kind_starts_a_game_and_serves_it(client: TestClient) -> None:
    response = client.get("/go?size=13&opponent=local", headers=NAVIGATION)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "private, no-cache"
    served, body = outlet(response.text)
    assert served is not None
    game_id = served.removeprefix("/ui/go/")
    game = client.get(f"/api/games/{game_id}").json()
    assert game["state"]["size"] == 13
    # Its creator sits at it: the view served is a board they can play on, the same as the
    # game's own path shows them.
    assert sorted(game["you"]) == ["black", "white"]  # one screen: both seats
    assert body == outlet(client.get(f"/go/{game_id}").text)[1]


def test_the_bare_link_resumes_the_browsers_current_game(client: TestClient) -> None:
    current = new_game(client, "tictactoe")
    client.cookies.set("tabletop_current_tictactoe", current)
    assert served_game(client, "/tictactoe", "tictactoe") == current
    assert served_game(client, "/tictactoe/", "tictactoe") == current
    # Options in the query ask for a new game, as the client's view does.
    assert served_game(client, "/tictactoe?opponent=minimax", "tictactoe") != current


def test_a_current_game_that_is_gone_or_of_another_kind_starts_one(
        client: TestClient) -> None:
    other = new_game(client, "knights-tour")
    for current in (other, "no-such-game", "not a game id!", "x" * 5000):
        client.cookies.set("tabletop_current_tictactoe", current)
        game_id = served_game(client, "/tictactoe", "tictactoe")
        assert client.get(f"/api/games/{game_id}").json()["game"] == "tictactoe"
        assert game_id != other


def test_a_computer_that_moves_first_thinks_once_the_view_loads(client: TestClient) -> None:
    game_id = served_game(client, "/go?size=9&human=white", "go")
    assert client.get(f"/api/games/{game_id}").json()["state"]["moves"] == []
    # The view's "thinking…" indicator asks for the move, as after the new-game form.
    assert f'hx-post="/ui/go/{game_id}/reply"' in outlet(client.get(f"/go/{game_id}").text)[1]


def test_no_game_without_a_real_navigation(client: TestClient) -> None:
    """A robot, a link preview or a prefetch that fetches /go starts nothing: the shell
    answers as before, and the client's view (if a browser runs it) does the rest."""
    before = my_games(client)
    prefetch = {**NAVIGATION, "Sec-Purpose": "prefetch"}
    for headers in ({}, prefetch, {**NAVIGATION, "Sec-Fetch-Dest": "iframe"},
                    {**NAVIGATION, "Sec-Fetch-Mode": "no-cors"}):
        response = client.get("/go", headers=headers)
        assert response.status_code == 200, headers
        assert outlet(response.text)[0] is None
    assert client.head("/go", headers=NAVIGATION).status_code == 200
    assert my_games(client) == before


def test_refused_options_are_left_to_the_view(client: TestClient) -> None:
    before = my_games(client)
    for query in ("size=4", "opponent=nobody", "komi=nan", "size=9&" + "&".join(
            f"x{n}=1" for n in range(20))):
        response = client.get(f"/go?{query}", headers=NAVIGATION)
        assert response.status_code == 200, query  # the shell: its view says why
        assert outlet(response.text)[0] is None
    assert my_games(client) == before


def test_a_rate_limited_browser_is_told_by_the_view(tmp_path: Path) -> None:
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", rng=random.Random(3),
                     limits=Limits(new_games_burst=2, new_games_per_minute=1))
    with TestClient(app, client=("198.51.100.9", 40000)) as browser:
        made = [outlet(browser.get("/tictactoe?opponent=rules", headers=NAVIGATION).text)[0]
                for _ in range(3)]
        assert made[0] and made[1] and made[2] is None
        # The view then asks the API itself, and shows its refusal.
        refused = browser.post("/api/games", json={"game": "tictactoe"})
        assert refused.status_code == 429
