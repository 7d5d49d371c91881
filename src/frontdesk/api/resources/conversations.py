"""Conversations: create, import, read, and every change of state (close, reopen, follow up,
transfer, claim)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from ..models.conversations import (
    CallbackConversationInput,
    ChatConversationInput,
    ClaimInput,
    CloseInput,
    Conversation,
    CreateConversationInput,
    CreatedConversation,
    EmailConversationInput,
    FollowupInput,
    ImportConversationInput,
    ImportedConversation,
    ReopenInput,
    SmsConversationInput,
    TransferInput,
)
from ..models.messages import FileInput
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Resource,
    build,
    check_conversation_id,
    check_uuid,
    describe_validation,
    fail,
    parse_one,
    unwrap,
)
from .messages import build_message

__all__ = ["ConversationsResource"]

_GET = operation("conversations.get")
_CREATE = operation("conversations.create")
_IMPORT = operation("conversations.import_conversation")
_CLOSE = operation("conversations.close")
_REOPEN = operation("conversations.reopen")
_FOLLOWUP = operation("conversations.followup")
_TRANSFER = operation("conversations.transfer")
_CLAIM = operation("conversations.claim")

_CREATE_ADAPTER: TypeAdapter[
    EmailConversationInput | ChatConversationInput | SmsConversationInput
    | CallbackConversationInput
] = TypeAdapter(CreateConversationInput)

NewConversation = (
    EmailConversationInput | ChatConversationInput | SmsConversationInput
    | CallbackConversationInput
)


class ConversationsResource(Resource):
    """``client.conversations``: one conversation and the actions on it."""

    async def get(self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
                  ) -> Conversation:
        """One conversation, with its custom attributes. (Beyond the spec; published.)"""
        path = {"conversationId": check_conversation_id(conversation_id, _GET)}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Conversation)

    async def create(
        self,
        conversation: NewConversation | Mapping[str, Any],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> CreatedConversation:
        """Create a conversation from its input (Email, ContactForm, Chat, Sms or Callback).

        For an inbound first message the author is the requester; for an outbound one, the
        agent named in the message's ``agentId``. :meth:`create_chat` and :meth:`create_email`
        build the input from plain arguments.
        """
        if isinstance(conversation, Mapping):
            try:
                conversation = _CREATE_ADAPTER.validate_python(dict(conversation))
            except ValidationError as exc:
                raise fail(_CREATE, "Invalid input: " + describe_validation(exc)) from None
        reply = await self._transport.send(_CREATE, body=conversation.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), CreatedConversation)

    async def create_chat(
        self,
        requester_id: str,
        widget_id: str,
        content: str,
        *,
        direction: Literal["Inbound", "Outbound"] = "Inbound",
        agent_id: str | None = None,
        content_type: Literal["Text", "Html", "Markdown"] = "Text",
        attachments: Sequence[str | FileInput] | None = None,
        external_id: str | None = None,
        language: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> CreatedConversation:
        """Create a chat conversation with its first message (a convenience for :meth:`create`)."""
        message = build_message(_CREATE, content, direction=direction, agent_id=agent_id,
                                content_type=content_type, attachments=attachments,
                                external_id=external_id)
        body = build(_CREATE, ChatConversationInput, type="Chat", requester_id=requester_id,
                     widget_id=widget_id, message=message, language=language)
        return await self.create(body, priority=priority)

    async def create_email(
        self,
        requester_id: str,
        email_integration_id: str,
        subject: str,
        content: str,
        *,
        direction: Literal["Inbound", "Outbound"] = "Inbound",
        agent_id: str | None = None,
        content_type: Literal["Text", "Html", "Markdown"] = "Text",
        attachments: Sequence[str | FileInput] | None = None,
        external_id: str | None = None,
        language: str | None = None,
        contact_form: bool = False,
        priority: Priority = Priority.INTERACTIVE,
    ) -> CreatedConversation:
        """Create an email (or contact-form) conversation with its first message."""
        message = build_message(_CREATE, content, direction=direction, agent_id=agent_id,
                                content_type=content_type, attachments=attachments,
                                external_id=external_id)
        body = build(_CREATE, EmailConversationInput,
                     type="ContactForm" if contact_form else "Email",
                     requester_id=requester_id, email_integration_id=email_integration_id,
                     subject=subject, message=message, language=language)
        return await self.create(body, priority=priority)

    async def import_conversation(
        self,
        conversation: ImportConversationInput | Mapping[str, Any],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> ImportedConversation:
        """Import a conversation created elsewhere, with its messages.

        Not retried after it may have reached the service (an import is not idempotent).
        """
        body = build(_IMPORT, ImportConversationInput, conversation)
        reply = await self._transport.send(_IMPORT, body=body.wire(), priority=priority)
        return parse_one(_IMPORT, unwrap(_IMPORT, reply.body), ImportedConversation)

    async def close(
        self,
        conversation_id: int,
        *,
        user_id: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Close a conversation, optionally naming the agent or admin who closes it."""
        path = {"conversationId": check_conversation_id(conversation_id, _CLOSE)}
        body = build(_CLOSE, CloseInput, user_id=_user(user_id, _CLOSE))
        await self._transport.send(_CLOSE, path=path, body=body.wire(), priority=priority)

    async def reopen(
        self,
        conversation_id: int,
        *,
        user_id: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Reopen a closed conversation; it is queued again. (Beyond the spec; published.)"""
        path = {"conversationId": check_conversation_id(conversation_id, _REOPEN)}
        body = build(_REOPEN, ReopenInput, user_id=_user(user_id, _REOPEN))
        await self._transport.send(_REOPEN, path=path, body=body.wire(), priority=priority)

    async def followup(
        self,
        conversation_id: int,
        until: datetime,
        *,
        user_id: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Put a conversation in Pending until ``until``; then it is Open again."""
        path = {"conversationId": check_conversation_id(conversation_id, _FOLLOWUP)}
        if not isinstance(until, datetime):
            raise fail(_FOLLOWUP, "The follow-up time must be a datetime")
        body = build(_FOLLOWUP, FollowupInput, timestamp=until,
                     user_id=_user(user_id, _FOLLOWUP))
        await self._transport.send(_FOLLOWUP, path=path, body=body.wire(), priority=priority)

    async def transfer(
        self,
        conversation_id: int,
        queue_id: str,
        *,
        user_id: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Move a conversation to a queue: it is unassigned and waits there from now."""
        path = {"conversationId": check_conversation_id(conversation_id, _TRANSFER)}
        body = build(_TRANSFER, TransferInput, queue_id=check_uuid(queue_id, _TRANSFER,
                                                                    "queue id"),
                     user_id=_user(user_id, _TRANSFER))
        await self._transport.send(_TRANSFER, path=path, body=body.wire(), priority=priority)

    async def claim(
        self,
        conversation_id: int,
        agent_id: str,
        *,
        force: bool = False,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Assign a conversation to ``agent_id``.

        With ``force=False`` (the default) a conversation already assigned to someone else is
        not taken over: the service answers 409, raised as
        :class:`~frontdesk.api.errors.Conflict`.
        """
        path = {"conversationId": check_conversation_id(conversation_id, _CLAIM)}
        body = build(_CLAIM, ClaimInput, agent_id=check_uuid(agent_id, _CLAIM, "agent id"),
                     force=bool(force))
        await self._transport.send(_CLAIM, path=path, body=body.wire(), priority=priority)


def _user(user_id: str | None, op: Any) -> str | None:
    return None if user_id is None else check_uuid(user_id, op, "user id")
