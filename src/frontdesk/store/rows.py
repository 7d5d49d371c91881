"""The inbox's compact row: what a list line, a view and a filter need of a conversation.

The inbox may hold a hundred thousand conversations. A full record (a pydantic model with its
nested assignment, queue, link, custom attributes…) costs a few kilobytes; a row keeps only
the fields the list paints and the views test, in slots, with the repeated strings (states,
channels, agent and queue ids) interned — about a tenth of the memory. Full records are read
when one conversation is needed (:class:`frontdesk.store.inbox.Records`).

A row is built from a record (:meth:`InboxRow.of`) or straight from the wire JSON the local
store keeps (:meth:`InboxRow.from_wire`), which is how the first frame is painted without
loading the models or the HTTP stack.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..api.models import Conversation

__all__ = ["InboxRow", "parse_wire_time"]

_intern = sys.intern


@dataclass(frozen=True, slots=True)
class InboxRow:
    """One conversation as the inbox shows it."""

    id: int
    state: str | None
    channel: str
    requester_id: str
    subject: str | None
    queue_id: str | None
    agent_id: str | None
    #: the latest moment the record tells of (created, state change, assignment, queued)
    when: datetime
    #: a fingerprint of the whole record: a fetched record equal to the kept one changes nothing
    digest: int = 0

    @classmethod
    def of(cls, conversation: Conversation, digest: int = 0) -> InboxRow:
        """The row of a full record."""
        assignment, queue = conversation.assignment, conversation.queue
        latest = conversation.created_at
        for moment in (conversation.state_updated_at,
                       assignment.assigned_at if assignment is not None else None,
                       queue.queued_at if queue is not None else None):
            if moment is not None and moment > latest:
                latest = moment
        return cls(
            id=conversation.id,
            state=_maybe(conversation.state),
            channel=_intern(str(conversation.channel)),
            requester_id=_intern(conversation.requester_id),
            subject=conversation.subject,
            queue_id=_maybe(queue.id if queue is not None else None),
            agent_id=_maybe(assignment.agent_id if assignment is not None else None),
            when=latest,
            digest=digest,
        )

    @classmethod
    def from_wire(cls, wire: dict[str, Any], digest: int = 0) -> InboxRow:
        """The row of a record's wire JSON (camelCase, as the service and the local store
        write it). Raises ``KeyError``/``TypeError``/``ValueError`` on a malformed record."""
        assignment = wire.get("assignment") or {}
        queue = wire.get("queue") or {}
        latest = parse_wire_time(wire["createdAt"])
        for raw in (wire.get("stateUpdatedAt"), assignment.get("assignedAt"),
                    queue.get("queuedAt")):
            if raw:
                moment = parse_wire_time(raw)
                if moment > latest:
                    latest = moment
        subject = wire.get("subject")
        return cls(
            id=int(wire["id"]),
            state=_maybe(wire.get("state")),
            channel=_intern(str(wire["channel"])),
            requester_id=_intern(str(wire["requesterId"])),
            subject=str(subject) if subject is not None else None,
            queue_id=_maybe(queue.get("id")),
            agent_id=_maybe(assignment.get("agentId")),
            when=latest,
            digest=digest,
        )


def _maybe(value: Any) -> str | None:
    return _intern(str(value)) if value is not None else None


def parse_wire_time(value: Any) -> datetime:
    """A timestamp of the wire (``…Z``, ``…Z[GMT]`` or zone-less, read as UTC), aware UTC."""
    text = str(value)
    if text.endswith("]"):
        text = text[:text.rindex("[")]
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
