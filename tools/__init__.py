"""Scripts that make data or train, apart from the benchmarks in bench/ (which measure).

Run each as a module from the repository root, e.g. `.venv/bin/python -m tools.go_corpus --help`:
- go_corpus: Pachi self-play games, the training corpus of the Go player's move features
  (tests/data/go/pachi_games_<size>.json; with --learning, win rates and final ownership too);
- train_patterns: fits the gammas of the Go player's move features to recorded games (Coulom's
  MM), rewriting app/engine/go/mcts/move_gammas.json or, with --check, comparing with it;
- train_policy: trains the learned move predictor (app/engine/go/mcts/network.py) on the
  corpus with PyTorch - an optional extra, `pip install -e '.[learn]'` in a venv of its own -
  compares it with the move features on held-out games and exports its weights for numpy;
- knights_tour_comparison: writes app/data/knights_tour_comparison_8.json, the 8x8 comparison
  of the knight's-tour solvers that the puzzle view shows.

They speak GTP through bench.gtp_client, the one GTP client of the repository. The GNU Go
games of `bench.go_referee generate` (the referee's test data, which train_patterns can also
learn from) are recorded beside the referee's `check`, in bench/.
"""
