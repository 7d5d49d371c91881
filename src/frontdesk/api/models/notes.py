"""Internal notes: what agents write on a conversation for each other, never sent to the
customer."""

from __future__ import annotations

from pydantic import Field

from .common import Input, Record, UtcDateTime, Uuid, ZonedDateTime


class InternalNote(Record):
    """An internal note of a conversation (``csid``)."""

    id: str
    author_id: str
    created_at: ZonedDateTime
    csid: int
    message: str


class CreateNoteInput(Input):
    """A new internal note. Without ``agentId`` the note is written by the key's user; without
    ``createdAt`` it is dated now."""

    message: str = Field(min_length=1, max_length=10_000)
    agent_id: Uuid | None = None
    created_at: UtcDateTime | None = None


class BulkCreateNotesInput(Input):
    """Several internal notes for one conversation."""

    data: list[CreateNoteInput] = Field(min_length=1, max_length=100)


__all__ = ["BulkCreateNotesInput", "CreateNoteInput", "InternalNote"]
