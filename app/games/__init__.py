"""What a game is to the server. Start reading at app/games/service.py (GameService: the
service every route calls to create, read and change a stored game), then
app/games/kinds.py (KINDS: every game the server knows, with its adapter) and
app/games/adapter.py (what an adapter does for the service). One adapter per game:
tictactoe.py, go.py, knights_tour.py; beside them the clocks (clock.py), options
(options.py), Go's analysis, reviews and records, and the knight's-tour solves (tours.py).

The names below are re-exported so that callers import them from the package.
"""

from app.games.adapter import ComputerJob, GameAdapter, GameView, SlowComputer, TwoSided
from app.games.service import (
    Broadcast,
    Caller,
    Created,
    GameService,
    NotSeated,
    Silent,
    new_game_id,
    search_deadline,
)

__all__ = ["Broadcast", "Caller", "ComputerJob", "Created", "GameAdapter", "GameService",
           "GameView", "NotSeated", "Silent", "SlowComputer", "TwoSided", "new_game_id",
           "search_deadline"]
