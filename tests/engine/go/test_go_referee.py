"""Scoring against an independent referee: GNU Go 3.8's `final_score` (Chinese rules) on 9x9
games it played against itself, recorded by `bench/go_referee.py generate` in
tests/data/go/referee_games.json. The engine replays each game, proposes the dead stones with
no help, and counts; its result text must equal GNU Go's in at least `MIN_AGREEMENT` of them.

Run with -s to see the rate: .venv/bin/pytest -s tests/engine/go/test_go_referee.py
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engine.go import Game

DATA = Path(__file__).resolve().parents[2] / "data" / "go" / "referee_games.json"
MIN_AGREEMENT = 0.95  # the bar; unsettled endings are where a referee may differ
MIN_GAMES = 60


@pytest.mark.slow  # ~10 s: 199 dead-stone proposals of 96 playouts each
def test_area_scores_agree_with_gnu_go() -> None:
    games = json.loads(DATA.read_text())["games"]
    assert len(games) >= MIN_GAMES
    agree = same_dead = 0
    misses = []
    for record in games:
        game = Game.from_moves(record["moves"], size=record["size"], komi=record["komi"])
        assert game.status == "scoring"
        text = game.score().text
        agree += text == record["gnugo_score"]
        same_dead += sorted(game.dead_stones) == record["gnugo_dead"]
        if text != record["gnugo_score"]:
            misses.append(f"game {record['number']}: {text} vs GNU Go {record['gnugo_score']}")
    rate = agree / len(games)
    print(f"\nreferee agreement: {agree}/{len(games)} = {rate:.1%} of scores, "
          f"{same_dead}/{len(games)} identical dead-stone sets")
    print("\n".join(misses))
    assert rate >= MIN_AGREEMENT, misses
