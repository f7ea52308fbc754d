"""The Go Text Protocol (GTP v2) without the game: command lines in, a command table, replies.

Start with `GtpProtocol.respond`: it takes one command line and writes its response
("=12 D4\\n\\n", "? illegal move\\n\\n"), or nothing for a line GTP ignores (an empty one, a
comment); `handle` returns the response as one text. Between the two it looks the command up
in its table of `Command`s - a handler and how many arguments it takes - and refuses a wrong
number of arguments before the handler runs, so a handler only ever sees as many as it asked
for. The administrative commands (`name`, `version`, `protocol_version`, `known_command`,
`list_commands`, `quit`) are the protocol's own; a session (`app.gtp.session`) brings the rest.
The argument readers (`parse_color`, `parse_int`, ...) turn GTP's argument types into values
or a "syntax error".

A handler answers with text, or with a `Stream`: a reply that goes on line by line after its
"=" line (the analysis commands of Leela Zero and KataGo, `app.gtp.analysis`) until it is done
or the controller sends its next command - `GtpProtocol.respond` writes it as it comes. `serve`
runs the protocol over a pair of streams, reading commands on a thread of their own so that a
command that arrives while a stream is running can interrupt it.
"""

from __future__ import annotations

import io
import math
import os
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO

from app.engine.go import Color

PROTOCOL_VERSION = "2"  # GTP version 2 (draft 2), the one every controller speaks
SYNTAX_ERROR = "syntax error"  # the spec's reply to arguments a command cannot read

COLORS: dict[str, Color] = {"b": "black", "black": "black", "w": "white", "white": "white"}

Write = Callable[[str], None]
Interrupted = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class Stream:
    """A reply that goes on after its "=" line: `run(write, interrupted)` writes its lines one
    call of `write` each (no newline; an empty line would end the reply, so it is never sent)
    and returns when it is done or soon after `interrupted()` turns true - the controller has
    sent its next command. The protocol ends the reply with GTP's empty line."""

    run: Callable[[Write, Interrupted], None]


Handler = Callable[[list[str]], "str | Stream"]
Arity = int | tuple[int, int | None]


class GtpFailure(Exception):
    """A command that fails: its message is the text after "? " in the reply."""


def syntax_error() -> GtpFailure:
    return GtpFailure(SYNTAX_ERROR)


@dataclass(frozen=True, slots=True)
class Command:
    """One GTP command: the handler that answers it (the reply's text, or `GtpFailure`) and its
    arity - exactly that many arguments, or (least, most) with most None for no upper limit."""

    handler: Handler
    arity: Arity = 0

    def takes(self, count: int) -> bool:
        least, most = (self.arity, self.arity) if isinstance(self.arity, int) else self.arity
        return least <= count and (most is None or count <= most)


# -- command lines -------------------------------------------------------------------------------


def clean_line(raw: str) -> str:
    """A command line after GTP's preprocessing (spec section 3.1): control characters other
    than tab and newline removed, tabs turned into spaces, everything from '#' dropped, and
    surrounding whitespace stripped. An empty result means "ignore this line"."""
    kept = "".join(
        " " if char == "\t" else char
        for char in raw
        if char in "\t\n" or (ord(char) >= 32 and ord(char) != 127)
    )
    return kept.split("#", 1)[0].strip()


def format_response(ok: bool, command_id: str | None, text: str) -> str:
    """'=id text' or '?id text', ended by the empty line GTP uses as the terminator."""
    head = ("=" if ok else "?") + (command_id or "")
    first, *rest = text.rstrip("\n").split("\n")
    # A blank line inside a response would end it early: never let one through.
    rest = [line if line.strip() else " " for line in rest]
    # A multi-line answer may start on the line after "=" (showboard): no trailing space then.
    return "\n".join([f"{head} {first}" if first else head, *rest]) + "\n\n"


# -- the protocol --------------------------------------------------------------------------------


