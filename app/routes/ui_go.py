"""The Go view as HTML fragments: the whole game widget (#go-game), re-rendered after every
action. Start at render_game: it turns the game into what templates/go/_game.html draws (an
SVG board under a grid of buttons, one per intersection).

htmx posts forms here; a refused action re-renders the unchanged game with the reason.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from app.engine.errors import quoted
from app.engine.go import Game
from app.engine.go.coords import COLUMN_LETTERS
from app.engine.go.mcts import LEVELS as SEARCH_LEVELS
from app.errors import ApiError
from app.games import Caller, GameService
from app.games.go import LEVELS, UI_SIZES, GoAdapter, computer_colour, load
from app.pool import Busy, JobFailed
from app.routes.api_sgf import MAX_SGF_BYTES
from app.routes.deps import Asker, GoRecord, Service
from app.routes.models import MAX_MOVE_LENGTH
from app.routes.ui import CLOCKS, act, clock_options, navigate_to, table, tally
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui/go", include_in_schema=False)

COLOR_WORD = {"X": "black", "O": "white"}
GO = GoAdapter()  # stateless: the view's own copy, for rendering and SGF import
RETRY_SECONDS = 3  # after a failed search, the view asks again this much later


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


def status_text(game: Game, you: set[str], accepted: list[str]) -> str:
    """The line above the board, for this viewer."""
    if game.status == "playing":
        mover = game.to_move.capitalize() if game.to_move else ""
        if game.to_move in you and len(you) == 1:
            return f"Your move ({game.to_move})."
        return f"{mover} to play."
    if game.status == "scoring":
        if you and set(accepted) & you and not you <= set(accepted):
            return "Both players passed. You accepted the score."
        if you and you <= set(accepted):
            return "Both players passed. You accepted the score; waiting for your friend."
        if you:
            return ("Both players passed. Click any group to mark it dead or alive, "
                    "then accept the score.")
        return "Both players passed; they are marking the dead stones."
    result = game.result or {}
    text, winner = result.get("text") or "", result.get("winner")
    if text.endswith("+R"):
        return f"{str(winner).capitalize()} wins by resignation."
    if text.endswith("+T"):
        return f"{str(winner).capitalize()} wins on time."
    if winner is None:
        return "The game is a draw (0)."
    return f"{str(winner).capitalize()} wins by {text.split('+')[1]} points ({text})."


def board_picture(game: Game, human_to_move: bool = True,
                  may_mark: bool = True) -> dict[str, Any]:
    """Everything the SVG and the button grid need, in board units (intersections at
    1..size, a margin of one unit for the coordinates)."""
    size = game.size
    rows = game.board_rows()
    dead = set(game.dead_stones) if game.status != "playing" else set()
    atari = {stone for group in game.atari for stone in group.stones} \
        if game.status == "playing" else set()
    legal = set(game.legal_moves())
    owners: dict[str, str] = {}
    territory = game.territory if game.status != "playing" else None
    if territory:
        for owner in ("black", "white"):
            for point in territory[owner]:
                owners[point] = owner
    stones, points, marks = [], [], []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            name = vertex_name(c, r, size)
            colour = COLOR_WORD.get(cell)
            x, y = c + 1, r + 1
            if colour:
                stones.append({"x": x, "y": y, "color": colour, "name": name,
                               "dead": name in dead, "atari": name in atari,
                               "last": name == game.last_move})
            if name in owners:
                marks.append({"x": x, "y": y, "owner": owners[name]})
            label = f"{name}, {colour} stone" if colour else f"{name}, empty"
            if name in dead:
                label += ", marked dead"
            elif name in atari:
                label += ", in atari"
            if name in owners and not colour:
                label += f", {owners[name]} territory"
            if game.status == "playing":
                move = None if colour or not human_to_move else name
            elif game.status == "scoring":
                move = f"toggle {name}" if colour and may_mark else None
            else:
                move = None
            points.append({"name": name, "label": label, "move": move,
                           "legal": name in legal and human_to_move, "index": r * size + c})
    coordinates = [{"x": i + 1, "letter": COLUMN_LETTERS[i], "number": size - i}
                   for i in range(size)]
    return {"size": size, "extent": size + 1, "stones": stones, "points": points,
            "marks": marks, "coordinates": coordinates,
            "stars": [{"x": c + 1, "y": r + 1} for c, r in star_points(size)]}


def render_game(request: Request, games: GameService, record: GameRecord, caller: Caller,
                error: str | None = None, retry: dict[str, Any] | None = None) -> HTMLResponse:
    """The Go widget for this viewer. `error` is the sentence of a refused action; `retry`
    asks the view to send a move again (or to ask for the computer's reply again) after
    `seconds`."""
    game = load(record.data)
    options = record.data["options"]
    view = GO.view_of(game, options, record.data.get("analysis"))
    computer = computer_colour(options)
    seats = table(request, games, record, caller)
    you = seats["you"]
    thinking = game.status == "playing" and game.to_move == computer and retry is None
    picture = board_picture(game, human_to_move=game.to_move in you and not thinking,
                            may_mark=bool(you))
    # The cursor starts on the last stone played, else (a pass, no move yet) the centre.
    focus_index = next((p["index"] for p in picture["points"] if p["name"] == game.last_move),
                       (game.size * game.size) // 2)
    context = {
        "game": record, "go": game, "board": picture, "focus": focus_index,
        "status": status_text(game, you, record.data.get("accepted", [])), "error": error,
        "sizes": UI_SIZES, "table": seats, "clock_options": CLOCKS,
        "accepted": set(record.data.get("accepted", [])) & you,
        "atari": game.atari if game.status == "playing" else [],
        "score": view.state.get("score"),
        "passed": bool(game.moves) and game.moves[-1] == "pass" and game.status == "playing",
        "options": options, "computer": computer,
        "thinking": thinking, "levels": LEVELS, "budget": level_seconds(options["level"]),
        "graph": win_rate_graph(record.data.get("analysis") or [], len(game.moves)),
        "tally": tally(games, caller.browser or "", "go"), "retry": retry,
    }
    return templates.TemplateResponse(request, "go/_game.html", context)


def level_seconds(level: str) -> float:
    """The thinking time a level allows per move (shown while the computer thinks)."""
    return float(SEARCH_LEVELS[level].seconds or 0)


GRAPH_WIDTH, GRAPH_HEIGHT = 300, 100


def win_rate_graph(analysis: list[dict[str, Any]], moves: int) -> dict[str, Any] | None:
    """The computer's win-rate estimates as an SVG polyline (x: move number, y: 0–100 %)."""
    if not analysis:
        return None
    last = max(moves, analysis[-1]["move"] + 1, 2)
    points = [(round(GRAPH_WIDTH * a["move"] / (last - 1), 1),
               round(GRAPH_HEIGHT * (1 - a["win_rate"]), 1)) for a in analysis]
    return {"width": GRAPH_WIDTH, "height": GRAPH_HEIGHT,
            "points": " ".join(f"{x},{y}" for x, y in points),
            "last": round(100 * analysis[-1]["win_rate"]), "moves": last,
            "dots": [{"x": x, "y": y} for x, y in points][-1:]}


@router.get("/{game_id}", response_class=HTMLResponse)
def game_fragment(request: Request, record: GoRecord, games: Service,
                  caller: Asker) -> HTMLResponse:
    return render_game(request, games, games.expire(record), caller)


@router.post("/{game_id}/moves", response_class=HTMLResponse)
def play(request: Request, record: GoRecord, games: Service, caller: Asker,
         move: Annotated[str, Form(max_length=MAX_MOVE_LENGTH)],
         version: Annotated[int, Form()]) -> HTMLResponse:
    """Plays the human's move; the computer's reply is asked for by the view (reply below).
    When the computer could not think now, the move is not played: the view says so and
    sends it again by itself after Retry-After."""
    actor = games.actor(record, caller)
    try:
        ticket = games.admit_search(record) if actor.seated else None
    except Busy as busy:
        return render_game(request, games, record, caller, busy.detail,
                           retry={"move": move, "seconds": busy.retry_after})
    if ticket is not None:
        ticket.release()  # a check, not a reservation: the reply request takes its own
    after, error = act(games, record, caller,
                       lambda seats: games.play(record, seats, move, version))
    return render_game(request, games, after, caller, error)


@router.post("/{game_id}/reply", response_class=HTMLResponse)
async def computer_reply(request: Request, record: GoRecord, games: Service,
                         caller: Asker) -> HTMLResponse:
    """Loaded by the "thinking…" indicator of a player's view: waits for the computer's
    move, then re-renders. If the computer is busy or its search failed, the view says so
    and asks again. A watcher's view only waits for the live events."""
    if not games.actor(record, caller).seated:
        return render_game(request, games, record, caller)
    try:
        record = await games.computer_reply(record)
    except Busy as busy:
        return render_game(request, games, record, caller,
                           retry={"seconds": busy.retry_after})
    except JobFailed as failure:  # overran its deadline or lost its worker: ask again
        record = await run_in_threadpool(games.load, record.id, "go")
        return render_game(request, games, record, caller, failure.detail,
                           retry={"seconds": RETRY_SECONDS})
    except ApiError as refusal:
        record = await run_in_threadpool(games.load, record.id, "go")
        return render_game(request, games, record, caller, refusal.detail)
    return render_game(request, games, record, caller)


@router.post("/{game_id}/options", response_class=HTMLResponse)
def change_options(request: Request, record: GoRecord, games: Service, caller: Asker,
                   version: Annotated[int, Form()],
                   opponent: Annotated[str, Form(max_length=20)],
                   level: Annotated[str, Form(max_length=20)],
                   human: Annotated[str, Form(max_length=20)]) -> HTMLResponse:
    options = {"opponent": opponent, "level": level, "human": human}
    after, error = act(games, record, caller,
                       lambda actor: games.update_options(record, actor, options, version))
    return render_game(request, games, after, caller, error)


@router.post("/{game_id}/undo", response_class=HTMLResponse)
def undo(request: Request, record: GoRecord, games: Service, caller: Asker,
         version: Annotated[int, Form()]) -> HTMLResponse:
    after, error = act(games, record, caller, lambda actor: games.undo(record, actor, version))
    return render_game(request, games, after, caller, error)


@router.post("/{game_id}/takeback", response_class=HTMLResponse)
def answer_takeback(request: Request, record: GoRecord, games: Service, caller: Asker,
                    accept: Annotated[str, Form(max_length=8)],
                    version: Annotated[int, Form()]) -> HTMLResponse:
    after, error = act(games, record, caller, lambda actor: games.answer_takeback(
        record, actor, accept == "true", version))
    return render_game(request, games, after, caller, error)


@router.post("/{game_id}/resign", response_class=HTMLResponse)
def resign(request: Request, record: GoRecord, games: Service, caller: Asker,
           version: Annotated[int, Form()]) -> HTMLResponse:
    after, error = act(games, record, caller, lambda actor: games.resign(record, actor, version))
    return render_game(request, games, after, caller, error)


def message(request: Request, text: str) -> HTMLResponse:
    return templates.TemplateResponse(request, "go/_message.html", {"text": text})


@router.post("/new", response_model=None)
def new_game(request: Request, games: Service, caller: Asker,
             size: Annotated[str, Form(max_length=8)],
             handicap: Annotated[str, Form(max_length=8)],
             opponent: Annotated[str, Form(max_length=20)],
             level: Annotated[str, Form(max_length=20)],
             human: Annotated[str, Form(max_length=20)],
             komi: Annotated[str, Form(max_length=20)] = "",
             clock: Annotated[str, Form(max_length=8)] = "") -> Response:
    options = {"size": size, "handicap": handicap, "komi": komi or None,
               "opponent": opponent, "level": level, "human": human, **clock_options(clock)}
    try:
        # The computer's first move (if it has black) is thought about once the new game's
        # view loads, behind the "thinking…" indicator.
        created = games.create("go", options, caller)
    except ApiError as refusal:
        return message(request, refusal.detail)
    return navigate_to(f"/go/{created.record.id}")


@router.post("/import", response_model=None)
async def import_sgf(request: Request, games: Service, caller: Asker,
                     sgf: UploadFile) -> Response:
    data = await sgf.read(MAX_SGF_BYTES + 1)
    if len(data) > MAX_SGF_BYTES:
        return message(request, f"That file is larger than {MAX_SGF_BYTES:,} bytes; "
                                "it is not an SGF game record this site can read.")
    try:
        built = await GO.from_sgf(games.pool, data)
    except ApiError as refusal:
        name = quoted(sgf.filename) if sgf.filename else "the file"
        return message(request, f"Could not open {name}: {refusal.detail}")
    created = await run_in_threadpool(games.create_from_data, "go", built, caller)
    return navigate_to(f"/go/{created.record.id}")
