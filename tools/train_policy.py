"""Train the Go player's move predictor (`app.engine.go.mcts.network`) on Pachi's self-play
games, compare it with today's priors on the same held-out positions, and export its weights.

The positions are those of the corpus files (tools/go_corpus.py; the default is every
tests/data/go/pachi_games_<size>.json and learning_<size>.json of the sizes asked for); games
numbered 9 mod 10 are held out, as tools/train_patterns.py holds them out of the trained move
features, so both models are judged on games neither saw. The targets: the move Pachi played
(a point or the pass) and, where the game records it, each point's final owner for the side to
move. Each batch is turned by one of the board's 8 symmetries. The network is a small
residual CNN (`--blocks` x `--filters`) that learns a correction to today's priors (their
log-probabilities are an input plane and, times a learnt weight, part of every logit: see
network.py), trained with AdamW for `--epochs`, seeded.

The comparison, per board size, over the held-out positions whose played move is one of the
priors' candidates (legal, filling no own eye): the share where each model's first choice is
the move played, and the mean log-likelihood of the move played, the network's probabilities
renormalised over the same candidates - against today's move features alone (Coulom's MM
gammas, `network.prior_probabilities`). Each epoch reports it for the PyTorch model on one
turn of the board; the written weights are then judged as play reads them (numpy, half
precision), their prediction averaged over `--symmetries` turns (`Network.forward`).

Run (PyTorch is an optional extra, never needed to play; pip finds its CPU build here):
    python3 -m venv .venv-learn && .venv-learn/bin/pip install -e '.[learn]'
    .venv-learn/bin/python -m tools.train_policy --size 9 19 --epochs 10 --filters 64 \\
        --out app/engine/go/mcts/policy.npz
(`--size 9 19` trains one network on both sizes' positions, each batch of one size, and
reports the held-out comparison for each.) A weights file is judged again, without PyTorch
and without training, by `python -m tools.train_policy --size 9 19 --evaluate WEIGHTS`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.engine.go.coords import PASS
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import priors
from app.engine.go.mcts.fastboard import padded_point
from app.engine.go.mcts.network import (
    LOG_FLOOR,
    PLANES,
    PRIOR,
    SYMMETRIES,
    Network,
    input_planes,
    prior_plane,
    prior_probabilities,
)
from app.engine.go.mcts.scratch import make_work

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "go"
HELD_OUT = 9  # games whose number is this mod 10 are kept out of the training
OWNERS = {"X": 1, "O": 2}


@dataclass
class Positions:
    """One board size's positions: input planes, the move played (row-major point, or n*n
    for a pass), the ownership target for the side to move (+1, -1, 0; `has_owner` 0 where
    the game records none) and, for held-out positions, today's priors' probabilities."""

    size: int
    planes: list[npt.NDArray[np.float32]] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    owners: list[npt.NDArray[np.float32]] = field(default_factory=list)
    has_owner: list[float] = field(default_factory=list)
    candidates: list[npt.NDArray[np.int64]] = field(default_factory=list)  # row-major points
    mm: list[npt.NDArray[np.float64]] = field(default_factory=list)  # their probabilities


def unpadded(point: int, size: int) -> int:
    """The row-major index of a padded point."""
    w = size + 2
    return (point // w - 1) * size + point % w - 1


def read(paths: list[Path], size: int, held_out_only: bool = False
         ) -> tuple[Positions, Positions]:
    """(training positions, held-out positions) of the games of `size` in `paths` (the
    training ones left empty if `held_out_only`)."""
    train, test = Positions(size), Positions(size)
    out = np.zeros((size * size, priors.FEATURE_COLUMNS), np.int64)
    for path in paths:
        for game in json.loads(path.read_text())["games"]:
            held_out = game["number"] % 10 == HELD_OUT
            if game["size"] != size or (held_out_only and not held_out):
                continue
            into = test if held_out else train
            board = fb.new_board(size)
            work = make_work(board)
            final = game.get("ownership")
            for move in game["moves"]:
                point = padded_point(move, size)
                color = int(board[fb.META, fb.M_TOMOVE])
                planes = np.zeros((PLANES, size, size), np.float32)
                input_planes(board, planes)
                points, probabilities = prior_probabilities(board, work, out)
                prior_plane(planes[PRIOR], size, points, probabilities)
                target = size * size if point == PASS else unpadded(point, size)
                owner = np.zeros(size * size, np.float32)
                if final:
                    marks = np.array([OWNERS.get(c, 0) for c in final])
                    owner[marks == color] = 1.0
                    owner[(marks != color) & (marks != 0)] = -1.0
                if into is test:
                    into.candidates.append(np.array([unpadded(p, size) for p in points]))
                    into.mm.append(probabilities)
                into.planes.append(planes)
                into.moves.append(target)
                into.owners.append(owner)
                into.has_owner.append(1.0 if final else 0.0)
                if point == PASS:
                    fb.pass_move(board)
                else:
                    fb.play(board, point, color)
    return train, test


def build(blocks: int, filters: int) -> Any:
    """The PyTorch twin of `network.Network`."""
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
            self.a_norm = nn.BatchNorm2d(filters)
            self.b = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
            self.b_norm = nn.BatchNorm2d(filters)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = torch.relu(self.a_norm(self.a(x)))
            return torch.relu(x + self.b_norm(self.b(y)))

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Conv2d(PLANES, filters, 3, padding=1, bias=False)
            self.stem_norm = nn.BatchNorm2d(filters)
            self.blocks = nn.ModuleList(Block() for _ in range(blocks))
            self.policy = nn.Conv2d(filters, 1, 1)
            self.pass_ = nn.Linear(filters, 1)
            self.ownership = nn.Conv2d(filters, 1, 1)
            # How much of today's priors' log-probability each logit starts from (network.py).
            self.prior = nn.Parameter(torch.ones(1))

        def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            x = torch.relu(self.stem_norm(self.stem(planes)))
            for block in self.blocks:
                x = block(x)
            prior = (planes[:, PRIOR].flatten(1) - 1.0) * LOG_FLOOR
            logits = self.policy(x).flatten(1) + self.prior * prior
            pass_logit = self.pass_(x.mean(dim=(2, 3)))
            return torch.cat([logits, pass_logit], 1), torch.tanh(self.ownership(x).flatten(1))

    return Net()


def symmetry(k: int, planes: Any, moves: Any, owners: Any, size: int) -> tuple[Any, Any, Any]:
    """The batch turned by symmetry k (0-7: k % 4 quarter turns, then a transpose if k >= 4),
    the move indices mapped with it (a pass stays a pass)."""
    import torch

    def turn(x: torch.Tensor) -> torch.Tensor:
        x = torch.rot90(x, k % 4, dims=(-2, -1))
        return x.transpose(-2, -1) if k >= 4 else x

    index = turn(torch.arange(size * size).reshape(size, size)).reshape(-1)
    where = torch.empty(size * size + 1, dtype=torch.long)
    where[index] = torch.arange(size * size)  # where each old point lands
    where[size * size] = size * size
    shape = owners.shape
    return turn(planes), where[moves], turn(owners.reshape(-1, size, size)).reshape(shape)


def export(model: Any, path: Path) -> None:
    """Fold each batch norm into its convolution and save the arrays `Network` reads."""
    import torch

    def folded(conv: Any, norm: Any) -> tuple[np.ndarray, np.ndarray]:
        scale = norm.weight / torch.sqrt(norm.running_var + norm.eps)
        weight = conv.weight * scale[:, None, None, None]
        bias = norm.bias - norm.running_mean * scale
        return weight.detach().numpy(), bias.detach().numpy()

    arrays: dict[str, np.ndarray] = {}
    arrays["stem.weight"], arrays["stem.bias"] = folded(model.stem, model.stem_norm)
    for i, block in enumerate(model.blocks):
        arrays[f"block{i}.a.weight"], arrays[f"block{i}.a.bias"] = folded(block.a, block.a_norm)
        arrays[f"block{i}.b.weight"], arrays[f"block{i}.b.bias"] = folded(block.b, block.b_norm)
    for name, module in (("policy", model.policy), ("pass", model.pass_),
                         ("ownership", model.ownership)):
        arrays[f"{name}.weight"] = module.weight.detach().numpy()
        arrays[f"{name}.bias"] = module.bias.detach().numpy()
    arrays["prior.weight"] = model.prior.detach().numpy()
    # Half precision halves the file; the predictions move by well under a thousandth.
    arrays = {name: value.astype(np.float16) for name, value in arrays.items()}
    np.savez_compressed(path, **arrays)


def judged(test: Positions, policy_of: Callable[[int], npt.NDArray[Any]]) -> dict[str, float]:
    """Top-1 and mean log-likelihood of a model and of today's priors on the held-out
    positions whose move is a candidate; `policy_of(i)` is the model's probability of each
    point (row-major) and, last, the pass in position i, renormalised here over the same
    candidates as the priors'."""
    net_top = net_ll = mm_top = mm_ll = 0.0
    counted = 0
    for i, move in enumerate(test.moves):
        hit = np.flatnonzero(test.candidates[i] == move)
        if not hit.size:
            continue
        counted += 1
        probabilities = np.asarray(policy_of(i), np.float64)[test.candidates[i]]
        probabilities = probabilities / probabilities.sum()
        net_top += float(np.argmax(probabilities) == hit[0])
        net_ll += math.log(max(probabilities[hit[0]], 1e-300))
        mm_top += float(np.argmax(test.mm[i]) == hit[0])
        mm_ll += math.log(test.mm[i][hit[0]])
    return {"positions": counted, "net_top1": net_top / counted, "net_ll": net_ll / counted,
            "mm_top1": mm_top / counted, "mm_ll": mm_ll / counted}


