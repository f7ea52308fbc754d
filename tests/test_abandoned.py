"""Abandoned games, on SQLite and on PostgreSQL: a game no person has moved in and that has
not ended is swept away once nothing has changed it for TABLETOP_ABANDONED_HOURS, with its
seats, invitation, events and chat, a bounded batch at a time; played, finished and imported games
stay. Concurrent sweeps take each game once, and a first move that races a sweep is either
stored for good or refused — never acknowledged and then lost. The clock is injected: a
sweep's cutoff is "N hours before then", the service's `now` a moved clock."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
import random
import threading
import time
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from app import main
from app.database import connect
from app.errors import ApiError, GameNotFound, StaleVersion
from app.games import Caller, Created, GameService
from app.games.go_record import branch, read_sgf
from app.main import ADAPTERS, abandoned_hours
from app.migrations import alembic_config
from app.pool import Ticket, WorkerPool
from app.seats import Seat
from app.store import SWEEP_BATCH, GameRecord, GameStore

HOURS = main.ABANDONED_HOURS  # the sweep's age as the server has it by default
HOUR = 3600.0
TABLES = ("games", "seats", "invites", "events", "chat")
OLD_DATABASES = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(database_url: str) -> Any:
    opened = GameStore(database_url)
    yield opened
    opened.close()


class InstantPool(WorkerPool):
    """The Go computer's search, answered at once with E5 (no worker process)."""

    async def run(self, ticket: Ticket, function: Callable[[Any], Any], payload: Any,
                  deadline: float) -> Any:
        ticket.release()
        return {"move": "E5", "win_rate": 0.5, "playouts": 1}


@pytest.fixture
def clock() -> list[float]:
    """The service's time: clock[0], moved by the tests."""
    return [time.time()]


@pytest.fixture
def service(store: GameStore, clock: list[float]) -> GameService:
    return GameService(store, ADAPTERS, rng=random.Random(5), pool=InstantPool(),
                       now=lambda: clock[0])


def sweep_after(store: GameStore, hours: float, limit: int = 500) -> list[str]:
    """What the sweeps take, batch after batch, `hours` from now: the games nobody played
    in that nothing has changed for HOURS by then."""
    before = time.time() + (hours - HOURS) * HOUR
    swept: list[str] = []
    while batch := store.sweep_abandoned(before, limit):
        swept += batch
    return swept


def rows(store: GameStore, game_ids: Iterable[str]) -> dict[str, int]:
    """How many rows of each table belong to these games."""
    ids = list(game_ids)
    marks = ", ".join(["?"] * len(ids))
    with store.db.session() as db:
        return {table: db.execute(f"SELECT COUNT(*) AS n FROM {table} WHERE"
                                  f" {'id' if table == 'games' else 'game_id'} IN ({marks})",
                                  ids).fetchone()["n"] for table in TABLES}


def stored_game(store: GameStore, game_id: str, updated_at: float | None = None,
                **fields: Any) -> GameRecord:
    """A game with a seat each side, an unspent invitation, two events and a message."""
    record = GameRecord(id=game_id, kind="tictactoe", version=0, data={}, owner="me",
                        seats=(Seat("X", token="t", browser="me"), Seat("O", computer=True)),
                        invited="O", **fields)
    if updated_at is not None:
        record.created_at = record.updated_at = updated_at
    store.create(record, {"v": 0}, invite_code=f"code-{game_id}", sealed=("st", "sb"))
    with store.db.transaction() as db:  # a second event, leaving the timestamps as made
        db.execute("INSERT INTO events (game_id, version, data) VALUES (?, 1, '{}')",
                   (game_id,))
    store.say(game_id, "X", None, "hello", record.updated_at, 10)
    return record


def new(service: GameService, kind: str, **options: Any) -> Created:
    return service.create(kind, options, Caller(browser="browser"))


def seat_of(created: Created) -> Caller:
    return Caller(token=created.token)


def play(service: GameService, created: Created, move: Any) -> GameRecord:
    record = service.load(created.record.id)
    return service.play(record, service.actor(record, seat_of(created)), move)


def gone(service: GameService, game_id: str) -> bool:
    try:
        service.load(game_id)
    except GameNotFound:
        return True
    return False


# -- what is abandoned --------------------------------------------------------------------


T = TypeVar("T")


