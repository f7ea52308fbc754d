"""A real load balancer in front of two instances on one PostgreSQL database: Debian's nginx
running docs/nginx.conf itself (only its ports changed), so the file we tell people to use
is the file we test. Games are played through it; one instance is killed with -9 mid-game,
and the other serves every acknowledged move while watchers, reconnecting through nginx
with Last-Event-ID as browsers do, miss no version."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
NGINX = "/usr/sbin/nginx"
SITE = ROOT / "docs" / "nginx.conf"
MOVES = [f"{column}{row}" for row in (1, 3, 7, 9) for column in "ABCDEFGHJ"]  # no captures


@pytest.fixture
def database_kind() -> str:
    return "postgresql"


class Balancer:
    """nginx in the foreground with docs/nginx.conf as its only site, in a directory of its
    own (configuration, pid, logs, temporary files)."""

    def __init__(self, directory: Path, port: int, upstreams: list[int]) -> None:
        self.directory = directory
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        site = SITE.read_text()
        listed = re.findall(r"server 127\.0\.0\.1:(\d+)", site)
        assert len(listed) == len(upstreams), "docs/nginx.conf lists one line per instance"
        for documented, actual in zip(listed, upstreams, strict=True):
            site = site.replace(f"127.0.0.1:{documented}", f"127.0.0.1:{actual}", 1)
        site = re.sub(r"listen \d+;", f"listen 127.0.0.1:{port};", site)
        (directory / "site.conf").write_text(site)
        os.chmod(directory, 0o777)  # nginx's workers run as nobody when we are root
        (directory / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    include {directory}/site.conf;
}}
""")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.directory), "-c", str(self.directory / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"nginx did not start: {error}")
            try:
                httpx.get(f"{self.url}/ui/home", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not answer")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)  # fast shutdown, workers included
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def balancer(tmp_path: Path, free_ports: Callable[[], int]) -> Iterator[Callable[..., Balancer]]:
    """A factory: balancer(servers) starts nginx in front of them; stopped afterwards."""
    if not os.access(NGINX, os.X_OK):
        pytest.fail("nginx is not installed: run `make test` (it installs Debian's nginx) "
                    "or `apt-get install nginx`.", pytrace=False)
    started: list[Balancer] = []

    def start(servers: list[Any]) -> Balancer:
        front = Balancer(tmp_path, free_ports(), [server.port for server in servers])
        front.start()
        started.append(front)
        return front

    yield start
    for front in started:
        front.stop()


def test_a_game_played_through_nginx_reaches_its_watchers_at_once(
        local_game: Callable[..., Any], start_server: Callable[..., Any],
        balancer: Callable[..., Balancer], watchers: Callable[..., Any]) -> None:
    first = start_server()
    second = start_server(database=first.database_url)
    front = balancer([first, second])
    game_id, seat = local_game(front.url, "go", size=9)
    on_front = [watchers(f"{front.url}/api/games/{game_id}/events") for _ in range(4)]
    for watcher in on_front:
        assert watcher.next().id == 0
    with httpx.Client(base_url=front.url, headers=seat) as client:
        for version, move in enumerate(MOVES[:12], start=1):
            answer = client.post(f"/api/games/{game_id}/moves", json={"move": move})
            assert answer.status_code == 200, answer.text
            for watcher in on_front:  # unbuffered: each event arrives before the next move
                event = watcher.next(timeout=2)
                assert (event.id, event.data["state"]["last_move"]) == (version, move)
        assert client.get(f"/go/{game_id}").status_code == 200  # the page, through nginx
    for server in (first, second):  # the same game, whichever instance is asked
        assert httpx.get(f"{server.url}/api/games/{game_id}").json()["version"] == 12


def test_kill_9_of_one_instance_loses_no_move_and_no_event(
        local_game: Callable[..., Any], start_server: Callable[..., Any],
        balancer: Callable[..., Balancer], watchers: Callable[..., Any]) -> None:
    first = start_server()
    second = start_server(database=first.database_url)
    front = balancer([first, second])
    game_id, seat = local_game(front.url, "go", size=9)
    on_front = [watchers(f"{front.url}/api/games/{game_id}/events", reconnect=True)
                for _ in range(6)]  # round robin: some on each instance
    for watcher in on_front:
        assert watcher.next().id == 0
    acknowledged: list[str] = []
    with httpx.Client(base_url=front.url, headers=seat) as client:

        def play(move: str) -> None:
            version = len(acknowledged)
            while True:  # what a client does after a 502: read the game, play again
                answer = client.post(f"/api/games/{game_id}/moves",
                                     json={"move": move, "version": version})
                if answer.status_code == 200:
                    acknowledged.append(move)
                    return
                assert answer.status_code in (502, 409), answer.text
                if client.get(f"/api/games/{game_id}").json()["version"] > version:
                    acknowledged.append(move)  # the lost answer's move was stored
                    return

        for move in MOVES[:8]:
            play(move)
        first.kill()  # mid-game, streams open, nothing warned
        for move in MOVES[8:20]:
            play(move)

    state = httpx.get(f"{second.url}/api/games/{game_id}").json()
    assert state["version"] == 20 and state["state"]["moves"] == acknowledged
    for watcher in on_front:
        versions = []
        while len(versions) < 20:
            versions.append(watcher.next(timeout=10).id)
        assert versions == list(range(1, 21)), "a watcher missed or repeated a version"
    assert max(watcher.connections for watcher in on_front) >= 2, "nobody had to reconnect"
