"""The JSON API's public shapes: request bodies, the Game in each of its kinds, the error.

Start at `Game`. These models validate what clients send, describe every response in the
OpenAPI document at /openapi.json (so a client generator or schemathesis can rely on them),
and carry the real limits (board sizes, lengths). Each game's options and state models live
with its adapter in app/games/<kind>.py; this module assembles them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
)

from app.chat import MESSAGE_LENGTH, MESSAGES_KEPT, MESSAGES_SHOWN
from app.games.go import GoOptions, GoState
from app.games.knights_tour import KnightsTourOptions, KnightsTourState
from app.games.options import with_sentence
from app.games.tictactoe import TicTacToeOptions, TicTacToeState
from app.seats import NAME_LENGTH

MAX_MOVE_LENGTH = 40  # "toggle D4" is the longest move any game has
MAX_OPTIONS = 16  # more than any game has (a Go game has 13 with its clock)
# Integer fields state a bound, so that the schema allows nothing the JSON parser refuses
# (deps.StrictJsonRoute: more than MAX_INT_DIGITS digits). This one is JSON's largest exact
# integer, far within that, which every client (JavaScript's numbers too) can send as it is.
LARGEST_INT = 2**53 - 1


def _integral(value: Any) -> Any:
    """4.0 as 4: JSON Schema's integers include numbers written with a zero fraction."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


# An integer as JSON Schema means it (4 or 4.0), never true or "4": StrictInt, then this
# after the field's bounds (`Annotated[StrictInt, Field(ge=…), INTEGRAL]`), so that the
# schema states them.
INTEGRAL = BeforeValidator(_integral)
Version = Annotated[StrictInt, Field(ge=0, le=LARGEST_INT, description=(
    "The version the request was made on; refused with 409 if the game has moved on since.")),
    INTEGRAL]


class ErrorBody(BaseModel):
    """Every refusal: a sentence for a person and a word for a program."""

    detail: str = Field(examples=["There is no game with the id 'abc'."])
    code: str = Field(examples=["not_found"])


class Result(BaseModel):
    winner: str | None = Field(description="'X'/'O' or 'black'/'white'; null for a draw "
                                            "or a puzzle.")
    text: str = Field(examples=["B+3.5", "X wins", "Draw"])


class Overtime(BaseModel):
    """A side's time after its main time (byo-yomi or Canadian), as of the response."""

    periods: int | None = Field(default=None, ge=0, description=(
        "Byo-yomi: periods left, counting the one that runs; 0 once the last ran out."))
    stones: int | None = Field(default=None, ge=0, description=(
        "Canadian: moves still due in the current block."))
    seconds: float = Field(ge=0, description=(
        "Seconds left in the current byo-yomi period, or in the Canadian block."))


class Clock(BaseModel):
    """A game's clock: main time left per side as of the response, whose time runs, and
    for byo-yomi and Canadian clocks what follows the main time."""

    initial: int = Field(description="Seconds of main time each player started with.")
    increment: int = Field(description="Seconds added after each move (Fischer only).")
    system: Literal["fischer", "byoyomi", "canadian"] = Field(
        default="fischer", description="The time system (see the options' `system`).")
    remaining: dict[str, float] = Field(description="Seconds of main time left per side.")
    running: str | None
    periods: int | None = Field(default=None, description="Byo-yomi periods per player.")
    period: int | None = Field(default=None, description="Seconds in a byo-yomi period.")
    stones: int | None = Field(default=None, description="Moves due in a Canadian block.")
    block: int | None = Field(default=None, description="Seconds in a Canadian block.")
    overtime: dict[str, Overtime] | None = Field(default=None, description=(
        "Byo-yomi and Canadian clocks: each side's periods or block as of the response."))


class TakeBack(BaseModel):
    by: str = Field(description="The seat that asks to take its last move back.")


