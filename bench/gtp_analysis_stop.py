"""How soon Tabletop's live analysis stops when the controller sends its next command.

Sabaki stops `kata-analyze` with `protocol_version`, Lizzie with `name`: the analysis reply must
end (its empty line) and the command be answered at once, or the GUI hangs on every click. This
script starts one `tabletop-gtp`, plays a move on a `--size` board, and `--rounds` times sends
`kata-analyze W <interval> ownership true`, waits for `--lines` lines of it, sends `name` and
times the reply's end and `name`'s answer from this side of the pipe. In the same run it times
`name` alone, with nothing streaming, as the floor: the pipe's own round trip. With `--busy N`,
N busy-looping processes share the machine. Prints medians and the 5th-95th percentile range
(min-max below 20 rounds), and the lines' median spacing against the interval asked.

Run: .venv/bin/python -m bench.gtp_analysis_stop --size 19 --rounds 40 --busy 1
(about 20 s).
"""

from __future__ import annotations

import argparse
import queue
import statistics
import subprocess
import sys
import threading
import time

from bench.gtp_match import ROOT

TIMEOUT = 120.0  # seconds to wait for any one line; the first may wait for the compiler


class Engine:
    """tabletop-gtp on pipes, its stdout lines timestamped as they arrive."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1, cwd=ROOT)
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))

    def send(self, command: str) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return time.perf_counter()

    def next_line(self) -> tuple[float, str]:
        return self.lines.get(timeout=TIMEOUT)

    def reply(self) -> list[tuple[float, str]]:
        """The lines of one reply, its empty line last."""
        lines = [self.next_line()]
        while lines[-1][1] != "":
            lines.append(self.next_line())
        return lines

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=30)


def spread(samples: list[float]) -> str:
    if len(samples) >= 20:
        cuts = statistics.quantiles(samples, n=20)
        low, high = cuts[0], cuts[-1]
    else:
        low, high = min(samples), max(samples)
    return (f"median {1000 * statistics.median(samples):.1f} ms "
            f"(5-95 %: {1000 * low:.1f}-{1000 * high:.1f} ms, {len(samples)} samples)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=19, help="board size (default 19)")
    parser.add_argument("--rounds", type=int, default=40, help="analyses stopped (default 40)")
    parser.add_argument("--lines", type=int, default=2,
                        help="analysis lines to wait for before stopping (default 2)")
    parser.add_argument("--interval", type=int, default=5,
                        help="centiseconds between analysis lines (default 5)")
    parser.add_argument("--busy", type=int, default=0,
                        help="busy-looping processes sharing the machine (default 0)")
    options = parser.parse_args(argv)
    if not 1 <= options.rounds <= 1000 or not 1 <= options.lines <= 100:
        parser.error("--rounds must be 1-1000 and --lines 1-100")
    if not 1 <= options.interval <= 1000 or not 0 <= options.busy <= 8:
        parser.error("--interval must be 1-1000 and --busy 0-8")

    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(options.busy)]
    engine = Engine([sys.executable, "-m", "app.gtp", "--time", "1"])
    stops: list[float] = []
    answers: list[float] = []
    floor: list[float] = []
    gaps: list[float] = []
    try:
        for command in (f"boardsize {options.size}", "clear_board", "play b D4"):
            engine.send(command)
            engine.reply()
        for _ in range(options.rounds):
            sent = engine.send("name")
            floor.append(engine.reply()[-1][0] - sent)
            engine.send(f"kata-analyze W {options.interval} ownership true")
            assert engine.next_line()[1] == "="
            arrivals = [engine.next_line()[0] for _ in range(options.lines)]
            gaps.extend(b - a for a, b in zip(arrivals, arrivals[1:], strict=False))
            sent = engine.send("name")
            at, text = engine.next_line()
            while text != "":
                at, text = engine.next_line()
            stops.append(at - sent)
            answer = engine.reply()
            assert answer[0][1] == "= Tabletop", answer
            answers.append(answer[-1][0] - sent)
    finally:
        engine.close()
        for process in busy:
            process.kill()
    print(f"kata-analyze on {options.size}x{options.size}, lines every "
          f"{options.interval / 100:g} s, {options.busy} busy processes beside it")
    print(f"  analysis reply ended after the next command: {spread(stops)}")
    print(f"  that command answered:                        {spread(answers)}")
    print(f"  name with nothing streaming (the floor):      {spread(floor)}")
    if gaps:
        print(f"  lines' spacing: median {1000 * statistics.median(gaps):.1f} ms for "
              f"{10 * options.interval} ms asked")


if __name__ == "__main__":
    main()
