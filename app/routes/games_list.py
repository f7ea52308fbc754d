"""The words of the games list (/games: app/routes/ui.py `summary` and `my_games`): what
each game is, against whom, how it stands for the viewer, and when it was last played.

Start at `standing`. A result is said from the viewer's seats, built from who won and how
(`Ending`) — "You won by resignation", "You lost on time", "Draw", and at one screen (both
seats, or none) "Black won by 7.5 points" — never from a slice of the result's text: Go's
text is SGF's ("B+R", "W+T", "B+3.5", "0"; an imported record's is whatever the file said,
so it is read, never shown), tic-tac-toe's ending is the adapter's `ended` ("resign",
"time") or a line, and a knight's tour ends solved, unclosed or stuck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.engine.tictactoe import STRATEGY_NAMES, get_strategy
from app.games import GameView
from app.games.go import LEVELS
from app.games.kinds import BY_KIND
from app.games.tictactoe import ENDINGS as TICTACTOE_ENDINGS
from app.store import GameRecord

SIDE_NAMES = {"X": "X", "O": "O", "black": "Black", "white": "White"}
STRATEGY_LABELS = {name: get_strategy(name).label for name in STRATEGY_NAMES}
# How a Go game ended outside the count, as SGF's RE writes it ("W+R", "B+Resign", "B+T").
GO_ENDINGS = {"R": "by resignation", "RESIGN": "by resignation", "T": "on time",
              "TIME": "on time", "F": "by forfeit", "FORFEIT": "by forfeit"}
GO_DRAWS = {"0", "DRAW", "JIGO"}
MARGIN = re.compile(r"\d{1,4}(?:\.\d{1,2})?")  # "7.5": a score's margin, as SGF writes it
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
NAME_CHARS = 24  # of a player's name from an imported record, in the list


@dataclass(frozen=True)
class Ending:
    """How a finished two-sided game ended: the seat that won (None: nobody) and how, in
    words that follow "won" ("by resignation", "on time", "by 7.5 points", or "")."""

    winner: str | None
    how: str = ""
    drawn: bool = False  # nobody won because the game was drawn (not void, not unknown)


def points(margin: float) -> str:
    return f"by {margin:g} point{'' if margin == 1 else 's'}"


def go_ending(result: dict[str, Any]) -> Ending:
    """A Go result ({"winner", "text"}: "B+R", "W+T", "B+3.5", "0", or an imported
    record's RE) as an Ending; a text it cannot read says only who won, if anyone."""
    text = str(result.get("text") or "").strip()
    winner = result.get("winner")
    if winner not in ("black", "white"):
        return Ending(None, drawn=text.upper() in GO_DRAWS)
    _, _, tail = text.partition("+")
    tail = tail.strip()
    if tail.upper() in GO_ENDINGS:
        return Ending(winner, GO_ENDINGS[tail.upper()])
    if MARGIN.fullmatch(tail) and float(tail) > 0:
        return Ending(winner, points(float(tail)))
    return Ending(winner)


def tictactoe_ending(view: GameView, data: dict[str, Any]) -> Ending:
    winner = (view.result or {}).get("winner")
    if winner is None:
        return Ending(None, drawn=True)
    ended = data.get("ended") or {}
    return Ending(winner, TICTACTOE_ENDINGS.get(str(ended.get("by")), "with three in a row"))


def result_sentence(ending: Ending, you: set[str]) -> str:
    """The result for a viewer holding `you`: their own words for one seat, the sides'
    names for both seats (one screen, a record) or none."""
    if ending.winner is None:
        return "Draw" if ending.drawn else "No result"
    how = f" {ending.how}" if ending.how else ""
    if len(you) == 1:
        return f"{'You won' if ending.winner in you else 'You lost'}{how}"
    return f"{SIDE_NAMES.get(ending.winner, ending.winner)} won{how}"


def tour_words(view: GameView) -> str:
    """Where a knight's tour stands: "Tour complete", "Stuck after 23 of 64 squares"…"""
    state = view.state
    visited, total = len(state["path"]), state["size"] ** 2
    status = state["tour_status"]
    if status == "solved":
        return "Closed tour complete" if state["closed"] else "Tour complete"
    if status == "open_only":
        return "Every square visited, but the tour does not close"
    if status == "stuck":
        return f"Stuck after {visited} of {total} squares"
    return f"Your move · {visited} of {total} squares"


@dataclass(frozen=True)
class Standing:
    """How a game stands for the viewer: the words, and which of "yours" (your move),
    "waiting" (someone else's), "won", "lost", "draw", "over" (finished, nobody's win or
    loss to the viewer) they are — the list's styling."""

    words: str
    tone: str


def standing(record: GameRecord, view: GameView, you: set[str]) -> Standing:
    """Whose turn it is, or how the game ended, in the viewer's words."""
    options = record.data.get("options", {})
    opponent = options.get("opponent")
    if record.kind == "knights-tour":
        return Standing(tour_words(view), "yours" if view.status == "playing" else "over")
    if view.result is not None:
        ending = (go_ending(view.result) if record.kind == "go"
                  else tictactoe_ending(view, record.data))
        tone = "over"
        if ending.drawn:
            tone = "draw"
        elif ending.winner is not None and len(you) == 1:
            tone = "won" if ending.winner in you else "lost"
        return Standing(result_sentence(ending, you), tone)
    if view.status == "scoring":  # each person seated marks the dead stones and accepts
        if you - set(record.data.get("accepted") or ()):
            return Standing("Counting: mark the dead stones, then accept", "yours")
        return Standing("Counting: waiting for your friend to accept" if you
                        else "Counting the score", "waiting")
    side = SIDE_NAMES.get(view.to_move or "", view.to_move or "")
    if view.to_move in you:
        return Standing("Your move" if len(you) == 1 else f"{side} to play", "yours")
    if not you:
        return Standing(f"{side} to play", "waiting")
    if opponent == "remote":
        return Standing("Waiting for your friend to join" if record.invited
                        else "Your friend's move", "waiting")
    return Standing("The computer's move", "waiting")


def kind_words(record: GameRecord) -> str:
    """The game and its board: "Go 13×13", "Knight's tour 8×8, closed", "Tic-tac-toe"."""
    options = record.data.get("options", {})
    name = BY_KIND[record.kind].name if record.kind in BY_KIND else record.kind
    size = options.get("size")
    if record.kind == "go" and size:
        return f"{name} {size}×{size}"
    if record.kind == "knights-tour" and size:
        return f"{name} {size}×{size}{', closed' if options.get('closed') else ''}"
    return name


def short(name: Any) -> str:
    text = " ".join(str(name or "").split())
    return text if len(text) <= NAME_CHARS else text[:NAME_CHARS - 1].rstrip() + "…"


def opponent_words(record: GameRecord) -> str:
    """Against whom: "Computer · Medium", "A friend", "Two players, one screen"…"""
    options = record.data.get("options", {})
    opponent = options.get("opponent")
    if record.kind == "knights-tour":
        return "Solo puzzle"
    if record.data.get("review_only"):
        info = (record.data.get("record") or {}).get("info") or {}
        black, white = short(info.get("black")), short(info.get("white"))
        return f"Game record: {black} vs {white}" if black and white else "Game record"
    if opponent == "local":
        return "Two players, one screen"
    if opponent == "remote":
        return "A friend, not joined yet" if record.invited else "A friend"
    if record.kind == "go":
        level = LEVELS.get(options.get("level", ""))
        return f"Computer · {level}" if level else "Computer"
    label = STRATEGY_LABELS.get(opponent or "")
    return f"Computer · {label}" if label else "Computer"


def your_side(record: GameRecord, you: set[str]) -> str:
    """"You play White" when the viewer holds one side of a two-sided game, else ""."""
    if record.kind == "knights-tour" or len(you) != 1:
        return ""
    (seat,) = you
    return f"You play {SIDE_NAMES.get(seat, seat)}"


def ago(seconds: float) -> str:
    """A short "how long ago": "just now", "5 minutes ago", "3 days ago"."""
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"  # also a moment a little in the future (another instance's clock)


def when(moment: float, now: float) -> dict[str, str]:
    """A moment as the list shows it: the date and time (UTC: the server does not know the
    viewer's zone, so it says which it uses; static/js/local-times.js rewrites it in the
    browser's), the same for machines, and how long ago while that is under a week
    (beyond, the date says it better)."""
    at = datetime.fromtimestamp(moment, UTC)
    return {"iso": at.isoformat(timespec="seconds").replace("+00:00", "Z"),
            "date": f"{at.day} {MONTHS[at.month - 1]} {at.year}, {at:%H:%M} UTC",
            "ago": ago(now - moment) if now - moment < 7 * 86400 else ""}
