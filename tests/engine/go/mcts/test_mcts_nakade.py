"""Nakade: stones thrown into the enemy's eye space, and passing into a count they decide.

Start with `CORNER`, from a 9x9 game Tabletop lost to GNU Go level 10 (bench/gtp_match.py,
seed 20): white's top-right group has two liberties, G9 and J9, both shared with the two black
stones inside it. Black J9 (or G9) puts three stones in atari; white must take them and is
left with a bent three, whose vital point H9 kills. Tabletop, white, passed after black's pass
counting W+0.5 with every stone alive; GNU Go's count said B+23.5. The tests: the eye shapes
one vital point kills (`tactics.dead_shape`), the throw-ins heavy playouts may play
(`tactics.nakade`: the playouts that judge a pass, and the search's once the board is half
full), the playouts killing the group, the search reading the throw-in, and the player no
longer passing there. Then `RACE`: the atari rules of the playouts throw in too.
"""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.go import BLACK, PASS, WHITE, Game, area_score
from app.engine.go.mcts import MctsPlayer, policy, tactics, warm_up
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts.fastboard import padded_point
from app.engine.go.mcts.patterns import pattern_table
from app.engine.go.mcts.player import array_board
from app.engine.go.mcts.scratch import W_CAND, W_KIND, make_work
from app.engine.go.mcts.tuning import PASS_MIN_AGREEMENT, PASS_MIN_WIN_RATE, make_params
from bench import go_pass_check

CORNER = """
    . X X X X O . X .
    . X . X O O O X O
    X X . . X O O O O
    X X . X X X X X O
    X O X X O X . X O
    X O O O O O X . X
    O . . . O X X X .
    O . . O . O X . X
    . O . . . O O X .
"""


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def corner(boards, to_move: str) -> Game:  # type: ignore[no-untyped-def]
    return boards.game(CORNER, to_move=to_move, komi=7.5)


def shape(picture: str, corner: bool = False) -> tuple[np.ndarray, int]:
    """The points marked "#" in a small picture, padded on an empty 9x9 board (width 11):
    drawn from the top-left corner A9, or from D6 in the middle."""
    rows = [line.split() for line in picture.strip().splitlines()]
    shift = 0 if corner else 3
    points = [(r + 1 + shift) * 11 + c + 1 + shift for r, row in enumerate(rows)
              for c, ch in enumerate(row) if ch == "#"]
    return np.array(points, np.int64), len(points)


@pytest.mark.parametrize(("picture", "dead"), [
    ("#", True),
    ("# #", True),
    ("# # #", True),                 # straight three
    ("# #\n# .", True),              # bent three
    ("# #\n# #", True),              # square four
    ("# # #\n. # .", True),          # T four
    ("# # # #", False),              # straight four: two eyes
    ("# # #\n# . .", False),         # bent four
    ("# # .\n. # #", False),         # zigzag four
    ("# # .\n# # #", True),          # bulky five
    (". # .\n# # #\n. # .", True),   # cross five
    ("# # # # #", False),
    ("# # #\n# . #", False),         # U five
    ("# # #\n. # .\n. # .", False),  # T five
    (". # .\n# # #\n# # .", True),   # rabbity six
    ("# # #\n# # #", False),         # rectangular six
    ("# # # #\n. # # .", False),
])
def test_the_eye_shapes_one_vital_point_kills(picture: str, dead: bool) -> None:
    points, n = shape(picture)
    assert tactics.dead_shape(fb.new_board(9), points, n) is dead


@pytest.mark.parametrize(("picture", "dead"), [
    ("# # #\n# . .", True),   # bent four, bent at the corner point: dead (or ko)
    ("# # #\n. . #", False),  # bent four, bent away from the corner: two eyes
    ("# # # #", False),       # straight four along the edge
    ("# #\n# .", True),       # bent three, in the corner as anywhere
])
def test_the_bent_four_in_the_corner_is_dead(picture: str, dead: bool) -> None:
    points, n = shape(picture, corner=True)
    assert tactics.dead_shape(fb.new_board(9), points, n) is dead


def test_throwing_in_where_the_capture_leaves_a_bent_three_is_a_nakade(boards) -> None:  # type: ignore[no-untyped-def]
    root = array_board(corner(boards, "black"))
    for vertex in ("J9", "G9"):  # three stones in atari, taken at the other point
        liberties, stones = fb.liberties_after(root, padded_point(vertex, 9), BLACK)
        assert (liberties, stones) == (1, 3)
        assert tactics.nakade(root, padded_point(vertex, 9), BLACK)
    # White filling its own liberty puts eleven stones in atari: never a nakade.
    white = array_board(corner(boards, "white"))
    assert not tactics.nakade(white, padded_point("G9", 9), WHITE)


