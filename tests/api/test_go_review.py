"""Review through HTTP: the position after any move (a deep link), the move list with its
captures, what the computer would play in a position, and a new game branched from one."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

# Black captures white's D5 with move 7; the game then goes on.
MOVES = ["D4", "D5", "C5", "A1", "E5", "A2", "D6", "A3"]


def played(client: TestClient) -> dict[str, Any]:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    for move in MOVES:
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": move}).json()
    return game


def test_the_view_shows_any_position_and_the_move_list(client: TestClient) -> None:
    game = played(client)
    page = client.get(f"/ui/go/{game['id']}?move=7").text
    assert "Move 7 of 8: Black played D6, capturing 1." in page
    assert 'aria-current="step"><span class="go-move-number">7</span>' in page
    assert 'class="go-captures">×1<' in page
    assert 'data-review' in page and "hx-post=\"/ui/go/" not in page.split('id="go-board"')[1] \
        .split("</div>")[0]  # a position in review is not played on
    start = client.get(f"/ui/go/{game['id']}?move=0").text
    assert "Move 0 of 8: The start of the game." in start
    live = client.get(f"/ui/go/{game['id']}").text
    assert "data-review" not in live and "Black to play." in live
    assert client.get(f"/ui/go/{game['id']}?move=99").status_code == 200  # the end


def test_what_the_computer_would_play(client: TestClient) -> None:
    game = played(client)
    response = client.get(f"/api/games/{game['id']}/analysis", params={"move": 2})
    assert response.status_code == 200, response.text
    analysis = response.json()
    assert analysis["after"] == 2 and analysis["to_move"] == "black"
    assert analysis["move"] and 0 <= analysis["win_rate"] <= 1
    assert -81 <= analysis["lead"] <= 81  # points on a 9x9 board, komi included
    assert analysis["playouts"] > 0 and analysis["line"][0] == analysis["move"]
    again = client.get(f"/api/games/{game['id']}/analysis", params={"move": 2}).json()
    assert again == analysis  # asked again: the same answer, from the cache
    assert client.get(f"/api/games/{game['id']}/analysis", params={"move": -1}
                      ).status_code == 422


def test_a_game_branched_from_a_position(client: TestClient) -> None:
    game = played(client)
    response = client.post(f"/api/games/{game['id']}/branch", json={
        "move": 4, "options": {"opponent": "computer", "level": "easy", "human": "black"}})
    assert response.status_code == 201, response.text
    branched = response.json()
    assert branched["id"] != game["id"] and branched["state"]["moves"] == MOVES[:4]
    assert branched["options"]["opponent"] == "computer" and branched["you"] == ["black"]
    assert branched["token"]
    played_on = client.post(f"/api/games/{branched['id']}/moves", json={"move": "G7"}).json()
    assert played_on["state"]["moves"][:5] == [*MOVES[:4], "G7"]
    refused = client.post(f"/api/games/{game['id']}/branch", json={"move": 99})
    assert refused.status_code == 422 and refused.json()["code"] == "no_such_move"


RECORD = ("(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]PB[Lee Sedol]BR[9p]PW[AlphaGo]DT[2016-03-13]"
          "RE[W+R]C[A famous game, in miniature.]"
          ";B[ee]C[The centre.];W[cc](;B[gg];W[cg]C[The main line.])(;B[gc]C[A variation.]))")


def test_an_imported_record_is_reviewed_and_its_variations_survive(client: TestClient) -> None:
    response = client.post("/api/games/import", content=RECORD.encode(),
                           headers={"content-type": "application/x-go-sgf"})
    assert response.status_code == 201, response.text
    record = response.json()
    assert record["status"] == "over" and record["result"] == {"winner": "white",
                                                              "text": "W+R"}
    page = client.get(f"/ui/go/{record['id']}").text
    assert "Lee Sedol" in page and "9p" in page and "AlphaGo" in page
    assert "Move 4 of 4" in page and "The main line." in page  # a review, at its end
    assert "The centre." in client.get(f"/ui/go/{record['id']}?move=1").text
    # Continue from move 2 with another move: the SGF keeps the record's variations, but
    # the players are the new game's seats, not the record's (issue 34, point 10).
    branched = client.post(f"/api/games/{record['id']}/branch", json={
        "move": 2, "options": {"opponent": "local"}}).json()
    assert client.post(f"/api/games/{branched['id']}/moves", json={"move": "J1"}
                       ).status_code == 200
    sgf = client.get(f"/api/games/{branched['id']}/sgf").text
    assert "Lee Sedol" not in sgf and "AlphaGo" not in sgf
    for kept in ("The centre.", "The main line.", "A variation.",
                 "B[gg]", "B[gc]", "B[ii]"):  # the old lines and the new one
        assert kept in sgf, kept
    assert sgf.index("B[ii]") < sgf.index("B[gg]")  # the game played is the main line


def result_line(page: str) -> str:
    """The status line of a rendered widget: its class attribute and its text."""
    line = page.split('<p class="game-status', 1)[1].split("</p>", 1)[0]
    return line


def test_a_result_is_styled_as_it_ended_for_the_viewer(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "computer", "level": "easy", "human": "black", "size": 9}}).json()
    assert client.post(f"/api/games/{game['id']}/resign", json={}).status_code == 200
    lost = result_line(client.get(f"/ui/go/{game['id']}").text)
    assert "go-result--lost" in lost and "go-result--won" not in lost, lost
    assert "The computer wins by resignation." in lost

    friend = TestClient(client.app)  # another browser: no cookie, so a watcher until it joins
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "remote", "human": "black", "size": 9}}).json()
    code = game["invite"].split("?invite=", 1)[1]
    assert friend.post(f"/api/games/{game['id']}/join", json={"invite": code}
                       ).status_code == 200
    assert friend.post(f"/api/games/{game['id']}/resign", json={}).status_code == 200
    won = result_line(client.get(f"/ui/go/{game['id']}").text)
    assert "go-result--won" in won and "You win by resignation." in won, won
    lost = result_line(friend.get(f"/ui/go/{game['id']}").text)
    assert "go-result--lost" in lost and "Your friend wins by resignation." in lost, lost
    watcher = TestClient(client.app)
    watched = result_line(watcher.get(f"/ui/go/{game['id']}").text)
    assert "go-result--neutral" in watched and "Black wins by resignation." in watched
    assert client.post(f"/api/games/{game['id']}/name", json={"name": "Ana <b>"}
                       ).status_code == 200
    named = result_line(watcher.get(f"/ui/go/{game['id']}").text)
    assert "Ana &lt;b&gt; (black) wins by resignation." in named, named  # escaped

    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    assert client.post(f"/api/games/{game['id']}/resign", json={}).status_code == 200
    both = result_line(client.get(f"/ui/go/{game['id']}").text)
    assert "go-result--neutral" in both and "White wins by resignation." in both, both
    playing = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    assert "go-result" not in result_line(client.get(f"/ui/go/{playing['id']}").text)


def test_level_and_colour_are_only_asked_against_the_computer(client: TestClient) -> None:
    local = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    form = client.get(f"/ui/go/{local['id']}").text.split('class="new-game"', 1)[1]
    row = form.split('data-shown-for="computer"', 1)[1].split(">", 1)[0]
    assert "hidden" in row  # hidden on first render, before any script runs
    assert 'name="level" disabled' in form and 'name="human" disabled' in form
    # Without them (disabled fields are not sent), a game against a person starts.
    started = client.post("/ui/go/new", data={"size": "9", "handicap": "0",
                                              "opponent": "local", "komi": "", "clock": ""})
    assert started.status_code == 204 and "tabletop:navigate" in started.headers["HX-Trigger"]
    computer = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "computer", "level": "easy", "size": 9}}).json()
    form = client.get(f"/ui/go/{computer['id']}").text.split('class="new-game"', 1)[1]
    row = form.split('data-shown-for="computer"', 1)[1].split(">", 1)[0]
    assert "hidden" not in row and "disabled" not in form.split('name="clock"')[0]
