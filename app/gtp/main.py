"""Tabletop's GTP engine (`GtpEngine`: the protocol answering for a Go session) and `main`, the
`tabletop-gtp` console script.

Start with `main`: it reads the options, starts the player's warm-up in the background and
serves GTP on stdin and stdout until `quit` or end of input. Options: `--time SECONDS` per move,
`--playouts N` (with `--count-kept`, a reused tree's playouts count against it), `--level
NAME`, `--seed N`, `--network WEIGHTS` (the move predictor at the root of every search -
by default the shipped one, none with `--no-network` - averaged over `--symmetries N` turns
of the board, and with `--inner-visits N` at every node with N playouts), `--verbose` (log
commands, replies and the player's reasoning to stderr), `--no-warm-up`.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from app.engine.go import Game
from app.engine.go.levels import LEVELS, NETWORK_WEIGHTS
from app.gtp.analysis import AnalysisCommands
from app.gtp.protocol import GtpProtocol, serve
from app.gtp.session import (
    DEFAULT_SECONDS,
    GoSession,
    PlayerFactory,
    PlayerSettings,
    mcts_player,
)

ENGINE_NAME = "Tabletop"  # what `name` answers; GUIs show it as the player's name


def package_version() -> str:
    """What `version` answers: the installed package's version."""
    try:
        return importlib.metadata.version("tabletop")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class GtpEngine(GtpProtocol):
    """The protocol with a `GoSession`'s commands in its table: what `tabletop-gtp` runs."""

    def __init__(
        self,
        settings: PlayerSettings | None = None,
        *,
        player_factory: PlayerFactory = mcts_player,
        log: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(ENGINE_NAME, package_version(), {}, log)
        self.session = GoSession(settings or PlayerSettings(), player_factory, self.log)
        self.commands.update(self.session.commands())
        self.commands.update(AnalysisCommands(self.session).commands())

    @property
    def game(self) -> Game:
        """The session's current game (see `GoSession.game`)."""
        return self.session.game

    @property
    def before_thinking(self) -> Callable[[], None] | None:
        """Called before each search (see `GoSession.before_thinking`)."""
        return self.session.before_thinking

    @before_thinking.setter
    def before_thinking(self, wait: Callable[[], None] | None) -> None:
        self.session.before_thinking = wait


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop-gtp",
        description="Tabletop's Monte-Carlo Go player speaking GTP v2 on stdin/stdout.",
    )
    parser.add_argument("--time", type=float, metavar="SECONDS",
                        help=f"thinking time per move (default {DEFAULT_SECONDS:g} s, or no time "
                        "limit when --playouts is given)")
    parser.add_argument("--playouts", type=int, metavar="N",
                        help="playouts per move (with --time, whichever runs out first)")
    parser.add_argument("--count-kept", action="store_true",
                        help="count the playouts a reused tree kept from the last move "
                        "against --playouts, as Pachi's -t =N does")
    parser.add_argument("--level", metavar="NAME",
                        help="one of the Monte-Carlo player's named LEVELS (easy, medium, ...); "
                        "--time and --playouts override its budget")
    parser.add_argument("--seed", type=int, metavar="N", help="random seed (reproducible play)")
    predictor = parser.add_mutually_exclusive_group()
    predictor.add_argument("--network", metavar="WEIGHTS", default=str(NETWORK_WEIGHTS),
                           help="a move predictor's weights (.npz, tools/train_policy.py): its "
                           "view replaces the trained features' at the root of every search "
                           "(default: the shipped predictor)")
    predictor.add_argument("--no-network", dest="network", action="store_const", const=None,
                           help="search without a move predictor (the player before one "
                           "shipped)")
    parser.add_argument("--symmetries", type=int, default=8, metavar="N",
                        help="turns of the board the --network's prediction is averaged over "
                        "(1-8, default 8)")
    parser.add_argument("--inner-visits", type=int, metavar="N",
                        help="the --network's view also goes to every node of the search "
                        "that reaches N playouts (read over one turn; default: the root only)")
    parser.add_argument("--verbose", action="store_true",
                        help="log commands, replies and the player's reasoning to stderr")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="don't compile the player's fast paths at start-up")
    return parser


def settings_from_args(options: argparse.Namespace) -> PlayerSettings:
    """The player settings for the command-line options (a level first, then overrides)."""
    seconds: float | None = DEFAULT_SECONDS
    playouts: int | None = None
    if options.level is not None:
        seconds, playouts = level_budget(options.level)
    if options.playouts is not None:
        if options.playouts < 1:
            raise ValueError("--playouts must be at least 1")
        playouts = options.playouts
        seconds = None if options.time is None else seconds
    if options.time is not None:
        if not options.time > 0:
            raise ValueError("--time must be more than 0 seconds")
        seconds = options.time
    if options.count_kept and playouts is None:
        raise ValueError("--count-kept needs a playout budget (--playouts or a level's)")
    if options.network is not None and not Path(options.network).is_file():
        raise ValueError(f"--network: no weights file at {options.network}")
    # (network.SYMMETRIES, not imported: it would load numpy before main pins its threads)
    if not 1 <= options.symmetries <= 8:
        raise ValueError("--symmetries must be 1-8")
    if options.inner_visits is not None and (options.network is None
                                             or options.inner_visits < 1):
        raise ValueError("--inner-visits must be at least 1, and needs a network (not "
                         "--no-network)")
    return PlayerSettings(seconds=seconds, playouts=playouts, seed=options.seed,
                          count_kept=options.count_kept, network=options.network,
                          symmetries=options.symmetries, inner_visits=options.inner_visits)


def level_budget(name: str) -> tuple[float | None, int | None]:
    """(seconds, playouts) per move of one of the Monte-Carlo player's named levels."""
    level = LEVELS.get(name)
    if level is None:
        raise ValueError(f"unknown level {name!r}; the levels are {', '.join(LEVELS)}")
    return level.seconds, level.playouts


def main(argv: Sequence[str] | None = None) -> int:
    """The `tabletop-gtp` console script."""
    # The player searches on one thread, as matches against one-thread engines assume; a
    # --network's matrix products must not take the other cores. Read when numpy loads,
    # which is after this (the player is imported lazily); a caller's own setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = build_parser()
    options = parser.parse_args(argv)
    try:
        settings = settings_from_args(options)
    except (ValueError, ImportError) as error:
        parser.error(str(error))

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    logger = log if options.verbose else None
    engine = GtpEngine(settings, log=logger)
    warming = start_warm_up(logger) if options.warm_up else None
    if warming is not None:
        engine.before_thinking = warming.join
    try:
        serve(engine, sys.stdin.buffer, sys.stdout, logger)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0


def start_warm_up(log: Callable[[str], None] | None) -> threading.Thread:
    """Compile the player's fast paths in the background while the controller sets up the game
    (GUIs start with a handful of quick commands); the first `genmove` waits for it."""

    def run() -> None:
        began = time.perf_counter()
        try:
            from app.engine.go.mcts import warm_up

            warm_up()
        except Exception as error:  # noqa: BLE001 - warming up is an optimisation only
            if log is not None:
                log(f"warm-up failed: {error}")
            return
        if log is not None:
            log(f"warm-up done in {time.perf_counter() - began:.2f} s")

    thread = threading.Thread(target=run, name="tabletop-gtp-warm-up", daemon=True)
    thread.start()
    return thread
