"""The compiled array board (`mcts.fastboard`) against the engine's own `Board`.

Start with `test_random_games_agree_with_the_engine`: random games are played on both boards
at once, and after every move the stones, the simple ko, the legal moves, the atari chains and
the liberty counts a move would leave must agree. Then the 3x3 pattern table, and the playouts
and their score.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from app.engine.go import BLACK, EMPTY, PASS, WHITE, Board
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import policy, priors, scratch, tactics, tuning, walk, warm_up
from app.engine.go.mcts.features import gamma_table, spatial_table
from app.engine.go.mcts.patterns import PATTERNS, pattern_table
from app.engine.go.mcts.scratch import make_work
from app.engine.go.mcts.tuning import make_params

PARAMS = make_params(7.5)  # the player's tuning, 7.5 komi


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def pad(point: int, size: int) -> int:
    return (point // size + 1) * (size + 2) + point % size + 1


def fast_from(board: Board, to_move: int) -> np.ndarray:
    size = board.size
    black = np.array([pad(p, size) for p in board.stones(BLACK)], np.int64)
    white = np.array([pad(p, size) for p in board.stones(WHITE)], np.int64)
    ko = board.ko_point if board.ko_color == to_move and board.ko_point >= 0 else None
    return fb.setup_board(size, black, white, to_move, PASS if ko is None else pad(ko, size))


def check_same(board: Board, fast: np.ndarray, to_move: int) -> None:
    size = board.size
    for p, color in enumerate(board.colors):
        assert fast[fb.COLOR, pad(p, size)] == color
    assert fast[fb.META, fb.M_NEMPTY] == len(board.empties)
    expected_ko = board.ko_point if board.ko_color == to_move and board.ko_point >= 0 else None
    ko = int(fast[fb.META, fb.M_KO])
    assert (None if ko == PASS else ko) == (None if expected_ko is None else
                                               pad(expected_ko, size))
    legal = {pad(p, size) for p in board.legal_moves(to_move)}
    fast_legal = {pad(p, size) for p in board.empties if fb.is_legal(fast, pad(p, size), to_move)}
    assert fast_legal == legal
    for chain in board.all_chains():
        head = int(fast[fb.HEAD, pad(chain.stones[0], size)])
        assert {int(fast[fb.HEAD, pad(s, size)]) for s in chain.stones} == {head}
        assert fast[fb.SIZE, head] == len(chain.stones)
        assert fb.in_atari(fast, head) == (len(chain.liberties) == 1)
        if len(chain.liberties) == 1:
            assert fb.atari_liberty(fast, head) == pad(next(iter(chain.liberties)), size)


def liberties_by_engine(board: Board, point: int, color: int) -> tuple[int, bool]:
    """(liberties capped at 2, whether the move captured two or more stones)."""
    after = board.copy()
    captured = after.play(point, color)
    chain = after.chain_at(point)
    assert chain is not None
    return min(len(chain.liberties), 2), len(captured) >= 2


@pytest.mark.parametrize("size,seed", [(5, 1), (7, 2), (9, 3), (9, 4), (13, 5)])
def test_random_games_agree_with_the_engine(size: int, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(size)
    fast = fast_from(board, BLACK)
    color = BLACK
    for _ in range(3 * size * size):
        check_same(board, fast, color)
        legal = board.legal_moves(color)
        for p in rng.sample(legal, min(6, len(legal))):
            expected, multi = liberties_by_engine(board, p, color)
            liberties, _ = fb.liberties_after(fast, pad(p, size), color)
            if not multi:  # capturing 2+ stones is deliberately counted as "plenty"
                assert liberties == expected, (board, p)
        if not legal or rng.random() < 0.03:
            board.pass_turn()
            fb.pass_move(fast)
        else:
            p = rng.choice(legal)
            captured = board.play(p, color)
            assert fb.play(fast, pad(p, size), color) == len(captured)
        color = 3 - color
        assert fast[fb.META, fb.M_TOMOVE] == color


def test_eyes_are_recognised_with_their_diagonals() -> None:
    #   . X .        an eye at the corner A5 and a false one at C5 (O on a diagonal at the edge)
    board = Board.from_stones(5, [1, 5, 3, 7, 9], [13])
    fast = fast_from(board, BLACK)
    assert fb.is_eye(fast, pad(0, 5), BLACK)
    assert not fb.is_eye(fast, pad(0, 5), WHITE)
    assert fb.is_eye(fast, pad(2, 5), BLACK)
    board = Board.from_stones(5, [1, 3, 7], [6])
    fast = fast_from(board, BLACK)
    assert not fb.is_eye(fast, pad(2, 5), BLACK)  # white on the diagonal B4: false on the edge


def test_pattern_table_matches_each_pattern_in_every_orientation_and_colour() -> None:
    table = pattern_table()
    values = {"X": BLACK, "O": WHITE, ".": EMPTY, "#": 3, "x": EMPTY, "o": EMPTY, "?": EMPTY}
    for index, (_, rows) in enumerate(PATTERNS):
        cells = [values[ch] for row in rows for ch in row]
        del cells[4]
        code = sum(c << (2 * i) for i, c in enumerate(cells))
        # a pattern's class, or an earlier pattern's where that matches too
        assert 1 <= table[code] <= index + 1, rows
        swapped = sum(({1: 2, 2: 1}.get(c, c)) << (2 * i) for i, c in enumerate(cells))
        assert table[swapped], rows
        mirrored = [cells[i] for i in (2, 1, 0, 4, 3, 7, 6, 5)]
        assert table[sum(c << (2 * i) for i, c in enumerate(mirrored))], rows
    assert not table[0]  # an empty neighbourhood is no shape
    assert 0.001 < (table > 0).mean() < 0.5  # (most of the 65,536 codes never occur on a board)


def test_pattern_code_reads_the_board_in_table_order() -> None:
    # Hane that encloses, seen from the candidate point B4 on a 5x5 board: X O X above it.
    #   X O X . .
    #   . * . . .
    board = Board.from_stones(5, [0, 2], [1])
    fast = fast_from(board, BLACK)
    assert pattern_table()[fb.pattern_code(fast, pad(6, 5))] == 1  # the first pattern's class
    assert not pattern_table()[fb.pattern_code(fast, pad(18, 5))]


@pytest.mark.parametrize("heavy", [False, True])
def test_playouts_end_in_scored_positions_without_eye_filling(heavy: bool) -> None:
    root = fb.new_board(9)
    work = make_work(root)
    rng = np.array([7], np.uint64)
    results = []
    for _ in range(50):
        b = root.copy()
        results.append(policy.playout(b, heavy, rng, pattern_table(), work, PARAMS, heavy, heavy))
        assert b[fb.META, fb.M_PASSES] >= 2 or b[fb.META, fb.M_MOVES] == 3 * 81
        # Both sides passed because nothing but own eyes and suicides was left (and, for the
        # heuristic policy, self-ataris: always refused for 2+ stones, as in seki).
        for p in b[fb.EMPTIES, : b[fb.META, fb.M_NEMPTY]]:
            for color in (BLACK, WHITE):
                if fb.is_legal(b, p, color) and not fb.is_eye(b, p, color):
                    liberties, stones = fb.liberties_after(b, p, color)
                    assert heavy and liberties < 2  # lone stones: refused half the time
    assert set(results) <= {0.0, 1.0}
    assert 0 < sum(results) < 50  # with 7.5 komi random games go both ways


@pytest.mark.parametrize("heavy", [False, True])
def test_owners_of_a_finished_playout_are_what_black_wins_counts(heavy: bool) -> None:
    """`add_owners` adds up what `black_wins` counts: stones, and empty points that touch one
    colour only; the total decides the game as `black_wins` does."""
    root = fb.new_board(9)
    work = make_work(root)
    rng = np.array([11], np.uint64)
    for _ in range(30):
        b = root.copy()
        result = policy.playout(b, heavy, rng, pattern_table(), work, PARAMS, heavy, heavy)
        owners = np.zeros(b.shape[1], np.int64)
        fb.add_owners(b, owners)
        for row in range(1, 10):
            for column in range(1, 10):
                p = row * 11 + column
                color = b[fb.COLOR, p]
                if color == EMPTY:
                    around = {int(b[fb.COLOR, q]) for q in (p - 11, p - 1, p + 1, p + 11)}
                    around -= {EMPTY, fb.OFF}
                    color = around.pop() if len(around) == 1 else EMPTY
                assert owners[p] == {BLACK: 1, WHITE: -1, EMPTY: 0}[color]
        assert result == (1.0 if owners.sum() > 7.5 else 0.0)


def test_one_pass_sentinel_that_is_no_point_of_a_padded_board() -> None:
    assert fb.PASS is PASS and PASS == -1  # the engine's own, never an index of a point
    b = fb.new_board(5)
    assert b[fb.META, fb.M_LAST] == PASS and b[fb.META, fb.M_KO] == PASS
    assert (make_work(b)[scratch.W_REPLY : scratch.W_REPLY + 2] == PASS).all()  # no replies


def test_the_winners_replies_are_learned_and_the_losers_forgotten() -> None:
    root = fb.new_board(9)
    work = make_work(root)
    a, b, c, d = pad(10, 9), pad(20, 9), pad(30, 9), pad(40, 9)
    black, white = scratch.W_REPLY + BLACK - 1, scratch.W_REPLY + WHITE - 1
    work[white, b] = c  # white's stored reply to b, about to lose
    work[scratch.W_SEQ, :4] = [a, b, c, d]  # before the playout a; then black b, white c, black d
    policy.learn_replies(work, 3, BLACK, 1.0)  # black won
    assert work[black, a] == b and work[black, c] == d
    assert work[white, b] == PASS
    policy.learn_replies(work, 3, BLACK, 0.5)  # a draw teaches nothing
    assert work[black, a] == b


def test_a_learned_reply_is_played_when_it_keeps_two_liberties() -> None:
    board = Board.from_stones(9, [], [])
    fast = fast_from(board, BLACK)
    work = make_work(fast)
    rng = np.array([3], np.uint64)
    last, reply = pad(40, 9), pad(41, 9)
    fb.play(fast, last, BLACK)  # white to move, last move at the centre
    work[scratch.W_REPLY + WHITE - 1, last] = reply
    moves = {policy.heavy_move(fast, WHITE, rng, pattern_table(), work, PARAMS, True, False)
             for _ in range(20)}
    assert moves == {reply}


# -- two-liberty fights in the playouts -----------------------------------------------------------


def after_last(picture: str, last: tuple[int, int], color: int) -> np.ndarray:
    """The position of `picture` with `color`'s stone at `last` played last (the other side
    to move)."""
    b = fast_from(board_of(picture), color)
    fb.play(b, at(*last), color)
    return b


def two_liberty_moves(b: np.ndarray) -> set[int]:
    work = make_work(b)
    count = policy.two_liberty_candidates(b, int(b[fb.META, fb.M_LAST]),
                                      int(b[fb.META, fb.M_TOMOVE]), work, np.int64(0))
    return {int(p) for p in work[scratch.W_CAND, :count]}


def picks(b: np.ndarray, tries: int = 40) -> set[int]:
    """The moves `pick_candidate` takes from the two-liberty candidates over many tries."""
    work = make_work(b)
    rng = np.array([11], np.uint64)
    color = int(b[fb.META, fb.M_TOMOVE])
    chosen = set()
    for _ in range(tries):
        count = policy.two_liberty_candidates(b, int(b[fb.META, fb.M_LAST]), color, work,
                                          np.int64(0))
        chosen.add(policy.pick_candidate(b, color, rng, work, PARAMS, np.bool_(False), count))
    return chosen


# White's E5 stone (row 4, column 4) extends to a chain of two with two liberties, E7 and F6
# (rows from the top, 0-based): black puts it in atari from either side.
TWO_LIBERTIES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X O . . . .
    . . . X . X . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_a_two_liberty_chain_just_played_is_put_in_atari() -> None:
    b = after_last(TWO_LIBERTIES, (4, 4), WHITE)
    assert two_liberty_moves(b) == {at(2, 4), at(3, 5)}
    assert picks(b) == {at(2, 4), at(3, 5)}


def test_a_chain_left_with_two_liberties_extends_where_it_gains_liberties() -> None:
    # Black's F5 takes the third liberty of white's chain: white extends at E7 (four
    # liberties) or F6 (three).
    b = after_last(TWO_LIBERTIES.replace(". . . X . X", ". . . X O ."), (4, 5), BLACK)
    assert two_liberty_moves(b) == {at(2, 4), at(3, 5)}
    assert picks(b) == {at(2, 4), at(3, 5)}


def test_a_hopeless_extension_is_not_played() -> None:
    # White's D6-D5 chain has the liberties D7 and E6 after black's E5; E6 would leave it two
    # (E7 and D7), D7 gives four.
    b = after_last("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X O . X . . .
        . . X O . . . . .
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, (4, 4), BLACK)
    assert two_liberty_moves(b) == {at(2, 3), at(3, 4)}
    assert picks(b) == {at(2, 3)}


def test_a_chain_with_miai_is_left_alone() -> None:
    # White's E5 has the liberties E6 (joining the safe E7 stone) and F5 (room to run): no
    # atari can harm it. Without E7 black ataris from either side.
    picture = """
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """
    assert two_liberty_moves(after_last(picture, (4, 4), WHITE)) == set()
    lone = picture.replace(". . . . O . . . .", ". . . . . . . . .")
    assert two_liberty_moves(after_last(lone, (4, 4), WHITE)) == {at(3, 4), at(4, 5)}


def test_a_two_liberty_chain_counter_attacks_its_attacker() -> None:
    # Black's D5 leaves white's E5 two liberties; D5 itself has two (D6, D4): white may
    # extend or put D5 in atari.
    b = after_last("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . O . O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, (4, 3), BLACK)
    assert two_liberty_moves(b) >= {at(3, 3), at(5, 3), at(5, 4), at(4, 5)}
    assert picks(b, 80) == {at(3, 3), at(5, 3), at(5, 4), at(4, 5)}


def fight_share(size: int) -> float:
    """How often black's heavy moves put the TWO_LIBERTIES chain in atari, with the position
    in the corner of a board of `size`."""
    rows = [line.split() for line in TWO_LIBERTIES.strip().splitlines()]
    wide = [row + ["."] * (size - 9) for row in rows] + [["."] * size] * (size - 9)
    b = after_last("\n".join(" ".join(row) for row in wide), (4, 4), WHITE)
    work = make_work(b)
    rng = np.array([5], np.uint64)
    moves = [policy.heavy_move(b, BLACK, rng, pattern_table(), work, PARAMS, False, False)
             for _ in range(200)]
    return sum(m in (at(2, 4, size), at(3, 5, size)) for m in moves) / len(moves)


def test_the_heavy_policy_mostly_answers_a_two_liberty_fight_on_small_boards() -> None:
    assert tuning.TWO_LIBERTIES_MAX_SIZE == 9
    assert fight_share(9) >= 0.8  # 0.35 without the rule: 3x3 shapes and random moves
    assert fight_share(13) < 0.6  # measured a loss on 19x19: larger boards do without


# -- ladders -------------------------------------------------------------------------------------

# White's stone at D6 is in atari (its liberty E6); running along E6, E5, F5, F4, ... the chain
# keeps two liberties until the edge, where black captures it - unless a white stone stands in
# the way (the breaker, "b" below: at G3 the running chain reaches it and gets out).
LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . X X . . . .
    . . X O . . . . .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . b . .
    . . . . . . . . .
    . . . . . . . . .
"""


