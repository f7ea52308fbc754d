"""The player's puzzle: legal moves, undo, how a game ends, and the forward-checking warnings."""

from __future__ import annotations

import pytest

from app.engine.knights_tour import (
    AlreadyVisited,
    Hint,
    InvalidSize,
    NotAKnightMove,
    NothingToUndo,
    OffBoard,
    Puzzle,
    PuzzleOver,
    TooLarge,
    solve,
)


def test_first_move_anywhere_then_only_knights_moves_to_new_squares() -> None:
    puzzle = Puzzle(8)
    assert puzzle.status == "playing" and puzzle.current is None
    assert len(puzzle.legal_next) == 64
    puzzle.play("a1")
    assert puzzle.legal_next == ["c2", "b3"]
    with pytest.raises(NotAKnightMove) as not_knight:
        puzzle.play("b2")
    assert not_knight.value.code == "not_a_knight_move"
    with pytest.raises(OffBoard) as off:
        puzzle.play("i9")
    assert off.value.code == "off_board"
    puzzle.play("c2")
    puzzle.play("e1")
    with pytest.raises(NotAKnightMove):
        puzzle.play("b2")
    puzzle.play("d3")
    puzzle.play("c1")
    with pytest.raises(AlreadyVisited) as visited:
        puzzle.play("e1")
    assert visited.value.code == "visited"
    assert puzzle.path == ["a1", "c2", "e1", "d3", "c1"]
    assert puzzle.indices == [0, 10, 4, 19, 2]
    assert puzzle.count == 5 and puzzle.current == "c1"


def test_a_refused_move_changes_nothing() -> None:
    puzzle = Puzzle(6, path=["a1", "b3"])
    with pytest.raises(NotAKnightMove):
        puzzle.play("b4")
    assert puzzle.path == ["a1", "b3"]


def test_undo_takes_back_one_move_at_a_time() -> None:
    puzzle = Puzzle(8, path=["a1", "c2", "e1"])
    assert puzzle.undo() == "e1"
    assert puzzle.path == ["a1", "c2"]
    assert "e1" in puzzle.legal_next
    puzzle.play("e1")
    assert puzzle.undo() == "e1" and puzzle.undo() == "c2" and puzzle.undo() == "a1"
    assert puzzle.path == [] and len(puzzle.legal_next) == 64
    with pytest.raises(NothingToUndo) as caught:
        puzzle.undo()
    assert caught.value.code == "nothing_to_undo"


def test_stuck_reports_how_far_the_knight_got() -> None:
    puzzle = Puzzle(5, path=["a1", "b3", "d2", "c4", "a5"])
    assert puzzle.status == "stuck"
    assert puzzle.legal_next == []
    assert puzzle.message.startswith("Stuck on a5 after 5 of 25 squares")
    assert puzzle.hint() is None and puzzle.warning is None
    with pytest.raises(PuzzleOver) as caught:
        puzzle.play("b3")
    assert caught.value.code == "over"
    puzzle.undo()
    assert puzzle.status == "playing"


def test_an_open_tour_is_solved() -> None:
    tour = solve(5, "a1").names()
    puzzle = Puzzle(5, path=tour)
    assert puzzle.status == "solved"
    assert puzzle.message == "Tour complete: all 25 squares visited."
    with pytest.raises(PuzzleOver):
        puzzle.play("a1")


def test_a_closed_puzzle_is_solved_only_when_the_last_square_returns_to_the_first() -> None:
    closed = solve(6, "a1", closed=True).names()
    puzzle = Puzzle(6, closed=True, path=closed)
    assert puzzle.status == "solved"
    assert "is a knight's move from a1" in puzzle.message
    open_only = next(t for s in range(36) if not _closes(t := solve(6, s).names()))
    puzzle = Puzzle(6, closed=True, path=open_only)
    assert puzzle.status == "open_only"
    assert "does not close" in puzzle.message
    assert Puzzle(6, closed=False, path=open_only).status == "solved"


