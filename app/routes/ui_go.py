"""The Go view as HTML fragments: the whole game widget (#go-game), re-rendered after every
action. Start at render_game: it gathers what templates/go/_game.html draws — the board
(app/routes/go_board.py), the line of notices above it (one at a time, in a space of fixed
height, so nothing that appears moves the board), the actions, the move list, review.

Review: `?move=N` shows the position after N moves (a deep link; the view steps through the
game with ←/→ and replaces the URL); `analyse=on` adds what the computer would play there,
`estimate=on` the score it expects. Once a game is over a seat may have the computer review
it whole (app/games/go_review.py): its graph of black's chances and marked moves are drawn
here from what the review has stored so far.
An imported record is always in review; "Continue from here" branches a new game from the
position shown. htmx posts forms here; a refused action re-renders the unchanged game with
the reason.
"""

from __future__ import annotations

import math
import time
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from app.engine.errors import quoted
from app.engine.go import Game
from app.engine.go.levels import LEVELS as SEARCH_LEVELS
from app.engine.go.sgf import MAX_SGF_BYTES
from app.errors import ApiError
from app.games import Caller, GameService, go_record, go_review
from app.games.go import LEVELS, UI_SIZES, computer_colour, load
from app.games.go_analysis import Analyst
from app.games.go_record import MAX_MOVES, branch, move_list, position_at
from app.pool import Busy, JobFailed
from app.routes.deps import Asker, GoRecord, Service
from app.routes.fragments import (
    CLOCKS,
    ClockForm,
    act,
    name_step,
    navigate_to,
    rematch_step,
    remember_name,
    table,
    tally,
)
from app.routes.go_board import (
    board_picture,
    estimated_count,
    move_words,
    outcome,
    result_text,
    win_rate_graph,
)
from app.routes.models import MAX_MOVE_LENGTH
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui/go", include_in_schema=False)

RETRY_SECONDS = 3  # after a failed search, the view asks again this much later
OPPONENT_WORDS = {"computer": "The computer", "remote": "A friend, through a link",
                  "local": "Another person, same screen"}


def status_text(game: Game, you: set[str], computer: str | None, opponent: str,
                names: dict[str, str] | None = None) -> str:
    """The line above the board, for this viewer, when the game is shown live: short, as
    it is one line (in scoring, what to do is the notice under it: scoring_hint). A seated
    player hears whose turn it is in their own words; a watcher, and two players at one
    screen, hear the colour (and, once it is over, the winner's name: result_text)."""
    if game.status == "playing":
        mover = game.to_move.capitalize() if game.to_move else ""
        if len(you) == 1 and game.to_move in you:
            return f"Your move ({game.to_move})."
        if len(you) == 1 and game.to_move == computer:
            return f"The computer's move ({game.to_move})."
        if len(you) == 1 and opponent == "remote":
            return f"Your friend's move ({game.to_move})."
        return f"{mover} to play."
    if game.status == "scoring":
        return "Both players passed."
    return result_text(game.result, you, computer, names)


# A pass is confirmed while the game is young (fewer moves than a quarter of the board's
# points: 20 on 9x9, 42 on 13x13, 90 on 19x19), and on the game's first pass whenever it
# comes: a pass answered by a pass ends play, and the computer answers one as soon as the
# count favours it - on move 4 of an empty board, white wins by komi.
OPENING_SHARE = 4


def pass_warning(game: Game, you: set[str], opponent: str) -> str:
    """The question the Pass button asks before it passes (empty: it passes at once). Only
    where a pass back would end a game the player might not want ended; a pass that answers
    the other side's pass says so itself (the notice above the board)."""
    if game.status != "playing" or game.to_move not in you:
        return ""
    passes = sum(1 for move in game.moves if move == "pass")
    early = len(game.moves) < game.size * game.size // OPENING_SHARE
    last_was_pass = bool(game.moves) and game.moves[-1] == "pass"
    if last_was_pass or not (early or passes == 0):
        return ""
    other = "White" if game.to_move == "black" else "Black"
    answerer = {"computer": "the computer", "remote": "your friend"}.get(opponent, other)
    return f"Pass {'this early' if early else 'now'}? If {answerer} passes too, the game ends."