@pytest.mark.parametrize(("above", "nakade"), [("O", True), (".", False)])
def test_a_throw_in_must_have_no_way_out(boards, above: str, nakade: bool) -> None:  # type: ignore[no-untyped-def]
    """Black C3 makes three stones with the one liberty C4; when C4 also touches the empty C5,
    black could run out there instead, so C3 is not a nakade."""
    game = boards.game(f"""
        . . {above} . .
        O O . O .
        X X . O .
        O O O O .
        . . . . .
    """, to_move="black", komi=0.5)
    root = array_board(game)
    assert fb.liberties_after(root, padded_point("C3", 5), BLACK) == (1, 3)
    assert tactics.nakade(root, padded_point("C3", 5), BLACK) is nakade


def survivors(root: np.ndarray, vertex: str, color: int, count: int, seed: int,
              throw_ins: bool) -> int:
    """In how many of `count` heavy playouts from `root` (komi 7.5, 9x9) `color`'s stone at
    `vertex` is still there at the end."""
    work = make_work(root)
    rng = np.array([seed], np.uint64)
    pat3 = pattern_table()
    alive = 0
    for _ in range(count):
        board = root.copy()
        policy.playout(board, True, rng, pat3, work, make_params(7.5), True, throw_ins)
        alive += board[fb.COLOR, padded_point(vertex, 9)] == color
    return alive


@pytest.mark.parametrize("throw_ins", [False, True])
def test_heavy_playouts_kill_the_group_with_the_throw_in(boards, throw_ins: bool) -> None:  # type: ignore[no-untyped-def]
    """Without throw-ins (the search's playouts on a board less than half full) the group
    lives in every playout and black wins 8 % of them; with them (the playouts that judge a
    pass, and the search's here) black throws in and kills it in about two thirds (65 % for
    this seed)."""
    killed = 500 - survivors(array_board(corner(boards, "black")), "F9", WHITE, 500, 12345,
                             throw_ins)
    if throw_ins:
        assert killed >= 0.45 * 500
    else:
        assert killed == 0


def test_does_not_pass_into_a_count_the_throw_in_overturns(boards) -> None:  # type: ignore[no-untyped-def]
    """After black's pass, white's count with every stone alive would win by half a point; the
    playouts that judge the pass (`MctsPlayer.judge_pass`) see the throw-in kill the group, so
    the count they give has it dead and lost - so the player plays on. Since they also take
    the vital point of the bent three the throw-in leaves (`policy.vital_point_candidates`),
    they agree on it (0.92 at this seed; before, they were unsure, below PASS_MIN_AGREEMENT,
    with white winning about 40 %). (The search, whose playouts throw in on this full board,
    rated the position 0.33-0.40 for white before the vital point, 0.95 without the late
    throw-ins.)"""
    game = corner(boards, "black")
    game.play("pass")
    assert area_score(game.board, frozenset(), game.komi).margin == -0.5  # W+0.5, all alive
    judgement = MctsPlayer(seconds=None, playouts=3000, seed=3).judge_pass(game)
    assert judgement.margin < 0
    assert judgement.win_rate < PASS_MIN_WIN_RATE
    assert judgement.agreement >= PASS_MIN_AGREEMENT  # sure of it: the group is dead
    decision = MctsPlayer(seconds=None, playouts=3000, seed=3).genmove(game)
    assert decision.move != "pass"
    assert decision.score_lead < 0.5


def test_the_search_reads_the_throw_in_once_the_board_is_half_full(boards) -> None:  # type: ignore[no-untyped-def]
    """Black to move: the throw-in at G9 or J9 kills white's group and wins - now or later,
    since white can do nothing about it (either liberty it fills is a self-atari). The
    search's playouts throw in from half-full boards on (tuning.THROW_INS_EMPTY_SHARE), so it
    knows it wins: with the vital point in its playouts too it reads 0.98 and may play
    elsewhere first (A8 at seed 1); with the throw-ins alone it played the throw-in and read
    0.89-0.92; without them it read 0.25, a lost game, from playouts in which the group
    always lives."""
    for seed in (1, 2):
        decision = MctsPlayer(seconds=None, playouts=3000, seed=seed).genmove(
            corner(boards, "black"))
        assert decision.win_rate > 0.7
        assert decision.score_lead > 5


