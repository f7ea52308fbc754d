"""bench/go_levels.py - the levels table's runner: which pairs it plays by default on each
board size, and how it reads `--pairs` (the matches themselves are gtp_match's, tested in
test_gtp_process)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_levels_runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("go_levels", ROOT / "bench" / "go_levels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["go_levels"] = module
    spec.loader.exec_module(module)
    return module


def test_pairs_name_a_level_gnu_gos_level_and_optionally_the_games() -> None:
    levels = load_levels_runner()
    assert levels.parse_pairs("easy:1,strong:10:20", 10) == [("easy", 1, 10),
                                                              ("strong", 10, 20)]


@pytest.mark.parametrize("text", ["easy", "easy:11", "easy:x", "hard:1", ":1", "easy:1:2:3"])
def test_a_malformed_pair_is_refused_with_a_sentence(text: str) -> None:
    levels = load_levels_runner()
    with pytest.raises(SystemExit) as refusal:
        levels.parse_pairs(text, 10)
    assert isinstance(refusal.value.code, str) and text in refusal.value.code


def test_larger_boards_skip_easy_against_gnu_gos_stronger_levels() -> None:
    levels = load_levels_runner()
    nine = {(level, gnugo) for level, gnugo, _ in levels.parse_pairs(levels.default_pairs(9), 10)}
    for size in (13, 19):
        pairs = levels.parse_pairs(levels.default_pairs(size), 10)
        assert {(level, gnugo) for level, gnugo, _ in pairs} < nine
        assert [gnugo for level, gnugo, _ in pairs if level == "easy"] == [1]
        assert {level for level, _, _ in pairs} == {"easy", "medium", "strong", "strongest"}
