"""`python -m app` serves Tabletop on http://127.0.0.1:8000 (HOST and PORT override).

On SIGTERM or Ctrl-C the server stops at once: the live event streams end cleanly (browsers
reconnect by themselves), requests still running after GRACEFUL_SECONDS (a search, say) are
cancelled — a move already stored stays stored — and the worker processes are killed
(app/pool.py).
"""

import os
from types import FrameType

import uvicorn

from app.live import close_all_soon

GRACEFUL_SECONDS = 1  # how long a stopping server waits for requests still running


class Server(uvicorn.Server):
    """uvicorn's server, ending the event streams as soon as it is asked to stop (they
    would otherwise hold it for GRACEFUL_SECONDS and then be cut mid-message)."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        close_all_soon()
        super().handle_exit(sig, frame)


def main() -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    config = uvicorn.Config("app.main:serve", factory=True, host=host, port=port,
                            timeout_graceful_shutdown=GRACEFUL_SECONDS)
    Server(config).run()


if __name__ == "__main__":
    main()
