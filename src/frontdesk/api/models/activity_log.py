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


class ActivityAttributes(Record):
    """What an entry says beyond its kind: the members the published attributes of every
    kind have (each kind fills its own: ``tag`` for TagAdded, ``destinationId`` and
    ``destinationLabel`` for a transfer, ``messageId`` for a message, ``parent`` and
    ``child`` for a link, ``agent`` and ``score`` for a rating, …); a member a newer service
    adds is kept as it came."""

    agent: ActivityLogUser | None = None
    agent_id: str | None = None
    agent_name: str | None = None
    agent_names: list[str] | None = None
    avatar_url: str | None = None
    channel_reference: str | None = None
    child: int | None = None
    claimed_from_label: str | None = None
    claimed_from_type: str | None = None
    destination_id: str | None = None
    destination_label: str | None = None
    destination_type: str | None = None
    evaluation_filters: str | None = None
    failure_reason: str | None = None
    from_endpoint: str | None = None
    is_resolved: bool | None = None
    is_successful: bool | None = None
    language: str | None = None
    link_type: str | None = None
    message: str | None = None
    message_id: str | None = None
    new_subject: str | None = None
    new_user: ActivityLogUser | None = None
    number_of_deleted_files: int | None = None
    old_subject: str | None = None
    old_user: ActivityLogUser | None = None
    parent: int | None = None
    queue_id: str | None = None
    queue_label: str | None = None
    queue_name: str | None = None
    rating_scheduled_time: str | None = None
    reason: str | None = None
    reservation_type: str | None = None
    score: int | None = None
    subject: str | None = None
    tag: str | None = None
    template_name: str | None = None
    transfer_type: str | None = None
    updated_attribute_ids: list[str] | None = None
    updated_attribute_values: dict[str, Any] | None = None
    user: ActivityLogUser | None = None
    valid_until: str | None = None
    was_text_redacted: bool | None = None


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
    attributes: ActivityAttributes | None = None


__all__ = ["ActivityAttributes", "ActivityLogEntry", "ActivityLogUser"]
