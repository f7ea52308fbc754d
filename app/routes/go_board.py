"""What the Go widget draws: the board (an SVG picture under a grid of buttons), the move
list, the win-rate graph and the sentences around them. Start at `board_picture`.

Everything here is pure: a `Game` (or its moves) in, plain data for templates/go/_game.html
out, in board units — intersections at 1..size, a margin of one unit for the coordinates.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from app.engine.go import Game
from app.engine.go.coords import COLUMN_LETTERS

COLOR_WORD = {"X": "black", "O": "white"}
GRAPH_WIDTH, GRAPH_HEIGHT = 300, 100
LINE_SHOWN = 8  # moves of the computer's expected line numbered on the board
# A point is marked as a side's in a score estimate when the search gave it to that side
# this much more often than to the other (ownership -1..1): below it, the point is in
# the balance and left unmarked, as a player would leave it uncounted.
OWNED = 0.4


def star_points(size: int) -> list[tuple[int, int]]:
    """The hoshi as (column, row) from the top-left: 3-3 points on small boards, 4-4 on 13+."""
    if size < 7:
        return [(size // 2, size // 2)] if size % 2 else []
    edge = 2 if size < 13 else 3
    lines = [edge, size - 1 - edge]
    if size % 2 and size >= 9:
        lines.insert(1, size // 2)
    if size < 13 and len(lines) == 3:  # small boards: corners and the centre only
        return [(c, r) for c in lines[::2] for r in lines[::2]] + [(size // 2, size // 2)]
    return [(c, r) for c in lines for r in lines]


def vertex_name(column: int, row_from_top: int, size: int) -> str:
    return f"{COLUMN_LETTERS[column]}{size - row_from_top}"


def vertex_xy(name: str, size: int) -> tuple[int, int] | None:
    """A vertex's (x, y) in board units, or None for "pass" and "resign"."""
    if len(name) < 2 or name[0] not in COLUMN_LETTERS or not name[1:].isdigit():
        return None
    return COLUMN_LETTERS.index(name[0]) + 1, size - int(name[1:]) + 1


def board_picture(game: Game, playable: bool = True, may_mark: bool = True,
                  line: list[str] | None = None,
                  ownership: list[float] | None = None) -> dict[str, Any]:
    """Everything the SVG and the button grid need (each stone with its move number, which
    the view shows when the player asks for them). `playable`: the viewer may place a stone
    now; `may_mark`: the viewer may mark dead stones (in scoring); `line`: a continuation
    to number on the board (the computer's expected line); `ownership`: a score estimate
    (go_analysis: per point, -1 white's to 1 black's) drawn as marks of the expected owner
    on empty points and on stones it expects captured, larger the surer it is."""
    size = game.size
    rows = game.board_rows()
    dead = set(game.dead_stones) if game.status != "playing" else set()
    atari = {stone for group in game.atari for stone in group.stones} \
        if game.status == "playing" else set()
    legal = set(game.legal_moves()) if playable else set()
    owners: dict[str, str] = {}
    territory = game.territory if game.status != "playing" else None
    if territory:
        for owner in ("black", "white"):
            for point in territory[owner]:
                owners[point] = owner
    # The number of the move that put each stone there (the latest, where a point was
    # played again after a capture); set-up and handicap stones have none.
    numbers = {vertex: number for number, vertex in enumerate(game.moves, start=1)}
    stones, points, marks, estimate = [], [], [], []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            name = vertex_name(c, r, size)
            colour = COLOR_WORD.get(cell)
            x, y = c + 1, r + 1
            expected = estimated_owner(ownership, r * size + c, colour)
            if colour:
                stones.append({"x": x, "y": y, "color": colour, "name": name,
                               "dead": name in dead, "atari": name in atari,
                               "last": name == game.last_move,
                               "number": numbers.get(name)})
            if name in owners:
                marks.append({"x": x, "y": y, "owner": owners[name]})
            label = f"{name}, {colour} stone" if colour else f"{name}, empty"
            if name in dead:
                label += ", marked dead"
            elif name in atari:
                label += ", in atari"
            if name in owners and not colour:
                label += f", {owners[name]} territory"
            if expected:
                estimate.append({"x": x, "y": y, **expected})
                label += f", {expected['owner']}'s by the estimate" if not colour \
                    else f", expected captured by {expected['owner']}"
            if game.status == "playing":
                move = name if playable and not colour else None
            elif game.status == "scoring":
                move = f"toggle {name}" if colour and may_mark else None
            else:
                move = None
            points.append({"name": name, "label": label, "move": move,
                           "legal": name in legal, "index": r * size + c})
    coordinates = [{"x": i + 1, "letter": COLUMN_LETTERS[i], "number": size - i}
                   for i in range(size)]
    numbered: list[dict[str, Any]] = []
    mover: str = game.to_move or "black"
    for number, vertex in enumerate((line or [])[:LINE_SHOWN], start=1):
        xy = vertex_xy(vertex, size)
        if xy is not None:
            numbered.append({"x": xy[0], "y": xy[1], "number": number, "color": mover})
        mover = "white" if mover == "black" else "black"
    return {"size": size, "extent": size + 1, "stones": stones, "points": points,
            "marks": marks, "estimate": estimate, "coordinates": coordinates, "line": numbered,
            "stars": [{"x": c + 1, "y": r + 1} for c, r in star_points(size)]}


