"""The activity log as the console reads it: one conversation's history, and the
organisation's recent activity (for supervisors), newest first."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Final

from ..api.pacing import Priority
from .errors import refusals

if TYPE_CHECKING:
    from ..api.models import ActivityLogEntry
    from .session import Session

__all__ = ["RECENT_HOURS", "RECENT_LIMIT", "conversation_history", "recent_activity"]

#: How far back the organisation's recent activity goes.
RECENT_HOURS: Final = 24
#: At most this many entries of the organisation's activity are read (the newest).
RECENT_LIMIT: Final = 1_000
#: Entries per page of the organisation's activity (a busy day is a few pages, not dozens).
RECENT_PAGE: Final = 200


async def conversation_history(session: Session, conversation_id: int
                               ) -> list[ActivityLogEntry]:
    """Everything that happened to one conversation, newest first (raises
    :class:`Refused`)."""
    with refusals("The history could not be read"):
        entries = await session.client.activity_log.for_conversation(
            conversation_id, priority=Priority.INTERACTIVE)
    # entries of the same moment: the one written last first (the service lists in order)
    return sorted(reversed(entries), key=lambda entry: entry.activity_timestamp, reverse=True)


async def recent_activity(session: Session, *, hours: int = RECENT_HOURS,
                          limit: int = RECENT_LIMIT) -> list[ActivityLogEntry]:
    """What happened to any conversation in the last ``hours``, newest first, at most
    ``limit`` entries (the newest; raises :class:`Refused`)."""
    since = session.server_now() - timedelta(hours=hours)
    entries: list[ActivityLogEntry] = []
    with refusals("The activity could not be read"):
        async for entry in session.client.activity_log.list(
                since=since, page_size=RECENT_PAGE, priority=Priority.INTERACTIVE):
            entries.append(entry)
    entries.reverse()  # entries of the same moment: the one written last first
    entries.sort(key=lambda entry: entry.activity_timestamp, reverse=True)
    return entries[:limit]
