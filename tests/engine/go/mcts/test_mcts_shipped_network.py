"""The shipped move predictor (app/engine/go/mcts/policy.npz, `levels.NETWORK_WEIGHTS`): small
enough to ship, installed with the package, sound on a few positions any player knows (an
opening point, a capture that saves a stone, a ladder that works and one that does not), and
consulted by every player the server and the GTP engine make."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from app import jobs
from app.engine.go import Game
from app.engine.go.levels import LEVELS, NETWORK_WEIGHTS
from app.engine.go.mcts import MctsPlayer
from app.engine.go.mcts.fastboard import point_name
from app.engine.go.mcts.network import Network, load
from app.engine.go.mcts.player import array_board
from app.gtp.session import PlayerSettings, mcts_player

MAX_BYTES = 5_000_000  # the bound on the weights file (issue 32)


def predicted(black: tuple[str, ...], white: tuple[str, ...], last: str | None = None,
              size: int = 19) -> dict[str, float]:
    """The shipped network's probability of each move (over 8 turns of the board) after black
    and white play these stones in turn (the side with fewer passing) and then white `last`."""
    moves: list[str] = []
    for k in range(max(len(black), len(white))):
        moves += [black[k] if k < len(black) else "pass", white[k] if k < len(white) else "pass"]
    if last is not None:
        if moves[-1] == "pass":
            moves[-1] = last
        else:
            moves += ["pass", last]
    game = Game.from_moves(moves, size=size, komi=7.5)
    assert game.to_move == "black"
    board = array_board(game)
    points, _, policy = load(NETWORK_WEIGHTS).candidates(board, 8)
    return {point_name(int(p), size): float(q) for p, q in zip(points, policy, strict=True)}


def top(probabilities: dict[str, float], count: int = 1) -> list[str]:
    return sorted(probabilities, key=probabilities.__getitem__, reverse=True)[:count]


def test_the_weights_are_small_and_ship_with_the_package() -> None:
    assert NETWORK_WEIGHTS.is_file()
    assert NETWORK_WEIGHTS.stat().st_size <= MAX_BYTES
    pyproject = tomllib.loads((Path(__file__).parents[4] / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["app.engine.go.mcts"]
    assert NETWORK_WEIGHTS.name in shipped


def test_an_empty_board_is_opened_at_a_star_point() -> None:
    assert top(predicted((), ()))[0] in {"D4", "D16", "Q4", "Q16"}
    answer = Game.from_moves(["Q16"], size=19, komi=7.5)  # white answers black's star point
    points, _, policy = load(NETWORK_WEIGHTS).candidates(array_board(answer), 8)
    best = point_name(int(points[policy.argmax()]), 19)
    assert best in {"D4", "D16", "Q4"}
    assert top(predicted((), (), size=13))[0] in {"D4", "D10", "K4", "K10"}


def test_a_stone_in_atari_is_saved_by_capturing() -> None:
    # Black K10 (one liberty, K9) touches white L10 (one liberty, M10): taking L10 saves
    # K10 and wins a stone; running at K9 only saves it.
    odds = predicted(("Q16", "D16", "K10", "L11", "L9"), ("Q4", "D4", "L10", "K11"), "J10")
    assert odds["M10"] > 0.5
    assert odds["M10"] > 2 * odds["K9"]


def test_a_working_ladder_is_played() -> None:
    # White D14 (liberties E14 and D15) runs towards black D16: E14 chases it to its death.
    odds = predicted(("Q16", "D16", "C14", "D13"), ("Q4", "D4"), "D14")
    assert top(odds)[0] == "E14"


def test_a_stone_caught_in_a_ladder_is_not_run_out() -> None:
    # Black D14 in atari (liberty E14); running there gives a ladder white wins: don't.
    odds = predicted(("Q16", "D4", "D14"), ("Q4", "C14", "D15", "E15"), "D13")
    assert odds["E14"] < 0.05
    assert "E14" not in top(odds, 5)


@pytest.fixture
def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a player asked the network for its candidates."""
    calls: list[int] = []
    original = Network.candidates

    def counting(self: Network, *args: object, **kwargs: object) -> object:
        calls.append(1)
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Network, "candidates", counting)
    return calls


def test_every_level_and_the_gtp_engine_play_with_the_shipped_network() -> None:
    shipped = load(NETWORK_WEIGHTS)
    for name in LEVELS:
        assert MctsPlayer.for_level(name, seed=1).network is shipped
    assert mcts_player(PlayerSettings()).network is shipped
    assert mcts_player(PlayerSettings(network=None)).network is None


def test_the_servers_jobs_consult_the_network(counted_reads: list[int]) -> None:
    jobs.warm_up()  # (it plays with the network too)
    counted_reads.clear()
    game = Game.from_moves(["E5", "D4"], size=9, komi=7.5).to_dict()
    jobs._players.clear()
    move = jobs.think({"id": "shipped", "game": game, "level": "easy", "seed": 1})
    assert "move" in move and len(counted_reads) == 1
    analysis = jobs.analyse({"game": game, "seconds": 0.2, "seed": 1})
    assert "move" in analysis and len(counted_reads) == 2
    jobs._players.clear()
