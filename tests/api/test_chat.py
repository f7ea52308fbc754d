"""The chat of a friend game (issue 34): its two players write, anyone with the link reads;
each message is announced on the event stream; messages are one bounded, escaped line, a
seat may not flood it, a game holds a bounded number, and a refusal stores nothing. The
chat is no part of the game's versions: a message never makes a move stale."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from app.chat import CHAT_BURST, MESSAGES_KEPT

Clients = Callable[[], TestClient]


def friend_game(alice: TestClient, bob: TestClient) -> dict[str, Any]:
    made = alice.post("/api/games", json={"game": "go", "options": {
        "size": 9, "opponent": "remote", "human": "black"}}).json()
    code = made["invite"].split("?invite=")[1]
    assert bob.post(f"/api/games/{made['id']}/join", json={"invite": code}).status_code == 200
    return dict(made)


def test_players_write_and_everyone_reads_without_a_version(clients: Clients) -> None:
    alice, bob, carol = clients(), clients(), clients()
    game = friend_game(alice, bob)
    chat = f"/api/games/{game['id']}/chat"
    alice.post(f"/api/games/{game['id']}/name", json={"name": "Alice"})
    version = alice.get(f"/api/games/{game['id']}").json()["version"]
    said = alice.post(chat, json={"text": "  have   fun <b>!</b> "})
    assert said.status_code == 201, said.text
    assert said.json()["text"] == "have fun <b>!</b>" and said.json()["name"] == "Alice"
    assert bob.post(chat, json={"text": "you too"}).status_code == 201
    messages = carol.get(chat).json()["messages"]  # a watcher reads
    assert [(m["seat"], m["name"], m["text"]) for m in messages] == [
        ("black", "Alice", "have fun <b>!</b>"), ("white", None, "you too")]
    assert messages[0]["id"] < messages[1]["id"]
    # No version was spent: the move read before the messages still plays.
    moved = alice.post(f"/api/games/{game['id']}/moves", json={"move": "E5",
                                                               "version": version})
    assert moved.status_code == 200, moved.text
    # The UI draws the same log, escaped, for the watcher, with no line to write in.
    page = carol.get(f"/ui/go/{game['id']}").text
    assert "have fun &lt;b&gt;!&lt;/b&gt;" in page and 'id="chat-text"' not in page
    assert 'id="chat-text"' in bob.get(f"/ui/go/{game['id']}").text


def test_a_refused_message_stores_nothing(clients: Clients) -> None:
    alice, bob, carol = clients(), clients(), clients()
    game = friend_game(alice, bob)
    chat = f"/api/games/{game['id']}/chat"
    for body, status, code in (({"text": "x" * 301}, 422, "malformed_request"),
                               ({"text": "   "}, 422, "empty_message"),
                               ({"text": "hi\u202eyou"}, 422, "bad_message"),
                               ({"text": "a\nb"}, 201, None)):  # a new line is a space
        said = alice.post(chat, json=body)
        assert said.status_code == status, said.text
        if code:
            assert said.json()["code"] == code and said.json()["detail"]
    watcher = carol.post(chat, json={"text": "hello"})
    assert watcher.status_code == 403 and "watchers read it" in watcher.json()["detail"]
    assert [m["text"] for m in carol.get(chat).json()["messages"]] == ["a b"]
    # Through the UI too: the refusal's sentence under the log, nothing added.
    # Marked refused (X-Chat-Refused: the page keeps the line written in); a sent one is not.
    refused = carol.post(f"/ui/go/{game['id']}/chat", data={"text": "hello"})
    assert "watchers read it" in refused.text and refused.headers["x-chat-refused"] == "1"
    assert [m["text"] for m in carol.get(chat).json()["messages"]] == ["a b"]
    sent = bob.post(f"/ui/go/{game['id']}/chat", data={"text": "hello"})
    assert sent.status_code == 200 and "x-chat-refused" not in sent.headers
    assert [m["text"] for m in carol.get(chat).json()["messages"]] == ["a b", "hello"]


def test_a_game_against_the_computer_has_no_chat(clients: Clients) -> None:
    alice = clients()
    made = alice.post("/api/games", json={"game": "tictactoe",
                                          "options": {"opponent": "minimax"}}).json()
    said = alice.post(f"/api/games/{made['id']}/chat", json={"text": "hi"})
    assert said.status_code == 409 and said.json()["code"] == "no_chat"
    assert alice.get(f"/api/games/{made['id']}/chat").json() == {"messages": []}
    assert "chat-log" not in alice.get(f"/ui/tictactoe/{made['id']}").text


def test_a_seat_cannot_flood_the_chat_and_a_game_holds_a_bounded_number(
        clients: Clients) -> None:
    alice, bob = clients(), clients()
    game = friend_game(alice, bob)
    chat = f"/api/games/{game['id']}/chat"
    for number in range(CHAT_BURST):
        assert alice.post(chat, json={"text": f"spam {number}"}).status_code == 201
    flood = alice.post(chat, json={"text": "one more"})
    assert flood.status_code == 429 and int(flood.headers["Retry-After"]) >= 1
    assert bob.post(chat, json={"text": "the other seat still speaks"}).status_code == 201
    assert len(bob.get(chat).json()["messages"]) == CHAT_BURST + 1


def test_a_full_chat_refuses_more(clients: Clients) -> None:
    alice, bob = clients(), clients()
    game = friend_game(alice, bob)
    app = alice.app
    store = app.state.service.store  # type: ignore[attr-defined]
    for number in range(MESSAGES_KEPT):
        store.say(game["id"], "black", None, f"m{number}", float(number), MESSAGES_KEPT)
    full = bob.post(f"/api/games/{game['id']}/chat", json={"text": "hello"})
    assert full.status_code == 409 and full.json()["code"] == "chat_full"
    messages = bob.get(f"/api/games/{game['id']}/chat").json()["messages"]
    assert len(messages) == 100 and messages[-1]["text"] == f"m{MESSAGES_KEPT - 1}"
