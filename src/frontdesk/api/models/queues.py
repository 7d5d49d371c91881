"""Queues, their members, availability and conversation positions."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import Input, Record, UtcDateTime, Uuid

#: The chat channels whose availability a queue reports.
AVAILABILITY_CHANNELS = ("adachat", "kindlychat", "digitalgeniuschat")

OfferingAlgorithm = Literal[
    "AgentPriorityOneAtATimeRandom",
    "AllAtOnce",
    "AgentPriorityLongestIdle",
    "AgentPriorityAllAtOnce",
    "LongestIdle",
    "OneAtATimeRandom",
]
ThresholdName = Literal[
    "SlaTimeLimit", "AvailableAgents", "LongestWait", "SlaPercentage", "WaitingConversations"
]


class QueueUsages(Record):
    """Which channels use a queue."""

    queue_id: str
    usages: dict[str, list[str]] = Field(default_factory=dict)


class Queue(Record):
    """A queue of conversations waiting for an agent."""

    id: str
    name: str
    is_default: bool = False
    organization_id: str | None = None
    queue_thresholds: dict[str, int] = Field(default_factory=dict)
    sla_calculation_method: str | None = None
    offer_timeout: int | None = None
    offering_algorithm: str | None = None
    member_list_type: str | None = None
    usages: QueueUsages | None = None
    wrapup_timeout: int | None = None
    priority: int | None = None
    offer_abandoned_conversations: bool | None = None
    do_not_offer_timeouts: dict[str, int] = Field(default_factory=dict)
    is_do_not_offer_enabled: bool = False
    is_preferred_agent_enabled: bool | None = None
    preferred_agent_timeouts: dict[str, int] | None = None
    preferred_agent_offline_timeout: int | None = None
    personal_agent_offline_timeout: int | None = None
    is_restricted: bool | None = None


class QueueRequest(Input):
    """The settings of a new queue."""

    name: str = Field(min_length=1, max_length=255)
    call_functionality: bool
    is_default: bool
    is_do_not_offer_enabled: bool
    queue_thresholds: dict[ThresholdName, int] | None = None
    offer_timeout: int | None = Field(default=None, ge=0, le=86_400)
    offer_algorithm: OfferingAlgorithm | None = None
    wrapup_timeout: int | None = Field(default=None, ge=0, le=86_400)
    priority: int | None = Field(default=None, ge=0, le=1000)
    offer_abandoned_conversations: bool | None = None
    do_not_offer_timeouts: dict[str, int] | None = None
    preferred_agent_timeouts: dict[str, int] | None = None
    is_preferred_agent_enabled: bool | None = None
    preferred_agent_offline_timeout: int | None = Field(default=None, ge=0, le=86_400)
    personal_agent_offline_timeout: int | None = Field(default=None, ge=0, le=86_400)
    is_restricted: bool | None = None


class CreateQueueInput(Input):
    """A new queue: the settings are wrapped in ``request``."""

    request: QueueRequest


class QueueMember(Record):
    """An agent who takes conversations from a queue."""

    agent_id: str
    priority: int | None = None


class QueueMembersInput(Input):
    """Agents to assign to or remove from a queue."""

    agent_ids: list[Uuid] = Field(min_length=1, max_length=500)


class ChannelAvailability(Record):
    """Whether a chat channel of a queue can take a conversation now."""

    type: str = Field(default="GenericChannel", alias="_type")
    generic_channel_name: str
    availability: str = Field(description="Available or NotAvailable")
    queue_size: int | None = None


class AvailabilityError(Record):
    """Why a channel's availability could not be read."""

    type: str = Field(alias="_type")
    channel: str
    message: str


class AvailabilityOutcome(Record):
    """The availability of one channel: ``Success`` or ``Failure``."""

    type: str = Field(alias="_type")
    channel_availability: ChannelAvailability | None = None
    error: AvailabilityError | None = None


class ConversationPosition(Record):
    """Where a conversation stands in its queue (approximate), and since when it waits."""

    position: int | None = None
    queued_at: UtcDateTime


__all__ = [
    "AVAILABILITY_CHANNELS",
    "AvailabilityError",
    "AvailabilityOutcome",
    "ChannelAvailability",
    "ConversationPosition",
    "CreateQueueInput",
    "Queue",
    "QueueMember",
    "QueueMembersInput",
    "QueueRequest",
    "QueueUsages",
]
