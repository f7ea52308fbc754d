"""The `tabletop-gtp` console script as a real subprocess, and games against other engines.

Start with `test_console_script_plays_a_move`: the installed script (or `python -m app.gtp`
when the script is not on disk) gets a few commands on stdin, a genmove among them, and its
stdout must hold exactly one well-formed reply per command. `test_match_against_gnugo` drives
bench/gtp_match.py - the match runner - through two short 9x9 games with tiny budgets (one with
each colour) against /usr/games/gnugo, proving the plumbing end to end; it is skipped only when
GNU Go is not installed (CI installs it). `test_match_against_any_opponent` and
`test_resignation_decides_without_referee` give the runner fake GTP engines (scripts written to
tmp_path) as `--opponent` (always passes, or always resigns) and as `--gnugo` (the referee, with
a score of its own): the referee's score must decide the games that are scored, after replaying
exactly their moves, resignations must decide alone, and every game must be saved as SGF.
`test_gnugo_referee_scores_a_game_against_an_opponent` does it for real: GNU Go level 1 through
`--opponent`, scored by a GNU Go referee whose verdict is checked against GNU Go asked directly.
"""

from __future__ import annotations

import datetime
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.go import from_sgf
from app.engine.go.sgf import read_record
from bench import gtp_match as match

ROOT = Path(__file__).resolve().parent.parent.parent
GNUGO = Path("/usr/games/gnugo")
SCRIPT = Path(sys.executable).parent / "tabletop-gtp"
PLAYOUTS = "50"  # a tiny budget: these tests prove the plumbing, not the strength
TIMEOUT = 120  # seconds; a first run may spend some of it compiling the player's fast paths
VERTEX = r"[A-HJ-T](?:[1-9]|1[0-9])"


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


def test_wilson_interval() -> None:
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


@pytest.mark.usefixtures("gnugo")
def test_match_against_gnugo(tmp_path: Path) -> None:
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
        # GNU Go as the opponent scores its own games; no separate referee.
        assert game["scored_by"] == (None if game["end"] == "resignation" else "opponent")
    assert report["referee_command"] is None
    assert report["opponent_name"] == "GNU Go level 1"
    assert report["opponent_command"][:2] == [str(GNUGO), "--mode"]
    assert "95% Wilson interval" in text
    summary = report["summary"]
    assert summary["all"]["games"] == 2
    assert summary["as_black"]["games"] == summary["as_white"]["games"] == 1


# A minimal GTP engine, written as an executable script: `genmove` answers GENMOVE, `final_score`
# answers SCORE, `time_settings` is refused, everything else accepted; every command goes to LOG.
FAKE_ENGINE = """#!{python}
import sys

GENMOVE, SCORE, LOG, DIE_AFTER = {genmove!r}, {score!r}, {log!r}, {die_after!r}
genmoves = 0
with open(LOG, "a") as log:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        log.write(line)
        log.flush()
        command = words[0]
        if command == "genmove":
            genmoves += 1
            if DIE_AFTER is not None and genmoves > DIE_AFTER:
                sys.exit(11)  # as a crashing engine does, mid-game
            reply = "= " + GENMOVE
        elif command == "final_score":
            reply = "= " + SCORE
        elif command in ("time_settings", "kgs-time_settings"):
            reply = "? unknown command"
        else:
            reply = "="
        sys.stdout.write(reply + "\\n\\n")
        sys.stdout.flush()
        if command == "quit":
            break
"""


def fake_engine(tmp_path: Path, name: str, genmove: str = "pass", score: str = "0",
                die_after: int | None = None) -> Path:
    """An executable fake GTP engine at tmp_path/name; its log is tmp_path/name.log. With
    `die_after`, it exits without an answer at the genmove after that many."""
    path = tmp_path / name
    log = str(path.with_suffix(".log"))
    path.write_text(FAKE_ENGINE.format(python=sys.executable, genmove=genmove, score=score,
                                       log=log, die_after=die_after))
    path.chmod(0o755)
    return path


def gnugo_score(moves: list[str], size: int = 9, komi: float = 7.5) -> str:
    """What GNU Go (level 10, Chinese rules) says after `moves`, asked here independently."""
    lines = [f"boardsize {size}", "clear_board", f"komi {komi:g}"]
    lines += [f"play {'bw'[i % 2]} {move}" for i, move in enumerate(moves)]
    process = subprocess.run(
        [str(GNUGO), "--mode", "gtp", "--chinese-rules", "--level", "10"],
        input="\n".join([*lines, "final_score", "quit"]) + "\n",
        capture_output=True, text=True, timeout=TIMEOUT, check=True,
    )  # fmt: skip
    replies = process.stdout.strip().split("\n\n")
    assert all(reply.startswith("=") for reply in replies), replies
    return replies[-2][1:].strip()


