"""The `tabletop-gtp` console script as a real subprocess, and a game against GNU Go.

Start with `test_console_script_plays_a_move`: the installed script (or `python -m app.gtp`
when the script is not on disk) gets a few commands on stdin, a genmove among them, and its
stdout must hold exactly one well-formed reply per command. `test_match_against_gnugo` drives
bench/gtp_match.py - the match runner - through two short 9x9 games with tiny budgets (one with
each colour) against /usr/games/gnugo, proving the plumbing end to end; it is skipped only when
GNU Go is not installed (CI installs it).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from app.engine.go import from_sgf

ROOT = Path(__file__).resolve().parent.parent.parent
GNUGO = Path("/usr/games/gnugo")
SCRIPT = Path(sys.executable).parent / "tabletop-gtp"
PLAYOUTS = "50"  # a tiny budget: these tests prove the plumbing, not the strength
TIMEOUT = 120  # seconds; a first run may spend some of it compiling the player's fast paths
VERTEX = r"[A-HJ-T](?:[1-9]|1[0-9])"

try:
    from app.engine.go.mcts import MctsPlayer  # noqa: F401 - only: is it there yet?

    HAVE_PLAYER = True
except ImportError:
    HAVE_PLAYER = False
needs_player = pytest.mark.skipif(
    not HAVE_PLAYER, reason="the Monte-Carlo player (app.engine.go.mcts) is not installed"
)


def gtp_command(*options: str) -> list[str]:
    if SCRIPT.exists():
        return [str(SCRIPT), *options]
    return [sys.executable, "-m", "app.gtp", *options]


def run_session(
    lines: list[str], *options: str
) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """Send `lines`, return the replies (each without its blank line) and the process."""
    process = subprocess.run(
        gtp_command(*options),
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
    )
    assert process.stdout.endswith("\n\n"), process.stdout[-200:]
    return process.stdout[:-2].split("\n\n"), process


def test_console_script_answers_and_survives_bad_input() -> None:
    replies, process = run_session(
        [
            "1 protocol_version",
            "2 name",
            "",
            "# a comment",
            "3 frobnicate",
            "4 boardsize 0",
            "5 play b \x00\x07D4",
            "6 play b D4",
            "7 quit",
            "8 name",
        ],
        "--playouts", PLAYOUTS, "--no-warm-up",
    )  # fmt: skip
    assert replies == [
        "=1 2",
        "=2 Tabletop",
        "?3 unknown command",
        "?4 unacceptable size",
        "=5",
        "?6 illegal move",
        "=7",
    ]
    assert process.returncode == 0
    assert process.stderr == ""  # quiet unless --verbose


@needs_player
def test_console_script_plays_a_move() -> None:
    replies, process = run_session(
        [
            "1 boardsize 9",
            "2 clear_board",
            "3 komi 7.5",
            "4 genmove b",
            "5 genmove w",
            "6 showboard",
            "7 final_score",
            "8 quit",
        ],
        "--playouts", PLAYOUTS, "--seed", "3", "--verbose",
    )  # fmt: skip
    assert replies[:3] == ["=1", "=2", "=3"]
    assert re.fullmatch(rf"=4 {VERTEX}", replies[3]), replies[3]
    assert re.fullmatch(rf"=5 {VERTEX}", replies[4]), replies[4]
    board = replies[5]
    assert board.startswith("=6\n")
    assert board.count("X") == 1 and board.count("O") == 1
    assert re.fullmatch(r"=7 ([BW]\+\d+(\.\d+)?|0)", replies[6]), replies[6]
    assert replies[7] == "=8"
    assert process.returncode == 0
    assert "genmove b" in process.stderr  # --verbose logs the player's reasoning


def load_match_runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gtp_match", ROOT / "bench" / "gtp_match.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gtp_match"] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


def test_wilson_interval() -> None:
    match = load_match_runner()
    low, high = match.wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = match.wilson_interval(0, 10)
    assert low == pytest.approx(0) and round(high, 4) == 0.2775
    low, high = match.wilson_interval(10, 10)
    assert round(low, 4) == 0.7225 and high == pytest.approx(1)
    assert match.wilson_interval(0, 0) == (0.0, 1.0)
    assert match.winner_of("B+3.5") == "black"
    assert match.winner_of("W+R") == "white"
    assert match.winner_of("0") is None


@needs_player
@pytest.mark.skipif(not GNUGO.exists(), reason=f"GNU Go is not installed at {GNUGO}")
def test_match_against_gnugo(tmp_path: Path) -> None:
    match = load_match_runner()
    out = tmp_path / "results.json"
    sgf_dir = tmp_path / "sgf"
    printed = tmp_path / "printed.txt"
    with printed.open("w") as stdout:
        report = match.main(
            [
                "--games", "2", "--size", "9", "--playouts", PLAYOUTS, "--gnugo-level", "1",
                "--max-moves", "40", "--parallel", "2", "--sgf-dir", str(sgf_dir),
                "--out", str(out),
            ],
            stdout=stdout,
        )  # fmt: skip
    text = printed.read_text()
    assert report["failures"] == [], text
    assert json.loads(out.read_text())["summary"] == report["summary"]
    games = report["games"]
    assert [game["tabletop_color"] for game in games] == ["black", "white"]
    for game in games:
        assert game["end"] in ("passes", "resignation", "move cap"), game
        assert re.fullmatch(r"[BW]\+(R|\d+(\.\d+)?)|0", game["result"]), game
        assert 2 <= len(game["moves"]) <= 40
        for move in game["moves"]:
            assert move == "pass" or re.fullmatch(VERTEX, move), move
        # The saved record replays under our rules: every move was legal for both engines.
        record = from_sgf((sgf_dir / f"game-{game['number']:03d}.sgf").read_text())
        assert game["moves"] == record.moves
    assert "95% Wilson interval" in text
    summary = report["summary"]
    assert summary["all"]["games"] == 2
    assert summary["as_black"]["games"] == summary["as_white"]["games"] == 1
