"""The games list (/ui/games) in words: every ending from every seat, for each kind of game;
a game nobody has moved in is not listed (decided by the store's query, so its limit counts
only listed games, on SQLite and PostgreSQL); each row names the game with its board, the
opponent, and when it was last played."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.engine.knights_tour.puzzle import Puzzle
from app.routes.games_list import Ending, go_ending, result_sentence
from app.store import GameRecord, GameStore

DEC_3_2026_1740 = 1796319600.0  # 2026-12-03 17:40:00 UTC


class Time:
    """The server's clock, moved by hand."""

    def __init__(self, now: float = DEC_3_2026_1740) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def rows(client: TestClient) -> list[dict[str, str]]:
    """The list's rows as this browser sees them: the cells' text by class, and the link."""
    page = client.get("/ui/games")
    assert page.status_code == 200
    found = []
    for row in re.findall(r'<tr class="games-list--(\w+)">(.*?)</tr>', page.text, re.S):
        tone, body = row
        cells = dict(re.findall(r'class="games-list-(\w+)">(.*?)</t[hd]>', body, re.S))
        text = {name: html.unescape(re.sub(r"<[^>]+>", " ", value)).split()
                for name, value in cells.items()}
        found.append({"tone": tone, "link": re.search(r'href="([^"]+)"', body).group(1),
                      **{name: " ".join(words) for name, words in text.items()},
                      "datetime": (re.search(r'datetime="([^"]+)"', body) or [""])[0]})
    return found


def row_of(client: TestClient, game_id: str) -> dict[str, str]:
    [row] = [row for row in rows(client) if row["link"].endswith(f"/{game_id}")]
    return row


def new(client: TestClient, game: str, **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": options})
    assert response.status_code == 201, response.text
    return dict(response.json())


def move(client: TestClient, game: dict[str, Any], played: Any,
         seat: dict[str, str] | None = None) -> dict[str, Any]:
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": played},
                           headers=seat or {})
    assert response.status_code == 200, response.text
    return dict(response.json())


def friend_of(client: TestClient, game: dict[str, Any]) -> TestClient:
    """Another browser (cookies of its own), seated in the game's free seat."""
    friend = TestClient(client.app)
    code = game["invite"].split("invite=")[1]
    assert friend.post(f"/api/games/{game['id']}/join", json={"invite": code}).status_code == 200
    return friend


# -- the words, from every seat ------------------------------------------------------------

GO_RESULTS = [
    ({"winner": "black", "text": "B+R"}, "black", "by resignation"),
    ({"winner": "white", "text": "W+T"}, "white", "on time"),
    ({"winner": "white", "text": "W+7.5"}, "white", "by 7.5 points"),
    ({"winner": "black", "text": "B+1"}, "black", "by 1 point"),
    ({"winner": "black", "text": "B+Resign"}, "black", "by resignation"),  # records' spellings
    ({"winner": "white", "text": "W+F"}, "white", "by forfeit"),
    ({"winner": "black", "text": "B+"}, "black", ""),
    ({"winner": "white", "text": "W+lots and lots"}, "white", ""),  # never the raw text
]


@pytest.mark.parametrize(("result", "winner", "how"), GO_RESULTS)
def test_every_go_ending_from_every_seat(result: dict[str, Any], winner: str,
                                         how: str) -> None:
    ending = go_ending(result)
    assert ending == Ending(winner, how)
    loser = "white" if winner == "black" else "black"
    said = f" {how}" if how else ""
    assert result_sentence(ending, {winner}) == f"You won{said}"
    assert result_sentence(ending, {loser}) == f"You lost{said}"
    both = f"{winner.capitalize()} won{said}"
    assert result_sentence(ending, {"black", "white"}) == both  # one screen, a record
    assert result_sentence(ending, set()) == both  # an owner who holds no seat


def test_go_draws_and_results_nobody_won() -> None:
    for text in ("0", "Draw", "jigo"):
        assert result_sentence(go_ending({"winner": None, "text": text}), {"black"}) == "Draw"
    for text in ("Void", "?", ""):
        assert result_sentence(go_ending({"winner": None, "text": text}),
                               {"black"}) == "No result"


