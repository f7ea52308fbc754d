"""The analysis commands of the Go GUIs: Leela Zero's and KataGo's live analysis, GoGui's menu.

Start with `AnalysisCommands.commands`, the table this adds to a session's. Live analysis
(`lz-analyze`, `kata-analyze`) answers with a `Stream` (`app.gtp.protocol`): an "=" line, then
one line of readings every interval while the player ponders (`MctsPlayer.ponder`), until
the controller sends its next command, which ends the reply with GTP's empty line and is then
answered as usual. `lz-genmove_analyze` and `kata-genmove_analyze` stream the same lines while
a `genmove` thinks and end with "play <vertex>"; the move is played. Sabaki and Lizzie read
these formats; the parsers in tests/gtp/test_gtp_analysis.py read them as they do.

One line of readings is one "info" group per candidate move, most visited first:

    info move D4 visits 120 winrate 5412 prior 830 lcb 5120 order 0 pv D4 C6 F3 info move ...

Leela Zero's format gives win rate, prior and lower confidence bound as integers in 1/10000;
KataGo's gives them as fractions (0.5412), may add `rootInfo visits N winrate W scoreLead S`
and, with `ownership true`, `ownership` and one value per point (rows from the top, the side
to move's view: 1 theirs, -1 the opponent's). Tabletop has no per-move score, utility or
score deviation, so those KataGo fields are left out (the GUIs treat them as optional);
`avoid`, `allow` and the KataGo options Tabletop cannot honour are refused by name.

GoGui asks `gogui-analyze_commands` for its Analyze menu and gets `type/label/command` lines:
the ownership map (`dboard`), the principal variation (`var`), the candidates' win rates on
the board (`gfx`) and a one-line summary (`string`). Those commands search the position for
one move's budget and remember the reading for that position, so the menu's entries agree.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.engine.go import Color
from app.gtp.protocol import (
    COLORS,
    Command,
    GtpFailure,
    Interrupted,
    Stream,
    Write,
    parse_color,
    parse_int,
    syntax_error,
)

if TYPE_CHECKING:
    from app.engine.go.mcts.analysis import Reading
    from app.gtp.session import GoSession

MIN_INTERVAL_CS = 1.0  # centiseconds between lines at the fastest (10 ms; less is taken as this)
MAX_INTERVAL_CS = 100.0 * 60 * 60  # at the slowest, one line an hour
MAX_MOVES_LIMIT = 400  # minmoves/maxmoves above this are refused (a 19x19 board has 362 moves)
INTERVAL = re.compile(r"\d{1,9}(\.\d{0,9})?")  # centiseconds, as KataGo reads them: 50, 12.5
UNSUPPORTED_KEYS = ("avoid", "allow", "ownershipStdev", "movesOwnership", "pvVisits",
                    "pvEdgeVisits")
"""KataGo options Tabletop does not implement: refused by name rather than ignored."""


@dataclass(frozen=True, slots=True)
class AnalyzeRequest:
    """What an analyze command asked for: the colour to analyse for (None: the side to move),
    the seconds between lines (None: no lines, as Leela Zero does without an interval or with
    0 - the search runs and a genmove after it goes on from it), the fewest and most moves per
    line, and (KataGo) whether to add the ownership map and the root's summary."""

    color: Color | None = None
    interval: float | None = None
    min_moves: int = 0
    max_moves: int = MAX_MOVES_LIMIT
    ownership: bool = False
    root_info: bool = False


