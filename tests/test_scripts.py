"""The scripts in bench/ (benchmarks) and tools/ (data and training) import as packages: every
module imports (so a broken import fails here, not on the next benchmark run), none edits
sys.path or reaches outside the repository, and they run as modules from the repository root
(`.venv/bin/python -m bench.gtp_match ...`, `.venv/bin/python -m tools.go_corpus ...`).
Importing runs nothing: the scripts start work only under `if __name__ == "__main__"`."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bench", "tools")
MODULES = [f"{package}.{info.name}" for package in PACKAGES
           for info in pkgutil.iter_modules([str(ROOT / package)])]


def source(module: str) -> str:
    return (ROOT / (module.replace(".", "/") + ".py")).read_text()


def test_both_packages_hold_their_scripts() -> None:
    assert {"bench.gtp_client", "bench.gtp_match", "bench.go_referee"} <= set(MODULES)
    assert {"tools.go_corpus", "tools.train_patterns", "tools.knights_tour_comparison"} <= set(
        MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_every_script_imports_by_its_package_path(module: str) -> None:
    importlib.import_module(module)


@pytest.mark.parametrize("module", [*MODULES, *PACKAGES])
def test_no_script_edits_sys_path_or_reaches_outside_the_repository(module: str) -> None:
    text = source(module if "." in module else f"{module}.__init__")
    assert "sys.path" not in text
    assert "../shared" not in text
    # Run lines name the module form: a script run by its path could not import the package.
    assert "python bench/" not in text and "python tools/" not in text


def test_one_gtp_client() -> None:
    """The GTP client and its errors are defined once, in bench.gtp_client (go_referee had a
    GNU Go client of its own); the others import it."""
    defining = [m for m in MODULES if re.search(r"^class Gtp", source(m), re.MULTILINE)]
    assert defining == ["bench.gtp_client"]
    from bench import go_referee, gtp_match
    from bench.gtp_client import GtpClient
    from tools import go_corpus
    assert gtp_match.GtpClient is GtpClient and go_corpus.GtpClient is GtpClient
    assert go_referee.GtpClient is GtpClient


def test_a_script_runs_as_a_module_from_the_repository_root() -> None:
    run = subprocess.run([sys.executable, "-m", "tools.go_corpus", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "--pachi" in run.stdout
