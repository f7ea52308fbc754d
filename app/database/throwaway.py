"""A throwaway PostgreSQL server for the tests and benchmarks. Start at ThrowawayPostgres.

Debian's postgresql binaries (`make test` installs them): a cluster made by initdb in a new
temporary directory, listening on loopback on a free port (its unix socket in that directory
too), trusted without a password, deleted when stopped. PostgreSQL refuses to run as root,
so when we are root the cluster belongs to the `postgres` system user (the package makes
it) and its commands run through runuser.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

BINARIES = "/usr/lib/postgresql/*/bin"  # Debian's layout, one directory per major version
START_SECONDS = 60  # pg_ctl's wait for the server to accept connections
MAX_CONNECTIONS = 300  # the tests' apps and the benchmark's instances, each with its pool
SYSTEM_USER = "postgres"  # who owns the cluster when we are root


class PostgresMissing(RuntimeError):
    def __init__(self) -> None:
        super().__init__("PostgreSQL is not installed (no initdb under /usr/lib/postgresql "
                         "nor on PATH): run `make test`, which installs Debian's postgresql, "
                         "or `apt-get install postgresql`.")


def binaries() -> Path:
    """The directory of the newest installed PostgreSQL's initdb and pg_ctl."""
    found = sorted(glob.glob(f"{BINARIES}/initdb"),
                   key=lambda path: int(Path(path).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path is None:
        raise PostgresMissing()
    return Path(on_path).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ThrowawayPostgres:
    """One PostgreSQL server of our own. `durable=False` (the tests) skips fsync, which
    only matters if the machine itself fails; the benchmarks keep it, as production does."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.bin = binaries()
        self.port = free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="tabletop-postgres-"))
        self.data = self.directory / "data"
        self.log = self.directory / "server.log"
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam(SYSTEM_USER)
            os.chown(self.directory, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", SYSTEM_USER, "--"]
        self.running = False

    def _run(self, *command: str) -> None:
        result = subprocess.run([*self._as, *command], capture_output=True, text=True,
                                check=False)
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{command[0]} failed: {result.stderr.strip()}\n{log[-2000:]}")

    def start(self) -> ThrowawayPostgres:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync")
        options = [f"-p {self.port}", "-c listen_addresses=127.0.0.1",
                   f"-c unix_socket_directories={self.directory}",
                   f"-c max_connections={MAX_CONNECTIONS}"]
        if not self.durable:
            options += ["-c fsync=off", "-c full_page_writes=off"]
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                  "-w", "-t", str(START_SECONDS), "-o", " ".join(options), "start")
        self.running = True
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new, empty database (or a copy of `template`); its URL."""
        with psycopg.connect(self.url(), autocommit=True) as admin:
            copy = f" TEMPLATE {template}" if template else ""
            admin.execute(f'CREATE DATABASE "{name}"{copy}'.encode())
        return self.url(name)

    def stop(self) -> None:
        """Stops the server at once (its clients are cut) and deletes its files."""
        if self.running:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                      "-w", "stop")
            self.running = False
        shutil.rmtree(self.directory, ignore_errors=True)
