"""The analysis commands as the Go GUIs read them: Leela Zero's `lz-analyze` the way Lizzie
parses it, KataGo's `kata-analyze` the way Sabaki parses it, the genmove variants, GoGui's
analyze menu and its board types - and a live analysis stopping as soon as the next command
comes, through the real console script.

Start with `test_lz_analyze_reads_as_lizzie_reads_it`. The parsers below are written from the
formats the GUIs read (app/gtp/analysis.py describes them), each as strict as its GUI: Lizzie
takes `winrate`, `prior` and `lcb` with Java's Integer.parseInt; Sabaki tells a fraction from
an integer by its decimal point and reads the line the search expects as the vertices after
`pv`; GoGui reads a `dboard` top row first.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.engine.go import Game
from app.engine.go.mcts import MctsPlayer
from app.engine.go.mcts import player as player_module
from app.engine.go.mcts.analysis import lower_bound
from app.gtp.main import GtpEngine
from app.gtp.session import PlayerSettings

from .test_gtp_process import ROOT, gtp_command

VERTEX = re.compile(r"(?:[A-HJ-T](?:[1-9]|1[0-9])|pass)")
STREAM_TIMEOUT = 60.0  # seconds a stream may take to give the lines a test waits for


# -- the GUIs' parsers --------------------------------------------------------------------------


@dataclass
class Candidate:
    move: str
    visits: int
    win_rate: float  # 0..1
    prior: float  # 0..1
    lcb: float
    order: int
    pv: list[str]


def lizzie_parse(line: str) -> list[Candidate]:
    """As Lizzie's Leelaz/MoveData read an lz-analyze line: split at " info ", then key/value
    pairs, integers only (Integer.parseInt), until "pv", whose vertices run to the end."""
    assert line.startswith("info ")
    candidates = []
    for chunk in line[len("info "):].split(" info "):
        data = chunk.strip().split(" ")
        values: dict[str, str] = {}
        pv: list[str] = []
        i = 0
        while i < len(data):
            if data[i] == "pv":
                pv = data[i + 1:]
                break
            values[data[i]] = data[i + 1]
            i += 2
        for key in ("visits", "winrate", "prior", "lcb", "order"):
            assert re.fullmatch(r"\d+", values[key]), (key, values[key])  # Integer.parseInt
        assert all(VERTEX.fullmatch(v) for v in pv), pv
        candidates.append(Candidate(values["move"], int(values["visits"]),
                                    int(values["winrate"]) / 10000, int(values["prior"]) / 10000,
                                    int(values["lcb"]) / 10000, int(values["order"]), pv))
    return candidates


def sabaki_parse(line: str, size: int) -> tuple[list[Candidate], list[float] | None]:
    """As Sabaki reads a kata-analyze (or lz-analyze) line: the ownership values after
    "ownership" come off the end, the rest splits at "info"; in each group the vertices after
    "pv" are the variation and the words before are key/value pairs; a win rate with a decimal
    point is a fraction, one without is in 1/10000."""
    ownership = None
    if " ownership " in line:
        line, tail = line.split(" ownership ")
        ownership = [float(v) for v in tail.split()]
        assert len(ownership) == size * size
    if " rootInfo " in line:
        line = line.split(" rootInfo ")[0]
    candidates = []
    for group in re.split(r"\s*info\s+", line)[1:]:
        head, _, tail = group.partition(" pv ")
        pv = tail.split()
        assert pv and all(VERTEX.fullmatch(v) for v in pv), group
        words = head.split()
        values = dict(zip(words[::2], words[1::2], strict=True))

        def fraction(text: str) -> float:
            return float(text) if "." in text else int(text) / 10000

        candidates.append(Candidate(values["move"], int(values["visits"]),
                                    fraction(values["winrate"]), fraction(values["prior"]),
                                    fraction(values["lcb"]), int(values["order"]), pv))
    return candidates, ownership


def gogui_double_board(response: str, size: int) -> dict[str, float]:
    """GoGui's parseDoubleBoard: `size` lines of `size` numbers, the top row first; keyed by
    vertex."""
    rows = [line.split() for line in response.split("\n") if line.strip()]
    assert len(rows) == size and all(len(row) == size for row in rows)
    letters = "ABCDEFGHJKLMNOPQRST"[:size]
    return {f"{letters[x]}{size - y}": float(rows[y][x]) for y in range(size) for x in range(size)}


def gogui_variation(response: str, to_move: str) -> list[tuple[str, str]]:
    """GoGui's parseVariation: colours and points, a point without a colour alternating."""
    moves = []
    color = to_move
    explicit = True
    for token in response.split():
        if token.lower() in ("b", "black", "w", "white"):
            color, explicit = token[0].lower(), True
            continue
        if not explicit:
            color = "w" if color == "b" else "b"
        assert VERTEX.fullmatch(token), token
        moves.append((color, token))
        explicit = False
    return moves


