"""Sandbox routes: conversations — create, import, read, and the actions on their state.

Every change of state goes through ``rules``; every route writes in one transaction, so a
refused request (a 400 on its first message, say) leaves no conversation behind.

Channels of a new conversation: ``Email`` → EmailConversation (channel Email),
``ContactForm`` → ContactFormConversation, ``Chat`` → ChatConversation (WidgetChat),
``Sms`` → SmsConversation, ``Callback`` → PstnPhoneConversation (channel Callback, no
message, queued in its ``queueId``). An import of ``genericChannelName: email`` is an
EmailConversation; one of ``genericapimessaging`` is a ``GenericConversation`` on channel
``Messenger`` (the published channel list has no generic value; search tells the two apart
by ``_type``: Channel ``genericapimessaging`` vs ``messenger``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from starlette.responses import Response

from ...api.models import (
    CallbackConversationInput,
    ChatConversationInput,
    ClaimInput,
    CloseInput,
    Conversation,
    CreateConversationInput,
    CreatedConversation,
    EmailConversationInput,
    Envelope,
    FollowupInput,
    ImportConversationInput,
    ImportedConversation,
    ImportMessage,
    OutboundMessageInput,
    ReopenInput,
    SmsConversationInput,
    TransferInput,
)
from ...api.models.common import is_uuid
from .. import activity, origins, records, rules, shapes
from ..context import Ctx, SandboxContext, no_content, ok
from ..db import iso
from ..errors import bad_request
from ..message_attributes import build_attributes
from ..message_files import store_attachments
from ..message_writing import one_ms_after, write_message
from ..params import ConversationIdPath

router = APIRouter(tags=["conversations"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such conversation"}}
_EMAIL_TYPES = {"Email": ("EmailConversation", "Email"),
                "ContactForm": ("ContactFormConversation", "ContactForm")}
GENERIC_CHANNEL = "Messenger"


# ---------------------------------------------------------------- create


def _email_of(requester: Any, kind: str) -> str:
    if not requester["email"]:
        raise bad_request(f"User {requester['id']} has no email address; "
                          f"an {kind} conversation needs one")
    return str(requester["email"])


def _new_columns(ctx: SandboxContext, body: Any, requester: Any, now: str) -> dict[str, Any]:
    """The columns of a new conversation of ``body``'s kind (state included)."""
    if isinstance(body, CallbackConversationInput):
        rules.require_queue(ctx, body.queue_id)
        return {"type": "PstnPhoneConversation", "channel": "Callback",
                "direction": body.direction, **rules.enqueue_new(ctx, body.queue_id, now)}
    message = body.message
    direction = message.type
    state = (rules.assign_new(message.agent_id, now) if message.type == "Outbound"
             else rules.enqueue_new(ctx, None, now))
    columns: dict[str, Any] = {"direction": direction, **state}
    if isinstance(body, EmailConversationInput):
        type_, channel = _EMAIL_TYPES[body.type]
        address = _email_of(requester, "email" if body.type == "Email" else "contact-form")
        inbound = direction == "Inbound"
        columns.update(
            type=type_, channel=channel, subject=body.subject, language=body.language,
            integration_email=body.email_integration_id,
            from_email=address if inbound else body.email_integration_id,
            to_email=body.email_integration_id if inbound else address,
        )
    elif isinstance(body, ChatConversationInput):
        columns.update(type="ChatConversation", channel="WidgetChat", language=body.language,
                       browser_info=body.browser_info.wire() if body.browser_info else None)
    elif isinstance(body, SmsConversationInput):
        columns.update(type="SmsConversation", channel="Sms",
                       from_number=body.contact_endpoint_id, to_number=requester["phone_number"])
    return columns


@router.post("/v1/conversations", response_model=Envelope[CreatedConversation],
             summary="Create a conversation")
async def create_conversation(
    ctx: Ctx, request: Request, body: Annotated[CreateConversationInput, Body()]
) -> Response:
    """Create a conversation with its first message (a callback has none).

    The requester must be an end user. An inbound first message queues the conversation in
    the default queue; an outbound one (author ``agentId``, an agent) assigns it to its
    author; a callback waits in its ``queueId``. SMS takes outbound messages only.
    """
    with ctx.db.tx():
        requester = rules.require_enduser(ctx, body.requester_id)
        now = ctx.now_iso()
        columns = _new_columns(ctx, body, requester, now)
        conversation_id = records.insert_conversation(
            ctx.db, requester_id=body.requester_id, created_at=now, last_activity_at=now,
            **columns,
        )
        first = None if isinstance(body, CallbackConversationInput) else body.message
        author = (first.agent_id if isinstance(first, OutboundMessageInput)
                  else body.requester_id)
        activity.created(ctx, conversation_id, columns.get("direction"), author,
                         columns.get("subject"), now)
        if first is not None:
            row = rules.get_conversation(ctx, conversation_id)
            write_message(ctx, row, first, str(request.base_url))
    return ok({"id": conversation_id})


