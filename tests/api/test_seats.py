"""Seats, tokens and invitations: every game belongs to the people seated at it. Changes need
a seat (403 otherwise, nothing changed), the wrong seat's move is 409, an invitation seats a
friend once, and no other website can change a game."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

Clients = Callable[[], TestClient]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def remote(client: TestClient, game: str = "tictactoe", **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={
        "game": game, "options": {"opponent": "remote", **options}})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def code_of(invite: str) -> str:
    return invite.split("?invite=", 1)[1]


def test_the_creator_gets_a_token_and_the_friend_an_invitation(clients: Clients) -> None:
    alice, bob, carol = clients(), clients(), clients()
    game = remote(alice, human="X")
    assert game["you"] == ["X"] and game["seats"] == {"X": "person", "O": "free"}
    assert len(game["token"]) >= 43  # 256 bits, URL-safe base64
    assert game["invite"] == f"/tictactoe/{game['id']}?invite={code_of(game['invite'])}"
    # The creator sees the invitation again (by cookie, or by token from anywhere)...
    assert alice.get(f"/api/games/{game['id']}").json()["invite"] == game["invite"]
    assert carol.get(f"/api/games/{game['id']}", headers=bearer(game["token"])
                     ).json()["invite"] == game["invite"]
    # ...nobody else does.
    seen = bob.get(f"/api/games/{game['id']}").json()
    assert "invite" not in seen and seen["you"] == []
    joined = bob.post(f"/api/games/{game['id']}/join",
                      json={"invite": code_of(game["invite"])})
    assert joined.status_code == 200, joined.text
    body = joined.json()
    assert body["you"] == ["O"] and body["seats"] == {"X": "person", "O": "person"}
    assert body["token"] != game["token"] and body["version"] == game["version"] + 1
    assert "invite" not in alice.get(f"/api/games/{game['id']}").json()  # the seat is taken


def test_an_invitation_seats_one_person_once(clients: Clients) -> None:
    alice, bob, carol = clients(), clients(), clients()
    game = remote(alice)
    code = code_of(game["invite"])
    assert alice.post(f"/api/games/{game['id']}/join", json={"invite": code}
                      ).status_code == 409  # the creator sits there already
    assert bob.post(f"/api/games/{game['id']}/join", json={"invite": "x" * 43}
                    ).status_code == 403
    assert bob.post(f"/api/games/{game['id']}/join", json={"invite": code}).status_code == 200
    again = carol.post(f"/api/games/{game['id']}/join", json={"invite": code})
    assert again.status_code in (403, 409) and again.json()["code"] == "no_free_seat"
    assert carol.get(f"/api/games/{game['id']}").json()["you"] == []


def test_changes_need_a_seat_and_the_right_one(clients: Clients) -> None:
    alice, bob, stranger = clients(), clients(), clients()
    game = remote(alice, human="X")
    other = remote(alice, human="X")  # a token opens its own game only
    bob_token = bob.post(f"/api/games/{game['id']}/join",
                         json={"invite": code_of(game["invite"])}).json()["token"]
    before = stranger.get(f"/api/games/{game['id']}").json()
    attempts = [
        ("post", "moves", {"json": {"move": 4}}), ("post", "undo", {}),
        ("post", "resign", {}), ("post", "computer-move", {}),
        ("post", "takeback", {"json": {"accept": True}}),
        ("patch", "", {"json": {"options": {"opponent": "local"}}}),
    ]
    for method, action, extra in attempts:
        path = f"/api/games/{game['id']}" + (f"/{action}" if action else "")
        for headers in ({}, bearer("no-such-token"), bearer(other["token"])):
            response = getattr(stranger, method)(path, headers=headers, **extra)
            assert response.status_code == 403, (method, path, response.text)
            assert response.json()["code"] == "not_seated"
    assert stranger.get(f"/api/games/{game['id']}").json() == before
    # O's token on X's turn: the wrong seat.
    response = stranger.post(f"/api/games/{game['id']}/moves", json={"move": 4},
                             headers=bearer(bob_token))
    assert response.status_code == 409 and response.json()["code"] == "not_your_turn"
    response = stranger.post(f"/api/games/{game['id']}/moves", json={"move": 4},
                             headers=bearer(game["token"]))
    assert response.status_code == 200 and response.json()["you"] == ["X"]
    # The browser that joined plays by its cookie alone.
    assert bob.post(f"/api/games/{game['id']}/moves", json={"move": 0}).status_code == 200


def test_the_view_of_a_stranger_plays_nothing(clients: Clients) -> None:
    alice, stranger = clients(), clients()
    game = alice.post("/api/games", json={"game": "tictactoe",
                                          "options": {"opponent": "local"}}).json()
    page = stranger.get(f"/ui/tictactoe/{game['id']}").text
    assert "hx-post=\"/ui/tictactoe/" not in page.split("ttt-board")[1].split("</div>")[0]
    assert "You are watching" in page
    response = stranger.post(f"/ui/tictactoe/{game['id']}/moves",
                             data={"move": "4", "version": "0"})
    assert "You have no seat at this game" in response.text
    assert stranger.get(f"/api/games/{game['id']}").json()["version"] == 0


def test_requests_from_another_site_are_refused_cookies_or_not(clients: Clients) -> None:
    alice = clients()
    game = alice.post("/api/games", json={"game": "tictactoe",
                                          "options": {"opponent": "local"}}).json()
    path = f"/api/games/{game['id']}/moves"
    for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"},
                    {"Sec-Fetch-Site": "cross-site"}):
        response = alice.post(path, json={"move": 4}, headers=headers)
        assert response.status_code == 403 and response.json()["code"] == "cross_site"
        form = alice.post(f"/ui/tictactoe/{game['id']}/moves",
                          data={"move": "4", "version": "0"}, headers=headers)
        assert form.status_code == 403
    assert alice.get(f"/api/games/{game['id']}").json()["version"] == 0
    same_site = alice.post(path, json={"move": 4}, headers={"Origin": "http://testserver",
                                                            "Sec-Fetch-Site": "same-origin"})
    assert same_site.status_code == 200


def test_secrets_are_stored_only_as_digests(clients: Clients, tmp_path: Path) -> None:
    alice, bob = clients(), clients()
    game = remote(alice)
    joined = bob.post(f"/api/games/{game['id']}/join",
                      json={"invite": code_of(game["invite"])}).json()
    database = sqlite3.connect(tmp_path / "db.sqlite")
    dump = "\n".join(database.iterdump())
    database.close()
    for secret in (game["token"], joined["token"], code_of(game["invite"]),
                   alice.cookies["tabletop_browser"], bob.cookies["tabletop_browser"]):
        assert secret not in dump


def test_a_take_back_between_friends_needs_the_others_consent(clients: Clients) -> None:
    alice, bob = clients(), clients()
    game = remote(alice, human="X")
    bob.post(f"/api/games/{game['id']}/join", json={"invite": code_of(game["invite"])})
    url = f"/api/games/{game['id']}"
    alice.post(f"{url}/moves", json={"move": 4})
    bob.post(f"{url}/moves", json={"move": 0})
    asked = alice.post(f"{url}/undo").json()
    assert asked["takeback"] == {"by": "X"} and asked["state"]["moves"] == [4, 0]
    assert alice.post(f"{url}/undo").json()["code"] == "takeback_pending"
    assert alice.post(f"{url}/takeback", json={"accept": True}).json()["code"] == \
        "not_your_answer"
    declined = bob.post(f"{url}/takeback", json={"accept": False}).json()
    assert declined["takeback"] is None and declined["state"]["moves"] == [4, 0]
    alice.post(f"{url}/undo")
    taken = bob.post(f"{url}/takeback", json={"accept": True}).json()
    assert taken["state"]["moves"] == [] and taken["to_move"] == "X"
    # A move answers a pending request: it lapses.
    alice.post(f"{url}/moves", json={"move": 4})
    alice.post(f"{url}/undo")
    assert bob.post(f"{url}/moves", json={"move": 8}).json()["takeback"] is None


def test_a_game_with_a_friend_keeps_its_options(clients: Clients) -> None:
    alice = clients()
    game = remote(alice)
    response = alice.patch(f"/api/games/{game['id']}", json={"options": {"opponent": "local"}})
    assert response.status_code == 409 and response.json()["code"] == "fixed_option"


def test_go_between_friends_resign_out_of_turn_and_both_accept_the_score(
        clients: Clients) -> None:
    alice, bob = clients(), clients()
    game = remote(alice, game="go", human="black")
    bob.post(f"/api/games/{game['id']}/join", json={"invite": code_of(game["invite"])})
    url = f"/api/games/{game['id']}"
    alice.post(f"{url}/moves", json={"move": "pass"})
    bob.post(f"{url}/moves", json={"move": "pass"})
    assert alice.post(f"{url}/moves", json={"move": "done"}).json()["status"] == "scoring"
    assert bob.post(f"{url}/moves", json={"move": "done"}).json()["status"] == "over"

    game = remote(alice, game="go", human="black")
    bob.post(f"/api/games/{game['id']}/join", json={"invite": code_of(game["invite"])})
    url = f"/api/games/{game['id']}"
    alice.post(f"{url}/moves", json={"move": "E5"})
    resigned = alice.post(f"{url}/resign").json()  # white to move; black resigns anyway
    assert resigned["result"] == {"winner": "white", "text": "W+R"}


def test_the_tally_counts_computer_games_for_the_browser_seated_in_them(
        clients: Clients) -> None:
    alice, bob = clients(), clients()
    game = remote(alice, human="X")
    bob.post(f"/api/games/{game['id']}/join", json={"invite": code_of(game["invite"])})
    for player, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
        player.post(f"/api/games/{game['id']}/moves", json={"move": cell})
    assert alice.get(f"/api/games/{game['id']}").json()["result"]["winner"] == "X"
    page = alice.get(f"/ui/tictactoe/{game['id']}").text
    assert "<strong>0</strong> wins" in page  # a win against a friend is not in the tally