# -- running a stream in-process ----------------------------------------------------------------


def stream(engine: GtpEngine, command: str, lines_wanted: int) -> list[str]:
    """The reply to `command` with the next command taken to come once it has written
    `lines_wanted` lines after its "=" line: the reply's lines, the terminating empty one
    included."""
    pieces: list[str] = []
    began = time.monotonic()

    def written() -> int:
        return "".join(pieces).count("\n") - 1

    def interrupted() -> bool:
        assert time.monotonic() - began < STREAM_TIMEOUT, "the stream gave too few lines"
        return written() >= lines_wanted

    assert engine.respond(command, pieces.append, interrupted)
    return "".join(pieces).split("\n")[:-1]


def engine_with(moves: list[str], size: int = 9, seed: int = 5) -> GtpEngine:
    engine = GtpEngine(PlayerSettings(seconds=0.2, seed=seed))
    assert engine.handle(f"boardsize {size}") == "=\n\n"
    assert engine.handle("komi 7") == "=\n\n"
    for i, move in enumerate(moves):
        color = "b" if i % 2 == 0 else "w"
        assert engine.handle(f"play {color} {move}") == "=\n\n", move
    return engine


def check_candidates(candidates: list[Candidate]) -> None:
    assert candidates
    assert [c.order for c in candidates] == list(range(len(candidates)))
    assert [c.visits for c in candidates] == sorted((c.visits for c in candidates),
                                                    reverse=True)
    assert len({c.move for c in candidates}) == len(candidates)
    for c in candidates:
        assert c.visits > 0 and 0 <= c.lcb <= c.win_rate <= 1 and 0 <= c.prior <= 1
        assert c.pv[0] == c.move


# -- Leela Zero's and KataGo's live analysis ---------------------------------------------------


def test_lz_analyze_reads_as_lizzie_reads_it() -> None:
    """Lizzie sends `lz-analyze <interval>` with an id: the "=id" line, then lines of integer
    readings that grow, and the empty line when the next command comes."""
    engine = engine_with(["E5", "C3"])
    reply = stream(engine, "7 lz-analyze 2", 4)
    assert reply[0] == "=7" and reply[-1] == ""
    lines = reply[1:-1]
    assert len(lines) == 4 and all(line.startswith("info move ") for line in lines)
    parsed = [lizzie_parse(line) for line in lines]
    for candidates in parsed:
        check_candidates(candidates)
    totals = [sum(c.visits for c in candidates) for candidates in parsed]
    assert totals == sorted(totals) and totals[-1] > totals[0]  # the reading grows
    assert engine.game.moves == ["E5", "C3"]  # analysis plays nothing


def test_kata_analyze_reads_as_sabaki_reads_it() -> None:
    """Sabaki sends `kata-analyze <colour> <interval> ownership true`: fractions, and the
    ownership map from the side to move's view, which the GUI turns into territory."""
    # Black walls off the top two rows; white the bottom two; white to move.
    black = ["A7", "B7", "C7", "D7", "E7", "F7", "G7", "H7", "J7"]
    white = ["A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3", "J3"]
    moves = [m for pair in zip(black, white, strict=True) for m in pair]
    engine = engine_with(moves)
    reply = stream(engine, "kata-analyze W 3 ownership true rootInfo true", 2)
    assert reply[0] == "=" and reply[-1] == ""
    for line in reply[1:-1]:
        assert "winrate 0." in line or "winrate 1." in line  # fractions, as KataGo writes them
        candidates, ownership = sabaki_parse(line, 9)
        check_candidates(candidates)
        assert ownership is not None
        assert re.search(r" rootInfo visits \d+ winrate [01]\.\d+ scoreLead -?\d+\.\d+", line)
    # White's view: the top row (A9 first) is black's, the bottom row white's.
    assert all(v < -0.5 for v in ownership[:9]), ownership[:9]
    assert all(v > 0.5 for v in ownership[-9:]), ownership[-9:]


