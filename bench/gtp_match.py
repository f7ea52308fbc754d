"""Match runner: Tabletop's GTP engine (`tabletop-gtp`) against any GTP engine - GNU Go 3.8 by
default, or the command given as `--opponent` (Pachi, another Tabletop, ...).

Start with `play_game`: it starts both engines as subprocesses, sets the board size and komi
(and, with `--opponent-time`, the opponent's per-move time as `time_settings 0 T 1`; a `?`
answer to it is ignored), asks the side to move for `genmove` and passes the answer to the
other side with `play`, until two passes in a row, a resignation (which decides the game), or
the move cap (2 x size^2 moves by default). After two passes or at the cap GNU Go scores the
game with `final_score` under Chinese rules: the opponent itself when it is the default GNU Go,
else a separate referee (`gnugo --mode gtp --chinese-rules --level 10`) that replays the moves.
Colours alternate: Tabletop is black in even-numbered games. `main` runs the games
(`--parallel` at a time, each game using two processes, plus the referee's at its end), prints
one line per game and then the win rate with a 95% Wilson interval, overall and by colour;
`--out` writes everything as JSON (the engines' commands included). Every game is saved as
SGF (players, result, komi, the command line in the root comment), by default in
bench/results/sgf/<date>-<opponent name>/ (a "-2", "-3", ... suffix when that directory
already holds games), or in `--sgf-dir`. A game an engine breaks off (a crash, no answer in
time) counts as failed, not played; its moves so far are kept as game-NNN-failed.sgf.

Run from the repository root (PACHI: the path of a Pachi binary, not part of Tabletop - see
tools/go_corpus.py):
    .venv/bin/python -m bench.gtp_match --games 10 --time 1 --gnugo-level 10
    .venv/bin/python -m bench.gtp_match --games 4 --size 13 --time 1 --sgf-dir /tmp/sgf
    .venv/bin/python -m bench.gtp_match --games 2 --playouts 50 --gnugo-level 1 --max-moves 40
    .venv/bin/python -m bench.gtp_match --games 10 --time 2 \\
        --opponent "$PACHI -t 2 threads=1"
    .venv/bin/python -m bench.gtp_match --games 4 --time 1 --opponent-name gnugo-level-5 \\
        --opponent "/usr/games/gnugo --mode gtp --level 5" --opponent-time 1
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import re
import shlex
import shutil
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from bench.gtp_client import MIN_REPLY_TIMEOUT, GtpClient, GtpError, GtpRefused, replay

ROOT = Path(__file__).resolve().parent.parent

GNUGO = "/usr/games/gnugo"
DEFAULT_SIZE = 9
DEFAULT_KOMI = 7.5  # the common area-scoring komi; GNU Go scores with --chinese-rules to match
DEFAULT_GNUGO_LEVEL = 10  # GNU Go's own default strength
REFEREE_LEVEL = 10  # the referee's --level: its final_score judges dead stones at full strength
SGF_ROOT = ROOT / "bench" / "results" / "sgf"  # default: one directory per day and opponent
Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval
REPLY_TIMEOUT_PER_SECOND = 20.0  # a reply may take this many times the per-move time, if longer
SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"  # SGF point letters: column, then row from the top


@dataclass(frozen=True)
class MatchConfig:
    """Everything a game needs to know; the `*_command` methods build the argv."""

    size: int = DEFAULT_SIZE
    komi: float = DEFAULT_KOMI
    time: float | None = None
    playouts: int | None = None
    count_kept: bool = False  # the kept playouts of a reused tree count against `playouts`
    level: str | None = None
    network: Path | None = None  # a move predictor's weights for Tabletop's root; None: shipped
    no_network: bool = False  # Tabletop searches without a move predictor
    inner_visits: int | None = None  # its predictor also reweighs nodes with this many playouts
    seed: int = 1
    gnugo_level: int = DEFAULT_GNUGO_LEVEL
    gnugo: str = GNUGO
    opponent: tuple[str, ...] | None = None  # any GTP engine's argv; None: GNU Go (gnugo_level)
    opponent_name: str | None = None  # None: the command's basename ("GNU Go level N" for ours)
    opponent_time: float | None = None  # seconds per move sent as `time_settings 0 T 1`
    max_moves: int | None = None
    sgf_dir: Path | None = None
    command_line: str = ""  # how the match was started, for the SGF records
    verbose: bool = False

    @property
    def move_cap(self) -> int:
        return self.max_moves if self.max_moves is not None else 2 * self.size * self.size

    @property
    def reply_timeout(self) -> float:
        longest = max(self.time or 0.0, self.opponent_time or 0.0)
        return max(MIN_REPLY_TIMEOUT, REPLY_TIMEOUT_PER_SECOND * longest)

    @property
    def opponent_label(self) -> str:
        """The opponent's name, as printed, recorded and used in the default SGF directory."""
        if self.opponent_name:
            return self.opponent_name
        if self.opponent is None:
            return f"GNU Go level {self.gnugo_level}"
        return Path(self.opponent[0]).name

    def tabletop_command(self, number: int) -> list[str]:
        command = [sys.executable, "-m", "app.gtp", "--seed", str(self.seed + number)]
        if self.time is not None:
            command += ["--time", f"{self.time:g}"]
        if self.playouts is not None:
            command += ["--playouts", str(self.playouts)]
            if self.count_kept:
                command.append("--count-kept")
        if self.level is not None:
            command += ["--level", self.level]
        if self.network is not None:
            command += ["--network", str(self.network)]
        if self.no_network:
            command.append("--no-network")
        if self.inner_visits is not None:
            command += ["--inner-visits", str(self.inner_visits)]
        return command

    def gnugo_command(self, number: int) -> list[str]:
        """The default opponent: GNU Go at `gnugo_level`, a seed of its own per game."""
        return [
            self.gnugo, "--mode", "gtp", "--chinese-rules", "--level", str(self.gnugo_level),
            "--seed", str(self.seed + number),
        ]  # fmt: skip

    def opponent_command(self, number: int) -> list[str]:
        return list(self.opponent) if self.opponent is not None else self.gnugo_command(number)

    def referee_command(self) -> list[str] | None:
        """The separate GNU Go that scores a custom opponent's games (None: the opponent is
        GNU Go and scores them itself)."""
        if self.opponent is None:
            return None
        return [self.gnugo, "--mode", "gtp", "--chinese-rules", "--level", str(REFEREE_LEVEL)]