def in_a_loop_of_its_own(coroutine: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps an event loop
    running in the main thread when the whole suite runs."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_a_game_nobody_moved_in_is_swept_after_n_hours(service: GameService,
                                                       store: GameStore) -> None:
    """Created and left; begun by the computer only (in the creation, or by the Go player's
    search after it); joined by a friend who never moved: all abandoned, but only after
    N hours."""
    left = new(service, "tictactoe")
    computer_began = new(service, "tictactoe", human="O")
    assert computer_began.record.version == 1
    go = new(service, "go", opponent="computer", human="white")
    after_search = in_a_loop_of_its_own(service.computer_reply(go.record))
    assert after_search.version == go.record.version + 1 and after_search.played_at is None
    friendly = new(service, "tictactoe", opponent="remote")
    assert friendly.invite is not None
    service.join(friendly.record, friendly.invite, Caller(browser="friend"))
    tour = new(service, "knights-tour", size=5)
    ids = {created.record.id for created in (left, computer_began, go, friendly, tour)}

    assert sweep_after(store, HOURS - 1) == []  # younger than N hours: kept
    assert all(not gone(service, game_id) for game_id in ids)
    assert set(sweep_after(store, HOURS + 1)) == ids
    assert all(gone(service, game_id) for game_id in ids)


def test_a_game_a_person_moved_in_is_kept(service: GameService, store: GameStore) -> None:
    local = new(service, "tictactoe", opponent="local")
    play(service, local, 4)
    against_computer = new(service, "tictactoe")
    play(service, against_computer, 0)  # and the computer's reply
    undone = new(service, "tictactoe")
    play(service, undone, 4)
    record = service.load(undone.record.id)
    service.undo(record, service.actor(record, seat_of(undone)))  # the board is empty again
    go = new(service, "go", opponent="computer", human="black")
    play(service, go, "E5")
    tour = new(service, "knights-tour", size=5)
    play(service, tour, "a1")
    ids = [created.record.id for created in (local, against_computer, undone, go, tour)]
    assert all(service.load(game_id).played_at is not None for game_id in ids)

    assert sweep_after(store, 10 * HOURS) == []
    assert rows(store, ids)["games"] == len(ids)


def test_a_finished_game_is_kept(service: GameService, store: GameStore,
                                 clock: list[float]) -> None:
    """Resigned before any move (over, no tally: outcome None); lost on time after only the
    computer moved (over, in the tally); any game with an outcome."""
    resigned = new(service, "tictactoe", opponent="local")
    record = service.load(resigned.record.id)
    service.resign(record, service.actor(record, seat_of(resigned)))
    assert service.load(resigned.record.id).outcome is None
    on_time = new(service, "go", opponent="computer", human="white", minutes=1)
    in_a_loop_of_its_own(service.computer_reply(on_time.record))  # white's clock runs from here
    clock[0] += 120
    assert service.expire_due() == 1
    assert service.load(on_time.record.id).outcome == "loss"
    stored_game(store, "won", updated_at=1000.0, outcome="win")

    assert sweep_after(store, 10 * HOURS) == []
    assert rows(store, [resigned.record.id, on_time.record.id, "won"])["games"] == 3


def test_an_imported_record_is_kept_and_a_branch_nobody_played_is_not(
        service: GameService, store: GameStore) -> None:
    data = read_sgf(b"(;FF[4]GM[1]SZ[9]KM[6.5];B[cc];W[dd];B[ee])")
    imported = service.create_from_data("go", data, Caller(browser="browser"))
    assert imported.record.played_at is not None
    branched = service.create_from_data(
        "go", branch(imported.record.data, 2, {"opponent": "local"}, random.Random(1)),
        Caller(browser="browser"))
    assert branched.record.played_at is None

    assert sweep_after(store, HOURS + 1) == [branched.record.id]
    assert not gone(service, imported.record.id)


def test_a_played_game_stays_played_whatever_record_is_written(store: GameStore) -> None:
    """A writer holding a record without played_at (read before the move) cannot make a
    played game deletable again."""
    record = stored_game(store, "g", played_at=5.0)
    record.played_at, record.version = None, 1
    store.update(record, 0, {"v": 1})
    found = store.find("g")
    assert found is not None and found.played_at == 5.0


# -- the sweep ------------------------------------------------------------------------------


def test_seats_invitations_events_and_chat_go_with_the_game(store: GameStore) -> None:
    stored_game(store, "left", updated_at=1000.0)
    stored_game(store, "played", updated_at=1000.0, played_at=1000.0)
    stored_game(store, "young", updated_at=time.time() + HOUR)
    assert rows(store, ["left"]) == {"games": 1, "seats": 2, "invites": 1, "events": 2, "chat": 1}

    assert store.sweep_abandoned(time.time()) == ["left"]
    assert rows(store, ["left"]) == dict.fromkeys(TABLES, 0)
    for kept in ("played", "young"):
        assert rows(store, [kept]) == {"games": 1, "seats": 2, "invites": 1, "events": 2, "chat": 1}