# ---------------------------------------------------------------- import


def _text_attribute(attributes: dict[str, object] | None, key: str, where: str) -> str | None:
    value = (attributes or {}).get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise bad_request(f"Invalid value in request: {where}.{key} must be non-empty text")
    return value


def _emails(attributes: dict[str, object] | None, key: str, where: str
            ) -> list[dict[str, Any]]:
    value = (attributes or {}).get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(
            isinstance(v, str) and "@" in v for v in value):
        raise bad_request(f"Invalid value in request: {where}.{key} must be a list of "
                          "email addresses")
    return [{"email": v} for v in value]


def _import_author(ctx: SandboxContext, message: ImportMessage, requester_id: str,
                   email: bool, where: str) -> str:
    """Who wrote an imported message: the agent of an outbound one, else the requester (or,
    on email, the ``requesterId`` its attributes name)."""
    if message.direction == "Outbound":
        if message.agent_id is None:
            raise bad_request(f"Invalid value in request: {where}: an outbound message "
                              "needs agentId")
        rules.require_agent(ctx, message.agent_id)
        return message.agent_id
    if message.agent_id is not None:
        raise bad_request(f"Invalid value in request: {where}: an inbound message takes no "
                          "agentId (its author is the requester)")
    override = _text_attribute(message.attributes, "requesterId", where + ".attributes")
    if override is None or not email:
        return requester_id
    if not is_uuid(override):
        raise bad_request(f"Invalid value in request: {where}.attributes.requesterId must "
                          "be a UUID")
    rules.require_enduser(ctx, override)
    return override


def _import_columns(ctx: SandboxContext, body: ImportConversationInput, requester: Any,
                    now: str) -> dict[str, Any]:
    """Type, channel, email fields and state of an imported conversation."""
    assignment, closing = body.assignment, body.closing
    if assignment is not None:
        rules.require_agent(ctx, assignment.agent_id)
    if closing is not None:
        rules.require_agent(ctx, closing.closed_by)
    columns: dict[str, Any] = rules.import_new(
        ctx,
        assigned_to=assignment.agent_id if assignment else None,
        assigned_at=iso(assignment.assigned_at) if assignment else None,
        closed_at=iso(closing.closed_at) if closing else None,
        now=now,
    )
    columns.update(direction=body.direction, external_id=body.external_id)
    if body.generic_channel_name != "email":
        return {**columns, "type": "GenericConversation", "channel": GENERIC_CHANNEL}
    integration = _text_attribute(body.attributes, "emailIntegrationId", "attributes")
    for message in body.messages:
        integration = integration or _text_attribute(message.attributes, "emailIntegrationId",
                                                     "messages.attributes")
    if integration is None:  # optional as published: the organisation's first address
        endpoint = ctx.db.one("SELECT key FROM contact_endpoints WHERE type = 'EmailEndpoint' "
                              "ORDER BY position, key LIMIT 1")
        if endpoint is None:
            raise bad_request("Invalid value in request: the organisation has no email "
                              "address to import into; give attributes.emailIntegrationId")
        integration = str(endpoint["key"])
    subject = body.subject or _text_attribute(body.attributes, "subject", "attributes")
    address = _email_of(requester, "email")
    inbound = body.direction == "Inbound"
    return {**columns, "type": "EmailConversation", "channel": "Email", "subject": subject,
            "integration_email": integration,
            "from_email": address if inbound else integration,
            "to_email": integration if inbound else address}


@router.post("/v1/conversations/import", response_model=Envelope[ImportedConversation],
             summary="Import a conversation with its history")