def board_of(picture: str) -> Board:
    rows = [line.split() for line in picture.strip().splitlines()]
    points = [(r * len(rows) + c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row)]
    return Board.from_stones(len(rows), [p for p, ch in points if ch == "X"],
                             [p for p, ch in points if ch == "O"])


def ladder_board(breaker: bool, atari_played: bool = True) -> tuple[np.ndarray, int]:
    """The LADDER position with white to move (or, before black's atari at D7, black to
    move); returns the array board and the size."""
    picture = LADDER.replace("b", "O" if breaker else ".")
    if not atari_played:
        picture = picture.replace(". . . X X . . . .", ". . . . X . . . .")
    board = board_of(picture)
    return fast_from(board, WHITE if atari_played else BLACK), board.size


def at(row: int, column: int, size: int = 9) -> int:
    return pad(row * size + column, size)


@pytest.mark.parametrize(("breaker", "expected"), [(False, False), (True, True)])
def test_a_ladder_is_read_to_the_edge_or_the_breaker(breaker: bool, expected: bool) -> None:
    b, _ = ladder_board(breaker)
    budget = np.array([tuning.LADDER_BUDGET], np.int64)
    assert tactics.escapes(b, at(3, 3), budget) is expected
    assert budget[0] > 0  # read to the end, not cut off by the budget
    assert tactics.lost_escape(b, at(3, 4), WHITE) is not expected