# From a 9x9 game against Pachi (bench/gtp_match.py seed 16): white's top-left group and the
# three black stones in its corner share the two liberties A8 and C8. Black A8 puts four stones
# in atari; white takes them at C8 and is left with the bent four in the corner - a ko for its
# life, which GNU Go's count reads as dead (B+13.5), while every stone alive counts W+8.5.
BENT_FOUR = """
    X X X O X X X X .
    . O . O X . X X X
    O O O O O X X X X
    O X X X O X O X O
    X X . X X O O X O
    X X . X O O O O O
    . X X O . O X . .
    . X O O O O X O O
    . X O O . O O . .
"""


def test_does_not_pass_into_a_count_that_a_bent_four_in_the_corner_overturns(boards) -> None:  # type: ignore[no-untyped-def]
    game = boards.game(BENT_FOUR, to_move="black", komi=7.5)
    assert tactics.nakade(array_board(game), padded_point("A8", 9), BLACK)
    game.play("pass")
    player = MctsPlayer(seconds=None, playouts=300, seed=4)
    assert area_score(game.board, frozenset(), game.komi).margin < 0  # all alive: W+8.5
    judgement = player.judge_pass(game)
    assert judgement.agreement < PASS_MIN_AGREEMENT  # the group dies in many playouts
    assert not judgement.passes
    assert player.genmove(game).move != "pass"


@pytest.mark.slow
def test_every_recorded_pass_is_judged_as_the_referee_counted() -> None:
    """The 76 games of tests/data/go/passes (bench/go_pass_check.py): where Tabletop passed
    after its opponent, the judgement passes in the 74 that the referee's count gave it and
    plays on in the two it lost."""
    verdicts = [go_pass_check.judge(path, seed=1)
                for path in sorted(go_pass_check.DEFAULT_DIR.glob("*.sgf"))]
    judged = [v for v in verdicts if v is not None]
    assert len(judged) == 76
    assert sum(not v[5] for v in judged) == 2
    assert [v for v in judged if v[4] != v[5]] == []


# A race from a game against Pachi (tests/data/go/diagnostic_9.json, position 8, black to
# move): black's top-left group has two liberties, A9 and C9, both inside its eye and shared
# with white's B9; white's wall around it has four outside. Pachi's deep search gives black
# 0.4 %: white answers black's approach by throwing in at A9 (black takes two stones, leaving a
# two-point eye) and again at B9. Before the atari rules of the playouts played such throw-ins
# (`policy.pick_candidate` with `nakade`), black's group lived in 69 % of the playouts.
RACE = """
    . O . X O . . . .
    X X X X O O . . .
    X O X X O . O . .
    O O O X O . O O .
    . . O X O O X X .
    . . O O X X O . .
    . X . X . X O . .
    . . . . X X O . .
    . . . . . . X . .
"""


@pytest.mark.parametrize(("d5", "throw_in"), [("X", True), (".", False)])
def test_an_atari_that_is_a_throw_in_is_played_and_one_with_a_way_out_is_not(
        boards, d5: str, throw_in: bool) -> None:  # type: ignore[no-untyped-def]
    """White A5 puts two stones in atari, and black's five-stone chain too when D5 is black:
    its liberty C5 is then enclosed, so black can only take at C5 into a two-point eye - a
    `nakade` the atari rules play with throw-ins on. With D5 empty, A5 is a plain self-atari
    (the two stones could run out at C5 towards D5): refused either way."""
    game = boards.game(f"""
        . O . {d5} O
        X X X X O
        O O O O O
        . . . . .
        . . . . .
    """, to_move="white", komi=0.5)
    root = array_board(game)
    work = make_work(root)
    a5 = padded_point("A5", 5)
    picked = []
    for throw_ins in (False, True):
        work[W_CAND, 0], work[W_KIND, 0] = a5, policy.K_ESCAPE
        picked.append(policy.pick_candidate(root, WHITE, np.array([1], np.uint64), work,
                                            make_params(0.5, 5), np.bool_(throw_ins),
                                            np.int64(1)))
    assert picked == [PASS, a5 if throw_in else PASS]


def test_heavy_playouts_win_the_race_with_the_throw_in(boards) -> None:  # type: ignore[no-untyped-def]
    survived = survivors(array_board(boards.game(RACE, to_move="black", komi=7.5)), "A8", BLACK,
                         1000, 3, True)
    assert survived < 0.5 * 1000  # 354 of 1,000 with this seed (693 before)
