"""Conversations: the record, its states and channels, and the inputs of every action."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from .common import ConversationId, Input, Record, UtcDateTime, Uuid
from .custom_attributes import CustomAttributeValue
from .messages import ContentInput, FileInput, InboundMessageInput, MessageInput


class Channel(StrEnum):
    """Channels a conversation can come through."""

    WHATSAPP = "WhatsApp"
    VOICEMAIL = "Voicemail"
    WIDGET_CHAT = "WidgetChat"
    FACEBOOK_MESSENGER = "FacebookMessenger"
    TWITTER = "Twitter"
    EMAIL = "Email"
    CONTACT_FORM = "ContactForm"
    CALLBACK = "Callback"
    PSTN_PHONE = "PstnPhone"
    SMS = "Sms"
    MESSENGER = "Messenger"


class ConversationState(StrEnum):
    """The states of a conversation."""

    OPEN = "Open"
    PENDING = "Pending"
    AWAITING_PENDING = "AwaitingPending"
    CLOSED = "Closed"


class Direction(StrEnum):
    """Who started a conversation or wrote a message."""

    INBOUND = "Inbound"
    INTERNAL = "Internal"
    OUTBOUND = "Outbound"


ChannelValue = Annotated[Channel | str, Field(union_mode="left_to_right")]
StateValue = Annotated[ConversationState | str, Field(union_mode="left_to_right")]
DirectionValue = Annotated[Direction | str, Field(union_mode="left_to_right")]

#: The conversation ``_type`` of each channel.
CONVERSATION_TYPES: dict[str, str] = {
    Channel.WHATSAPP: "WhatsAppConversation",
    Channel.VOICEMAIL: "PstnPhoneConversation",
    Channel.WIDGET_CHAT: "ChatConversation",
    Channel.FACEBOOK_MESSENGER: "FacebookMessengerConversation",
    Channel.TWITTER: "TwitterConversation",
    Channel.EMAIL: "EmailConversation",
    Channel.CONTACT_FORM: "ContactFormConversation",
    Channel.CALLBACK: "PstnPhoneConversation",
    Channel.PSTN_PHONE: "PstnPhoneConversation",
    Channel.SMS: "SmsConversation",
    Channel.MESSENGER: "MessengerConversation",
}


class Assignment(Record):
    """Who a conversation is assigned to, and since when."""

    agent_id: str
    assigned_at: UtcDateTime


class QueueRef(Record):
    """The queue a conversation waits in, and since when."""

    id: str
    queued_at: UtcDateTime | None = None


class Link(Record):
    """A link to a parent conversation (see ``client.links``)."""

    parent_id: int
    type: str = Field(alias="_type", description="EmailForward, FollowUp, SideConversation or "
                      "Related")


class BrowserInfo(Record):
    """The customer's browser, for chat conversations."""

    name: str
    version: str | None = None
    ip_address: str | None = None
    originating_url: str | None = None


class Conversation(Record):
    """A conversation. One flat record for every ``_type`` variant; variant fields are optional.

    ``_type`` is ``ChatConversation``, ``EmailConversation``, ``ContactFormConversation``,
    ``SmsConversation``, ``WhatsAppConversation``, ``PstnPhoneConversation``,
    ``AnonymizedConversation`` and so on; an unknown variant still parses.
    """

    id: int
    type: str = Field(alias="_type")
    requester_id: str
    channel: ChannelValue
    created_at: UtcDateTime
    direction: DirectionValue | None = None
    state: StateValue | None = None
    state_updated_at: UtcDateTime | None = None
    assignment: Assignment | None = None
    queue: QueueRef | None = None
    link: Link | None = None
    custom_attributes: list[CustomAttributeValue] | None = None
    transport_expires_at: UtcDateTime | None = None
    anonymized_at: UtcDateTime | None = None
    # email and contact form
    subject: str | None = None
    to_email: str | None = None
    from_email: str | None = None
    integration_email: str | None = None
    language: str | None = None
    # chat and messenger
    browser_info: BrowserInfo | None = None
    # sms
    from_number: str | None = None
    to_number: str | None = None


# ---------------------------------------------------------------- create


class EmailConversationInput(Input):
    """Create an email or contact-form conversation."""

    type: Literal["Email", "ContactForm"] = Field(alias="_type")
    requester_id: Uuid
    email_integration_id: str = Field(min_length=1, max_length=320)
    subject: str = Field(min_length=1, max_length=998)
    message: MessageInput
    language: str | None = Field(default=None, max_length=35)


class ChatConversationInput(Input):
    """Create a chat conversation."""

    type: Literal["Chat"] = Field(alias="_type")
    requester_id: Uuid
    widget_id: Uuid
    message: MessageInput
    browser_info: BrowserInfo | None = None
    language: str | None = Field(default=None, max_length=35)


