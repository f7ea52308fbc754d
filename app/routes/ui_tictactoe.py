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
from app.games import GameService, GameView
from app.routes.deps import Browser, Service, TicTacToeRecord
from app.routes.ui import act, navigate_to
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui/tictactoe", include_in_schema=False)

STRATEGIES = [get_strategy(name) for name in STRATEGY_NAMES]
WINNING_LINE_CENTRES = [(50 + 100 * (c % 3), 50 + 100 * (c // 3)) for c in range(9)]


def describe_value(outcome: str, plies: int) -> str:
    if outcome == "draw":
        return "draw"
    return f"{outcome} in {plies}"


def status_text(view: GameView, options: dict[str, Any]) -> str:
    vs_computer = options["opponent"] != "local"
    human = options["human"]
    if view.result is not None:
        winner = view.result["winner"]
        if winner is None:
            return "It's a draw."
        if not vs_computer:
            return f"{winner} wins!"
        return "You win!" if winner == human else "The computer wins."
    if not vs_computer:
        return f"{view.to_move} to move."
    return f"Your move: you play {human}."


def render_game(request: Request, games: GameService, record: GameRecord, browser: str,
                show_values: bool, error: str | None = None) -> HTMLResponse:
    view = games.view(record)
    options = view.options
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
            "playable": mark == "." and view.status == "playing",
            "value": value,
            "value_text": describe_value(value.outcome, value.plies) if value else "",
            "last": index == view.state["last_move"],
            "in_line": bool(line and index in line),
            "best": bool(analysis and index in analysis.best),
        })
    focus = view.state["last_move"] if view.state["last_move"] is not None else 4
    context = {
        "game": record, "view": view, "options": options, "cells": cells, "focus": focus,
        "status": status_text(view, options), "strategies": STRATEGIES,
        "show_values": show_values, "analysis": analysis, "error": error,
        "tally": games.store.tally(browser, "tictactoe"),
        "line": [WINNING_LINE_CENTRES[line[0]], WINNING_LINE_CENTRES[line[2]]] if line else None,
        "slipped": record.data.get("slipped", False),
        "computer_side": None if options["opponent"] == "local" else
        ("O" if options["human"] == "X" else "X"),
        "values_json": json.dumps({"values": "on"}) if show_values else "{}",
    }
    return templates.TemplateResponse(request, "tictactoe/_game.html", context)


@router.get("/{game_id}", response_class=HTMLResponse)
def game_fragment(request: Request, record: TicTacToeRecord, games: Service, browser: Browser,
                  values: str | None = None) -> HTMLResponse:
    return render_game(request, games, record, browser, values == "on")


@router.post("/{game_id}/moves", response_class=HTMLResponse)
def play(request: Request, record: TicTacToeRecord, games: Service, browser: Browser,
         move: Annotated[int, Form()], version: Annotated[int, Form()],
         values: Annotated[str | None, Form(max_length=8)] = None) -> HTMLResponse:
    after, error = act(games, record, lambda: games.play(record, move, version))
    return render_game(request, games, after, browser, values == "on", error)


@router.post("/{game_id}/undo", response_class=HTMLResponse)
def undo(request: Request, record: TicTacToeRecord, games: Service, browser: Browser,
         version: Annotated[int, Form()],
         values: Annotated[str | None, Form(max_length=8)] = None) -> HTMLResponse:
    after, error = act(games, record, lambda: games.undo(record, version))
    return render_game(request, games, after, browser, values == "on", error)


@router.post("/{game_id}/options", response_class=HTMLResponse)
def change_opponent(request: Request, record: TicTacToeRecord, games: Service, browser: Browser,
                    opponent: Annotated[str, Form(max_length=20)],
                    version: Annotated[int, Form()],
                    values: Annotated[str | None, Form(max_length=8)] = None) -> HTMLResponse:
    after, error = act(games, record,
                       lambda: games.update_options(record, {"opponent": opponent}, version))
    return render_game(request, games, after, browser, values == "on", error)


@router.post("/new")
def new_game(games: Service, browser: Browser, opponent: Annotated[str, Form(max_length=20)],
             human: Annotated[str, Form(max_length=8)]) -> Response:
    """Starts a game and asks the router (via HX-Trigger) to navigate to it, so the new
    game gets its own history entry and URL."""
    record = games.create("tictactoe", {"opponent": opponent, "human": human}, owner=browser)
    return navigate_to(f"/tictactoe/{record.id}")
