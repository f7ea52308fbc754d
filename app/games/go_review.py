"""The computer's review of a whole Go game, once it is over: every position searched
briefly in the background, black's winning chances by move, the moves that cost most.

Start at Reviewer.ask. A seat of a finished game (or of an imported record) asks once; the
review is kept in the game's data, so every viewer sees it and it survives a restart:

    data["review"] = {"positions": [[black's win rate, the move preferred], …],
                      "to": positions to review, "by": the runner's id,
                      "updated": time of the last progress, "stopped": sentence or None}

positions[n] is the position after n moves. Each is one search of REVIEW_SECONDS through
the Analyst (app/games/go_analysis.py), so in the worker pool's anonymous share, players'
moves first; the review was charged to the asker's rate once, when asked. An instance runs
at most RUNNING reviews at once, one position at a time each. Progress is written every
SAVE_SECONDS (a `game` event: the graph grows on every screen). A review not advanced for
STALE_SECONDS — its instance stopped — may be asked again and goes on from where it stood;
the runner that wrote last (`by`) is the only one that may write, so two never interleave.

`drops` reads a review: the moves that cost their side the most (marked on the graph and
in the move list, app/routes/ui_go.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from fastapi.concurrency import run_in_threadpool

from app.errors import Conflict
from app.games import Caller, GameAdapter, GameService, NotSeated
from app.games.go_analysis import Analyst
from app.games.go_record import move_list, position_at
from app.pool import Busy, JobFailed
from app.store import GameRecord

REVIEW_SECONDS = 0.5  # a search a position: ~1 min for a 9×9 game, ~4 for a 19×19 one
MOST_POSITIONS = 600  # a review's bound: longer games are reviewed up to that move
RUNNING = 2  # reviews an instance runs at once (each one search at a time)
SAVE_SECONDS = 4.0  # between writes of progress (each refreshes every viewer's widget)
BEAT_SECONDS = 30.0  # a review waiting for a worker says it is alive this often
STALE_SECONDS = 60.0  # a review not advanced for this long may be asked again
FAILURES = 3  # searches that failed in a row before the review stops
DROP = 0.15  # a move that costs its side this much of its winning chances is marked...
MARKED = 3  # ...the largest this many for each side
BUSY = ("The computer is reviewing other games just now; ask again in a minute.")
log = logging.getLogger("tabletop")


def black_share(win_rate: float, to_move: str) -> float:
    """The search's win rate for the side to move, as black's chances."""
    return win_rate if to_move == "black" else 1 - win_rate


def state(review: dict[str, Any] | None, now: float) -> str:
    """"none", "running", "stale" (no progress for STALE_SECONDS: may be asked again),
    "stopped" (failed: may be asked again) or "done"."""
    if not review:
        return "none"
    if len(review["positions"]) >= review["to"]:
        return "done"
    if review.get("stopped"):
        return "stopped"
    return "stale" if now - review["updated"] > STALE_SECONDS else "running"


def drops(data: dict[str, Any],
          moves: list[dict[str, Any]] | None = None) -> dict[int, dict[str, Any]]:
    """The review's largest mistakes, by move number: each move that cost its side at least
    DROP of its chances (its side's win rate before it minus after), the MARKED largest of
    each side, unless it was the move the computer preferred itself (what is left is the
    search's noise). {number: {"colour", "move", "drop" (0–1), "before", "after" (its
    side's chances), "preferred"}}. `moves`: the game's move_list, if the caller has it."""
    review = data.get("review") or {}
    positions = review.get("positions") or []
    found: dict[str, list[dict[str, Any]]] = {"black": [], "white": []}
    if not positions:
        return {}
    for entry in (moves if moves is not None else move_list(data))[:len(positions) - 1]:
        number, colour = entry["number"], entry["colour"]
        before, preferred = positions[number - 1]
        after = positions[number][0]
        if colour == "white":
            before, after = 1 - before, 1 - after
        if before - after >= DROP and entry["move"] != preferred:
            found[colour].append({"number": number, "colour": colour, "move": entry["move"],
                                  "drop": round(before - after, 4), "before": before,
                                  "after": after, "preferred": preferred})
    marked = [mistake for side in found.values()
              for mistake in sorted(side, key=lambda m: -m["drop"])[:MARKED]]
    return {mistake["number"]: mistake for mistake in sorted(marked, key=lambda m: m["number"])}


def summary(data: dict[str, Any], now: float) -> dict[str, Any]:
    """The review as the API gives it: its state, how far it has come, black's win rate
    and the preferred move for each position reviewed, and the marked drops."""
    review = data.get("review") or {"positions": [], "to": 0}
    positions = review["positions"]
    return {"state": state(data.get("review"), now), "reviewed": len(positions),
            "positions": review["to"], "win_rates": [p[0] for p in positions],
            "preferred": [p[1] for p in positions], "stopped": review.get("stopped"),
            "drops": list(drops(data).values())}


class Reviewer:
    """This instance's running reviews (asyncio tasks, at most `running`)."""

    def __init__(self, games: GameService, analyst: Analyst, running: int = RUNNING,
                 seconds: float = REVIEW_SECONDS) -> None:
        self.games = games
        self.analyst = analyst
        self.running = running
        self.seconds = seconds
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._starting: set[str] = set()  # asked, its task not started yet

    async def ask(self, record: GameRecord, caller: Caller) -> GameRecord:
        """Starts the review of a finished game, or goes on with one that stopped or went
        stale, for a seat of the game; a review already running or done is left as it is.
        Refused (nothing changed) for a watcher, a game still being played, this instance's
        RUNNING reviews all taken (Busy) or the caller's rate (app/limits.py)."""
        if not self.games.actor(record, caller).seated:
            raise NotSeated()
        view = await run_in_threadpool(self.games.view, record)  # a replay: off the loop
        if view.status != "over":  # an imported record is over too
            raise Conflict("The computer reviews a game once it is over.", code="not_over")
        # From these checks to the task's start, the game is held in _starting: a second ask
        # meanwhile (nothing between them awaits) finds it and starts no second runner.
        if state(record.data.get("review"), time.time()) in ("running", "done") \
                or record.id in self._tasks or record.id in self._starting:
            return record
        if len(self._tasks) + len(self._starting) >= self.running:
            raise Busy(BUSY, 60)
        self.analyst.rate.take(caller.address)  # the whole review, once
        self._starting.add(record.id)
        try:
            return await self._start(record)
        finally:
            self._starting.discard(record.id)

    async def _start(self, record: GameRecord) -> GameRecord:
        """Writes the review's start (this runner's id) and starts its task."""
        runner = secrets.token_hex(8)
        total = len(record.data["game"]["moves"])

        def begin(_: GameAdapter, data: dict[str, Any]) -> int:
            review = data.get("review") or {"positions": []}
            # The last position too, unless play had stopped there (two passes; a
            # resignation or a flag leaves a position a search can read).
            to = total + 1 if position_at(data, total).status == "playing" else total
            data["review"] = {**review, "to": min(to, MOST_POSITIONS), "by": runner,
                              "updated": time.time(), "stopped": None}
            return 1

        record = await run_in_threadpool(self.games.amend, record.id, "go", begin)
        task = asyncio.create_task(self._run(record, runner))
        self._tasks[record.id] = task
        task.add_done_callback(lambda _: self._tasks.pop(record.id, None))
        return record

    async def _run(self, record: GameRecord, runner: str) -> None:
        """Searches the positions left, one at a time, writing progress as it goes."""
        review = record.data["review"]
        positions = [list(position) for position in review["positions"]]
        saved, beat, failures, stopped = len(positions), time.monotonic(), 0, None
        try:
            while len(positions) < review["to"] and stopped is None:
                try:
                    read = await self.analyst.analyse(record.data, len(positions),
                                                      seconds=self.seconds, in_review=True)
                except Busy as busy:  # players first: wait for a worker
                    await asyncio.sleep(min(busy.retry_after, 5))
                except JobFailed:
                    failures += 1
                    if failures >= FAILURES:
                        stopped = "The review stopped: the computer failed to read a position."
                except Conflict:  # play had stopped there
                    review["to"] = len(positions)
                else:
                    failures = 0
                    positions.append([round(black_share(read["win_rate"], read["to_move"]), 4),
                                      read["move"]])
                due = time.monotonic() - beat >= (SAVE_SECONDS if len(positions) > saved
                                                  else BEAT_SECONDS)
                if due and len(positions) < review["to"] and stopped is None:
                    if not await self._save(record.id, runner, positions, review["to"]):
                        return  # taken over by another instance: it goes on from here
                    saved, beat = len(positions), time.monotonic()
            await self._save(record.id, runner, positions, review["to"], stopped)
        except asyncio.CancelledError:
            raise  # the server stops: the review goes stale and may be asked again
        except Exception:  # noqa: BLE001 - a review must never take the server down
            log.exception("the review of game %s failed", record.id)

    async def _save(self, game_id: str, runner: str, positions: list[list[Any]], to: int,
                    stopped: str | None = None) -> bool:
        """Writes the review's progress if this runner still owns it; False if not."""
        mine = True

        def write(_: GameAdapter, data: dict[str, Any]) -> int:
            nonlocal mine
            review = data.get("review") or {}
            if review.get("by") != runner:
                mine = False
                return 0
            data["review"] = {**review, "positions": [list(p) for p in positions], "to": to,
                              "updated": time.time(), "stopped": stopped}
            return 1

        await run_in_threadpool(self.games.amend, game_id, "go", write)
        return mine

    def reviewing(self) -> list[str]:
        """The games this instance is reviewing now."""
        return list(self._tasks)

    async def close(self) -> None:
        """Stops every running review (the server shuts down); they may be asked again."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
