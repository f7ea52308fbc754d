"""The OpenAPI document tells the truth: the Game in each of its kinds, the error shape and the
real limits are in it, and schemathesis — generating requests from it against a running
server, with a game of each kind — finds no 5xx, no response that breaks its schema, and no
request the schema allows that the server refuses as malformed (where a schema can say it)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = 40  # generated requests per operation and phase: bounded, about a minute in all
# The checks are chosen here, not with --checks: a check named on the command line runs on
# every operation, whatever [[operations]] says.
CONFIG = """[parameters]
game_id = "${GAME_ID}"

[checks]
enabled = false
not_a_server_error.enabled = true
status_code_conformance.enabled = true
content_type_conformance.enabled = true
response_schema_conformance.enabled = true
response_headers_conformance.enabled = true
# No 400, 413, 415 or 422 for a request the schema allows...
positive_data_acceptance.enabled = true

# ...but where the refusal turns on what no JSON Schema can see: whether a tic-tac-toe board
# can arise, a start square on the board asked for (or a closed tour on an odd one), an SGF
# record's moves, how many moves the game to branch from has, whether a name or a chat
# message holds an invisible or control character (Unicode's category C, which no pattern
# here can name) or only spaces.
[[operations]]
include-path-regex = "^/api/(tictactoe/.*|knights-tour/solve|games/(import|.+/(branch|name|chat)))$"
checks.positive_data_acceptance.enabled = false
"""


def test_the_game_is_documented_kind_by_kind(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    game = spec["paths"]["/api/games/{game_id}"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]
    assert game["discriminator"]["propertyName"] == "game"
    assert set(game["discriminator"]["mapping"]) == {"tictactoe", "go", "knights-tour"}
    size = schemas["GoOptions"]["properties"]["size"]
    assert (size["minimum"], size["maximum"]) == (5, 25)
    assert schemas["KnightsTourOptions"]["properties"]["size"]["maximum"] == 16
    move = schemas["MoveRequest"]["properties"]["move"]["anyOf"]
    assert {"type": "string", "maxLength": 40} in move


def test_every_refusal_is_documented_with_the_error_shape(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert set(spec["components"]["schemas"]["ErrorBody"]["required"]) == {"detail", "code"}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (
                        method, path, status)
    assert "HTTPValidationError" not in spec["components"]["schemas"]


@pytest.mark.slow
def test_schemathesis_finds_no_server_error_and_no_schema_violation(
        start_server: Callable[..., Any], tmp_path: Path) -> None:
    server = start_server()
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    for kind in ("tictactoe", "go", "knights-tour"):
        options = {"level": "easy"} if kind == "go" else {}
        game = httpx.post(f"{server.url}/api/games",
                          json={"game": kind, "options": options}).json()
        run = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
             f"{server.url}/openapi.json", "--max-examples", str(EXAMPLES),
             "--request-timeout", "30", "--generation-database", "none",
             # The event stream never ends: tests/test_live_games.py checks it instead.
             "--exclude-path-regex", "/events$",
             "--seed", "1", "--no-color"],
            cwd=tmp_path, env={**os.environ, "GAME_ID": game["id"]}, capture_output=True,
            text=True, timeout=600)
        assert run.returncode == 0, f"{kind}:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