def parse_request(args: list[str], kata: bool) -> AnalyzeRequest:
    """Read `[color] [interval] [key value ...]` as Leela Zero and KataGo define it: an optional
    colour, an optional bare interval in centiseconds, then `interval N`, `minmoves N`,
    `maxmoves N` and, for KataGo, `ownership true|false` and `rootInfo true|false`."""
    words = list(args)
    color: Color | None = None
    interval = 0.0
    if words and words[0].lower() in COLORS:
        color = parse_color(words.pop(0))
    if words and INTERVAL.fullmatch(words[0]):
        interval = _interval(words.pop(0))
    options: dict[str, int | bool] = {}
    keys = ("interval", "minmoves", "maxmoves") + (("ownership", "rootInfo") if kata else ())
    while words:
        key = words.pop(0)
        if key in UNSUPPORTED_KEYS:
            raise GtpFailure(f"{key} is not supported by this engine")
        if key not in keys:
            raise GtpFailure(f"unknown analyze option {key!r}")
        if not words:
            raise GtpFailure(f"{key} needs a value")
        value = words.pop(0)
        if key == "interval":
            interval = _interval(value)
        elif key in ("minmoves", "maxmoves"):
            options[key] = _bounded(value, key, 0, MAX_MOVES_LIMIT)
        elif value in ("true", "false"):
            options[key] = value == "true"
        else:
            raise GtpFailure(f"{key} must be true or false, not {value!r}")
    return AnalyzeRequest(
        color=color,
        interval=max(interval, MIN_INTERVAL_CS) / 100 if interval > 0 else None,
        min_moves=int(options.get("minmoves", 0)),
        max_moves=int(options.get("maxmoves", MAX_MOVES_LIMIT)) or MAX_MOVES_LIMIT,
        ownership=bool(options.get("ownership", False)),
        root_info=bool(options.get("rootInfo", False)),
    )


def _interval(text: str) -> float:
    """An interval in centiseconds: a non-negative decimal number up to MAX_INTERVAL_CS."""
    if not INTERVAL.fullmatch(text):
        raise syntax_error()
    value = float(text)
    if value > MAX_INTERVAL_CS:
        raise GtpFailure(f"interval must be at most {MAX_INTERVAL_CS:g} centiseconds, not {text}")
    return value


def _bounded(text: str, name: str, low: int, high: int) -> int:
    value = parse_int(text)
    if not low <= value <= high:
        raise GtpFailure(f"{name} must be between {low} and {high}, not {value}")
    return value


# -- the lines ---------------------------------------------------------------------------------


def info_line(reading: Reading, request: AnalyzeRequest, kata: bool) -> str:
    """One line of readings in Leela Zero's (`kata` false) or KataGo's format: the moves with
    playouts (at least `min_moves`, adding the likeliest unvisited ones; at most `max_moves`);
    empty when there is nothing to report yet."""
    moves = [m for m in reading.moves if m.visits > 0]
    if len(moves) < request.min_moves:
        moves = list(reading.moves[: request.min_moves])
    groups = []
    for order, move in enumerate(moves[: request.max_moves]):
        if kata:
            values = (f"winrate {move.win_rate:.6f} prior {move.prior:.6f} "
                      f"lcb {move.lcb:.6f}")
        else:
            values = (f"winrate {_per10000(move.win_rate)} prior {_per10000(move.prior)} "
                      f"lcb {_per10000(move.lcb)}")
        groups.append(f"info move {move.move} visits {move.visits} {values} order {order} "
                      f"pv {' '.join(move.principal_variation)}")
    if not groups:
        return ""
    if kata and request.root_info:
        groups.append(f"rootInfo visits {reading.visits} winrate {reading.win_rate:.6f} "
                      f"scoreLead {reading.score_lead:.3f}")
    if kata and request.ownership and reading.ownership:
        sign = 1.0 if reading.to_move == "black" else -1.0
        groups.append("ownership " + " ".join(f"{sign * v + 0.0:.3f}" for v in reading.ownership))
    return " ".join(groups)


def _per10000(fraction: float) -> int:
    """A fraction in Leela Zero's 1/10000, truncated as Leela Zero truncates it."""
    return max(0, min(10000, int(fraction * 10000)))


# -- the commands ------------------------------------------------------------------------------


