"""The activity log: what happened to conversations, entry by entry, and who did it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .common import Record, ZonedDateTime


class ActivityLogUser(Record):
    """Who did something (an agent, an end user or the system), as the log names them."""

    id: str
    name: str | None = None
    email: str | None = None
    phone_number: str | None = None


class ActivityLogEntry(Record):
    """One thing that happened to a conversation.

    ``_type`` says what (``ConversationCreatedByCustomer``, ``MessageAddedByAgent``,
    ``NoteAdded``, ``ConversationClaimed``, ``TransferSuccessful``, ``TagAdded``,
    ``FollowupAdded``, ``ConversationClosed``, ``ConversationRated``, …; an unknown one still
    parses); ``attributes`` carries its details, by kind. ``activityType`` is the deprecated
    name of the same thing.
    """

    id: str
    conversation_id: int
    activity_timestamp: ZonedDateTime
    type: str = Field(alias="_type")
    activity_type: str | None = Field(default=None, deprecated=True,
                                      description="replaced by _type")
    author: ActivityLogUser | None = None
    attributes: dict[str, Any] | None = None


__all__ = ["ActivityLogEntry", "ActivityLogUser"]
