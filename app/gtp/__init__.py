"""A Go Text Protocol (GTP v2) engine: Tabletop's Go player for GoGui, Sabaki, gomill & co.

Shaped as gomill shapes one, in four rooms; start reading at `protocol.GtpProtocol.respond`.

- `protocol`: GTP itself - a command line read (ids, comments, control characters), looked up in
  a table of commands with their arity, and answered ("=id text" / "?id text"); `serve` runs it
  over stdin and stdout.
- `session`: the Go behind the commands - the game as GTP sees it, undo, komi, the player -
  whose `GoSession.commands` fills the protocol's table; `clock` is its thinking-time budget.
- `analysis`: the GUIs' analysis commands - Leela Zero's and KataGo's live analysis, streamed
  until the next command, and GoGui's analyze menu - on the session's player.
- `main`: `GtpEngine`, the protocol answering for a session, and `main`, the `tabletop-gtp`
  console script (`python -m app.gtp` runs it too).
"""

from app.gtp.main import main

__all__ = ["main"]