class SmsConversationInput(Input):
    """Create an SMS conversation (outbound messages only)."""

    type: Literal["Sms"] = Field(alias="_type")
    requester_id: Uuid
    contact_endpoint_id: str = Field(pattern=r"^\+[1-9][0-9]{6,14}$")
    message: MessageInput


class CallbackConversationInput(Input):
    """Create a callback request: a phone conversation waiting in a queue, with no message."""

    type: Literal["Callback"] = Field(alias="_type")
    requester_id: Uuid
    direction: Literal["Inbound", "Outbound"]
    contact_endpoint_id: str = Field(pattern=r"^\+[1-9][0-9]{6,14}$")
    queue_id: Uuid


CreateConversationInput = Annotated[
    EmailConversationInput | ChatConversationInput | SmsConversationInput
    | CallbackConversationInput,
    Field(discriminator="type"),
]


class CreatedConversation(Record):
    """The id of a conversation just created."""

    id: int


# ---------------------------------------------------------------- import


def _import_type(value: object) -> object:
    """``Inbound``/``Outbound`` (an earlier form) read as the published ``…Import`` names."""
    return f"{value}Import" if value in ("Inbound", "Outbound") else value


class ImportMessage(Input):
    """One message of an imported conversation.

    ``_type`` is ``InboundImport`` or ``OutboundImport`` as published; the short ``Inbound``
    and ``Outbound`` are read as those, so a message is always sent in the published form.
    """

    type: Annotated[Literal["InboundImport", "OutboundImport"],
                    BeforeValidator(_import_type)] = Field(alias="_type")
    content: ContentInput
    agent_id: Uuid | None = Field(default=None, description="required for Outbound")
    attachments: list[FileInput] | None = Field(default=None, max_length=20)
    external_id: str | None = Field(default=None, min_length=1, max_length=255)
    created_at: UtcDateTime
    attributes: dict[str, object] | None = None

    @property
    def direction(self) -> Literal["Inbound", "Outbound"]:
        """Who wrote it: ``Inbound`` (the requester) or ``Outbound`` (an agent)."""
        return "Outbound" if self.type == "OutboundImport" else "Inbound"


class ImportAssignment(Input):
    """Who an imported conversation was assigned to."""

    agent_id: Uuid
    assigned_at: UtcDateTime


class ImportClosing(Input):
    """When and by whom an imported conversation was closed."""

    closed_at: UtcDateTime
    closed_by: Uuid


class ImportConversationInput(Input):
    """Import a conversation created elsewhere, with its history (``_type`` may be left out,
    as the published schema does not require it)."""

    type: Literal["GenericConversationImport"] = Field(default="GenericConversationImport",
                                                       alias="_type")
    generic_channel_name: Literal["email", "genericapimessaging"]
    requester_id: Uuid
    requester_connection_status: Literal["Connected", "Disconnected"] | None = None
    direction: Literal["Inbound", "Outbound"]
    created_at: UtcDateTime
    messages: list[ImportMessage] = Field(default_factory=list, max_length=10_000)
    assignment: ImportAssignment | None = None
    external_id: str | None = Field(default=None, max_length=255)
    closing: ImportClosing | None = None
    attributes: dict[str, object] | None = None
    subject: str | None = Field(default=None, max_length=998)


class PartialError(Record):
    """Something of an import that could not be kept."""

    message: str


class ImportedConversation(Record):
    """The id of an imported conversation, and what could not be imported."""

    id: int
    partial_errors: list[PartialError] | None = None


# ---------------------------------------------------------------- actions


class CloseInput(Input):
    """Close a conversation, optionally naming the agent or admin who closes it."""

    user_id: Uuid | None = None


class ReopenInput(Input):
    """Reopen a closed conversation."""

    user_id: Uuid | None = None


class FollowupInput(Input):
    """Put a conversation in Pending until ``timestamp``."""

    timestamp: UtcDateTime
    user_id: Uuid | None = None


class TransferInput(Input):
    """Move a conversation to a queue."""

    queue_id: Uuid
    user_id: Uuid | None = None


class ClaimInput(Input):
    """Assign a conversation to an agent; ``force=False`` refuses to take over."""

    agent_id: Uuid
    force: bool | None = None


__all__ = [
    "CONVERSATION_TYPES",
    "Assignment",
    "BrowserInfo",
    "CallbackConversationInput",
    "Channel",
    "ChannelValue",
    "ChatConversationInput",
    "ClaimInput",
    "CloseInput",
    "Conversation",
    "ConversationId",
    "ConversationState",
    "CreateConversationInput",
    "CreatedConversation",
    "Direction",
    "EmailConversationInput",
    "FollowupInput",
    "ImportAssignment",
    "ImportClosing",
    "ImportConversationInput",
    "ImportMessage",
    "ImportedConversation",
    "InboundMessageInput",
    "Link",
    "PartialError",
    "QueueRef",
    "ReopenInput",
    "SmsConversationInput",
    "StateValue",
    "TransferInput",
]