def test_tictactoe_endings_from_every_seat(client: TestClient) -> None:
    # Three in a row, at one screen: the sides' names.
    local = new(client, "tictactoe", opponent="local")
    for cell in (0, 3, 1, 4, 2):
        move(client, local, cell)
    assert row_of(client, local["id"])["now"] == "X won with three in a row"
    # A draw.
    drawn = new(client, "tictactoe", opponent="local")
    for cell in (0, 1, 2, 4, 3, 5, 7, 6, 8):
        move(client, drawn, cell)
    assert row_of(client, drawn["id"])["now"] == "Draw"
    # Resigning to the computer.
    computer = new(client, "tictactoe", opponent="minimax")
    move(client, computer, 4)
    assert client.post(f"/api/games/{computer['id']}/resign").status_code == 200
    row = row_of(client, computer["id"])
    assert (row["now"], row["tone"]) == ("You lost by resignation", "lost")
    assert row["against"] == "Computer · Minimax You play X"


def test_tictactoe_on_time_from_both_seats(client: TestClient) -> None:
    time = Time()
    client.app.state.service.now = time  # type: ignore[attr-defined]
    game = new(client, "tictactoe", opponent="remote", minutes=1)
    friend = friend_of(client, game)
    move(client, game, 4)
    time.now += 61  # O's clock runs out
    assert row_of(client, game["id"])["now"] == "You won on time"
    row = row_of(friend, game["id"])
    assert (row["now"], row["tone"], row["against"]) == ("You lost on time", "lost",
                                                         "A friend You play O")


def test_go_endings_from_both_seats_of_a_friend_game(client: TestClient) -> None:
    game = new(client, "go", opponent="remote", size=9, human="black")
    friend = friend_of(client, game)
    move(client, game, "E5")
    assert row_of(client, game["id"])["now"] == "Your friend's move"
    assert row_of(friend, game["id"])["now"] == "Your move"
    assert friend.post(f"/api/games/{game['id']}/resign").status_code == 200
    mine, theirs = row_of(client, game["id"]), row_of(friend, game["id"])
    assert (mine["now"], mine["tone"]) == ("You won by resignation", "won")
    assert (theirs["now"], theirs["tone"]) == ("You lost by resignation", "lost")
    assert "B+R" not in client.get("/ui/games").text


def test_a_scored_go_game_at_one_screen(client: TestClient) -> None:
    game = new(client, "go", opponent="local", size=9)
    move(client, game, "E5")
    move(client, game, "pass")
    move(client, game, "pass")
    assert row_of(client, game["id"])["now"] == "Counting: mark the dead stones, then accept"
    move(client, game, "done")
    row = row_of(client, game["id"])  # Black's 81 points against White's komi
    assert (row["now"], row["tone"], row["against"]) == ("Black won by 73.5 points", "over",
                                                         "Two players, one screen")


def test_resigning_to_the_go_computer(client: TestClient) -> None:
    game = new(client, "go", size=13, level="strong", human="black")
    assert client.post(f"/api/games/{game['id']}/resign").status_code == 200
    row = row_of(client, game["id"])
    assert (row["game"], row["against"], row["now"]) == (
        "Go 13×13", "Computer · Strong You play Black", "You lost by resignation")


def test_knights_tour_standings(client: TestClient) -> None:
    going = new(client, "knights-tour", size=6, closed=True)
    for square in ("a1", "b3", "c5"):
        move(client, going, square)
    row = row_of(client, going["id"])
    assert (row["game"], row["against"], row["now"], row["tone"]) == (
        "Knight's tour 6×6, closed", "Solo puzzle", "Your move · 3 of 36 squares", "yours")

    stuck = new(client, "knights-tour", size=5)
    puzzle = Puzzle(5, False, [])
    puzzle.play("a1")
    while puzzle.status == "playing":  # the last way on each time: soon stuck
        puzzle.play(puzzle.legal_next[-1])
    assert puzzle.status == "stuck"
    for square in puzzle.path:
        move(client, stuck, square)
    assert row_of(client, stuck["id"])["now"] == f"Stuck after {len(puzzle.path)} of 25 squares"

    solved = new(client, "knights-tour", size=5)
    tour = client.get("/api/knights-tour/solve", params={"size": 5, "start": "a1"}).json()
    for square in tour["squares"]:
        move(client, solved, square)
    row = row_of(client, solved["id"])
    assert (row["now"], row["tone"]) == ("Tour complete", "over")