def test_a_sweep_deletes_a_bounded_batch_oldest_first(store: GameStore) -> None:
    """More games than one statement's chunk of ids (SWEEP_CHUNK), fewer than the batch."""
    ids = [f"g{number:03}" for number in range(130)]
    for age, game_id in enumerate(reversed(ids)):
        stored_game(store, game_id, updated_at=10_000.0 - age)  # g000 is the oldest
    first = store.sweep_abandoned(20_000.0, limit=120)
    assert sorted(first) == ids[:120]
    assert rows(store, first) == dict.fromkeys(TABLES, 0)
    assert rows(store, ids[120:])["seats"] == 20
    assert sorted(store.sweep_abandoned(20_000.0, limit=120)) == ids[120:]
    assert store.sweep_abandoned(20_000.0, limit=120) == []
    assert rows(store, ids) == dict.fromkeys(TABLES, 0)


def test_concurrent_sweeps_take_each_game_once(store: GameStore, database_url: str) -> None:
    """Two instances' sweeps at once (each its own store): no error, no game twice, none
    left (PostgreSQL: SKIP LOCKED; SQLite: the transactions take turns)."""
    ids = {f"g{number:03}" for number in range(240)}
    for game_id in ids:
        stored_game(store, game_id, updated_at=1000.0)
    sweepers = [GameStore(database_url) for _ in range(2)]
    start = threading.Barrier(len(sweepers))

    def sweep(sweeper: GameStore) -> list[str]:
        start.wait()
        swept: list[str] = []
        while batch := sweeper.sweep_abandoned(2000.0, limit=10):
            swept += batch
        return swept

    try:
        with concurrent.futures.ThreadPoolExecutor(len(sweepers)) as threads:
            first, second = threads.map(sweep, sweepers)  # re-raises any error
    finally:
        for sweeper in sweepers:
            sweeper.close()
    assert not set(first) & set(second)
    assert len(first) + len(second) == len(ids) and set(first) | set(second) == ids
    assert store.sweep_abandoned(2000.0) == []
    assert rows(store, ids) == dict.fromkeys(TABLES, 0)


def test_a_first_move_racing_a_sweep_is_stored_or_refused_never_lost(
        service: GameService, database_url: str) -> None:
    """Movers make the first move in games a sweep (another instance) is deleting, in the
    same order: each move either is acknowledged and then stays, played, with its event, or
    is refused (StaleVersion) or finds the game gone (404) — and then the game is gone."""
    games = [new(service, "tictactoe", opponent="local") for _ in range(120)]
    sweeper = GameStore(database_url)
    moving = threading.Event()
    moving.set()
    acknowledged: dict[str, int] = {}
    refused: list[str] = []

    def sweep() -> None:
        while moving.is_set():  # every game nobody has played yet, four at a time
            if not sweeper.sweep_abandoned(time.time() + 1, 4):
                time.sleep(0.001)
        while sweeper.sweep_abandoned(time.time() + 1, 4):
            pass

    def move(share: list[Created]) -> None:
        for created in share:
            try:
                record = service.load(created.record.id)
                acknowledged[record.id] = service.play(
                    record, service.actor(record, seat_of(created)), 4).version
            except (StaleVersion, GameNotFound):
                refused.append(created.record.id)

    try:
        with concurrent.futures.ThreadPoolExecutor(4) as threads:
            swept = threads.submit(sweep)
            try:
                for mover in [threads.submit(move, games[number::3]) for number in range(3)]:
                    mover.result()  # re-raises any other error
            finally:
                moving.clear()
            swept.result()
    finally:
        sweeper.close()
    assert len(acknowledged) + len(refused) == len(games)
    for game_id, version in acknowledged.items():
        kept = service.store.find(game_id)
        assert kept is not None and kept.version == version and kept.played_at is not None
        assert [number for number, _ in service.store.events_since(game_id, 0)] == [version]
    assert all(service.store.find(game_id) is None for game_id in refused)


def test_a_friend_joining_as_a_sweep_runs_is_seated_for_good_or_refused(
        service: GameService, database_url: str) -> None:
    """Joining writes the invitation's row too: it takes the game's row first, as the sweep
    does, so the two never deadlock. A join that is stored keeps the game (it changed it
    after the sweep's cutoff); one that is not finds the game gone."""
    games = [new(service, "tictactoe", opponent="remote") for _ in range(120)]
    cutoff = time.time()  # every game is older; a joined one is changed after it
    sweeper = GameStore(database_url)
    joining = threading.Event()
    joining.set()
    joined: dict[str, int] = {}
    refused: list[str] = []

    def sweep() -> None:
        while joining.is_set():
            if not sweeper.sweep_abandoned(cutoff, 4):
                time.sleep(0.001)

    def join(share: list[Created]) -> None:
        for created in share:
            assert created.invite is not None
            try:
                record = service.load(created.record.id)
                joined[record.id] = service.join(record, created.invite,
                                                 Caller(browser="friend"))[0].version
            except (StaleVersion, GameNotFound):
                refused.append(created.record.id)
            except ApiError as refusal:  # the invitation went with the game, read or not
                assert refusal.code in ("bad_invite", "no_free_seat"), refusal.code
                refused.append(created.record.id)

    try:
        with concurrent.futures.ThreadPoolExecutor(4) as threads:
            swept = threads.submit(sweep)
            try:
                for joiner in [threads.submit(join, games[number::3]) for number in range(3)]:
                    joiner.result()  # re-raises any other error (a deadlock's)
            finally:
                joining.clear()
            swept.result()
    finally:
        sweeper.close()
    assert len(joined) + len(refused) == len(games)
    for game_id, version in joined.items():
        kept = service.store.find(game_id)
        assert kept is not None and kept.version == version and len(kept.seats) == 2
    assert all(service.store.find(game_id) is None for game_id in refused)