class Rematch(BaseModel):
    by: list[str] = Field(description="The seats that asked for the rematch first.")
    game: str | None = Field(default=None, description=(
        "The rematch's game id once it has started; null while it is offered to the other "
        "player (a game between two people through a link starts when both have asked)."))


class GameBase(BaseModel):
    id: str
    version: int = Field(ge=0, description="Changes applied so far; every move adds one.")
    status: Literal["playing", "scoring", "over"]
    result: Result | None
    seats: dict[str, Literal["person", "computer", "free"]] = Field(
        description="Who holds each seat: a person, the computer, or nobody yet (a friend's "
                    "seat before the invitation is used).")
    takeback: TakeBack | None = Field(description="A take-back waiting for the other "
                                                  "player's answer.")
    clock: Clock | None
    names: dict[str, str] = Field(default_factory=dict, description=(
        "The names players chose for their seats (seats without one are absent)."))
    rematch: Rematch | None = Field(default=None, description=(
        "A finished game's rematch: offered, or started (its id)."))
    you: list[str] = Field(default_factory=list, description=(
        "The seats the requester holds; empty for a watcher. Not in events."))
    watching: int = Field(default=0, ge=0, description="People watching without a seat.")
    invite: str | None = Field(default=None, description=(
        "The link that seats a friend in the free seat, shown only to the game's creator "
        "while the seat is free."))
    token: str | None = Field(default=None, description=(
        "The requester's secret for this game, only in the response that seated them "
        "(creation, joining): send it as Authorization: Bearer <token>."))


class TicTacToeGame(GameBase):
    game: Literal["tictactoe"]
    to_move: Literal["X", "O"] | None
    options: TicTacToeOptions
    state: TicTacToeState


class GoGame(GameBase):
    game: Literal["go"]
    to_move: Literal["black", "white"] | None
    options: GoOptions
    state: GoState


class KnightsTourGame(GameBase):
    game: Literal["knights-tour"]
    to_move: None
    options: KnightsTourOptions
    state: KnightsTourState


