"""Game clocks: Fischer, Japanese byo-yomi and Canadian overtime, kept in a game's data.

Start at `advance`. The clock is stored as plain data, so the server enforces it from stored
times and a restart changes nothing: `deadline` is when the running side loses, which
app/store.py indexes and the clock watch (app/main.py, through GameService.expire_due)
acts on. Every clock holds
{"initial", "increment", "remaining": {side: seconds of main time}, "running": side | None,
"since": epoch seconds}, and by its "system" (absent: Fischer, as every clock stored before
the other systems were) also:

- Fischer: nothing more; `increment` seconds are added after each move (0: absolute time).
- "byoyomi": "periods" and "period" (seconds), "left": {side: periods left}. Once main time
  is spent, each move has a full period; a move that takes longer than its period uses it up
  and goes on in the next; the side whose last period runs out loses.
- "canadian": "stones" and "block" (seconds), "stones_left" and "block_left" per side. Once
  main time is spent, `stones` moves are due within `block` seconds; after the last of them
  a new block starts, full; the side whose block runs out first loses.

A clock starts after the first move (the first player is not rushed to begin) and stops while
nobody is to move (Go's scoring) and once the game is over. The adapters build a game's
clock with `new_clock` (minutes and increment); GameService.seat sets the system its options
chose with `choose`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel

from app.errors import Conflict
from app.games.options import Choice, Multiple, WholeNumber

MAX_MINUTES = 180  # three hours a player: longer games do not need a server clock
MAX_INCREMENT = 60  # seconds added per move
SYSTEMS = ("fischer", "byoyomi", "canadian")
MAX_PERIODS = 10
MIN_PERIOD, MAX_PERIOD = 5, 300  # seconds: under 5 s a period is lost to the network
MAX_STONES = 50
MIN_BLOCK, MAX_BLOCK = 30, 1800  # seconds


class TimeControl(BaseModel):
    """The options of a game with an optional clock (mixed into its options model)."""

    minutes: Annotated[float, Multiple(0.25, 0, MAX_MINUTES, "minutes per player", (
        f"Each player's main time in minutes, 0 (no clock) to {MAX_MINUTES}, in quarters "
        "(¼ = 15 seconds)."), "number of minutes in quarters", "5 or 0.25")] = 0
    increment: Annotated[int, WholeNumber(0, MAX_INCREMENT, "increment", (
        f"Seconds added to a player's clock after each move, 0 to {MAX_INCREMENT}: Fischer "
        "clocks only (byo-yomi and Canadian clocks add none)."))] = 0
    system: Annotated[str, Choice(SYSTEMS, "time system", (
        "What follows the main time: 'fischer' (nothing: the increment is added after each "
        "move), 'byoyomi' (`periods` periods of `period` seconds; a move within its period "
        "keeps them all) or 'canadian' (`stones` moves within `block` seconds, again and "
        "again)."))] = "fischer"
    periods: Annotated[int, WholeNumber(1, MAX_PERIODS, "number of byo-yomi periods", (
        f"Byo-yomi periods after the main time, 1 to {MAX_PERIODS}."))] = 5
    period: Annotated[int, WholeNumber(MIN_PERIOD, MAX_PERIOD, "byo-yomi period in seconds", (
        f"Seconds in each byo-yomi period, {MIN_PERIOD} to {MAX_PERIOD}."))] = 30
    stones: Annotated[int, WholeNumber(1, MAX_STONES, "number of moves per Canadian block", (
        f"Moves due in each Canadian block after the main time, 1 to {MAX_STONES}."))] = 25
    block: Annotated[int, WholeNumber(MIN_BLOCK, MAX_BLOCK, "Canadian block in seconds", (
        f"Seconds for each Canadian block of moves, {MIN_BLOCK} to {MAX_BLOCK}."))] = 300


def keep_time_control(before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    """Refuses an options change that touches a started game's time control (any of
    TimeControl's fields: its clock was built from them when the game began). A field a
    game stored before it existed holds its default."""
    if any(after.get(name, field.default) != before.get(name, field.default)
           for name, field in TimeControl.model_fields.items()):
        raise Conflict("The clock of a game is set when it starts; start a new game for "
                       "another time control.", code="fixed_option")


def new_clock(sides: Sequence[str], minutes: float,
              increment: int) -> dict[str, Any] | None:
    """A stopped Fischer clock for `sides`, or None when the game has no time control."""
    if minutes <= 0:
        return None
    return {"initial": round(minutes * 60), "increment": increment,
            "remaining": {side: float(minutes * 60) for side in sides},
            "running": None, "since": None}


def choose(clock: dict[str, Any] | None, options: Mapping[str, Any]) -> None:
    """Turns a new game's stopped clock into the system its (validated) `options` chose."""
    system = options.get("system", "fischer")
    if clock is None or system == "fischer":
        return
    sides = list(clock["remaining"])
    clock.update(system=system, increment=0)
    if system == "byoyomi":
        clock.update(periods=options["periods"], period=options["period"],
                     left={side: options["periods"] for side in sides})
    else:
        clock.update(stones=options["stones"], block=options["block"],
                     stones_left={side: options["stones"] for side in sides},
                     block_left={side: float(options["block"]) for side in sides})


