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
    """The messages, in the service's order, with each note placed before the first message
    that is newer than it (so a note follows the messages of its own time). Without notes,
    ``messages`` itself; compact rows stay compact (a long thread is never read into
    models for this: a note's place is found by bisection on the messages' times)."""
    if not notes:
        return messages
    ordered = sorted(notes, key=lambda note: note.created_at)
    if isinstance(messages, MessageRows):
        rows = MessageRows()
        start = 0
        for note in ordered:
            # the service lists messages by time: the first newer one, by bisection
            at = bisect_right(messages, note.created_at, lo=start,
                              key=lambda message: message.created_at)
            rows.add_from(messages, range(start, at))
            rows.append(note_message(note))
            start = at
        rows.add_from(messages, range(start, len(messages)))
        return rows
    out: list[Message] = []
    index = 0
    for message in messages:
        while index < len(ordered) and ordered[index].created_at < message.created_at:
            out.append(note_message(ordered[index]))
            index += 1
        out.append(message)
    out.extend(note_message(note) for note in ordered[index:])
    return tuple(out)