# -- which games are listed --------------------------------------------------------------------

def test_a_game_nobody_moved_in_is_not_listed(client: TestClient) -> None:
    opened = new(client, "go", size=13)  # merely opening /go
    computer_first = new(client, "tictactoe", opponent="rules", human="O")
    assert len(computer_first["state"]["moves"]) == 1  # the computer's move: no person's
    options_only = new(client, "tictactoe", opponent="local")
    assert client.patch(f"/api/games/{options_only['id']}",
                        json={"options": {"opponent": "minimax"}}).status_code == 200
    friendly = new(client, "go", opponent="remote", size=9)
    friend = friend_of(client, friendly)  # joined, but nobody has moved
    assert rows(client) == [] and rows(friend) == []
    assert "No games yet" in client.get("/ui/games").text

    move(client, opened, "D4")
    move(client, computer_first, 0)
    assert {row["link"] for row in rows(client)} == {f"/go/{opened['id']}",
                                                      f"/tictactoe/{computer_first['id']}"}


def test_the_playing_come_first_your_move_first_then_the_finished(client: TestClient) -> None:
    time = Time()
    client.app.state.service.now = time  # type: ignore[attr-defined]
    finished = new(client, "tictactoe", opponent="rules")
    move(client, finished, 4)
    client.post(f"/api/games/{finished['id']}/resign")
    time.now += 60
    waiting = new(client, "go", opponent="remote", size=9)
    move(client, waiting, "E5")  # the friend has not joined yet
    time.now += 60
    mine = new(client, "tictactoe", opponent="local")
    move(client, mine, 4)
    time.now += 60
    waiting_row = row_of(client, waiting["id"])
    assert (waiting_row["now"], waiting_row["against"]) == (
        "Waiting for your friend to join", "A friend, not joined yet You play Black")
    page = client.get("/ui/games").text
    assert page.index("Being played") < page.index(mine["id"]) < page.index(waiting["id"]) \
        < page.index("Finished") < page.index(finished["id"])


def test_each_row_says_when_it_was_last_played(client: TestClient) -> None:
    time = Time()
    client.app.state.service.now = time  # type: ignore[attr-defined]
    game = new(client, "go", opponent="local", size=19)
    move(client, game, "Q16")
    time.now += 5 * 60
    row = row_of(client, game["id"])
    assert row["game"] == "Go 19×19"
    assert row["datetime"] == 'datetime="2026-12-03T17:40:00Z"'
    assert row["when"] == "3 Dec 2026, 17:40 UTC 5 minutes ago"
    time.now += 8 * 86400  # beyond a week the date says it alone
    assert row_of(client, game["id"])["when"] == "3 Dec 2026, 17:40 UTC"


# -- the store's query, on both databases -------------------------------------------------------

class TestTheQuery:
    @pytest.fixture(params=["sqlite", "postgresql"])
    def database_kind(self, request: pytest.FixtureRequest) -> str:
        return str(request.param)

    def test_only_played_games_count_towards_the_limit(self, database_url: str) -> None:
        from app.seats import Seat

        store = GameStore(database_url)
        try:
            for number in range(5):  # the newest games, none played
                store.create(GameRecord(id=f"new{number}", kind="go", version=0, data={},
                                        owner="me", updated_at=100.0 + number), {"v": 0})
            for number, played in enumerate((10.0, 30.0, 20.0)):
                store.create(GameRecord(id=f"played{number}", kind="go", version=1, data={},
                                        owner="me", updated_at=50.0, played_at=played),
                             {"v": 1})
            store.create(GameRecord(id="seated", kind="go", version=1, data={}, owner="them",
                                    played_at=40.0, seats=(Seat("white", browser="me"),)),
                         {"v": 1})
            store.create(GameRecord(id="theirs", kind="go", version=1, data={},
                                    owner="them", played_at=50.0), {"v": 1})
            assert [game.id for game in store.games_of("me", 3, played=True)] == [
                "seated", "played1", "played2"]
            assert len(store.games_of("me", 100, played=True)) == 4
            assert len(store.games_of("me", 100)) == 9  # without `played`: every game
        finally:
            store.close()