def system_of(clock: Mapping[str, Any]) -> str:
    return str(clock.get("system", "fischer"))


def _charge(clock: dict[str, Any], side: str, spent: float, moved: bool) -> None:
    """Takes `spent` seconds off `side`'s time; `moved`: it ended with that side's move."""
    main = clock["remaining"][side]
    clock["remaining"][side] = max(0.0, main - spent)
    over = spent - main  # seconds past the main time
    system = system_of(clock)
    if system == "fischer":
        if moved:
            clock["remaining"][side] += clock["increment"]
    elif system == "byoyomi":
        if over > 0:
            period, left = clock["period"], clock["left"][side]
            # Only a period the move outlasted is used up; the one it ends in is full again.
            used = left if over >= left * period else math.ceil(over / period) - 1
            clock["left"][side] = max(0, left - used)
    elif over > 0 or (moved and main == 0):  # Canadian: a move in the block counts
        block = max(0.0, clock["block_left"][side] - max(0.0, over))
        if moved:
            clock["stones_left"][side] -= 1
            if clock["stones_left"][side] <= 0:  # the block's moves are made: a new block
                clock["stones_left"][side], block = clock["stones"], float(clock["block"])
        clock["block_left"][side] = block


def advance(clock: dict[str, Any] | None, before: str | None, after: str | None,
            now: float) -> None:
    """After a change that moved the turn from `before` to `after` (None: nobody, e.g. the
    game is over): charges the side that was running for its time (its increment, period or
    block as its system says), and starts `after`'s time. A change that does not pass the
    turn (a take-back request, a dead mark) leaves the clock running as it was."""
    if clock is None:
        return
    running = clock["running"]
    if running is not None and after == running:
        return  # the same side is still to move
    if running is not None:
        _charge(clock, running, now - clock["since"], moved=after is not None)
    elif before is None or after is None:
        return  # not started, and the turn did not pass from one side to another
    clock["running"] = after
    clock["since"] = now if after is not None else None


def _overtime(clock: Mapping[str, Any], side: str) -> float:
    """The seconds `side` has once its main time is spent, as the clock stands."""
    system = system_of(clock)
    if system == "byoyomi":
        return float(clock["left"][side] * clock["period"])
    if system == "canadian":
        return float(clock["block_left"][side])
    return 0.0


def deadline(clock: dict[str, Any] | None) -> float | None:
    """When the running side loses: its main time, then its periods or its block; None if
    no clock runs."""
    if clock is None or clock["running"] is None:
        return None
    side = clock["running"]
    return float(clock["since"] + clock["remaining"][side] + _overtime(clock, side))


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
    """The clock for a client as of `now`: each side's main time left and who runs, and for
    byo-yomi and Canadian clocks each side's "overtime" — {"periods", "seconds"} (periods
    left, counting the one running, and the seconds left in it) or {"stones", "seconds"}
    (moves still due in the block, and its seconds left)."""
    if clock is None:
        return None
    running = clock["running"]
    shown = {"initial": clock["initial"], "increment": clock["increment"],
             "system": system_of(clock), "running": running}
    spent = {side: 0.0 for side in clock["remaining"]}
    if running is not None:
        spent[running] = max(0.0, now - clock["since"])
    remaining = {side: max(0.0, main - spent[side]) for side, main in clock["remaining"].items()}
    shown["remaining"] = {side: round(seconds, 2) for side, seconds in remaining.items()}
    system = shown["system"]
    if system == "byoyomi":
        shown.update(periods=clock["periods"], period=clock["period"])
        overtime = {}
        for side, left in clock["left"].items():
            past = max(0.0, spent[side] - clock["remaining"][side])  # into the periods
            used = min(left, math.floor(past / clock["period"]))
            seconds = 0.0 if used >= left else clock["period"] - (past - used * clock["period"])
            overtime[side] = {"periods": left - used if seconds > 0 else 0,
                              "seconds": round(seconds, 2)}
        shown["overtime"] = overtime
    elif system == "canadian":
        shown.update(stones=clock["stones"], block=clock["block"])
        shown["overtime"] = {
            side: {"stones": clock["stones_left"][side], "seconds": round(max(
                0.0, block - max(0.0, spent[side] - clock["remaining"][side])), 2)}
            for side, block in clock["block_left"].items()}
    return shown