def test_sizes_from_1_to_26() -> None:
    one = Puzzle(1, path=["a1"])
    assert one.status == "solved"
    assert Puzzle(1, closed=True, path=["a1"]).status == "open_only"
    assert Puzzle(26).legal_next[-1] == "z26"
    with pytest.raises(TooLarge):
        Puzzle(27)
    with pytest.raises(InvalidSize):
        Puzzle(0)


def test_hint_is_warnsdorffs_rule_with_clockwise_ties() -> None:
    puzzle = Puzzle(8)
    assert puzzle.hint() == "a1"  # the square with fewest moves; a1 is first of the corners
    puzzle.play("a1")
    # b3 and c2 both leave five onward moves; b3 is at one o'clock, c2 at two.
    assert puzzle.hint() == "b3"
    puzzle = Puzzle(8, path=["a1", "b3"])
    assert puzzle.hint() == _fewest_onward(puzzle)


def test_following_the_hints_from_a1_tours_the_8x8_board() -> None:
    puzzle = Puzzle(8)
    while (hint := puzzle.hint()) is not None:
        assert hint == (_fewest_onward(puzzle) if puzzle.count else "a1")
        puzzle.play(hint)
    assert puzzle.status == "solved"


def test_the_hint_passes_over_squares_the_forward_check_condemns() -> None:
    puzzle = Puzzle(8, path=["g6", "e5"])
    assert puzzle.trouble is None
    # f7, g4 and d7 each leave five onward moves and f7 comes first clockwise, but from f7
    # the knight would leave h8 only one way in, which it would have to take next.
    puzzle.play("f7")
    assert puzzle.trouble is not None and puzzle.trouble.code == "dead_end"
    puzzle.undo()
    advice = puzzle.advise()
    assert advice == Hint("g4", condemned=("f7",))
    assert puzzle.hint() == "g4"
    puzzle.play("g4")
    assert puzzle.trouble is None


def test_no_hint_when_every_square_within_reach_is_condemned() -> None:
    puzzle = Puzzle(6, path=["c3", "d5", "b4"])
    assert puzzle.trouble is None  # not yet: the check speaks up after any next move
    for square in puzzle.legal_next:
        puzzle.play(square)
        assert puzzle.trouble is not None, square
        puzzle.undo()
    advice = puzzle.advise()
    assert advice.square is None and puzzle.hint() is None
    assert sorted(advice.condemned) == sorted(puzzle.legal_next)
    assert advice.condemned[0] == "a2"  # in the rule's order: a2 has the fewest onward moves


def test_no_hint_once_the_tour_can_no_longer_be_completed() -> None:
    puzzle = Puzzle(8, path=["b3", "d4", "c2"])  # a1 can only be reached from c2: dead end
    assert puzzle.trouble is not None
    advice = puzzle.advise()
    assert advice.square is None
    assert sorted(advice.condemned) == sorted(puzzle.legal_next)
    # No closed tour on 5x5 at all: whichever square starts, the tour cannot be completed.
    advice = Puzzle(5, closed=True).advise()
    assert advice.square is None and len(advice.condemned) == 25


def test_the_hint_never_leads_into_trouble_or_a_dead_end() -> None:
    """Following the hint from every start square of 6x6 and 8x8 (open and closed) never
    meets a warning: every step it suggests is one the forward check accepts."""
    for n, closed in ((6, False), (6, True), (8, False), (8, True)):
        for start in range(n * n):
            puzzle = Puzzle(n, closed, [start])
            while puzzle.status == "playing" and puzzle.trouble is None:
                hint = puzzle.hint()
                if hint is None:
                    break
                puzzle.play(hint)
            assert puzzle.trouble is None and puzzle.status != "stuck", (n, closed, start)


def test_an_exhausted_puzzle_has_no_advice() -> None:
    puzzle = Puzzle(5, path=["a1", "b3", "d2", "c4", "a5"])  # stuck
    assert puzzle.advise() == Hint(None)


