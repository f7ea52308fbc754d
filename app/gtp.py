"""A Go Text Protocol (GTP v2) engine: Tabletop's Go player for GoGui, Sabaki, gomill & co.

Start with `GtpEngine.handle`: it takes one command line and returns the whole response text
("=12 D4\\n\\n", "? illegal move\\n\\n") or None for lines GTP ignores (empty ones, comments).
`main` is the `tabletop-gtp` console script: it reads commands from stdin, writes each response
to stdout and flushes it. Options: `--time SECONDS` per move, `--playouts N`, `--level NAME`,
`--seed N`, `--verbose` (log commands, replies and the player's reasoning to stderr).

How GTP meets the rules engine (`app.engine.go.Game`, which enforces alternating colours and
stops play after two passes):

- A `play` or `genmove` for the colour that is NOT to move - GTP allows it - first inserts a pass
  for the other side, so positional superko keeps the whole history. If that pass would be the
  second in a row (which would end the game) or play has already stopped after two passes, play
  goes on in a new `Game` set up from the current position with the requested colour to move
  (a "segment"); superko then remembers positions from that point on only.
- Each GTP move remembers how many engine moves it made (the inserted pass too) and whether it
  opened a segment, so `undo` takes back exactly one GTP move.
- Komi is kept as GTP gives it (any float) and used as is by `final_score`; the `Game` (and the
  player, which reads `game.komi`) gets the nearest multiple of 0.5, which is all the rules engine
  accepts.
- `final_score` and `final_status_list` use the engine's area count and its dead-stone proposal
  (`propose_dead`). Seki: a living chain not proved alive by Benson that shares a neutral
  liberty with a living enemy chain - meant for finished games, where the dame are filled.
- `genmove` thinks for `--time` seconds (or `--playouts`), less when `time_settings` and
  `time_left` say the clock cannot afford it (see `move_budget`), and less by whatever the
  command waited for before the search began - on the first move, often the background
  warm-up - so the answer comes within the budget as the controller's clock measures it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import math
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from app.engine.go import (
    BLACK,
    EMPTY,
    WHITE,
    Board,
    Color,
    Game,
    GoError,
    Setup,
    area_score,
    benson,
    from_sgf,
    handicap_points,
    max_handicap,
    parse_move,
    propose_dead,
    vertex,
)
from app.engine.go.coords import COLUMN_LETTERS, MAX_SIZE, MIN_SIZE, PASS, RESIGN
from app.engine.go.game import MAX_KOMI
from app.engine.go.scoring import territory_owners

if TYPE_CHECKING:
    from app.engine.go.mcts import Decision, MctsPlayer

PROTOCOL_VERSION = "2"  # GTP version 2 (draft 2), the one every controller speaks
ENGINE_NAME = "Tabletop"  # what `name` answers; GUIs show it as the player's name
DEFAULT_SECONDS = 1.0  # thinking time per move when neither --time nor --playouts is given
TIME_SAFETY = 0.8  # use at most this share of what the clock allows: pipes and GUIs lag
CLOCK_OVERHEAD = 0.1  # seconds per move lost outside thinking (GTP round trip, controller's clock)
MIN_SECONDS = 0.05  # always think a little: even a hurried move beats a random one
MIN_MOVES_LEFT = 15  # in main time, share the clock over at least this many more moves of ours
EMPTY_SHARE_PER_MOVE = 3  # ...or over (empty points / 3): roughly the moves a game still has
MAX_SGF_FILE_BYTES = 2_000_000  # `loadsgf` reads no more (the SGF reader refuses over 1 MB anyway)

COLORS: dict[str, Color] = {"b": "black", "black": "black", "w": "white", "white": "white"}
STATUSES = ("alive", "dead", "seki")  # the arguments `final_status_list` knows


class GtpFailure(Exception):
    """A command that fails: its message is the text after "? " in the reply."""


def syntax_error() -> GtpFailure:
    return GtpFailure("syntax error")


# -- command lines -------------------------------------------------------------------------------


def clean_line(raw: str) -> str:
    """A command line after GTP's preprocessing (spec section 3.1): control characters other
    than tab and newline removed, tabs turned into spaces, everything from '#' dropped, and
    surrounding whitespace stripped. An empty result means "ignore this line"."""
    kept = "".join(
        " " if char == "\t" else char
        for char in raw
        if char in "\t\n" or (ord(char) >= 32 and ord(char) != 127)
    )
    return kept.split("#", 1)[0].strip()


def format_response(ok: bool, command_id: str | None, text: str) -> str:
    """'=id text' or '?id text', ended by the empty line GTP uses as the terminator."""
    head = ("=" if ok else "?") + (command_id or "")
    # A blank line inside a response would end it early: never let one through.
    first, *rest = text.rstrip("\n").split("\n")
    # A blank line inside a response would end it early: never let one through.
    rest = [line if line.strip() else " " for line in rest]
    # A multi-line answer may start on the line after "=" (showboard): no trailing space then.
    return "\n".join([f"{head} {first}" if first else head, *rest]) + "\n\n"


# -- arguments -----------------------------------------------------------------------------------


def parse_color(text: str) -> Color:
    color = COLORS.get(text.lower())
    if color is None:
        raise syntax_error()
    return color


def parse_int(text: str) -> int:
    """A GTP int: unsigned decimal digits only (the spec's "int"); else a syntax error."""
    if not text.isascii() or not text.isdigit():
        raise syntax_error()
    return int(text)


def parse_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise syntax_error() from None
    if not math.isfinite(value):
        raise syntax_error()
    return value


def parse_seconds(text: str) -> float:
    """A time in seconds: GTP says int; a controller sending 12.5 is understood too."""
    value = parse_float(text)
    if value < 0:
        raise syntax_error()
    return value


def rules_komi(komi: float) -> float:
    """The komi the rules engine gets for a GTP komi: the nearest multiple of 0.5, clamped."""
    return max(-MAX_KOMI, min(MAX_KOMI, round(komi * 2) / 2))


# -- the clock -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimeSettings:
    """GTP's Canadian byo-yomi settings (`time_settings`), all in seconds / stones."""

    main_time: float
    byo_yomi_time: float
    byo_yomi_stones: int

    @property
    def unlimited(self) -> bool:
        """The spec's "no time limits": byo-yomi time but zero stones per period."""
        return self.byo_yomi_time > 0 and self.byo_yomi_stones == 0


def move_budget(
    base_seconds: float | None,
    settings: TimeSettings | None,
    left: tuple[float, int] | None,
    empty_points: int,
) -> float | None:
    """Seconds to think about one move: `base_seconds` (None = no time limit of our own),
    lowered when the clock cannot afford it.

    `left` is the latest `time_left` for the colour to move (seconds, stones left in the
    byo-yomi period, 0 stones meaning main time). Without it, the full `time_settings` clock is
    assumed. In byo-yomi the period's time is shared over its stones; in main time it is shared
    over the moves the game probably still has, plus one byo-yomi share if byo-yomi follows.
    Only `TIME_SAFETY` of that is used, less `CLOCK_OVERHEAD`, and never less than `MIN_SECONDS`.
    """
    if settings is None or settings.unlimited:
        return base_seconds
    if left is None:
        if settings.main_time > 0:
            left = (settings.main_time, 0)
        else:
            left = (settings.byo_yomi_time, settings.byo_yomi_stones)
    seconds, stones = left
    if stones > 0:
        affordable = seconds / stones
    else:
        moves_left = max(MIN_MOVES_LEFT, empty_points // EMPTY_SHARE_PER_MOVE)
        affordable = seconds / moves_left
        if settings.byo_yomi_stones > 0:
            affordable += settings.byo_yomi_time / settings.byo_yomi_stones
    allowed = max(MIN_SECONDS, affordable * TIME_SAFETY - CLOCK_OVERHEAD)
    return allowed if base_seconds is None else min(base_seconds, allowed)


# -- the engine ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One GTP move as the rules engine saw it: how many engine moves it made in the current
    game (an inserted pass counts), and whether it opened a new segment (see the module
    docstring) - then its moves live in that segment, and undoing it drops the segment."""

    added: int
    new_segment: bool


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """How the computer player thinks: a time and/or a playout budget per move, and a seed."""

    seconds: float | None = DEFAULT_SECONDS
    playouts: int | None = None
    seed: int | None = None


PlayerFactory = Callable[[PlayerSettings], "MctsPlayer"]


def mcts_player(settings: PlayerSettings) -> MctsPlayer:
    """The Monte-Carlo player with these settings (imported only when a move is wanted)."""
    from app.engine.go.mcts import MctsPlayer

    return MctsPlayer(seconds=settings.seconds, playouts=settings.playouts, seed=settings.seed)


class GtpEngine:
    """The GTP engine: the game as GTP sees it, and one method per command (`cmd_<name>`)."""

    def __init__(
        self,
        settings: PlayerSettings | None = None,
        *,
        player_factory: PlayerFactory = mcts_player,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings or PlayerSettings()
        self._player_factory = player_factory
        self._player: MctsPlayer | None = None
        self._log = log
        # Called before each search; `main` makes it wait for the background warm-up.
        self.before_thinking: Callable[[], None] | None = None
        self.size = 19  # the spec's default; every controller sends boardsize first anyway
        self.komi = 0.0  # GTP's komi, exact (see `rules_komi`)
        self._segments: list[Game] = []
        self._history: list[Step] = []
        self._time_settings: TimeSettings | None = None
        self._time_left: dict[Color, tuple[float, int]] = {}
        self._dead_cache: tuple[tuple[int, int, tuple[int, ...]], frozenset[int]] | None = None
        self.quit_requested = False
        self._reset(Game(self.size, rules_komi(self.komi)))
        self.commands: dict[str, Callable[[list[str]], str]] = {
            name[len("cmd_") :]: getattr(self, name)
            for name in sorted(dir(self))
            if name.startswith("cmd_")
        }

    # -- the protocol ----------------------------------------------------------------------------

    def handle(self, raw: str) -> str | None:
        """The complete response to one command line, or None when GTP ignores the line."""
        line = clean_line(raw)
        if not line:
            return None
        words = line.split()
        command_id = None
        if words[0].isascii() and words[0].isdigit():
            command_id = words.pop(0)
            if not words:
                return format_response(False, command_id, "empty command")
        name, args = words[0], words[1:]
        handler = self.commands.get(name)
        if handler is None:
            return format_response(False, command_id, "unknown command")
        try:
            text = handler(args)
        except GtpFailure as failure:
            return format_response(False, command_id, str(failure))
        except Exception as error:  # noqa: BLE001 - a GTP engine must answer, never die
            detail = " ".join(f"{type(error).__name__}: {error}".split())
            self.log(f"internal error in {line!r}: {detail}")
            return format_response(False, command_id, f"internal error: {detail}")
        return format_response(True, command_id, text)

    def log(self, message: str) -> None:
        if self._log is not None:
            self._log(message)

    # -- the game as GTP sees it -----------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The current segment: the rules engine's game from the last restart on."""
        return self._segments[-1]

    def _reset(self, game: Game, moves_are_undoable: bool = False) -> None:
        self._segments = [game]
        self._history = [Step(1, False)] * len(game.moves) if moves_are_undoable else []
        self._dead_cache = None
        if self._player is not None:
            self._player.clear()

    def _new_game(self, **kwargs: Any) -> Game:
        try:
            return Game(self.size, rules_komi(self.komi), **kwargs)
        except GoError as error:
            raise GtpFailure(error.message) from error

    def _board_is_empty(self) -> bool:
        return not self.game.board.chains

    def _prepare(self, color: Color) -> Step:
        """Make `color` the side to move (see the module docstring); return what it took."""
        game = self.game
        if game.status == "playing" and game.to_move == color:
            return Step(0, False)
        if game.status == "playing" and game.last_move != "pass":
            game.play("pass")
            return Step(1, False)
        board = game.board
        names = board.geometry.names
        setup = Setup(
            black=tuple(names[p] for p in board.stones(BLACK)),
            white=tuple(names[p] for p in board.stones(WHITE)),
            to_move=color,
        )
        self._segments.append(Game(self.size, game.komi, setup=setup))
        return Step(0, True)

    def _unprepare(self, step: Step) -> None:
        if step.new_segment:
            self._segments.pop()  # its moves go with it
            return
        for _ in range(step.added):
            self.game.undo()

    def _play(self, color: Color, move: str) -> None:
        """Play `move` for `color` as one undoable GTP move; a `GoError` leaves no trace."""
        step = self._prepare(color)
        try:
            self.game.play(move)
        except GoError:
            self._unprepare(step)
            raise
        self._history.append(Step(step.added + 1, step.new_segment))

    def _captures(self) -> dict[str, int]:
        totals = {"black": 0, "white": 0}
        for game in self._segments:
            for color, count in game.captures.items():
                totals[color] += count
        return totals

    def _dead(self, board: Board) -> frozenset[int]:
        """The engine's dead-stone proposal for `board`, remembered for the same position."""
        key = (board.size, board.hash, tuple(board.colors))
        if self._dead_cache is None or self._dead_cache[0] != key:
            self._dead_cache = (key, propose_dead(board))
        return self._dead_cache[1]

    # -- administrative commands -----------------------------------------------------------------

    def cmd_protocol_version(self, args: list[str]) -> str:
        self._arity(args, 0)
        return PROTOCOL_VERSION

    def cmd_name(self, args: list[str]) -> str:
        self._arity(args, 0)
        return ENGINE_NAME

    def cmd_version(self, args: list[str]) -> str:
        self._arity(args, 0)
        try:
            return importlib.metadata.version("tabletop")
        except importlib.metadata.PackageNotFoundError:
            return "unknown"

    def cmd_known_command(self, args: list[str]) -> str:
        self._arity(args, 1)
        return "true" if args[0] in self.commands else "false"

    def cmd_list_commands(self, args: list[str]) -> str:
        self._arity(args, 0)
        return "\n".join(self.commands)

    def cmd_quit(self, args: list[str]) -> str:
        self.quit_requested = True
        return ""

    # -- setting up ------------------------------------------------------------------------------

    def cmd_boardsize(self, args: list[str]) -> str:
        self._arity(args, 1)
        negative = args[0].startswith("-")
        size = parse_int(args[0][1:] if negative else args[0])
        if negative or not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpFailure("unacceptable size")
        self.size = size
        self._reset(self._new_game())
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._arity(args, 0)
        self._reset(self._new_game())
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        self._arity(args, 1)
        self.komi = parse_float(args[0])
        new = rules_komi(self.komi)
        if new != self.game.komi:
            # The rules engine fixes komi at creation: rebuild every segment with the new one.
            segments = []
            for game in self._segments:
                data = game.to_dict()
                data["komi"] = new
                segments.append(Game.from_dict(data))
            self._segments = segments
            if self._player is not None:
                self._player.clear()  # its search valued positions under the old komi
        return ""

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        self._arity(args, 1)
        stones = parse_int(args[0])
        self._check_handicap_board(stones)
        try:
            points = handicap_points(self.size, stones)
        except GoError:
            raise GtpFailure("invalid number of stones") from None
        self._reset(self._new_game(handicap=stones))
        return " ".join(vertex(p, self.size) for p in points)

    def cmd_place_free_handicap(self, args: list[str]) -> str:
        """The engine's choice of handicap points: the fixed ones (GTP allows placing fewer
        stones than asked when the board cannot take more, so the count is capped there)."""
        self._arity(args, 1)
        stones = parse_int(args[0])
        self._check_handicap_board(stones)
        placed = min(stones, max_handicap(self.size))
        if placed < 2:
            raise GtpFailure("invalid number of stones")
        points = handicap_points(self.size, placed)
        self._reset(self._new_game(handicap=placed))
        return " ".join(vertex(p, self.size) for p in points)

    def cmd_set_free_handicap(self, args: list[str]) -> str:
        if not self._board_is_empty():
            raise GtpFailure("board not empty")
        if not 2 <= len(args) < self.size * self.size:
            raise GtpFailure("invalid number of stones")
        names: list[str] = []
        for text in args:
            try:
                point = parse_move(text, self.size)
            except GoError:
                raise GtpFailure("bad vertex list") from None
            if point in (PASS, RESIGN) or vertex(point, self.size) in names:
                raise GtpFailure("bad vertex list")
            names.append(vertex(point, self.size))
        self._reset(self._new_game(setup=Setup(black=tuple(names), to_move="white")))
        return ""

    def _check_handicap_board(self, stones: int) -> None:
        if not self._board_is_empty():
            raise GtpFailure("board not empty")
        if not 2 <= stones < self.size * self.size:
            raise GtpFailure("invalid number of stones")

    def cmd_loadsgf(self, args: list[str]) -> str:
        """loadsgf FILE [move_number]: the record's main line up to, not including, that move
        (all of it without a number). Board size and komi come from the record."""
        if len(args) not in (1, 2):
            raise syntax_error()
        until = parse_int(args[1]) if len(args) == 2 else None
        if until is not None and until < 1:
            raise syntax_error()
        path = Path(args[0])
        try:
            with path.open("rb") as file:
                data = file.read(MAX_SGF_FILE_BYTES + 1)
            game = from_sgf(data)
            if until is not None and until - 1 < len(game.moves):
                record = game.to_dict()
                record["moves"] = game.moves[: until - 1]
                record.pop("dead", None)
                record.pop("accepted", None)
                game = Game.from_dict(record)
        except (OSError, GoError) as error:
            self.log(f"loadsgf {path}: {error}")
            raise GtpFailure("cannot load file") from None
        self.size = game.size
        self.komi = game.komi
        self._reset(game, moves_are_undoable=True)
        return ""

    # -- playing ---------------------------------------------------------------------------------

    def cmd_play(self, args: list[str]) -> str:
        self._arity(args, 2)
        color = parse_color(args[0])
        if args[1].lower() == "resign":
            raise syntax_error()  # a GTP move is a vertex or "pass"; resigning is no move
        try:
            parse_move(args[1], self.size)
        except GoError as error:
            if error.code == "off_board":
                raise GtpFailure("illegal move") from None
            raise syntax_error() from None
        try:
            self._play(color, args[1])
        except GoError as error:
            self.log(f"play {color} {args[1]}: {error.message}")
            raise GtpFailure("illegal move") from None
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        self._arity(args, 1)
        return self._generate(parse_color(args[0]), play=True)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        """Like genmove, but the move is not played (regression tests, analysis)."""
        self._arity(args, 1)
        return self._generate(parse_color(args[0]), play=False)

    def _generate(self, color: Color, play: bool) -> str:
        """The player's move for `color`, played unless it is "resign" or `play` is false -
        then the board is left exactly as it was."""
        received = time.perf_counter()
        step = self._prepare(color)
        try:
            move = self._think(color, received).move
            if move != "resign" and play:
                self.game.play(move)
                self._history.append(Step(step.added + 1, step.new_segment))
                return move
        except BaseException:
            self._unprepare(step)
            raise
        self._unprepare(step)
        return move

    def _think(self, color: Color, received: float) -> Decision:
        """The player's decision for the position, thinking for what is left of the move's
        budget since the command was `received` (the first genmove may wait for the warm-up)."""
        game = self.game
        budget = move_budget(
            self.settings.seconds,
            self._time_settings,
            self._time_left.get(color),
            len(game.board.empties),
        )
        if self.before_thinking is not None:
            self.before_thinking()
        if budget is not None:
            budget = max(MIN_SECONDS, budget - (time.perf_counter() - received))
        player = self._player_for(budget)
        began = time.perf_counter()
        decision = player.genmove(game)
        self.log(
            f"genmove {color}: {decision.move} win rate {decision.win_rate:.3f}, "
            f"lead {decision.score_lead:+.1f}, "
            f"{decision.playouts} playouts in {time.perf_counter() - began:.2f} s "
            f"(budget: {'no time limit' if budget is None else f'{budget:.2f} s'}, "
            f"{self.settings.playouts or 'any number of'} playouts); "
            f"PV {' '.join(decision.principal_variation)}"
        )
        return decision

    def _player_for(self, seconds: float | None) -> MctsPlayer:
        """The player, given this move's time budget. One player serves the whole session,
        so it can reuse its search tree from one move to the next."""
        if self._player is None:
            self._player = self._player_factory(self.settings)
        self._player.seconds = seconds
        return self._player

    def cmd_undo(self, args: list[str]) -> str:
        self._arity(args, 0)
        if not self._history:
            raise GtpFailure("cannot undo")
        self._unprepare(self._history.pop())
        return ""

    # -- the clock -------------------------------------------------------------------------------

    def cmd_time_settings(self, args: list[str]) -> str:
        self._arity(args, 3)
        self._time_settings = TimeSettings(
            parse_seconds(args[0]), parse_seconds(args[1]), parse_int(args[2])
        )
        self._time_left.clear()
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        self._arity(args, 3)
        color = parse_color(args[0])
        self._time_left[color] = (parse_seconds(args[1]), parse_int(args[2]))
        return ""

    # -- scoring ---------------------------------------------------------------------------------

    def cmd_final_score(self, args: list[str]) -> str:
        self._arity(args, 0)
        board = self.game.board
        return area_score(board, self._dead(board), self.komi).text

    def cmd_final_status_list(self, args: list[str]) -> str:
        self._arity(args, 1)
        status = args[0].lower()
        if status not in STATUSES:
            raise syntax_error()
        board = self.game.board
        groups = status_groups(board, self._dead(board))[status]
        return "\n".join(" ".join(group) for group in groups)

    # -- showing ---------------------------------------------------------------------------------

    def cmd_showboard(self, args: list[str]) -> str:
        self._arity(args, 0)
        game, size = self.game, self.size
        rows = game.board_rows()
        stars = set(handicap_points(size, max_handicap(size))) if max_handicap(size) else set()
        last = game.last_move
        letters = "   " + " ".join(COLUMN_LETTERS[:size])
        lines = [letters]
        for row_index, row in enumerate(rows):
            number = size - row_index
            cells = [
                "+" if char == "." and row_index * size + column in stars else char
                for column, char in enumerate(row)
            ]
            # The separators around each point; the last move is drawn between parentheses.
            separators = [" "] * (size + 1)
            for column in range(size):
                if f"{COLUMN_LETTERS[column]}{number}" == last:
                    separators[column], separators[column + 1] = "(", ")"
            body = "".join(sep + cell for sep, cell in zip(separators, cells, strict=False))
            lines.append(f"{number:2d}{body}{separators[size]}{number}")
        lines.append(letters)
        captures = self._captures()
        to_move = game.to_move or "-"
        lines.append(
            f"komi {self.komi:g}; captured by black {captures['black']}, by white "
            f"{captures['white']}; moves: {len(self._history)}; to play: {to_move}"
        )
        return "\n" + "\n".join(lines)

    # -- helpers ---------------------------------------------------------------------------------

    @staticmethod
    def _arity(args: Sequence[str], count: int) -> None:
        if len(args) != count:
            raise syntax_error()


def status_groups(board: Board, dead: frozenset[int]) -> dict[str, list[list[str]]]:
    """Each chain's vertices filed under "alive", "dead" or "seki" (see the module docstring),
    chains in board order, vertices in board order."""
    names = board.geometry.names
    neighbours = board.geometry.neighbours
    owners = territory_owners(board, dead)
    proved = benson(board, BLACK).alive | benson(board, WHITE).alive
    colors = board.colors
    groups: dict[str, list[list[str]]] = {status: [] for status in STATUSES}
    for key, chain in sorted(board.chains.items(), key=lambda item: min(item[1].stones)):
        stones = sorted(chain.stones)
        if stones[0] in dead:
            status = "dead"
        elif key not in proved and any(
            owners[liberty] == EMPTY
            and any(
                colors[n] == 3 - chain.color and n not in dead for n in neighbours[liberty]
            )
            for liberty in chain.liberties
        ):
            status = "seki"
        else:
            status = "alive"
        groups[status].append([names[s] for s in stones])
    return groups


# -- the console script --------------------------------------------------------------------------


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
    parser.add_argument("--level", metavar="NAME",
                        help="one of the Monte-Carlo player's named LEVELS (easy, medium, ...); "
                        "--time and --playouts override its budget")
    parser.add_argument("--seed", type=int, metavar="N", help="random seed (reproducible play)")
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
    return PlayerSettings(seconds=seconds, playouts=playouts, seed=options.seed)


def level_budget(name: str) -> tuple[float | None, int | None]:
    """(seconds, playouts) per move of one of the Monte-Carlo player's named levels."""
    from app.engine.go.mcts import LEVELS

    level = LEVELS.get(name)
    if level is None:
        raise ValueError(f"unknown level {name!r}; the levels are {', '.join(LEVELS)}")
    return level.seconds, level.playouts


def serve(
    engine: GtpEngine,
    stdin: IO[bytes],
    stdout: IO[str],
    log: Callable[[str], None] | None = None,
) -> None:
    """Answer commands from `stdin` until `quit` or end of input, flushing every response."""
    while not engine.quit_requested:
        raw = stdin.readline()
        if not raw:
            break
        line = raw.decode("utf-8", errors="replace")
        response = engine.handle(line)
        if response is None:
            continue
        if log is not None:
            log(f"<< {clean_line(line)}")
            log(">> " + response.rstrip("\n").replace("\n", "\n>> "))
        stdout.write(response)
        stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """The `tabletop-gtp` console script."""
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


if __name__ == "__main__":
    sys.exit(main())
