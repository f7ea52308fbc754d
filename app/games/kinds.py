"""Every kind of game the server knows, in one table: KINDS.

A kind's adapter (app/games/<kind>.py) says what the kind is called in URLs and JSON
(`kind`: "go", in /go/<id>, /ui/go/…, the Game's "game" and the store), what one game of it
is in a sentence (`label`) and its seats (`sides`); the table adds what the pages need to
show it. Everything that lists the kinds reads this table: the service's adapters
(app/main.py), the shell's paths (app/routes/pages.py, which hands the front end's router
`front_end()` in the page), the not-found views (app/routes/fragments.py), the games list
(app/routes/games_list.py), the routes' loaders (app/routes/deps.py), the chat's kinds
(app/routes/ui_chat.py). The JSON API's models (app/routes/models.py) name the kinds as
literals, as a discriminated union must; tests/test_kinds.py checks them against this
table, with the front end's view modules (static/js/main.js) and the site's links.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.adapter import GameAdapter, TwoSided
from app.games.go import GoAdapter
from app.games.knights_tour import KnightsTourAdapter
from app.games.tictactoe import TicTacToeAdapter

GAME_ID = "[A-Za-z0-9_-]+"  # a game's id in a path: new_game_id's URL-safe base64


@dataclass(frozen=True)
class Kind:
    """One kind of game: its adapter, and what the pages say of it."""

    adapter: GameAdapter
    name: str  # the kind in a heading or the games list: "Knight's tour"
    widget: str  # the id of its fragment's root (templates/<kind>/_game.html), swapped whole
    new_game: str  # the link its not-found view offers: a new game with the usual options
    new_words: str  # that link's words
    not_found: str = "Game not found"  # its not-found view's heading

    @property
    def kind(self) -> str:
        return self.adapter.kind

    @property
    def label(self) -> str:
        return self.adapter.label

    @property
    def sides(self) -> tuple[str, ...]:
        return self.adapter.sides

    @property
    def two_sided(self) -> bool:
        """Whether two sides play it (take-backs, resignation, chat between friends)."""
        return isinstance(self.adapter, TwoSided)


TICTACTOE = Kind(TicTacToeAdapter(), "Tic-tac-toe", "ttt-game", "/tictactoe?opponent=rules",
                 "Start a new tic-tac-toe game")
GO = Kind(GoAdapter(), "Go", "go-game", "/go?size=9", "Start a new Go game")
KNIGHTS_TOUR = Kind(KnightsTourAdapter(), "Knight's tour", "kt-game", "/knights-tour?size=8",
                    "Start a new knight's tour", not_found="Puzzle not found")

KINDS: tuple[Kind, ...] = (TICTACTOE, GO, KNIGHTS_TOUR)
BY_KIND: Mapping[str, Kind] = {kind.kind: kind for kind in KINDS}
# Typed as the protocol, so mypy checks every adapter against GameAdapter.
ADAPTERS: Mapping[str, GameAdapter] = {kind.kind: kind.adapter for kind in KINDS}


def front_end() -> dict[str, Any]:
    """What the front end's router needs of the table (static/js/main.js reads it from the
    shell's <meta name="tabletop-kinds">): each kind's path, and the id pattern of a game's
    own path, /<kind>/<id>."""
    return {"kinds": [kind.kind for kind in KINDS], "id": GAME_ID}