def scoring_hint(game: Game, you: set[str], accepted: list[str]) -> str | None:
    """What to do while the dead stones are marked (the notice under the status line)."""
    if game.status != "scoring":
        return None
    if you and you <= set(accepted):
        return "You accepted the score; waiting for your friend."
    if you:
        return "Click any group to mark it dead or alive, then accept the score."
    return "The players are marking the dead stones."


def notice(error: str | None, retry: dict[str, Any] | None, thinking: bool,
           reviewing: bool, game: Game, passed: bool,
           scoring: str | None = None) -> dict[str, Any] | None:
    """The one notice under the status line, most urgent first: a refusal, a retry, the
    computer thinking, review, the other side's pass (with any atari after it), atari, what
    to do in scoring. None leaves the (reserved) space empty."""
    if error and not retry:
        return {"kind": "error", "text": error[0].upper() + error[1:]}
    if retry:
        return {"kind": "retry"}
    if thinking:
        return {"kind": "thinking"}
    if reviewing:
        return {"kind": "review"}
    atari = ""
    if game.status == "playing" and game.atari:
        groups = [f"{group.color}'s {'stone' if len(group.stones) == 1 else 'group'} at "
                  f"{group.stones[0]}" for group in game.atari]
        atari = "Atari: " + "; ".join(groups) + " — one liberty left."
    if passed:  # said first, whatever else is true: a pass back would end the game
        mover = "Black" if game.to_move == "white" else "White"
        text = f"{mover} passed. Another pass ends play."
        return {"kind": "pass", "text": f"{text} {atari}" if atari else text}
    if atari:
        return {"kind": "atari", "text": atari}
    if scoring:
        return {"kind": "scoring", "text": scoring}
    return None


