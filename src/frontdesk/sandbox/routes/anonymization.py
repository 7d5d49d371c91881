"""Sandbox routes: anonymisation requests for conversations, messages and end users.

Each request is recorded, answered at once with its status (``processedAt`` absent), and
queued as an ``anonymize`` job that scrubs the data for real (``scrub.py``). A conversation
must be closed first unless ``force`` closes it; so must every conversation of an end user.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query
from starlette.responses import Response

from ...api.models import AnonymizationInput, AnonymizationRequestStatus, Envelope
from ...api.models.anonymization import ENTITY_TYPES
from ...api.models.common import UUID_PATTERN
from .. import records, rules, scrub, shapes, worker  # scrub registers the "anonymize" job
from ..context import Ctx, SandboxContext, ok
from ..errors import bad_request, conflict, not_found
from ..params import MAX_ID, ConversationIdPath, MessageIdPath, RequestIdPath, UserIdPath
from .custom_attributes import get_enduser

router = APIRouter(tags=["anonymization"])

Status = Envelope[AnonymizationRequestStatus]
Force = Annotated[bool, Query(description="close what is still open first")]

_CSID = r"[1-9][0-9]{0,18}"
_UUID = UUID_PATTERN.strip("^$")
ENTITY_ID_FORMATS = {
    "Conversation": re.compile(f"^{_CSID}$"),
    "Message": re.compile(f"^{_CSID}_{_UUID}$"),
    "User": re.compile(UUID_PATTERN),
}
ENTITY_ID_TEXT = {
    "Conversation": "a conversation id (digits)",
    "Message": "<conversation id>_<message uuid>",
    "User": "a user uuid",
}

JOB = scrub.process  # the handler of the work queued here


def status_shape(row: Any) -> dict[str, Any]:
    """An anonymisation request's status (times in the zoned form)."""
    out: dict[str, Any] = {
        "id": row["id"], "_type": row["type"], "initiatedAt": shapes.zoned(row["initiated_at"]),
        "targetEntityId": row["target_entity_id"], "requestedBy": row["requested_by"],
        "entityType": ENTITY_TYPES.get(row["type"], "UnknownAnonymizationType"),
    }
    if row["processed_at"] is not None:
        out["processedAt"] = shapes.zoned(row["processed_at"])
    return out


def _request(ctx: SandboxContext, kind: str, target: str) -> dict[str, Any]:
    """Record a request, queue its work, and answer its status."""
    request_id = records.insert_anonymization_request(
        ctx.db, type=kind, target_entity_id=target, requested_by=ctx.api_user_id,
        initiated_at=ctx.now_iso())
    worker.enqueue(ctx, "anonymize", {"requestId": request_id})
    row = ctx.db.one("SELECT * FROM anonymization_requests WHERE id = ?", (request_id,))
    return status_shape(row)


def conversation_request(ctx: SandboxContext, conversation_id: int, force: bool
                         ) -> dict[str, Any]:
    """Anonymise a conversation: a 409 when it is not closed, unless ``force`` closes it."""
    row = rules.get_conversation(ctx, conversation_id)
    if row["state"] != rules.CLOSED:
        if not force:
            raise conflict(f"Conversation {conversation_id} is not closed; close it first or "
                           "anonymize with force")
        rules.close(ctx, row, None)
    return _request(ctx, "Conversation", str(conversation_id))


def message_request(ctx: SandboxContext, conversation_id: int, message_id: str
                    ) -> dict[str, Any]:
    """Anonymise one message of a conversation."""
    rules.get_conversation(ctx, conversation_id)
    message_id = message_id.lower()
    if ctx.db.one("SELECT 1 FROM messages WHERE id = ? AND conversation_id = ?",
                  (message_id, conversation_id)) is None:
        raise not_found(f"Message {message_id} of conversation {conversation_id}")
    return _request(ctx, "Message", f"{conversation_id}_{message_id}")


