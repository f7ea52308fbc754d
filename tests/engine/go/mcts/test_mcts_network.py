"""The learned move predictor's play-time half (`network`): its input planes, its numpy
convolution, its forward pass on a weights file; and the training script's positions
(tools/train_policy.py, whose PyTorch half is an optional extra no test needs)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from app.engine.go import Game
from app.engine.go.mcts import network
from app.engine.go.mcts.player import array_board
from tools import train_policy


def planes_of(game: Game) -> np.ndarray:
    return network.position_planes(array_board(game))


def test_the_planes_describe_the_position_for_the_side_to_move() -> None:
    # Black C3, white D3 C4 B3 (black C3 in atari, one liberty C2), black E5; white to move.
    game = Game.from_moves(["C3", "D3", "E5", "C4", "A1", "B3"], size=5, komi=0.5)
    assert game.to_move == "black"
    game.play("pass")  # white to move: its own stones are plane 0
    planes = planes_of(game)
    at = {name: (5 - int(name[1]), "ABCDE".index(name[0])) for name in
          ("C3", "D3", "E5", "C4", "A1", "B3", "C2", "B1")}
    assert planes[0][at["D3"]] == 1 and planes[0][at["C4"]] == 1 and planes[0][at["B3"]] == 1
    assert planes[1][at["C3"]] == 1 and planes[1][at["E5"]] == 1 and planes[1][at["A1"]] == 1
    assert planes[6][at["C3"]] == 1  # the opponent's stone in atari
    assert planes[8][at["E5"]] == 0 and planes[7][at["E5"]] == 1  # a corner stone: 2 liberties
    assert planes[5][at["D3"]] == 1  # white's D3: 3 liberties or more
    assert planes[2][at["C2"]] == 1 and planes[13][at["C2"]] == 1  # empty and a move
    assert planes[9].sum() == 0  # the last move was a pass
    assert planes[10][at["B3"]] == 1  # the move before it
    assert planes[12].sum() == 25 and planes[13].sum() <= planes[2].sum()
    assert np.all(planes[0] + planes[1] + planes[2] == 1)
    # Today's priors: on the moves only, 0-1, and the capture C2 among the likelier.
    prior = planes[network.PRIOR]
    assert np.all((prior > 0) == (planes[13] == 1)) and prior.max() <= 1
    assert prior[at["C2"]] > np.median(prior[planes[13] == 1])


def test_the_prior_plane_is_the_move_features_probability_on_a_log_scale() -> None:
    game = Game.from_moves(["E5", "D4", "C3"], size=9, komi=7.5)
    b = array_board(game)
    out = np.zeros((81, network.priors.FEATURE_COLUMNS), np.int64)
    points, probabilities = network.prior_probabilities(b, network.make_work(b), out)
    assert abs(probabilities.sum() - 1) < 1e-9 and len(points) == 81 - 3
    plane = network.position_planes(b)[network.PRIOR]
    for point, probability in zip(points, probabilities, strict=True):
        row, column = divmod(int(point), 11)
        value = plane[row - 1, column - 1]
        assert abs(value - max(0.0, 1 + np.log(probability) / network.LOG_FLOOR)) < 1e-6


def test_the_ko_point_is_marked() -> None:
    game = Game.from_moves(["B1", "C1", "A2", "B2", "pass", "A1", "C2", "pass", "B1"],
                           size=5, komi=0.5)  # black B1 takes white A1: white may not retake
    assert game.ko == "A1"
    planes = planes_of(game)
    assert planes[11][4, 0] == 1 and planes[11].sum() == 1
    assert planes[13][4, 0] == 0  # nor is it a move for white


def test_the_convolution_is_a_same_padded_correlation() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 6, 6)).astype(np.float32)
    weight = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    expected = np.empty((4, 6, 6), np.float32)
    for o in range(4):
        for r in range(6):
            for c in range(6):
                expected[o, r, c] = (weight[o] * padded[:, r : r + 3, c : c + 3]).sum() + bias[o]
    assert np.allclose(network._conv(x, weight, bias), expected, atol=1e-4)


def weights_file(path: Path, filters: int = 4, blocks: int = 1, prior: float = 0.0) -> Path:
    """A network whose policy logit is 5 on the moves plane and 0 elsewhere, plus `prior`
    times today's priors' log-probability: the stem copies plane 13 into channel 0, the
    blocks add nothing, the policy head reads channel 0."""
    arrays = {"stem.weight": np.zeros((filters, network.PLANES, 3, 3)),
              "stem.bias": np.zeros(filters)}
    arrays["stem.weight"][0, 13, 1, 1] = 1.0
    for block in range(blocks):
        for half in "ab":
            arrays[f"block{block}.{half}.weight"] = np.zeros((filters, filters, 3, 3))
            arrays[f"block{block}.{half}.bias"] = np.zeros(filters)
    arrays["policy.weight"] = np.zeros((1, filters, 1, 1))
    arrays["policy.weight"][0, 0] = 5.0
    arrays["policy.bias"] = np.zeros(1)
    arrays["pass.weight"] = np.zeros((1, filters))
    arrays["pass.bias"] = np.array([-5.0])
    arrays["ownership.weight"] = np.zeros((1, filters, 1, 1))
    arrays["ownership.weight"][0, 0] = 1.0
    arrays["ownership.bias"] = np.zeros(1)
    arrays["prior.weight"] = np.array([prior])
    np.savez_compressed(path, **{k: v.astype(np.float16) for k, v in arrays.items()})
    return path


def test_a_weights_file_predicts_through_numpy(tmp_path: Path) -> None:
    net = network.Network(weights_file(tmp_path / "net.npz"))
    assert net.blocks == 1
    game = Game.from_moves(["E5", "D4"], size=9, komi=7.5)
    prediction = net.predict(array_board(game))
    policy = prediction.policy
    assert policy.shape == (82,) and abs(policy.sum() - 1) < 1e-9
    moves = planes_of(game)[13].reshape(-1) == 1
    assert np.allclose(policy[:81][moves], policy[:81][moves][0])  # alike: the same logit
    assert policy[:81][~moves].max() < policy[:81][moves].min() / 100  # e^5 apart
    assert policy[81] < policy[:81][moves].min()  # the pass: logit -5
    assert np.all(np.abs(prediction.ownership) <= 1)


def test_the_prior_weight_adds_todays_priors_to_the_logits(tmp_path: Path) -> None:
    game = Game.from_moves(["E5", "D4"], size=9, komi=7.5)
    b = array_board(game)
    plain = network.Network(weights_file(tmp_path / "a.npz")).predict(b).policy
    blended = network.Network(weights_file(tmp_path / "b.npz", prior=1.0)).predict(b).policy
    out = np.zeros((81, network.priors.FEATURE_COLUMNS), np.int64)
    points, probabilities = network.prior_probabilities(b, network.make_work(b), out)
    rows = [(int(p) // 11 - 1) * 9 + int(p) % 11 - 1 for p in points]
    # With weight 1 the moves' logits are 5 + log p: their odds are the priors' own (to
    # float16's and the floor's precision), where weight 0 gave every move the same.
    ratio = blended[rows] / probabilities
    assert np.allclose(ratio, ratio[0], rtol=2e-3)
    assert np.allclose(plain[rows], plain[rows][0])


def random_weights(path: Path, filters: int = 4, blocks: int = 1) -> Path:
    """A network with every weight random: no symmetry of the board is built in."""
    rng = np.random.default_rng(7)
    arrays = {"stem.weight": rng.normal(0, 0.3, (filters, network.PLANES, 3, 3)),
              "stem.bias": rng.normal(0, 0.1, filters),
              "policy.weight": rng.normal(0, 1, (1, filters, 1, 1)),
              "policy.bias": np.zeros(1), "pass.weight": rng.normal(0, 1, (1, filters)),
              "pass.bias": np.zeros(1), "ownership.weight": rng.normal(0, 1, (1, filters, 1, 1)),
              "ownership.bias": np.zeros(1), "prior.weight": np.array([0.5])}
    for block in range(blocks):
        for half in "ab":
            arrays[f"block{block}.{half}.weight"] = rng.normal(0, 0.3, (filters, filters, 3, 3))
            arrays[f"block{block}.{half}.bias"] = rng.normal(0, 0.1, filters)
    np.savez_compressed(path, **{k: v.astype(np.float16) for k, v in arrays.items()})
    return path


def test_the_average_over_the_eight_symmetries_turns_with_the_board(tmp_path: Path) -> None:
    net = network.Network(random_weights(tmp_path / "net.npz"))
    planes = planes_of(Game.from_moves(["C3", "D7", "G6", "F3", "C5"], size=9, komi=7.5))
    alone, averaged = net.forward(planes), net.forward(planes, network.SYMMETRIES)
    assert averaged.policy.shape == (82,) and abs(averaged.policy.sum() - 1) < 1e-9
    assert np.array_equal(net.forward(planes, 1).policy, alone.policy)
    lopsided = False
    for k in range(network.SYMMETRIES):
        seen = np.ascontiguousarray(network.turned(planes, k))
        assert np.array_equal(network.turned_back(network.turned(planes[0], k), k), planes[0])
        # Turning the board turns the averaged prediction with it, pass and ownership too.
        turned = net.forward(seen, network.SYMMETRIES)
        board = network.turned(averaged.policy[:81].reshape(9, 9), k).reshape(-1)
        assert np.allclose(turned.policy[:81], board, atol=1e-6)
        assert abs(turned.policy[81] - averaged.policy[81]) < 1e-6
        owners = network.turned(averaged.ownership.reshape(9, 9), k).reshape(-1)
        assert np.allclose(turned.ownership, owners, atol=1e-6)
        # One turn alone does not: the random weights know no symmetry.
        one = net.forward(seen).policy[:81]
        lopsided |= not np.allclose(
            one, network.turned(alone.policy[:81].reshape(9, 9), k).reshape(-1), atol=1e-3)
    assert lopsided
    with pytest.raises(ValueError, match="symmetries must be 1-8"):
        net.forward(planes, 9)


def test_the_training_reads_positions_and_todays_priors(tmp_path: Path) -> None:
    games = [{"number": n, "size": 9, "komi": 7.5, "result": "B+R",
              "moves": ["E5", "D4", "C3", "pass"], "ownership": "X" * 40 + "O" * 41}
             for n in (0, 9)]  # game 9 is held out
    corpus = tmp_path / "games.json"
    corpus.write_text(json.dumps({"generator": "test", "games": games}))
    train, test = train_policy.read([corpus], 9)
    assert len(train.moves) == len(test.moves) == 4
    assert train.moves[0] == 4 * 9 + 4 and train.moves[3] == 81  # E5, then the pass
    # Black to move first: black's area +1; white (second) sees it as -1.
    assert train.owners[0][0] == 1 and train.owners[0][80] == -1
    assert train.owners[1][0] == -1 and train.owners[1][80] == 1
    assert train.has_owner == [1.0] * 4 and not train.mm
    assert train.planes[0][network.PRIOR].max() > 0  # today's priors are an input
    assert len(test.mm) == 4 and all(abs(p.sum() - 1) < 1e-9 for p in test.mm)
    assert 4 * 9 + 4 in test.candidates[0] and len(test.candidates[0]) == 81


def test_a_weights_file_is_judged_against_todays_priors_without_training(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--evaluate: the held-out comparison, with no PyTorch. A network whose odds are the
    priors' own (prior weight 1, every move's logit otherwise alike) scores as they do."""
    moves = ["E5", "D4", "C3", "F6", "E3", "D3", "pass"]
    games = [{"number": n, "size": 9, "komi": 7.5, "result": "B+R", "moves": moves}
             for n in (0, 9, 19)]  # games 9 and 19 are held out
    corpus = tmp_path / "games.json"
    corpus.write_text(json.dumps({"generator": "test", "games": games}))
    weights = weights_file(tmp_path / "net.npz", prior=1.0)
    assert train_policy.main(["--size", "9", "--games", str(corpus), "--evaluate",
                              str(weights), "--symmetries", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "over 1 turn:" in lines[0] and "over 4 turns:" in lines[1]
    for line in lines:
        assert "(12 positions)" in line  # the pass is no candidate: 6 moves of 2 games
        net, mm = line.split("top-1 ")[1].split("; today's priors ")
        assert net.split(",")[0] == mm.split(",")[0]  # the same first choices
        assert abs(float(net.split("log-likelihood ")[1]) - float(mm.split(", ")[1])) < 0.01
    with pytest.raises(SystemExit):
        train_policy.main(["--size", "9", "--evaluate", str(tmp_path / "none.npz")])
    assert "no weights file at" in capsys.readouterr().err


def test_training_refuses_bounds_with_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        train_policy.main(["--size", "9", "--blocks", "0"])
    assert "--blocks must be 1-20" in capsys.readouterr().err
