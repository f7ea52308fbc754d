"""`python -m app` serves Tabletop on http://127.0.0.1:8000 (HOST and PORT override)."""

import os

import uvicorn


def main() -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    uvicorn.run("app.main:serve", factory=True, host=host, port=port)


if __name__ == "__main__":
    main()
