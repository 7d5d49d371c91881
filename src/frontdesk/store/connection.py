"""The connection as the header shows it: live, retrying (and why), offline, signed out,
the key refused, or no service at the base URL; set from the outcome of each poll.

:class:`~frontdesk.store.live.LiveStore`, which polls, keeps it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from ..api.errors import (
    ApiError,
    RateLimited,
    TransportError,
    UnexpectedResponse,
)

__all__ = ["NO_SERVICE_TEXT", "REFUSED_TEXT", "ConnectionState", "Link", "reason_of"]


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


def reason_of(error: ApiError) -> str:
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
