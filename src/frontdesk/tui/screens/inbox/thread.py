"""The thread: one conversation's head, its messages and internal notes, and the composer below
them.

Pushed over the inbox (``esc`` goes back). On mount the store opens the conversation's live
topic ("thread": messages every tick, the head every few ticks, the outbox items waiting for
this conversation); the screen then only *applies changes*: new messages are appended to the
thread view (never a re-render), the head is refreshed only when what it shows differs, and
replies still in the outbox are shown as dimmed local echoes with their status until the real
message arrives. Internal notes are shown among the messages, by time, drawn as notes
(:mod:`frontdesk.tui.thread_notes`); the composer writes either (``ctrl+n`` switches) and is a
view whose messages this screen hands to the store (:mod:`frontdesk.tui.compose_link`).

Keys: ``i``/``tab`` write a reply, ``esc`` leaves the composer (and, from the thread, goes
back), ``J``/``K`` move to the next/previous conversation of the list the thread was opened
from without leaving the screen, ``y`` copies the focused message, or the newest (OSC 52:
works over SSH), ``A`` anonymizes it (the message's short id typed back), ``o`` shows an
attachment's URL and opens it only when confirmed, ``a`` edits the conversation's custom
attributes, ``r`` refreshes; on a failed reply ``e`` puts it back in the composer, ``d``
discards it and ``ctrl+r`` retries it; while a reply or note is held for undo, ``ctrl+z`` takes it
back into the composer. The conversation keys of the inbox (``c``/``C``
claim, ``x``/``X`` close, ``T`` transfer, ``f`` follow up, ``t`` tags, ``R`` reopen) come from
:class:`~frontdesk.tui.conversation_actions.ConversationActions`.

The screen holds the state and applies it; its parts are modules of their own: the local
echoes and the failed reply's keys (``thread_echoes``), a message's keys
(``thread_message_keys``), the composer's asks (``thread_composing``), the screens it opens
(``thread_panels``), what the head shows (``thread_head_facts``), and what they all reach
(``thread_parts``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.types import NoActiveAppError
from textual.widget import AwaitMount

from .... import collection_pause
from ....api.models import Conversation, Message
from ....store.message_rows import MessageRows
from ....store.outbox import OutboxItem
from ....store.threads import ThreadState
from ....store.topics import INBOX, THREAD
from ... import clock, compose_link
from ...conversation_actions import ConversationActions
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...thread_notes import NOTE_PREFIX, with_notes
from ...widgets.composer import Composer
from ...widgets.thread_head import ThreadHead
from ...widgets.thread_view import ThreadView
from .thread_composing import ThreadComposing
from .thread_echoes import ThreadEchoes
from .thread_head_facts import ThreadHeadFacts
from .thread_message_keys import ThreadMessageKeys
from .thread_panels import ThreadPanels

if TYPE_CHECKING:
    from datetime import datetime

    from textual.timer import Timer

__all__ = ["ThreadScreen"]

#: The head is looked at again this often ("waiting 12 min" moves on, names get resolved).
HEAD_TICK: Final = 5.0
#: Garbage collection waits for the opening's messages at most this long (seconds).
COLLECTION_HELD: Final = 2.0
#: The screen waits at most this long (seconds) for its messages' request to leave before
#: building itself (writing the request takes a few turns of the event loop, each as long
#: as whatever else runs in it: building the screen in those turns holds it back 15-30 ms).
LET_REQUEST_GO: Final = 0.02
#: The footer's keys wait for the opening's messages at most this long (seconds).
FOOTER_HELD: Final = 0.5


@owns_bindings
class ThreadScreen(ThreadEchoes, ThreadMessageKeys, ThreadComposing, ThreadPanels,
                   ThreadHeadFacts, ConversationActions):
    """One conversation: head, messages, composer.

    ``siblings`` are the conversation ids ``J``/``K`` walk through, in the order of the list
    the thread was opened from (the inbox view); without them, the "All" view's order.
    """

    MODE_NAME = "Thread"
    HELP_NAME = "Thread"
    AUTO_FOCUS = "ThreadView"
    #: the inbox keeps polling under an open thread: it keeps the head's record current
    TOPICS = ("inbox",)
    NEEDS = {"history": "activity_log.for_conversation"}
    FOOTER_FIRST = ("thread.reply", "thread.next_conversation", "thread.previous_conversation")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="thread.back"),
        Binding("i", "reply", "Reply", id="thread.reply"),
        Binding("tab", "reply", "Reply", show=False, id="thread.reply_tab"),
        Binding("J", "sibling(1)", "Next conv.", id="thread.next_conversation"),
        Binding("K", "sibling(-1)", "Prev conv.", id="thread.previous_conversation"),
        Binding("r", "refresh", "Refresh", id="thread.refresh"),
        Binding("a", "attributes", "Attributes", show=False, id="thread.attributes"),
        Binding("v", "ratings", "Ratings", show=False, id="thread.ratings"),
        Binding("h", "history", "History", id="thread.history"),
        Binding("l", "linked", "Linked", show=False, id="thread.linked"),
        Binding("L", "link_parent", "Link to parent", show=False, id="thread.link_parent"),
        Binding("e", "edit_unsent", "Edit unsent reply", show=False, id="thread.outbox_edit"),
        Binding("d", "discard_unsent", "Discard unsent reply", show=False,
                id="thread.outbox_discard"),
        Binding("ctrl+r", "retry_unsent", "Retry unsent reply", show=False,
                id="thread.outbox_retry"),
        # only while a reply is held for undo (check_action); else the editor's own ctrl+z
        Binding("ctrl+z", "undo_send", "Undo send", show=False, priority=True,
                id="thread.undo_send"),
        # a focused message copies itself; elsewhere this copies the newest one
        Binding("y", "copy_message", "Copy", show=False, id="thread.copy_newest"),
        Binding("ctrl+o", "quick_response", "Quick response", id="thread.quick_response"),
    ]

    def __init__(self, conversation_id: int, *, siblings: list[int] | None = None,
                 known: Sequence[Message] = ()) -> None:
        super().__init__()
        self.conversation_id = conversation_id
        #: the newest messages known before the service answers (the inbox's preview):
        #: shown with the screen's first frame, then reconciled with the whole thread
        self._known = tuple(known)
        self.sibling_ids = list(siblings) if siblings is not None else None
        self._echoes: dict[str, OutboxItem] = {}
        self._settling: dict[str, float] = {}
        self._dropped: set[str] = set()
        #: replies and notes held for undo here, kept a while after their hold (ctrl+z)
        self._held: dict[str, OutboxItem] = {}
        self._countdown: Timer | None = None
        self._undo_asked = False
        self._state: ThreadState | None = None
        self._thread_watched = False
        #: resumes garbage collection, held from the mount until the service's messages are
        #: painted (:mod:`frontdesk.collection_pause`; idempotent)
        self._resume_collection: Callable[[], None] = _nothing
        self._resume_scheduled = False
        with contextlib.suppress(NoActiveAppError):  # built outside a running console
            session = self.fd.session
            if session is not None:
                session.threads.prefetch(conversation_id)  # on its way while this is built
                self.footer_held = True  # its keys once the messages are painted

    def current_conversation_id(self) -> int | None:
        """The conversation shown (for the shared conversation actions)."""
        return self.conversation_id

    def compose_body(self) -> ComposeResult:
        session = self.session
        yield ThreadHead(clock.now, id="thread-head")
        yield ThreadView(names=session.directory.name, clock=clock.now, id="thread-view")
        conversation = session.inbox.records.get(self.conversation_id)
        start = compose_link.start(session, self.conversation_id, conversation, host=self)
        yield Composer(self.conversation_id, conversation, draft=start.draft,
                       content_type=start.content_type, mode=start.mode,
                       names=session.directory.name, id="composer")

    # ------------------------------------------------------------------ life cycle

    async def on_compose(self, _event: events.Compose) -> None:
        """Let the request for the messages leave before the screen is built (the messages
        then come one round trip after the key press, not after the building too)."""
        session = self.fd.session
        if session is not None:
            await session.threads.early_sent(self.conversation_id, LET_REQUEST_GO)

    def on_mount(self) -> None:
        self._resume_collection = collection_pause.hold()
        self.set_timer(COLLECTION_HELD, self._resume_collection)
        if self.footer_held:
            self.set_timer(FOOTER_HELD, self.release_footer)
        session = self.session
        #: when the newest message read before this opening was written (the "New" divider)
        self._read_before = session.inbox.read_up_to(self.conversation_id)
        state = session.threads.open(self.conversation_id, known=self._known)
        session.live.watch("thread")
        self._thread_watched = True
        self.set_interval(HEAD_TICK, self._tick)
        self._apply(state)
        if self.fd.alerts is not None:  # read now: no longer "new" in the header
            self.fd.alerts.opened(self.conversation_id)

    def on_unmount(self) -> None:
        self._resume_collection()
        session = self.fd.session
        if session is None or not self._thread_watched:
            return
        self._thread_watched = False
        with contextlib.suppress(Exception):  # going away: the draft was saved as typed
            compose_link.save_now(self.session, self.composer)
        session.live.unwatch("thread")
        if session.threads.current == self.conversation_id:
            session.threads.close()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()  # the inbox polls on while a thread is read (TOPICS)
        session = self.session
        if self._thread_watched and session.threads.current != self.conversation_id:
            # Another thread screen, opened over this one, took the topic and closed it.
            session.threads.open(self.conversation_id)
            topic = session.live.topic("thread")
            if topic is not None and topic.watchers == 0:
                session.live.watch("thread")
        # Store changes are not passed to a screen hidden behind another one: catch up.
        state = session.threads.state
        if state is not None:
            self._apply(state)

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """The store changed: apply the open thread's new state."""
        if isinstance(state := message.of(THREAD), ThreadState):
            self._apply(state)
        elif self._state is not None:
            self._show_head(self._state)  # names, queues, connection: repainted only if changed
            if message.topic == INBOX:  # the authors' names may have been resolved meanwhile
                self.thread_view.refresh_names()

    # ------------------------------------------------------------------ applying state

    def _apply(self, state: ThreadState) -> None:
        """Bring the screen up to ``state``: append, refresh the head, sync the echoes."""
        if state.conversation_id != self.conversation_id:
            return  # a late answer for the conversation shown before J/K
        previous = self._state
        self._state = state
        view = self.thread_view
        mounting: AwaitMount | None = None
        if previous is None or state.messages is not previous.messages or \
                state.notes != previous.notes:
            if not view.messages:
                view.first_new_id = first_new(state.messages, self._read_before)
            mounting = self._apply_messages(view, with_notes(state.messages, state.notes))
            if state.messages:  # on screen now: read (kept locally, no request)
                last = state.messages[-1]
                self.session.inbox.mark_read(self.conversation_id, last.id, last.created_at)
        else:  # the same messages, shown before the poll resolved their authors' names
            view.refresh_names()
        if previous is not None and (state.messages or state.missing):
            self._resume_when_painted(mounting)  # the service's answer is on its way
        self._show_head(state)
        if previous is None or state.conversation is not previous.conversation:
            self._composer_conversation()
        self.composer.set_unavailable(
            "This conversation does not exist (or is no longer visible to you)."
            if state.missing else None)
        if previous is None or state.pending != previous.pending or self._settling:
            self._sync_pending(view, state)

    def _resume_when_painted(self, mounting: AwaitMount | None) -> None:
        """Resume garbage collection once these messages are mounted and painted."""
        if self._resume_scheduled:
            return
        self._resume_scheduled = True

        async def painted() -> None:
            if mounting is not None:
                await mounting
            self.call_after_refresh(self._resume_collection)
            self.call_after_refresh(self.release_footer)

        self.call_next(painted)

    def _apply_messages(self, view: ThreadView, messages: Sequence[Message]
                        ) -> AwaitMount | None:
        """Show ``messages``; returns the mount of the widgets it adds, if any."""
        shown = view.messages
        if not shown:
            if messages:
                mounting = view.set_messages(messages)
                self._echoes_reattach(view)
                return mounting
            return None
        count = len(shown)
        if len(messages) >= count and _id_at(messages, count - 1) == _id_at(shown, -1):
            new = messages[count:]
        else:  # the whole thread after the few known before (kept), or a note dated
            mounting = view.reconcile(messages)  # among the shown ones: shown in its place
            self._echoes_reattach(view)
            return mounting
        if new:
            for message in new:
                if message.id.startswith(NOTE_PREFIX):
                    self._settle_note(message)
                elif message.external_id:
                    self._settling.pop(message.external_id, None)
                    self._echoes.pop(message.external_id, None)
            return view.append(new)
        return None

    def _tick(self) -> None:
        if self._state is not None:
            self._show_head(self._state)
            if self._settling:
                self._sync_pending(self.thread_view, self._state)

    def _conversation(self) -> Conversation | None:
        known = self.session.inbox.records.get(self.conversation_id)
        if known is not None:
            return known
        return self._state.conversation if self._state is not None else None

    # ------------------------------------------------------------------ moving

    def _open(self, conversation_id: int) -> None:
        """Show another conversation on this screen (``J``/``K``)."""
        session = self.session
        compose_link.save_now(self.session, self.composer)
        self.conversation_id = conversation_id
        self._state = None
        self._echoes.clear()
        self._settling.clear()
        self._dropped.clear()
        self._held.clear()
        self._undo_asked = False
        state = session.threads.open(conversation_id)
        session.live.poke("thread")
        view = self.thread_view
        view.set_messages(())
        start = compose_link.start(session, conversation_id, state.conversation, host=self)
        self.composer.open(conversation_id, state.conversation, draft=start.draft,
                           content_type=start.content_type, mode=start.mode)
        self._apply(state)
        self.set_focus(view)

    def _sibling_ids(self) -> list[int]:
        if self.sibling_ids is None:
            self.sibling_ids = [c.id for c in self.session.inbox.view("all")]
        return self.sibling_ids

    def action_sibling(self, step: int) -> None:
        """Next (``J``) or previous (``K``) conversation of the list this thread came from."""
        ids = self._sibling_ids()
        if self.conversation_id in ids:
            index = ids.index(self.conversation_id) + step
        else:
            index = 0 if step > 0 else len(ids) - 1
        if not 0 <= index < len(ids):
            self.notify("No next conversation." if step > 0 else "No previous conversation.")
            return
        self._open(ids[index])

    def action_back(self) -> None:
        """Back to the list."""
        compose_link.save_now(self.session, self.composer)
        self.app.pop_screen()

    def action_reply(self) -> None:
        """Put the cursor in the composer (``tab`` there goes back to the messages)."""
        composer = self.composer
        if composer.editor.has_focus:
            self.set_focus(self.thread_view)
            return
        composer.focus_editor()

    def on_conversation_actions_done(self, message: ConversationActions.Done) -> None:
        """A claim, close, tag change… was applied (or rolled back): show it at once."""
        if message.conversation_id != self.conversation_id or self._state is None:
            return
        self._show_head(self._state)
        self._composer_conversation()

    def action_refresh(self) -> None:
        """Fetch the thread now."""
        self._refresh()

    @work(exclusive=True, group="thread-refresh", exit_on_error=False,
          description="refresh the thread")
    async def _refresh(self) -> None:
        """Read the thread again; a failure (the service's or a bug) reaches the app's one
        handler for failed workers, which logs it and says it in one line."""
        self.session.threads.want_notes()  # and the links: r reads everything again
        await self.session.live.refresh("thread")


def _nothing() -> None:
    """Nothing to do."""


def _id_at(messages: Sequence[Message], position: int) -> str:
    """The id of one message, without reading a compact row back into a model."""
    if isinstance(messages, MessageRows):
        return messages.id_at(position)
    return messages[position].id


def first_new(messages: Sequence[Message], read_before: datetime | None) -> str | None:
    """The id of the oldest message written after ``read_before`` (None: nothing was read
    before, or nothing is newer). Walks back from the newest: only the unread are looked at."""
    if read_before is None:
        return None
    found: str | None = None
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.created_at <= read_before:
            break
        found = message.id
    return found
