"""Webhooks: subscriptions that have the service POST each chosen event to a receiver's URL,
signed with the subscription's secret, and the delivery status and logs of each event."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field

from .common import Input, Record, UtcDateTime


class WebhookEvent(StrEnum):
    """Every kind of event a subscription can ask for, as published."""

    CONVERSATION_CREATED = "ConversationCreated"
    CONVERSATION_OPEN = "ConversationOpen"
    CONVERSATION_PENDING = "ConversationPending"
    CONVERSATION_PENDING_EXPIRED = "ConversationPendingExpired"
    CONVERSATION_CLOSED = "ConversationClosed"
    CONVERSATION_ABANDONED = "ConversationAbandoned"
    CONVERSATION_ASSIGNED = "ConversationAssigned"
    CONVERSATION_UNASSIGNED = "ConversationUnassigned"
    CONVERSATION_TRANSFERRED = "ConversationTransferred"
    CONVERSATION_ENQUEUED = "ConversationEnqueued"
    CONVERSATION_MESSAGE_ADDED = "ConversationMessageAdded"
    CONVERSATION_NOTE_ADDED = "ConversationNoteAdded"
    CONVERSATION_TAG_ADDED = "ConversationTagAdded"
    CONVERSATION_TAG_REMOVED = "ConversationTagRemoved"
    CONVERSATION_RATED = "ConversationRated"
    CONVERSATION_CUSTOM_ATTRIBUTE_UPDATED = "ConversationCustomAttributeUpdated"
    CONVERSATION_END_USER_REPLACED = "ConversationEndUserReplaced"
    CONVERSATION_MESSAGE_DELIVERY_DELIVERED = "ConversationMessageDeliveryDelivered"
    CONVERSATION_MESSAGE_DELIVERY_INFO = "ConversationMessageDeliveryInfo"
    CONVERSATION_MESSAGE_DELIVERY_FAILED = "ConversationMessageDeliveryFailed"
    CONVERSATION_MESSAGE_DELIVERY_SEEN = "ConversationMessageDeliverySeen"
    CONVERSATION_MESSAGE_DELIVERY_SENT = "ConversationMessageDeliverySent"
    CONVERSATION_MESSAGE_DELIVERY_SPAM_COMPLAINT = "ConversationMessageDeliverySpamComplaint"
    AGENT_BANNED_ENDUSER = "AgentBannedEnduser"
    AGENT_UNBANNED_ENDUSER = "AgentUnbannedEnduser"
    AGENT_BANNED_IP = "AgentBannedIp"
    AGENT_UNBANNED_IP = "AgentUnbannedIp"
    TYPING_STARTED = "TypingStarted"
    SLA_EVALUATION_PENDING = "SLAEvaluationPending"
    SLA_EVALUATION_ACHIEVED = "SLAEvaluationAchieved"
    SLA_EVALUATION_BREACHED = "SLAEvaluationBreached"
    SLA_EVALUATION_VOIDED = "SLAEvaluationVoided"


#: A kind of event as a caller names it (plain text accepted).
EventName = Annotated[WebhookEvent, Field(strict=False)]


class BasicAuth(Input):
    """Sent as ``Authorization: Basic base64(username:password)``."""

    type: Literal["BasicAuth"] = Field(default="BasicAuth", alias="_type")
    username: str = Field(max_length=500)
    password: str = Field(max_length=500)


class TokenAuth(Input):
    """Sent as ``Authorization: Bearer <value>``."""

    type: Literal["TokenAuth"] = Field(default="TokenAuth", alias="_type")
    value: str = Field(min_length=1, max_length=4000)


class NoAuth(Input):
    """No ``Authorization`` header."""

    type: Literal["NoAuth"] = Field(default="NoAuth", alias="_type")


WebhookAuthorization = Annotated[BasicAuth | TokenAuth | NoAuth, Field(discriminator="type")]


class FilterCondition(Input):
    """``field`` (InitialChannel, QueueId or OperationOrigin) is, or is not, one of
    ``values``."""

    type: Literal["IsOneOf", "IsNotOneOf"] = Field(alias="_type")
    field: Literal["InitialChannel", "QueueId", "OperationOrigin"]
    values: list[str] = Field(min_length=1, max_length=100)


class CombinedFilters(Input):
    """Conditions of which ``All`` or ``Any`` must hold for an event to be sent."""

    type: Literal["CombinedFilters"] = Field(default="CombinedFilters", alias="_type")
    strategy: Literal["All", "Any"]
    conditions: list[FilterCondition] = Field(min_length=1, max_length=50)


#: Filters by entity (``Conversation``), as published.
WebhookFilters = dict[str, CombinedFilters]


class CreateWebhookInput(Input):
    """A new subscription. ``events`` the kinds to send (none: nothing is sent yet)."""

    name: str = Field(min_length=1, max_length=200)
    url: str = Field(min_length=1, max_length=2000)
    authorization: WebhookAuthorization
    custom_headers: dict[str, str] = Field(max_length=30)
    events: list[EventName] | None = Field(default=None, max_length=40)
    enabled: bool | None = None
    filters: WebhookFilters | None = None


class PatchWebhookInput(Input):
    """The members to change; ``authorization`` and ``customHeaders`` replace what was
    there."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    url: str | None = Field(default=None, min_length=1, max_length=2000)
    authorization: WebhookAuthorization | None = None
    custom_headers: dict[str, str] | None = Field(default=None, max_length=30)
    events: list[EventName] | None = Field(default=None, max_length=40)
    enabled: bool | None = None
    filters: WebhookFilters | None = None


