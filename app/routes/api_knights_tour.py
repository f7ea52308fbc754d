"""Stateless knight's-tour solvers: a verified tour of any board from 5×5 to 1000×1000, and
the seed's comparison of the solvers by steps."""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from app.engine.knights_tour import (
    MAX_NAMED_SIZE,
    METHODS,
    SOLVERS,
    KnightsTourError,
    solve,
)
from app.errors import IllegalMove

router = APIRouter(prefix="/api/knights-tour", tags=["knights-tour"])

COMPARISON_FILE = Path(__file__).resolve().parent.parent / "data" / "knights_tour_comparison_8.json"


def parse_start(text: str | None) -> str | int | None:
    """A square name ("c2") or an index (row * n + col, row 0 = rank 1)."""
    if text is None or text == "":
        return None
    return int(text) if text.strip().isdigit() else text


@router.get("/solve", responses={422: {"description": "An impossible request."}})
def solve_tour(
    size: int = Query(ge=1, description="Board width n (5 to 1000 for a tour)."),
    start: str | None = Query(None, description="Start square: \"a1\" or an index; a1 by "
                                                "default."),
    closed: bool = False,
    method: str = Query("auto", description=f"One of {', '.join(METHODS)}."),
) -> Response:
    """A verified knight's tour: `tour` lists square indices (row * n + col, row 0 = rank 1);
    `squares` their names, for n ≤ 26."""
    began = time.perf_counter()
    try:
        result = solve(size, parse_start(start), closed=closed, method=method)
    except KnightsTourError as error:
        raise IllegalMove(str(error), code=error.code) from None
    seconds = time.perf_counter() - began
    tour = result.tour.tolist()
    body: dict[str, Any] = {
        "size": size, "closed": closed, "method": result.method, "steps": result.steps,
        "backtracks": result.backtracks, "seconds": round(seconds, 4), "tour": tour,
    }
    if size <= MAX_NAMED_SIZE:
        body["squares"] = result.names()
    # json.dumps directly: FastAPI's encoder walks a million-entry list far more slowly.
    return Response(json.dumps(body, separators=(",", ":")), media_type="application/json")


@lru_cache(maxsize=1)
def comparison() -> dict[str, list[int | None]]:
    """The 8×8 comparison, made by bench/knights_tour_comparison.py (it takes too long to
    compute per request) and checked against a fresh run by the engine's tests."""
    steps: dict[str, list[int | None]] = json.loads(COMPARISON_FILE.read_text())["steps"]
    return steps


@router.get("/comparison")
def solver_comparison() -> dict[str, Any]:
    """The seed's comparison on 8×8 (open tours): for every start square (index row * 8 +
    col, row 0 = rank 1), the knight's moves each solver makes, moves taken back included;
    null where it ran out of budget."""
    return {"size": 8, "closed": False, "solvers": list(SOLVERS), "steps": comparison()}