Game = Annotated[TicTacToeGame | GoGame | KnightsTourGame, Field(discriminator="game")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTicTacToe(_Strict):
    game: Literal["tictactoe"]
    options: TicTacToeOptions = Field(default_factory=TicTacToeOptions)


class NewGo(_Strict):
    game: Literal["go"]
    options: GoOptions = Field(default_factory=GoOptions)


class NewKnightsTour(_Strict):
    game: Literal["knights-tour"]
    options: KnightsTourOptions = Field(default_factory=KnightsTourOptions)


NewGame = Annotated[NewTicTacToe | NewGo | NewKnightsTour, Field(discriminator="game")]


class MoveRequest(_Strict):
    move: Annotated[Annotated[StrictInt, Field(ge=-LARGEST_INT, le=LARGEST_INT), INTEGRAL]
                    | Annotated[str, Field(max_length=MAX_MOVE_LENGTH)], with_sentence(
        "A move is a cell number (tic-tac-toe) or a short text such as \"D4\" (Go) or "
        "\"c2\" (knight's tour), not {value}.")] = Field(
        description="Tic-tac-toe: a cell 0–8. Go: a vertex such as \"D4\", \"pass\", "
                    "\"resign\"; while scoring \"toggle D4\" and \"done\". Knight's tour: a "
                    "square such as \"c2\".",
        examples=[4, "D4", "c2"])
    version: Version | None = None


class VersionedRequest(_Strict):
    version: Version | None = None


class JoinRequest(_Strict):
    invite: str = Field(min_length=8, max_length=100, description="The code from the "
                        "invitation link (?invite=…).")


class NameRequest(_Strict):
    name: str = Field(max_length=NAME_LENGTH, description=(
        "The name to show on the caller's seats, its spaces collapsed: letters, digits, "
        "spaces, punctuation and symbols (no control or invisible characters); empty "
        "removes it."), examples=["Alice"])


class ChatRequest(_Strict):
    text: str = Field(min_length=1, max_length=MESSAGE_LENGTH, description=(
        "One line (spaces collapsed): letters, digits, spaces, punctuation and symbols, "
        "no control or invisible characters."), examples=["Good game!"])


class ChatMessage(BaseModel):
    id: int = Field(description="Grows in the order messages were said.")
    seat: str = Field(description="The seat of the player who said it.")
    name: str | None = Field(description="The name that seat had then, if any.")
    text: str
    said_at: float = Field(description="When, in seconds since the epoch (UTC).")


class ChatLog(BaseModel):
    messages: list[ChatMessage] = Field(description=(
        f"The last {MESSAGES_SHOWN} messages at most, oldest first; a game holds "
        f"{MESSAGES_KEPT} at most."))


class TakeBackAnswer(_Strict):
    accept: StrictBool = Field(description="true takes the move back, false declines.")
    version: Version | None = None


def _options_object(value: Any) -> dict[str, Any]:
    """The options as sent; the game's adapter reads them against its own kind's model,
    which names the option a refusal is about."""
    if not isinstance(value, dict) or len(value) > MAX_OPTIONS:
        raise ValueError("not an options object")
    return value


class OptionsRequest(_Strict):
    options: Annotated[dict[str, Any], PlainValidator(
        _options_object,
        # The path names the game, so its kind is not in the body: the schema allows the
        # options of any kind, and only those (a key of another kind's is refused, 422).
        json_schema_input_type=TicTacToeOptions | GoOptions | KnightsTourOptions),
        with_sentence(f"The options are an object of at most {MAX_OPTIONS} of the game's "
                      "options, such as {\"opponent\": \"random\"}, not {value}.",
                      "bad_options")] = Field(
        description="The options to change, among the game's own options (see each Game's "
                    "`options`): tic-tac-toe opponent and human; Go opponent, level and "
                    "human; knight's tour closed. The others are fixed when the game "
                    "starts: one sent with another value than it has is refused (409 or "
                    "422), as is an option of another game's kind (422).",
        examples=[{"opponent": "random"}])
    version: Version | None = None


ERROR = {"model": ErrorBody}
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {**ERROR, "description": "No game with this id."}}
REFUSALS: dict[int | str, dict[str, Any]] = {
    **NOT_FOUND,
    403: {**ERROR, "description": "No seat at this game (send the token as Authorization: "
                                  "Bearer <token>), or a request from another site."},
    409: {**ERROR, "description": "Stale version, not your turn, or the game is over."},
    413: {**ERROR, "description": "The body is larger than 64 KB."},
    422: {**ERROR, "description": "Malformed request, or an illegal move or option."},
}
RATED: dict[int | str, dict[str, Any]] = {
    429: {**ERROR, "description": "This client asked more often than one may (see "
                                  "Retry-After); nothing was done.",
          "headers": {"Retry-After": {"schema": {"type": "integer"},
                                      "description": "Seconds to wait before trying again."}}},
}
BUSY: dict[int | str, dict[str, Any]] = {
    503: {**ERROR, "description": "The computer is busy with other games (see Retry-After), "
                                  "or its search failed; nothing was changed.",
          "headers": {"Retry-After": {"schema": {"type": "integer"},
                                      "description": "Seconds to wait before trying again."}}},
}


def document_errors(app: FastAPI) -> None:
    """Makes /openapi.json say what the server does: FastAPI documents its own shape for
    validation errors (HTTPValidationError), but every refusal here is an ErrorBody."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = generate()
            for operations in spec.get("paths", {}).values():
                for operation in operations.values():
                    refused = operation.get("responses", {}).get("422")
                    if refused and "HTTPValidationError" in str(refused):
                        refused["content"] = {"application/json": {
                            "schema": {"$ref": "#/components/schemas/ErrorBody"}}}
                        refused["description"] = "A malformed request."
            schemas = spec.get("components", {}).get("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                schemas.pop(unused, None)
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
