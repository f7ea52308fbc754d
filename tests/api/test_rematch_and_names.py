"""A rematch and a name for yourself (issue 34, what regulars look for).

A finished game's rematch swaps the colours and keeps each seat's holder: against the
computer it starts at once, between friends through a link the first ask offers it and the
other's ask starts it (asked twice by the offerer: refused; asked again once started: the
same game). A name is chosen by a seated player, remembered by the browser (its cookie names
the seats of its next games), shown to the other player and watchers, bounded, and refused
with a sentence when it is not a name; a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

Clients = Callable[[], TestClient]


def friend_game(alice: TestClient, bob: TestClient, **options: Any) -> dict[str, Any]:
    made = alice.post("/api/games", json={"game": "tictactoe", "options": {
        "opponent": "remote", "human": "X", **options}})
    assert made.status_code == 201, made.text
    code = made.json()["invite"].split("?invite=")[1]
    joined = bob.post(f"/api/games/{made.json()['id']}/join", json={"invite": code})
    assert joined.status_code == 200, joined.text
    return dict(joined.json())


def play(client: TestClient, game_id: str, *cells: int) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for cell in cells:
        response = client.post(f"/api/games/{game_id}/moves", json={"move": cell})
        assert response.status_code == 200, response.text
        body = response.json()
    return body


def finish(alice: TestClient, bob: TestClient, game_id: str) -> None:
    """X (alice) wins along the top row."""
    for player, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
        play(player, game_id, cell)


def test_a_rematch_between_friends_is_offered_then_accepted_with_colours_swapped(
        clients: Clients) -> None:
    alice, bob, carol = clients(), clients(), clients()
    game = friend_game(alice, bob)
    early = alice.post(f"/api/games/{game['id']}/rematch")
    assert early.status_code == 409 and early.json()["code"] == "not_over"
    finish(alice, bob, game["id"])
    watcher = carol.post(f"/api/games/{game['id']}/rematch")
    assert watcher.status_code == 403  # a watcher cannot ask

    offered = bob.post(f"/api/games/{game['id']}/rematch")  # the loser offers
    assert offered.status_code == 200, offered.text
    assert offered.json()["rematch"] == {"by": ["O"], "game": None}
    again = bob.post(f"/api/games/{game['id']}/rematch")
    assert again.status_code == 409 and again.json()["code"] == "rematch_offered"
    seen = alice.get(f"/api/games/{game['id']}").json()
    assert seen["rematch"] == {"by": ["O"], "game": None}  # the other side sees the offer

    accepted = alice.post(f"/api/games/{game['id']}/rematch")
    assert accepted.status_code == 200, accepted.text
    new_id = accepted.json()["rematch"]["game"]
    assert new_id and new_id != game["id"]
    for player, seat in ((alice, "O"), (bob, "X")):  # each at the other colour, no new link
        new = player.get(f"/api/games/{new_id}").json()
        assert new["you"] == [seat]
        assert list(new["seats"].items()) == [("X", "person"), ("O", "person")]  # X first
        assert new["options"]["opponent"] == "remote" and new["status"] == "playing"
        assert "invite" not in new
    assert carol.get(f"/api/games/{new_id}").json()["you"] == []
    play(bob, new_id, 4)  # bob is X now and moves first
    refused = alice.post(f"/api/games/{new_id}/moves", json={"move": 4})
    assert refused.status_code == 422  # taken: alice plays O on her own turn only
    # Asked again from either side: the same rematch, no second one.
    for player in (alice, bob):
        same = player.post(f"/api/games/{game['id']}/rematch")
        assert same.json()["rematch"]["game"] == new_id


def test_a_rematch_against_the_computer_starts_at_once_with_the_other_colour(
        clients: Clients) -> None:
    alice = clients()
    made = alice.post("/api/games", json={"game": "tictactoe", "options": {
        "opponent": "minimax", "human": "X"}}).json()
    alice.post(f"/api/games/{made['id']}/resign")
    answer = alice.post(f"/api/games/{made['id']}/rematch")
    assert answer.status_code == 200, answer.text
    rematch = answer.json()["rematch"]
    assert rematch["by"] == ["X"] and rematch["game"]
    new = alice.get(f"/api/games/{rematch['game']}").json()
    assert new["you"] == ["O"] and new["options"]["human"] == "O"
    assert new["options"]["opponent"] == "minimax"
    assert len(new["state"]["moves"]) == 1  # the computer plays X: it has moved


def test_a_go_rematch_keeps_the_board_komi_and_clock(clients: Clients) -> None:
    alice = clients()
    made = alice.post("/api/games", json={"game": "go", "options": {
        "size": 13, "komi": 5.5, "opponent": "local", "minutes": 10, "increment": 5}}).json()
    alice.post(f"/api/games/{made['id']}/resign")
    new_id = alice.post(f"/api/games/{made['id']}/rematch").json()["rematch"]["game"]
    new = alice.get(f"/api/games/{new_id}").json()
    assert new["state"]["size"] == 13 and new["options"]["komi"] == 5.5
    assert new["clock"]["initial"] == 600 and new["clock"]["increment"] == 5
    assert new["you"] == ["black", "white"]


def test_a_puzzle_and_an_imported_record_have_no_rematch(clients: Clients) -> None:
    alice = clients()
    tour = alice.post("/api/games", json={"game": "knights-tour", "options": {"size": 5}})
    refused = alice.post(f"/api/games/{tour.json()['id']}/rematch")
    assert refused.status_code == 409 and refused.json()["code"] == "no_rematch"


def test_a_name_is_shown_to_everyone_and_bounded(clients: Clients) -> None:
    alice, bob, carol = clients(), clients(), clients()
    game = friend_game(alice, bob)
    path = f"/api/games/{game['id']}/name"
    named = alice.post(path, json={"name": "  Alice   the  Great "})
    assert named.status_code == 200, named.text
    assert named.json()["names"] == {"X": "Alice the Great"}
    version = named.json()["version"]
    assert carol.get(f"/api/games/{game['id']}").json()["names"] == {"X": "Alice the Great"}
    too_long = bob.post(path, json={"name": "x" * 25})  # the schema says it (maxLength)
    assert too_long.status_code == 422 and "at most 24" in too_long.json()["detail"]
    for bad, why in (("Al\u202eice", "invisible"), ("Bob\x00", "control")):
        refused = bob.post(path, json={"name": bad})
        assert refused.status_code == 422, bad
        assert refused.json()["code"] == "bad_name" and why in refused.json()["detail"]
    assert carol.post(path, json={"name": "Mallory"}).status_code == 403  # no seat, no name
    after = alice.get(f"/api/games/{game['id']}").json()
    assert after["version"] == version and after["names"] == {"X": "Alice the Great"}
    cleared = alice.post(path, json={"name": "  "})
    assert cleared.json()["names"] == {}


def test_a_named_browser_names_its_seats_in_new_games_and_joins_and_rematches(
        clients: Clients) -> None:
    alice, bob = clients(), clients()
    alice.cookies.set("tabletop_name", "Alice%20%C3%85")  # "Alice Å", as the UI sets it
    bob.cookies.set("tabletop_name", "Bob")
    game = friend_game(alice, bob)
    assert game["names"] == {"X": "Alice Å", "O": "Bob"}
    finish(alice, bob, game["id"])
    alice.post(f"/api/games/{game['id']}/rematch")
    new_id = bob.post(f"/api/games/{game['id']}/rematch").json()["rematch"]["game"]
    assert alice.get(f"/api/games/{new_id}").json()["names"] == {"O": "Alice Å", "X": "Bob"}
    # A cookie that is no valid name is ignored, not an error.
    carol = clients()
    carol.cookies.set("tabletop_name", "%00" * 3)
    made = carol.post("/api/games", json={"game": "tictactoe",
                                          "options": {"opponent": "minimax"}})
    assert made.status_code == 201 and made.json()["names"] == {}


def test_the_record_of_a_go_game_names_its_players_by_their_names(clients: Clients) -> None:
    alice, bob = clients(), clients()
    alice.cookies.set("tabletop_name", "Alice")
    made = alice.post("/api/games", json={"game": "go", "options": {
        "size": 9, "opponent": "remote", "human": "black"}}).json()
    code = made["invite"].split("?invite=")[1]
    bob.post(f"/api/games/{made['id']}/join", json={"invite": code})
    bob.post(f"/api/games/{made['id']}/name", json={"name": "Bob [the] Great"})
    sgf = alice.get(f"/api/games/{made['id']}/sgf").text
    assert "PB[Alice]" in sgf and "PW[Bob [the\\] Great]" in sgf  # "]" escaped, as SGF asks
    computer = alice.post("/api/games", json={"game": "go", "options": {
        "size": 9, "opponent": "computer", "human": "white", "level": "easy"}}).json()
    sgf = alice.get(f"/api/games/{computer['id']}/sgf").text
    assert "PW[Alice]" in sgf and "PB[Tabletop (easy)]" in sgf