# -- games stored before the sweep existed ----------------------------------------------------


def test_games_stored_before_the_revision_count_as_played(
        database_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Revision 0002 cannot tell whether a person moved in a stored game, so it keeps them
    all; it also goes down and up again."""
    from alembic import command

    if database_kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        url = request.getfixturevalue("postgres").create_database(
            f"before_0002_{next(OLD_DATABASES)}")
    config = alembic_config(url)
    command.upgrade(config, "0001")
    old = connect(url)
    with old.transaction() as db:
        db.execute("INSERT INTO games (id, kind, version, owner, outcome, data, created_at,"
                   " updated_at) VALUES ('old', 'tictactoe', 0, NULL, NULL, '{}', 5, 7)")
    old.close()
    store = GameStore(url)
    try:
        found = store.find("old")
        assert found is not None and found.played_at == 7
        assert sweep_after(store, 1000 * HOURS) == []
        command.downgrade(config, "0001")
        command.upgrade(config, "head")
        assert store.sweep_abandoned(time.time()) == []
    finally:
        store.close()


# -- through the server -------------------------------------------------------------------------


def test_a_game_created_and_left_is_gone_after_the_sweep(client: TestClient) -> None:
    made = [client.post("/api/games", json={"game": "tictactoe", "options": options}).json()
            for options in ({"opponent": "local"}, {"human": "O"}, {"opponent": "local"})]
    left, computer_began, played = made
    moved = client.post(f"/api/games/{played['id']}/moves", json={"move": 4},
                        headers={"Authorization": f"Bearer {played['token']}"})
    assert moved.status_code == 200

    store: GameStore = client.app.state.service.store  # type: ignore[attr-defined]
    assert sorted(store.sweep_abandoned(time.time() + 1)) == sorted(
        [left["id"], computer_began["id"]])
    for game in (left, computer_began):
        missing = client.get(f"/api/games/{game['id']}")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert client.get(f"/api/games/{played['id']}").json()["state"]["board"] == "....X...."


def test_the_servers_sweep_survives_failures_and_says_what_it_removed(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """app/main.py's task: batch after batch while they are full, again after a failure."""

    class Store:
        def __init__(self) -> None:
            self.calls: list[float] = []

        def sweep_abandoned(self, before: float) -> list[str]:
            self.calls.append(before)
            if len(self.calls) == 1:
                raise RuntimeError("the database went away")
            if len(self.calls) == 2:
                return ["a"] * SWEEP_BATCH  # full: another batch at once
            return ["b"] if len(self.calls) == 3 else []

    fake = Store()
    monkeypatch.setattr(main, "SWEEP_SECONDS", 0.01)

    async def run() -> None:
        task = asyncio.create_task(main.sweep_abandoned(fake, 2.0))  # type: ignore[arg-type]
        while len(fake.calls) < 5:
            await asyncio.sleep(0.01)
        task.cancel()

    with (caplog.at_level(logging.INFO, logger="tabletop"),
          concurrent.futures.ThreadPoolExecutor(1) as thread):  # a loop of its own
        thread.submit(asyncio.run, run()).result()
    messages = [record.getMessage() for record in caplog.records]
    assert messages[0] == "the sweep for abandoned games failed"
    assert messages[1].startswith(f"removed {SWEEP_BATCH + 1} abandoned games")
    assert len(messages) == 2  # an empty sweep says nothing
    assert abs(fake.calls[1] - (time.time() - 2 * HOUR)) < 60


def test_the_age_of_abandonment_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLETOP_ABANDONED_HOURS", raising=False)
    assert abandoned_hours() == 24
    monkeypatch.setenv("TABLETOP_ABANDONED_HOURS", " 0.5 ")
    assert abandoned_hours() == 0.5
    for wrong in ("0", "-3", "soon", "inf", "nan"):
        monkeypatch.setenv("TABLETOP_ABANDONED_HOURS", wrong)
        with pytest.raises(ValueError, match="TABLETOP_ABANDONED_HOURS"):
            abandoned_hours()
