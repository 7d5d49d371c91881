"""The composer's I/O: drafts, the remembered choices, and handing replies and notes to the
outbox.

The composer widget is a view: it posts what the user typed and asked for, and the thread
screen hands that here. What this does, and why here:

* **Drafts** are saved on every keystroke (one UPSERT in the local store) and read back when
  a thread opens. Whether the draft is a reply or an internal note is kept beside it, so a
  note written before a crash comes back as a note, never as a reply.
* **Text or Markdown** is remembered per channel, so an agent who answers chats in Markdown
  picks it once.
* **Sending** checks what the service would refuse, reads local files into ``data:`` URLs
  off the UI thread (a file can be megabytes), and enqueues the reply or the note in the
  outbox, which keeps it on disk until the service confirms it and never sends it twice. It
  is held there ``compose.undo_seconds`` first (undo send: :meth:`.outbox.Outbox.undo`).
* **Delivering a note** (the outbox's send, for a note): notes carry no ``externalId``, so
  a note is dated by the console when it is written and, when an earlier attempt may have
  reached the service, the conversation's notes are read first and a note of the same
  author, time and text counts as delivered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..api.wire_time import format_utc, parse_wire_time
from .draft_modes import ComposeMode, draft_mode, set_draft_mode
from .errors import Refusal, Refused
from .local_failures import LOCAL_FAILURES
from .outbox import OutboxItem
from .outbox_payloads import note_payload, reply_payload

if TYPE_CHECKING:
    from ..api.models import Conversation, InternalNote
    from .hub import Hub
    from .local import Draft, LocalStore
    from .outbox import Outbox
    from .threads import ThreadStore

__all__ = ["MAX_NOTE_CHARS", "Compose", "ComposeMode", "Outgoing", "note_problem"]

#: The local store's key of the Text/Markdown choice per channel.
TYPES_SNAPSHOT: Final = "composer-types"
#: The longest note the service takes.
MAX_NOTE_CHARS: Final = 10_000


@dataclass(frozen=True, slots=True)
class Outgoing:
    """What the composer asks to send: a reply (with its content type and attachments as the
    draft keeps them) or an internal note (text only)."""

    conversation_id: int
    mode: ComposeMode
    text: str
    content_type: str = "Text"
    attachments: tuple[dict[str, str], ...] = ()


def note_problem(text: str, attachments: tuple[dict[str, str], ...] | list[dict[str, str]]
                 ) -> str | None:
    """Why this note cannot be written, or None when it can."""
    if attachments:
        return ("A note takes text only: remove the attachments (ctrl+a) or switch to Reply "
                "(ctrl+n).")
    if not text.strip():
        return "Nothing to note: write the note first."
    if len(text) > MAX_NOTE_CHARS:
        return f"The note is too long: at most {MAX_NOTE_CHARS:,} characters."
    return None


class Compose:
    """The store side of the composer, for one session.

    ``hold`` gives the seconds a reply or note waits in the outbox for undo (read at each
    send: the setting may change while the console runs).
    """

    def __init__(self, hub: Hub, local: LocalStore, outbox: Outbox, threads: ThreadStore, *,
                 hold: Callable[[], float] = lambda: 0.0) -> None:
        self._hub = hub
        self._local = local
        self._outbox = outbox
        self._threads = threads
        self._hold = hold

    # ------------------------------------------------------------------ drafts

    def draft(self, conversation_id: int) -> Draft | None:
        """The conversation's draft, or None."""
        return self._local.draft(conversation_id)

    def save_draft(self, conversation_id: int, text: str,
                   attachments: list[dict[str, str]]) -> None:
        """Keep what the composer holds (raises the local store's error when it cannot)."""
        self._local.save_draft(conversation_id, text, attachments)

    # ------------------------------------------------------------------ choices

    def content_type(self, channel: str) -> str:
        """Text or Markdown, as last chosen for this channel."""
        try:
            chosen = self._local.snapshot(TYPES_SNAPSHOT)
        except LOCAL_FAILURES:  # a damaged store: the default, and the reply still goes
            return "Text"
        value = chosen.get(channel) if isinstance(chosen, dict) else None
        return value if value in ("Text", "Markdown") else "Text"

    def remember_content_type(self, channel: str, content_type: str) -> None:
        """Keep the choice for the channel (the next conversation on it opens with it)."""
        chosen = self._local.snapshot(TYPES_SNAPSHOT)
        types = dict(chosen) if isinstance(chosen, dict) else {}
        types[channel] = content_type
        self._local.save_snapshot(TYPES_SNAPSHOT, types)

    def mode(self, conversation_id: int) -> ComposeMode:
        """Whether the conversation's draft is a note or a reply (a reply unless kept)."""
        return draft_mode(self._local, conversation_id)

    def remember_mode(self, conversation_id: int, mode: ComposeMode) -> None:
        """Keep whether the conversation's draft is a note."""
        set_draft_mode(self._local, conversation_id, mode)

    # ------------------------------------------------------------------ sending

    async def send(self, outgoing: Outgoing, conversation: Conversation | None
                   ) -> OutboxItem:
        """Check ``outgoing`` and put it in the outbox (deleting the draft in the same
        transaction), held for undo as long as the settings say; the item queued. Raises
        :class:`Refused` when it was not queued (nothing is lost then):
        ``Refusal.NOT_SIGNED_IN`` while no agent is signed in to write it in the name of, a
        rule's refusal for what the service would refuse."""
        if not self._hub.me_id:
            raise Refused("Not signed in yet: it is kept, try again in a moment.",
                          kind=Refusal.NOT_SIGNED_IN)
        if outgoing.mode == "note":
            problem = note_problem(outgoing.text, outgoing.attachments)
            if problem is not None:
                raise Refused(problem)
            payload = note_payload(outgoing.text, agent_id=self._hub.me_id,
                                   created_at=format_utc(self._hub.server_now()))
        else:
            # the reply rules read the models: loaded with the first reply, not the first frame
            from .replies import AttachmentError, materialize, reply_problem

            try:
                files = await asyncio.to_thread(
                    lambda: [materialize(entry) for entry in outgoing.attachments])
            except AttachmentError as error:
                raise Refused(str(error)) from error
            problem = reply_problem(conversation, outgoing.text, outgoing.content_type, files)
            if problem is not None:
                raise Refused(problem)
            payload = reply_payload(outgoing.text, agent_id=self._hub.me_id,
                                    content_type=outgoing.content_type, attachments=files,
                                    composed=[dict(entry) for entry in outgoing.attachments])
        try:
            item = self._outbox.enqueue(outgoing.conversation_id, payload, hold=self._hold())
        except ValueError as error:
            raise Refused(f"It cannot be sent: {error}.") from error
        except LOCAL_FAILURES as error:  # the local store could not keep it: the text stays
            raise Refused(f"It could not be queued: {error}") from error
        if outgoing.mode == "note":
            # only the next draft's mode: never worth failing a send
            with contextlib.suppress(*LOCAL_FAILURES):
                self.remember_mode(outgoing.conversation_id, "reply")
        return item

    async def deliver_note(self, item: OutboxItem) -> Any:
        """Write a queued note on the service (the outbox's send for notes), once."""
        client = self._hub.client
        payload = item.payload
        message = str(payload.get("content") or "")
        agent_id = str(payload.get("agent_id") or "")
        created_at = parse_wire_time(str(payload.get("created_at")))  # checked when queued
        note: InternalNote | None = None
        if item.attempts > 1:
            for stored in await client.notes.list(item.conversation_id):
                if (stored.author_id.lower() == agent_id.lower() and stored.message == message
                        and format_utc(stored.created_at) == format_utc(created_at)):
                    note = stored  # an earlier attempt was stored
                    break
        if note is None:
            note = await client.notes.add(item.conversation_id, message,
                                          agent_id=agent_id or None, created_at=created_at)
        # either way the open thread reads its notes again: an earlier attempt stored while
        # its answer was lost is as new to the thread as one stored now
        self._threads.want_notes()
        self._hub.live.poke("thread")
        return note

