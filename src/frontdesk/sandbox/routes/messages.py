"""Sandbox routes: the messages of a conversation, and the attachments the sandbox stores.

A message's ``attributes`` are stored in wire form, so the thread is answered by joining the
stored JSON text (one query on ``messages_conversation``, no per-message decoding): a thread
of 10,000 messages costs a few milliseconds.

Which channels take messages: chat, messenger (Messenger and FacebookMessenger, since the
spec's "Messenger" may mean either; imported generic conversations too), contact form, email,
SMS (outbound only) and WhatsApp (outbound only, Markdown, at most one attachment of the
listed kinds). Phone, callback, voicemail and Twitter conversations take none; anonymized
conversations take none.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import timedelta
from json.encoder import encode_basestring
from typing import Annotated, Any
from urllib.parse import quote, unquote_to_bytes

from fastapi import APIRouter, Request
from starlette.responses import Response

from ...api.models import (
    AddedMessage,
    Envelope,
    FileInput,
    InboundMessageInput,
    Message,
    MessageInput,
    OutboundMessageInput,
    reply_subject,
    sms_problem,
    whatsapp_problem,
)
from .. import activity, records, rules
from ..context import Ctx, SandboxContext, ok
from ..db import from_iso, iso
from ..errors import bad_request, not_found
from ..params import ConversationIdPath, uuid_path

router = APIRouter(tags=["messages"])

NewMessage = InboundMessageInput | OutboundMessageInput

#: The attributes ``_type`` of the messages of each conversation ``_type``.
ATTRIBUTE_TYPES: dict[str, str] = {
    "EmailConversation": "EmailAttributes",
    "ContactFormConversation": "ContactFormAttributes",
    "ChatConversation": "ChatAttributes",
    "MessengerConversation": "ChatAttributes",
    "SmsConversation": "SmsAttributes",
    "WhatsAppConversation": "WhatsAppAttributes",
    "FacebookMessengerConversation": "FacebookMessengerAttributes",
    "TwitterConversation": "TwitterAttributes",
    "GenericConversation": "GenericAttributes",
}
_EMAIL_LIKE = ("EmailAttributes", "ContactFormAttributes")

#: Channels whose conversations take no messages through the API.
SILENT_CHANNELS = frozenset({"PstnPhone", "Callback", "Voicemail", "Twitter"})

_TOKEN = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_MEDIA_TYPE = re.compile(f"^{_TOKEN}/{_TOKEN}$")
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]")

FileIdPath = Annotated[str, uuid_path("fileId", "an attachment id")]


# ---------------------------------------------------------------- checks


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
    if attributes not in _EMAIL_LIKE:
        if message.integration_email is not None:
            return "integrationEmail applies to email and contact-form conversations only"
        if isinstance(message, OutboundMessageInput) and (message.cc or message.bcc):
            return "cc and bcc apply to email and contact-form conversations only"
    return None


def require_enduser(ctx: SandboxContext, user_id: str) -> Any:
    """The end user row for ``user_id``; a 400 when it is not one (a reference in a body)."""
    row = ctx.db.one("SELECT * FROM users WHERE id = ?", (user_id,))
    if row is None:
        raise bad_request(f"User {user_id} does not exist")
    if row["kind"] != "enduser":
        raise bad_request(f"User {user_id} is not an end user")
    return row


def _existing_external(ctx: SandboxContext, conversation_id: int, external_id: str
                       ) -> str | None:
    row = ctx.db.one("SELECT id FROM messages WHERE conversation_id = ? AND external_id = ?",
                     (conversation_id, external_id))
    return None if row is None else str(row["id"])


def duplicate_external_id(conversation_id: int, external_id: str, message_id: str) -> str:
    """The refusal text of a second message with the same ``externalId``."""
    return (f"duplicate externalId '{external_id}' in conversation {conversation_id}: "
            f"it is message {message_id}")


# ---------------------------------------------------------------- attachments


def _decode_data_url(url: str) -> tuple[str, bytes]:
    """The media type and bytes of a ``data:`` URL (RFC 2397); a 400 when malformed."""
    header, comma, payload = url[5:].partition(",")
    if not comma:
        raise bad_request("Invalid value in request: an attachment data: URL has no comma")
    params = header.split(";")
    is_base64 = params[-1].strip().lower() == "base64"
    if is_base64:
        params.pop()
    media_type = params[0].strip().lower() or "text/plain"
    if not _MEDIA_TYPE.match(media_type):
        raise bad_request("Invalid value in request: an attachment data: URL has an invalid "
                          "media type")
    raw = unquote_to_bytes(payload)
    if is_base64:
        try:
            raw = base64.b64decode(b"".join(raw.split()), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise bad_request("Invalid value in request: an attachment data: URL is not "
                              "valid base64") from exc
    return media_type, raw


def store_attachments(ctx: SandboxContext, files: list[FileInput] | None, base_url: str
                      ) -> list[dict[str, Any]]:
    """Attachments as recorded: ``data:`` URLs copied into the sandbox and served at
    ``{base_url}/files/{id}``; http(s) URLs kept as given (the sandbox fetches nothing)."""
    out: list[dict[str, Any]] = []
    for file in files or []:
        url = file.url
        if url.startswith("data:"):
            media_type, raw = _decode_data_url(url)
            file_id = ctx.new_id()
            ctx.db.run(
                "INSERT INTO attachments (id, content_type, data, name, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (file_id, media_type, raw, file.pretty_name, ctx.now_iso()),
            )
            url = f"{base_url.rstrip('/')}/files/{file_id}"
        item: dict[str, Any] = {"url": url}
        if file.pretty_name is not None:
            item["prettyName"] = file.pretty_name
        out.append(item)
    return out


# ---------------------------------------------------------------- writing


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


def _contact(row: Any, fallback: str | None) -> dict[str, Any]:
    email = (row["email"] if row is not None else None) or fallback or ""
    out: dict[str, Any] = {"email": email}
    if row is not None and row["display_name"]:
        out["name"] = row["display_name"]
    return out


def _cc(ctx: SandboxContext, user_ids: list[str] | None, what: str) -> list[dict[str, Any]]:
    contacts: list[dict[str, Any]] = []
    for user_id in user_ids or []:
        row = ctx.db.one("SELECT * FROM users WHERE id = ?", (user_id,))
        if row is None:
            raise bad_request(f"User {user_id} in {what} does not exist")
        if not row["email"]:
            raise bad_request(f"User {user_id} in {what} has no email address")
        contacts.append(_contact(row, None))
    return contacts


def build_attributes(
    ctx: SandboxContext,
    conversation: Any,
    *,
    direction: str,
    content: dict[str, Any] | None,
    attachments: list[dict[str, Any]],
    author_id: str,
    integration_email: str | None = None,
    cc: list[dict[str, Any]] | None = None,
    bcc: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A message's ``attributes`` in wire form, of the ``_type`` its conversation's uses."""
    kind = ATTRIBUTE_TYPES.get(conversation["type"], "GenericAttributes")
    out: dict[str, Any] = {"_type": kind, "direction": direction}
    if kind not in _EMAIL_LIKE:
        if content is not None:
            out["content"] = content
        out["attachments"] = attachments
        if kind == "ChatAttributes":
            out["isAutomated"] = False
        return out
    integration = (integration_email or conversation["integration_email"]
                   or conversation["to_email"] or "")
    requester = ctx.db.one("SELECT * FROM users WHERE id = ?", (conversation["requester_id"],))
    fallback = (conversation["from_email"] if conversation["direction"] != "Outbound"
                else conversation["to_email"])
    requester_contact = _contact(requester, fallback)
    if direction == "Inbound":
        author = (requester if author_id == conversation["requester_id"]
                  else ctx.db.one("SELECT * FROM users WHERE id = ?", (author_id,)))
        sender, recipients = _contact(author, fallback), [{"email": integration}]
    else:
        agent = ctx.db.one("SELECT * FROM users WHERE id = ?", (author_id,))
        sender = {"email": integration}
        if agent is not None and agent["display_name"]:
            sender["name"] = agent["display_name"]
        recipients = [requester_contact]
    out.update({
        "emailContent": {"_type": "Regular",
                         "content": content or {"value": "", "_type": "Text"}},
        "from": sender,
        "to": recipients,
        "cc": cc or [],
        "bcc": bcc or [],
        "isAutoReply": False,
        "attachments": attachments,
        "inlineImages": [],
    })
    if kind == "ContactFormAttributes" and direction == "Inbound" and sender["email"]:
        out["replyDefaultToEmails"] = [sender["email"]]
    if conversation["subject"]:
        # an agent's reply carries "Re: …"; the message that starts a conversation (and the
        # customer's) the conversation's subject
        replying = direction == "Outbound" and (
            conversation["direction"] != "Outbound" or ctx.db.one(
                "SELECT 1 FROM messages WHERE conversation_id = ? LIMIT 1",
                (conversation["id"],)) is not None)
        out["subject"] = (reply_subject(conversation["subject"]) if replying
                          else conversation["subject"])
    return out


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
        cc: list[dict[str, Any]] | None = _cc(ctx, message.cc, "cc")
        bcc: list[dict[str, Any]] | None = _cc(ctx, message.bcc, "bcc")
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