def _fewest_onward(puzzle: Puzzle) -> str:
    """Warnsdorff's choice recomputed from names alone; ties to the first clockwise."""
    n, seen = puzzle.size, set(puzzle.path)
    clockwise = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]

    def moves(name: str) -> list[str]:
        file, rank = ord(name[0]) - 97, int(name[1:]) - 1
        out = []
        for df, dr in clockwise:
            if 0 <= file + df < n and 0 <= rank + dr < n:
                out.append(f"{chr(97 + file + df)}{rank + dr + 1}")
        return [m for m in out if m not in seen]

    options = moves(puzzle.path[-1])
    counts = [len([m for m in moves(o) if m != o]) for o in options]
    return options[counts.index(min(counts))]


def _closes(names: list[str]) -> bool:
    first, last = names[0], names[-1]
    files, ranks = ord(first[0]) - ord(last[0]), int(first[1:]) - int(last[1:])
    return abs(files * ranks) == 2


# --- forward checking ------------------------------------------------------------------------


def trouble(size: int, path: list[str], closed: bool = False) -> tuple[str, tuple[str, ...]]:
    puzzle = Puzzle(size, closed, path)
    assert puzzle.status == "playing"
    found = puzzle.trouble
    assert found is not None, path
    assert puzzle.warning == found.message and found.message.endswith(".")
    return found.code, found.squares


def test_no_warning_on_a_healthy_path() -> None:
    assert Puzzle(8, path=["a1", "b3", "c1"]).warning is None
    assert Puzzle(8).warning is None
    assert Puzzle(8, closed=True, path=["d4"]).warning is None


def test_a_square_cut_off() -> None:
    # a1's only neighbours are b3 and c2; both visited, and e3 is not a move from a1.
    assert trouble(8, ["b3", "d4", "c2", "e3"]) == ("cut_off", ("a1",))


def test_a_square_only_the_current_square_can_reach() -> None:
    # From c2 the knight could still go to a1, but would be stuck there.
    assert trouble(8, ["b3", "d4", "c2"]) == ("dead_end", ("a1",))


def test_two_squares_that_would_both_have_to_be_last() -> None:
    assert trouble(8, ["b3", "d4", "f3", "h4", "g6", "e5"]) == ("dead_ends", ("a1", "h8"))
    # ...while one such square is fine: it can be the tour's last.
    assert Puzzle(8, path=["b3", "d4", "f3", "h4", "f5"]).warning is None


def test_the_board_split_in_two() -> None:
    # {b1, a3} can no longer be reached from the rest of the unvisited squares.
    code, squares = trouble(8, ["a1", "c2", "d4", "b5", "c3", "e4", "d2", "c4"])
    assert code == "split" and "b1" in squares


def test_a_closed_tour_needs_a_way_back_to_its_start() -> None:
    assert trouble(8, ["a1", "b3", "d4", "c2", "e3"], closed=True) == ("no_return", ("a1",))
    assert Puzzle(8, path=["a1", "b3", "d4", "c2", "e3"]).warning is None  # open: fine


def test_a_closed_tour_has_no_ends() -> None:
    # h8 has one way in left (f7): open, it could be the last square; closed, it cannot.
    path = ["e5", "g6", "e7"]
    assert trouble(8, path, closed=True) == ("dead_end", ("h8",))
    assert Puzzle(8, path=path).warning is None


def test_odd_boards_start_on_the_corners_colour() -> None:
    assert trouble(5, ["b1"]) == ("colour", ("b1",))
    assert Puzzle(5, path=["b2"]).warning is None


def test_boards_without_tours_say_so_at_once() -> None:
    for n in (2, 3, 4):
        found = Puzzle(n).trouble
        assert found is not None and found.code == "no_tour"
    assert trouble(7, [], closed=True)[0] == "no_closed_tour"
    assert Puzzle(7).warning is None