@pytest.mark.parametrize(("breaker", "caught"), [(False, 1), (True, 0)])
def test_an_atari_that_captures_in_a_ladder(breaker: bool, caught: int) -> None:
    b, _ = ladder_board(breaker, atari_played=False)
    assert tactics.ladder_capture(b, at(2, 3), BLACK) == caught  # the atari from above
    # From the side, white runs up and left, to the edge, away from the breaker: caught.
    assert tactics.ladder_capture(b, at(3, 4), BLACK) == 1
    assert tactics.ladder_capture(b, at(8, 8), BLACK) == 0  # no atari at all


def test_an_exhausted_budget_counts_as_an_escape() -> None:
    b, _ = ladder_board(breaker=False)
    assert tactics.escapes(b, at(3, 3), np.array([3], np.int64)) is True


def test_a_chain_that_can_capture_an_attacker_escapes() -> None:
    # White's D6 is in atari, but black's C6 is in atari too: white takes it and is out.
    b = fast_from(board_of("""
        . . . . . . . . .
        . . . . . . . . .
        . . O X X . . . .
        . O X O . . . . .
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """), WHITE)
    assert tactics.escapes(b, at(3, 3), np.array([tuning.LADDER_BUDGET], np.int64)) is True


@pytest.mark.parametrize("breaker", [False, True])
def test_hand_priors_discourage_running_in_a_lost_ladder(breaker: bool) -> None:
    """The hand-made prior of white's escape at E6: a bonus where the breaker saves the chain,
    self-atari losses where the ladder catches it."""
    from app.engine.go.mcts.tuning import make_params

    b, _ = ladder_board(breaker)
    work = make_work(b)
    priors.atari_features(b, WHITE, work)
    priors.cfg_distances(b, work, 3)
    visits, wins = priors.hand_prior(b, at(3, 4), 4, 5, WHITE, make_params(7.5), pattern_table(),
                                 work)
    assert wins / visits > 0.8 if breaker else wins / visits <= 0.5


@pytest.mark.parametrize("breaker", [False, True])
def test_priors_discourage_running_in_a_lost_ladder(breaker: bool) -> None:
    """The root's prior for white's escape at E6, hand-made and trained priors together, the
    trained ones weighed heavily: the best prior of all moves where the breaker saves the
    chain and under a fifth of the best where the ladder catches it."""
    from app.engine.go.mcts.tree import Tree
    from app.engine.go.mcts.tuning import make_params

    b, _ = ladder_board(breaker)
    work = make_work(b)
    work[scratch.W_MASK, :] = 1
    params = make_params(7.5)
    params[tuning.P_PRIOR_GAMMA] = 300.0
    tree = Tree(BLACK)
    rng = np.array([3], np.uint64)
    tree.search(b, b.copy(), params, pattern_table(), gamma_table(), spatial_table(), rng, work, 1)
    child = tree.child(0, at(3, 4))
    assert child is not None
    first = tree.ti[walk.T_CHILD, 0]
    bonus = tree.tf[walk.F_PW, first : first + tree.ti[walk.T_NCHILD, 0]]
    if breaker:
        assert tree.tf[walk.F_PW, child] == bonus.max()
    else:
        assert tree.tf[walk.F_PW, child] < bonus.max() / 5
