"""The GTP engine in-process: a scripted session for every command (tests/data/gtp/transcript.txt,
its format explained at its top), then what a script cannot show - that every command has a
case, internal errors keep the engine alive, genmove's resignations and failures leave the board
alone, the clock shortens the thinking time, and `serve` reads bytes and stops at quit.

Start with `test_transcript`. Player-free checks use a stand-in player (`ScriptedPlayer`) that
answers from a list, so they run without the Monte-Carlo player; the "[player]" cases of the
transcript use the real one with a small playout budget.
"""

from __future__ import annotations

import codecs
import io
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.gtp.clock import MIN_SECONDS, TimeSettings, move_budget
from app.gtp.main import GtpEngine
from app.gtp.protocol import Command, clean_line, serve
from app.gtp.session import PlayerSettings

DATA = Path(__file__).resolve().parent.parent / "data" / "gtp"
TRANSCRIPT = DATA / "transcript.txt"
TRANSCRIPT_PLAYOUTS = 48  # enough for a sensible move, few enough for a fast test


@dataclass
class Exchange:
    command: str
    expected: list[str] = field(default_factory=list)
    line_number: int = 0


@dataclass
class Case:
    title: str
    exchanges: list[Exchange] = field(default_factory=list)


def read_transcript(path: Path) -> list[Case]:
    cases: list[Case] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("##"):
            continue
        if line.startswith("==="):
            cases.append(Case(line[3:].strip()))
        elif line.startswith(">"):
            command = codecs.decode(line[2:], "unicode_escape").replace("{data}", str(DATA))
            cases[-1].exchanges.append(Exchange(command, line_number=number))
        elif line.strip():
            cases[-1].exchanges[-1].expected.append(line)
    return cases


CASES = read_transcript(TRANSCRIPT)


@pytest.mark.parametrize("case", CASES, ids=[case.title for case in CASES])
def test_transcript(case: Case) -> None:
    engine = GtpEngine(PlayerSettings(seconds=None, playouts=TRANSCRIPT_PLAYOUTS, seed=7))
    for exchange in case.exchanges:
        response = engine.handle(exchange.command + "\n")
        where = f"line {exchange.line_number}: {exchange.command!r}"
        if exchange.expected == ["(no reply)"]:
            assert response is None, where
            continue
        assert response is not None and response.endswith("\n\n"), where
        body = response[:-2]
        assert "\n\n" not in body, where
        expected = exchange.expected
        if len(expected) == 1 and expected[0].startswith("~ "):
            assert re.fullmatch(expected[0][2:], body), f"{where} answered {body!r}"
        else:
            assert body == "\n".join(expected), where


def command_name(line: str) -> str | None:
    words = clean_line(line).split()
    if words and words[0].isdigit():
        words = words[1:]
    return words[0] if words else None


def test_every_command_has_a_transcript_case_and_its_errors_too() -> None:
    sent: set[str | None] = set()
    refused: set[str | None] = set()
    for case in CASES:
        for exchange in case.exchanges:
            name = command_name(exchange.command)
            sent.add(name)
            if exchange.expected and exchange.expected[0].startswith("?"):
                refused.add(name)
    commands = set(GtpEngine().commands)
    assert commands <= sent, f"commands without a case: {sorted(commands - sent)}"
    # Every command that takes arguments or can fail is also shown failing.
    never_fail = {"protocol_version", "version", "list_commands", "quit", "showboard"}
    assert commands - never_fail <= refused, sorted(commands - never_fail - refused)


# -- a stand-in player for what the transcript cannot show ---------------------------------------


@dataclass
class StubDecision:
    move: str
    win_rate: float = 0.5
    playouts: int = 0
    seconds: float = 0.0
    principal_variation: list[str] = field(default_factory=list)
    score_lead: float = 0.0


class ScriptedPlayer:
    """Answers genmove from a list of moves (or raises what it is given); records the budgets
    and positions it was asked about."""

    def __init__(self, moves: list[str | Exception], log: list[tuple[float | None, int]]) -> None:
        self.moves = moves
        self.log = log
        self.seconds: float | None = None

    def genmove(self, game: object, report: object = None,
                interval: float = 1.0) -> StubDecision:
        self.log.append((self.seconds, len(game.moves)))  # type: ignore[attr-defined]
        move = self.moves.pop(0)
        if isinstance(move, Exception):
            raise move
        return StubDecision(move)

    def clear(self) -> None:
        pass


def scripted_engine(
    moves: list[str | Exception], settings: PlayerSettings | None = None
) -> tuple[GtpEngine, list[tuple[float | None, int]]]:
    asked: list[tuple[float | None, int]] = []

    def factory(_settings: PlayerSettings) -> ScriptedPlayer:
        return ScriptedPlayer(moves, asked)

    engine = GtpEngine(settings or PlayerSettings(), player_factory=factory)  # type: ignore[arg-type]
    return engine, asked


def send(engine: GtpEngine, *commands: str) -> list[str | None]:
    return [engine.handle(command) for command in commands]


def test_internal_errors_are_reported_and_the_engine_keeps_running() -> None:
    engine = GtpEngine()

    def boom(args: list[str]) -> str:
        raise RuntimeError("boom\nwith a second line")

    engine.commands["showboard"] = Command(boom)
    assert send(engine, "4 showboard", "name") == [
        "?4 internal error: RuntimeError: boom with a second line\n\n",
        "= Tabletop\n\n",
    ]


