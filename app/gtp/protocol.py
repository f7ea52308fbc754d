"""The Go Text Protocol (GTP v2) without the game: command lines in, a command table, replies.

Start with `GtpProtocol.handle`: it takes one command line and returns the whole response text
("=12 D4\\n\\n", "? illegal move\\n\\n") or None for a line GTP ignores (an empty one, a
comment). Between the two it looks the command up in its table of `Command`s - a handler and
how many arguments it takes - and refuses a wrong number of arguments before the handler runs,
so a handler only ever sees as many as it asked for. The administrative commands (`name`,
`version`, `protocol_version`, `known_command`, `list_commands`, `quit`) are the protocol's own;
a session (`app.gtp.session`) brings the rest. `serve` runs the protocol over a pair of streams.
The argument readers (`parse_color`, `parse_int`, ...) turn GTP's argument types into values or
a "syntax error".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO

from app.engine.go import Color

PROTOCOL_VERSION = "2"  # GTP version 2 (draft 2), the one every controller speaks
SYNTAX_ERROR = "syntax error"  # the spec's reply to arguments a command cannot read

COLORS: dict[str, Color] = {"b": "black", "black": "black", "w": "white", "white": "white"}

Handler = Callable[[list[str]], str]
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
        """The complete response to one command line, or None when GTP ignores the line."""
        line = clean_line(raw)
        if not line:
            return None
        words = line.split()
        command_id = None
        if words[0].isascii() and words[0].isdigit():
            command_id = words.pop(0)
            if not words:
                return format_response(False, command_id, "empty command")
        name, args = words[0], words[1:]
        command = self.commands.get(name)
        if command is None:
            return format_response(False, command_id, "unknown command")
        if not command.takes(len(args)):
            return format_response(False, command_id, SYNTAX_ERROR)
        try:
            text = command.handler(args)
        except GtpFailure as failure:
            return format_response(False, command_id, str(failure))
        except Exception as error:  # noqa: BLE001 - a GTP engine must answer, never die
            detail = " ".join(f"{type(error).__name__}: {error}".split())
            self.log(f"internal error in {line!r}: {detail}")
            return format_response(False, command_id, f"internal error: {detail}")
        return format_response(True, command_id, text)

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


def serve(
    protocol: GtpProtocol,
    stdin: IO[bytes],
    stdout: IO[str],
    log: Callable[[str], None] | None = None,
) -> None:
    """Answer commands from `stdin` until `quit` or end of input, flushing every response."""
    while not protocol.quit_requested:
        raw = stdin.readline()
        if not raw:
            break
        line = raw.decode("utf-8", errors="replace")
        response = protocol.handle(line)
        if response is None:
            continue
        if log is not None:
            log(f"<< {clean_line(line)}")
            log(">> " + response.rstrip("\n").replace("\n", "\n>> "))
        stdout.write(response)
        stdout.flush()


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