def _message_json(row: Any) -> str:
    """One message as JSON text; the same record as ``shapes.message``, without decoding."""
    text: str = ('{"id":' + encode_basestring(row[0]) + ',"authorId":' + encode_basestring(row[1])
            + ',"createdAt":' + encode_basestring(row[2] + "[GMT]")
            + ',"attributes":' + row[3])
    if row[4] is not None:
        text += ',"externalId":' + encode_basestring(row[4])
    return text + "}"


def thread_json(ctx: SandboxContext, conversation_id: int) -> str:
    """``{"data": [...]}`` of every message of a conversation, oldest first."""
    rows = ctx.db.conn.execute(
        "SELECT id, author_id, created_at, attributes, external_id FROM messages "
        "WHERE conversation_id = ? ORDER BY seq", (conversation_id,)
    ).fetchall()
    return '{"data":[' + ",".join([_message_json(row) for row in rows]) + "]}"


# ---------------------------------------------------------------- routes


@router.get("/v1/conversations/{conversationId}/messages",
            response_model=Envelope[list[Message]], summary="List the messages of a conversation",
            responses={304: {"description": "Not modified since the ETag given in "
                             "If-None-Match"},
                       404: {"description": "No such conversation"}})
async def list_messages(ctx: Ctx, request: Request,
                        conversation_id: ConversationIdPath) -> Response:
    """Every message of the conversation, oldest first (not paged).

    The answer carries an ``ETag``; a request whose ``If-None-Match`` names the current one is
    answered ``304`` with no body, so a console polling an open thread costs almost nothing
    while nothing changes.
    """
    rules.get_conversation(ctx, conversation_id)
    tag = thread_etag(ctx, conversation_id)
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers={"ETag": tag})
    return Response(thread_json(ctx, conversation_id).encode(), media_type="application/json",
                    headers={"ETag": tag})