async def import_conversation(ctx: Ctx, request: Request, body: ImportConversationInput
                              ) -> Response:
    """Import a conversation created elsewhere, its messages stored with their own times.

    The requester, every outbound message's ``agentId``, the assignment's agent and the
    closing's ``closedBy`` must exist (400). Messages are stored oldest first (a time equal
    to the previous one moves 1 ms on, so times strictly increase); a second message with an
    ``externalId`` already seen is skipped and reported in ``partialErrors``. With
    ``closing`` the conversation is Closed; with ``assignment`` Open and assigned; else Open
    and queued in the default queue.
    """
    base_url = str(request.base_url)
    partial: list[dict[str, str]] = []
    with ctx.db.tx(), origins.acting(origins.API_IMPORT):
        requester = rules.require_enduser(ctx, body.requester_id)
        now = ctx.now_iso()
        columns = _import_columns(ctx, body, requester, now)
        created_at = iso(body.created_at)
        ordered = sorted(enumerate(body.messages), key=lambda item: item[1].created_at)
        times = [created_at, columns.get("closed_at") or created_at]
        if ordered:
            times.append(iso(ordered[-1][1].created_at))
        conversation_id = records.insert_conversation(
            ctx.db, requester_id=body.requester_id, created_at=created_at,
            last_activity_at=max(times), **columns,
        )
        row = rules.get_conversation(ctx, conversation_id)
        activity.created(ctx, conversation_id, body.direction, body.requester_id,
                         columns.get("subject"), created_at)
        email = body.generic_channel_name == "email"
        seen: set[str] = set()
        previous: str | None = None
        for index, message in ordered:
            where = f"messages[{index}]"
            author = _import_author(ctx, message, body.requester_id, email, where)
            if message.external_id is not None:
                if message.external_id in seen:
                    partial.append({"message": f"{where}: duplicate externalId "
                                               f"'{message.external_id}'; message skipped"})
                    continue
                seen.add(message.external_id)
            at = iso(message.created_at)
            if previous is not None and at <= previous:
                at = one_ms_after(previous)
            previous = at
            attributes = build_attributes(
                ctx, row, direction=message.direction,
                content=message.content.wire(),
                attachments=store_attachments(ctx, message.attachments, base_url),
                author_id=author,
                integration_email=_text_attribute(message.attributes, "emailIntegrationId",
                                                  where + ".attributes") if email else None,
                cc=_emails(message.attributes, "cc", where + ".attributes") if email else None,
                bcc=_emails(message.attributes, "bcc", where + ".attributes") if email else None,
            )
            message_id = records.insert_message(
                ctx.db, conversation_id=conversation_id, author_id=author, created_at=at,
                direction=message.direction, attributes=attributes,
                external_id=message.external_id,
            )
            activity.message_added(ctx, conversation_id, message.direction, author, message_id,
                                   at)
        if columns.get("closed_at"):
            activity.record(ctx, conversation_id, "ConversationClosed",
                            author_id=body.closing.closed_by if body.closing else None,
                            at=columns["closed_at"])
    return ok({"id": conversation_id, "partialErrors": partial})


# ---------------------------------------------------------------- read and act


@router.get("/v1/conversations/{conversationId}", response_model=Envelope[Conversation],
            summary="Get a conversation", responses=_NOT_FOUND)
async def read_conversation(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """One conversation, with its custom attributes."""
    return ok(shapes.conversation(ctx, rules.get_conversation(ctx, conversation_id)))


@router.put("/v1/conversations/{conversationId}/close", status_code=204,
            summary="Close a conversation", responses=_NOT_FOUND)
async def close_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                             body: CloseInput | None = None) -> Response:
    """Close it (it leaves its queue); ``userId``, if given, must be an agent or admin.
    The body is optional; closing a closed conversation is harmless."""
    with ctx.db.tx():
        row = rules.get_conversation(ctx, conversation_id)
        rules.close(ctx, row, body.user_id if body else None)
    return no_content()


@router.put("/v1/conversations/{conversationId}/reopen", status_code=204,
            summary="Reopen a conversation", responses=_NOT_FOUND)
async def reopen_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                              body: ReopenInput | None = None) -> Response:
    """Reopen a closed conversation: Open, unassigned, queued again (body optional)."""
    with ctx.db.tx():
        row = rules.get_conversation(ctx, conversation_id)
        rules.reopen(ctx, row, body.user_id if body else None)
    return no_content()


@router.put("/v1/conversations/{conversationId}/followup", status_code=204,
            summary="Follow up a conversation", responses=_NOT_FOUND)
async def followup_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                                body: FollowupInput) -> Response:
    """Pending until ``timestamp`` (in the future), then Open again; an inbound message
    opens it sooner. A closed conversation must be reopened first (400)."""
    with ctx.db.tx():
        row = rules.get_conversation(ctx, conversation_id)
        rules.followup(ctx, row, body.timestamp, body.user_id)
    return no_content()


@router.put("/v1/conversations/{conversationId}/transfer/queue", status_code=204,
            summary="Transfer a conversation to a queue", responses=_NOT_FOUND)
async def transfer_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                                body: TransferInput) -> Response:
    """Unassign it and queue it in ``queueId`` from now (an unknown queue is a 400)."""
    with ctx.db.tx():
        row = rules.get_conversation(ctx, conversation_id)
        rules.transfer(ctx, row, body.queue_id, body.user_id)
    return no_content()


@router.put("/v1/conversations/{conversationId}/claim", status_code=204,
            summary="Claim a conversation for an agent",
            responses={**_NOT_FOUND, 409: {"description": "Assigned to another agent and "
                                                          "force is false"}})
async def claim_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                             body: ClaimInput) -> Response:
    """Assign it to ``agentId``; it leaves its queue.

    ``force`` absent or true takes over a conversation assigned to someone else (the spec:
    "set to false to avoid taking over"); ``force: false`` answers 409 instead. Claiming a
    conversation one already has is harmless.
    """
    with ctx.db.tx():
        row = rules.get_conversation(ctx, conversation_id)
        rules.claim(ctx, row, body.agent_id, force=body.force is not False)
    return no_content()
