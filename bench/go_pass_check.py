"""How the pass judgement (`MctsPlayer.judge_pass`) reads the passes of recorded matches.

Every SGF in the directory (default tests/data/go/passes: games from bench/gtp_match.py
that Tabletop ended by passing right after its opponent) is replayed to the position of
Tabletop's last pass. There the judgement's playouts run as the player runs them, and the
script prints, per game, the count with the engine's dead-stone proposal, the win rate and
the stone agreement the playouts give, whether the player would pass now, and the referee's
result (the SGF's RE). The summary gives the range of both figures over the passes that won
the referee's count and over those that lost it - the margin the thresholds
`PASS_MIN_WIN_RATE` and `PASS_MIN_AGREEMENT` sit in.

Run:
    .venv/bin/python -m bench.go_pass_check
    .venv/bin/python -m bench.go_pass_check --dir bench/results/sgf/2026-12-01-pachi
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from app.engine.go import Game
from app.engine.go.mcts import MctsPlayer, warm_up
from app.engine.go.mcts.tuning import PASS_MIN_AGREEMENT, PASS_MIN_WIN_RATE
from app.engine.go.sgf import from_sgf

ROOT = Path(__file__).resolve().parent.parent

DEFAULT_DIR = ROOT / "tests" / "data" / "go" / "passes"


def judge(path: Path, seed: int) -> tuple[str, float, float, float, bool, bool] | None:
    """(player colour, count margin, win rate, agreement, would pass, the pass won the
    referee's count) for Tabletop's final pass in the game at `path`, or None when the game
    did not end with Tabletop passing after its opponent."""
    text = path.read_text()
    record = from_sgf(text)
    moves = record.moves
    if len(moves) < 2 or moves[-2:] != ["pass", "pass"]:
        return None
    position = Game.from_moves(moves[:-1], record.size, record.komi, record.handicap,
                               setup=record.setup)
    color = position.to_move
    assert color is not None
    letter = "B" if color == "black" else "W"
    player = re.search(rf"P{letter}\[([^\]]*)\]", text)
    result = re.search(r"RE\[([^\]]*)\]", text)
    if player is None or "Tabletop" not in player.group(1) or result is None:
        return None
    judgement = MctsPlayer(seconds=None, playouts=1, seed=seed).judge_pass(position)
    won = result.group(1).startswith(letter + "+")
    return (letter, judgement.margin, judgement.win_rate, judgement.agreement,
            judgement.passes, won)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="SGF directory")
    parser.add_argument("--seed", type=int, default=1, help="the judging player's seed")
    args = parser.parse_args(argv)
    warm_up()
    ranges: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    wrong = 0
    for path in sorted(args.dir.glob("*.sgf")):
        judged = judge(path, args.seed)
        if judged is None:
            continue
        letter, margin, win_rate, agreement, would, won = judged
        ranges[won].append((win_rate, agreement))
        wrong += would != won
        print(f"{path.name:24} Tabletop {letter}  count {margin:+6.1f}  win rate {win_rate:5.3f}"
              f"  agreement {agreement:5.3f}  {'passes' if would else 'plays on':8}"
              f"  referee {'won' if won else 'LOST'}")
    for won, values in ranges.items():
        if values:
            rates = [v[0] for v in values]
            agreements = [v[1] for v in values]
            print(f"passes that {'won' if won else 'lost'} the referee's count: {len(values)};"
                  f" win rates {min(rates):.2f}-{max(rates):.2f},"
                  f" agreements {min(agreements):.2f}-{max(agreements):.2f}")
    print(f"thresholds: win rate >= {PASS_MIN_WIN_RATE}, agreement >= {PASS_MIN_AGREEMENT:.2f};"
          f" {wrong} of {sum(map(len, ranges.values()))} passes judged against the referee")
    return 0


if __name__ == "__main__":
    sys.exit(main())
