"""The tic-tac-toe view as HTML fragments: the whole game widget (#ttt-game), re-rendered
after every action. Start at render_game: it gathers what the template shows.

htmx posts forms here; a refused action re-renders the unchanged game with the reason.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.engine.tictactoe import STRATEGY_NAMES, Board, analyse, get_strategy
from app.games import Caller, GameService, GameView
from app.games.tictactoe import ENDINGS
from app.routes.deps import Asker, Service, TicTacToeRecord
from app.routes.fragments import (
    CLOCKS,
    ClockForm,
    act,
    name_step,
    navigate_to,
    rematch_step,
    remember_name,
    table,
    tally,
)
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui/tictactoe", include_in_schema=False)

STRATEGIES = [get_strategy(name) for name in STRATEGY_NAMES]
WINNING_LINE_CENTRES = [(50 + 100 * (c % 3), 50 + 100 * (c // 3)) for c in range(9)]


def describe_value(outcome: str, plies: int) -> str:
    if outcome == "draw":
        return "draw"
    return f"{outcome} in {plies}"


def result_sentence(winner: str | None, ending: str | None, opponent: str,
                    you: set[str]) -> str:
    """How the end of a game reads to this viewer, built from who won and how (`ending`:
    "time", "resign" or None for a line of three): "You win on time!", "Your friend wins.",
    "X wins by resignation!" for a watcher or at one screen."""
    if winner is None:
        return "It's a draw."
    how = f" {ENDINGS[ending]}" if ending else ""
    if opponent == "local" or not you:
        return f"{winner} wins{how}!"
    if winner in you:
        return f"You win{how}!"
    loser = "Your friend" if opponent == "remote" else "The computer"
    return f"{loser} wins{how}."


def status_text(view: GameView, options: dict[str, Any], you: set[str],
                ending: str | None = None) -> str:
    """The line above the board, for this viewer (`ending`: how a finished game ended, if
    not by a line: see result_sentence)."""
    opponent = options["opponent"]
    if view.result is not None:
        return result_sentence(view.result["winner"], ending, opponent, you)
    if opponent == "local" or not you:
        return f"{view.to_move} to move."
    if view.to_move in you:
        return f"Your move: you play {view.to_move}."
    if opponent == "remote":
        return "Your friend's move." if len(you) else f"{view.to_move} to move."
    return "The computer's move."


def render_game(request: Request, games: GameService, record: GameRecord, caller: Caller,
                show_values: bool, error: str | None = None) -> HTMLResponse:
    view = games.view(record)
    options = view.options
    seats = table(request, games, record, caller)
    mine = view.to_move in seats["you"]
    board = Board.from_string(view.state["board"])
    analysis = analyse(board) if show_values and not board.is_over else None
    line = view.state["winning_line"]
    cells = []
    for index, mark in enumerate(view.state["board"]):
        row, col = divmod(index, 3)
        value = analysis.values.get(index) if analysis else None
        label = f"Row {row + 1}, column {col + 1}: "
        label += mark if mark != "." else "empty"
        if value is not None:
            label += f", {describe_value(value.outcome, value.plies)}"
        cells.append({
            "index": index, "mark": "" if mark == "." else mark, "label": label,
            "playable": mark == "." and view.status == "playing" and mine,
            "value": value,
            "value_text": describe_value(value.outcome, value.plies) if value else "",
            "last": index == view.state["last_move"],
            "in_line": bool(line and index in line),
            "best": bool(analysis and index in analysis.best),
        })
    focus = view.state["last_move"] if view.state["last_move"] is not None else 4
    computer = options["opponent"] not in ("local", "remote")
    context = {
        "game": record, "view": view, "options": options, "cells": cells, "focus": focus,
        "status": status_text(view, options, seats["you"],
                              (record.data.get("ended") or {}).get("by")),
        "strategies": STRATEGIES,
        "show_values": show_values, "analysis": analysis, "error": error, "table": seats,
        "tally": tally(games, caller.browser or "", "tictactoe"),
        "line": [WINNING_LINE_CENTRES[line[0]], WINNING_LINE_CENTRES[line[2]]] if line else None,
        "slipped": record.data.get("slipped", False),
        "computer_side": ("O" if options["human"] == "X" else "X") if computer else None,
        "values_json": json.dumps({"values": "on"}) if show_values else "{}",
        "clock_options": CLOCKS,
        "lost": bool(view.result and seats["you"] and len(seats["you"]) == 1
                     and view.result["winner"] not in seats["you"]),
    }
    return templates.TemplateResponse(request, "tictactoe/_game.html", context)


@router.get("/{game_id}", response_class=HTMLResponse)
def game_fragment(request: Request, record: TicTacToeRecord, games: Service, caller: Asker,
                  values: str | None = None) -> HTMLResponse:
    return render_game(request, games, games.expire(record), caller, values == "on")


Values = Annotated[str | None, Form(max_length=8)]


@router.post("/{game_id}/moves", response_class=HTMLResponse)
def play(request: Request, record: TicTacToeRecord, games: Service, caller: Asker,
         move: Annotated[int, Form()], version: Annotated[int, Form()],
         values: Values = None) -> HTMLResponse:
    after, error = act(games, record, caller,
                       lambda actor: games.play(record, actor, move, version))
    return render_game(request, games, after, caller, values == "on", error)


@router.post("/{game_id}/undo", response_class=HTMLResponse)
def undo(request: Request, record: TicTacToeRecord, games: Service, caller: Asker,
         version: Annotated[int, Form()], values: Values = None) -> HTMLResponse:
    after, error = act(games, record, caller, lambda actor: games.undo(record, actor, version))
    return render_game(request, games, after, caller, values == "on", error)


@router.post("/{game_id}/takeback", response_class=HTMLResponse)
def answer_takeback(request: Request, record: TicTacToeRecord, games: Service, caller: Asker,
                    accept: Annotated[str, Form(max_length=8)], version: Annotated[int, Form()],
                    values: Values = None) -> HTMLResponse:
    after, error = act(games, record, caller, lambda actor: games.answer_takeback(
        record, actor, accept == "true", version))
    return render_game(request, games, after, caller, values == "on", error)


@router.post("/{game_id}/options", response_class=HTMLResponse)
def change_opponent(request: Request, record: TicTacToeRecord, games: Service, caller: Asker,
                    opponent: Annotated[str, Form(max_length=20)],
                    version: Annotated[int, Form()], values: Values = None) -> HTMLResponse:
    after, error = act(games, record, caller, lambda actor: games.update_options(
        record, actor, {"opponent": opponent}, version))
    return render_game(request, games, after, caller, values == "on", error)


@router.post("/{game_id}/name", response_class=HTMLResponse)
def name_seats(request: Request, record: TicTacToeRecord, games: Service, caller: Asker,
               name: Annotated[str, Form(max_length=200)], values: Values = None) -> Response:
    """The name form: names the player's seats and has the browser remember the name."""
    after, chosen, error = name_step(games, record, caller, name)
    return remember_name(render_game(request, games, after, caller, values == "on", error),
                         chosen)


@router.post("/{game_id}/rematch", response_model=None)
def rematch(request: Request, record: TicTacToeRecord, games: Service, caller: Asker,
            values: Values = None) -> Response:
    """Offers or starts the rematch; once it has started, the player is taken to it."""
    after, started, error = rematch_step(games, record, caller)
    if started:
        return navigate_to(started)
    return render_game(request, games, after, caller, values == "on", error)


@router.post("/new")
def new_game(games: Service, caller: Asker, opponent: Annotated[str, Form(max_length=20)],
             human: Annotated[str, Form(max_length=8)],
             clock: ClockForm) -> Response:
    """Starts a game and asks the router (via HX-Trigger) to navigate to it, so the new
    game gets its own history entry and URL."""
    created = games.create("tictactoe", {"opponent": opponent, "human": human,
                                         **clock}, caller)
    return navigate_to(f"/tictactoe/{created.record.id}")
