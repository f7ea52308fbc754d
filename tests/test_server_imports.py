"""The server hands searches to its workers and never runs one itself, so it never loads the
compiled Go player (numba, llvmlite: ~35 MB of every server's memory, issue 33); what only
names a level reads app/engine/go/levels.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import sys
from app.main import create_app
create_app(database_url="sqlite:///{db}")
print(" ".join(sorted(name for name in sys.modules
                      if name.split(".")[0] in ("numba", "llvmlite")
                      or name.startswith("app.engine.go.mcts"))))
"""


def test_the_server_loads_no_compiled_search(tmp_path: Path) -> None:
    probe = subprocess.run([sys.executable, "-c", PROBE.format(db=tmp_path / "probe.db")],
                           cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert probe.stdout.split() == []


def test_the_players_levels_are_the_servers() -> None:
    from app.engine.go import levels, mcts

    assert mcts.LEVELS is levels.LEVELS and mcts.UnknownLevel is levels.UnknownLevel
