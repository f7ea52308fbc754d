"""The Monte-Carlo tree search Go player: budgets, levels, tree reuse, pass and resign.

Start with `MctsPlayer.genmove`: it turns the `Game` into an array board
(`fastboard.setup_board`), keeps the previous move's tree when the game continues the line it
was built for (`_reuse`), spends its budget on simulations in batches (`_search`), then picks
the most-visited move the game accepts (positional superko included) - or passes, or resigns.
With a move predictor (`network.py`; every level plays with the shipped one), the root's
children take its view before the first batch (`_prepare`, `Tree.prefer`).

Passing: the player passes when it has no sensible move (every legal move would fill one of
its own eyes), and when the opponent has just passed and playouts that go on as if the game
had not ended say it wins the count - with the stones they kill taken off - and are sure of
every stone's fate (`judge_pass`): a referee reads dead stones by play, and a group that looks
alive may die to a throw-in (`tactics.nakade`), which these playouts play.

Resigning: when the best move's win rate is below the player's `resign_threshold` after at
least `RESIGN_MIN_PLAYOUTS` playouts, once the game is far enough along
(`RESIGN_MIN_PROGRESS`) that early, noisy estimates cannot trigger it, and only if the
search's own score estimate (`analysis.score_lead`) also has the player behind.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..board import BLACK, WHITE
from ..coords import PASS, geometry
from ..errors import GameOver
from ..game import Game
from ..levels import LEVELS, NETWORK_WEIGHTS, UnknownLevel
from ..scoring import area_score
from . import fastboard as fb
from . import jit, policy, scratch, tuning, walk
from .analysis import Reading, ownership_map, read_tree, score_lead
from .fastboard import padded_point, point_name
from .features import gamma_table, spatial_table
from .jit import Ints
from .network import SYMMETRIES, Network, load
from .patterns import pattern_table
from .scratch import make_work
from .tree import ChildStats, Tree
from .tuning import (
    PASS_CHECK_PLAYOUTS,
    PASS_MIN_AGREEMENT,
    PASS_MIN_WIN_RATE,
    RESIGN_MIN_PLAYOUTS,
    RESIGN_MIN_PROGRESS,
    RESIGN_THRESHOLD,
    REUSE_MAX_MOVES,
    make_params,
)

FIRST_BATCH = 16  # simulations in the first batch of a timed search, to measure the speed
BATCH_SECONDS = 0.02  # later timed batches: short enough to stop near the deadline
FIXED_BATCH = 64  # batch size when only playouts are budgeted (keeps seeded runs repeatable)
MAX_BATCH = 1 << 16  # never hand the compiled code an unbounded batch
PONDER_MAX_NODES = 1 << 21  # a pondering tree stops growing here: 2M nodes, ~185 MB
ROOM_PER_SIMULATION = 2  # boards of new children one simulation can add, at most (a margin)
PONDER_IDLE_SECONDS = 0.01  # how often a full pondering tree looks for its interruption
DEADLINE_MARGIN = 0.005  # seconds kept back for choosing the move and building the answer
INNER_SYMMETRIES = 1  # board turns a busy inner node's prediction averages: one (8 x cheaper)


Report = Callable[[Reading], None]  # hears a search's reading while it runs


@dataclass(frozen=True, slots=True)
class Decision:
    """What `genmove` chose and why: the move ("D4", "pass" or "resign"), the estimated win
    rate for the side to move (0..1), the playouts run for this move (not counting those
    carried over in a reused tree), the wall time taken, the expected continuation and the
    expected area margin for the side to move, komi included (`analysis.score_lead`; for a pass by
    count, that count's margin). `analyse` adds the search's ownership map: per point, in
    the board's order (rows from the top), the share of its simulations that ended with the
    point black's minus the share that ended with it white's (-1..1)."""

    move: str
    win_rate: float
    playouts: int
    seconds: float
    principal_variation: tuple[str, ...]
    score_lead: float
    ownership: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class PassJudgement:
    """Whether to pass after the opponent's pass (`MctsPlayer.judge_pass`): the count's margin
    for the side to move (positive: a win) with the stones the playouts kill taken off, the
    side's win rate in those playouts and their agreement on the stones' fates."""

    margin: float
    win_rate: float
    agreement: float
    playouts: int

    @property
    def passes(self) -> bool:
        """A won count that the playouts confirm, by both thresholds."""
        return (self.margin > 0 and self.win_rate >= PASS_MIN_WIN_RATE
                and self.agreement >= PASS_MIN_AGREEMENT)


class MctsPlayer:
    """A UCT-RAVE Monte-Carlo player with hand-made and trained priors, heuristic playouts.

    Keeps its tree between moves of one game (call `clear` for a new game, though a game that
    does not continue the previous one is detected anyway). Not thread-safe.
    """

    def __init__(
        self,
        seconds: float | None = 1.0,
        playouts: int | None = None,
        seed: int | None = None,
        resign_threshold: float = RESIGN_THRESHOLD,
        count_kept: bool = False,
        network: Network | None = None,
        symmetries: int = SYMMETRIES,
        inner_visits: int | None = None,
    ) -> None:
        """A player searching `seconds` and/or `playouts` a move (whichever runs out first).
        With `count_kept`, the playouts a reused tree kept from the previous move count
        against `playouts`, as Pachi's `-t =N` counts them (a screen against Pachi at equal
        playouts needs it); without, `playouts` new ones are run. With a `network`, its
        prediction (averaged over `symmetries` turns of the board) replaces the trained
        features' in the root's priors and widening order (`Tree.prefer`) - and, with
        `inner_visits`, in those of every node whose playouts reach that many (read over
        `INNER_SYMMETRIES` turns: there are many more of them)."""
        if seconds is None and playouts is None:
            raise ValueError("an MCTS player needs a budget: seconds, playouts or both.")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive, not {seconds!r}.")
        if playouts is not None and playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts!r}.")
        if not 0.0 <= resign_threshold < 1.0:
            raise ValueError(f"resign_threshold must be in [0, 1), not {resign_threshold!r}.")
        if not 1 <= symmetries <= SYMMETRIES:
            raise ValueError(f"symmetries must be 1-{SYMMETRIES}, not {symmetries!r}.")
        if inner_visits is not None and (network is None or inner_visits < 1):
            raise ValueError("inner_visits needs a network and must be at least 1, not "
                             f"{inner_visits!r}.")
        self.network = network
        self.symmetries = symmetries
        self.inner_visits = inner_visits
        self.seconds = seconds
        self.playouts = playouts
        self.resign_threshold = resign_threshold
        self.count_kept = count_kept
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        # xorshift must not start at zero; mix the seed so nearby seeds diverge at once.
        state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64) or 1
        self._rng = np.array([state], np.uint64)
        self._pat3 = pattern_table()
        self._gammas = gamma_table()
        self._spatial = spatial_table()
        self._tree: Tree | None = None
        self._key: tuple[object, ...] | None = None
        self._moves: list[str] = []
        self.carried_over = 0
        """Playouts the last `genmove` inherited from the previous move's tree."""

    @classmethod
    def for_level(cls, name: str, seed: int | None = None) -> MctsPlayer:
        """A player with the budget of one of `LEVELS` ("easy" ... "strongest") and the
        shipped move predictor (`NETWORK_WEIGHTS`) at the root."""
        level = LEVELS.get(name)
        if level is None:
            raise UnknownLevel(
                f"unknown level: {name!r}; choose one of {', '.join(LEVELS)}."
            )
        return cls(seconds=level.seconds, playouts=level.playouts, seed=seed,
                   network=load(NETWORK_WEIGHTS))

    def clear(self) -> None:
        """Forget the tree (a new game starts)."""
        self._tree = None
        self._key = None
        self._moves = []
        self.carried_over = 0

    # -- the move ------------------------------------------------------------------------------

    def genmove(self, game: Game, report: Report | None = None,
                interval: float = 1.0) -> Decision:
        """Choose a move for `game.to_move` (the game is not changed). Raises `GameOver` when
        the game is not being played (scoring or over). With `report`, the search hands it its
        `Reading` every `interval` seconds while it runs (not after a pass by count)."""
        began = time.perf_counter()
        if game.status != "playing" or game.to_move is None:
            raise GameOver(
                "game over: there is no move to choose once play has stopped; undo the last "
                "move to play on."
            )
        warm_up()
        searching_since = time.perf_counter()
        color = BLACK if game.to_move == "black" else WHITE
        if game.last_move == "pass":
            judgement = self.judge_pass(game)
            if judgement.passes:
                self.clear()
                return Decision("pass", judgement.win_rate, judgement.playouts,
                                time.perf_counter() - began, ("pass",), judgement.margin)

        tree = self._reuse(game, color)
        self.carried_over = tree.root_visits
        work, done, best = self._search_position(game, tree, searching_since, report, interval)
        lead = score_lead(work, done, game.komi, color)
        if best is None:  # every child forbidden by the game: only passing is left
            return Decision("pass", 0.5, done, time.perf_counter() - began, ("pass",), lead)
        if self._should_resign(game, tree, best, lead):
            return Decision("resign", best.win_rate, done, time.perf_counter() - began, (), lead)
        return self._decision(game, tree, best, done, began, lead)

    def analyse(self, game: Game) -> Decision:
        """The search's reading of `game` for the side to move, for a reviewer rather than an
        opponent: its best move (never a resignation, and passing only when the search
        prefers it, not by count), and its ownership map (`Decision.ownership`). The tree is
        built afresh and not kept."""
        began = time.perf_counter()
        color = _reading_color(game)
        self.clear()
        tree = self._reuse(game, color)
        work, done, best = self._search_position(game, tree, time.perf_counter())
        self.clear()
        lead = score_lead(work, done, game.komi, color)
        ownership = tuple(round(v, 2) for v in ownership_map(work, done, game.size))
        if best is None:
            decision = Decision("pass", 0.5, done, time.perf_counter() - began, ("pass",), lead)
        else:
            decision = self._decision(game, tree, best, done, began, lead)
        return replace(decision, ownership=ownership)

    def read(self, game: Game) -> Reading:
        """The search's `Reading` of `game` for the side to move after one move's budget, as
        `genmove` would spend it; the tree is kept, as `genmove` keeps it. Raises `GameOver`
        when the game is not being played."""
        color = _reading_color(game)
        tree = self._reuse(game, color)
        work, done, _ = self._search_position(game, tree, time.perf_counter())
        legal = {padded_point(v, game.size) for v in game.legal_moves()}
        return read_tree(tree, work, done, game.size, game.komi, color, legal)

    def ponder(self, game: Game, report: Report, interval: float,
               interrupted: Callable[[], bool]) -> Reading:
        """Search `game` for the side to move until `interrupted()` turns true, handing `report`
        the `Reading` every `interval` seconds (the first after one interval), and return the
        last reading. Batches are short (BATCH_SECONDS), so it stops within about that of the
        interruption. The search stops growing once its tree would pass PONDER_MAX_NODES
        nodes (it goes on waiting and reporting); the tree is kept for a `genmove` of the same
        position to go on from. Raises `GameOver` when the game is not being played."""
        color = _reading_color(game)
        tree = self._reuse(game, color)
        params = make_params(game.komi, size=game.size)
        root, work, legal = self._prepare(game, tree, params)
        walk_board = root.copy()
        room = ROOM_PER_SIMULATION * (game.size * game.size + 1)  # nodes one simulation adds
        done, batch = 0, FIRST_BATCH

        def reading() -> Reading:
            return read_tree(tree, work, done, game.size, game.komi, color, legal)

        next_report = time.perf_counter() + interval
        while not interrupted():
            if tree.size + batch * room <= PONDER_MAX_NODES:
                began = time.perf_counter()
                tree.search(root, walk_board, params, self._pat3, self._gammas, self._spatial,
                            self._rng, work, batch)
                done += batch
                rate = batch / max(time.perf_counter() - began, 1e-6)
                batch = max(1, min(MAX_BATCH, int(rate * BATCH_SECONDS)))
            else:
                time.sleep(PONDER_IDLE_SECONDS)
            if time.perf_counter() >= next_report:
                report(reading())
                next_report = time.perf_counter() + interval
        self._tree, self._moves, self._key = tree, game.moves, _game_key(game)
        return reading()

    def _prepare(self, game: Game, tree: Tree, params: jit.Floats) -> tuple[Ints, Ints, set[int]]:
        """The array board of `game`, fresh work arrays with the root's legal moves masked in,
        and those moves (padded points); the tree's children the game refuses are forbidden.
        With a network, the root is expanded now and its children take the network's view."""
        root = array_board(game)
        legal = {padded_point(v, game.size) for v in game.legal_moves()}
        work = make_work(root)
        for point in legal:
            work[scratch.W_MASK, point] = 1
        if self.network is not None and not tree.preferred(0):
            tree.expand_root(root, params, self._pat3, self._gammas, self._spatial, work)
            self._prefer(tree, 0, root, params, self.symmetries)
        tree.forbid({c.point for c in tree.children() if c.point not in legal} - {PASS})
        return root, work, legal

    def _prefer(self, tree: Tree, node: int, board: Ints, params: jit.Floats,
                symmetries: int) -> None:
        """Give `node` (whose position is `board`) the network's view (`Tree.prefer`)."""
        assert self.network is not None
        points, replaced, policy = self.network.candidates(board, symmetries)
        tree.prefer(node, dict(zip(points.tolist(), policy.tolist(), strict=True)),
                    dict(zip(points.tolist(), replaced.tolist(), strict=True)),
                    float(params[tuning.P_PRIOR_GAMMA]))

    def _prefer_busy(self, tree: Tree, root: Ints, params: jit.Floats) -> None:
        """Give the network's view to the nodes whose playouts reached `inner_visits` since
        the last batch: their positions are replayed from the root's."""
        assert self.inner_visits is not None
        for node in tree.busy_unpreferred(self.inner_visits):
            board = root.copy()
            for move in tree.line(node):
                if move == PASS:
                    fb.pass_move(board)
                else:
                    fb.play(board, move, int(board[fb.META, fb.M_TOMOVE]))
            self._prefer(tree, node, board, params, INNER_SYMMETRIES)

    def _search_position(self, game: Game, tree: Tree, began: float,
                         report: Report | None = None,
                         interval: float = 1.0) -> tuple[Ints, int, ChildStats | None]:
        """Searches `game` in `tree` until the budget counted from `began` runs out: the work
        arrays (ownership included), the simulations run and the most-visited move the game
        accepts (None when it accepts none of the tree's). With `report`, it gets the
        search's `Reading` every `interval` seconds."""
        params = make_params(game.komi, size=game.size)
        root, work, legal = self._prepare(game, tree, params)
        color = BLACK if game.to_move == "black" else WHITE
        progress = None
        if report is not None:
            progress = _reporter(
                lambda done: read_tree(tree, work, done, game.size, game.komi, color, legal),
                report, interval)
        done = self._search(tree, root, work, params, began, progress)
        children = sorted(tree.children(), key=lambda c: (c.visits, c.win_rate), reverse=True)
        best = next((c for c in children if c.point == PASS or c.point in legal), None)
        self._tree, self._moves = tree, game.moves
        self._key = _game_key(game)
        return work, done, best

    def _decision(self, game: Game, tree: Tree, best: ChildStats, done: int, began: float,
                  lead: float) -> Decision:
        """The Decision to play `best`, with the line the tree expects after it."""
        line = [best.point]
        if best.point != PASS:
            move = point_name(best.point, game.size)
            if not game.is_legal(move):  # the legal set came from the game: cannot happen
                raise AssertionError(f"MCTS chose {move}, which the game refuses")
            node = tree.child(0, best.point)
            if node is not None:
                line.extend(tree.principal_line(node))
        names = tuple(point_name(p, game.size) for p in line)
        return Decision(names[0], best.win_rate, done, time.perf_counter() - began, names, lead)

    def _search(
        self, tree: Tree, root: Ints, work: Ints, params: jit.Floats, began: float,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Simulations until the budget runs out, or until the most-visited move can no longer
        be overtaken in the budget left; `progress` hears the count run after every batch.
        Returns the number run."""
        cap = self.playouts if self.playouts is not None else 1 << 62
        if self.count_kept:
            cap = max(cap - tree.root_visits, 1)  # (one batch at least: a decision needs it)
        deadline = began + self.seconds - DEADLINE_MARGIN if self.seconds is not None else None
        walk_board = root.copy()  # the board each simulation's walk plays on
        done = 0
        batch = FIRST_BATCH if deadline is not None else FIXED_BATCH
        while done < cap:
            now = time.perf_counter()
            if deadline is not None and now >= deadline and done > 0:
                break  # (the first batch always runs: a decision needs some playouts)
            count = min(batch, cap - done)
            tree.search(root, walk_board, params, self._pat3, self._gammas, self._spatial,
                        self._rng, work, count)
            done += count
            if self.inner_visits is not None:
                self._prefer_busy(tree, root, params)
            if progress is not None:
                progress(done)
            left = cap - done
            if deadline is not None:
                spent = time.perf_counter() - now
                rate = count / max(spent, 1e-6)
                left = min(left, int(rate * max(deadline - time.perf_counter(), 0.0)))
                batch = max(1, min(MAX_BATCH, int(rate * BATCH_SECONDS), left + 1))
            if _decided(tree.children(), left):
                break
        return done

    def judge_pass(self, game: Game) -> PassJudgement:
        """What passing now would lead to for the side to move, if it answered a pass (two
        passes end the game), judged by play as a referee judges dead stones:
        `PASS_CHECK_PLAYOUTS` playouts (with nakade throw-ins, `policy.playout_wins`) from the
        position with the opponent to move, as if the pass had not ended the game. A chain is
        dead when its points end the opponent's in more than half of them; the margin is the
        area count with those stones off the board, the win rate the side's share of the
        playouts, and the agreement the smallest share, over the stones on the board, of the
        playouts that end with the stone's point owned as the count has it (its colour's if
        alive, the other's if dead) - how sure the playouts are of every stone's fate."""
        if game.to_move is None:
            raise GameOver("game over: there is no pass to judge once play has stopped.")
        color = BLACK if game.to_move == "black" else WHITE
        board = array_board(game)
        fb.pass_move(board)
        board[fb.META, fb.M_PASSES] = 0
        work = make_work(board)
        wins = policy.playout_wins(board, PASS_CHECK_PLAYOUTS, self._rng, self._pat3, work,
                                   make_params(game.komi, game.size))
        black = wins / PASS_CHECK_PLAYOUTS
        owners = work[scratch.W_OWNER] / PASS_CHECK_PLAYOUTS  # +1: black's in every playout
        names = geometry(game.size).names
        kept: dict[int, float] = {}  # per stone: the share of playouts it lives in
        for point, stone in enumerate(game.board.colors):
            if stone in (BLACK, WHITE):
                blackish = float(1.0 + owners[padded_point(names[point], game.size)]) / 2
                kept[point] = blackish if stone == BLACK else 1.0 - blackish
        dead = frozenset(
            point for chain in game.board.all_chains()
            if sum(kept[p] for p in chain.stones) < len(chain.stones) / 2
            for point in chain.stones)
        agreement = min((1.0 - share if point in dead else share
                         for point, share in kept.items()), default=1.0)
        margin = _count_margin(game, dead, color)
        win_rate = black if color == BLACK else 1.0 - black
        return PassJudgement(margin, win_rate, agreement, PASS_CHECK_PLAYOUTS)

    def _reuse(self, game: Game, color: int) -> Tree:
        """The previous tree advanced to this position when the game continues the line it
        was searched for by at most `REUSE_MAX_MOVES` moves; else a fresh tree."""
        tree = self._tree
        moves = game.moves
        old = self._moves
        if (
            tree is not None
            and self._key == _game_key(game)
            and moves[: len(old)] == old
            and len(moves) - len(old) <= REUSE_MAX_MOVES
        ):
            extra = [padded_point(v, game.size) for v in moves[len(old) :]]
            if tree.advance(extra) and int(tree.ti[walk.T_COLOR, 0]) == 3 - color:
                return tree
        return Tree(3 - color)

    def _should_resign(self, game: Game, tree: Tree, best: ChildStats, lead: float) -> bool:
        """Resign when the best move's win rate is below the threshold, on enough playouts,
        late enough in the game - and the search's score estimate (`lead`, for the side to
        move) agrees that the game is lost: a low win rate with a lead means the playouts
        are split over something unsettled (a big group that lives in some of them), not a
        lost game."""
        if best.win_rate >= self.resign_threshold or tree.root_visits < RESIGN_MIN_PLAYOUTS:
            return False
        if lead >= 0:
            return False
        setup = game.setup
        stones = len(setup.black) + len(setup.white) if setup is not None else 0
        return game.move_number + stones >= RESIGN_MIN_PROGRESS * game.size * game.size


# -- helpers -------------------------------------------------------------------------------------


def _game_key(game: Game) -> tuple[object, ...]:
    """What must match for two games to be the same game (the moves aside)."""
    return (game.size, game.komi, game.handicap, game.setup, game.first_to_move)


def array_board(game: Game) -> Ints:
    """The array board of the game's position, with its side to move, ko and last moves."""
    size = game.size
    colors = game.board.colors
    names = geometry(size).names
    black = np.array([padded_point(names[p], size) for p, c in enumerate(colors) if c == BLACK],
                     np.int64)
    white = np.array([padded_point(names[p], size) for p, c in enumerate(colors) if c == WHITE],
                     np.int64)
    to_move = BLACK if game.to_move == "black" else WHITE
    ko = game.ko
    board = fb.setup_board(size, black, white, to_move, PASS if ko is None else
                           padded_point(ko, size))
    moves = game.moves
    if moves:
        board[fb.META, fb.M_LAST] = padded_point(moves[-1], size)
        board[fb.META, fb.M_PASSES] = 1 if moves[-1] == "pass" else 0
    if len(moves) > 1:
        board[fb.META, fb.M_LAST2] = padded_point(moves[-2], size)
    return board


