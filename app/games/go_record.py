"""A Go game's record: SGF in (in a worker) and out, the moves as a list to step through, the
position after any move, and a new game branched from one.

Start at `read_sgf`. An imported record becomes a game for review — its data carries
{"record": {"info", "comments", "tree", "inserted_passes"}, "review_only": true} — which
nobody plays on directly (the adapter refuses moves: app/games/go.py); a player steps
through it and continues from any position with `branch`, a new game against the computer,
a friend or at one screen. The record travels with the branch, so `sgf_text` writes the
original tree back with every variation, the new moves added as a variation where they
left it. The moves themselves are the engine's (app/engine/go): `position_at` replays the
first N of them, `move_list` numbers them with their captures.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import random
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app import jobs
from app.engine.go import Game, GoError, write_record
from app.errors import Conflict, IllegalMove, refusal
from app.games.clock import new_clock
from app.games.go import SGF_COLOURS, SIDES, GoOptions
from app.games.options import read
from app.pool import WorkerPool

if TYPE_CHECKING:
    from app.store import GameRecord

MAX_MOVES = 2_000  # the engine's bound on a record's main line (app/engine/go/sgf.py)
SGF_SECONDS = 0.3  # reading the largest record accepted (1 MB) takes about a quarter second
SGF_DEADLINE = 10.0
MAX_LINE_CHARS = 400  # a variation's path in a URL: dozens of choices, more than any record
MAX_CHOICES = 40  # nested choices in one path; editors rarely nest more than a few
# A path: the choice at each branching move, "13.1-20.2": at move 13 the record's second
# variation (0 is the first, the main line's), then at move 20 its third.
LINE = re.compile(r"[0-9]{1,4}\.[0-9]{1,3}(?:-[0-9]{1,4}\.[0-9]{1,3})*")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
ENGINE_NAME = "Tabletop"  # the computer player, as an exported record names it
# The game information (app/engine/go/sgf.py's INFO_PROPERTIES keys) that describes a
# record's game — who played it, where, when, with what result — rather than its rules.
DESCRIPTION = ("black", "white", "black_rank", "white_rank", "date", "result", "event",
               "round", "place", "name")


def read_sgf(text: bytes) -> dict[str, Any]:
    """An SGF record as a new review game's data, read here (see import_sgf for the pool);
    IllegalMove if the engine refuses it."""
    return review_data(jobs.read_sgf(text))


async def import_sgf(pool: WorkerPool, text: bytes) -> dict[str, Any]:
    """The data of a new review game from an SGF record, read in the worker pool."""
    ticket = pool.admit(SGF_SECONDS, "The server is busy; the record was not opened. "
                                     "Try again in a few seconds.")
    return review_data(await pool.run(ticket, jobs.read_sgf, text, SGF_DEADLINE))


def review_data(read: dict[str, Any]) -> dict[str, Any]:
    """A review game's data from what app/jobs.py read_sgf made of a record."""
    if "error" in read:
        code, message = read["error"]
        raise IllegalMove(message, code=code)
    game = read["game"]
    options = GoOptions(opponent="local", size=game["size"], komi=game["komi"],
                        handicap=game["handicap"]).model_dump()
    return {"options": options, "game": game, "analysis": [], "rated": False,
            "accepted": [], "clock": None, "review_only": True,
            "record": {key: read[key] for key in ("info", "comments", "tree",
                                                  "inserted_passes", "variations")}}


def position_at(data: dict[str, Any], moves: int) -> Game:
    """The game as it stood after its first `moves` moves (0: the start)."""
    stored = {key: value for key, value in data["game"].items()
              if key not in ("dead", "accepted", "ended")}
    stored["moves"] = list(data["game"]["moves"][:moves])
    return Game.from_dict(stored)