@dataclass
class GameResult:
    """One finished game, as printed and stored in the JSON results."""

    number: int
    tabletop_color: str
    result: str  # SGF style: "B+3.5", "W+R", "0"; "Void" for a game an engine broke off
    winner: str | None  # "black", "white", or None for a draw
    tabletop_won: bool | None  # None for a draw
    end: str  # "passes", "resignation", "move cap", "illegal move"; "an engine's failure" (SGF)
    moves: list[str] = field(default_factory=list)
    seconds: float = 0.0
    tabletop_seconds_per_move: float = 0.0
    tabletop_max_seconds: float = 0.0
    tabletop_score: str | None = None  # Tabletop's own final_score, to compare with GNU Go's
    scored_by: str | None = None  # "opponent" (GNU Go), "referee", None: resigned/forfeited
    sgf: str | None = None  # where the record was saved
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
    opponent = GtpClient(
        config.opponent_label, config.opponent_command(number), config.reply_timeout
    )
    engines = {tabletop_color: tabletop, other(tabletop_color): opponent}
    moves: list[str] = []
    thinking: list[float] = []
    note = ""
    scored_by: str | None = None
    try:
        for engine in (tabletop, opponent):
            engine.send(f"boardsize {config.size}")
            engine.send("clear_board")
            engine.send(f"komi {config.komi:g}")
        if config.opponent_time is not None:
            # '?' from an engine without time control (or timed from its command line): fine.
            with contextlib.suppress(GtpRefused):
                opponent.send(f"time_settings 0 {config.opponent_time:g} 1")
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
            if config.opponent is None:
                result, scored_by = opponent.send("final_score"), "opponent"
            tabletop_score = tabletop.send("final_score")
    except GtpError as error:
        if config.sgf_dir is None or not moves:
            raise
        # Keep the position that broke an engine (GNU Go 3.8 has crashed mid-game on 19x19).
        failed = GameResult(number=number, tabletop_color=tabletop_color, result="Void",
                            winner=None, tabletop_won=None, end="an engine's failure",
                            moves=moves, note=str(error))
        path = save_sgf(failed, config, f"game-{number:03d}-failed.sgf")
        raise GtpError(f"{error} (the {len(moves)} moves before it: {path})") from error
    finally:
        tabletop.close()
        opponent.close()
    if result is None:  # the two engines are closed: the referee has the machine to itself
        result, scored_by = referee_score(moves, config), "referee"
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
        scored_by=scored_by,
        note=note,
    )
    if config.sgf_dir is not None:
        record.sgf = str(save_sgf(record, config, f"game-{number:03d}.sgf"))
    return record