def evaluate(model: Any, test: Positions) -> dict[str, float]:
    """`judged` for the PyTorch model being trained (one turn of the board), and its
    ownership error where the final owners are known."""
    import torch

    model.eval()
    with torch.no_grad():
        logits, owners = model(torch.from_numpy(np.stack(test.planes)))
        policies = torch.softmax(logits.double(), 1).numpy()
    scores = judged(test, lambda i: policies[i])
    known = np.array(test.has_owner, bool)
    error = float("nan")
    if known.any():
        target = torch.from_numpy(np.stack(test.owners))[known]
        error = float(((owners[known] - target) ** 2).mean())
    return {**scores, "owner_mse": error}


def report(network: Network, test: Positions, symmetries: int) -> str:
    """The held-out comparison of a weights file as play reads it (numpy, half-precision
    weights), its prediction averaged over `symmetries` turns of the board."""
    scores = judged(test, lambda i: network.forward(test.planes[i], symmetries).policy)
    return (f"{test.size}x{test.size} held out ({scores['positions']} positions), the weights "
            f"averaged over {symmetries} turn{'s' if symmetries > 1 else ''}: top-1 "
            f"{scores['net_top1']:.1%}, log-likelihood {scores['net_ll']:.3f}; today's "
            f"priors {scores['mm_top1']:.1%}, {scores['mm_ll']:.3f}")


