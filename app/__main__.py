"""`python -m app` serves Tabletop on http://127.0.0.1:8000 (HOST and PORT override).

On SIGTERM or Ctrl-C the server stops at once: requests still running after
GRACEFUL_SECONDS (a search, say) are cancelled — a move already stored stays stored — and the
worker processes are killed (app/pool.py).
"""

import os

import uvicorn

GRACEFUL_SECONDS = 1  # how long a stopping server waits for requests still running


def main() -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    uvicorn.run("app.main:serve", factory=True, host=host, port=port,
                timeout_graceful_shutdown=GRACEFUL_SECONDS)


if __name__ == "__main__":
    main()
