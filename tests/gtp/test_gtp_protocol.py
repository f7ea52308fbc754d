"""The GTP protocol's command table: `list_commands` and `known_command` read it, and each
command's arity is checked before its handler runs - a wrong number of arguments is refused
with "syntax error" and leaves the engine as it was.

Start with `test_a_wrong_number_of_arguments_never_reaches_the_handler` (the protocol alone),
then `test_every_go_command_refuses_too_few_and_too_many_arguments` (the whole engine).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.gtp.main import GtpEngine
from app.gtp.protocol import Arity, Command, GtpProtocol
from app.gtp.session import PlayerSettings

# Arguments each command accepts, from which too few and too many are made; a command added to
# the table must be added here (see `test_every_fixed_arity_command_has_arguments_here`).
GOOD_ARGS: dict[str, list[str]] = {
    "boardsize": ["9"],
    "clear_board": [],
    "komi": ["6.5"],
    "fixed_handicap": ["2"],
    "place_free_handicap": ["2"],
    "loadsgf": ["game.sgf", "3"],
    "play": ["b", "D4"],
    "genmove": ["w"],
    "reg_genmove": ["w"],
    "undo": [],
    "time_settings": ["60", "5", "1"],
    "time_left": ["w", "30", "0"],
    "final_score": [],
    "final_status_list": ["dead"],
    "showboard": [],
    "protocol_version": [],
    "name": [],
    "version": [],
    "known_command": ["play"],
    "list_commands": [],
    "gogui-analyze_commands": [],
    "tabletop-ownership": [],
    "tabletop-pv": [],
    "tabletop-move_values": [],
    "tabletop-winrate": [],
}
# Any count: quit always ends, the others check their arguments themselves.
UNBOUNDED = {"quit", "set_free_handicap", "lz-analyze", "kata-analyze", "lz-genmove_analyze",
             "kata-genmove_analyze"}


def no_player(settings: PlayerSettings) -> object:
    raise AssertionError("a refused command must not think")


def engine_in_play() -> GtpEngine:
    engine = GtpEngine(player_factory=no_player)  # type: ignore[arg-type]
    for line in ("boardsize 9", "komi 5.5", "play b C3", "play w E5", "time_settings 60 5 1"):
        assert engine.handle(line) == "=\n\n", line
    return engine


def test_list_commands_is_the_table() -> None:
    engine = GtpEngine()
    listed = engine.handle("list_commands")
    assert listed is not None and listed.startswith("= ")
    assert listed[2:-2].split("\n") == sorted(engine.commands)
    assert set(engine.commands) == set(GOOD_ARGS) | UNBOUNDED
    for name in engine.commands:
        assert engine.handle(f"known_command {name}") == "= true\n\n", name
    assert engine.handle("known_command frobnicate") == "= false\n\n"
    # A command put in the table is known and listed at once.
    engine.commands["frobnicate"] = Command(lambda args: "done")
    assert engine.handle("known_command frobnicate") == "= true\n\n"
    assert engine.handle("frobnicate") == "= done\n\n"
    listed = engine.handle("list_commands")
    assert listed is not None and "\nfrobnicate\n" in listed


@pytest.mark.parametrize(
    ("arity", "accepted", "refused"),
    [
        (0, [0], [1, 2]),
        (2, [2], [0, 1, 3]),
        ((1, 2), [1, 2], [0, 3, 4]),
        ((0, None), [0, 1, 40], []),
        ((2, None), [2, 3, 40], [0, 1]),
    ],
)
def test_a_wrong_number_of_arguments_never_reaches_the_handler(
    arity: Arity, accepted: list[int], refused: list[int]
) -> None:
    calls: list[list[str]] = []

    def handler(args: list[str]) -> str:
        calls.append(args)
        return "ok"

    protocol = GtpProtocol("Test", "1", {"cmd": Command(handler, arity)})
    for count in refused:
        words = " ".join(["x"] * count)
        assert protocol.handle(f"7 cmd {words}") == "?7 syntax error\n\n", count
    assert calls == []
    for count in accepted:
        assert protocol.handle("cmd" + " x" * count) == "= ok\n\n", count
    assert calls == [["x"] * count for count in accepted]


def test_every_fixed_arity_command_has_arguments_here() -> None:
    for name, command in GtpEngine().commands.items():
        if name in UNBOUNDED:
            assert command.arity == (0, None), name
        else:
            assert command.takes(len(GOOD_ARGS[name])), name


@pytest.mark.parametrize("name", sorted(GOOD_ARGS))
def test_every_go_command_refuses_too_few_and_too_many_arguments(name: str) -> None:
    """The real handlers behind the table: refused, the position (board, moves, komi, captures,
    history) is what it was; the protocol test above shows the handler is never called."""
    engine = engine_in_play()
    before = (engine.handle("showboard"), engine.game.to_dict())
    good = GOOD_ARGS[name]
    wrong = [good + ["9"]] if name != "loadsgf" else [good + ["9"], []]
    if good and name != "loadsgf":
        wrong.append(good[:-1])
    for args in wrong:
        line = " ".join([name, *args])
        assert engine.handle(f"5 {line}") == "?5 syntax error\n\n", line
        assert (engine.handle("showboard"), engine.game.to_dict()) == before, line


def test_count_kept_needs_a_playout_budget() -> None:
    from app.gtp.main import build_parser, settings_from_args

    parser = build_parser()
    settings = settings_from_args(parser.parse_args(["--playouts", "500", "--count-kept"]))
    assert settings.playouts == 500 and settings.count_kept
    assert not settings_from_args(parser.parse_args(["--playouts", "500"])).count_kept
    with pytest.raises(ValueError, match="--count-kept needs a playout budget"):
        settings_from_args(parser.parse_args(["--time", "1", "--count-kept"]))


def test_the_network_option_needs_a_weights_file_and_bounded_symmetries(tmp_path: Path) -> None:
    import numpy as np

    from app.engine.go.levels import NETWORK_WEIGHTS
    from app.engine.go.mcts.network import PLANES
    from app.gtp.main import build_parser, settings_from_args
    from app.gtp.session import mcts_player

    parser = build_parser()
    weights = tmp_path / "net.npz"  # a network of no blocks: the loader reads any shape
    np.savez(weights, **{"stem.weight": np.zeros((2, PLANES, 3, 3)), "stem.bias": np.zeros(2)})
    settings = settings_from_args(parser.parse_args(["--network", str(weights)]))
    assert settings.network == str(weights) and settings.symmetries == 8
    player = mcts_player(settings)
    assert player.network is not None and player.symmetries == 8
    # By default the shipped predictor; --no-network plays without one; not both.
    assert settings_from_args(parser.parse_args([])).network == str(NETWORK_WEIGHTS)
    assert mcts_player(settings_from_args(parser.parse_args(["--no-network"]))).network is None
    with pytest.raises(SystemExit):
        parser.parse_args(["--no-network", "--network", str(weights)])
    inner = settings_from_args(parser.parse_args(["--network", str(weights),
                                                  "--inner-visits", "300"]))
    assert mcts_player(inner).inner_visits == 300 and player.inner_visits is None
    assert settings_from_args(parser.parse_args(["--inner-visits", "300"])).inner_visits == 300
    for refused in (["--network", str(weights), "--inner-visits", "0"],
                    ["--no-network", "--inner-visits", "300"]):
        with pytest.raises(ValueError, match="--inner-visits must be at least 1, and needs"):
            settings_from_args(parser.parse_args(refused))
    with pytest.raises(ValueError, match="--network: no weights file at"):
        settings_from_args(parser.parse_args(["--network", str(tmp_path / "none.npz")]))
    with pytest.raises(ValueError, match="--symmetries must be 1-8"):
        settings_from_args(parser.parse_args(["--symmetries", "9"]))


def test_the_engine_pins_blas_to_one_thread_before_numpy_loads() -> None:
    """A --network's matrix products stay on the player's one thread: main sets
    OPENBLAS_NUM_THREADS, which only counts if numpy is not loaded yet when it does."""
    import os
    import subprocess
    import sys

    script = ("import os, sys\n"
              "from app.gtp.main import main\n"
              "assert 'numpy' not in sys.modules, 'numpy loaded before main could pin BLAS'\n"
              "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
              "print(os.environ.get('OPENBLAS_NUM_THREADS'))\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=60, check=True)
    assert done.stdout.splitlines()[-1] == "1", done.stderr