def test_genmove_plays_the_move_and_undo_takes_it_back() -> None:
    engine, asked = scripted_engine(["D4", "pass"])
    assert send(engine, "boardsize 9", "genmove b", "genmove w") == ["=\n\n", "= D4\n\n",
                                                                     "= pass\n\n"]
    assert engine.game.moves == ["D4", "pass"]
    assert [(pytest.approx(1.0, abs=0.05), 0), (pytest.approx(1.0, abs=0.05), 1)] == asked
    assert send(engine, "undo", "undo", "undo") == ["=\n\n", "=\n\n", "? cannot undo\n\n"]


def test_resigning_changes_nothing_even_for_the_colour_not_to_move() -> None:
    engine, _ = scripted_engine(["resign", "resign"])
    send(engine, "boardsize 9", "play b D4")
    assert send(engine, "genmove w", "genmove b") == ["= resign\n\n", "= resign\n\n"]
    # "genmove b" had inserted a white pass to make black the side to move: it is gone again.
    assert engine.game.moves == ["D4"]
    assert send(engine, "undo", "undo") == ["=\n\n", "? cannot undo\n\n"]


def test_a_failing_player_leaves_the_board_as_it_was() -> None:
    engine, _ = scripted_engine([RuntimeError("no budget"), "Z9", "E5"])
    send(engine, "boardsize 9", "play b D4")
    assert send(engine, "genmove b") == ["? internal error: RuntimeError: no budget\n\n"]
    assert engine.game.moves == ["D4"]
    reply = engine.handle("genmove w")
    assert reply is not None and reply.startswith("? internal error: ")
    assert engine.game.moves == ["D4"]
    assert send(engine, "genmove w") == ["= E5\n\n"]


def test_the_clock_shortens_the_thinking_time() -> None:
    engine, asked = scripted_engine(["C3"] * 6, PlayerSettings(seconds=2.0))
    send(engine, "boardsize 9", "genmove b")
    assert asked[-1][0] == pytest.approx(2.0, abs=0.05)  # no clock: the configured time
    send(engine, "time_settings 60 0 0", "genmove w")  # 60 s for the game: ~2.2 s a move
    # 80 empty points; the few milliseconds since the command arrived come off too
    assert asked[-1][0] == pytest.approx((60 / (80 // 3)) * 0.8 - 0.1, abs=0.05)
    send(engine, "time_left b 3 0", "genmove b")  # 3 s left: hurry
    assert asked[-1][0] == pytest.approx(MIN_SECONDS)
    send(engine, "time_settings 0 10 5", "time_left w 10 5", "genmove w")  # byo-yomi: 2 s/stone
    assert asked[-1][0] == pytest.approx(2 * 0.8 - 0.1, abs=0.05)
    send(engine, "time_settings 0 1 0", "genmove b")  # the spec's "no time limits"
    assert asked[-1][0] == pytest.approx(2.0, abs=0.05)


def test_move_budget() -> None:
    canadian = TimeSettings(main_time=600, byo_yomi_time=30, byo_yomi_stones=10)
    assert move_budget(1.0, None, None, 81) == 1.0
    assert move_budget(None, None, None, 81) is None
    assert move_budget(5.0, canadian, (300, 0), 300) == pytest.approx((3 + 3) * 0.8 - 0.1)
    assert move_budget(5.0, canadian, (20, 4), 300) == pytest.approx(5 * 0.8 - 0.1)
    assert move_budget(1.0, canadian, (20, 4), 300) == 1.0
    assert move_budget(None, canadian, (0, 4), 300) == MIN_SECONDS


def test_waiting_for_the_warm_up_counts_against_the_move() -> None:
    """A genmove that arrives while the compiled search is still loading (`main` starts it in
    the background) waits for it; the wait comes off the move's time, so the answer still
    comes within the budget - never below MIN_SECONDS of thinking."""
    engine, asked = scripted_engine(["C3"] * 3, PlayerSettings(seconds=1.0))
    engine.before_thinking = lambda: time.sleep(0.3)
    send(engine, "boardsize 9", "genmove b")
    assert 0.6 < asked[-1][0] <= 0.7  # type: ignore[operator]
    engine.before_thinking = lambda: time.sleep(1.1)
    send(engine, "genmove w")
    assert asked[-1][0] == MIN_SECONDS
    engine.before_thinking = None
    send(engine, "genmove b")
    assert asked[-1][0] == pytest.approx(1.0, abs=0.05)  # nothing to wait for: the budget


def test_serve_reads_bytes_answers_and_stops_at_quit() -> None:
    engine = GtpEngine()
    stdin = io.BytesIO(b"1 name\n\xff\xfe garbage\n\n# comment\r\n2 quit\n3 name\n")
    stdout = io.StringIO()
    serve(engine, stdin, stdout)
    # Nothing after quit is answered (its reader thread may have read ahead: it reads the next
    # command while one is answered, so that a streamed reply can stop when it comes).
    assert stdout.getvalue() == "=1 Tabletop\n\n? unknown command\n\n=2\n\n"