def test_minmoves_and_maxmoves_bound_the_candidates() -> None:
    engine = engine_with(["E5"])
    few = lizzie_parse(stream(engine, "lz-analyze w 2 maxmoves 2", 2)[2])
    assert 1 <= len(few) <= 2
    many = sabaki_parse(stream(engine, "kata-analyze w 2 minmoves 40", 1)[1], 9)[0]
    assert len(many) >= 40  # unvisited moves join, by prior, with 0 visits
    assert all(c.visits >= 0 for c in many)


def test_the_capture_leads_the_reading() -> None:
    """A stone in atari that saves the game: the capture is the most visited candidate."""
    # White's E5 stone is in atari (black on D5, F5, E4); black to move takes it at E6.
    engine = engine_with(["D5", "E5", "F5", "A1", "E4", "J9"])
    candidates = lizzie_parse(stream(engine, "lz-analyze b 20", 3)[3])
    assert candidates[0].move == "E6"


def test_genmove_analyze_streams_then_plays(tmp_path: Path) -> None:
    """`lz-genmove_analyze` / `kata-genmove_analyze`: reading lines while it thinks, then
    "play <vertex>"; the move is on the board."""
    engine = engine_with(["E5"])
    # A playout budget, not a time: a search decided early stops early, and under load a
    # timed one could end before its first 0.1 s line (the first line waits an interval).
    engine.session.settings = PlayerSettings(seconds=None, playouts=3000, seed=3)
    pieces: list[str] = []
    assert engine.respond("3 kata-genmove_analyze w 10", pieces.append, lambda: True)
    reply = "".join(pieces).split("\n")
    assert reply[0] == "=3" and reply[-2:] == ["", ""]
    infos, last = reply[1:-3], reply[-3]
    assert infos, reply
    for line in infos:
        check_candidates(sabaki_parse(line, 9)[0])
    played = re.fullmatch(r"play (\S+)", last)
    assert played is not None and VERTEX.fullmatch(played[1])
    assert engine.game.moves == ["E5", played[1]]


# -- GoGui ------------------------------------------------------------------------------------


