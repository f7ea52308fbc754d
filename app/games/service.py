"""The service every route calls: create, read and change stored games.

Start at GameService. It loads a stored game (checking its kind), works out what the caller
holds there (app/seats.py: the seats their token or browser cookie opens), lets the
game's adapter (app/games/adapter.py's protocols; app/games/<kind>.py) apply a change to a
copy of the game's JSON data — the clock (app/games/clock.py) advancing with the turn — and
stores the result with its event only if nobody else changed the game meanwhile; then it
tells the live streams (app/live.py). A computer that thinks for seconds (Go) searches in
the server's worker pool (app/pool.py), after the pool has admitted the search.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import random
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from fastapi.concurrency import run_in_threadpool

from app.chat import Chat
from app.errors import ApiError, Conflict, GameNotFound, StaleVersion
from app.games import clock
from app.games.adapter import GameAdapter, GameView, SlowComputer, TwoSided
from app.limits import Limits, new_games_limiter
from app.pool import Ticket, WorkerPool
from app.seats import (
    WATCHER,
    Actor,
    Seat,
    actor_of,
    digest,
    new_invite,
    new_secret,
    same,
    seal,
    seats_for,
    unseal,
)
from app.store import GameRecord, GameStore

SEARCH_MARGIN = 0.5  # a search may overrun its level's budget by half (at least MIN_MARGIN)
MIN_MARGIN = 3.0  # seconds: pickling, a busy machine, the last playouts


class Broadcast(Protocol):
    """Where the service tells live viewers about games (app/live.py's LiveHub)."""

    def changed(self, game_id: str) -> None:
        """A new version of the game is stored (called from any thread)."""
        ...

    def thinking(self, game_id: str, seat: str, busy: bool) -> None:
        """The computer started (busy) or finished a search for `seat`."""
        ...

    def said(self, game_id: str, message_id: int) -> None:
        """A message was added to the game's chat (app/chat.py)."""
        ...

    def watching(self, game_id: str) -> int:
        """How many people without a seat watch the game now."""
        ...


class Silent:
    """No live viewers (tests, scripts)."""

    def changed(self, game_id: str) -> None:
        pass

    def thinking(self, game_id: str, seat: str, busy: bool) -> None:
        pass

    def said(self, game_id: str, message_id: int) -> None:
        pass

    def watching(self, game_id: str) -> int:
        return 0


@dataclass(frozen=True)
class Caller:
    """Who asks: the bearer token and the browser id the request carries, if any."""

    token: str | None = None
    browser: str | None = None
    address: str | None = None  # the client's IP address, for its rate limits (app/limits.py)
    name: str | None = None  # the name the browser chose (app/seats.py clean_name), if any


@dataclass(frozen=True)
class Created:
    """A new game and the secrets only its creator sees: their token and, for a game with
    a friend, the invitation code."""

    record: GameRecord
    token: str
    invite: str | None = None
    sealed: tuple[str | None, str | None] = (None, None)  # the code sealed for token, browser


class NotSeated(ApiError):
    status = 403
    code = "not_seated"

    def __init__(self) -> None:
        super().__init__("You have no seat at this game, so you cannot change it: open it "
                         "from your own link, or ask a player for an invite. Anyone with the "
                         "link may watch.")


def _put(data: dict[str, Any], rematch: dict[str, Any]) -> int:
    """A change that records a rematch's offer or start in a finished game (one version)."""
    data["rematch"] = rematch
    return 1


def new_game_id() -> str:
    """A short, unguessable, URL-safe id (so a shared link reveals no other game)."""
    return secrets.token_urlsafe(9)


def search_deadline(seconds: float) -> float:
    """The hard limit for a search whose budget is `seconds`."""
    return seconds + max(MIN_MARGIN, SEARCH_MARGIN * seconds)


class GameService:
    """Create, read and change stored games; the one place that bumps versions."""

    def __init__(self, store: GameStore, adapters: Mapping[str, GameAdapter],
                 rng: random.Random | None = None, pool: WorkerPool | None = None,
                 live: Broadcast | None = None,
                 now: Callable[[], float] = time.time, limits: Limits | None = None) -> None:
        self.store = store
        self.new_games = new_games_limiter(limits or Limits())
        self.adapters = adapters
        self._rng = rng
        self.pool = pool or WorkerPool()
        self.live: Broadcast = live or Silent()
        self.now = now
        self.chat = Chat(store, self.live, now)

    def rng(self) -> random.Random:
        # A seeded generator in tests; fresh entropy for every request in production.
        return self._rng if self._rng is not None else random.Random()

    def adapter(self, kind: str) -> GameAdapter:
        return self.adapters[kind]

    # -- reading --------------------------------------------------------------------------

    def load(self, game_id: str, kind: str | None = None) -> GameRecord:
        """The stored game `game_id`, or GameNotFound — also when it is of another kind than
        `kind`, so a route for one game can never touch another kind's game."""
        label = self.adapters[kind].label if kind else "game"
        record = self.store.find(game_id)
        if record is None or (kind is not None and record.kind != kind):
            raise GameNotFound(game_id, label)
        if not record.seats:
            record.seats = self._legacy_seats(record)
        return record

    def _legacy_seats(self, record: GameRecord) -> tuple[Seat, ...]:
        """A game stored before seats existed: its creating browser holds the human seats."""
        plan = seats_for(self.adapter(record.kind).sides, record.data.get("options", {}),
                         self.rng())
        return (*(Seat(side, browser=record.owner) for side in plan.creator),
                *(Seat(side, computer=True) for side in plan.computer))

    def actor(self, record: GameRecord, caller: Caller) -> Actor:
        """The seats the caller holds in this game (none: a watcher)."""
        return actor_of(record.seats, caller.token, caller.browser)

    # -- creating and joining -------------------------------------------------------------

    def new_record(self, kind: str, options: Mapping[str, Any], caller: Caller) -> Created:
        """A new game, not stored yet (see insert): BadOptions if the options are wrong. The
        caller gets the creator's seats, a fresh token for them, and for a game with a friend
        the invitation to the other seat."""
        rng = self.rng()
        data, changes = self.adapter(kind).new_game(options, rng)
        self.new_games.take(caller.address)  # after the options are checked: a typo is free
        return self.seat(kind, data, changes, caller, rng)

    def seat(self, kind: str, data: dict[str, Any], version: int, caller: Caller,
             rng: random.Random) -> Created:
        """A new game of `data` (its options decide who sits where), not stored yet, with
        the caller in the creator's seats."""
        adapter = self.adapter(kind)
        clock.choose(data.get("clock"), data["options"])  # adapters build it as Fischer
        plan = seats_for(adapter.sides, data["options"], rng)
        token = new_secret()
        browser = digest(caller.browser) if caller.browser else None
        seats = (*(Seat(side, token=digest(token), browser=browser) for side in plan.creator),
                 *(Seat(side, computer=True) for side in plan.computer))
        if caller.name and len(plan.creator) == 1:  # at one screen a name says nothing
            data["names"] = {plan.creator[0]: caller.name}
        game_id = new_game_id()
        view = adapter.view(data)
        record = GameRecord(id=game_id, kind=kind, version=version, data=data, owner=browser,
                            outcome=adapter.outcome(data, view), seats=seats,
                            invited=plan.invited)
        record.derived["view"] = view
        if plan.invited is None:
            return Created(record, token)
        code, raw = new_invite()
        sealed = (seal(raw, token, game_id),
                  seal(raw, caller.browser, game_id) if caller.browser else None)
        return Created(record, token, code, sealed)

    def insert(self, created: Created) -> GameRecord:
        invite = digest(created.invite) if created.invite else None
        self.store.create(created.record, self.public(created.record), invite, created.sealed)
        self.live.changed(created.record.id)
        return created.record

    def create(self, kind: str, options: Mapping[str, Any], caller: Caller) -> Created:
        created = self.new_record(kind, options, caller)
        self.insert(created)
        return created

    def create_from_data(self, kind: str, data: dict[str, Any], caller: Caller) -> Created:
        """Stores a game an adapter built itself (an imported SGF record, a game branched
        from another's position); its options decide the seats."""
        self.new_games.take(caller.address)
        created = self.seat(kind, data, 0, caller, self.rng())
        if self.view(created.record).status == "over":  # an imported record, for review:
            created.record.played_at = self.now()  # kept like a played game
        self.insert(created)
        return created

    def invite(self, record: GameRecord, caller: Caller) -> str | None:
        """The invitation code of a game with a free seat — for its creator only."""
        if record.invited is None:
            return None
        stored = self.store.invite(record.id)
        if stored is None:
            return None
        code_digest, sealed_token, sealed_browser = stored
        for sealed, secret in ((sealed_token, caller.token), (sealed_browser, caller.browser)):
            code = unseal(sealed, secret, record.id)
            if code is not None and same(code_digest, code):
                return code
        return None

    def join(self, record: GameRecord, code: str, caller: Caller) -> tuple[GameRecord, str]:
        """Seats the caller in the game's free seat with its invitation (spent by this);
        returns the game and the caller's new token."""
        # Seated first: a player opening their own invitation again is told they sit here,
        # not that the seats are taken.
        if self.actor(record, caller).seated:
            raise Conflict("You already sit at this game.", code="already_seated")
        if record.invited is None:
            raise Conflict("Both seats of this game are taken; you can watch it.",
                           code="no_free_seat")
        token = new_secret()
        seat = Seat(record.invited, token=digest(token),
                    browser=digest(caller.browser) if caller.browser else None)
        joined = dataclasses.replace(record, version=record.version + 1,
                                     seats=(*record.seats, seat), invited=None)
        if not self.store.join(joined, digest(code), seat, self.public(joined)):
            raise ApiError("That invitation is not this game's, or it has been used.",
                           code="bad_invite", status=403)
        self.live.changed(record.id)
        if caller.name:
            with contextlib.suppress(StaleVersion):  # a move first: the name can wait
                joined = self.rename(joined, Actor(frozenset({seat.seat})), caller.name)
        return joined, token

    # -- changing -------------------------------------------------------------------------

    def _change(self, record: GameRecord, version: int | None,
                change: Callable[[GameAdapter, dict[str, Any]], int],
                played: bool = False) -> GameRecord:
        """Applies `change` to a copy of the game and stores it, with its event, if the game
        is still at the version read; a refusal (ApiError) or a lost race (StaleVersion)
        changes nothing. The clock advances with the turn. A change `played` by a person,
        or one that ends the game, marks it played: never swept as abandoned (app/store.py)."""
        if version is not None and version != record.version:
            raise StaleVersion()
        adapter = self.adapter(record.kind)
        before = self.view(record)
        data = copy.deepcopy(record.data)  # a refused change must leave nothing half-applied
        changes = change(adapter, data)
        if not changes:
            return record
        after = adapter.view(data)
        running = data.get("clock")
        if after.status == "over":
            clock.stop(running, self.now())
        elif record.invited is None:  # no clock runs while a friend's seat is still free
            clock.advance(running, before.to_move, after.to_move, self.now())
        if after.to_move != before.to_move or after.status != before.status:
            data.pop("takeback", None)  # a move answers any pending take-back request
        # The tally is written once: a result, once recorded, stays recorded.
        changed = dataclasses.replace(record, data=data, version=record.version + changes,
                                      outcome=record.outcome or adapter.outcome(data, after),
                                      deadline=clock.deadline(running),
                                      played_at=self.now() if played or after.status == "over"
                                      else record.played_at)
        changed.derived["view"] = after
        self.store.update(changed, record.version, self.public(changed))
        self.live.changed(record.id)
        return changed

    def _seated(self, record: GameRecord, actor: Actor) -> GameRecord:
        """The game, after any clock that ran out meanwhile has been settled; NotSeated if
        the actor holds no seat."""
        if not actor.seated:
            raise NotSeated()
        return self.expire(record)

    def play(self, record: GameRecord, actor: Actor, move: Any,
             version: int | None = None) -> GameRecord:
        record = self._seated(record, actor)
        rng = self.rng()
        return self._change(record, version,
                            lambda adapter, data: adapter.play(data, move, rng, actor.seats),
                            played=True)

    def undo(self, record: GameRecord, actor: Actor, version: int | None = None) -> GameRecord:
        """Takes back at once at one screen and against the computer; between two people
        through a link, asks the other to agree (answer_takeback)."""
        record = self._seated(record, actor)
        if record.data["options"].get("opponent") != "remote":
            return self._change(record, version, lambda adapter, data: adapter.undo(data))
        adapter = self.adapter(record.kind)
        assert isinstance(adapter, TwoSided)
        if self.view(record).status == "over":
            raise Conflict("The game is over; its result stands.", code="game_over")
        if record.data.get("takeback"):
            raise Conflict("A take-back has been asked for already; wait for the answer.",
                           code="takeback_pending")
        # One request may hold both seats (a token plus the other player's browser cookie):
        # it asks for the seat that moved last, as resign acts for the side to move.
        lasts = {seat: adapter.last_move_of(record.data, seat) for seat in sorted(actor.seats)}
        moved = {seat: last for seat, last in lasts.items() if last is not None}
        if not moved:
            raise Conflict("There is no move of yours to take back.", code="nothing_to_undo")
        seat = max(moved, key=moved.__getitem__)

        def ask(_: GameAdapter, data: dict[str, Any]) -> int:
            data["takeback"] = {"by": seat}
            return 1

        return self._change(record, version, ask)

    def answer_takeback(self, record: GameRecord, actor: Actor, accept: bool,
                        version: int | None = None) -> GameRecord:
        """The other player's answer to a take-back request: accepted, the asker's last move
        and what followed are taken back; declined, play goes on."""
        record = self._seated(record, actor)
        asked = record.data.get("takeback")
        if not asked:
            raise Conflict("Nobody has asked to take a move back.", code="no_takeback")
        if actor.holds(asked["by"]):
            raise Conflict("You asked for this take-back; your friend answers it.",
                           code="not_your_answer")
        adapter = self.adapter(record.kind)
        assert isinstance(adapter, TwoSided)

        def answer(_: GameAdapter, data: dict[str, Any]) -> int:
            del data["takeback"]
            return adapter.take_back(data, asked["by"]) if accept else 1

        return self._change(record, version, answer)

    def resign(self, record: GameRecord, actor: Actor,
               version: int | None = None) -> GameRecord:
        """The actor's side loses by resignation (holding both sides: the side to move)."""
        record = self._seated(record, actor)
        adapter = self.adapter(record.kind)
        if not isinstance(adapter, TwoSided):
            raise Conflict("A puzzle has nobody to resign to.", code="cannot_resign")
        to_move = self.view(record).to_move
        seat = to_move if to_move is not None and actor.holds(to_move) else min(actor.seats)
        return self._change(record, version,
                            lambda _, data: adapter.lose(data, seat, "resign"))

    def rename(self, record: GameRecord, actor: Actor, name: str | None) -> GameRecord:
        """Shows `name` (clean_name's; None: none) on the actor's seats, to everyone at the
        game. Not tied to a version: a name may change while the other side moves."""
        if not actor.seated:
            raise NotSeated()

        def name_seats(_: GameAdapter, data: dict[str, Any]) -> int:
            names = data.setdefault("names", {})
            if all(names.get(seat) == name for seat in actor.seats):
                return 0
            for seat in actor.seats:
                if name:
                    names[seat] = name
                else:
                    names.pop(seat, None)
            return 1

        return self._change(record, None, name_seats)

    def amend(self, game_id: str, kind: str,
              change: Callable[[GameAdapter, dict[str, Any]], int],
              tries: int = 3) -> GameRecord:
        """Applies `change` to the game as it now stands, for what no player's move can make
        wrong (a review's progress): read afresh and tried again if another change lands
        between the read and the write, `tries` times before StaleVersion."""
        for attempt in range(tries):
            record = self.load(game_id, kind)
            try:
                return self._change(record, record.version, change)
            except StaleVersion:
                if attempt == tries - 1:
                    raise
        raise AssertionError("unreachable")

    def rematch(self, record: GameRecord, actor: Actor,
                caller: Caller) -> tuple[GameRecord, GameRecord | None]:
        """A new game of a finished one with the colours swapped, its seats held by the
        same people (their tokens and browsers): at once against the computer or at one
        screen; between two people through a link, once both have asked — the first ask
        is an offer the other accepts by asking too. Returns the game (its data's
        "rematch": who offered, and the new game's id once it exists) and the new game,
        or None while it is only offered."""
        record = self._seated(record, actor)
        adapter = self.adapter(record.kind)
        if not isinstance(adapter, TwoSided) or record.data.get("review_only"):
            raise Conflict("Only a game played here, between two sides, has a rematch.",
                           code="no_rematch")
        if self.view(record).status != "over":
            raise Conflict("The game is not over yet.", code="not_over")
        asked = dict(record.data.get("rematch") or {})
        if asked.get("game"):
            return record, self.load(asked["game"], record.kind)
        if record.data["options"].get("opponent") == "remote":
            if not asked:
                asked = {"by": sorted(actor.seats), "game": None}
                return self._change(record, None, lambda _, data: _put(data, asked)), None
            if actor.seats <= set(asked["by"]):
                raise Conflict("You offered a rematch; your friend's answer is awaited.",
                               code="rematch_offered")
        new = self._rematch_record(record, adapter, caller)
        self.store.create(new, self.public(new))
        self.live.changed(new.id)
        asked = {"by": asked.get("by", sorted(actor.seats)), "game": new.id}
        try:
            return self._change(record, record.version, lambda _, data: _put(data, asked)), new
        except StaleVersion:  # asked at the same moment from both seats: one rematch stands
            again = self.load(record.id, record.kind)
            started = (again.data.get("rematch") or {}).get("game")
            if not started:
                raise
            return again, self.load(started, record.kind)  # (ours is swept, never played)

    def _rematch_record(self, record: GameRecord, adapter: GameAdapter,
                        caller: Caller) -> GameRecord:
        """The rematch of `record`, not stored yet: its options with the colours swapped,
        each seat's holder (and name) at the other seat."""
        first, second = adapter.sides
        other = {first: second, second: first}
        options = dict(record.data["options"])
        if options.get("human") in other:
            options["human"] = other[options["human"]]
        data, version = adapter.new_game(options, self.rng())
        self.new_games.take(caller.address)
        clock.choose(data.get("clock"), data["options"])
        names = record.data.get("names") or {}
        if names:
            data["names"] = {other[seat]: name for seat, name in names.items() if seat in other}
        view = adapter.view(data)
        new = GameRecord(
            id=new_game_id(), kind=record.kind, version=version, data=data,
            owner=digest(caller.browser) if caller.browser else record.owner,
            outcome=adapter.outcome(data, view), invited=None,
            seats=tuple(dataclasses.replace(seat, seat=other[seat.seat])
                        for seat in record.seats))
        new.derived["view"] = view
        return new

    def update_options(self, record: GameRecord, actor: Actor, options: Mapping[str, Any],
                       version: int | None = None) -> GameRecord:
        record = self._seated(record, actor)
        rng = self.rng()
        return self._change(
            record, version, lambda adapter, data: adapter.set_options(data, options, rng))

    def expire(self, record: GameRecord) -> GameRecord:
        """Settles a clock that has run out: its side loses on time (at most once: the
        versioned write lets one server, one request, do it). The game as it now stands."""
        return self._settle_clock(record) or self.load(record.id, record.kind)

    def _settle_clock(self, record: GameRecord) -> GameRecord | None:
        """The game ended on time by this call, or None if its clock has not run out or
        another request (or instance) changed the game first."""
        loser = clock.flagged(record.data.get("clock"), self.now())
        adapter = self.adapter(record.kind)
        if loser is None or not isinstance(adapter, TwoSided):
            return record
        try:
            return self._change(record, None, lambda _, data: adapter.lose(data, loser, "time"))
        except StaleVersion:
            return None

    def expire_due(self) -> int:
        """Settles every clock that has run out (the clock watch of every instance calls
        this); returns how many games this call ended."""
        ended = 0
        for game_id in self.store.due(self.now()):
            try:
                record = self.load(game_id)
            except GameNotFound:
                continue
            settled = self._settle_clock(record)
            ended += settled is not None and settled.version != record.version
        return ended

    # -- the slow computer ----------------------------------------------------------------

    def owes_reply(self, record: GameRecord) -> bool:
        """Whether a slow computer is to move in this game (it thinks in computer_reply)."""
        adapter = self.adapter(record.kind)
        return isinstance(adapter, SlowComputer) and adapter.owes_reply(record.data,
                                                                        self.view(record))

    def admit_search(self, record: GameRecord, move: Any = None) -> Ticket | None:
        """A place in the worker pool for the computer's reply in this game, taken before
        the human's `move` is applied — or `Busy` at once, changing nothing. None when the
        game has no slow computer to think, or no move now can hand it the turn."""
        adapter = self.adapter(record.kind)
        if not isinstance(adapter, SlowComputer):
            return None
        if self.view(record).status != "playing":
            return None  # over, or scoring: no move there can hand the computer the turn
        if move is not None and not adapter.may_hand_over(move):
            return None
        seconds = adapter.search_seconds(record.data)
        if seconds is None:
            return None
        return self.pool.admit(seconds, "The computer is busy thinking in other games; "
                                        "nothing was played. Try again in a few seconds.")

    async def computer_reply(self, record: GameRecord,
                             ticket: Ticket | None = None) -> GameRecord:
        """If it is a slow computer's turn, lets it think in a worker process and plays its
        move. The human's move was stored before, so a failed search loses nothing; if the
        game changed meanwhile (an undo, another reply), the stale result is dropped.
        Uses `ticket` (from admit_search) or takes its own place in the pool."""
        adapter = self.adapter(record.kind)
        if not isinstance(adapter, SlowComputer):
            if ticket is not None:
                ticket.release()
            return record
        job = None
        try:
            if not adapter.owes_reply(record.data, self.view(record)):
                return record
            job = adapter.computer_job(record.id, record.data, self.rng())
            if job is None:
                return record
            ticket = ticket or self.admit_search(record)
            assert ticket is not None
            self.live.thinking(record.id, job.seat, True)
            result = await self.pool.run(ticket, job.run, job.payload,
                                         search_deadline(job.seconds))
        finally:
            if ticket is not None:
                ticket.release()
            if job is not None:
                self.live.thinking(record.id, job.seat, False)
        slow = adapter  # narrowed to SlowComputer above
        try:
            return await run_in_threadpool(
                self._change, record, record.version,
                lambda _, data: slow.apply_computer(data, result))
        except StaleVersion:
            return await run_in_threadpool(self.load, record.id)

    # -- what clients see -----------------------------------------------------------------

    def view(self, record: GameRecord) -> GameView:
        """The game as its adapter views it, worked out once per record (kept in its
        `derived`): a Go game is replayed from its moves for it, and a request looks at it
        several times — before a change, to answer, to store the public view."""
        view = record.derived.get("view")
        if not isinstance(view, GameView):
            view = record.derived["view"] = self.adapter(record.kind).view(record.data)
        return view

    def public(self, record: GameRecord) -> dict[str, Any]:
        """The Game as anyone with the link sees it (the events carry this)."""
        view = self.view(record)
        held = {seat.seat: seat.holder for seat in record.seats}
        if record.invited:
            held[record.invited] = "free"
        order = self.adapter(record.kind).sides  # the seats in the game's order: X before O
        holders = {seat: held[seat] for seat in sorted(
            held, key=lambda seat: order.index(seat) if seat in order else len(order))}
        return {
            "id": record.id,
            "game": record.kind,
            "version": record.version,
            "status": view.status,
            "to_move": view.to_move,
            "result": view.result,
            "options": view.options,
            "state": view.state,
            "seats": holders,
            "takeback": record.data.get("takeback"),
            "names": record.data.get("names") or {},
            "rematch": record.data.get("rematch"),
            "clock": clock.public(record.data.get("clock"), self.now()),
        }

    def to_json(self, record: GameRecord, caller: Caller | None = None,
                token: str | None = None) -> dict[str, Any]:
        """The Game for one caller: the public view, the seats they hold ("you"), how many
        watch, the invitation while a seat is free (for its creator), and their token when
        it was just made (creation, joining)."""
        game = self.public(record)
        actor = self.actor(record, caller) if caller else WATCHER
        game["you"] = sorted(actor.seats)
        game["watching"] = self.live.watching(record.id)
        if caller is not None and actor.seated:
            code = self.invite(record, Caller(token or caller.token, caller.browser))
            if code:
                game["invite"] = f"/{record.kind}/{record.id}?invite={code}"
        if token:
            game["token"] = token
        return game

    def games_of(self, caller: Caller, limit: int = 100) -> list[GameRecord]:
        """The caller's browser's games — created by it or seated from it — that a person
        has moved in or that have ended, the most recently played first (a game merely
        opened, or whose options alone changed, is not one: app/store.py's `played_at`)."""
        if not caller.browser:
            return []
        return self.store.games_of(digest(caller.browser), limit, played=True)
