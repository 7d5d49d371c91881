"""A console on a team gateway listens to the gateway's change stream instead of polling.

While the stream is up (:attr:`ChangeStream.pushed`), each notice makes the console read at
once what changed (the conversations named, the thread open), from the gateway's shared
answers — only what the notice says changed, when it says (a tag: the conversation's tags; a
note, a delivery status or a rating: the open thread alone, which shows them); the inbox
stops asking the service what changed but for a safety search every :data:`SAFETY_POLL`
seconds. When the stream drops, the inbox polls by itself again at once (the header says so)
and the stream is tried again after a backoff; listening again, the console is first told
what it missed.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..api.errors import ApiError, NotFound
from ..api.models.gateway import CHANGED_DELIVERY, CHANGED_NOTES, CHANGED_RATING, CHANGED_TAGS
from .topics import INBOX, PUSHED, THREAD

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .inbox import InboxStore
    from .live import LiveStore

__all__ = ["RETRY_MAX", "SAFETY_POLL", "ChangeStream"]

log = logging.getLogger("frontdesk.store.changes")

#: Seconds between the inbox's own searches for what changed while the stream is up: a
#: stream gone silent is noticed by its keep-alives, so this only guards against a gateway
#: that keeps the stream up but stopped telling (each console's search is its own: with 200
#: consoles, one every 300 s is 0.67 requests a second).
SAFETY_POLL = 300.0
#: The longest wait, in seconds, before listening again after the stream dropped.
RETRY_MAX = 30.0
#: Changes the inbox does not show (the open thread does): told of them alone, it reads nothing.
THREAD_ONLY = frozenset({CHANGED_NOTES, CHANGED_DELIVERY, CHANGED_RATING})


class ChangeStream:
    """The gateway's change stream as the console hears it."""

    def __init__(self, client: Callable[[], ApiClient], live: LiveStore, inbox: InboxStore, *,
                 rng: random.Random | None = None) -> None:
        self._client = client
        self._live = live
        self._inbox = inbox
        self._rng = rng or random.Random()
        self._last: int | None = None
        self.pushed = False
        """Whether the stream is up (the inbox then polls only for safety)."""
        self.absent = False
        """Whether the gateway has no change stream (an older one, or started without)."""
        self.dropped = False
        """Whether the stream was up and dropped (the console polls by itself until it is
        up again: the header says so)."""
        self.notices = 0

    async def run(self) -> None:
        """Listen, and listen again after each drop, for as long as the session runs."""
        failures = 0
        while True:
            try:
                async for notice in self._client().gateway.changes(last_seen=self._last):
                    failures = 0
                    self._heard(notice.kind, notice.conversations, notice.what)
                    if notice.seq is not None:
                        self._last = notice.seq
            except NotFound:
                self.absent = True
                self._set(False)
                return  # this gateway pushes nothing: the console polls, as without one
            except ApiError as error:
                log.info("the gateway's change stream dropped: %s", error)
            self._set(False)
            failures += 1
            delay = min(RETRY_MAX, 2.0 ** min(failures, 5)) * (0.5 + self._rng.random() / 2)
            await self._live.sleep(delay)

    def _heard(self, kind: str, conversations: list[int], what: list[str]) -> None:
        self.notices += 1
        if kind == "hello":
            self._set(True)
            return
        said = frozenset(what)
        if kind == "conversations" and said and said <= THREAD_ONLY:
            self._live.poke(THREAD)
            return
        if kind == "conversations" and said == {CHANGED_TAGS}:
            self._inbox.want_tags(conversations)
        elif kind == "conversations":
            self._inbox.heard(conversations)
        elif kind == "reset":
            self._inbox.look_everywhere()
        self._live.poke(INBOX)
        self._live.poke(THREAD)

    def _set(self, pushed: bool) -> None:
        if pushed == self.pushed:
            return
        self.pushed = pushed
        self.dropped = not pushed
        self._inbox.pushed = SAFETY_POLL if pushed else None
        if not pushed:
            self._live.poke(INBOX)  # what changed while nobody said: looked for now
        self._live.announce(PUSHED, pushed)
