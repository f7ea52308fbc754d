"""Stateless knight's-tour solvers: a verified tour of any board from 5×5 to 1000×1000, and
the seed's comparison of the solvers by steps. Solves run in the worker pool and are cached
(app/games/tours.py), so a large board never stalls the server.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel

from app.engine.knights_tour import SOLVERS
from app.engine.knights_tour.solve import MAX_SIZE, METHODS
from app.games.options import Choice, WholeNumber
from app.games.tours import TourSolver, comparison
from app.routes.deps import Asker, StrictJsonRoute
from app.routes.models import BUSY, ERROR, RATED

# No route here takes a JSON body yet; one that does parses it strictly, as every API's does.
router = APIRouter(prefix="/api/knights-tour", tags=["knights-tour"],
                   route_class=StrictJsonRoute)

MIN_TOUR_SIZE = 5  # 2×2 to 4×4 have no tour, and 1×1's is not worth asking for
START_PATTERN = r"^([a-z][0-9]{1,2}|[0-9]{1,7})$"  # "c2", or an index below 1000 × 1000


class Tour(BaseModel):
    """A verified knight's tour."""

    size: int
    closed: bool
    method: str
    steps: int
    backtracks: int
    seconds: float
    tour: list[int]
    squares: list[str] | None = None


def tours(request: Request) -> TourSolver:
    solver: TourSolver = request.app.state.tours
    return solver


def parse_start(text: str | None) -> str | int:
    """A square name ("c2") or an index (row * n + col, row 0 = rank 1); a1 by default."""
    if not text:
        return "a1"
    return int(text) if text.isdigit() else text


@router.get("/solve", response_model=Tour, responses={
    200: {"content": {"application/json": {}}},
    409: {**ERROR, "description": "A tour that cannot be asked of this solver now."},
    422: {**ERROR, "description": "An impossible or malformed request."}, **RATED, **BUSY})
async def solve_tour(
    request: Request,
    caller: Asker,
    size: Annotated[int, Query(), WholeNumber(
        MIN_TOUR_SIZE, MAX_SIZE, "board size",
        f"Board width n, {MIN_TOUR_SIZE} to {MAX_SIZE}; smaller boards have no tour.",
        code="invalid_size")],
    start: Annotated[str | None, Query(max_length=8, pattern=START_PATTERN, description=(
        "Start square: \"a1\" or an index (row * n + col, row 0 = rank 1); a1 by default."))
    ] = None,
    closed: bool = False,
    method: Annotated[str, Query(), Choice(METHODS, "solver", code="unknown_method")] = "auto",
) -> Response:
    """A verified knight's tour: `tour` lists square indices (row * n + col, row 0 = rank 1);
    `squares` their names, for n ≤ 26."""
    body = await tours(request).solve(size, parse_start(start), closed, method, caller.address)
    return Response(body, media_type="application/json")


class Comparison(BaseModel):
    size: int
    closed: bool
    solvers: list[str]
    steps: dict[str, list[int | None]]


@router.get("/comparison", response_model=Comparison)
def solver_comparison() -> dict[str, Any]:
    """The seed's comparison on 8×8 (open tours): for every start square (index row * 8 +
    col, row 0 = rank 1), the knight's moves each solver makes, moves taken back included;
    null where it ran out of budget."""
    return {"size": 8, "closed": False, "solvers": list(SOLVERS), "steps": comparison()}