def user_request(ctx: SandboxContext, user_id: str, force: bool) -> dict[str, Any]:
    """Anonymise an end user: a 409 while a conversation of theirs is open, unless ``force``
    closes them all."""
    user = get_enduser(ctx, user_id)
    still_open = ctx.db.all("SELECT * FROM conversations WHERE requester_id = ? "
                            "AND state != ? ORDER BY id", (user["id"], rules.CLOSED))
    if still_open and not force:
        ids = ", ".join(str(r["id"]) for r in still_open[:5])
        raise conflict(f"End user {user['id']} has conversations that are not closed ({ids}); "
                       "close them first or anonymize with force")
    for row in still_open:
        rules.close(ctx, row, None)
    return _request(ctx, "User", user["id"])


@router.patch("/v1/conversations/{conversationId}/anonymize", response_model=Status,
              summary="Anonymize a conversation",
              responses={404: {"description": "No such conversation"},
                         409: {"description": "The conversation is not closed and force is "
                                              "false"}})
async def anonymize_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                                 force: Force = False) -> Response:
    """Request the anonymisation of a closed conversation (``force`` closes an open one)."""
    with ctx.db.tx():
        return ok(conversation_request(ctx, conversation_id, force))


@router.patch("/v1/conversations/{conversationId}/messages/{messageId}/anonymize",
              response_model=Status, summary="Anonymize a message",
              responses={404: {"description": "No such conversation, or no such message in "
                                              "it"}})
async def anonymize_message(ctx: Ctx, conversation_id: ConversationIdPath,
                            message_id: MessageIdPath) -> Response:
    """Request the anonymisation of one message."""
    with ctx.db.tx():
        return ok(message_request(ctx, conversation_id, message_id))


@router.patch("/v1/endusers/{userId}/anonymize", response_model=Status,
              summary="Anonymize an end user",
              responses={404: {"description": "No such end user"},
                         409: {"description": "A conversation of the end user is not closed "
                                              "and force is false"}})
async def anonymize_enduser(ctx: Ctx, user_id: UserIdPath, force: Force = False) -> Response:
    """Request the anonymisation of an end user and their conversations."""
    with ctx.db.tx():
        return ok(user_request(ctx, user_id, force))


@router.get("/v1/anonymization/request/{requestId}", response_model=Status,
            summary="Status of an anonymization request",
            responses={404: {"description": "No such request"}})
async def read_request(ctx: Ctx, request_id: RequestIdPath) -> Response:
    """An earlier request; ``processedAt`` once the data is scrubbed."""
    row = ctx.db.one("SELECT * FROM anonymization_requests WHERE id = ?",
                     (request_id.lower(),))
    if row is None:
        raise not_found(f"Anonymization request {request_id}")
    return ok(status_shape(row))


@router.post("/v1/anonymization", response_model=Status, deprecated=True,
             summary="Anonymize a conversation, message or user (deprecated)",
             responses={404: {"description": "No such conversation, message or end user"},
                        409: {"description": "Not closed and forceAnonymization is false"}})
async def anonymize(ctx: Ctx, body: AnonymizationInput) -> Response:
    """The older way to ask for any of the three anonymisations."""
    kind, entity_id = body.type, body.entity_id.strip()
    # read without touching the deprecated attribute (which warns)
    entity_type = body.model_dump(include={"entity_type"}, by_alias=False).get("entity_type")
    if entity_type is not None and entity_type != ENTITY_TYPES[kind]:
        raise bad_request(f"Invalid value in request: entityType {entity_type} does not "
                          f"go with _type {kind}")
    if not ENTITY_ID_FORMATS[kind].match(entity_id):
        raise bad_request(f"Invalid value in request: entityId of a {kind} is "
                          f"{ENTITY_ID_TEXT[kind]}")
    force = bool(body.force_anonymization)
    with ctx.db.tx():
        if kind == "Conversation":
            status = conversation_request(ctx, _csid(entity_id), force)
        elif kind == "Message":
            csid, _, message_id = entity_id.partition("_")
            status = message_request(ctx, _csid(csid), message_id)
        else:
            status = user_request(ctx, entity_id, force)
    return ok(status)


def _csid(text: str) -> int:
    value = int(text)
    if value > MAX_ID:
        raise bad_request("Invalid value in request: entityId is not a conversation id")
    return value