def _reading_color(game: Game) -> int:
    """The colour to move in a game whose position is to be read (by `analyse`, `read` or
    `ponder`), once the kernels are loaded; `GameOver` when play has stopped."""
    if game.status != "playing" or game.to_move is None:
        raise GameOver("game over: there is no position left to read once play has stopped.")
    warm_up()
    return BLACK if game.to_move == "black" else WHITE


def _reporter(read: Callable[[int], Reading], report: Report,
              interval: float) -> Callable[[int], None]:
    """A `progress` callback for `_search` that hands `report` the reading (`read`, given the
    simulations run) once every `interval` seconds."""
    due = time.perf_counter() + interval

    def progress(done: int) -> None:
        nonlocal due
        if time.perf_counter() >= due:
            report(read(done))
            due = time.perf_counter() + interval

    return progress


def _count_margin(game: Game, dead: frozenset[int], color: int) -> float:
    """`color`'s margin in the area count of the current position with these dead stones
    taken off; positive: `color` wins."""
    margin = area_score(game.board, dead, game.komi).margin
    return margin if color == BLACK else -margin


def _decided(children: list[ChildStats], left: int) -> bool:
    """Whether the most-visited move stays ahead whatever the `left` playouts do."""
    if len(children) < 2:
        return bool(children) and children[0].visits > 0
    top = sorted((c.visits for c in children), reverse=True)
    return top[0] - top[1] > left


# -- compilation ---------------------------------------------------------------------------------

_warm = False


def warm_up() -> float:
    """Compile every kernel - or load it from numba's on-disk cache - by playing a few moves
    on a 5x5 board with the shipped move predictor (which it loads), so the first real move
    is not slowed down. Safe to call many times; returns the seconds it took (about zero
    after the first call)."""
    global _warm
    began = time.perf_counter()
    if _warm:
        return 0.0
    _warm = True
    try:
        game = Game(5)
        player = MctsPlayer(seconds=None, playouts=40, seed=1, network=load(NETWORK_WEIGHTS))
        for _ in range(3):
            decision = player.genmove(game)
            if decision.move == "resign":
                break
            game.play(decision.move)
        root = array_board(game)
        work = make_work(root)
        rng = np.array([1], np.uint64)
        params = make_params(7.5)
        policy.run_playouts(root, 2, False, rng, pattern_table(), work, params)
        policy.run_playouts(root, 2, True, rng, pattern_table(), work, params)
        policy.playout_wins(root, 2, rng, pattern_table(), work, params)  # (passing after a pass)
    except BaseException:
        _warm = False
        raise
    return time.perf_counter() - began