def test_gogui_menu_and_its_answers() -> None:
    engine = engine_with(["A7", "A3", "B7", "B3", "C7", "C3", "D7", "D3", "E7", "E3", "F7", "F3",
                          "G7", "G3", "H7", "H3", "J7", "J3"])
    menu = engine.handle("gogui-analyze_commands")
    assert menu is not None
    entries = [line.split("/") for line in menu[2:-2].split("\n")]
    assert {kind for kind, _, _ in entries} == {"dboard", "var", "gfx", "string"}
    for _, _, command in entries:  # every entry is a command the engine knows
        assert engine.handle(f"known_command {command}") == "= true\n\n"
    ownership = engine.handle("tabletop-ownership")
    assert ownership is not None and ownership.startswith("= ")
    board = gogui_double_board(ownership[2:-2], 9)
    assert board["A9"] > 0.5 and board["J8"] > 0.5  # black's rows, top first
    assert board["A1"] < -0.5 and board["J2"] < -0.5
    pv = engine.handle("tabletop-pv")
    assert pv is not None
    line = gogui_variation(pv[2:-2], "b")
    assert line and [c for c, _ in line] == ["b", "w"] * (len(line) // 2) + ["b"] * (len(line) % 2)
    values = engine.handle("tabletop-move_values")
    assert values is not None
    label, text = values[2:-2].split("\n")
    words = label.split()
    assert words[0] == "LABEL" and len(words) % 2 == 1
    assert all(VERTEX.fullmatch(v) and 0 <= int(p) <= 100
               for v, p in zip(words[1::2], words[2::2], strict=True))
    assert text.startswith("TEXT Black to move: ")
    # The four answers come from one search of the position, remembered.
    assert engine.handle("tabletop-pv") == pv
    summary = engine.handle("tabletop-winrate")
    assert summary is not None and summary[2:-2] == text[len("TEXT "):]


# -- the engine underneath ---------------------------------------------------------------------


def test_lower_bound() -> None:
    assert lower_bound(0.5, 0) == 0.0
    assert lower_bound(0.5, 100) == pytest.approx(0.5 - 1.96 * 0.05)
    assert lower_bound(0.01, 2) == 0.0  # clamped


def test_ponder_stops_growing_at_its_node_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long analysis cannot take the machine's memory: past the cap the tree stops growing
    while the command goes on waiting for the next one."""
    monkeypatch.setattr(player_module, "PONDER_MAX_NODES", 20_000)
    player = MctsPlayer(seconds=1.0, seed=2)
    game = Game(9)
    game.play("E5")
    readings = []
    began = time.monotonic()
    player.ponder(game, readings.append, 0.05, lambda: time.monotonic() - began > 1.5)
    tree = player._tree
    assert tree is not None and tree.size <= 20_000
    assert len(readings) >= 10
    assert readings[-1].visits == readings[-4].visits  # no simulations once it is full


def test_ponder_reports_only_legal_moves_and_keeps_its_tree() -> None:
    """White may not retake the ko at once; the reading never offers it, and a genmove after
    the analysis goes on from its tree."""
    game = Game(5, 0.5)
    # Black's C2 takes white's B2 stone; white may not take back at B2 at once.
    for move in ["A2", "B2", "B3", "C3", "B1", "D2", "E5", "C1", "C2"]:
        game.play(move)
    assert not game.is_legal("B2")
    player = MctsPlayer(seconds=0.3, seed=4)
    readings: list = []
    began = time.monotonic()
    player.ponder(game, readings.append, 0.05, lambda: time.monotonic() - began > 0.4)
    legal = set(game.legal_moves()) | {"pass"}
    assert readings and all(m.move in legal for r in readings for m in r.moves)
    visits = player._tree.root_visits if player._tree is not None else 0
    player.genmove(game)
    assert player.carried_over == visits > 0


# -- the console script: stopping when the next command comes ----------------------------------


def test_kata_analyze_stops_within_100_ms_of_the_next_command() -> None:
    """Through the real script on stdin/stdout: after the reply has begun streaming, `name`
    is sent; the reply's terminating empty line must arrive within 100 ms (median of five;
    none over 500 ms), and `name` is then answered."""
    process = subprocess.Popen(gtp_command("--time", "1"), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, bufsize=1, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None
    lines: list[tuple[float, str]] = []
    arrived = threading.Condition()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            with arrived:
                lines.append((time.perf_counter(), line.rstrip("\n")))
                arrived.notify_all()

    threading.Thread(target=read, daemon=True).start()

    def send(command: str) -> float:
        assert process.stdin is not None
        process.stdin.write(command + "\n")
        process.stdin.flush()
        return time.perf_counter()

    def wait_for(test: Callable[[list[tuple[float, str]]], bool]) -> None:
        with arrived:
            assert arrived.wait_for(lambda: test(lines), timeout=120), lines[-5:]

    try:
        send("boardsize 19")
        send("play b Q16")
        wait_for(lambda got: len(got) >= 4)
        delays = []
        for attempt in range(5):
            start = len(lines)
            send(f"{attempt + 10} kata-analyze W 5 ownership true")
            wait_for(lambda got, s=start: sum(t.startswith("info") for _, t in got[s:]) >= 2)
            mark = len(lines)
            sent = send(f"{attempt + 20} name")
            answer = f"={attempt + 20} Tabletop"
            wait_for(lambda got, m=mark, a=answer: any(t == a for _, t in got[m:]))
            ended = next(at for at, text in lines[mark:] if text == "")
            delays.append(ended - sent)
        assert statistics.median(delays) < 0.1, delays
        assert max(delays) < 0.5, delays
    finally:
        send("quit")
        process.wait(timeout=30)
