"""One GTP session's Go: the game as GTP sees it, the clock, komi and the computer player.

Start with `GoSession.commands`, the table of the Go commands (`boardsize`, `play`, `genmove`,
`undo`, `final_score`, ...) naming the `handle_<command>` method that answers each and how many
arguments it takes; `app.gtp.protocol.GtpProtocol` checks that count before calling it.

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
- `final_score` and `final_status_list` use the engine's area count, its dead-stone proposal
  (`propose_dead`) and its seki judgement (`status_groups`), all in `app.engine.go.scoring`.
- `genmove` thinks for what `app.gtp.clock.move_budget` allows, less whatever the command waited
  for before the search began - on the first move, often the background warm-up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.engine.go import (
    BLACK,
    WHITE,
    Board,
    Color,
    Game,
    GoError,
    Setup,
    area_score,
    from_sgf,
    handicap_points,
    max_handicap,
    parse_move,
    propose_dead,
    vertex,
)
from app.engine.go.coords import COLUMN_LETTERS, MAX_SIZE, MIN_SIZE, PASS, RESIGN
from app.engine.go.game import MAX_KOMI
from app.engine.go.levels import NETWORK_WEIGHTS
from app.engine.go.scoring import CHAIN_STATUSES, status_groups
from app.gtp.clock import MIN_SECONDS, TimeSettings, move_budget
from app.gtp.protocol import (
    Command,
    GtpFailure,
    parse_color,
    parse_float,
    parse_int,
    parse_seconds,
    syntax_error,
)

if TYPE_CHECKING:
    from app.engine.go.mcts import Decision, MctsPlayer
    from app.engine.go.mcts.player import Report

DEFAULT_SECONDS = 1.0  # thinking time per move when neither --time nor --playouts is given
MAX_SGF_FILE_BYTES = 2_000_000  # `loadsgf` reads no more (the SGF reader refuses over 1 MB anyway)


def rules_komi(komi: float) -> float:
    """The komi the rules engine gets for a GTP komi: the nearest multiple of 0.5, clamped."""
    return max(-MAX_KOMI, min(MAX_KOMI, round(komi * 2) / 2))


@dataclass(frozen=True, slots=True)
class Step:
    """One GTP move as the rules engine saw it: how many engine moves it made in the current
    game (an inserted pass counts), and whether it opened a new segment (see the module
    docstring) - then its moves live in that segment, and undoing it drops the segment."""

    added: int
    new_segment: bool


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """How the computer player thinks: a time and/or a playout budget per move, a seed,
    whether the playouts kept in a reused tree count against the budget (`count_kept`), and
    a move predictor's weights file for the root (`network`: the shipped one unless named;
    None: no predictor; averaged over `symmetries`) and the playouts at which an inner node
    gets its view too (`inner_visits`; None: the root only)."""

    seconds: float | None = DEFAULT_SECONDS
    playouts: int | None = None
    seed: int | None = None
    count_kept: bool = False
    network: str | None = str(NETWORK_WEIGHTS)
    symmetries: int = 8
    inner_visits: int | None = None


PlayerFactory = Callable[[PlayerSettings], "MctsPlayer"]


def mcts_player(settings: PlayerSettings) -> MctsPlayer:
    """The Monte-Carlo player with these settings (imported only when a move is wanted)."""
    from app.engine.go.mcts import MctsPlayer
    from app.engine.go.mcts.network import load

    network = load(Path(settings.network)) if settings.network is not None else None
    return MctsPlayer(seconds=settings.seconds, playouts=settings.playouts, seed=settings.seed,
                      count_kept=settings.count_kept, network=network,
                      symmetries=settings.symmetries, inner_visits=settings.inner_visits)


class GoSession:
    """The game as GTP sees it - segments, undo history, komi, the clock, the player - and one
    `handle_<command>` method per Go command, named in `commands`."""

    def __init__(
        self, settings: PlayerSettings, player_factory: PlayerFactory, log: Callable[[str], None]
    ) -> None:
        self.settings = settings
        self._player_factory = player_factory
        self._player: MctsPlayer | None = None
        self.log = log  # the protocol's: a no-op unless --verbose
        # Called before each search; `main` makes it wait for the background warm-up.
        self.before_thinking: Callable[[], None] | None = None
        self.size = 19  # the spec's default; every controller sends boardsize first anyway
        self.komi = 0.0  # GTP's komi, exact (see `rules_komi`)
        self._segments: list[Game] = []
        self._history: list[Step] = []
        self._time_settings: TimeSettings | None = None
        self._time_left: dict[Color, tuple[float, int]] = {}
        self._dead_cache: tuple[tuple[int, int, tuple[int, ...]], frozenset[int]] | None = None
        self._reset(Game(self.size, rules_komi(self.komi)))

    def commands(self) -> dict[str, Command]:
        """The Go commands: each name's handler and its arity (see `Command`)."""
        return {
            "boardsize": Command(self.handle_boardsize, 1),
            "clear_board": Command(self.handle_clear_board),
            "komi": Command(self.handle_komi, 1),
            "fixed_handicap": Command(self.handle_fixed_handicap, 1),
            "place_free_handicap": Command(self.handle_place_free_handicap, 1),
            # Any count: the handler refuses too few or too many with GTP's own sentence.
            "set_free_handicap": Command(self.handle_set_free_handicap, (0, None)),
            "loadsgf": Command(self.handle_loadsgf, (1, 2)),
            "play": Command(self.handle_play, 2),
            "genmove": Command(self.handle_genmove, 1),
            "reg_genmove": Command(self.handle_reg_genmove, 1),
            "undo": Command(self.handle_undo),
            "time_settings": Command(self.handle_time_settings, 3),
            "time_left": Command(self.handle_time_left, 3),
            "final_score": Command(self.handle_final_score),
            "final_status_list": Command(self.handle_final_status_list, 1),
            "showboard": Command(self.handle_showboard),
        }

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

    # -- setting up ------------------------------------------------------------------------------

    def handle_boardsize(self, args: list[str]) -> str:
        negative = args[0].startswith("-")
        size = parse_int(args[0][1:] if negative else args[0])
        if negative or not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpFailure("unacceptable size")
        self.size = size
        self._reset(self._new_game())
        return ""

    def handle_clear_board(self, args: list[str]) -> str:
        self._reset(self._new_game())
        return ""

    def handle_komi(self, args: list[str]) -> str:
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

    def handle_fixed_handicap(self, args: list[str]) -> str:
        stones = parse_int(args[0])
        self._check_handicap_board(stones)
        try:
            points = handicap_points(self.size, stones)
        except GoError:
            raise GtpFailure("invalid number of stones") from None
        self._reset(self._new_game(handicap=stones))
        return " ".join(vertex(p, self.size) for p in points)

    def handle_place_free_handicap(self, args: list[str]) -> str:
        """The engine's choice of handicap points: the fixed ones (GTP allows placing fewer
        stones than asked when the board cannot take more, so the count is capped there)."""
        stones = parse_int(args[0])
        self._check_handicap_board(stones)
        placed = min(stones, max_handicap(self.size))
        if placed < 2:
            raise GtpFailure("invalid number of stones")
        points = handicap_points(self.size, placed)
        self._reset(self._new_game(handicap=placed))
        return " ".join(vertex(p, self.size) for p in points)

    def handle_set_free_handicap(self, args: list[str]) -> str:
        self._check_handicap_board(len(args))
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

    def handle_loadsgf(self, args: list[str]) -> str:
        """loadsgf FILE [move_number]: the record's main line up to, not including, that move
        (all of it without a number). Board size and komi come from the record."""
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

    def handle_play(self, args: list[str]) -> str:
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

    def handle_genmove(self, args: list[str]) -> str:
        return self._generate(parse_color(args[0]), play=True)

    def handle_reg_genmove(self, args: list[str]) -> str:
        """Like genmove, but the move is not played (regression tests, analysis)."""
        return self._generate(parse_color(args[0]), play=False)

    def _generate(self, color: Color, play: bool, report: Report | None = None,
                  interval: float = 1.0) -> str:
        """The player's move for `color`, played unless it is "resign" or `play` is false -
        then the board is left exactly as it was. `report` hears the search's reading every
        `interval` seconds (`lz-genmove_analyze`)."""
        received = time.perf_counter()
        step = self._prepare(color)
        try:
            move = self._think(color, received, report, interval).move
            if move != "resign" and play:
                self.game.play(move)
                self._history.append(Step(step.added + 1, step.new_segment))
                return move
        except BaseException:
            self._unprepare(step)
            raise
        self._unprepare(step)
        return move

    def generate(self, color: Color, report: Report | None, interval: float) -> str:
        """`genmove` for `color` with the search's reading handed to `report` every `interval`
        seconds while it thinks (the analysis commands' genmove)."""
        return self._generate(color, play=True, report=report, interval=interval)

    @contextmanager
    def position_for(self, color: Color) -> Iterator[Game]:
        """The game with `color` to move (as `play` or `genmove` would make it, see the module
        docstring), for as long as the block runs; then the board is as it was."""
        step = self._prepare(color)
        try:
            yield self.game
        finally:
            self._unprepare(step)

    def analysis_player(self) -> MctsPlayer:
        """The session's player, for the analysis commands, with one move's budget as the
        clock allows it now: they search with its tree, so a `genmove` after them goes on
        from what they read."""
        if self.before_thinking is not None:
            self.before_thinking()
        budget = move_budget(self.settings.seconds, self._time_settings,
                             self._time_left.get(self.game.to_move or "black"),
                             len(self.game.board.empties))
        return self._player_for(budget)

    def position_key(self) -> tuple[object, ...]:
        """What tells the current position from any other the session has had: its segment,
        its moves, komi and size (what a cached reading of it must match)."""
        game = self.game
        return (len(self._segments), tuple(game.moves), game.setup, self.komi, self.size)

    def _think(self, color: Color, received: float, report: Report | None = None,
               interval: float = 1.0) -> Decision:
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
        decision = player.genmove(game, report, interval)
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

    def handle_undo(self, args: list[str]) -> str:
        if not self._history:
            raise GtpFailure("cannot undo")
        self._unprepare(self._history.pop())
        return ""

    # -- the clock -------------------------------------------------------------------------------

    def handle_time_settings(self, args: list[str]) -> str:
        self._time_settings = TimeSettings(
            parse_seconds(args[0]), parse_seconds(args[1]), parse_int(args[2])
        )
        self._time_left.clear()
        return ""

    def handle_time_left(self, args: list[str]) -> str:
        color = parse_color(args[0])
        self._time_left[color] = (parse_seconds(args[1]), parse_int(args[2]))
        return ""

    # -- scoring ---------------------------------------------------------------------------------

    def handle_final_score(self, args: list[str]) -> str:
        board = self.game.board
        return area_score(board, self._dead(board), self.komi).text

    def handle_final_status_list(self, args: list[str]) -> str:
        status = args[0].lower()
        if status not in CHAIN_STATUSES:
            raise syntax_error()
        board = self.game.board
        groups = status_groups(board, self._dead(board))[status]
        return "\n".join(" ".join(group) for group in groups)

    # -- showing ---------------------------------------------------------------------------------

    def handle_showboard(self, args: list[str]) -> str:
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
