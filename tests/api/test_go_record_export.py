"""Records out and in (issue 34, point 10): the exported SGF names the computer and its
level and carries a scored game's territory (TB/TW); a game continued from an imported
record is its seats' game, not the record's players'; an imported record opens at its
start; a record's variations are shown and followed (?line=) and still exported."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sgfmill import sgf  # type: ignore[import-untyped]

from app.engine.go import read_record

# Black walls off the bottom two rows of a 5x5 board, white the top one; both pass.
WALLS = ["C3", "C4", "B3", "B4", "D3", "D4", "A3", "A4", "E3", "E4", "pass", "pass"]

# Shusaku's names, a main line E5 C7 G7 C3 G3, a variation at move 3 (C4, then G3 and a
# choice at move 5: D7 or F7) and another at move 3 (G3 G7).
RECORD = (b"(;GM[1]FF[4]SZ[9]KM[7]PB[Honinbo Shusaku]PW[Gennan Inseki]DT[1846-09-11]"
          b"EV[Ear-reddening game];B[ee];W[cc]"
          b"(;B[gc];W[cg];B[gg]C[main line comment])"
          b"(;B[cf]C[a variation];W[gg](;B[dc])(;B[fc]))"
          b"(;B[gg];W[gc]))")


def imported(client: TestClient, text: bytes = RECORD) -> dict[str, Any]:
    response = client.post("/api/games/import", content=text,
                           headers={"Content-Type": "application/x-go-sgf"})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def exported(client: TestClient, game_id: str) -> Any:
    response = client.get(f"/api/games/{game_id}/sgf")
    assert response.status_code == 200, response.text
    return sgf.Sgf_game.from_bytes(response.content)


def test_the_computer_is_named_with_its_level(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "computer", "level": "strong", "human": "black", "size": 9}}).json()
    root = exported(client, game["id"]).get_root()
    assert root.get("PW") == "Tabletop (strong)" and root.get("PB") == "Black"
    other = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "computer", "level": "easy", "human": "white", "size": 9}}).json()
    root = exported(client, other["id"]).get_root()
    assert root.get("PB") == "Tabletop (easy)" and root.get("PW") == "White"
    friends = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    root = exported(client, friends["id"]).get_root()
    assert (root.get("PB"), root.get("PW")) == ("Black", "White")


def test_a_scored_game_carries_each_sides_territory(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 5, "komi": 0.5}}).json()
    for move in [*WALLS, "done"]:
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": move}).json()
    assert game["status"] == "over", game
    record = exported(client, game["id"])
    root, last = record.get_root(), record.get_last_node()
    assert root.get("RE") == "B+4.5"
    assert last.get_move() == ("w", None)  # the second pass
    # sgfmill's points: (row from the bottom, column); black owns rows 1-2, white row 5.
    assert last.get("TB") == {(row, column) for row in (0, 1) for column in range(5)}
    assert last.get("TW") == {(4, column) for column in range(5)}
    # Read back by our own importer: the same game, the count kept in its tree.
    again = read_record(client.get(f"/api/games/{game['id']}/sgf").content)
    assert again.game.moves == WALLS and "TB[" in again.tree and "TW[" in again.tree


def test_an_unscored_game_has_no_territory(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 5}}).json()
    for move in WALLS[:-1]:
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": move}).json()
    text = client.get(f"/api/games/{game['id']}/sgf").text
    assert "TB[" not in text and "TW[" not in text and "RE[" not in text


def test_a_continued_record_is_its_seats_game(client: TestClient) -> None:
    record = imported(client)
    response = client.post(f"/api/games/{record['id']}/branch", json={
        "move": 2, "options": {"opponent": "computer", "level": "strong", "human": "black"}})
    assert response.status_code == 201, response.text
    continued = response.json()
    page = client.get(f"/ui/go/{continued['id']}").text
    head = page.split('class="go-head"')[1].split("</div>")[0]
    assert "Shusaku" not in head and "Gennan" not in head  # the seats are you and it
    assert "Continued from move 2 of a record of Honinbo Shusaku vs Gennan Inseki." in page
    root = exported(client, continued["id"]).get_root()
    assert root.get("PW") == "Tabletop (strong)" and root.get("PB") == "Black"
    assert not root.has_property("EV") and root.get("DT") != "1846-09-11"
    assert not root.has_property("RE")
    # The record itself still exports as Shusaku's game.
    root = exported(client, record["id"]).get_root()
    assert root.get("PB") == "Honinbo Shusaku" and root.get("DT") == "1846-09-11"


def test_an_imported_record_opens_at_its_start(client: TestClient) -> None:
    response = client.post("/ui/go/import", files={
        "sgf": ("ear-reddening.sgf", RECORD, "application/x-go-sgf")})
    assert response.status_code == 204, response.text
    path = json.loads(response.headers["HX-Trigger"])["tabletop:navigate"]["path"]
    assert path.endswith("?move=0"), path
    page = client.get("/ui" + path).text
    assert "Move 0 of 5: The start of the game." in page


def test_variations_are_shown_and_followed(client: TestClient) -> None:
    record = imported(client)
    assert record["state"]["moves"] == ["E5", "C7", "G7", "C3", "G3"]
    at_two = client.get(f"/ui/go/{record['id']}?move=2").text
    assert "Next, move 3 has variations:" in at_two
    assert f'href="/go/{record["id"]}?move=3&amp;line=3.1" data-go-line>a:' in at_two
    assert f'href="/go/{record["id"]}?move=3&amp;line=3.2" data-go-line>b:' in at_two
    at_three = client.get(f"/ui/go/{record['id']}?move=3").text
    assert "Variations at move 3:" in at_three and "+2" in at_three
    assert 'aria-current="true">main line:' in at_three

    branch = client.get(f"/ui/go/{record['id']}?move=4&line=3.1").text
    assert "Move 4 of 5: White played G3." in branch
    assert "In variation 3a" in branch and "Back to the main line" in branch
    assert f'href="/go/{record["id"]}?move=3" data-go-line>Back to the main line' in branch
    assert 'href="/go/' + record["id"] + '?move=4&amp;line=3.1"' in branch  # the list keeps it
    assert "main line comment" not in branch
    deeper = client.get(f"/ui/go/{record['id']}?move=5&line=3.1-5.1").text
    assert "Move 5 of 5: Black played F7." in deeper and "In variation 3a, 5a" in deeper
    assert "Play continues from the main line" in deeper  # not a branch of the main line

    refused = client.get(f"/ui/go/{record['id']}?move=3&line=3.7").text
    assert "offers no variation 3.7; the main line is shown." in refused
    assert "Move 3 of 5: Black played G7." in refused
    nonsense = client.get(f"/ui/go/{record['id']}?line=" + "9" * 500).text
    assert "that one is not, so the main line is shown." in nonsense

    # Every variation is still in the export.
    text = client.get(f"/api/games/{record['id']}/sgf").text
    assert "B[cf]" in text and "B[fc]" in text and "B[dc]" in text and "W[gc]" in text


def test_a_game_without_variations_shows_none(client: TestClient) -> None:
    record = imported(client, b"(;SZ[9];B[ee];W[cc];B[gc])")
    page = client.get(f"/ui/go/{record['id']}?move=1").text
    assert "go-variations" not in page and "go-branches" not in page
