"""Writing a new message of a conversation: the channel's rules checked, the author, the
``externalId`` (unique per conversation), the attachments and the time (strictly after the
conversation's last message), then the message stored and its activity recorded.

Which channels take messages: chat, messenger (Messenger and FacebookMessenger, since the
spec's "Messenger" may mean either; imported generic conversations too), contact form, email,
SMS (outbound only) and WhatsApp (outbound only, Markdown, at most one attachment of the
listed kinds). Phone, callback, voicemail and Twitter conversations take none; anonymized
conversations take none.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ..api.models import (
    InboundMessageInput,
    OutboundMessageInput,
    sms_problem,
    whatsapp_problem,
)
from . import activity, records, rules
from .context import SandboxContext
from .db import from_iso, iso
from .errors import bad_request
from .message_attributes import ATTRIBUTE_TYPES, EMAIL_LIKE, build_attributes, cc_contacts
from .message_files import store_attachments

__all__ = ["SILENT_CHANNELS", "NewMessage", "duplicate_external_id", "message_problem",
           "next_message_time", "one_ms_after", "write_message"]

NewMessage = InboundMessageInput | OutboundMessageInput

#: Channels whose conversations take no messages through the API.
SILENT_CHANNELS = frozenset({"PstnPhone", "Callback", "Voicemail", "Twitter"})


def message_problem(conversation: Any, message: NewMessage) -> str | None:
    """Why ``conversation`` cannot take ``message`` (its channel's rules), or None."""
    if conversation["type"] == "AnonymizedConversation":
        return f"Conversation {conversation['id']} is anonymized and takes no messages"
    channel = conversation["channel"]
    if channel in SILENT_CHANNELS:
        return f"this channel does not take messages ({channel})"
    if channel == "Sms":
        return sms_problem(message)
    if channel == "WhatsApp":
        return whatsapp_problem(message)
    attributes = ATTRIBUTE_TYPES.get(conversation["type"], "GenericAttributes")
    if attributes not in EMAIL_LIKE:
        if message.integration_email is not None:
            return "integrationEmail applies to email and contact-form conversations only"
        if isinstance(message, OutboundMessageInput) and (message.cc or message.bcc):
            return "cc and bcc apply to email and contact-form conversations only"
    return None


def _existing_external(ctx: SandboxContext, conversation_id: int, external_id: str
                       ) -> str | None:
    row = ctx.db.one("SELECT id FROM messages WHERE conversation_id = ? AND external_id = ?",
                     (conversation_id, external_id))
    return None if row is None else str(row["id"])


def duplicate_external_id(conversation_id: int, external_id: str, message_id: str) -> str:
    """The refusal text of a second message with the same ``externalId``."""
    return (f"duplicate externalId '{external_id}' in conversation {conversation_id}: "
            f"it is message {message_id}")


def one_ms_after(stored: str) -> str:
    """The stored time 1 ms after ``stored``; a 400 at the end of the calendar."""
    try:
        return iso(from_iso(stored) + timedelta(milliseconds=1))
    except OverflowError as exc:
        raise bad_request("Invalid value in request: message times reach the end of the "
                          "calendar") from exc


def next_message_time(ctx: SandboxContext, conversation_id: int) -> str:
    """Now, or 1 ms after the conversation's last message: times strictly increase."""
    now = ctx.now_iso()
    last = ctx.db.one("SELECT created_at FROM messages WHERE conversation_id = ? "
                      "ORDER BY seq DESC LIMIT 1", (conversation_id,))
    if last is not None and last["created_at"] >= now:
        return one_ms_after(last["created_at"])
    return now


def write_message(ctx: SandboxContext, conversation: Any, message: NewMessage, base_url: str
                  ) -> dict[str, Any]:
    """Check and store a new message of ``conversation``; returns the AddedMessage.

    Refuses (400) what the channel does not take, an outbound author who is not an agent,
    and an ``externalId`` the conversation already has (naming the message that has it).
    The caller moves the conversation's state (``rules.on_*_message``) and owns the
    transaction.
    """
    problem = message_problem(conversation, message)
    if problem is not None:
        raise bad_request(problem)
    conversation_id = int(conversation["id"])
    if isinstance(message, OutboundMessageInput):
        rules.require_agent(ctx, message.agent_id)
        author_id, direction = message.agent_id, "Outbound"
        cc: list[dict[str, Any]] | None = cc_contacts(ctx, message.cc, "cc")
        bcc: list[dict[str, Any]] | None = cc_contacts(ctx, message.bcc, "bcc")
    else:
        author_id, direction = str(conversation["requester_id"]), "Inbound"
        cc = bcc = None
    if message.external_id is not None:
        existing = _existing_external(ctx, conversation_id, message.external_id)
        if existing is not None:
            raise bad_request(duplicate_external_id(conversation_id, message.external_id,
                                                    existing))
    content = message.content.wire() if message.content is not None else None
    attachments = store_attachments(ctx, message.attachments, base_url)
    attributes = build_attributes(
        ctx, conversation, direction=direction, content=content, attachments=attachments,
        author_id=author_id, integration_email=message.integration_email, cc=cc, bcc=bcc,
    )
    created_at = next_message_time(ctx, conversation_id)
    message_id = records.insert_message(
        ctx.db, conversation_id=conversation_id, author_id=author_id, created_at=created_at,
        direction=direction, attributes=attributes, external_id=message.external_id,
    )
    activity.message_added(ctx, conversation_id, direction, author_id, message_id, created_at)
    added: dict[str, Any] = {"messageId": message_id, "authorId": author_id,
                             "direction": direction, "createdAt": created_at + "[GMT]"}
    if message.external_id is not None:
        added["externalId"] = message.external_id
    if content is not None:
        added["content"] = content
    return added


# ---------------------------------------------------------------- reading
