"""The kernels' on-disk cache follows every source they compile in (`jit`): numba alone checks
only the file that defines a kernel, so an edit to a constant imported from another file
would load stale machine code. Each test here compiles in a copy of the package."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from app.engine.go.mcts import jit

APP = Path(__file__).resolve().parents[4] / "app"

# In the copy: build an empty 5x5 board (its ko slot is coords.PASS, compiled in from
# another file than new_board's) and report that and whether numba compiled or loaded it.
PROBE = """
import json
from app.engine.go.mcts import fastboard as fb, jit
board = fb.new_board(5)
stats = fb.new_board.stats
print(json.dumps({"ko": int(board[fb.META, fb.M_KO]), "cache": jit.CACHE.name,
                  "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values())}))
"""


def probe(root: Path) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(root / "cache"))
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    result: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def test_an_edit_to_a_source_a_kernel_imports_from_compiles_it_afresh(tmp_path: Path) -> None:
    shutil.copytree(APP, tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    first = probe(tmp_path)
    assert first["ko"] == -1 and first["misses"] == 1  # compiled, then saved
    again = probe(tmp_path)
    assert again == {**first, "hits": 1, "misses": 0}  # loaded from the cache
    coords = tmp_path / "app" / "engine" / "go" / "coords.py"
    text = coords.read_text()
    assert "\nPASS = -1 " in text
    coords.write_text(text.replace("\nPASS = -1 ", "\nPASS = -7 "))
    edited = probe(tmp_path)
    # numba's own check (fastboard.py unchanged) would have loaded the old code, ko -1.
    assert edited["ko"] == -7 and edited["misses"] == 1 and edited["cache"] != first["cache"]


def test_the_digest_covers_the_kernels_and_what_they_import_only() -> None:
    sources = {path.relative_to(APP).as_posix() for path in jit.SOURCES}
    package = APP / "engine" / "go" / "mcts"
    for path in package.glob("*.py"):
        if "@kernel" in path.read_text():
            assert f"engine/go/mcts/{path.name}" in sources
    # What the kernels import from, in the package and beyond it:
    assert {"engine/go/mcts/tuning.py", "engine/go/mcts/scratch.py", "engine/go/board.py",
            "engine/go/coords.py", "engine/go/playout.py"} <= sources
    # The Python that only calls kernels: editing it compiles nothing.
    assert not {"engine/go/mcts/player.py", "engine/go/mcts/tree.py",
                "engine/go/mcts/features.py", "engine/go/game.py"} & sources


def test_stale_digests_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    old = tmp_path / ("0" * 16)
    recent = tmp_path / ("1" * 16)
    for directory in (old, recent):
        directory.mkdir()
    long_ago = old.stat().st_mtime - jit.STALE_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    before = jit.numba.config.CACHE_DIR
    try:
        current = jit.use_cache(tmp_path)
    finally:
        jit.numba.config.CACHE_DIR = before  # type: ignore[attr-defined]
    assert current.name == jit.sources_digest()
    assert not old.exists() and recent.exists() and current.exists()
