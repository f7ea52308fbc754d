"""What the bench scripts that speak GTP share: setting up a game on an engine's board."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def replay(send: Callable[[str], str], moves: Sequence[str], size: int, komi: float) -> None:
    """Put the game on a GTP engine's board through `send` (one command, one answer): the
    size, an empty board, the komi, then `moves` alternately from black."""
    send(f"boardsize {size}")
    send("clear_board")
    send(f"komi {komi:g}")
    color = "black"
    for move in moves:
        send(f"play {color} {move}")
        color = "white" if color == "black" else "black"
