"""bench/go_judge.py, the loss finder, against a fake judge whose opinion is known: after n
moves it reports the side to move's win rate as (50 + n) % in Pachi's words on stderr, so
every drop is exactly 0.02 n + 0.01 and the summary's bins can be checked to the digit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import go_judge

FAKE_JUDGE = """#!{python}
import sys

moves = 0
with open({log!r}, "a") as log:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        log.write(line)
        log.flush()
        command = words[0]
        if command == "clear_board":
            moves = 0
        elif command == "play":
            moves += 1
        if command == "genmove":
            sys.stderr.write(f"*** WINNER is C3 with score {{50 + moves:.1f}}% (1/2 games)\\n")
            sys.stderr.flush()
            reply = "= C3"
        else:
            reply = "="
        sys.stdout.write(reply + "\\n\\n")
        sys.stdout.flush()
        if command == "quit":
            break
"""

RECORD = (
    "(;FF[4]GM[1]SZ[9]KM[7.5]RU[Chinese]PB[pachi]PW[Tabletop --seed 1]RE[B+R]"
    ";B[ee];W[cc];B[gg];W[cg];B[gc];W[dd];B[ff];W[ef];B[fe];W[de];B[dg];W[ch])"
)


@pytest.fixture
def judge(tmp_path: Path) -> Path:
    path = tmp_path / "judge"
    path.write_text(FAKE_JUDGE.format(python=sys.executable, log=str(tmp_path / "judge.log")))
    path.chmod(0o755)
    return path


def test_every_move_of_the_studied_side_is_judged(tmp_path: Path, judge: Path) -> None:
    record = tmp_path / "game-000.sgf"
    record.write_text(RECORD)
    game = go_judge.judge_game(record, [str(judge)])
    assert game.side == "white"  # Tabletop's colour, read from PW
    assert game.result == "B+R"
    assert [p.number for p in game.positions] == list(range(12))
    assert [p.win_rate for p in game.positions] == pytest.approx([0.5 + n / 100 for n in range(12)])
    white = [p for p in game.positions if p.studied]
    assert [p.color for p in white] == ["white"] * 6
    assert [p.played for p in white[:2]] == ["C7", "C3"]
    # Each drop: before (50 + n) %, after 1 - (51 + n) % for the opponent: 0.02 n + 0.01.
    assert [p.drop for p in white[:-1]] == pytest.approx([0.02 * n + 0.01 for n in (1, 3, 5, 7, 9)])
    assert white[-1].drop is None  # the last move has no position after it to judge
    assert all(p.drop is None for p in game.positions if not p.studied)
    log = (tmp_path / "judge.log").read_text().splitlines()
    assert log.count("clear_board") == 12  # every position set up afresh, never by undo
    assert not any(line.startswith("undo") for line in log)


def test_summary_by_move_and_the_command_line(tmp_path: Path, judge: Path) -> None:
    records = []
    for number in range(2):
        path = tmp_path / f"game-{number:03d}.sgf"
        path.write_text(RECORD)
        records.append(str(path))
    out = tmp_path / "judged.json"
    lines: list[str] = []

    class Capture:
        def write(self, text: str) -> None:
            lines.append(text)

    report = go_judge.main(
        [*records, "--judge", str(judge), "--side", "black", "--parallel", "2", "--out", str(out)],
        stdout=Capture(),
    )
    assert report["games"] == 2
    first, second = report["by_move"]
    assert first["moves"] == "1-5" and second["moves"] == "6-10"
    assert first["positions"] == 10  # black's first five moves in both games
    assert first["win_rate"] == pytest.approx(sum(0.5 + n / 100 for n in (0, 2, 4, 6, 8)) / 5)
    # Black's drops 0.02 n + 0.01 at n = 0, 2, ..., 8: 0.01 ... 0.17, two over 0.1 a game.
    assert first["drop"] == pytest.approx(0.09)
    assert first["blunders"] == 4
    assert second["positions"] == 2 and second["drop"] == pytest.approx(0.21)
    assert report["worst"][0]["drop"] == pytest.approx(0.21)
    assert report["worst"][0]["move"] == 11 and report["worst"][0]["judge"] == "C3"
    text = "".join(lines)
    assert "game-000.sgf: black B+R; win rate: 0.50 0.52" in text
    saved = json.loads(out.read_text())
    assert len(saved["games"]) == 2 and len(saved["games"][0]["positions"]) == 12


def test_bad_input_is_refused_with_a_sentence(tmp_path: Path, judge: Path) -> None:
    record = tmp_path / "game.sgf"
    record.write_text(RECORD.replace("Tabletop --seed 1", "someone"))
    with pytest.raises(ValueError, match="neither player's name starts with Tabletop"):
        go_judge.judge_game(record, [str(judge)])
    with pytest.raises(SystemExit, match="--parallel must be 1 to 8"):
        go_judge.main([str(record), "--judge", str(judge), "--parallel", "9"])
    lines: list[str] = []

    class Capture:
        def write(self, text: str) -> None:
            lines.append(text)

    report = go_judge.main([str(record), "--judge", str(judge)], stdout=Capture())
    assert report["games"] == 0  # the record is reported as not judged, the run goes on
    assert "game.sgf: not judged: neither player's name" in "".join(lines)