def test_opponent_names_and_default_sgf_dir(tmp_path: Path) -> None:
    config = match.MatchConfig(opponent=("/opt/pachi/pachi", "-t", "2", "threads=1"))
    assert config.opponent_label == "pachi"
    assert config.opponent_command(3) == ["/opt/pachi/pachi", "-t", "2", "threads=1"]
    assert "--chinese-rules" in config.referee_command()
    assert config.referee_command()[-2:] == ["--level", "10"]
    named = match.MatchConfig(opponent=("x",), opponent_name="Pachi 12")
    assert named.opponent_label == "Pachi 12"
    gnugo = match.MatchConfig(gnugo_level=3)
    assert gnugo.opponent_label == "GNU Go level 3"
    assert gnugo.referee_command() is None  # GNU Go as the opponent scores its own games
    assert gnugo.opponent_command(2)[-4:] == ["--level", "3", "--seed", "3"]
    assert "--network" not in gnugo.tabletop_command(0)  # the engine's default: the shipped one
    assert "--no-network" not in gnugo.tabletop_command(0)
    assert match.MatchConfig(no_network=True).tabletop_command(0)[-1] == "--no-network"
    assert match.MatchConfig(inner_visits=300).tabletop_command(0)[-2:] == [
        "--inner-visits", "300"]
    netted = match.MatchConfig(network=Path("/w/net.npz"))
    assert netted.tabletop_command(0)[-2:] == ["--network", "/w/net.npz"]
    day = datetime.date(2025, 1, 2)
    first = match.default_sgf_dir("GNU Go level 3", day, root=tmp_path)
    assert first == tmp_path / "2025-01-02-GNU-Go-level-3"
    first.mkdir()
    assert match.default_sgf_dir("GNU Go level 3", day, root=tmp_path) == first  # empty: reuse
    (first / "game-000.sgf").write_text("(;)")
    second = match.default_sgf_dir("GNU Go level 3", day, root=tmp_path)
    assert second == tmp_path / "2025-01-02-GNU-Go-level-3-2"  # never over an earlier match
    assert match.default_sgf_dir("../x y", day, root=tmp_path).parent == tmp_path


def test_a_match_refuses_inner_visits_without_a_network() -> None:
    with pytest.raises(SystemExit, match="--inner-visits must be at least 1, and needs a network"):
        match.main(["--no-network", "--inner-visits", "300"])
    with pytest.raises(SystemExit):  # argparse: not allowed with --network
        match.main(["--no-network", "--network", "w.npz"])


def test_match_against_any_opponent(tmp_path: Path) -> None:
    opponent = fake_engine(tmp_path, "fake-pass", genmove="pass", score="B+999")
    referee = fake_engine(tmp_path, "fake-gnugo", score="W+42.5")
    out, sgf_dir = tmp_path / "results.json", tmp_path / "sgf"
    printed = tmp_path / "printed.txt"
    with printed.open("w") as stdout:
        report = match.main(
            [
                "--games", "2", "--size", "9", "--playouts", PLAYOUTS, "--max-moves", "6",
                "--opponent", f"{opponent} --some-flag", "--opponent-time", "1.5",
                "--gnugo", str(referee), "--sgf-dir", str(sgf_dir), "--out", str(out),
            ],
            stdout=stdout,
        )  # fmt: skip
    text = printed.read_text()
    assert report["failures"] == [], text
    assert "vs fake-pass" in text and "95% Wilson interval" in text
    saved = json.loads(out.read_text())
    assert saved["opponent_command"] == [str(opponent), "--some-flag"]
    assert saved["opponent_name"] == "fake-pass"  # the command's basename
    assert saved["referee_command"][0] == str(referee)
    # The per-move time reached the opponent, and its '?' did not stop the match.
    assert opponent.with_suffix(".log").read_text().count("time_settings 0 1.5 1\n") == 2
    referee_log = referee.with_suffix(".log").read_text()
    games = report["games"]
    assert [game["tabletop_color"] for game in games] == ["black", "white"]
    for game in games:
        assert game["end"] in ("passes", "move cap"), game
        # The referee's score decides, not the opponent's (B+999) nor Tabletop's.
        assert (game["result"], game["winner"], game["scored_by"]) == ("W+42.5", "white", "referee")
        assert game["tabletop_won"] is (game["tabletop_color"] == "white")
        # ... after replaying exactly the game's moves from an empty board.
        plays = "".join(
            f"play {'black' if i % 2 == 0 else 'white'} {move}\n"
            for i, move in enumerate(game["moves"])
        )
        assert f"boardsize 9\nclear_board\nkomi 7.5\n{plays}final_score\n" in referee_log
        path = sgf_dir / f"game-{game['number']:03d}.sgf"
        assert game["sgf"] == str(path)
        record = read_record(path.read_text())
        assert record.game.moves == game["moves"]
        ours = game["tabletop_color"]
        assert record.info[ours].startswith("Tabletop")
        assert record.info["white" if ours == "black" else "black"] == "fake-pass"
        assert (record.info["result"], record.info["komi"]) == ("W+42.5", "7.5")
        assert "--opponent" in record.comments[0] and "referee" in record.comments[0]