def move_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every move: its number (1-based), colour, vertex ("pass", "resign") and how many
    stones it captured."""
    start = dict(data["game"], moves=[])
    start.pop("dead", None)
    start.pop("accepted", None)
    start.pop("ended", None)
    game = Game.from_dict(start)
    listed = []
    for number, move in enumerate(data["game"]["moves"], start=1):
        colour = game.to_move or "black"
        captured = game.play(move)
        listed.append({"number": number, "colour": colour, "move": move,
                       "captures": len(captured)})
        if game.status != "playing":
            break
    return listed


def branch(data: dict[str, Any], moves: int, options: Mapping[str, Any],
           rng: random.Random) -> dict[str, Any]:
    """A new game's data: the position after `moves` moves of this game, the record kept
    (so its SGF keeps every variation), to be played with `options` (opponent, level,
    human, clock)."""
    total = len(data["game"]["moves"])
    if not 0 <= moves <= total:
        raise IllegalMove(f"A position is a move number from 0 to {total}, not {moves}.",
                          code="no_such_move")
    fixed = {key: data["options"][key] for key in ("size", "komi", "handicap")}
    chosen = read(GoOptions, {**options, **fixed}).model_dump()  # the board stays the board
    if chosen["human"] == "random":
        chosen["human"] = rng.choice(SIDES)
    try:
        game = position_at(data, moves)
    except GoError as error:
        raise refusal(error) from None
    if game.status != "playing":
        raise Conflict("Play had stopped at that move; pick an earlier one to continue.",
                       code="game_over")
    record = copy.deepcopy(data.get("record") or {})
    record["branch"] = moves
    # Who played the record, and where and when, describe the record, not this game: its
    # players are its seats (the SGF names them), the record's are kept to be shown.
    info = record.get("info") or {}
    described = {key: info[key] for key in DESCRIPTION if key in info}
    if described:
        record["from"] = described
    record["info"] = {key: value for key, value in info.items() if key not in DESCRIPTION}
    return {"options": chosen, "game": game.to_dict(), "rated": False, "accepted": [],
            "analysis": [a for a in data.get("analysis", []) if a["move"] < moves],
            "clock": new_clock(SIDES, chosen["minutes"], chosen["increment"]),
            "record": record}


def player_names(options: Mapping[str, Any],
                 chosen: Mapping[str, str] | None = None) -> dict[str, str]:
    """Who plays each colour of a game played here, as its SGF names them (PB, PW): the
    computer as this site's engine at its level, "Tabletop (strong)"; a person by the name
    they chose for their seat (`chosen`, the game's "names"), else by colour."""
    names = {"black": "Black", "white": "White"}
    names.update((seat, name) for seat, name in (chosen or {}).items() if seat in names)
    if options.get("opponent") == "computer":
        computer = "white" if options.get("human") == "black" else "black"
        names[computer] = f"{ENGINE_NAME} ({options.get('level', 'medium')})"
    return names


def sgf_text(data: dict[str, Any], date: datetime.date) -> str:
    """The game as an SGF record: with an imported record, its whole tree — variations,
    comments — with this game's moves added where they leave it. A record is written with
    its own names, date and result; a game played here (one continued from a record too)
    with its players (`player_names`), its date (`date`), its result and, once a score
    was accepted, each side's territory (TB/TW, app/engine/go/sgf.py)."""
    game = Game.from_dict(data["game"])
    record = data.get("record") or {}
    info = dict(record.get("info") or {})
    if data.get("review_only"):
        info.setdefault("black", "Black")
        info.setdefault("white", "White")
        day = info.get("date") or date.isoformat()
    else:  # the record's description is removed from the tree's root, replaced by ours
        info.update(dict.fromkeys(DESCRIPTION, ""),
                    **player_names(data["options"], data.get("names")))
        info["result"] = game.result["text"] if game.result is not None else ""
        day = date.isoformat()

    comments = {int(number): text for number, text in (record.get("comments") or {}).items()}
    text: str = write_record(game, tree=record.get("tree"), info=info, comments=comments,
                             date=day)
    return text


def read_line(text: str) -> list[tuple[int, int]]:
    """A variation's path ("13.1-20.2", see LINE) as (move, choice) pairs, moves rising."""
    if len(text) > MAX_LINE_CHARS or not LINE.fullmatch(text):
        raise IllegalMove("A variation is written as move.choice pairs such as 13.1-20.2 "
                          f"(at most {MAX_LINE_CHARS} characters); that one is not, so the "
                          "main line is shown.", code="no_such_line")
    choices = [(int(move), int(choice)) for move, choice in
               (pair.split(".") for pair in text.split("-"))]
    numbers = [move for move, _ in choices]
    if len(choices) > MAX_CHOICES or numbers != sorted(set(numbers)):
        raise IllegalMove(f"A variation is at most {MAX_CHOICES} choices, at rising move "
                          "numbers; that one is not, so the main line is shown.",
                          code="no_such_line")
    return choices


def line_text(choices: list[tuple[int, int]]) -> str:
    return "-".join(f"{move}.{choice}" for move, choice in choices if choice)


def follow_line(data: dict[str, Any], choices: list[tuple[int, int]]) -> dict[str, Any]:
    """The moves of one line of an imported record — the main line, or the variation that
    `choices` picks at its branching moves — with, for every move where the record offers
    more than one, its alternatives: {"moves", "alternatives": {move number: [(choice,
    "B D4"), ...]}, "stopped": a sentence if the line ends early}. A move out of turn gets
    the pass the record left out, as the main line's did; a variation stops before a move
    that cannot be played (illegal, after two passes) or after MAX_MOVES moves. Refuses
    (IllegalMove) choices the line does not offer."""
    node: list[Any] = (data.get("record") or {}).get("variations") or [[], []]
    wanted = dict(choices)
    game = Game.from_dict({key: value for key, value in data["game"].items()
                           if key not in ("dead", "accepted", "ended")} | {"moves": []})
    moves: list[str] = []
    alternatives: dict[int, list[tuple[int, str]]] = {}
    used: set[int] = set()
    stopped = None
    position = 0
    while len(moves) < MAX_MOVES:
        if position >= len(node[0]):
            children = node[1]
            if not children:
                break
            number = len(moves) + 1
            choice = wanted.get(number, 0)
            if choice >= len(children):
                break  # refused below: the choice is not used
            used.add(number)
            if len(children) > 1:
                alternatives[number] = [(k, child[0][0]) for k, child in enumerate(children)]
            node, position = children[choice], 0
            continue
        colour, vertex = node[0][position].split(" ")
        position += 1
        mover = SGF_COLOURS[colour]
        try:
            if game.to_move is not None and game.to_move != mover and moves[-1:] != ["pass"]:
                game.play("pass")  # the record left out the other side's pass
                moves.append("pass")
            game.play(vertex, "black" if colour == "B" else "white")
        except GoError as error:
            stopped = (f"The variation stops before move {len(moves) + 1}, {mover} at "
                       f"{vertex}, which cannot be played here: {error.message}")
            break
        moves.append(vertex)
    unused = sorted(set(wanted) - used)
    if unused:
        raise IllegalMove(f"This line of the record offers no variation {unused[0]}."
                          f"{wanted[unused[0]]}; the main line is shown.",
                          code="no_such_line")
    return {"moves": moves, "alternatives": alternatives, "stopped": stopped}


def on_line(record: GameRecord, line: str | None) -> tuple[GameRecord, str | None]:
    """An imported record as its view shows it on one line (`line`, a path as read_line
    reads it; None or "": the main line): a copy whose moves are that line's, its data
    carrying "line" for templates/go/_review.html — the path, the alternatives at each
    branching move with their links, the way back to the main line. A path the record
    does not offer shows the main line, with the sentence saying so (the second value).
    Other games are returned as they are."""
    data = record.data
    if not data.get("review_only"):
        return record, None
    error = None
    try:
        choices = read_line(line) if line else []
        followed = follow_line(data, choices)
    except IllegalMove as refusal:
        choices, error = [], refusal.detail
        followed = follow_line(data, choices)
    choices = [(move, choice) for move, choice in choices if choice]
    base = f"/go/{record.id}?move="

    def href(number: int, path: list[tuple[int, int]]) -> str:
        text = line_text(path)
        return f"{base}{number}" + (f"&line={text}" if text else "")

    alternatives = {}
    for number, offered in followed["alternatives"].items():
        before = [pair for pair in choices if pair[0] < number]
        chosen = dict(choices).get(number, 0)
        alternatives[number] = [{
            "name": ("main line" if not before else "this line") if k == 0
            else LETTERS[(k - 1) % len(LETTERS)] + ("" if k <= len(LETTERS) else str(k)),
            "colour": SGF_COLOURS[move[0]], "move": move[2:], "current": k == chosen,
            "href": href(number, [*before, (number, k)])} for k, move in offered]
    view = {"path": line_text(choices), "query": f"&line={line_text(choices)}" if choices
            else "", "alternatives": alternatives, "stopped": followed["stopped"],
            "names": [f"{move}{alternative['name']}" for move, choice in choices
                      for alternative in alternatives[move][choice:choice + 1]],
            "main": href(choices[0][0], []) if choices else None}
    shown = dict(data, line=view)
    if choices:  # the variation's moves stand for the game's; comments past its branch go
        shown["game"] = {key: value for key, value in data["game"].items()
                         if key not in ("dead", "accepted", "ended")}
        shown["game"]["moves"] = followed["moves"]
        record_data = dict(data.get("record") or {})
        record_data["comments"] = {number: text for number, text in
                                   (record_data.get("comments") or {}).items()
                                   if int(number) < choices[0][0]}
        shown["record"] = record_data
        review = data.get("review")
        if review:  # the computer's review is of the main line: its positions before the branch
            shared = review["positions"][:choices[0][0]]
            done = len(review["positions"]) >= review["to"]
            shown["review"] = {**review, "positions": shared,
                               "to": len(shared) if done else review["to"]}
    return dataclasses.replace(record, data=shown), error
