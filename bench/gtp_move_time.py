"""How long Tabletop's GTP engine takes to answer `genmove`, as a controller's clock sees it.

A fresh `tabletop-gtp` process loads the compiled search in the background
(`app.gtp.main.start_warm_up`), so a `genmove` sent at once - as a match does when Tabletop plays
black - waits for it; the engine takes that wait off the move's time. This script starts the
engine `--rounds` times, sends `boardsize`, `clear_board`, `komi` and at once `genmove black`,
and times the answer from this side of the pipe (the first move); in the last process it
then asks `--moves` more genmoves, alternately for white and black (the moves after it).
With `--busy N`, N busy-looping processes share the machine throughout, as the other game
and its opponent do in `bench.gtp_match --parallel 2`. Prints the budget, the first
move's median and range over the rounds, the later moves' median and maximum, and the first
move's median over the budget.

Run: .venv/bin/python -m bench.gtp_move_time --size 19 --time 2 --rounds 5 --busy 2
(about 20 s a round at these settings).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from bench.gtp_client import MIN_REPLY_TIMEOUT, GtpClient


def timed(engine: GtpClient, command: str) -> float:
    """Seconds from sending `command` to the end of its answer."""
    began = time.perf_counter()
    engine.send(command)
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=19, help="board size (default 19)")
    parser.add_argument("--time", type=float, default=2.0, help="seconds per move (default 2)")
    parser.add_argument("--rounds", type=int, default=5, help="fresh processes (default 5)")
    parser.add_argument("--moves", type=int, default=10,
                        help="genmoves after the first, in the last process (default 10)")
    parser.add_argument("--busy", type=int, default=0,
                        help="busy-looping processes sharing the machine (default 0)")
    options = parser.parse_args(argv)
    if not 1 <= options.rounds <= 100 or not 0 <= options.moves <= 400:
        parser.error("--rounds must be 1-100 and --moves 0-400")
    if not 0 <= options.busy <= 8:
        parser.error("--busy must be 0-8")

    command = [sys.executable, "-m", "app.gtp", "--time", f"{options.time:g}"]
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(options.busy)]
    first: list[float] = []
    later: list[float] = []
    try:
        for round_ in range(options.rounds):
            engine = GtpClient("tabletop", command + ["--seed", str(round_ + 1)],
                               MIN_REPLY_TIMEOUT)
            try:
                engine.send(f"boardsize {options.size}")
                engine.send("clear_board")
                engine.send("komi 7.5")
                first.append(timed(engine, "genmove black"))
                if round_ == options.rounds - 1:
                    for number in range(options.moves):
                        color = "white" if number % 2 == 0 else "black"
                        later.append(timed(engine, f"genmove {color}"))
            finally:
                engine.close()
    finally:
        for process in busy:
            process.kill()
            process.wait()

    median = statistics.median(first)
    print(f"{options.size}x{options.size}, --time {options.time:g}, {options.busy} busy "
          f"processes beside it")
    print(f"first genmove of a fresh engine: median {median:.3f} s over {len(first)} rounds "
          f"(range {min(first):.3f}-{max(first):.3f} s) = {median / options.time:.2f} x the "
          f"budget")
    if later:
        print(f"the {len(later)} genmoves after it: median {statistics.median(later):.3f} s, "
              f"max {max(later):.3f} s")


if __name__ == "__main__":
    main()
