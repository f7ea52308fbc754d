"""What a hostile client found at the edges (issue 30, points 4 and 5), each refused with a
sentence and changing nothing: one request holding both seats of a friend game, a repeated
acceptance of the score, broken SGF records, non-JSON numbers in Go's own routes, numbers
where a boolean belongs — and requests the OpenAPI document allowed but the server refused,
whose rules the document now states."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

MAX_DETAIL = 200  # a sentence plus at most ~40 characters of the refused input
SGF = {"content-type": "application/x-go-sgf"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_sentence(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text[:300]
    body = response.json()
    assert set(body) == {"detail", "code"} and body["code"] == code, body
    detail: str = body["detail"]
    assert detail.endswith(".") and len(detail) <= MAX_DETAIL, detail
    return detail


def friend_game(client: TestClient, game: str, human: str) -> tuple[str, str, str]:
    """A game with a friend through a link: (id, the creator's token, the friend's token).
    The client's cookie is the friend's browser afterwards, so a request with the creator's
    token as well holds both seats."""
    created = client.post("/api/games", json={
        "game": game, "options": {"opponent": "remote", "human": human}}).json()
    client.cookies.clear()  # another browser opens the invitation
    joined = client.post(f"/api/games/{created['id']}/join",
                         json={"invite": created["invite"].split("?invite=", 1)[1]})
    assert joined.status_code == 200, joined.text
    return created["id"], created["token"], joined.json()["token"]


# -- 1. undo with both seats -------------------------------------------------------------------


def test_undo_holding_both_seats_asks_for_the_seat_that_moved_last(client: TestClient) -> None:
    game_id, x_token, _ = friend_game(client, "tictactoe", "X")
    url = f"/api/games/{game_id}"
    both = bearer(x_token)  # with the friend's cookie: X and O
    assert client.get(url, headers=both).json()["you"] == ["O", "X"]
    before = client.get(url).json()
    assert_sentence(client.post(f"{url}/undo", headers=both), 409, "nothing_to_undo")
    assert client.get(url).json() == before
    client.post(f"{url}/moves", json={"move": 4}, headers=both)  # X's move
    client.post(f"{url}/moves", json={"move": 0})  # O's, by the cookie alone
    asked = client.post(f"{url}/undo", headers=both)
    assert asked.status_code == 200, asked.text
    assert asked.json()["takeback"] == {"by": "O"}
    client.cookies.clear()  # X alone answers
    taken = client.post(f"{url}/takeback", json={"accept": True}, headers=bearer(x_token))
    assert taken.status_code == 200, taken.text
    assert taken.json()["state"]["moves"] == [4] and taken.json()["to_move"] == "O"


# -- 2. accepting the score twice --------------------------------------------------------------


def test_accepting_the_score_again_changes_nothing(client: TestClient) -> None:
    game_id, black, white = friend_game(client, "go", "black")
    url = f"/api/games/{game_id}"
    client.cookies.clear()  # each player by their own token from here on
    client.post(f"{url}/moves", json={"move": "pass"}, headers=bearer(black))
    client.post(f"{url}/moves", json={"move": "pass"}, headers=bearer(white))
    accepted = client.post(f"{url}/moves", json={"move": "done"}, headers=bearer(black)).json()
    assert accepted["status"] == "scoring"
    store = client.app.state.service.store  # type: ignore[attr-defined]
    events = store.events_since(game_id, 0)
    again = client.post(f"{url}/moves", json={"move": "done"}, headers=bearer(black))
    assert "white has yet to accept" in assert_sentence(again, 409, "already_accepted")
    assert client.get(url).json()["version"] == accepted["version"]
    assert store.events_since(game_id, 0) == events
    over = client.post(f"{url}/moves", json={"move": "done"}, headers=bearer(white)).json()
    assert over["status"] == "over" and over["version"] == accepted["version"] + 1


# -- 3. SGF refusals ---------------------------------------------------------------------------

# (record, what the refusal quotes of it); None: a sentence, quoting nothing in particular.
BROKEN_RECORDS: list[tuple[bytes, str | None]] = [
    ("(;SZ[١٩])".encode(), "SZ[١٩]"),  # Arabic-Indic digits
    ("(;SZ[１９])".encode(), "SZ[１９]"),  # full-width digits
    (b"(;SZ[nineteen])", "SZ[nineteen]"),
    (b"(;SZ[])", "SZ[]"),
    (b"(;SZ[99999999999999999999999])", "SZ[99999999999999999999…]"),
    (b"(;SZ[" + b"9" * 10_000 + b"])", "SZ[99999999999999999999…]"),
    (b"(;SZ[-9])", "SZ[-9]"),
    (b"(;SZ[19:13])", "19x13"),
    (b"(;SZ[\xff\xfe])", "SZ[ÿþ]"),  # no CA, not UTF-8: ISO-8859-1, SGF's own default
    (b"(;GM[\xd9\xa1]SZ[9])", "GM[١]"),
    (b"(;CA[\xd9\xa1]SZ[9])", "CA[١]"),
    (b"(;SZ[9]KM[1e400])", "KM[1e400]"),
    (b"(;SZ[9]KM[" + b"9" * 5_000 + b"])", "KM[99999999999999999999…]"),
    (b"(;SZ[9]KM[6.3])", "KM[6.3]"),
    ("(;SZ[9]KM[٦.٥])".encode(), "KM[٦.٥]"),
    (b"(;SZ[9]HA[" + b"9" * 5_000 + b"])", "HA[99999999999999999999…]"),
    (b"(;SZ[9]HA[x])", "HA[x]"),
    (b"(;SZ[9]HA[])", "HA[]"),
    (b"(;SZ[9];B[ab:cd])", "B[ab:cd]"),  # a rectangle is no move
    ("(;SZ[9];B[١١])".encode(), "B[١١]"),
    (b"(;SZ[9];B[jj])", "B[jj]"),  # off the 9x9 board
    (b"(;SZ[19];B[a])", "B[a]"),
    (b"(;SZ[9]PL[B][W]AB[aa])", "PL has 2 values"),
    (b"(;SZ[9]AB[ab:zz])", "AB[ab:zz]"),
    (b"(;SZ[9]AB[][aa])", "AB[]"),
    (b"(;SZ[9]PL[x];B[aa])", "PL[x]"),
    (b"(;SZ[9];B[aa];B[aa])", "A9"),  # occupied
    (b"(;SZ[9];B[];W[];B[ee])", "two passes"),
    (b"(;SZ[19]B[", '"["'),  # cut short inside a value
    (b"(;SZ[19];B[dd]", None),  # cut short after a node
    (b"(;SZ[9](;B[aa])", None),
    (b"(;SZ[9] # ;B[aa])", '"# ;B[aa])"'),  # not SGF at all there
    (b";", '";"'),
    (b"()", '"()"'),
    (b"hello, world", '"hello, world"'),
    (b"   ", "empty"),
    (b"(;SZ[9];B)", "B has no value"),
    (b"(;SZ[9];[aa])", "[aa]"),
    (b"(;SZ[9](;B[aa])W[bb])", "W stands outside"),
    (b"(;SZ[9](;B[aa]);W[bb])", None),
    (b"(;SZ[9]()(;B[aa]))", None),
    (b"(;SZ[9]C[" + "é".encode() * 3 + b"\xff" + b"x" * 100 + b"];B[zz])", "B[zz]"),
]


def test_every_sgf_refusal_is_our_sentence_quoting_the_record(client: TestClient) -> None:
    for record, quoted in BROKEN_RECORDS:  # one app for all: each import starts no worker
        response = client.post("/api/games/import", content=record, headers=SGF)
        detail = assert_sentence(response, 422, "invalid_sgf")
        assert detail.startswith("invalid SGF: "), (record[:40], detail)
        for python in ("unpack", "expected", "Error", "\ufffd", "b'", "SGF data", "no values"):
            assert python not in detail, (record[:40], detail)
        if quoted is not None:
            assert quoted in detail, (record[:40], detail)


def test_an_empty_sgf_body_is_refused_with_a_sentence(client: TestClient) -> None:
    response = client.post("/api/games/import", content=b"", headers=SGF)
    assert assert_sentence(response, 422, "invalid_sgf") == "invalid SGF: the record is empty."


# -- 4. strict JSON in Go's routes -------------------------------------------------------------


@pytest.mark.parametrize("body", [
    '{"move": 0, "options": {"komi": Infinity}}', '{"move": 0, "options": {"komi": NaN}}',
    '{"move": 0, "options": {"minutes": 1e400}}', '{"move": 1e400}',
    '{"move": 0, "options": {"level": "easy", "increment": -Infinity}}',
    '{"move": 0, "options": {"increment": ' + "1" * 40 + "}}",
])
def test_a_branch_body_is_read_as_json_is_written(client: TestClient, body: str) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {"opponent": "local"}})
    url = f"/api/games/{game.json()['id']}/branch"
    response = client.post(url, content=body.encode(),
                           headers={"content-type": "application/json"})
    assert "not valid JSON" in assert_sentence(response, 422, "malformed_request")


@pytest.mark.parametrize(("body", "code"), [
    ({"move": True}, "malformed_move"), ({"move": "0"}, "malformed_move"),
    ({"move": 0, "options": {"colour": "black"}}, "bad_options"),
    ({"move": 0, "options": {"level": 1}}, "bad_options"),
])
def test_a_branch_body_is_what_its_schema_says(client: TestClient, body: dict[str, Any],
                                               code: str) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {"opponent": "local"}})
    response = client.post(f"/api/games/{game.json()['id']}/branch", json=body)
    assert_sentence(response, 422, code)


# -- 5. booleans are booleans ------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 1, 0.0, "1", "yes", "on", "True", "", None, [True]])
def test_a_flag_is_true_or_false_not_a_number(client: TestClient, value: Any) -> None:
    response = client.post("/api/games", json={"game": "knights-tour",
                                               "options": {"closed": value}})
    assert "true or false" in assert_sentence(response, 422, "bad_options")
    game = client.post("/api/games", json={"game": "knights-tour", "options": {}}).json()
    game.pop("token")
    response = client.patch(f"/api/games/{game['id']}", json={"options": {"closed": value}})
    assert_sentence(response, 422, "bad_options")
    assert client.get(f"/api/games/{game['id']}").json() == game


@pytest.mark.parametrize(("value", "closed"), [(True, True), (False, False),
                                               ("true", True), ("false", False)])
def test_a_flag_is_a_json_boolean_or_the_word_a_link_carries(
        client: TestClient, value: Any, closed: bool) -> None:
    # /knights-tour?closed=true posts its query's options as they stand: the word "true".
    response = client.post("/api/games", json={"game": "knights-tour",
                                               "options": {"size": 6, "closed": value}})
    assert response.status_code == 201 and response.json()["options"]["closed"] is closed


# -- 6. what the schema allows the server accepts, and what it refuses the schema forbids ------


@pytest.fixture
def spec(client: TestClient) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").json()
    return document


def allows(spec: dict[str, Any], schema: dict[str, Any], value: Any) -> bool:
    """Whether `value` is valid against `schema` (which may $ref the document's schemas)."""
    validator = jsonschema_rs.Draft202012Validator({**schema, "components": spec["components"]})
    return bool(validator.is_valid(value))


def body_schema(spec: dict[str, Any], method: str, path: str,
                media_type: str = "application/json") -> dict[str, Any]:
    schema: dict[str, Any] = spec["paths"][path][method]["requestBody"]["content"][
        media_type]["schema"]
    return schema


def query_schema(spec: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    for parameter in spec["paths"][path]["get"]["parameters"]:
        if parameter["name"] == name:
            schema: dict[str, Any] = parameter["schema"]
            return schema
    raise KeyError(name)


BIG = 10**30  # 31 digits: more than a JSON body may hold (deps.MAX_INT_DIGITS)


@pytest.mark.parametrize(("body", "refused"), [
    ({"move": 4, "version": BIG}, True), ({"move": BIG}, True), ({"move": -BIG}, True),
    ({"move": 4, "version": 2**53 - 1}, False), ({"move": 4, "version": 0}, False),
    ({"move": 4.0, "version": 0.0}, False),  # JSON Schema's integers: 4.0 is one
])
def test_integers_are_bounded_within_what_json_bodies_may_hold(
        client: TestClient, spec: dict[str, Any], body: dict[str, Any], refused: bool) -> None:
    game = client.post("/api/games", json={"game": "tictactoe", "options": {"opponent": "local"}})
    response = client.post(f"/api/games/{game.json()['id']}/moves", json=body)
    schema = body_schema(spec, "post", "/api/games/{game_id}/moves")
    assert allows(spec, schema, body) is not refused
    if refused:
        assert_sentence(response, 422, "malformed_request")
    else:  # a stale version or the move: the schema cannot know the game's version
        assert response.status_code in (200, 409), response.text


@pytest.mark.parametrize(("options", "accepted"), [
    ({"size": 5, "handicap": 2}, False), ({"size": 6, "handicap": 4}, False),
    ({"handicap": 1}, False), ({"size": 7, "handicap": 5}, False),
    ({"size": 8, "handicap": 9}, False), ({"size": 19, "handicap": 1}, False),
    ({"size": 5}, True), ({"size": 5, "handicap": 0}, True), ({"size": 7, "handicap": 4}, True),
    ({"size": 8, "handicap": 2}, True), ({"handicap": 9}, True),
    ({"size": 25, "handicap": 9}, True),
])
def test_the_handicap_a_board_takes_is_in_the_schema(
        client: TestClient, spec: dict[str, Any], options: dict[str, Any],
        accepted: bool) -> None:
    body = {"game": "go", "options": {**options, "opponent": "local"}}
    assert allows(spec, body_schema(spec, "post", "/api/games"), body) is accepted
    response = client.post("/api/games", json=body)
    if accepted:
        assert response.status_code == 201, response.text
    else:
        assert_sentence(response, 422, "invalid_handicap")


def test_an_empty_sgf_body_is_forbidden_by_the_schema(spec: dict[str, Any]) -> None:
    for media_type in ("application/x-go-sgf", "text/plain"):
        schema = body_schema(spec, "post", "/api/games/import", media_type)
        assert not allows(spec, schema, "")
        assert not allows(spec, schema, "hello, world")  # no game tree in it
        assert allows(spec, schema, "(;SZ[9];B[ee])")


@pytest.mark.parametrize(("kind", "options", "forbidden"), [
    ("tictactoe", {"colour": "X"}, True), ("go", {"x": 1}, True),
    ("knights-tour", {"size": 8, "closed": 1}, True),
    # Another kind's option: the schema cannot tell, the path names the game.
    ("go", {"closed": True}, False),
])
def test_unknown_options_in_a_patch_are_forbidden_by_the_schema(
        client: TestClient, spec: dict[str, Any], kind: str, options: dict[str, Any],
        forbidden: bool) -> None:
    chosen = {} if kind == "knights-tour" else {"opponent": "local"}
    game = client.post("/api/games", json={"game": kind, "options": chosen}).json()
    schema = body_schema(spec, "patch", "/api/games/{game_id}")
    assert allows(spec, schema, {"options": options}) is not forbidden
    response = client.patch(f"/api/games/{game['id']}", json={"options": options})
    assert_sentence(response, 422, "bad_options")
    fine = {"tictactoe": {"opponent": "random"}, "go": {"level": "easy"},
            "knights-tour": {"closed": True}}[kind]
    assert allows(spec, schema, {"options": fine})
    assert client.patch(f"/api/games/{game['id']}", json={"options": fine}).status_code == 200


def test_a_knights_tour_below_5x5_is_forbidden_by_the_schema(
        client: TestClient, spec: dict[str, Any]) -> None:
    schema = query_schema(spec, "/api/knights-tour/solve", "size")
    for size in (1, 2, 3, 4):
        assert not allows(spec, schema, size)
        response = client.get("/api/knights-tour/solve", params={"size": size})
        assert "from 5 to 1000" in assert_sentence(response, 422, "invalid_size")
    assert allows(spec, schema, 5)
    assert client.get("/api/knights-tour/solve", params={"size": 5}).status_code == 200
