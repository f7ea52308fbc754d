"""Fischer clocks: minutes per player plus seconds added per move, kept in a game's data.

Start at `advance`. The clock is stored as plain data — {"initial", "increment", "remaining":
{side: seconds}, "running": side | None, "since": epoch seconds} — so the server enforces it
from stored times, and a restart changes nothing: `deadline` is when the running side's time
runs out, which app/store.py indexes and app/games/__init__.py's clock watch acts on. A
clock starts after the first move (the first player is not rushed to begin) and stops while
nobody is to move (Go's scoring) and once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import BaseModel

from app.games.options import Multiple, WholeNumber

MAX_MINUTES = 180  # three hours a player: longer games do not need a server clock
MAX_INCREMENT = 60  # seconds added per move


class TimeControl(BaseModel):
    """The options of a game with an optional clock (mixed into its options model)."""

    minutes: Annotated[float, Multiple(0.25, 0, MAX_MINUTES, "minutes per player", (
        f"Each player's time in minutes, 0 (no clock) to {MAX_MINUTES}, in quarters "
        "(¼ = 15 seconds)."), "number of minutes in quarters", "5 or 0.25")] = 0
    increment: Annotated[int, WholeNumber(0, MAX_INCREMENT, "increment", (
        f"Seconds added to a player's clock after each move, 0 to {MAX_INCREMENT}."))] = 0


def new_clock(sides: Sequence[str], minutes: float,
              increment: int) -> dict[str, Any] | None:
    """A stopped clock for `sides`, or None when the game has no time control."""
    if minutes <= 0:
        return None
    return {"initial": round(minutes * 60), "increment": increment,
            "remaining": {side: float(minutes * 60) for side in sides},
            "running": None, "since": None}


def advance(clock: dict[str, Any] | None, before: str | None, after: str | None,
            now: float) -> None:
    """After a change that moved the turn from `before` to `after` (None: nobody, e.g. the
    game is over): charges the side that was running for its time, adds its increment, and
    starts `after`'s time. A change that does not pass the turn (a take-back request, a dead
    mark) leaves the clock running as it was."""
    if clock is None:
        return
    running = clock["running"]
    if running is not None and after == running:
        return  # the same side is still to move
    if running is not None:
        spent = now - clock["since"]
        clock["remaining"][running] = max(0.0, clock["remaining"][running] - spent)
        if after is not None:
            clock["remaining"][running] += clock["increment"]
    elif before is None or after is None:
        return  # not started, and the turn did not pass from one side to another
    clock["running"] = after
    clock["since"] = now if after is not None else None


def deadline(clock: dict[str, Any] | None) -> float | None:
    """When the running side's time runs out; None if no clock runs."""
    if clock is None or clock["running"] is None:
        return None
    return float(clock["since"] + clock["remaining"][clock["running"]])


def flagged(clock: dict[str, Any] | None, now: float) -> str | None:
    """The side whose time has run out by `now`, if any."""
    due = deadline(clock)
    if clock is None or due is None or now < due:
        return None
    return str(clock["running"])


def stop(clock: dict[str, Any] | None, now: float) -> None:
    """Stops the clock for good (the game ended), charging the running side."""
    advance(clock, clock["running"] if clock else None, None, now)


def public(clock: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """The clock for a client: each side's remaining seconds as of `now` and who runs."""
    if clock is None:
        return None
    remaining = dict(clock["remaining"])
    running = clock["running"]
    if running is not None:
        remaining[running] = max(0.0, remaining[running] - (now - clock["since"]))
    return {"initial": clock["initial"], "increment": clock["increment"],
            "remaining": {side: round(seconds, 2) for side, seconds in remaining.items()},
            "running": running}
