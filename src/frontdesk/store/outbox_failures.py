"""What the outbox makes of a failed attempt: one retrying can fix (the service unreachable,
busy or limiting, or the key refused) or not, and the text kept as the item's error."""

from __future__ import annotations

from frontdesk.api.errors import (
    ApiError,
    RateLimited,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
)

__all__ = ["TRANSIENT", "describe", "key_refused"]

TRANSIENT = (TransportError, ServiceUnavailable, RateLimited)


def key_refused(error: ApiError) -> bool:
    """The service refused the key (401), not the reply: it waits for a key that works
    (the session picks up a new one) instead of failing."""
    return isinstance(error, Unauthorized) and error.status == 401


def describe(error: BaseException) -> str:
    """The text kept as an item's ``last_error``."""
    if isinstance(error, ApiError):
        title = type(error).title
        return f"{title}: {error.message}" if error.message else title
    return f"{type(error).__name__}: {error}"
