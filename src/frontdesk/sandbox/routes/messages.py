"""Sandbox routes: the messages of a conversation, and the attachments the sandbox stores.

A message's ``attributes`` are stored in wire form, so the thread is answered by joining the
stored JSON text (one query on ``messages_conversation``, no per-message decoding): a thread
of 10,000 messages costs a few milliseconds.

Writing a new message (the channels' rules, its attributes, its attachments) is
:mod:`~frontdesk.sandbox.message_writing`; the conversation routes use it too.
"""

from __future__ import annotations

import re
from json.encoder import encode_basestring
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from starlette.responses import Response

from ...api.models import (
    AddedMessage,
    Envelope,
    Message,
    MessageInput,
)
from .. import rules
from ..context import Ctx, SandboxContext, ok
from ..errors import not_found
from ..message_writing import write_message
from ..params import ConversationIdPath, uuid_path

router = APIRouter(tags=["messages"])

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]")

FileIdPath = Annotated[str, uuid_path("fileId", "an attachment id")]


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


__all__ = ["router", "thread_etag", "thread_json"]

