"""Sandbox routes: internal notes of a conversation (published beyond the spec's tables).

A note is written by ``agentId`` (an agent or admin; 400 when not one) or, without it, by the
admin the API key acts for; it is dated ``createdAt`` or now. Notes are listed oldest first.
A bulk of notes answers one outcome per note, in order: the good ones are kept even when
others fail (a failure carries the message alone, as published).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from ...api.models import (
    BulkActionOutcome,
    BulkCreateNotesInput,
    CreateNoteInput,
    Envelope,
    InternalNote,
)
from .. import activity, rules
from ..bulk import failure, success
from ..context import Ctx, SandboxContext, ok
from ..db import iso
from ..errors import ApiProblem, bad_request
from ..params import ConversationIdPath
from ..shapes import zoned

router = APIRouter(tags=["notes"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such conversation"}}


def note_shape(row: Any) -> dict[str, Any]:
    """An internal note (its time in the zoned form, as published)."""
    return {"id": row["id"], "authorId": row["author_id"], "createdAt": zoned(row["created_at"]),
            "csid": row["conversation_id"], "message": row["message"]}


def write_note(ctx: SandboxContext, conversation_id: int, note: CreateNoteInput) -> Any:
    """Check and store one note; the row, or a 400."""
    if not note.message.strip():
        raise bad_request("Invalid value in request: message must not be blank")
    author = note.agent_id.lower() if note.agent_id else ctx.api_user_id
    if note.agent_id is not None:
        rules.require_agent(ctx, author)
    note_id = ctx.new_id()
    at = iso(note.created_at) if note.created_at else ctx.now_iso()
    ctx.db.run("INSERT INTO notes (id, conversation_id, author_id, created_at, message) "
               "VALUES (?, ?, ?, ?, ?)", (note_id, conversation_id, author, at, note.message))
    activity.record(ctx, conversation_id, "NoteAdded", author_id=author, at=at,
                    message=note.message)
    return ctx.db.one("SELECT * FROM notes WHERE id = ?", (note_id,))


@router.get("/v1/conversations/{conversationId}/notes",
            response_model=Envelope[list[InternalNote]], summary="List internal notes",
            responses=_NOT_FOUND)
async def list_notes(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """Every internal note of the conversation, oldest first."""
    rules.get_conversation(ctx, conversation_id)
    rows = ctx.db.all("SELECT * FROM notes WHERE conversation_id = ? ORDER BY created_at, seq",
                      (conversation_id,))
    return ok([note_shape(r) for r in rows])


@router.post("/v1/conversations/{conversationId}/notes", response_model=Envelope[InternalNote],
             summary="Add an internal note",
             responses={**_NOT_FOUND, 400: {"description": "Invalid body, or agentId is not "
                                                           "an agent"}})
async def add_note(ctx: Ctx, conversation_id: ConversationIdPath, body: CreateNoteInput
                   ) -> Response:
    """Write a note (never shown to the customer)."""
    with ctx.db.tx():
        rules.get_conversation(ctx, conversation_id)
        row = write_note(ctx, conversation_id, body)
    return ok(note_shape(row))


@router.post("/v1/conversations/{conversationId}/notes/bulk",
             response_model=Envelope[list[BulkActionOutcome[InternalNote]]],
             summary="Add internal notes",
             responses=_NOT_FOUND)
async def add_notes(ctx: Ctx, conversation_id: ConversationIdPath, body: BulkCreateNotesInput
                    ) -> Response:
    """Write each note; a note that is refused fails alone."""
    outcomes: list[dict[str, Any]] = []
    with ctx.db.tx():
        rules.get_conversation(ctx, conversation_id)
        for note in body.data:
            try:
                outcomes.append(success(note_shape(write_note(ctx, conversation_id, note))))
            except ApiProblem as problem:
                outcomes.append(failure(None, problem.message))
    return ok(outcomes)