class AnalysisCommands:
    """The analysis commands of one GTP session (`GoSession`), named in `commands`."""

    def __init__(self, session: GoSession) -> None:
        self.session = session
        self._cached: tuple[tuple[object, ...], Reading] | None = None

    def commands(self) -> dict[str, Command]:
        return {
            "lz-analyze": Command(lambda args: self._analyze(args, kata=False), (0, None)),
            "kata-analyze": Command(lambda args: self._analyze(args, kata=True), (0, None)),
            "lz-genmove_analyze": Command(lambda args: self._genmove(args, kata=False),
                                          (0, None)),
            "kata-genmove_analyze": Command(lambda args: self._genmove(args, kata=True),
                                            (0, None)),
            "gogui-analyze_commands": Command(self.handle_gogui_analyze_commands),
            "tabletop-ownership": Command(self.handle_ownership),
            "tabletop-pv": Command(self.handle_pv),
            "tabletop-move_values": Command(self.handle_move_values),
            "tabletop-winrate": Command(self.handle_winrate),
        }

    # -- live analysis -------------------------------------------------------------------------

    def _analyze(self, args: list[str], kata: bool) -> Stream:
        request = parse_request(args, kata)
        color = request.color or self._side_to_move()

        def run(write: Write, interrupted: Interrupted) -> None:
            session = self.session
            player = session.analysis_player()
            with session.position_for(color) as game:
                player.ponder(game, _writer(write, request, kata),
                              request.interval or math.inf, interrupted)

        return Stream(run)

    def _genmove(self, args: list[str], kata: bool) -> Stream:
        request = parse_request(args, kata)
        color = request.color or self._side_to_move()
        self._cached = None

        def run(write: Write, interrupted: Interrupted) -> None:
            report = None if request.interval is None else _writer(write, request, kata)
            move = self.session.generate(color, report, request.interval or math.inf)
            write(f"play {move}")

        return Stream(run)

    def _side_to_move(self) -> Color:
        game = self.session.game
        if game.to_move is not None:
            return game.to_move
        return "white" if game.moves and len(game.moves) % 2 == 1 else "black"

    # -- GoGui ---------------------------------------------------------------------------------

    def handle_gogui_analyze_commands(self, args: list[str]) -> str:
        return "\n".join([
            "dboard/Tabletop ownership/tabletop-ownership",
            "var/Tabletop principal variation/tabletop-pv",
            "gfx/Tabletop move values/tabletop-move_values",
            "string/Tabletop win rate/tabletop-winrate",
        ])

    def handle_ownership(self, args: list[str]) -> str:
        """The ownership map, black 1 to white -1, one row per line from the top (`dboard`)."""
        reading = self._reading()
        size = self.session.size
        values = reading.ownership or (0.0,) * (size * size)
        return "\n".join(" ".join(f"{v + 0.0:.2f}" for v in values[row * size:(row + 1) * size])
                         for row in range(size))

    def handle_pv(self, args: list[str]) -> str:
        """The line the search expects, with colours ("b D4 w C6 ..."; GoGui's `var`)."""
        reading = self._reading()
        if not reading.moves:
            return ""
        colors = ("b", "w") if reading.to_move == "black" else ("w", "b")
        line = reading.moves[0].principal_variation
        return " ".join(f"{colors[i % 2]} {move}" for i, move in enumerate(line))

    def handle_move_values(self, args: list[str]) -> str:
        """The candidates' win rates in per cent as labels, and a summary (GoGui's `gfx`)."""
        reading = self._reading()
        labels = " ".join(f"{m.move} {round(100 * m.win_rate)}" for m in reading.moves
                          if m.move != "pass")
        lines = [f"LABEL {labels}"] if labels else []
        lines.append(f"TEXT {self._summary(reading)}")
        return "\n".join(lines)

    def handle_winrate(self, args: list[str]) -> str:
        return self._summary(self._reading())

    def _summary(self, reading: Reading) -> str:
        side = reading.to_move.capitalize()
        if not reading.moves:
            return f"{side} to move: no move read yet"
        best = reading.moves[0]
        return (f"{side} to move: {best.move} best, win rate {100 * reading.win_rate:.1f} %, "
                f"lead {reading.score_lead:+.1f} over {reading.visits} playouts")

    def _reading(self) -> Reading:
        """The reading of the current position for the side to move, searched for one move's
        budget the first time it is asked for and remembered until the position changes."""
        session = self.session
        key = session.position_key()
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        player = session.analysis_player()
        with session.position_for(self._side_to_move()) as position:
            reading = player.read(position)
        self._cached = (key, reading)
        return reading


def _writer(write: Write, request: AnalyzeRequest, kata: bool) -> Callable[[Reading], None]:
    """A `Report` that writes each reading as one line (none while it has no move)."""

    def report(reading: Reading) -> None:
        line = info_line(reading, request, kata)
        if line:
            write(line)

    return report