class SubscriptionCondition(Record):
    """One condition of a subscription's filters, as the service reports it (a field or
    operator a newer service adds is read, not refused)."""

    type: str = Field(alias="_type", description="IsOneOf or IsNotOneOf")
    field: str
    values: list[str] = Field(default_factory=list)


class SubscriptionFilters(Record):
    """A subscription's filters for one entity: ``All`` or ``Any`` of its conditions."""

    type: str | None = Field(default=None, alias="_type")
    strategy: str
    conditions: list[SubscriptionCondition] = Field(default_factory=list)


class WebhookSubscription(Record):
    """A subscription: where events go, which ones, and the secret that signs them.

    ``headers`` holds the custom headers and the ``Authorization`` header as sent."""

    id: str
    name: str
    url: str
    headers: dict[str, str] = Field(default_factory=dict)
    secret_key: str
    enabled: bool
    created_at: UtcDateTime
    created_by: str
    updated_at: UtcDateTime
    updated_by: str
    subscribed_events: list[str] = Field(default_factory=list)
    #: by entity (``Conversation``), as published
    filters: dict[str, SubscriptionFilters] | None = None


class DeliveryDetail(Record):
    """One attempt to deliver an event: when, whether the receiver took it, what it said."""

    delivery_timestamp: UtcDateTime
    success: bool
    response_code: int
    response_text: str


class DeliveryStatus(Record):
    """The last delivery of one kind of event (``_type`` DeliveryDetail), or
    ``NoRecentDelivery`` (no other member)."""

    type: str = Field(alias="_type", description="DeliveryDetail or NoRecentDelivery")
    delivery_timestamp: UtcDateTime | None = None
    success: bool | None = None
    response_code: int | None = None
    response_text: str | None = None


class EventDeliveryStatus(Record):
    """The last delivery status of one subscribed kind of event."""

    event: str
    delivery_status: DeliveryStatus


class EventDeliveryLog(Record):
    """One delivery attempt of an event, with the JSON text that was sent."""

    delivery_detail: DeliveryDetail
    payload: str


__all__ = [
    "BasicAuth",
    "CombinedFilters",
    "CreateWebhookInput",
    "DeliveryDetail",
    "DeliveryStatus",
    "EventDeliveryLog",
    "EventDeliveryStatus",
    "FilterCondition",
    "NoAuth",
    "PatchWebhookInput",
    "SubscriptionCondition",
    "SubscriptionFilters",
    "TokenAuth",
    "WebhookAuthorization",
    "WebhookEvent",
    "WebhookFilters",
    "WebhookSubscription",
]
