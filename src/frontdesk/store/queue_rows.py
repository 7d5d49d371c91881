"""What Queues mode shows of a queue and of a followed conversation: immutable records, so a
tick where nothing moved is no change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..api.models import AVAILABILITY_CHANNELS, AvailabilityOutcome

__all__ = ["ChannelState", "PositionState", "QueueRow", "Waiting", "channel_states"]


@dataclass(frozen=True, slots=True)
class ChannelState:
    """One chat channel of a queue: available, or not with how many wait."""

    channel: str
    available: bool | None
    waiting: int | None = None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class QueueRow:
    """One queue as Queues mode shows it (``channels`` empty: availability not known yet)."""

    queue_id: str
    name: str
    priority: int | None
    is_default: bool
    members: int | None
    channels: tuple[ChannelState, ...]
    #: conversations waiting (Open, unassigned, queued here); None: not counted yet
    waiting: int | None = None
    #: more wait than one page counts (``waiting`` is then a lower bound)
    waiting_more: bool = False
    #: since when the oldest waiting conversation waits (None: none waits, or not known yet)
    oldest: datetime | None = None
    #: ``oldest`` is the oldest for sure (False: a lower bound on the longest wait)
    oldest_exact: bool = True


@dataclass(frozen=True, slots=True)
class Waiting:
    """What one waiting refresh of a queue found."""

    count: int
    more: bool
    oldest: datetime | None
    exact: bool


@dataclass(frozen=True, slots=True)
class PositionState:
    """Where a followed conversation stands.

    ``waiting`` False once the service says it is not waiting (``was_waiting`` tells "no
    longer waiting" from "not waiting at all"); ``problem`` when it could not be asked.
    """

    conversation_id: int
    position: int | None = None
    queued_at: datetime | None = None
    queue_name: str | None = None
    waiting: bool = True
    was_waiting: bool = False
    checked: bool = False
    problem: str | None = None


def channel_states(outcomes: Sequence[AvailabilityOutcome]) -> tuple[ChannelState, ...]:
    """The three chat channels' states, in their usual order, from the service's outcomes."""
    by_channel: dict[str, ChannelState] = {}
    for outcome in outcomes:
        found = outcome.channel_availability
        if found is not None:
            by_channel[found.generic_channel_name] = ChannelState(
                found.generic_channel_name, found.availability == "Available", found.queue_size)
        elif outcome.error is not None:
            by_channel[outcome.error.channel] = ChannelState(outcome.error.channel, None,
                                                             problem=outcome.error.message)
    ordered = [by_channel.pop(c, ChannelState(c, None)) for c in AVAILABILITY_CHANNELS]
    ordered += [by_channel[c] for c in sorted(by_channel)]
    return tuple(ordered)
