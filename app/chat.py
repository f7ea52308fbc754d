"""The chat between the two players of a friend game (issue 34): they write, anyone with the
link reads. Start at Chat.say.

A message is kept with its game (app/store.py's chat table) but is no part of the game's
versioned data, so a message never makes a move stale nor waits for one. Each message is
announced on the game's event stream as a `chat` event carrying its id (app/live.py, to the
other instances too); a client that hears it, or opens the stream, reads the chat again.

Bounds: a message is one line of at most MESSAGE_LENGTH characters (no control or invisible
characters); a seat says at most CHAT_BURST messages at once, then CHAT_PER_MINUTE a
minute (per instance); a game holds at most MESSAGES_KEPT messages; a read returns at most
MESSAGES_SHOWN. Templates escape the text.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from app.errors import ApiError, BadOptions, Conflict
from app.limits import RateLimiter
from app.seats import Actor, plain_line
from app.store import GameRecord, GameStore

MESSAGE_LENGTH = 300  # characters of one message, at most
MESSAGES_KEPT = 500  # messages of one game, at most
MESSAGES_SHOWN = 100  # the last messages a read returns
CHAT_BURST = 5  # messages a seat may send at once...
CHAT_PER_MINUTE = 30.0  # ...then this many a minute


class Announcer(Protocol):
    def said(self, game_id: str, message_id: int) -> None: ...


class NoChat(ApiError):
    status = 409
    code = "no_chat"

    def __init__(self) -> None:
        super().__init__("Only a game between two friends through a link has a chat.")


def clean_message(text: str) -> str:
    """A message as it is stored and shown (seats.plain_line's, at most MESSAGE_LENGTH
    characters); BadOptions, with a sentence, for anything else — an empty one too."""
    message = plain_line(text, MESSAGE_LENGTH, "message", "bad_message")
    if not message:
        raise BadOptions("A message needs some text.", code="empty_message")
    return message


class Chat:
    """The chats of all games, over the store; safe to share between threads."""

    def __init__(self, store: GameStore, live: Announcer,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.live = live
        self.clock = clock
        self.rate = RateLimiter(CHAT_PER_MINUTE, CHAT_BURST,
                                "You are sending messages faster than the chat allows; "
                                "nothing was sent. Try again in {seconds} s.")

    def say(self, record: GameRecord, actor: Actor, text: str) -> dict[str, Any]:
        """Adds a seated player's message to a friend game's chat and tells everyone at the
        game; the message. Refused (nothing stored) for a watcher (403), in a game that is
        no friend game (409), for a message that is no message (422), too fast (429), or in
        a chat that is full (409)."""
        if record.data["options"].get("opponent") != "remote":
            raise NoChat()
        if not actor.seated:
            raise ApiError("Only the players write in the chat; watchers read it.",
                           code="not_seated", status=403)
        message = clean_message(text)
        seat = min(actor.seats)  # a friend game: each person holds one seat
        self.rate.take(f"{record.id} {seat}")
        name = (record.data.get("names") or {}).get(seat)
        said_at = self.clock()
        message_id = self.store.say(record.id, seat, name, message, said_at, MESSAGES_KEPT)
        if message_id is None:
            raise Conflict(f"This game's chat is full ({MESSAGES_KEPT} messages); nothing "
                           "was sent.", code="chat_full")
        self.live.said(record.id, message_id)
        return {"id": message_id, "seat": seat, "name": name, "text": message,
                "said_at": said_at}

    def messages(self, record: GameRecord) -> list[dict[str, Any]]:
        """The game's last MESSAGES_SHOWN messages, oldest first (none but in friend
        games)."""
        if record.data["options"].get("opponent") != "remote":
            return []
        return self.store.chat(record.id, MESSAGES_SHOWN)