def save_sgf(game: GameResult, config: MatchConfig, name: str) -> Path:
    """Write the game's SGF record (`to_sgf`) as `name` in the match's SGF directory."""
    assert config.sgf_dir is not None
    config.sgf_dir.mkdir(parents=True, exist_ok=True)
    path = config.sgf_dir / name
    path.write_text(to_sgf(game, config), encoding="utf-8")
    return path


def referee_score(moves: Sequence[str], config: MatchConfig) -> str:
    """GNU Go's `final_score` (Chinese rules, level 10) after replaying `moves` from black."""
    command = config.referee_command()
    assert command is not None, "GNU Go as the opponent scores its own games"
    referee = GtpClient("referee (gnugo)", command, config.reply_timeout)
    try:
        replay(referee.send, moves, config.size, config.komi)
        return referee.send("final_score")
    finally:
        referee.close()


def to_sgf(game: GameResult, config: MatchConfig) -> str:
    """The game as an SGF FF[4] record (passes as empty B[] / W[]); the root comment says how
    it ended, who scored it, and how the match and both engines were started."""
    size = config.size
    tabletop_argv = config.tabletop_command(game.number)
    opponent_argv = config.opponent_command(game.number)
    tabletop = "Tabletop " + " ".join(tabletop_argv[3:])
    opponent = config.opponent_label
    black, white = (tabletop, opponent)
    if game.tabletop_color == "white":
        black, white = white, black
    date = datetime.date.today().isoformat()
    scored = {
        "opponent": "scored by the opponent's final_score (GNU Go)",
        "referee": f"scored by a GNU Go referee's final_score (level {REFEREE_LEVEL})",
        None: "decided without scoring",
    }[game.scored_by]
    comment = "\n".join([
        f"game {game.number}, ended by {game.end}, {scored}",
        *([f"match: {config.command_line}"] if config.command_line else []),
        f"tabletop: {shlex.join(tabletop_argv)}",
        f"opponent: {shlex.join(opponent_argv)}",
        *([f"note: {game.note}"] if game.note else []),
    ])  # fmt: skip
    parts = [
        f"(;FF[4]GM[1]CA[UTF-8]AP[tabletop gtp_match]SZ[{size}]KM[{config.komi:g}]RU[Chinese]"
        f"PB[{_sgf_text(black)}]PW[{_sgf_text(white)}]RE[{game.result}]DT[{date}]"
        f"C[{_sgf_text(comment)}]"
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


def default_sgf_dir(name: str, date: datetime.date | None = None, root: Path = SGF_ROOT) -> Path:
    """root/<date>-<name>/, the name reduced to letters, digits, '.', '_' and '-'; when that
    directory already holds files (an earlier match that day), the first free "-2", "-3", ..."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "opponent"
    base = root / f"{(date or datetime.date.today()).isoformat()}-{slug}"
    path, suffix = base, 1
    while path.exists() and any(path.iterdir()):
        suffix += 1
        path = base.with_name(f"{base.name}-{suffix}")
    return path


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
    parser.add_argument("--count-kept", action="store_true",
                        help="with --playouts: the playouts kept in Tabletop's reused tree count "
                        "against them, as Pachi's -t =N counts its own (an equal screen)")
    parser.add_argument("--level", help="Tabletop's named level (tabletop-gtp --level)")
    predictor = parser.add_mutually_exclusive_group()
    predictor.add_argument("--network", type=Path, metavar="WEIGHTS",
                           help="a move predictor for Tabletop's root (tabletop-gtp "
                           "--network; default: the shipped one)")
    predictor.add_argument("--no-network", action="store_true",
                           help="Tabletop searches without a move predictor (tabletop-gtp "
                           "--no-network)")
    parser.add_argument("--inner-visits", type=int, metavar="N",
                        help="Tabletop's predictor also reweighs every node with N playouts "
                        "(tabletop-gtp --inner-visits)")
    parser.add_argument("--gnugo-level", type=int, default=DEFAULT_GNUGO_LEVEL,
                        help="GNU Go's --level, 0-10 (default 10)")
    parser.add_argument("--gnugo", default=GNUGO,
                        help=f"GNU Go's executable, opponent and referee (default {GNUGO})")
    parser.add_argument("--opponent", metavar="CMD",
                        help="any GTP engine's command line, split like a shell's (default: "
                        "GNU Go at --gnugo-level); a GNU Go referee scores its games")
    parser.add_argument("--opponent-name",
                        help="the opponent's name in the output and the SGF records "
                        "(default: the command's basename)")
    parser.add_argument("--opponent-time", type=float, metavar="SECONDS",
                        help="send the opponent 'time_settings 0 SECONDS 1' (default: nothing; "
                        "Pachi takes -t on its command line)")
    parser.add_argument("--parallel", type=int, default=1,
                        help="games at a time; each needs two processes (default 1)")
    parser.add_argument("--max-moves", type=int,
                        help="move cap per game, scored by GNU Go (default 2 x size^2)")
    parser.add_argument("--seed", type=int, default=1, help="base seed; game n uses seed + n")
    parser.add_argument("--sgf-dir", type=Path,
                        help="save each game there as game-NNN.sgf (default "
                        "bench/results/sgf/<date>-<opponent name>/)")
    parser.add_argument("--out", type=Path, help="write the results there as JSON")
    parser.add_argument("--verbose", action="store_true", help="print every move")
    return parser


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None) -> dict[str, Any]:
    arguments = list(argv if argv is not None else sys.argv[1:])
    options = build_parser().parse_args(arguments)
    out = stdout or sys.stdout
    if shutil.which(options.gnugo) is None:
        raise SystemExit(f"GNU Go not found at {options.gnugo}")
    opponent: tuple[str, ...] | None = None
    if options.opponent is not None:
        opponent = tuple(shlex.split(options.opponent))
        if not opponent:
            raise SystemExit("--opponent is empty")
        if shutil.which(opponent[0]) is None:
            raise SystemExit(f"the opponent's executable {opponent[0]!r} was not found")
        if os.sep in opponent[0]:  # the engines run in the repository: anchor a relative path
            opponent = (os.path.abspath(opponent[0]), *opponent[1:])
    if options.network is not None:
        if not options.network.is_file():
            raise SystemExit(f"no weights file at {options.network}")
        options.network = options.network.resolve()  # the engines run in the repository
    if options.inner_visits is not None and (options.no_network or options.inner_visits < 1):
        raise SystemExit("--inner-visits must be at least 1, and needs a network (not "
                         "--no-network)")
    if options.time is None and options.playouts is None and options.level is None:
        options.time = 1.0
    config = MatchConfig(
        size=options.size,
        komi=options.komi,
        time=options.time,
        playouts=options.playouts,
        count_kept=options.count_kept,
        network=options.network,
        no_network=options.no_network,
        inner_visits=options.inner_visits,
        level=options.level,
        seed=options.seed,
        gnugo_level=options.gnugo_level,
        gnugo=options.gnugo,
        opponent=opponent,
        opponent_name=options.opponent_name,
        opponent_time=options.opponent_time,
        max_moves=options.max_moves,
        command_line=shlex.join(["python", "-m", "bench.gtp_match", *arguments]),
        verbose=options.verbose,
    )
    sgf_dir = options.sgf_dir or default_sgf_dir(config.opponent_label)
    config = replace(config, sgf_dir=sgf_dir)
    referee = config.referee_command()
    print(
        f"tabletop ({' '.join(config.tabletop_command(0)[3:])}) vs {config.opponent_label} "
        f"({shlex.join(config.opponent_command(0))}): {options.games} games on "
        f"{config.size}x{config.size}, komi {config.komi:g}, move cap {config.move_cap}, "
        f"{options.parallel} at a time; scored by "
        f"{shlex.join(referee) if referee else 'the opponent'}; SGF in {sgf_dir}",
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
        "command": config.command_line,
        "config": {
            key: (str(value) if isinstance(value, Path) else value)
            for key, value in asdict(config).items()
        },
        "tabletop_command": config.tabletop_command(0),
        "opponent_name": config.opponent_label,
        "opponent_command": config.opponent_command(0),
        "referee_command": referee,  # None: the opponent (GNU Go) scores its own games
        "sgf_dir": str(sgf_dir),
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
