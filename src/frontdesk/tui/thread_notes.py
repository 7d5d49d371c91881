"""Internal notes in the thread: shown among the messages, by time, as ``Internal`` entries.

The thread view shows message records; a note becomes one whose direction is ``Internal``
(the message view then draws it as a note: its own colour and border, "Note · only agents
see this", the author) and whose id starts with :data:`NOTE_PREFIX`, so nothing meant for a
message (anonymising it, say) is done to a note.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Final

from ..api.models import InternalNote, Message
from ..store.message_rows import MessageRows
from ..store.outbox import OutboxItem

__all__ = ["NOTE_PREFIX", "is_note_entry", "note_echo", "note_message", "with_notes"]

#: Ids of notes shown in the thread start with this.
NOTE_PREFIX: Final = "note-"


def _record(entry_id: str, author_id: str, created_at: str, text: str,
            external_id: str | None = None) -> Message:
    return Message.model_validate({
        "id": entry_id,
        "authorId": author_id,
        "externalId": external_id,
        "createdAt": created_at,
        "attributes": {"_type": "InternalNote", "direction": "Internal",
                       "content": {"_type": "Text", "value": text}},
    })


def note_message(note: InternalNote) -> Message:
    """A note as the thread view shows it."""
    return _record(f"{NOTE_PREFIX}{note.id}", note.author_id, note.created_at.isoformat(),
                   note.message)


def note_echo(item: OutboxItem, entry_id: str, author_id: str) -> Message:
    """A note still in the outbox, shown as a note until the service has it."""
    payload = item.payload
    created = str(payload.get("created_at") or "") or datetime.fromtimestamp(
        item.created_at, UTC).isoformat()
    return _record(entry_id, author_id or str(payload.get("agent_id") or "me"), created,
                   str(payload.get("content") or ""), item.external_id)


def is_note_entry(message: Message) -> bool:
    """Whether a thread entry is an internal note (or a note still in the outbox)."""
    return message.attributes.direction == "Internal" and message.attributes.type == \
        "InternalNote"


def with_notes(messages: Sequence[Message], notes: Sequence[InternalNote]
               ) -> Sequence[Message]:
    """The messages, in the service's order (oldest first), with each note placed before the
    first message that is newer than it (so a note follows the messages of its own time).

    Without notes this is ``messages`` itself; with some, only the messages around each
    note's place are read (a long thread's compact rows stay compact)."""
    if not notes:
        return messages
    ordered = sorted(notes, key=lambda note: note.created_at)
    places = [bisect_right(messages, note.created_at, key=_created_at) for note in ordered]
    entries = [(place, note_message(note)) for place, note in zip(places, ordered, strict=True)]
    if isinstance(messages, MessageRows):
        return messages.inserted(entries)
    out: list[Message] = []
    start = 0
    for place, entry in entries:
        out.extend(messages[start:place])
        out.append(entry)
        start = place
    out.extend(messages[start:])
    return tuple(out)


def _created_at(message: Message) -> datetime:
    return message.created_at
