"""Live topics by typed key: a topic's name carries the type of its value.

``live.get(INBOX)`` is an ``int`` (or None before the first poll) for the type checker, and a
listener reads a change as ``HOURS.of(topic, value)``: the value, typed, when the change is of
that topic, else None. A key is a ``str`` (its name), so it compares equal to the name a
screen lists in ``TOPICS``. Topics of one mode are declared beside their store (``team``,
``queues``, ``threads``); the session's own are here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

if TYPE_CHECKING:
    from ..api.models import AnonymizationRequestStatus, UserPresence
    from .connection import ConnectionState
    from .session import HoursNow
    from .threads import ThreadState

T = TypeVar("T")


class TopicKey(str, Generic[T]):
    """The name of a live topic whose values are ``T``."""

    __slots__ = ()

    def of(self, topic: str, value: Any) -> T | None:
        """``value`` when a change of ``topic`` is of this topic, else None."""
        return cast("T", value) if topic == self else None


#: the inbox's version: it changed (a poll, an action)
INBOX: TopicKey[int] = TopicKey("inbox")
#: my presence, as the service last reported it
MY_PRESENCE: TopicKey[UserPresence] = TopicKey("presence:me")
#: whether the business is open, and until (or from) when
HOURS: TopicKey[HoursNow] = TopicKey("hours")
#: how the console is connected (announced, not polled)
CONNECTION: TopicKey[ConnectionState] = TopicKey("connection")
#: why the local database cannot be written, or None once it can again (announced)
DISK: TopicKey[str | None] = TopicKey("disk")
#: the open thread (registered while one is open)
THREAD: TopicKey[ThreadState] = TopicKey("thread")
#: how many replies wait in the outbox (announced)
OUTBOX: TopicKey[int] = TopicKey("outbox")
#: the role of the member signed in through a team gateway, once the gateway said it
#: (announced; never without a gateway)
MEMBER: TopicKey[str] = TopicKey("member")
#: whether the team gateway's change stream is up (announced as it goes up and down)
PUSHED: TopicKey[bool] = TopicKey("pushed")


def anonymization_topic(request_id: str) -> TopicKey[AnonymizationRequestStatus]:
    """The topic that follows one anonymisation request until it is processed."""
    return TopicKey(f"anonymization:{request_id}")
