"""What would the computer play here, and who is ahead? A bounded search of any position of
a Go game, for review and for a score estimate during play: the best move, its win rate and
expected lead for the side to move, the expected line and the search's ownership map (who
it expects to own each point: the estimate's territory).

Start at `analyse`. The search runs in the worker pool like the computer's moves (admitted,
with a deadline) for ANALYSIS_SECONDS, but in the pool's anonymous share: anyone may ask,
so players' moves go first (app/pool.py). Answers are cached by position, since a player
stepping back and forth asks for the same ones again; a search that is no cached answer
counts against the client's rate (app/limits.py).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from app import jobs
from app.errors import Conflict
from app.games.go_record import position_at
from app.games.service import search_deadline
from app.limits import RateLimiter
from app.pool import WorkerPool

ANALYSIS_SECONDS = 1.0  # the "medium" level's budget: a useful answer while one waits
CACHED = 256  # positions remembered (a few games' worth of review)
BUSY = "The computer is busy thinking in other games; ask again in a few seconds."


class Analyst:
    """The server's position analyses: run in `pool`, cached by position."""

    def __init__(self, pool: WorkerPool, rate: RateLimiter) -> None:
        self.pool = pool
        self.rate = rate
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()

    async def analyse(self, data: dict[str, Any], moves: int, client: str | None = None,
                      seconds: float = ANALYSIS_SECONDS, in_review: bool = False
                      ) -> dict[str, Any]:
        """The best move after the game's first `moves` moves, for the side to move then:
        {"move", "to_move", "win_rate", "lead", "line", "playouts", "seconds", "ownership",
        "after"}; `lead` is the search's expected area margin for the side to move, komi
        included; `ownership` is per point in the board's order (rows from the top), -1 (white's
        in every simulation) to 1 (black's). A search of `seconds`, counted against `client`'s
        rate — unless it is one position of a whole-game review (`in_review`: app/games/
        go_review.py), charged once when the review was asked for and not cached, since a
        review's hundreds of positions would push out the ones players step through."""
        game = position_at(data, moves)
        if game.status != "playing" or game.to_move is None:
            raise Conflict("Play has stopped in that position: there is no move to look "
                           "for.", code="game_over")
        stored = game.to_dict()
        key = repr((stored["size"], stored["komi"], stored["setup"], stored["handicap"],
                    stored["moves"], seconds))
        cached = self._cache.get(key)
        if cached is None:
            ticket = self.pool.admit_anonymous(
                seconds, BUSY, (lambda: None) if in_review else lambda: self.rate.take(client))
            cached = await self.pool.run(ticket, jobs.analyse, {
                "game": stored, "seconds": seconds, "seed": moves}, search_deadline(seconds))
            if in_review:
                return {**cached, "to_move": game.to_move, "after": moves}
            self._cache[key] = cached
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return {**cached, "to_move": game.to_move, "after": moves}
