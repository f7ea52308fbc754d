"""Match runner: Tabletop's GTP engine (`tabletop-gtp`) against GNU Go 3.8, over GTP.

Start with `play_game`: it starts both engines as subprocesses, sets the board size and komi,
asks the side to move for `genmove` and passes the answer to the other side with `play`, until
two passes in a row (GNU Go's `final_score` then decides), a resignation, or the move cap
(2 x size^2 moves by default; GNU Go's `final_score` decides there too). Colours alternate:
Tabletop is black in even-numbered games. `main` runs the games (`--parallel` at a time, each
game using two processes), prints one line per game and then the win rate with a 95% Wilson
interval, overall and by colour; `--out` writes everything as JSON and `--sgf-dir` each game.

Run:
    .venv/bin/python bench/gtp_match.py --games 10 --time 1 --gnugo-level 10
    .venv/bin/python bench/gtp_match.py --games 4 --size 13 --time 1 --sgf-dir /tmp/sgf
    .venv/bin/python bench/gtp_match.py --games 2 --playouts 50 --gnugo-level 1 --max-moves 40
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
GNUGO = "/usr/games/gnugo"
DEFAULT_SIZE = 9
DEFAULT_KOMI = 7.5  # the common area-scoring komi; GNU Go scores with --chinese-rules to match
DEFAULT_GNUGO_LEVEL = 10  # GNU Go's own default strength
Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval
MIN_REPLY_TIMEOUT = 300.0  # seconds to answer one command; a cold numba cache can take a minute
REPLY_TIMEOUT_PER_SECOND = 20.0  # ...or this many times the per-move time, if that is longer
STDERR_TAIL = 2_000  # characters of an engine's stderr quoted when it fails
SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"  # SGF point letters: column, then row from the top


class GtpError(RuntimeError):
    """An engine answered '? ...', died, or did not answer in time."""


class GtpClient:
    """One engine process spoken to over GTP: `send` a command, get the text after '='."""

    def __init__(self, name: str, command: Sequence[str], timeout: float) -> None:
        self.name = name
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the engine
        self._process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            cwd=ROOT,
        )
        self._buffer = b""

    def send(self, command: str) -> str:
        """The answer to `command` (raises `GtpError` for an error reply, death or silence)."""
        process = self._process
        assert process.stdin is not None
        try:
            process.stdin.write(command.encode() + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            raise GtpError(f"{self.name} exited before {command!r}{self._tail()}") from None
        reply = self._read_reply(command)
        if reply.startswith("?"):
            raise GtpError(f"{self.name} refused {command!r}: {reply[1:].strip()}")
        if not reply.startswith("="):
            raise GtpError(f"{self.name} answered {command!r} with {reply!r}")
        return reply[1:].strip()

    def _read_reply(self, command: str) -> str:
        """Read up to the blank line that ends a GTP reply, within `timeout` seconds."""
        process = self._process
        assert process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while True:
            # Skip blank lines before a reply; a reply ends at its first empty line.
            self._buffer = self._buffer.lstrip(b"\r\n")
            end = self._buffer.find(b"\n\n")
            if end >= 0:
                reply, self._buffer = self._buffer[:end], self._buffer[end + 2 :]
                return reply.decode("utf-8", "replace").replace("\r", "")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                raise GtpError(f"{self.name} did not answer {command!r} in {self.timeout:g} s")
            ready, _, _ = select.select([fd], [], [], remaining)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise GtpError(f"{self.name} exited during {command!r}{self._tail()}")
                self._buffer += chunk

    def _tail(self) -> str:
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace")[-STDERR_TAIL:].strip()
        return f"; its stderr ends: {text}" if text else ""

    def close(self) -> None:
        """Say `quit` and wait a little; kill the process if it lingers."""
        if self._process.poll() is None:
            try:
                self.send("quit")
                self._process.wait(timeout=5)
            except (GtpError, OSError, subprocess.TimeoutExpired):
                self.kill()
        self._stderr.close()

    def exited(self) -> bool:
        """Whether the engine's process has ended (a crash, or killed from outside)."""
        return self._process.poll() is not None

    def kill(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()


@dataclass(frozen=True)
class MatchConfig:
    """Everything a game needs to know; `tabletop_command`/`gnugo_command` build the argv."""

    size: int = DEFAULT_SIZE
    komi: float = DEFAULT_KOMI
    time: float | None = None
    playouts: int | None = None
    level: str | None = None
    seed: int = 1
    gnugo_level: int = DEFAULT_GNUGO_LEVEL
    gnugo: str = GNUGO
    max_moves: int | None = None
    sgf_dir: Path | None = None
    verbose: bool = False

    @property
    def move_cap(self) -> int:
        return self.max_moves if self.max_moves is not None else 2 * self.size * self.size

    @property
    def reply_timeout(self) -> float:
        return max(MIN_REPLY_TIMEOUT, REPLY_TIMEOUT_PER_SECOND * (self.time or 0.0))

    def tabletop_command(self, number: int) -> list[str]:
        command = [sys.executable, "-m", "app.gtp", "--seed", str(self.seed + number)]
        if self.time is not None:
            command += ["--time", f"{self.time:g}"]
        if self.playouts is not None:
            command += ["--playouts", str(self.playouts)]
        if self.level is not None:
            command += ["--level", self.level]
        return command

    def gnugo_command(self, number: int) -> list[str]:
        return [
            self.gnugo, "--mode", "gtp", "--chinese-rules", "--level", str(self.gnugo_level),
            "--seed", str(self.seed + number),
        ]  # fmt: skip


@dataclass
class GameResult:
    """One finished game, as printed and stored in the JSON results."""

    number: int
    tabletop_color: str
    result: str  # SGF style: "B+3.5", "W+R", "0"
    winner: str | None  # "black", "white", or None for a draw
    tabletop_won: bool | None  # None for a draw
    end: str  # "passes", "resignation", "move cap", or "illegal move"
    moves: list[str] = field(default_factory=list)
    seconds: float = 0.0
    tabletop_seconds_per_move: float = 0.0
    tabletop_max_seconds: float = 0.0
    tabletop_score: str | None = None  # Tabletop's own final_score, to compare with GNU Go's
    note: str = ""

    @property
    def points(self) -> float:
        """Tabletop's score in this game: 1 win, 0.5 draw, 0 loss."""
        return 0.5 if self.tabletop_won is None else float(self.tabletop_won)


def winner_of(result: str) -> str | None:
    """'black', 'white' or None (draw) for an SGF-style result such as 'B+3.5' or 'W+R'."""
    text = result.strip().upper()
    if text.startswith("B+"):
        return "black"
    if text.startswith("W+"):
        return "white"
    if text in ("0", "DRAW", "JIGO"):
        return None
    raise ValueError(f"unreadable result {result!r}")


def other(color: str) -> str:
    return "white" if color == "black" else "black"


def play_game(number: int, config: MatchConfig) -> GameResult:
    """Play game `number` (Tabletop is black when it is even) and return how it went."""
    tabletop_color = "black" if number % 2 == 0 else "white"
    began = time.perf_counter()
    tabletop = GtpClient("tabletop", config.tabletop_command(number), config.reply_timeout)
    gnugo = GtpClient("gnugo", config.gnugo_command(number), config.reply_timeout)
    engines = {tabletop_color: tabletop, other(tabletop_color): gnugo}
    moves: list[str] = []
    thinking: list[float] = []
    note = ""
    try:
        for engine in (tabletop, gnugo):
            engine.send(f"boardsize {config.size}")
            engine.send("clear_board")
            engine.send(f"komi {config.komi:g}")
        color = "black"
        passes = 0
        end = "move cap"
        result: str | None = None
        while len(moves) < config.move_cap:
            mover, receiver = engines[color], engines[other(color)]
            started = time.perf_counter()
            move = mover.send(f"genmove {color}")
            move = move.lower() if move.lower() in ("pass", "resign") else move.upper()
            if mover is tabletop:
                thinking.append(time.perf_counter() - started)
            if config.verbose:
                print(f"  game {number}: {color} {move}", flush=True)
            if move == "resign":
                end = "resignation"
                result = f"{'W' if color == 'black' else 'B'}+R"
                break
            try:
                receiver.send(f"play {color} {move}")
            except GtpError as error:
                if receiver.exited():
                    raise  # a dead engine is a failed game, not the mover's forfeit
                # The two rule sets disagree (e.g. positional superko): the mover forfeits.
                end, note = "illegal move", str(error)
                result = f"{'W' if color == 'black' else 'B'}+F"
                break
            moves.append(move)
            passes = passes + 1 if move == "pass" else 0
            color = other(color)
            if passes == 2:
                end = "passes"
                break
        tabletop_score = None
        if result is None:
            result = gnugo.send("final_score")
            tabletop_score = tabletop.send("final_score")
    finally:
        tabletop.close()
        gnugo.close()
    winner = winner_of(result)
    record = GameResult(
        number=number,
        tabletop_color=tabletop_color,
        result=result,
        winner=winner,
        tabletop_won=None if winner is None else winner == tabletop_color,
        end=end,
        moves=moves,
        seconds=round(time.perf_counter() - began, 2),
        tabletop_seconds_per_move=round(sum(thinking) / len(thinking), 3) if thinking else 0.0,
        tabletop_max_seconds=round(max(thinking), 3) if thinking else 0.0,
        tabletop_score=tabletop_score,
        note=note,
    )
    if config.sgf_dir is not None:
        config.sgf_dir.mkdir(parents=True, exist_ok=True)
        path = config.sgf_dir / f"game-{number:03d}.sgf"
        path.write_text(to_sgf(record, config), encoding="utf-8")
    return record


def to_sgf(game: GameResult, config: MatchConfig) -> str:
    """The game as an SGF FF[4] record (passes as empty B[] / W[])."""
    size = config.size
    tabletop = "Tabletop " + " ".join(config.tabletop_command(game.number)[3:])
    gnugo_name = f"GNU Go level {config.gnugo_level}"
    black, white = (tabletop, gnugo_name) if game.tabletop_color == "black" else (
        gnugo_name, tabletop,
    )
    date = datetime.date.today().isoformat()
    parts = [
        f"(;FF[4]GM[1]CA[UTF-8]AP[tabletop gtp_match]SZ[{size}]KM[{config.komi:g}]RU[Chinese]"
        f"PB[{_sgf_text(black)}]PW[{_sgf_text(white)}]RE[{game.result}]DT[{date}]"
        f"C[{_sgf_text(f'game {game.number}, ended by {game.end}')}]"
    ]
    color = "B"
    for move in game.moves:
        point = "" if move == "pass" else _sgf_point(move, size)
        parts.append(f";{color}[{point}]")
        color = "W" if color == "B" else "B"
    return "".join(parts) + ")\n"


def _sgf_point(move: str, size: int) -> str:
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    column = letters.index(move[0].upper())
    row_from_top = size - int(move[1:])
    return SGF_LETTERS[column] + SGF_LETTERS[row_from_top]


def _sgf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


# -- statistics ----------------------------------------------------------------------------------


def wilson_interval(points: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a win rate of `points` out of `games` (draws as halves)."""
    if games == 0:
        return 0.0, 1.0
    rate = points / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Win rate with a 95% Wilson interval: overall, and with Tabletop as black and as white."""

    def line(games: Sequence[GameResult]) -> dict[str, Any]:
        points = sum(game.points for game in games)
        low, high = wilson_interval(points, len(games))
        return {
            "games": len(games),
            "wins": sum(1 for game in games if game.tabletop_won),
            "draws": sum(1 for game in games if game.tabletop_won is None),
            "win_rate": round(points / len(games), 3) if games else None,
            "wilson_95": [round(low, 3), round(high, 3)],
        }

    return {
        "all": line(results),
        "as_black": line([g for g in results if g.tabletop_color == "black"]),
        "as_white": line([g for g in results if g.tabletop_color == "white"]),
        "ends": {end: sum(1 for g in results if g.end == end) for end in sorted(
            {g.end for g in results})},
    }


def describe(name: str, line: dict[str, Any]) -> str:
    if not line["games"]:
        return f"{name}: no games"
    low, high = line["wilson_95"]
    return (
        f"{name}: {line['wins']} wins, {line['draws']} draws in {line['games']} games = "
        f"{line['win_rate']:.0%} (95% Wilson interval {low:.0%} - {high:.0%})"
    )


# -- the command line ----------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE, help="board size (default 9)")
    parser.add_argument("--komi", type=float, default=DEFAULT_KOMI, help="komi (default 7.5)")
    parser.add_argument("--time", type=float, help="Tabletop's seconds per move")
    parser.add_argument("--playouts", type=int, help="Tabletop's playouts per move")
    parser.add_argument("--level", help="Tabletop's named level (tabletop-gtp --level)")
    parser.add_argument("--gnugo-level", type=int, default=DEFAULT_GNUGO_LEVEL,
                        help="GNU Go's --level, 0-10 (default 10)")
    parser.add_argument("--gnugo", default=GNUGO, help=f"GNU Go's executable (default {GNUGO})")
    parser.add_argument("--parallel", type=int, default=1,
                        help="games at a time; each needs two processes (default 1)")
    parser.add_argument("--max-moves", type=int,
                        help="move cap per game, scored by GNU Go (default 2 x size^2)")
    parser.add_argument("--seed", type=int, default=1, help="base seed; game n uses seed + n")
    parser.add_argument("--sgf-dir", type=Path, help="save each game there as game-NNN.sgf")
    parser.add_argument("--out", type=Path, help="write the results there as JSON")
    parser.add_argument("--verbose", action="store_true", help="print every move")
    return parser


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None) -> dict[str, Any]:
    options = build_parser().parse_args(argv)
    out = stdout or sys.stdout
    if shutil.which(options.gnugo) is None:
        raise SystemExit(f"GNU Go not found at {options.gnugo}")
    if options.time is None and options.playouts is None and options.level is None:
        options.time = 1.0
    config = MatchConfig(
        size=options.size,
        komi=options.komi,
        time=options.time,
        playouts=options.playouts,
        level=options.level,
        seed=options.seed,
        gnugo_level=options.gnugo_level,
        gnugo=options.gnugo,
        max_moves=options.max_moves,
        sgf_dir=options.sgf_dir,
        verbose=options.verbose,
    )
    print(
        f"tabletop ({' '.join(config.tabletop_command(0)[3:])}) vs GNU Go level "
        f"{config.gnugo_level}: {options.games} games on {config.size}x{config.size}, komi "
        f"{config.komi:g}, move cap {config.move_cap}, {options.parallel} at a time",
        file=out, flush=True,
    )
    lock = threading.Lock()
    results: list[GameResult] = []
    failures: list[dict[str, Any]] = []
    began = time.perf_counter()

    def run(number: int) -> None:
        try:
            game = play_game(number, config)
        except GtpError as error:
            with lock:
                failures.append({"number": number, "error": str(error)})
                print(f"game {number:3d}: FAILED - {error}", file=out, flush=True)
            return
        with lock:
            results.append(game)
            outcome = {True: "win", False: "loss", None: "draw"}[game.tabletop_won]
            ours = f", tabletop says {game.tabletop_score}" if game.tabletop_score else ""
            print(
                f"game {number:3d}: tabletop {game.tabletop_color:5s} {outcome:4s} "
                f"{game.result:7s} by {game.end:11s} {len(game.moves):3d} moves "
                f"{game.seconds:6.1f} s (tabletop {game.tabletop_seconds_per_move:.2f} s/move, "
                f"max {game.tabletop_max_seconds:.2f}){ours}",
                file=out, flush=True,
            )

    with ThreadPoolExecutor(max_workers=max(1, options.parallel)) as pool:
        list(pool.map(run, range(options.games)))
    results.sort(key=lambda game: game.number)
    summary = summarize(results)
    print(describe("tabletop overall", summary["all"]), file=out)
    print(describe("tabletop as black", summary["as_black"]), file=out)
    print(describe("tabletop as white", summary["as_white"]), file=out)
    print(f"{len(failures)} failed games; {time.perf_counter() - began:.0f} s in all", file=out)
    report = {
        "command": "bench/gtp_match.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "config": {
            key: (str(value) if isinstance(value, Path) else value)
            for key, value in asdict(config).items()
        },
        "tabletop_command": config.tabletop_command(0),
        "gnugo_command": config.gnugo_command(0),
        "summary": summary,
        "failures": failures,
        "games": [asdict(game) for game in results],
    }
    if options.out is not None:
        options.out.parent.mkdir(parents=True, exist_ok=True)
        options.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
