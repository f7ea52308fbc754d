"""Monte-Carlo tree search Go player (UCT with RAVE, priors from hand-made heuristics and from
move features - large spatial patterns among them - trained on Pachi's self-play games, both
reading ladders, progressive widening by those features on 19x19, heuristic playouts that
replay the last good replies, a score estimate from the search's own ownership counts, a pass
after the opponent's only when playouts that throw stones in to kill (nakade) confirm the
count, numba).

Where to start reading: `player.MctsPlayer.genmove` - a `Game` in, a `Decision` out - and
from there `tree.Tree` (the node arrays in Python, tree reuse) and the compiled rooms beneath
it, split as Pachi's source is:
- `walk` - one batch of simulations: select, expand, playout, backup (`walk.simulate`);
- `priors` - what a new node's moves are worth: hand-made heuristics and trained features;
- `policy` - the playouts and their move policy (`policy.playout`);
- `tactics` - ladders, nakade, two-liberty fights;
- `fastboard` - the array board underneath (`fastboard.play`);
- `scratch` - the scratch rows they share; `tuning` - every number that sets how it plays,
  with why; `jit` - the compiler and its cache, keyed to these sources.
`features` holds the trained move features of the priors and the hash table of their spatial
patterns (tools/train_patterns.py fits them to the games tools/go_corpus.py records),
`patterns` the hand-made 3x3 shapes of the playouts.

    from app.engine.go.mcts import MctsPlayer, LEVELS, warm_up
    warm_up()                                  # compile or load the kernels once per process
    player = MctsPlayer.for_level("medium")    # or MctsPlayer(seconds=1.0, playouts=None, ...)
    decision = player.genmove(game)            # decision.move: "D4" | "pass" | "resign"

numba is required: importing this package without it raises ImportError.
"""

from ..levels import LEVELS, Level, UnknownLevel
from .player import Decision, MctsPlayer, warm_up

__all__ = ["LEVELS", "Decision", "Level", "MctsPlayer", "UnknownLevel", "warm_up"]
