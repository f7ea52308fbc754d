"""Who sits at a game: seats, the secrets that hold them, and invitations.

Start at `seats_for`. Every game has seats — "X"/"O" (tic-tac-toe), "black"/"white" (Go),
"player" (the knight's tour) — and each is held by a person, by the computer, or nobody yet
(the seat a link invites a friend to). A person holds a seat with a token: a secret of 256
bits from `secrets`, shown once and stored only as its SHA-256. A browser holds its seats
with its browser cookie (HttpOnly, SameSite=Lax; app/middleware.py), stored the same way, so
opening an invite link seats a friend with no extra step. An invitation is a code of the same
strength, spent by the first join; it is stored as a digest too, plus copies sealed with the
creator's secrets so that the creator — and only they — can see the link again. `Actor` is
what a request holds of one game: the seats its token or cookie opens — nothing, for a
watcher.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random
import secrets
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.errors import BadOptions, Conflict

TOKEN_BYTES = 32  # 256 bits: the issue asks at least 128

# How a seat is described to the people in the game, by its kind of holder.
COMPUTER, PERSON, FREE = "computer", "person", "free"


NAME_LENGTH = 24  # characters of a player's chosen name, at most


def plain_line(text: str, most: int, noun: str, code: str) -> str:
    """What a person wrote (a name, a chat message) as it is stored and shown: one line,
    spaces collapsed, at most `most` characters, letters, digits, punctuation and symbols
    only (no control or invisible formatting characters, which could disguise it); "" for a
    blank one. BadOptions (`code`), with a sentence about "a `noun`", for anything else.
    Templates escape it."""
    line = " ".join(unicodedata.normalize("NFC", text).split())
    if len(line) > most:
        raise BadOptions(f"A {noun} has at most {most} characters; this one has "
                         f"{len(line)}.", code=code)
    if any(unicodedata.category(char)[0] == "C" for char in line):
        raise BadOptions(f"A {noun} is made of letters, digits, spaces and punctuation; this "
                         "one has a control or invisible character.", code=code)
    return line


def clean_name(text: str) -> str | None:
    """A player's chosen name (plain_line's, at most NAME_LENGTH characters); None for a
    blank one (no name)."""
    return plain_line(text, NAME_LENGTH, "name", "bad_name") or None


def new_secret() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(secret: str) -> str:
    """How a token, invite code or browser id is stored: never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same(stored: str | None, secret: str | None) -> bool:
    """Whether `secret` is the one `stored` was made from (constant time)."""
    if not stored or not secret:
        return False
    return hmac.compare_digest(stored, digest(secret))


def new_invite() -> tuple[str, bytes]:
    """An invitation code (for the link) and its raw bytes (for `seal`)."""
    raw = secrets.token_bytes(TOKEN_BYTES)
    return base64.urlsafe_b64encode(raw).decode().rstrip("="), raw


def _pad(secret: str, game_id: str) -> bytes:
    return hmac.new(secret.encode(), f"invite:{game_id}".encode(), hashlib.sha256).digest()


def seal(raw: bytes, secret: str, game_id: str) -> str:
    """The invitation sealed with a seated person's secret (token or browser id), so the
    server can show it to them again — and to nobody else: without that secret the stored
    value is a one-time pad's ciphertext."""
    return bytes(a ^ b for a, b in zip(raw, _pad(secret, game_id), strict=True)).hex()


def unseal(sealed: str | None, secret: str | None, game_id: str) -> str | None:
    """The invitation code, if `secret` is the one it was sealed with (checked by the
    caller against the code's digest)."""
    if not sealed or not secret:
        return None
    raw = bytes(a ^ b for a, b in zip(bytes.fromhex(sealed), _pad(secret, game_id),
                                      strict=True))
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass(frozen=True)
class SeatPlan:
    """Who holds each seat of a new game: the creator's seats, the computer's, the one a
    link invites a friend to (if any)."""

    creator: tuple[str, ...]
    computer: tuple[str, ...]
    invited: str | None


def seats_for(sides: tuple[str, ...], options: Mapping[str, Any],
              rng: random.Random) -> SeatPlan:
    """The seats of a new game with these `sides` (its adapter's) and these (validated)
    options: at one screen the creator holds every seat; against the computer the creator's
    colour; with "remote" the creator's colour ("human", or a random one if "random") and
    the other is invited."""
    if len(sides) == 1:
        return SeatPlan(creator=sides, computer=(), invited=None)
    opponent = options.get("opponent", "local")
    if opponent == "local":
        return SeatPlan(creator=sides, computer=(), invited=None)
    human = options.get("human")
    if human not in sides:
        human = rng.choice(sides)
    other = sides[1 - sides.index(human)]
    if opponent == "remote":
        return SeatPlan(creator=(human,), computer=(), invited=other)
    return SeatPlan(creator=(human,), computer=(other,), invited=None)


@dataclass(frozen=True)
class Seat:
    """One seat of a stored game and the digests of what holds it."""

    seat: str
    token: str | None = None  # digest of the holder's token; None: the computer's or free
    browser: str | None = None  # digest of the holder's browser id, when seated from one
    computer: bool = False

    @property
    def holder(self) -> str:
        if self.computer:
            return COMPUTER
        return PERSON if self.token or self.browser else FREE


@dataclass(frozen=True)
class Actor:
    """What one request holds in one game: the seats its token or browser cookie opens."""

    seats: frozenset[str]

    @property
    def seated(self) -> bool:
        return bool(self.seats)

    def holds(self, seat: str | None) -> bool:
        return seat is not None and seat in self.seats


WATCHER = Actor(frozenset())


def actor_of(seats: Iterable[Seat], token: str | None, browser: str | None) -> Actor:
    """The seats of a game that `token` (Authorization: Bearer) or `browser` (the cookie)
    holds."""
    held = frozenset(seat.seat for seat in seats
                     if same(seat.token, token) or same(seat.browser, browser))
    return Actor(held) if held else WATCHER


def fixed_options(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Refuses changes a started game cannot take: whether it is played between two people
    through a link (whose seats are their players'). Its clock: app/games/clock.py
    `keep_time_control`."""
    if "remote" in (before["opponent"], after["opponent"]) \
            and before["opponent"] != after["opponent"]:
        raise Conflict("A game with a friend through a link stays one: its seats are "
                       "theirs.", code="fixed_option")
    if before["opponent"] == "remote" and after["human"] != before["human"]:
        raise Conflict("In a game with a friend, each keeps the side they sit at.",
                       code="fixed_option")
