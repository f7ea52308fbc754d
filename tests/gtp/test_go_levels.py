"""bench/go_levels.py - the levels table's runner: which pairs it plays by default on each
board size, and how it reads `--pairs` (the matches themselves are gtp_match's, tested in
test_gtp_process)."""

from __future__ import annotations

import pytest

from bench import go_levels


def test_pairs_name_a_level_gnu_gos_level_and_optionally_the_games() -> None:
    assert go_levels.parse_pairs("easy:1,strong:10:20", 10) == [("easy", 1, 10),
                                                                 ("strong", 10, 20)]


@pytest.mark.parametrize("text", ["easy", "easy:11", "easy:x", "hard:1", ":1", "easy:1:2:3"])
def test_a_malformed_pair_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(SystemExit) as refusal:
        go_levels.parse_pairs(text, 10)
    assert isinstance(refusal.value.code, str) and text in refusal.value.code


def test_larger_boards_skip_easy_against_gnu_gos_stronger_levels() -> None:
    nine_pairs = go_levels.parse_pairs(go_levels.default_pairs(9), 10)
    nine = {(level, gnugo) for level, gnugo, _ in nine_pairs}
    for size in (13, 19):
        pairs = go_levels.parse_pairs(go_levels.default_pairs(size), 10)
        assert {(level, gnugo) for level, gnugo, _ in pairs} < nine
        assert [gnugo for level, gnugo, _ in pairs if level == "easy"] == [1]
        assert {level for level, _, _ in pairs} == {"easy", "medium", "strong", "strongest"}