def estimated_owner(ownership: list[float] | None, point: int,
                    stone: str | None) -> dict[str, Any] | None:
    """The score estimate's mark at `point` ({"owner", "half": half its side in board
    units}), or None: on an empty point, the side that owns it at least OWNED more often;
    on a stone, the other side only (a stone its own side keeps is not marked)."""
    if not ownership or point >= len(ownership):
        return None
    share = ownership[point]
    if abs(share) < OWNED:
        return None
    owner = "black" if share > 0 else "white"
    if stone == owner:
        return None
    return {"owner": owner, "half": round(0.1 + 0.1 * abs(share), 2)}


def estimated_count(game: Game, ownership: list[float]) -> dict[str, int]:
    """The area a score estimate's marks add up to: {"black", "white", "unsure"} — each
    stone for its colour unless expected captured (then for the capturer), each empty point
    for the side marked on it, and the points in the balance (unmarked) for neither."""
    count = {"black": 0, "white": 0, "unsure": 0}
    for point, cell in enumerate(cell for row in game.board_rows() for cell in row):
        colour = COLOR_WORD.get(cell)
        expected = estimated_owner(ownership, point, colour)
        owner = expected["owner"] if expected else colour
        count[owner or "unsure"] += 1
    return count


def move_words(entry: dict[str, Any]) -> str:
    """A move as a sentence: "White played D4, capturing 2." / "Black passed." """
    who = entry["colour"].capitalize()
    if entry["move"] == "pass":
        return f"{who} passed."
    if entry["move"] == "resign":
        return f"{who} resigned."
    captured = entry["captures"]
    catch = f", capturing {captured}" if captured else ""
    return f"{who} played {entry['move']}{catch}."


def win_rate_graph(estimates: list[tuple[int, float]], moves: int,
                   current: int | None = None,
                   marks: Collection[int] = (), frame: bool = False) -> dict[str, Any] | None:
    """Winning chances as an SVG polyline: `estimates` are (position, share) pairs, the
    position after that many moves (0: the start, at the left edge) and a share 0–1 (y:
    100 % at the top). A dot per estimate steps the review to its position; the positions
    in `marks` (after a move the review marks as costly) are ringed. With the axes' ticks
    (0, 50 and 100 % up the side; the start, middle and last move along the bottom) and the
    estimate the caption quotes: the latest one at or before the position shown (`current`),
    so that a review of move 2 does not quote the end of the game. None without estimates,
    unless `frame`: the axes alone (a review has begun; its line grows in them)."""
    if not estimates and not frame:
        return None
    last = max(moves, estimates[-1][0] if estimates else 0, 1)
    dots = []
    for position, share in estimates:
        dots.append({"x": round(GRAPH_WIDTH * position / last, 1),
                     "y": round(GRAPH_HEIGHT * (1 - share), 1), "move": position,
                     "current": current == position, "marked": position in marks})
    shown = moves if current is None else current
    quoted = [(position, share) for position, share in estimates if position <= shown]
    ticks = sorted({0, last // 2, last})
    return {"width": GRAPH_WIDTH, "height": GRAPH_HEIGHT,
            "points": " ".join(f"{dot['x']},{dot['y']}" for dot in dots),
            "moves": last, "dots": dots,
            "quoted": round(100 * quoted[-1][1]) if quoted else None,
            "quoted_move": quoted[-1][0] if quoted else None,
            "latest": shown >= moves,
            "x_ticks": [{"x": round(GRAPH_WIDTH * move / last, 1), "move": move}
                        for move in ticks],
            "y_ticks": [{"y": round(GRAPH_HEIGHT * (1 - share / 100), 1), "share": share}
                        for share in (100, 50, 0)]}


def result_text(result: dict[str, Any] | None, you: frozenset[str] | set[str] = frozenset(),
                computer: str | None = None, names: dict[str, str] | None = None) -> str:
    """A finished game's result as a sentence, for this viewer. A player of one colour
    hears "You win …", "The computer wins …" (`computer`: its colour) or "Your friend
    wins …"; everyone else (watchers, both sides at one screen) hears the winner's colour,
    with the name the winner gave (`names`, by colour): "Ana (black) wins …"."""
    result = result or {}
    text, winner = str(result.get("text") or ""), result.get("winner")
    if not text:
        return "The game is over."
    if winner is None:
        return f"The game is a draw ({text})." if text in ("0", "Draw", "Jigo") \
            else f"Result: {text}."
    who, wins = str(winner).capitalize(), "wins"
    if computer and winner == computer:
        who = "The computer"
    elif len(you) == 1 and winner in you:
        who, wins = "You", "win"
    elif len(you) == 1:
        who = "Your friend"
    elif names and names.get(winner):
        who = f"{names[winner]} ({winner})"
    if text.endswith("+R"):
        return f"{who} {wins} by resignation."
    if text.endswith("+T"):
        return f"{who} {wins} on time."
    margin = text.split("+", 1)[1] if "+" in text else ""
    return f"{who} {wins} by {margin} points ({text})." if margin else f"{who} {wins} ({text})."


def outcome(result: dict[str, Any] | None, you: frozenset[str] | set[str]) -> str:
    """How a finished game ended for this viewer, for its styling: "won" or "lost" for a
    player of one colour; "neutral" for a draw, a watcher, or one person playing both sides."""
    winner = (result or {}).get("winner")
    if winner is None or len(you) != 1:
        return "neutral"
    return "won" if winner in you else "lost"
