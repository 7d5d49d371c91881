"""Internal notes: agents' notes on a conversation, never sent to the customer."""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..models.common import BulkActionOutcome
from ..models.notes import BulkCreateNotesInput, CreateNoteInput, InternalNote
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Resource,
    build,
    check_conversation_id,
    fail,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["NotesResource"]

_LIST = operation("notes.list")
_ADD = operation("notes.add")
_BULK = operation("notes.bulk_add")


class NotesResource(Resource):
    """``client.notes``: read and write a conversation's internal notes. (Published beyond the
    spec's tables.)"""

    async def list(self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
                   ) -> builtins.list[InternalNote]:
        """Every internal note of a conversation, oldest first."""
        path = {"conversationId": check_conversation_id(conversation_id, _LIST)}
        reply = await self._transport.send(_LIST, path=path, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), InternalNote)

    async def add(
        self,
        conversation_id: int,
        message: str,
        *,
        agent_id: str | None = None,
        created_at: datetime | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> InternalNote:
        """Write an internal note, as ``agent_id`` (default: the key's user), dated
        ``created_at`` (default: now). Not retried after it may have reached the service (a
        second try could write the note twice)."""
        path = {"conversationId": check_conversation_id(conversation_id, _ADD)}
        body = build(_ADD, CreateNoteInput, message=message, agent_id=agent_id,
                     created_at=created_at)
        reply = await self._transport.send(_ADD, path=path, body=body.wire(), priority=priority)
        return parse_one(_ADD, unwrap(_ADD, reply.body), InternalNote)

    async def bulk_add(
        self,
        conversation_id: int,
        notes: Sequence[CreateNoteInput | Mapping[str, Any]],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[BulkActionOutcome[InternalNote]]:
        """Write several notes; one outcome each, in order (a success's ``data`` is the
        note written)."""
        path = {"conversationId": check_conversation_id(conversation_id, _BULK)}
        if isinstance(notes, str | Mapping) or not notes:
            raise fail(_BULK, "Give a non-empty list of notes")
        items = [build(_BULK, CreateNoteInput, note) for note in notes]
        body = build(_BULK, BulkCreateNotesInput, {"data": [n.wire() for n in items]})
        reply = await self._transport.send(_BULK, path=path, body=body.wire(), priority=priority)
        return parse_items(_BULK, unwrap(_BULK, reply.body), BulkActionOutcome[InternalNote])
