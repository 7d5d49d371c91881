"""Webhooks: subscriptions that have the service POST each chosen event to a receiver's URL,
signed with the subscription's secret, and the delivery status and logs of each event.

The signature scheme is here too, in one place, because both sides of the contract use it:
the sandbox signs its deliveries with :func:`sign`, and a receiver (the team gateway, the
sandbox's ``listen``) checks them with :func:`verify`. As the service's vendor documents it
("Security best practices" for webhooks): ``X-DIXA-SIGNATURE: t=<unix ms>,v1=<hex>`` where
``v1`` is the HMAC-SHA256 of ``"<t>.<raw body>"`` keyed with the subscription's
``secretKey`` **hex-decoded**; ``X-DIXA-SUBSCRIPTION-ID`` names the subscription.
"""

from __future__ import annotations

import hashlib
import hmac
import time
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


# ------------------------------------------------------------------ signatures

#: The vendor's signature header, and the subscription's id on every delivery.
SIGNATURE_HEADER = "X-DIXA-SIGNATURE"
SUBSCRIPTION_HEADER = "X-DIXA-SUBSCRIPTION-ID"
#: How old a signature a receiver takes by default, in seconds.
TOLERANCE = 300.0


def signing_key(secret: str) -> bytes:
    """The HMAC key of a subscription's secret: the secret is hex (as the service makes
    them), and the key is the bytes it encodes; a secret that is not hex is used as text."""
    try:
        return bytes.fromhex(secret)
    except ValueError:
        return secret.encode()


def sign(secret: str, millis: int, body: bytes) -> str:
    """The ``X-DIXA-SIGNATURE`` value for ``body`` sent at ``millis`` (Unix milliseconds)."""
    stamp = str(millis)
    digest = hmac.new(signing_key(secret), stamp.encode() + b"." + body, hashlib.sha256)
    return f"t={stamp},v1={digest.hexdigest()}"


def verify(secret: str, header: str, body: bytes, *, now: float | None = None,
           tolerance: float | None = TOLERANCE) -> bool:
    """Whether ``header`` (an ``X-DIXA-SIGNATURE`` value) signs ``body`` with the
    subscription's secret, sent within ``tolerance`` seconds of ``now`` (Unix seconds; the
    clock's when None; no age check when ``tolerance`` is None): what a receiver checks. A
    timestamp that is not a whole number of milliseconds (``nan``, ``1e3``, empty) fails."""
    fields = dict(part.partition("=")[::2] for part in header.split(","))
    stamp, signature = fields.get("t", "").strip(), fields.get("v1", "").strip()
    if not (stamp.isascii() and stamp.isdigit() and len(stamp) <= 16 and signature):
        return False
    if tolerance is not None:
        current = time.time() if now is None else now
        if abs(current * 1000 - int(stamp)) > tolerance * 1000:
            return False
    expected = sign(secret, int(stamp), body).partition(",v1=")[2]
    return hmac.compare_digest(expected, signature)


__all__ = [
    "SIGNATURE_HEADER",
    "SUBSCRIPTION_HEADER",
    "TOLERANCE",
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
    "sign",
    "signing_key",
    "verify",
]