def corpus(size: int) -> list[Path]:
    """The default corpus files of a board size."""
    return sorted([*DATA.glob(f"pachi_games_{size}.json"), *DATA.glob(f"learning_{size}.json")])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, nargs="+", default=[9], choices=(9, 13, 19),
                        help="board sizes to train on together (the net is fully convolutional)")
    parser.add_argument("--games", type=Path, nargs="*", help="corpus files (default: above)")
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--filters", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, help="the weights file to write (.npz)")
    parser.add_argument("--symmetries", type=int, default=SYMMETRIES,
                        help="turns of the board the written weights' final comparison "
                             f"averages over (1-{SYMMETRIES})")
    parser.add_argument("--evaluate", type=Path, metavar="WEIGHTS",
                        help="train nothing: compare this weights file with today's priors "
                             "on the held-out games, over one turn and over --symmetries")
    args = parser.parse_args(argv)
    if not (1 <= args.blocks <= 20 and 8 <= args.filters <= 256 and 1 <= args.epochs <= 200):
        parser.error("--blocks must be 1-20, --filters 8-256 and --epochs 1-200")
    if not 1 <= args.symmetries <= SYMMETRIES:
        parser.error(f"--symmetries must be 1-{SYMMETRIES}")
    if args.evaluate:
        if not args.evaluate.is_file():
            parser.error(f"no weights file at {args.evaluate}")
        network = Network(args.evaluate)
        for size in sorted(set(args.size)):
            _, test = read(args.games or corpus(size), size, held_out_only=True)
            if not test.moves:
                parser.error(f"no held-out {size}x{size} games in those files")
            for symmetries in sorted({1, args.symmetries}):
                print(report(network, test, symmetries), flush=True)
        return 0
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    sizes = sorted(set(args.size))
    began = time.perf_counter()
    data = []  # per size: (size, planes, moves, owners, has_owner, held-out positions)
    for size in sizes:
        paths = args.games or corpus(size)
        train, test = read(paths, size)
        print(f"{size}x{size}: {len(train.moves)} training positions, {len(test.moves)} held "
              f"out, from {', '.join(p.name for p in paths)} ({time.perf_counter() - began:.0f}"
              " s)", flush=True)
        if not train.moves or not test.moves:
            parser.error(f"no {size}x{size} games to train on or to hold out in those files")
        data.append((size, torch.from_numpy(np.stack(train.planes)), torch.tensor(train.moves),
                     torch.from_numpy(np.stack(train.owners)), torch.tensor(train.has_owner),
                     test))
    model = build(args.blocks, args.filters)
    # Every batch holds positions of one size; each epoch runs all of them in a random order.
    batches = [(k, start) for k, entry in enumerate(data)
               for start in range(0, len(entry[2]), args.batch)]
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=2e-3,
                                                   total_steps=args.epochs * len(batches))
    for epoch in range(args.epochs):
        model.train()
        orders = [torch.from_numpy(rng.permutation(len(entry[2]))) for entry in data]
        total = 0.0
        for k, start in (batches[i] for i in rng.permutation(len(batches))):
            size, planes, moves, owners, has_owner, _ = data[k]
            batch = orders[k][start : start + args.batch]
            x, y, z = symmetry(int(rng.integers(8)), planes[batch], moves[batch], owners[batch],
                               size)
            logits, predicted = model(x)
            loss = torch.nn.functional.cross_entropy(logits, y)
            weight = has_owner[batch][:, None]
            loss = loss + 0.5 * ((predicted - z) ** 2 * weight).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total += float(loss.detach()) * len(batch)
        count = sum(len(entry[2]) for entry in data)
        for size, *_, test in data:
            scores = evaluate(model, test)
            error = ("none known" if math.isnan(scores["owner_mse"])
                     else f"{scores['owner_mse']:.3f}")
            print(f"epoch {epoch + 1}: loss {total / count:.3f}; {size}x{size} held out "
                  f"({scores['positions']} positions): network top-1 {scores['net_top1']:.1%}, "
                  f"log-likelihood {scores['net_ll']:.3f}; today's priors "
                  f"{scores['mm_top1']:.1%}, {scores['mm_ll']:.3f}; ownership MSE {error} "
                  f"({time.perf_counter() - began:.0f} s)", flush=True)
    if args.out:
        export(model, args.out)
        check = Network(args.out)
        model.eval()
        test = data[-1][5]
        with torch.no_grad():
            reference = torch.softmax(model(torch.from_numpy(test.planes[0][None]))[0], 1)[0]
        gap = float(np.abs(check.forward(test.planes[0]).policy - reference.numpy()).max())
        print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes); numpy against PyTorch "
              f"on a held-out {data[-1][0]}x{data[-1][0]} position: largest probability "
              f"difference {gap:.4f}", flush=True)
        for *_, test in data:
            print(report(check, test, args.symmetries), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
