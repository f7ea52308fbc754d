"""The Go player's fixed-seed screen: does a change leave its play exactly as it was?

For the first games of the referee's recorded 9x9, 13x13 and 19x19 games (tests/data/go/
referee_games*.json), at five points of each game, the player searches with a fixed number
of playouts and a fixed seed (`genmove` and `analyse`), and at the end of each game it judges
a pass (`judge_pass`). Every move, win rate, principal variation, score lead and the first
ownership values go into one JSON list; the script prints its digest and, given the list of
an earlier run, every record that differs. A refactoring that changes no play keeps the
digest; a change that does shows where (and a match must then say whether it is weaker).

Run (before and after a change):
    .venv/bin/python -m bench.go_screen --save /tmp/before.json
    .venv/bin/python -m bench.go_screen --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from app.engine.go import Game, GoError
from app.engine.go.mcts import MctsPlayer, warm_up

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "go"
SETS = (("referee_games.json", 9, 800), ("referee_games_13.json", 13, 600),
        ("referee_games_19.json", 19, 400))  # (file, size, playouts a search)
CUTS = 5  # positions a game


def replay(moves: list[str], size: int, komi: float) -> Game | None:
    game = Game(size=size, komi=komi)
    try:
        for move in moves:
            game.play(move)
    except GoError:
        return None
    return game if game.to_move is not None else None


def screen(games: int) -> list[list[Any]]:
    """The records of `games` games of each set."""
    records: list[list[Any]] = []
    for name, size, playouts in SETS:
        for number, record in enumerate(json.loads((DATA / name).read_text())["games"][:games]):
            moves, komi = record["moves"], record["komi"]
            for cut in range(0, len(moves), max(len(moves) // CUTS, 1)):
                game = replay(moves[:cut], size, komi)
                if game is None:
                    continue
                seed = 1000 + number * 100 + cut
                move = MctsPlayer(seconds=None, playouts=playouts, seed=seed).genmove(game)
                read = MctsPlayer(seconds=None, playouts=playouts, seed=seed + 1).analyse(game)
                records.append([name, number, cut, move.move, round(move.win_rate, 6),
                                move.playouts, list(move.principal_variation),
                                round(move.score_lead, 4), read.move, round(read.win_rate, 6),
                                [round(x, 2) for x in read.ownership[:40]]])
            game = replay(moves[:-1], size, komi)
            if game is not None:
                judged = MctsPlayer(seconds=None, playouts=100, seed=5).judge_pass(game)
                records.append([name, number, "pass", round(judged.margin, 3),
                                round(judged.win_rate, 6), round(judged.agreement, 6)])
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games of each size (1-20)")
    parser.add_argument("--save", type=Path, help="write the records here")
    parser.add_argument("--compare", type=Path, help="an earlier run's records")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 20:
        parser.error("--games must be 1-20")
    warm_up()
    records = screen(args.games)
    text = json.dumps(records)
    print(f"{len(records)} records, digest {hashlib.sha256(text.encode()).hexdigest()[:16]}")
    if args.save:
        args.save.write_text(text)
    if args.compare:
        earlier = json.loads(args.compare.read_text())
        changed = [(a, b) for a, b in zip(earlier, records, strict=False) if a != b]
        for a, b in changed:
            print(f"was {a[:6]}\nnow {b[:6]}")
        print(f"{len(changed)} of {len(records)} records differ"
              + ("" if len(earlier) == len(records) else f" (it had {len(earlier)})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