def thread_etag(ctx: SandboxContext, conversation_id: int) -> str:
    """A validator of a thread: it changes when a message is added or rewritten."""
    row = ctx.db.one(
        "SELECT count(*) AS n, coalesce(max(seq), 0) AS last, "
        "coalesce(total(length(attributes)), 0) AS size FROM messages WHERE conversation_id = ?",
        (conversation_id,),
    )
    assert row is not None
    return f'W/"{row["n"]}-{row["last"]}-{int(row["size"])}"'


@router.post("/v1/conversations/{conversationId}/messages",
             response_model=Envelope[AddedMessage], summary="Add a message to a conversation",
             responses={404: {"description": "No such conversation"}})
async def add_message(ctx: Ctx, request: Request, conversation_id: ConversationIdPath,
                      body: MessageInput) -> Response:
    """Add an inbound message (author: the requester) or an outbound one (author: ``agentId``).

    ``externalId`` is unique per conversation (the idempotency key of a send): a second
    message with it is refused with 400 naming the first. An inbound message opens a Pending
    conversation and reopens a Closed one. ``data:`` attachments are stored and served by
    the sandbox at ``/files/{id}``.
    """
    with ctx.db.tx():
        conversation = rules.get_conversation(ctx, conversation_id)
        added = write_message(ctx, conversation, body, str(request.base_url))
        if added["direction"] == "Inbound":
            rules.on_inbound_message(ctx, conversation)
        else:
            rules.on_outbound_message(ctx, conversation)
    return ok(added)


@router.get("/files/{fileId}", summary="Download a stored attachment",
            response_class=Response,
            responses={200: {"description": "The attachment's bytes",
                             "content": {"application/octet-stream": {}}},
                       404: {"description": "No such attachment"}})
async def read_file(ctx: Ctx, file_id: FileIdPath) -> Response:
    """An attachment the sandbox copied from a ``data:`` URL, with its media type."""
    row = ctx.db.one("SELECT content_type, data, name FROM attachments WHERE id = ?", (file_id,))
    if row is None:
        raise not_found(f"Attachment {file_id}")
    headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "private, max-age=3600"}
    if row["name"]:
        name = str(row["name"])
        plain = _UNSAFE_NAME.sub("_", name)[:100] or "attachment"
        headers["Content-Disposition"] = (f'inline; filename="{plain}"; '
                                          f"filename*=UTF-8''{quote(name, safe='')}")
    return Response(bytes(row["data"]), media_type=row["content_type"], headers=headers)


__all__ = ["ATTRIBUTE_TYPES", "build_attributes", "message_problem", "one_ms_after",
           "require_enduser", "router", "store_attachments", "write_message"]
