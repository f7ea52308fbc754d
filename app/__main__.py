"""`python -m app` serves Tabletop on http://127.0.0.1:8000 (HOST and PORT override).

`--workers N` (or WORKERS=N) serves from N processes on one machine, which needs PostgreSQL
(TABLETOP_DATABASE_URL=postgresql://…): an SQLite file serves one process. The machine's
cores are shared between the processes' worker pools unless TABLETOP_WORKERS says
otherwise. How the processes run and stop: app/server.py.
"""

from __future__ import annotations

import argparse
import os
import sys

from app.database import is_postgres
from app.migrations import database_url, upgrade
from app.server import Server, Supervisor, config

NEEDS_POSTGRES = ("python -m app --workers {count}: several processes need PostgreSQL, and "
                  "TABLETOP_DATABASE_URL is an SQLite file, which serves one process. Run one "
                  "process (--workers 1, or no WORKERS), or set "
                  "TABLETOP_DATABASE_URL=postgresql://user@host:port/db.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "1")),
                        help="serving processes (default: WORKERS, else 1; PostgreSQL only)")
    count = max(1, parser.parse_args(argv).workers)
    settings = config(os.environ.get("HOST", "127.0.0.1"), int(os.environ.get("PORT", "8000")))
    if count == 1:
        Server(settings).run()
        return 0
    url = database_url()
    if not is_postgres(url):
        print(NEEDS_POSTGRES.format(count=count), file=sys.stderr)
        return 2
    upgrade(url)  # once, before the processes start (each would wait for the others' lock)
    cores = os.cpu_count() or 1
    os.environ.setdefault("TABLETOP_WORKERS", str(max(1, cores // count)))
    return Supervisor(settings, count).run()


if __name__ == "__main__":
    sys.exit(main())
