"""The open thread: its messages and internal notes, its head (record, tags, rating, queue
position, linked conversations), refreshed every few seconds while it is shown, and the
replies and notes waiting in the outbox beside it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..api.errors import ApiError, NotFound
from ..api.pacing import Priority
from .message_rows import MessageRows
from .outbox import Outbox, OutboxItem
from .topics import THREAD, TopicKey

if TYPE_CHECKING:
    from ..api.models import (
        Conversation,
        ConversationPosition,
        ConversationRating,
        InternalNote,
        Message,
    )
    from ..api.resources.messages import WireMessage
    from .directory import Directory
    from .hub import Hub
    from .inbox import InboxStore

    #: what a request for a thread's messages answers: the messages (None: unchanged), the tag
    Fetched = tuple[list[WireMessage] | None, str | None]

log = logging.getLogger("frontdesk.store")

TOPIC: TopicKey[ThreadState] = THREAD
#: every how many ticks the head's tags and ratings are read again
FULL_EVERY = 20
#: every how many ticks a waiting conversation's queue position is read again
POSITION_EVERY = 4


@dataclass(frozen=True)
class ThreadState:
    """What the thread screen shows. Compared by value: an unchanged poll is no change."""

    conversation_id: int
    conversation: Conversation | None = None
    #: the messages, oldest first (:class:`MessageRows` once read: models on demand)
    messages: Sequence[Message] = ()
    tag_ids: tuple[str, ...] = ()
    ratings: tuple[ConversationRating, ...] = ()
    position: ConversationPosition | None = None
    missing: bool = False
    pending: tuple[OutboxItem, ...] = field(default=(), compare=True)
    notes: tuple[InternalNote, ...] = ()
    #: the children linked under this conversation (each record carries its ``link``)
    children: tuple[Conversation, ...] = ()


class ThreadStore:
    """Loads and refreshes the thread that is open."""

    def __init__(self, hub: Hub, inbox: InboxStore, directory: Directory, outbox: Outbox,
                 interval: float) -> None:
        self._hub = hub
        self._inbox = inbox
        self._directory = directory
        self._outbox = outbox
        #: seconds between polls of the open thread
        self._interval = interval
        self.current: int | None = None
        self._polls = 0
        self._etag: str | None = None
        #: the messages ``_etag`` stands for: a poll whose previous state holds others (a
        #: poll that overlapped another) asks for all of them
        self._etag_messages: Sequence[Message] | None = None
        self._notes_due = False
        #: the messages of a thread the user just opened, asked for before its screen was
        #: built (the opening tick uses the answer): the conversation and the request
        self._early: tuple[int, asyncio.Task[Fetched]] | None = None
        #: set once the early request has left (or has ended)
        self._early_sent = asyncio.Event()

    def prefetch(self, conversation_id: int) -> None:
        """The user opens this thread: ask for its messages now, so that they are on their
        way while the screen is built (over a slow service the screen is then shown with
        them one round trip after the key press). The thread's opening tick uses the
        answer; nothing happens when the service cannot be reached now."""
        if self._early is not None and self._early[0] == conversation_id:
            return
        self._drop_early()
        try:
            client = self._hub.client
            loop = asyncio.get_running_loop()
        except (ApiError, RuntimeError):
            return
        sent = self._early_sent = asyncio.Event()
        task = loop.create_task(client.messages.list_wires_if_changed(
            conversation_id, None, priority=Priority.INTERACTIVE, on_sent=sent.set),
            name=f"thread-prefetch:{conversation_id}")
        task.add_done_callback(_consume)
        task.add_done_callback(lambda _task: sent.set())
        self._early = (conversation_id, task)

    async def early_sent(self, conversation_id: int, within: float) -> bool:
        """Wait (``within`` seconds at most) until the early request for this thread has
        left: the screen that shows it lets the request go before building itself, so the
        answer is not held back by the building. Returns at once when there is none."""
        early = self._early
        if early is None or early[0] != conversation_id or early[1].done():
            return False
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within):
                await self._early_sent.wait()
        return self._early_sent.is_set()

    def _drop_early(self) -> None:
        """Forget an early request (another thread is opened, or none): cancelled if it is
        still on its way."""
        if self._early is not None:
            self._early[1].cancel()
            self._early = None

    def _take_early(self, conversation_id: int) -> asyncio.Task[Fetched] | None:
        """The early request for this conversation, once (None when there is none)."""
        early, self._early = self._early, None
        if early is None:
            return None
        if early[0] != conversation_id:
            early[1].cancel()
            return None
        return early[1]

    def want_notes(self) -> None:
        """Read the notes and the linked conversations at the next tick (one was just
        written or linked here, or the user asked for a refresh). Otherwise the notes are
        read with the head's extras (every ``FULL_EVERY`` ticks) and the links when the
        thread opens: the polling budget (one request a second) has no room for more."""
        self._notes_due = True

    def open(self, conversation_id: int, known: Sequence[Message] = ()) -> ThreadState:
        """Show this conversation: its topic now polls it (returns what is known at once:
        the record, the tags, and ``known``, the newest messages read before, say for the
        inbox's preview — shown until the opening tick brings the whole thread)."""
        self.current = conversation_id
        self._polls = 0
        self._etag = None
        self._etag_messages = None
        record = self._inbox.records.get(conversation_id)
        state = ThreadState(conversation_id, record, tuple(known), tag_ids=self._inbox.tags.get(
            conversation_id, ()), pending=tuple(self._outbox.items(conversation_id)))
        self._hub.live.add(TOPIC, self.poll, self._interval, initial=state)
        return state

    def close(self) -> None:
        """No thread shown any more."""
        self.current = None
        self._drop_early()
        self._hub.live.remove(TOPIC)

    @property
    def state(self) -> ThreadState | None:
        """The latest state of the open thread."""
        value = self._hub.live.get(TOPIC)
        return value if isinstance(value, ThreadState) else None

    async def poll(self) -> ThreadState:
        """Fetch the open thread: one request a tick (its messages).

        The head's extras (tags, ratings) are read when the thread opens and every
        ``FULL_EVERY`` ticks; the record itself is kept current by the inbox's poll, which is
        asked for it whenever the messages changed. A waiting conversation's queue position
        is read every ``POSITION_EVERY`` ticks. That keeps a console inside one request a
        second with the inbox, presence and business hours polling too.

        The first tick is the user opening the thread: all of it (messages, record, tags,
        ratings, position, the authors' names) is what the user just asked for and goes
        before any polling, so a thread opened while the inbox is still filling shows at once.
        Its messages are shown as soon as they are read, one round trip after the opening;
        the rest of the head follows as it comes.
        """
        conversation_id = self.current
        if conversation_id is None:
            raise RuntimeError("no thread is open")
        client = self._hub.client
        previous = self.state
        full = self._polls % FULL_EVERY == 0 or previous is None or previous.conversation is None
        opening = self._polls == 0
        main = Priority.INTERACTIVE if opening else Priority.VISIBLE
        extra = Priority.INTERACTIVE if opening else Priority.BACKGROUND
        self._polls += 1
        known = previous is not None and previous.messages is self._etag_messages
        early = self._take_early(conversation_id) if opening else None
        try:
            if early is not None:
                fresh, etag = await early
            else:
                read = previous.messages if previous is not None else None
                fresh, etag = await client.messages.list_wires_if_changed(
                    conversation_id, self._etag if known else None, priority=main,
                    known=read.by_text if isinstance(read, MessageRows) else None)
        except NotFound:
            return ThreadState(conversation_id, missing=True)
        messages: Sequence[Message]
        if fresh is None and previous is not None:
            messages = previous.messages
        else:
            messages = MessageRows.of_wires(fresh or ())
        self._etag, self._etag_messages = etag, messages
        conversation = self._inbox.records.get(conversation_id) or (
            previous.conversation if previous else None)
        if opening and messages:
            # over a slow service each request of the head costs a round trip: the messages
            # go on screen now, the head's extras (and the authors' names) follow
            self._hub.live.put(TOPIC, ThreadState(
                conversation_id, conversation, messages,
                previous.tag_ids if previous else (), pending=previous.pending
                if previous else tuple(self._outbox.items(conversation_id))))
        if previous is not None and messages != previous.messages and not full:
            self._inbox.want([conversation_id])
        tag_ids = previous.tag_ids if previous else ()
        ratings = previous.ratings if previous else ()
        position = previous.position if previous else None
        if full:
            if previous is None or previous.conversation is None or self._polls == 1:
                conversation = await client.conversations.get(conversation_id, priority=main)
                self._inbox.upsert([conversation], "opened")
            try:
                tags = await client.tags.list_for_conversation(conversation_id, priority=extra)
                tag_ids = tuple(sorted(t.id for t in tags))
                self._inbox.set_tags(conversation_id, tag_ids)
                for tag in tags:
                    self._directory.tags.setdefault(tag.id, tag)
            except ApiError:
                pass
            try:
                ratings = tuple(await client.ratings.list(conversation_id, priority=extra))
            except ApiError:
                ratings = ()
        waiting = conversation is not None and conversation.queue is not None \
            and conversation.assignment is None and conversation.state == "Open"
        read_position = waiting and (full or self._polls % POSITION_EVERY == 0)
        if read_position:
            try:
                position = await client.queues.conversation_position(conversation_id,
                                                                     priority=extra)
            except ApiError:
                position = None
        elif not waiting:
            position = None
        authors = set(messages.authors[-200:] if isinstance(messages, MessageRows)
                      else (message.author_id for message in messages[-200:]))
        if messages:
            last = messages[-1]
            self._inbox.set_turn(conversation_id, last,
                                 conversation.requester_id if conversation else None)
            body = last.attributes.body
            if body is not None:
                self._inbox.set_preview(conversation_id, body.value[:200])
        notes, children = self._known_extras(conversation_id, previous)
        if opening or self._notes_due:
            self._notes_due = False
            notes, children = await self._extras(conversation_id, extra, notes, children)
        elif full:
            notes, _ = await self._extras(conversation_id, extra, notes, None)
        authors |= {note.author_id for note in notes[-200:]}
        names = Priority.INTERACTIVE if opening else Priority.VISIBLE
        if await self._directory.resolve_pending(only=authors, priority=names):
            self._inbox.version += 1
        pending = tuple(self._outbox.items(conversation_id))
        return self._with_known(
            ThreadState(conversation_id, conversation, messages, tag_ids, ratings, position,
                        pending=pending, notes=notes, children=children),
            previous, head_read=full, position_read=read_position or not waiting)

    def _with_known(self, state: ThreadState, previous: ThreadState | None, *,
                    head_read: bool, position_read: bool) -> ThreadState:
        """``state`` with what its tick did not read (the head's tags and ratings, the queue
        position) as it is known now (:meth:`_latest`)."""
        latest = self._latest(state.conversation_id, previous)
        if latest is None or (head_read and position_read):
            return state
        return replace(
            state,
            tag_ids=state.tag_ids if head_read else latest.tag_ids,
            ratings=state.ratings if head_read else latest.ratings,
            position=state.position if position_read else latest.position)

    def _latest(self, conversation_id: int, previous: ThreadState | None) -> ThreadState | None:
        """The thread's state as known now, not as this tick began: a tick running beside
        this one (a refresh beside a poke, the opening beside a refresh) may have read the
        head's extras since, and one not reading them must not put back the older ones."""
        latest = self.state
        if latest is None or latest.conversation_id != conversation_id:
            return previous
        return latest

    def _known_extras(self, conversation_id: int, previous: ThreadState | None
                      ) -> tuple[tuple[InternalNote, ...], tuple[Conversation, ...]]:
        """The notes and links known now (:meth:`_latest`)."""
        latest = self._latest(conversation_id, previous)
        return (latest.notes, latest.children) if latest is not None else ((), ())

    async def _extras(self, conversation_id: int, priority: Priority,
                      notes: tuple[InternalNote, ...], children: tuple[Conversation, ...] | None
                      ) -> tuple[tuple[InternalNote, ...], tuple[Conversation, ...]]:
        """The notes and (unless ``children`` is None) the linked children, read again;
        each is kept as it was when its request fails."""
        client = self._hub.client
        with contextlib.suppress(ApiError):
            notes = tuple(await client.notes.list(conversation_id, priority=priority))
        if children is None:
            return notes, ()
        with contextlib.suppress(ApiError):
            children = tuple(await client.links.linked(conversation_id, priority=priority))
        return notes, children

    def refresh_pending(self) -> None:
        """The outbox changed: show the open thread's waiting replies at once."""
        state = self.state
        if state is None:
            return
        pending = tuple(self._outbox.items(state.conversation_id))
        if pending != state.pending:
            from dataclasses import replace

            self._hub.live.put(TOPIC, replace(state, pending=pending))


def _consume(task: asyncio.Task[Any]) -> None:
    """Read an early request's outcome, so an answer nobody used is no warning: the opening
    tick that uses it sees its error itself."""
    if not task.cancelled():
        task.exception()
