"""Messages: the record, its channel attributes, and the input of a new message."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, PlainSerializer, WithJsonSchema, model_validator

from .common import Input, Record, Uuid, ZonedDateTime, format_zoned, parse_timestamp

#: Attachment kinds WhatsApp accepts.
WHATSAPP_EXTENSIONS = (".jpg", ".jpeg", ".png", ".pdf", ".doc", ".docx", ".pptx", ".xlsx")


class Content(Record):
    """A message body: ``Text``, ``Html`` or ``Markdown``."""

    value: str
    type: str = Field(alias="_type", description="Text, Html or Markdown")


class ContentInput(Input):
    """A message body to send."""

    value: str = Field(max_length=100_000)
    type: Literal["Text", "Html", "Markdown"] = Field(alias="_type")


class File(Record):
    """An attachment: where it is, and the name to show."""

    url: str
    pretty_name: str | None = None


class FileInput(Input):
    """An attachment to send: an http(s) URL, or a ``data:`` URL the service stores."""

    url: str = Field(min_length=1, max_length=5_000_000, pattern=r"^(https?://|data:)")
    pretty_name: str | None = Field(default=None, max_length=255)


class EmailContact(Record):
    """An email address with an optional display name."""

    email: str
    name: str | None = None


class EmailContent(Record):
    """An email body: ``Regular`` with content, or ``TooLarge`` with a link to the file."""

    type: str = Field(alias="_type")
    content: Content | None = None
    file: File | None = None


class MessageAttributes(Record):
    """Channel-specific part of a message. One flat record for every ``_type`` variant.

    ``ChatAttributes``, ``EmailAttributes``, ``ContactFormAttributes``, ``SmsAttributes``,
    ``WhatsAppAttributes``, ``PhoneAttributes``, … ; an unknown variant still parses.
    """

    type: str = Field(alias="_type")
    direction: str | None = None
    content: Content | None = None
    attachments: list[File] | None = None
    is_automated: bool | None = None
    # email and contact form
    email_content: EmailContent | None = None
    from_: EmailContact | str | None = Field(default=None, alias="from",
                                            description="an email contact, or a phone number")
    to: list[EmailContact] | str | None = Field(default=None,
                                               description="email contacts, or a phone number")
    cc: list[EmailContact] | None = None
    bcc: list[EmailContact] | None = None
    is_auto_reply: bool | None = None
    inline_images: list[File] | None = None
    delivery_failure_reason: str | None = None
    reply_default_to_emails: list[str] | None = None
    subject: str | None = None
    # phone
    duration: int | None = None

    @property
    def body(self) -> Content | None:
        """The message's content, wherever its channel keeps it."""
        if self.content is not None:
            return self.content
        if self.email_content is not None:
            return self.email_content.content
        return None


_from_iso = datetime.fromisoformat


def message_time(value: Any) -> Any:
    """:func:`~.common.parse_timestamp`, the form every message's time is written in
    (``…Z[GMT]``) read at once: a long thread has thousands. The same text as
    ``parse_timestamp`` hands ``datetime.fromisoformat`` for that form, and the same
    answer; anything else, or anything that does not read so, goes the general way."""
    if type(value) is str and value[-6:] == "Z[GMT]":
        try:
            moment = _from_iso(value[:-6] + "+00:00")
        except ValueError:
            return parse_timestamp(value)
        return moment if moment.tzinfo is UTC else moment.astimezone(UTC)
    return parse_timestamp(value)


#: :data:`~.common.ZonedDateTime`, read by :func:`message_time`
MessageTime = Annotated[
    datetime,
    BeforeValidator(message_time),
    PlainSerializer(format_zoned, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string"}),
]


class Message(Record):
    """One message of a conversation."""

    id: str
    author_id: str
    external_id: str | None = None
    created_at: MessageTime
    attributes: MessageAttributes


class InboundMessageInput(Input):
    """A message from the customer; its author is the conversation's requester."""

    type: Literal["Inbound"] = Field(alias="_type")
    content: ContentInput
    attachments: list[FileInput] | None = Field(default=None, max_length=20)
    integration_email: str | None = None
    external_id: str | None = Field(default=None, min_length=1, max_length=255)


class OutboundMessageInput(Input):
    """A message from an agent, named in ``agentId``."""

    type: Literal["Outbound"] = Field(alias="_type")
    agent_id: Uuid
    content: ContentInput | None = None
    attachments: list[FileInput] | None = Field(default=None, max_length=20)
    integration_email: str | None = None
    external_id: str | None = Field(default=None, min_length=1, max_length=255)
    cc: list[Uuid] | None = None
    bcc: list[Uuid] | None = None

    @model_validator(mode="after")
    def _has_something(self) -> OutboundMessageInput:
        if self.content is None and not self.attachments:
            raise ValueError("an outbound message needs content or an attachment")
        return self


MessageInput = Annotated[
    InboundMessageInput | OutboundMessageInput, Field(discriminator="type")
]


class AddedMessage(Record):
    """What the service answers to a new message."""

    direction: str
    author_id: str
    content: Content | None = None
    external_id: str | None = None
    message_id: str | None = None
    created_at: ZonedDateTime | None = None


def whatsapp_problem(message: InboundMessageInput | OutboundMessageInput) -> str | None:
    """Why ``message`` cannot go to a WhatsApp conversation, or None when it can."""
    if message.type != "Outbound":
        return "WhatsApp conversations take outbound messages only"
    if message.content is not None and message.content.type != "Markdown":
        return "WhatsApp messages must be Markdown"
    attachments = message.attachments or []
    if len(attachments) > 1:
        return "WhatsApp messages take at most one attachment"
    for attachment in attachments:
        name = (attachment.pretty_name or attachment.url.split("?")[0]).lower()
        if attachment.url.startswith("data:") and attachment.pretty_name is None:
            return "a WhatsApp attachment needs a file name (.jpg, .png, .pdf, …)"
        if not name.endswith(WHATSAPP_EXTENSIONS):
            return "WhatsApp attachments must be " + ", ".join(WHATSAPP_EXTENSIONS)
    return None


def reply_subject(subject: str | None) -> str | None:
    """The subject an email reply carries: ``Re: `` and the conversation's subject (once:
    a subject that already starts with ``Re:`` keeps it as it is); None without a subject."""
    if subject is None or not subject.strip():
        return None
    text = subject.strip()
    return text if text[:3].casefold() == "re:" else f"Re: {text}"


def sms_problem(message: InboundMessageInput | OutboundMessageInput) -> str | None:
    """Why ``message`` cannot go to an SMS conversation, or None when it can."""
    if message.type != "Outbound":
        return "SMS conversations take outbound messages only"
    return None


__all__ = [
    "WHATSAPP_EXTENSIONS",
    "AddedMessage",
    "Content",
    "ContentInput",
    "EmailContact",
    "EmailContent",
    "File",
    "FileInput",
    "InboundMessageInput",
    "Message",
    "MessageAttributes",
    "MessageInput",
    "MessageTime",
    "OutboundMessageInput",
    "message_time",
    "reply_subject",
    "sms_problem",
    "whatsapp_problem",
]
