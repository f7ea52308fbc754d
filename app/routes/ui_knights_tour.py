"""The knight's-tour view as HTML fragments: the puzzle widget (#kt-game), re-rendered after
every move, a solution fragment the browser animates, and the solver comparison table.
Start at render_game: it turns the puzzle into the board the template draws.
"""

from __future__ import annotations

import json
import statistics
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from app.errors import ApiError
from app.games import Caller, GameService
from app.games.knights_tour import MAX_SIZE, MIN_SIZE, load
from app.games.tours import TourSolver, comparison
from app.routes.deps import Asker, KnightsTourRecord, Service
from app.routes.fragments import act, navigate_to, table
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui/knights-tour", include_in_schema=False)

SOLVER_LABELS = {"backtracking": "Backtracking", "warnsdorff": "Warnsdorff",
                 "circuit": "Stored circuit", "divide": "Divide & conquer"}


def square_centre(name: str, size: int) -> tuple[float, float]:
    """The SVG centre of a square: files left to right, rank 1 at the bottom."""
    column, rank = ord(name[0]) - ord("a"), int(name[1:])
    return column + 0.5, size - rank + 0.5


def render_game(request: Request, games: GameService, record: GameRecord, caller: Caller,
                error: str | None = None, hint: bool = False) -> HTMLResponse:
    """The puzzle widget for this viewer; `error` is the sentence of a refused action."""
    puzzle = load(record.data)
    seats = table(request, games, record, caller)
    size = puzzle.size
    path = puzzle.path
    order = {name: number for number, name in enumerate(path, start=1)}
    legal = set(puzzle.legal_next) if puzzle.status == "playing" and seats["seated"] else set()
    trouble = puzzle.trouble
    troubled = set(trouble.squares) if trouble else set()
    advice = puzzle.advise() if hint else None
    hint_square = advice.square if advice else None
    squares = []
    for rank in range(size, 0, -1):
        for column in range(size):
            name = f"{chr(ord('a') + column)}{rank}"
            number = order.get(name)
            label = f"{name}, "
            if name == puzzle.current:
                label += f"the knight, move {number}"
            elif number:
                label += f"visited, move {number}"
            elif name in legal and path:
                label += "a knight's move away"
            else:
                label += "not visited"
            if name == hint_square:
                label += ", hint"
            squares.append({
                "name": name, "number": number, "label": label,
                "dark": (column + rank) % 2 == 1,
                "legal": name in legal, "current": name == puzzle.current,
                "hint": name == hint_square, "troubled": name in troubled,
                "index": (size - rank) * size + column,
            })
    points = " ".join(f"{x},{y}" for x, y in (square_centre(n, size) for n in path))
    focus_name = puzzle.current or "a1"
    context = {
        "game": record, "puzzle": puzzle, "squares": squares, "size": size, "points": points,
        "focus": next(s["index"] for s in squares if s["name"] == focus_name),
        "trouble": trouble, "error": error, "sizes": range(MIN_SIZE, MAX_SIZE + 1),
        "advice": advice, "table": seats,
        "files": [chr(ord("a") + column) for column in range(size)],
        "ranks": range(size, 0, -1),
        "first": square_centre(path[0], size) if path else None,
        "closing": square_centre(path[-1], size) if path else None,
    }
    return templates.TemplateResponse(request, "knights_tour/_game.html", context)


@router.get("/comparison", response_class=HTMLResponse)
async def solver_comparison(request: Request) -> HTMLResponse:
    """The seed's comparison on 8×8: the steps each solver takes from every start square."""
    table = await run_in_threadpool(comparison)
    rows = []
    for solver, steps in table.items():
        found = [s for s in steps if s is not None]
        rows.append({
            "label": SOLVER_LABELS.get(solver, solver), "solved": len(found),
            "min": min(found) if found else None, "max": max(found) if found else None,
            "median": statistics.median(found) if found else None,
        })
    return templates.TemplateResponse(request, "knights_tour/_comparison.html",
                                      {"rows": rows, "starts": 64})


@router.get("/{game_id}", response_class=HTMLResponse)
def game_fragment(request: Request, record: KnightsTourRecord, games: Service, caller: Asker,
                  hint: str | None = None) -> HTMLResponse:
    return render_game(request, games, record, caller, hint=hint == "on")


@router.post("/{game_id}/moves", response_class=HTMLResponse)
def play(request: Request, record: KnightsTourRecord, games: Service, caller: Asker,
         move: Annotated[str, Form(max_length=8)], version: Annotated[int, Form()]
         ) -> HTMLResponse:
    after, error = act(games, record, caller,
                       lambda actor: games.play(record, actor, move, version))
    return render_game(request, games, after, caller, error)


@router.post("/{game_id}/undo", response_class=HTMLResponse)
def undo(request: Request, record: KnightsTourRecord, games: Service, caller: Asker,
         version: Annotated[int, Form()]) -> HTMLResponse:
    after, error = act(games, record, caller, lambda actor: games.undo(record, actor, version))
    return render_game(request, games, after, caller, error)


@router.get("/{game_id}/solution", response_class=HTMLResponse)
async def solution(request: Request, record: KnightsTourRecord, caller: Asker) -> HTMLResponse:
    """A completion of the player's path, for the browser to animate; or why there is none.
    The search runs in the worker pool (app/games/tours.py)."""
    puzzle = load(record.data)
    context: dict[str, object] = {"game": record, "size": puzzle.size}
    solver: TourSolver = request.app.state.tours
    try:
        squares, steps = await solver.complete(puzzle, caller.address)
    except ApiError as refusal:
        context["message"] = refusal.detail
        if refusal.code == "budget":
            context["message"] = f"{refusal.detail} Try undoing a few moves."
    else:
        context["solution"] = json.dumps(squares[len(puzzle.path):])
        context["closes_to"] = squares[0] if puzzle.closed else None  # the closing move's end
        context["start"] = len(puzzle.path)
        context["steps"] = steps
    return templates.TemplateResponse(request, "knights_tour/_solution.html", context)


@router.post("/new", response_model=None)
def new_game(games: Service, caller: Asker, size: Annotated[str, Form(max_length=8)],
             closed: Annotated[str | None, Form(max_length=8)] = None) -> Response:
    created = games.create("knights-tour", {"size": size, "closed": closed == "on"}, caller)
    return navigate_to(f"/knights-tour/{created.record.id}")
