"""bench/go_corpus.py - the training corpus's generator: one engine plays both colours, each
game is kept as soon as it ends, and a run resumes where the file stops. A scripted GTP engine
stands in for Pachi (CI does not build it)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import go_corpus  # noqa: E402

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
            print("= " + script.pop(0) + "\\n", flush=True)
        elif command[0] == "final_score":
            print("= W+7.5\\n", flush=True)
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
