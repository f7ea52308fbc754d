"""bench/go_diagnostic.py - positions drawn from recorded games, Pachi's win rate read from
its report, and the distances from the label. A scripted GTP engine stands in for Pachi: its
win rate is 70 % at -t =50000 (the label) and 60 % at -t =1000."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from bench import go_diagnostic

FAKE_PACHI = textwrap.dedent("""
    import sys
    playouts = sys.argv[sys.argv.index("-t") + 1]
    rate = "70.0" if playouts == "=50000" else "60.0"
    for line in sys.stdin:
        command = line.split()
        if command and command[0] == "genmove":
            print(f"*** WINNER is C3 with score {rate}% (7/10 games)", file=sys.stderr,
                  flush=True)
            print("= C3\\n", flush=True)
        elif command and command[0] == "quit":
            print("=\\n", flush=True)
            break
        elif command:
            print("=\\n", flush=True)
""")

def fake_pachi(directory: Path) -> Path:
    """An executable in `directory` that runs FAKE_PACHI."""
    script = directory / "fake_pachi.py"
    script.write_text(FAKE_PACHI)
    launcher = directory / "pachi"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {script} \"$@\"\n")
    launcher.chmod(0o755)
    return launcher


GAME = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[dc];B[cg];W[fc];B[gg];W[ce];B[df];W[gd];B[ha])"


def test_positions_are_drawn_after_the_opening_and_before_the_end(tmp_path: Path) -> None:
    (tmp_path / "game-000.sgf").write_text(GAME)
    drawn = go_diagnostic.positions(tmp_path, 10, skip=6, seed=1)
    assert sorted(len(p.moves) for p in drawn) == [6, 7]  # of 9 moves: cuts 6 and 7
    assert drawn == go_diagnostic.positions(tmp_path, 10, skip=6, seed=1)  # seeded
    assert all(p.size == 9 and p.komi == 7.5 for p in drawn)


def test_the_report_compares_both_engines_with_the_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "game-000.sgf").write_text(GAME)
    launcher = fake_pachi(tmp_path)
    assert go_diagnostic.main(["--sgf-dir", str(tmp_path), "--positions", "2", "--skip", "6",
                               "--label-playouts", "50000", "--playouts", "1000",
                               "--pachi", str(launcher)]) == 0
    out = capsys.readouterr().out
    assert "label 0.700" in out and "pachi 0.600" in out
    assert "2 positions, label: Pachi at 50,000 playouts" in out
    assert "pachi mean |gap| 0.100, median 0.100, same side 100%, slope -" in out  # one label


def test_the_slope_says_how_far_readings_are_pulled_towards_one_half() -> None:
    assert go_diagnostic.slope([0.2, 0.8, 0.5], [0.35, 0.65, 0.5]) == pytest.approx(0.5)
    assert go_diagnostic.slope([0.1, 0.9], [0.1, 0.9]) == pytest.approx(1.0)
    assert go_diagnostic.slope([0.7, 0.7], [0.6, 0.4]) is None  # no spread to compare with
    assert go_diagnostic.summary([0.2, 0.8], [0.35, 0.65]).endswith("same side 100%, slope 0.50")


def test_tabletop_can_read_at_its_own_playouts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "game-000.sgf").write_text(GAME)
    launcher = fake_pachi(tmp_path)
    asked: list[int] = []

    def reading(position: go_diagnostic.Position, playouts: int, seed: int) -> float:
        asked.append(playouts)
        return 0.5

    monkeypatch.setattr(go_diagnostic, "tabletop_win_rate", reading)
    assert go_diagnostic.main(["--sgf-dir", str(tmp_path), "--positions", "2", "--skip", "6",
                               "--tabletop-playouts", "5000", "--pachi", str(launcher)]) == 0
    assert asked == [5000, 5000]
    assert "Tabletop at 5,000, Pachi at 1,000" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        go_diagnostic.main(["--labels", str(tmp_path / "x.json"), "--tabletop-playouts", "50"])
    assert "--tabletop-playouts must be 100-100,000" in capsys.readouterr().err


def test_bounds_are_refused_with_a_sentence(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        go_diagnostic.main(["--sgf-dir", str(tmp_path), "--playouts", "100", "--pachi", "x"])
    assert "Pachi refuses fewer than 500" in capsys.readouterr().err


def test_labels_are_written_once_and_then_read_without_pachi(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "game-000.sgf").write_text(GAME)
    launcher = fake_pachi(tmp_path)
    labels = tmp_path / "labels.json"
    common = ["--positions", "2", "--skip", "6", "--labels", str(labels)]
    assert go_diagnostic.main(["--sgf-dir", str(tmp_path), "--pachi", str(launcher),
                               *common]) == 0
    first = capsys.readouterr().out
    _, _, rows = go_diagnostic.load_labels(labels)
    assert [(len(r.position.moves), r.label, r.pachi) for r in rows] in (
        [(6, 0.7, 0.6), (7, 0.7, 0.6)], [(7, 0.7, 0.6), (6, 0.7, 0.6)])
    launcher.unlink()  # the second run must not need Pachi, nor the games
    (tmp_path / "game-000.sgf").unlink()
    assert go_diagnostic.main(common) == 0
    second = capsys.readouterr().out
    assert second == first  # the same labels and Tabletop's seeded reads


def test_a_run_without_positions_says_where_they_come_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        go_diagnostic.main(["--labels", str(tmp_path / "missing.json"), "--pachi", "x"])
    assert "--sgf-dir DIR, or --labels FILE" in capsys.readouterr().err


def test_the_kept_labels_are_the_published_diagnostic() -> None:
    label_playouts, playouts, rows = go_diagnostic.load_labels(
        Path("tests/data/go/diagnostic_9.json"))
    assert (label_playouts, playouts, len(rows)) == (50_000, 1000, 500)
    assert all(0.0 <= r.label <= 1.0 and r.position.size == 9 for r in rows)