@pytest.mark.usefixtures("gnugo")
def test_gnugo_referee_scores_a_game_against_an_opponent(tmp_path: Path) -> None:
    sgf_dir = tmp_path / "sgf"
    printed = tmp_path / "printed.txt"
    with printed.open("w") as stdout:
        report = match.main(
            [
                "--games", "1", "--playouts", PLAYOUTS, "--max-moves", "20",
                "--opponent", f"{GNUGO} --mode gtp --level 1", "--sgf-dir", str(sgf_dir),
            ],
            stdout=stdout,
        )  # fmt: skip
    assert report["failures"] == [], printed.read_text()
    (game,) = report["games"]
    assert report["opponent_name"] == "gnugo"
    if game["end"] != "resignation":
        assert game["scored_by"] == "referee"
        assert game["result"] == gnugo_score(game["moves"])
    record = read_record((sgf_dir / "game-000.sgf").read_text())
    assert (record.info["black"], record.info["white"]) == (
        f"Tabletop --seed 1 --playouts {PLAYOUTS}",
        "gnugo",
    )
    assert record.info["result"] == game["result"]


def test_a_game_an_engine_breaks_off_fails_and_keeps_its_moves(tmp_path: Path) -> None:
    # The opponent plays (a corner Tabletop never opens on) rather than passing: after a pass
    # Tabletop may rightly pass too and end the game before the opponent can break off.
    opponent = fake_engine(tmp_path, "fake-crash", genmove="J9", die_after=1)
    sgf_dir = tmp_path / "sgf"
    printed = tmp_path / "printed.txt"
    with printed.open("w") as stdout:
        report = match.main(
            [
                "--games", "1", "--playouts", PLAYOUTS, "--opponent", str(opponent),
                "--gnugo", str(fake_engine(tmp_path, "fake-gnugo")), "--sgf-dir", str(sgf_dir),
            ],
            stdout=stdout,
        )  # fmt: skip
    assert report["games"] == []  # not counted as played
    (failure,) = report["failures"]
    path = sgf_dir / "game-000-failed.sgf"
    assert str(path) in failure["error"] and "FAILED" in printed.read_text()
    record = read_record(path.read_text())
    # Tabletop (black) moved, the opponent played J9, Tabletop moved, and the opponent died.
    assert len(record.game.moves) == 3 and record.game.moves[1] == "J9"
    assert record.info["result"] == "Void"
    assert not (sgf_dir / "game-000.sgf").exists()


def test_resignation_decides_without_referee(tmp_path: Path) -> None:
    opponent = fake_engine(tmp_path, "fake-resign", genmove="resign")
    referee = fake_engine(tmp_path, "fake-gnugo")
    sgf_dir = tmp_path / "sgf"
    printed = tmp_path / "printed.txt"
    with printed.open("w") as stdout:
        report = match.main(
            [
                "--games", "2", "--playouts", PLAYOUTS, "--opponent", str(opponent),
                "--opponent-name", "Quitter", "--gnugo", str(referee), "--sgf-dir", str(sgf_dir),
            ],
            stdout=stdout,
        )  # fmt: skip
    assert report["failures"] == [], printed.read_text()
    black, white = report["games"]
    assert (black["result"], black["end"], len(black["moves"])) == ("B+R", "resignation", 1)
    assert (white["result"], white["end"], white["moves"]) == ("W+R", "resignation", [])
    for game in (black, white):
        assert game["tabletop_won"] is True and game["scored_by"] is None
        record = read_record((sgf_dir / f"game-{game['number']:03d}.sgf").read_text())
        assert record.info["result"] == game["result"]
        assert record.info["white" if game is black else "black"] == "Quitter"
    assert not referee.with_suffix(".log").exists()  # no referee was started
    assert "final_score" not in opponent.with_suffix(".log").read_text()
    assert report["summary"]["all"]["win_rate"] == 1.0


def test_quit_with_the_input_still_open_exits_cleanly() -> None:
    """A controller that sends quit and keeps its end of the pipe open: the engine answers and
    exits 0 at once, silently - its input thread, blocked reading, must not abort the
    interpreter's shutdown. An over-long line is cut and refused, and the next one answered."""
    process = subprocess.Popen(gtp_command("--no-warm-up"), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT)
    assert process.stdin is not None
    process.stdin.write("1 name " + "x" * 200_000 + "\n2 name\n3 quit\n")
    process.stdin.flush()
    try:
        assert process.wait(timeout=TIMEOUT) == 0
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read() == "?1 syntax error\n\n=2 Tabletop\n\n=3\n\n"
        assert process.stderr.read() == ""
    finally:
        process.stdin.close()
        process.kill()
