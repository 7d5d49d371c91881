"""The connection as the header shows it: live, retrying (and why), offline, signed out,
the key refused, or no service at the base URL; set from the outcome of each poll.

:class:`LiveConnection` is a part of :class:`~frontdesk.store.live.LiveStore`, which polls.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api.errors import (
    ApiError,
    RateLimited,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
    UnexpectedResponse,
)
from .topics import CONNECTION

if TYPE_CHECKING:
    from .live_topic import Topic

__all__ = ["NO_SERVICE_TEXT", "REFUSED_TEXT", "ConnectionState", "Link", "LiveConnection"]

log = logging.getLogger("frontdesk.store.live")


class Link(StrEnum):
    """How the console is connected to the service."""

    CONNECTING = "connecting"
    LIVE = "live"
    RETRYING = "retrying"
    OFFLINE = "offline"
    #: the console could not sign in (no API key, say): cached data only, until restarted
    SIGNED_OUT = "signed out"
    #: the service refuses the API key: cached data only, until a new key is picked up
    REFUSED = "key refused"
    #: the base URL answers, but not as the service (404s, pages that are not its JSON)
    NO_SERVICE = "no service"


#: What the header says while the service refuses the key: the state and its fix.
REFUSED_TEXT = "key refused — run `frontdesk login`"
#: What the header says while the base URL does not lead to the service.
NO_SERVICE_TEXT = "no service at this address — check the base URL"


class ConnectionState(NamedTuple):
    """What the header shows about the connection."""

    link: Link = Link.CONNECTING
    retry_at: float | None = None
    problem: str | None = None
    #: a few words for the header: "unreachable", "unreadable answers", "error 503", …
    reason: str | None = None

    def describe(self, now: float) -> str:
        """``live``, ``unreadable answers — retrying in 8 s`` or ``offline — showing cached
        data``."""
        if self.link is Link.RETRYING and self.retry_at is not None:
            wait = f"retrying in {max(0, round(self.retry_at - now))} s"
            return f"{self.reason} — {wait}" if self.reason else wait
        if self.link is Link.OFFLINE:
            return "offline — showing cached data"
        if self.link is Link.SIGNED_OUT:
            return f"signed out — {self.reason}" if self.reason else "signed out"
        if self.link is Link.REFUSED:
            return REFUSED_TEXT
        if self.link is Link.NO_SERVICE:
            return NO_SERVICE_TEXT
        return self.link.value


def _reason(error: ApiError) -> str:
    """A few words on why the service cannot be used right now."""
    if isinstance(error, UnexpectedResponse):
        return "unreadable answers"
    if isinstance(error, TransportError):
        return "unreachable"
    if isinstance(error, RateLimited):
        return "rate limited"
    if error.status is not None:
        return f"service error {error.status}"
    return "service error"


class LiveConnection:
    """The live store's connection state (a part of ``LiveStore``)."""

    connection: ConnectionState
    on_refused: Callable[[], None] | None
    _topics: dict[str, Topic[Any]]
    _clock: Callable[[], float]

    if TYPE_CHECKING:
        def _notify(self, name: str, value: Any) -> None: ...
        def poke(self, name: str | None = None) -> None: ...

    def report(self, error: ApiError) -> None:
        """An error outside a poll (signing in) that says something about the connection."""
        self._set_connection(error, 0.0, 1)

    def key_changed(self) -> None:
        """A new key is in use: connect again (every topic polls now)."""
        for topic in self._topics.values():
            if isinstance(topic.error, Unauthorized):
                topic.failures = 0
        self.connection = ConnectionState(Link.CONNECTING)
        self._notify(CONNECTION, self.connection)
        self.poke()

    def _set_connection(self, error: ApiError, delay: float, failures: int) -> None:
        if isinstance(error, Unauthorized):
            state = ConnectionState(Link.REFUSED, None, str(error), "key refused")
            if self.connection.link is not Link.REFUSED:
                self.connection = state
                self._notify(CONNECTION, state)
            if self.on_refused is not None:
                try:
                    self.on_refused()
                except Exception:  # a boundary: a listener's bug must not stop the polls
                    log.exception("refused-key listener failed")
            return
        unreachable = isinstance(error, TransportError | ServiceUnavailable | RateLimited)
        if not unreachable or self.connection.link is Link.NO_SERVICE:
            return  # the service answered: a refusal is the topic's problem, not the link's
        garbled = isinstance(error, UnexpectedResponse)
        offline = isinstance(error, TransportError) and not garbled and failures >= 2
        link = Link.OFFLINE if offline else Link.RETRYING
        state = ConnectionState(link, self._clock() + delay, str(error), _reason(error))
        if state.link != self.connection.link or state.problem != self.connection.problem:
            self.connection = state
            self._notify(CONNECTION, state)
        else:
            self.connection = state

    def sign_out(self, reason: str, problem: str) -> None:
        """The console cannot reach the service as anyone (no key): say so in the header."""
        self.connection = ConnectionState(Link.SIGNED_OUT, None, problem, reason)
        self._notify(CONNECTION, self.connection)

    def no_service(self, problem: str) -> None:
        """The base URL answers, but not as the service: say so in the header until a topic
        that failed there answers (``problem`` is the one line saying what it answered)."""
        if self.connection.link is Link.REFUSED:
            return  # the key's refusal is the fix to make first
        state = ConnectionState(Link.NO_SERVICE, None, problem, "no service")
        if state != self.connection:
            self.connection = state
            self._notify(CONNECTION, state)

    def _set_live(self) -> None:
        if self.connection.link is not Link.LIVE:
            self.connection = ConnectionState(Link.LIVE)
            self._notify(CONNECTION, self.connection)
