"""The one way an action says it did not happen: :class:`Refused`.

Every store action the service or one of the console's own rules refuses raises
``Refused``; its ``reason`` is one line for a person ("Could not close #12: Conversation is
already closed"), which the screen shows as it is. Nothing is refused by a return value or a
notice on the side. What is not a refusal (a bug, a surprise) is not caught into one: it
reaches the console's one worker-failure handler.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from enum import StrEnum

from ..api.errors import ApiError, TransportError


class Refusal(StrEnum):
    """Who refused, and whether asking again differently would do."""

    #: the service refused (its words are in ``reason``, its error in ``error``)
    SERVICE = "service"
    #: the console refused before sending (a rule: bad input, not signed in, …)
    RULE = "rule"
    #: the service refused because something is still open; repeating with force would do
    #: it (an end user with open conversations, for anonymisation)
    NEEDS_FORCE = "needs force"
    #: no agent is signed in yet, so nothing can be written in anyone's name; asking again
    #: once signed in would do (the console keeps what was typed)
    NOT_SIGNED_IN = "not signed in"
    #: the service could not be reached or did not answer usefully, so nothing was checked
    #: either way (signing in: a console may still open on its cached data)
    UNREACHABLE = "unreachable"
    #: no end user has the email address given; creating one would do (a new conversation
    #: to a new customer)
    UNKNOWN_ADDRESS = "unknown address"


class Refused(Exception):
    """An action that did not happen, and why, in words for a person."""

    def __init__(self, reason: str, *, kind: Refusal | None = None,
                 error: ApiError | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        #: the service's refusal when ``error`` is given, else a rule's
        self.kind = kind if kind is not None else (
            Refusal.SERVICE if error is not None else Refusal.RULE)
        #: the service's error, when the service refused
        self.error = error

    @property
    def passing(self) -> bool:
        """Whether asking again may succeed with nothing changed: the request never left
        (not connected yet, no connection), so nothing was refused."""
        return isinstance(self.error, TransportError) and not self.error.sent


@contextlib.contextmanager
def refusals(what: str) -> Iterator[None]:
    """Turn the client's errors inside the block into :class:`Refused`
    (``what: the service's message``; with no ``what``, the error's own line: its kind,
    status, message and call, for reads whose screen has no words of its own)."""
    try:
        yield
    except ApiError as error:
        raise Refused(f"{what}: {error.message}" if what else str(error),
                      error=error) from error
