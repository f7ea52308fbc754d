"""The baseline for bench/http_moves.py: the smallest FastAPI app that answers JSON."""

from fastapi import FastAPI


def create_app() -> FastAPI:
    app = FastAPI()

    @app.post("/ping")
    def ping() -> dict[str, bool]:
        return {"ok": True}

    return app