class GtpProtocol:
    """Answers GTP command lines from a table of commands (`commands`, name to `Command`)."""

    def __init__(
        self,
        name: str,
        version: str,
        commands: Mapping[str, Command],
        log: Callable[[str], None] | None = None,
    ) -> None:
        self._log = log
        self.quit_requested = False
        self.commands: dict[str, Command] = {
            "protocol_version": Command(lambda _: PROTOCOL_VERSION),
            "name": Command(lambda _: name),
            "version": Command(lambda _: version),
            "known_command": Command(self.known_command, 1),
            "list_commands": Command(self.list_commands),
            # Any arguments: a controller must always be able to end the session.
            "quit": Command(self.quit, (0, None)),
            **commands,
        }

    def handle(self, raw: str) -> str | None:
        """The complete response to one command line, or None when GTP ignores the line. A
        `Stream` reply is taken as interrupted at once (the next command is already there)."""
        pieces: list[str] = []
        answered = self.respond(raw, pieces.append, lambda: True)
        return "".join(pieces) if answered else None

    def respond(self, raw: str, write: Write, interrupted: Interrupted) -> bool:
        """Answer one command line through `write` (the whole response; a `Stream` piece by
        piece, until done or `interrupted()`). False when GTP ignores the line."""
        line = clean_line(raw)
        if not line:
            return False
        words = line.split()
        command_id = None
        if words[0].isascii() and words[0].isdigit():
            command_id = words.pop(0)
            if not words:
                write(format_response(False, command_id, "empty command"))
                return True
        name, args = words[0], words[1:]
        command = self.commands.get(name)
        if command is None:
            write(format_response(False, command_id, "unknown command"))
            return True
        if not command.takes(len(args)):
            write(format_response(False, command_id, SYNTAX_ERROR))
            return True
        try:
            reply = command.handler(args)
        except GtpFailure as failure:
            write(format_response(False, command_id, str(failure)))
            return True
        except Exception as error:  # noqa: BLE001 - a GTP engine must answer, never die
            write(format_response(False, command_id, self._internal_error(line, error)))
            return True
        if isinstance(reply, Stream):
            self._stream(line, command_id, reply, write, interrupted)
        else:
            write(format_response(True, command_id, reply))
        return True

    def _stream(self, line: str, command_id: str | None, stream: Stream, write: Write,
                interrupted: Interrupted) -> None:
        """Write a `Stream` reply: its "=" line, its lines, the terminating empty line - even
        when it fails half-way, which only the log hears about (the reply has begun)."""
        write("=" + (command_id or "") + "\n")

        def write_line(text: str) -> None:
            write((" ".join(text.split()) or " ") + "\n")

        try:
            stream.run(write_line, interrupted)
        except Exception as error:  # noqa: BLE001 - the reply must still end
            self._internal_error(line, error)
        write("\n")

    def _internal_error(self, line: str, error: Exception) -> str:
        detail = " ".join(f"{type(error).__name__}: {error}".split())
        self.log(f"internal error in {line!r}: {detail}")
        return f"internal error: {detail}"

    def log(self, message: str) -> None:
        if self._log is not None:
            self._log(message)

    def known_command(self, args: list[str]) -> str:
        return "true" if args[0] in self.commands else "false"

    def list_commands(self, args: list[str]) -> str:
        return "\n".join(sorted(self.commands))

    def quit(self, args: list[str]) -> str:
        self.quit_requested = True
        return ""


INPUT_BACKLOG = 1000  # command lines read ahead of the one being answered
MAX_LINE_BYTES = 1 << 16  # a longer input line is cut here (the longest command needs ~2 KB)
READ_BYTES = 1 << 16  # bytes asked of the input descriptor at a time


def serve(
    protocol: GtpProtocol,
    stdin: IO[bytes],
    stdout: IO[str],
    log: Callable[[str], None] | None = None,
) -> None:
    """Answer commands from `stdin` until `quit` or end of input, flushing every response.
    A thread reads the input ahead (a few lines at most), so that a `Stream` reply stops as
    soon as the next command - or the end of input - arrives."""
    lines: queue.Queue[bytes] = queue.Queue(INPUT_BACKLOG)
    reader = threading.Thread(target=_read_lines, args=(stdin, lines), name="gtp-input",
                              daemon=True)
    reader.start()

    def write(text: str) -> None:
        stdout.write(text)
        stdout.flush()
        if log is not None:
            log(">> " + text.rstrip("\n").replace("\n", "\n>> "))

    while not protocol.quit_requested:
        raw = lines.get()
        if not raw:
            break
        line = raw.decode("utf-8", errors="replace")
        if log is not None and clean_line(line):
            log(f"<< {clean_line(line)}")
        protocol.respond(line, write, lambda: not lines.empty())


def _read_lines(stdin: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Put each input line in `lines` (cut at MAX_LINE_BYTES: a command is never that long),
    then b"" for the end of input (or a read error). A real file is read with `os.read` on
    its descriptor: a thread blocked in a buffered reader would hold the reader's lock when
    the interpreter shuts down after `quit`, and Python aborts on that."""
    try:
        fd = stdin.fileno()
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        fd = None
    try:
        if fd is None:  # an in-memory stream (tests): its reads never block
            while raw := stdin.readline():
                lines.put(raw[:MAX_LINE_BYTES])
        else:
            _read_descriptor(fd, lines)
    except (OSError, ValueError):
        pass
    lines.put(b"")


def _read_descriptor(fd: int, lines: queue.Queue[bytes]) -> None:
    pending = b""
    skipping = False  # inside a line already cut at MAX_LINE_BYTES
    while chunk := os.read(fd, READ_BYTES):
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            if not skipping:
                lines.put(line[:MAX_LINE_BYTES] + b"\n")
            skipping = False
        if len(pending) > MAX_LINE_BYTES:
            if not skipping:
                lines.put(pending[:MAX_LINE_BYTES] + b"\n")
            pending, skipping = b"", True
    if pending and not skipping:
        lines.put(pending)


# -- arguments -----------------------------------------------------------------------------------


def parse_color(text: str) -> Color:
    color = COLORS.get(text.lower())
    if color is None:
        raise syntax_error()
    return color


def parse_int(text: str) -> int:
    """A GTP int: unsigned decimal digits only (the spec's "int"); else a syntax error."""
    if not text.isascii() or not text.isdigit():
        raise syntax_error()
    return int(text)


def parse_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise syntax_error() from None
    if not math.isfinite(value):
        raise syntax_error()
    return value


def parse_seconds(text: str) -> float:
    """A time in seconds: GTP says int; a controller sending 12.5 is understood too."""
    value = parse_float(text)
    if value < 0:
        raise syntax_error()
    return value