def render_game(request: Request, games: GameService, record: GameRecord, caller: Caller,
                error: str | None = None, retry: dict[str, Any] | None = None,
                review: int | None = None, analysis: dict[str, Any] | None = None,
                estimate: dict[str, Any] | None = None) -> HTMLResponse:
    """The Go widget for this viewer. `error` is the sentence of a refused action; `retry`
    asks the view to send a move again (or to ask for the computer's reply again) after
    `seconds`; `review` shows the position after that many moves; `analysis` is the
    computer's view of the position shown, as its move (`analysis`) or as a score estimate
    (`estimate`: its ownership marked on the board, its lead in words)."""
    data = record.data
    options = data["options"]
    game = load(data)
    total = len(game.moves)
    record_only = bool(data.get("review_only"))
    if review is not None:
        review = min(review, total)
    elif record_only:
        review = total
    reviewing = review is not None and (review < total or record_only)
    shown = position_at(data, review) if reviewing and review is not None \
        and review < total else game
    seats = table(request, games, record, caller)
    you = seats["you"]
    computer = computer_colour(options)
    live = not reviewing and not record_only
    thinking = live and game.status == "playing" and game.to_move == computer \
        and retry is None
    picture = board_picture(shown, playable=live and game.to_move in you and not thinking,
                            may_mark=bool(you) and live,
                            line=analysis["line"] if analysis else None,
                            ownership=estimate["ownership"] if estimate else None)
    moves = move_list(data)
    current = review if reviewing and review is not None else total
    mistakes = go_review.drops(data, moves)
    passed = bool(moves) and moves[-1]["move"] == "pass" and game.status == "playing"
    info = (data.get("record") or {}).get("info") or {}
    comments = (data.get("record") or {}).get("comments") or {}
    view = games.view(record)
    focus_index = next((p["index"] for p in picture["points"] if p["name"] == shown.last_move),
                       (game.size * game.size) // 2)
    if reviewing:
        step = move_words(moves[current - 1]) if current else "The start of the game."
        status = f"Move {current} of {total}: {step}"
    elif record_only:
        status = result_text(view.result) if view.result else "An imported record."
    else:
        status = status_text(game, you, computer, options["opponent"], data.get("names"))
    over = view.status == "over"
    context = {
        "game": record, "go": game, "shown": shown, "board": picture, "focus": focus_index,
        "status": status, "error": error, "sizes": UI_SIZES, "table": seats,
        "clock_options": CLOCKS, "accepted": set(data.get("accepted", [])) & you,
        "pass_warning": pass_warning(game, you, options["opponent"]),
        "notice": notice(error, retry, thinking, reviewing, game, passed,
                         scoring_hint(game, you, data.get("accepted", [])) if live else None),
        "score": view.state.get("score") if live else None,
        "options": options, "computer": computer, "opponents": OPPONENT_WORDS,
        "thinking": thinking, "levels": LEVELS, "budget": level_seconds(options["level"]),
        "graph": graph(data, total, current, view.status == "over", mistakes),
        "review": review_words(data, mistakes, shown, current, bool(you)),
        "mistakes": mistakes,
        "tally": tally(games, caller.browser or "", "go"), "retry": retry,
        "moves": moves, "current": current, "total": total, "reviewing": reviewing,
        "record_only": record_only, "live": live, "info": info,
        "comment": comments.get(str(current)), "analysis": analysis,
        "estimate": estimate_words(shown, estimate) if estimate else None,
        "over": over,
        # The result's styling for this viewer: won, lost, or neutral (a draw, a watcher,
        # both sides at one screen, a record); none while the game goes on or in review.
        "outcome": outcome(view.result, you if live else set()) if over and not reviewing
        else None,
        "announce": move_words(moves[-1]) if moves else "",
        "last_move": moves[-1]["move"] if moves else "",
        "last_mover": moves[-1]["colour"] if moves else "",
        "refresh": f"/ui/go/{record.id}" + (f"?move={current}" if reviewing else ""),
    }
    if reviewing:  # a refresh (a review's progress) keeps what the player asked for here
        context["refresh"] += "&analyse=on" * bool(analysis) + "&estimate=on" * bool(estimate)
    return templates.TemplateResponse(request, "go/_game.html", context)


def graph(data: dict[str, Any], total: int, current: int, over: bool,
          mistakes: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    """The win-rate graph: black's chances by position once a review has begun, else the
    computer's estimate of its own chances, move by move, while it played. A finished game
    always has one, empty until a review draws in it ("waiting"): a review that starts
    moves nothing below."""
    review = data.get("review")
    estimates = [(entry["move"] + 1, entry["win_rate"]) for entry in data.get("analysis") or []]
    if review or (over and not estimates):
        shares = [(n, position[0]) for n, position in enumerate(review["positions"])] \
            if review else []
        drawn = win_rate_graph(shares, total, current, marks=set(mistakes), frame=True)
        subject = "Black's winning chances by move, by the computer's review"
    else:
        drawn = win_rate_graph(estimates, total, current)
        subject = "The computer's winning chances by move, by its own estimate"
    return {**drawn, "subject": subject, "review": bool(review),
            "waiting": not review and not estimates} if drawn else None


def review_words(data: dict[str, Any], mistakes: dict[int, dict[str, Any]], shown: Game,
                 current: int, seated: bool) -> dict[str, Any]:
    """The whole-game review's box: its state ("none", "running", "stale", "stopped",
    "done"), a sentence of how far it has come, what it says of the move shown ("here"),
    whether this viewer is offered the button (a seat, with no review running or done),
    and, while it runs,
    when to look again if no progress has come (`wait`: then it has gone stale)."""
    review = data.get("review")
    now = time.time()
    state = go_review.state(review, now)
    words: dict[str, Any] = {"state": state,
                             "may_ask": seated and state in ("none", "stale", "stopped"),
                             "here": None, "wait": None}
    if review is None:
        return words
    done, to = len(review["positions"]), review["to"]
    words.update(done=done, to=to)
    if state == "running":
        left = (to - done) * go_review.REVIEW_SECONDS * 1.2
        words["line"] = (f"The computer is reviewing the game: {done} of {to} positions, "
                         f"about {max(5, 5 * math.ceil(left / 5))} seconds left.")
        words["wait"] = max(1, math.ceil(go_review.STALE_SECONDS - (now - review["updated"])))
    elif state in ("stale", "stopped"):
        why = review.get("stopped") or "The review stopped part-way (its server restarted)."
        words["line"] = f"{why} It had read {done} of {to} positions."
    else:
        count = len(mistakes)
        said = "One move" if count == 1 else f"{count} moves"
        words["line"] = f"Reviewed: {to} positions. " + (
            f"{said} cost 15 points or more: ringed on the graph, ? in the list." if count
            else "No move cost its side 15 points of its chances.")
    if current in mistakes:
        mistake = mistakes[current]
        side = mistake["colour"]
        words["here"] = (f"Move {current}, {side} {mistake['move']}, cost {side} "
                         f"{round(100 * mistake['drop'])} points ({round(100 * mistake['before'])}"
                         f"% to {round(100 * mistake['after'])}%); the computer preferred "
                         f"{choice(mistake['preferred'])}.")
    elif current < done:
        share, preferred = review["positions"][current]
        # The side to move there (a finished game shown as it ended has none).
        to_move = shown.to_move or position_at(data, current).to_move
        words["here"] = (f"Black's chances here: {round(100 * share)}%; the computer would "
                         f"play {choice(preferred)}" + (f" as {to_move}." if to_move else "."))
    return words


def choice(move: str) -> str:
    """The computer's preferred move in a sentence: "D4", "a pass"."""
    return "a pass" if move == "pass" else move


def estimate_words(game: Game, estimate: dict[str, Any]) -> dict[str, str]:
    """A score estimate of `game`'s position in words: who is ahead ("headline") and the
    area its marks add up to (go_board.estimated_count), komi counted, with the points it
    leaves in the balance ("detail")."""
    count = estimated_count(game, estimate["ownership"])
    lead = count["black"] - count["white"] - game.komi
    side = "Black" if lead > 0 else "White"
    komi = f" + {game.komi:g} komi" if game.komi else ""
    unsure = count["unsure"]
    balance = f", {unsure} in the balance" if unsure else ""
    return {"headline": f"{side} ahead by {abs(lead):g}" if lead else "Even",
            "detail": f"{count['black']} points to {count['white']}{komi}{balance}, by the "
                      f"computer's estimate ({estimate['playouts']:,} playouts)."}


def level_seconds(level: str) -> float:
    """The thinking time a level allows per move (shown while the computer thinks)."""
    return float(SEARCH_LEVELS[level].seconds or 0)


@router.get("/{game_id}", response_class=HTMLResponse)
async def game_fragment(request: Request, record: GoRecord, games: Service, caller: Asker,
                        move: Annotated[int | None, Query(ge=0, le=MAX_MOVES)] = None,
                        analyse: Annotated[str | None, Query(max_length=4)] = None,
                        estimate: Annotated[str | None, Query(max_length=4)] = None,
                        line: str | None = None) -> HTMLResponse:
    """The widget, live or in review (`move`), with the computer's analysis of the position
    shown if asked (a search of about a second in the worker pool): `analyse=on`, the move
    it would play; `estimate=on`, the score it expects, live or in review. An imported
    record on one of its lines (`line`, a variation: go_record.on_line)."""
    record = await run_in_threadpool(games.expire, record)
    analysis = estimated = None
    record, error = go_record.on_line(record, line)  # [point 10: review] variations
    if "on" in (analyse, estimate):
        total = len(record.data["game"]["moves"])
        analyst: Analyst = request.app.state.analyst
        try:
            read = await analyst.analyse(record.data, total if move is None else
                                         min(move, total), caller.address)
            analysis, estimated = (read, None) if analyse == "on" else (None, read)
        except ApiError as refusal:
            error = refusal.detail
        if analyse == "on" and move is None and not record.data.get("review_only"):
            move = total  # the computer's move is shown in review, at the position analysed
    return render_game(request, games, record, caller, error, review=move, analysis=analysis,
                       estimate=estimated)


@router.post("/{game_id}/moves", response_class=HTMLResponse)
def play(request: Request, record: GoRecord, games: Service, caller: Asker,
         move: Annotated[str, Form(max_length=MAX_MOVE_LENGTH)],
         version: Annotated[int, Form()]) -> HTMLResponse:
    """Plays the human's move; the computer's reply is asked for by the view (reply below).
    When the computer could not think now, the move is not played: the view says so and
    sends it again by itself after Retry-After."""
    actor = games.actor(record, caller)
    try:
        ticket = games.admit_search(record, move) if actor.seated else None
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


@router.post("/{game_id}/name", response_class=HTMLResponse)
def name_seats(request: Request, record: GoRecord, games: Service, caller: Asker,
               name: Annotated[str, Form(max_length=200)]) -> Response:
    """The name form: names the player's seats and has the browser remember the name."""
    after, chosen, error = name_step(games, record, caller, name)
    return remember_name(render_game(request, games, after, caller, error), chosen)


@router.post("/{game_id}/review", response_class=HTMLResponse)
async def ask_review(request: Request, record: GoRecord, games: Service, caller: Asker,
                     move: Annotated[int | None, Form(ge=0, le=MAX_MOVES)] = None
                     ) -> HTMLResponse:
    """Asks for the whole-game review (go_review.Reviewer.ask), showing the move the player
    was looking at; a refusal is said in the notice line."""
    reviewer: go_review.Reviewer = request.app.state.reviewer
    error = None
    try:
        record = await reviewer.ask(record, caller)
    except ApiError as refusal:
        error = refusal.detail
    return await run_in_threadpool(render_game, request, games, record, caller, error,
                                   review=move)


@router.post("/{game_id}/rematch", response_model=None)
def rematch(request: Request, record: GoRecord, games: Service, caller: Asker) -> Response:
    """Offers or starts the rematch; once it has started, the player is taken to it."""
    after, started, error = rematch_step(games, record, caller)
    if started:
        return navigate_to(started)
    return render_game(request, games, after, caller, error)


@router.post("/{game_id}/branch", response_model=None)
def branch_game(request: Request, record: GoRecord, games: Service, caller: Asker,
                move: Annotated[int, Form(ge=0, le=MAX_MOVES)],
                opponent: Annotated[str, Form(max_length=20)],
                clock: ClockForm,
                level: Annotated[str, Form(max_length=20)] = "medium",
                human: Annotated[str, Form(max_length=20)] = "black") -> Response:
    """Continue from the position shown: a new game of the caller's from it."""
    options = {"opponent": opponent, "level": level, "human": human, **clock}
    try:
        data = branch(record.data, move, options, games.rng())
        created = games.create_from_data("go", data, caller)
    except ApiError as refusal:
        return message(request, refusal.detail)
    return navigate_to(f"/go/{created.record.id}")


def message(request: Request, text: str) -> HTMLResponse:
    return templates.TemplateResponse(request, "go/_message.html", {"text": text})


@router.post("/new", response_model=None)
def new_game(request: Request, games: Service, caller: Asker,
             size: Annotated[str, Form(max_length=8)],
             handicap: Annotated[str, Form(max_length=8)],
             opponent: Annotated[str, Form(max_length=20)],
             clock: ClockForm,
             level: Annotated[str, Form(max_length=20)] = "medium",
             human: Annotated[str, Form(max_length=20)] = "black",
             komi: Annotated[str, Form(max_length=20)] = "") -> Response:
    # Level and "You play" are not sent against a person (the form disables them).
    options = {"size": size, "handicap": handicap, "komi": komi or None,
               "opponent": opponent, "level": level, "human": human, **clock}
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
        built = await go_record.import_sgf(games.pool, data)
    except ApiError as refusal:
        name = quoted(sgf.filename) if sgf.filename else "the file"
        return message(request, f"Could not open {name}: {refusal.detail}")
    created = await run_in_threadpool(games.create_from_data, "go", built, caller)
    return navigate_to(f"/go/{created.record.id}?move=0")  # [point 10] a record opens at its start
