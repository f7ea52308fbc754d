"""tools/go_corpus.py - the training corpus's generator: one engine plays both colours, each
game is kept as soon as it ends, and a run resumes where the file stops. A scripted GTP engine
stands in for Pachi (CI does not build it)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from tools import go_corpus

# Answers genmove from a script chosen by the seed after -s: seed 1 resigns as black on its
# third move, seed 2 passes twice, seed 3 never answers (a dead engine: the game is dropped).
FAKE_ENGINE = textwrap.dedent("""
    import sys
    seed = int(sys.argv[sys.argv.index("-s") + 1])
    script = {1: ["D4", "E5", "resign"], 2: ["C3", "pass", "pass"], 3: []}[seed]
    for line in sys.stdin:
        command = line.split()
        if not command:
            continue
        if command[0] == "genmove":
            if not script:
                sys.exit(1)
            print("*** WINNER is X with score 61.5% (3/5 games)", file=sys.stderr, flush=True)
            print("= " + script.pop(0) + "\\n", flush=True)
        elif command[0] == "final_score":
            print("= W+7.5\\n", flush=True)
        elif command[0] == "final_status_list":
            print("= C3\\n", flush=True)  # the only stone on the board is dead
        elif command[0] == "gogui-influence":
            print("= INFLUENCE A9 -1.0 B9 -0.7 C9 0.4 D4 0.7 E5 1.0\\nTEXT W+3\\n", flush=True)
        elif command[0] == "quit":
            print("=\\n", flush=True)
            break
        else:
            print("=\\n", flush=True)
""")


@pytest.fixture
def fake_pachi(tmp_path: Path) -> str:
    script = tmp_path / "fake_pachi.py"
    script.write_text(FAKE_ENGINE)
    launcher = tmp_path / "pachi"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {script} \"$@\"\n")
    launcher.chmod(0o755)
    return str(launcher)


def test_games_are_recorded_one_a_line_and_a_run_resumes(
    fake_pachi: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.json"
    common = ["--size", "9", "--playouts", "100", "--seed", "1", "--pachi", fake_pachi,
              "--out", str(out)]
    assert go_corpus.main(["--games", "2", *common]) == 0
    data = json.loads(out.read_text())
    assert [g["number"] for g in data["games"]] == [0, 1]
    first, second = data["games"]
    assert first["seed"] == 1 and first["moves"] == ["D4", "E5"] and first["result"] == "W+R"
    assert second["moves"] == ["C3", "pass", "pass"] and second["result"] == "W+7.5"
    assert "-t =100 threads=1" in data["generator"]
    assert len(out.read_text().splitlines()) == 2  # a game a line
    # Resuming asks only for the missing games; game 2's engine dies and it is dropped.
    assert go_corpus.main(["--games", "3", *common]) == 0
    assert [g["number"] for g in json.loads(out.read_text())["games"]] == [0, 1]
    printed = capsys.readouterr().out
    assert "game 2: failed" in printed and printed.count("game 0:") == 1


def test_a_learning_corpus_holds_win_rates_and_final_ownership(
    fake_pachi: str, tmp_path: Path
) -> None:
    out = tmp_path / "games.json"
    assert go_corpus.main(["--games", "2", "--size", "9", "--playouts", "100", "--seed", "1",
                           "--pachi", fake_pachi, "--out", str(out), "--learning"]) == 0
    data = json.loads(out.read_text())
    resigned, passed = data["games"]
    assert "-d 2" in data["generator"]
    assert resigned["winrates"] == [61.5, 61.5]  # the resignation is no move
    # After a resignation: Pachi's playouts own a point from 0.7 on (row 0 is the top).
    owners = resigned["ownership"]
    assert len(owners) == 81 and owners[0] == "O" and owners[1] == "O" and owners[2] == "."
    assert owners[5 * 9 + 3] == "X" and owners[4 * 9 + 4] == "X" and owners.count(".") == 77
    # After two passes: the dead stone comes off and the empty board is nobody's.
    assert passed["winrates"] == [61.5] * 3 and passed["ownership"] == "." * 81


def test_final_ownership_counts_area_after_taking_off_the_dead() -> None:
    # Black's wall on C, white's on G, dame between; white's A1 stone is dead.
    moves = []
    for row in range(1, 10):
        moves += [f"C{row}", f"G{row}"]
    moves += ["pass", "A1"]
    owners = go_corpus.final_ownership(9, moves, ["A1"])
    rows = [owners[i:i + 9] for i in range(0, 81, 9)]
    assert all(row == "XXX...OOO" for row in rows)


def test_bounds_are_refused_with_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        go_corpus.main(["--games", "0"])
    assert "--games must be" in capsys.readouterr().err


def test_pachi_is_named_never_looked_for(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("PACHI", raising=False)
    with pytest.raises(SystemExit):
        go_corpus.main(["--games", "1"])
    assert "--pachi PATH or PACHI=PATH" in capsys.readouterr().err
