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
discards it and ``ctrl+r`` retries it. The conversation keys of the inbox (``c``/``C``
claim, ``x``/``X`` close, ``T`` transfer, ``f`` follow up, ``t`` tags, ``R`` reopen) come from
:class:`~frontdesk.tui.conversation_actions.ConversationActions`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar, Final

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.types import NoActiveAppError
from textual.widget import AwaitMount

from .... import collection_pause
from ....api.models import AnonymizationRequestStatus, Conversation, Message
from ....store.message_rows import MessageRows
from ....store.outbox import OutboxBusy, OutboxItem, is_note
from ....store.threads import ThreadState
from ....text import clean, one_line
from ... import clock, compose_link
from ...answers import Regarding, Returned, answer_of
from ...conversation_actions import ConversationActions
from ...registry import owns_bindings
from ...render import html_to_markdown_text
from ...thread_notes import NOTE_PREFIX, note_echo, with_notes
from ...widgets.composer import Composer
from ...widgets.message_view import MessageView
from ...widgets.thread_head import HeadFacts, ThreadHead
from ...widgets.thread_view import ThreadView
from ..shared.base import ModeScreen
from ..shared.confirm import ConfirmScreen, TypeBackScreen
from .links import linked_summary

if TYPE_CHECKING:
    from ....store.session import Session

__all__ = ["ECHO_PREFIX", "ThreadScreen", "copy_text", "echo_message", "pending_status"]

#: Ids of local echoes (messages still in the outbox) start with this.
ECHO_PREFIX: Final = "outbox-"
#: A reply that left the outbox is shown as "sent" until the thread brings it back; after
#: this long without it (it was discarded elsewhere), the echo goes.
SETTLE_SECONDS: Final = 15.0
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
_ATTRIBUTES: Final[dict[str, str]] = {
    "WhatsApp": "WhatsAppAttributes",
    "Sms": "SmsAttributes",
    "Email": "EmailAttributes",
    "ContactForm": "ContactFormAttributes",
}


def pending_status(item: OutboxItem) -> tuple[str, bool]:
    """What a local echo says about its outbox item, and whether it failed."""
    if item.state == "failed":
        reason = one_line(item.last_error or "refused by the service", 120)
        return f"failed: {reason} — e edit, d discard, ctrl+r retry", True
    if item.state == "pending" and item.last_error:
        return f"not sent yet ({one_line(item.last_error, 80)}) — retrying", False
    return "sending…", False


def echo_message(item: OutboxItem, author_id: str, channel: str) -> Message:
    """A message record standing for an outbox item until the real one arrives."""
    payload = item.payload
    attributes: dict[str, Any] = {"_type": _ATTRIBUTES.get(channel, "ChatAttributes"),
                                  "direction": "Outbound"}
    content = str(payload.get("content") or "")
    if content:
        attributes["content"] = {"value": content,
                                 "_type": str(payload.get("content_type") or "Text")}
    files = [{"url": str(a.get("url", "")), "prettyName": a.get("prettyName")}
             for a in payload.get("attachments") or [] if isinstance(a, dict)]
    if files:
        attributes["attachments"] = files
    return Message.model_validate({
        "id": f"{ECHO_PREFIX}{item.id}",
        "authorId": author_id or str(payload.get("agent_id") or "me"),
        "externalId": item.external_id,
        "createdAt": datetime.fromtimestamp(item.created_at, UTC).isoformat(),
        "attributes": attributes,
    })


def copy_text(message: Message) -> str:
    """A message as copied: its body as readable text, then its attachments' URLs.

    Control characters are made visible (:func:`frontdesk.text.clean`), so pasting the copy
    into a terminal cannot run anything.
    """
    attributes = message.attributes
    parts: list[str] = []
    body = attributes.body
    if body is not None and body.value:
        value = html_to_markdown_text(body.value) if body.type.lower() == "html" else body.value
        parts.append(clean(value))
    for file in attributes.attachments or []:
        name = clean(file.pretty_name or "attachment", multiline=False)
        parts.append(f"{name}: {clean(file.url, multiline=False)}")
    return "\n".join(parts)


@owns_bindings
class ThreadScreen(ModeScreen, ConversationActions):
    """One conversation: head, messages, composer.

    ``siblings`` are the conversation ids ``J``/``K`` walk through, in the order of the list
    the thread was opened from (the inbox view); without them, the "All" view's order.
    """

    MODE_NAME = "Thread"
    HELP_NAME = "Thread"
    AUTO_FOCUS = "ThreadView"
    #: the inbox keeps polling under an open thread: it keeps the head's record current
    TOPICS = ("inbox",)
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
        self._state: ThreadState | None = None
        self._watching = False
        #: resumes garbage collection, held from the mount until the service's messages are
        #: painted (:mod:`frontdesk.collection_pause`; idempotent)
        self._resume_collection: Callable[[], None] = _nothing
        self._resume_scheduled = False
        with contextlib.suppress(NoActiveAppError):  # built outside a running console
            session = self.fd.session
            if session is not None:
                session.threads.prefetch(conversation_id)  # on its way while this is built
                self.footer_held = True  # its keys once the messages are painted

    # ------------------------------------------------------------------ parts

    @property
    def session(self) -> Session:
        """The signed-in session (a thread needs one)."""
        session = self.fd.session
        assert session is not None, "the thread screen needs a session"
        return session

    @property
    def thread_view(self) -> ThreadView:
        """The messages."""
        return self.query_one(ThreadView)

    @property
    def head(self) -> ThreadHead:
        """The head."""
        return self.query_one(ThreadHead)

    @property
    def composer(self) -> Composer:
        """The reply box."""
        return self.query_one(Composer)

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
        state = session.threads.open(self.conversation_id, known=self._known)
        session.live.watch("thread")
        self._watching = True
        self.set_interval(HEAD_TICK, self._tick)
        self._apply(state)

    def on_unmount(self) -> None:
        self._resume_collection()
        session = self.fd.session
        if session is None or not self._watching:
            return
        self._watching = False
        with contextlib.suppress(Exception):  # going away: the draft was saved as typed
            compose_link.save_now(self.session, self.composer)
        session.live.unwatch("thread")
        if session.threads.current == self.conversation_id:
            session.threads.close()

    def on_screen_resume(self) -> None:
        session = self.session
        if self._watching and session.threads.current != self.conversation_id:
            # Another thread screen, opened over this one, took the topic and closed it.
            session.threads.open(self.conversation_id)
            topic = session.live.topic("thread")
            if topic is not None and topic.watchers == 0:
                session.live.watch("thread")
        # Store changes are not passed to a screen hidden behind another one: catch up.
        state = session.threads.state
        if state is not None:
            self._apply(state)

    def on_store_change(self, topic: str, value: Any) -> None:
        """The store changed: apply the open thread's new state."""
        if topic == "thread" and isinstance(value, ThreadState):
            self._apply(value)
        elif self._state is not None:
            self._show_head(self._state)  # names, queues, connection: repainted only if changed
            if topic == "inbox":  # the authors' names may have been resolved meanwhile
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
            mounting = self._apply_messages(view, with_notes(state.messages, state.notes))
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

    def _echoes_reattach(self, view: ThreadView) -> None:
        """``set_messages`` dropped the local echoes: show the waiting replies again."""
        items = list(self._echoes.values())
        self._echoes.clear()
        self._settling.clear()
        for item in items:
            self._add_echo(view, item)

    def _facts(self, state: ThreadState) -> HeadFacts:
        session = self.session
        directory = session.directory
        # The inbox's record and tags are never older than the thread's: the thread's full
        # polls write into them, and actions taken here (claim, tags…) change them at once.
        conversation = session.inbox.records.get(self.conversation_id) or state.conversation
        tag_ids = session.inbox.tags.get(self.conversation_id, state.tag_ids)
        requester = assignee = queue = ""
        if conversation is not None:
            requester = one_line(directory.name(conversation.requester_id), 48)
            if conversation.assignment is not None:
                assignee = one_line(directory.name(conversation.assignment.agent_id), 48)
            if conversation.queue is not None:
                queue = one_line(directory.queue_name(conversation.queue.id), 40)
        tags = tuple(
            directory.tags[tag_id].name if tag_id in directory.tags else "…" + tag_id[-6:]
            for tag_id in tag_ids
        )
        topic = session.live.topic("thread")
        # said only while no message is shown: once some are (the preview's, or the answer's
        # before the head's extras), the messages speak for themselves
        loading = (topic is None or topic.fetched_at is None) and not state.messages
        problem = ""
        if topic is not None and topic.error is not None:
            problem = "could not refresh: " + one_line(topic.error.message or str(topic.error),
                                                       80)
        colors = tuple(directory.tags[tag_id].color if tag_id in directory.tags else None
                       for tag_id in tag_ids)
        return HeadFacts(self.conversation_id, conversation, requester, assignee, queue, tags,
                         state.ratings, state.position, state.missing, loading, problem,
                         colors, linked_summary(conversation, state.children))

    def _show_head(self, state: ThreadState) -> None:
        self.head.show(self._facts(state))

    def _tick(self) -> None:
        if self._state is not None:
            self._show_head(self._state)
            if self._settling:
                self._sync_pending(self.thread_view, self._state)

    def _channel(self) -> str:
        conversation = self._conversation()
        return str(conversation.channel) if conversation is not None else ""

    def _conversation(self) -> Conversation | None:
        known = self.session.inbox.records.get(self.conversation_id)
        if known is not None:
            return known
        return self._state.conversation if self._state is not None else None

    def _add_echo(self, view: ThreadView, item: OutboxItem) -> None:
        status, failed = pending_status(item)
        self._echoes[item.external_id] = item
        if is_note(item.payload):
            echo = note_echo(item, f"{ECHO_PREFIX}{item.id}", self.session.me_id)
        else:
            echo = echo_message(item, self.session.me_id, self._channel())
        view.add_pending(echo, status, failed=failed)

    def _sync_pending(self, view: ThreadView, state: ThreadState) -> None:
        """Show each outbox item of this conversation, with its status, until it arrives."""
        waiting = {item.external_id: item for item in state.pending}
        for key, item in waiting.items():
            self._settling.pop(key, None)
            known = self._echoes.get(key)
            if known is None:
                self._add_echo(view, item)
            elif pending_status(known) != pending_status(item):
                status, failed = pending_status(item)
                self._echoes[key] = item
                view.set_pending_status(key, status, failed=failed)
        now = time.monotonic()
        for key in [k for k in self._echoes if k not in waiting]:
            if key in self._dropped:
                self._dropped.discard(key)
                self._echoes.pop(key, None)
                view.remove_pending(key)
            elif key not in self._settling:
                self._settling[key] = now  # sent: shown until the thread brings it back
                view.set_pending_status(key, "sent", failed=False)
            elif now - self._settling[key] > SETTLE_SECONDS:
                self._settling.pop(key, None)
                self._echoes.pop(key, None)
                view.remove_pending(key)

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

    def action_quick_response(self) -> None:
        """Pick a quick response and put it into the reply at the cursor."""
        from .quick_responses import QuickResponsePicker

        composer = self.composer

        def chosen(text: str | None) -> None:
            if text and composer.focus_editor():
                composer.editor.insert(text)

        if composer.blocked is None:
            self.app.push_screen(QuickResponsePicker(self.conversation_id), chosen)
        else:
            composer.focus_editor()  # says why replies are not possible

    # ------------------------------------------------------------------ the composer's asks

    def on_composer_draft_changed(self, event: Composer.DraftChanged) -> None:
        """Save the draft (at once: nothing typed is lost)."""
        event.stop()
        compose_link.save_draft(self.session, event)

    def on_composer_content_type_chosen(self, event: Composer.ContentTypeChosen) -> None:
        """Remember Text or Markdown for the channel."""
        event.stop()
        compose_link.remember_content_type(self.session, event, host=self)

    def on_composer_mode_changed(self, event: Composer.ModeChanged) -> None:
        """Keep whether the draft is a note."""
        event.stop()
        compose_link.remember_mode(self.session, event, host=self)

    def on_composer_send_requested(self, event: Composer.SendRequested) -> None:
        """Hand the reply or note to the store (files are read off the UI thread)."""
        event.stop()
        self._send(event)

    class Queued(Regarding[Composer.SendRequested, OutboxItem]):
        """The store answered the composer's reply or note (``about``: its request)."""

    @work(group="composer-send", exit_on_error=False)
    async def _send(self, event: Composer.SendRequested) -> None:
        conversation = self._conversation()
        try:
            answer = await answer_of(compose_link.send(self.session, event, conversation))
        except Exception as error:  # never a traceback: the text stays in the composer
            event.composer.refused(event.outgoing, f"It could not be queued: {error}")
            return
        self.post_message(self.Queued(event, *answer))

    def on_thread_screen_queued(self, message: Queued) -> None:
        """The composer is told; a queued item's echo shows at once."""
        compose_link.answered(message.about, message.refusal)
        item = message.value if message.refusal is None else None
        if item is not None and item.conversation_id == self.conversation_id:
            self._sync_now()  # the echo comes from the outbox's items, like every other one
            self.thread_view.action_end()

    def _composer_conversation(self) -> None:
        """Give the composer the conversation's record (and the channel's remembered type)."""
        conversation = self._conversation()
        content_type = None
        if conversation is not None:
            content_type = self.session.compose.content_type(str(conversation.channel))
        self.composer.set_conversation(conversation, content_type)

    def _settle_note(self, entry: Message) -> None:
        """A note arrived from the service: its echo (same author and text) goes."""
        body = entry.attributes.body
        text = body.value if body is not None else ""
        for key, item in list(self._echoes.items()):
            if is_note(item.payload) and str(item.payload.get("content") or "") == text and \
                    key in self._settling:
                self._settling.pop(key, None)
                self._echoes.pop(key, None)
                self.thread_view.remove_pending(key)

    def on_conversation_actions_done(self, message: ConversationActions.Done) -> None:
        """A claim, close, tag change… was applied (or rolled back): show it at once."""
        if message.conversation_id != self.conversation_id or self._state is None:
            return
        self._show_head(self._state)
        self._composer_conversation()

    def action_attributes(self) -> None:
        """Edit the conversation's custom attributes."""
        from ..shared.attributes_panel import AttributesPanel

        self.app.push_screen(AttributesPanel("Conversation", self.conversation_id))

    def action_history(self) -> None:
        """What happened to this conversation, who did it and when."""
        from ..shared.history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.conversation_id))

    def action_linked(self) -> None:
        """The parent and the children of this conversation; enter opens one here."""
        from .links import LinkedScreen

        state = self._state
        children = state.children if state is not None else ()

        def chosen(conversation_id: int | None) -> None:
            if conversation_id is not None and conversation_id != self.conversation_id:
                self._open(conversation_id)

        self.app.push_screen(LinkedScreen(self.conversation_id, self._conversation(),
                                          children), chosen)

    def action_link_parent(self) -> None:
        """Link this conversation under a parent conversation, typed by number."""
        from .links import LinkParentScreen

        cid = self.conversation_id

        def linked(parent_id: int | None) -> None:
            if parent_id is not None:
                self.notify(f"#{cid} is linked under #{parent_id}.", markup=False)
                if self._state is not None and cid == self.conversation_id:
                    self._show_head(self._state)

        self.app.push_screen(LinkParentScreen(cid), linked)

    def action_ratings(self) -> None:
        """Offer a rating (Csat, Nps, thumbs) and see each question's status."""
        from .ratings import RatingsScreen

        self.app.push_screen(RatingsScreen(self.conversation_id))

    def action_refresh(self) -> None:
        """Fetch the thread now."""
        self._refresh()

    @work(exclusive=True, group="thread-refresh", exit_on_error=False)
    async def _refresh(self) -> None:
        self.session.threads.want_notes()  # and the links: r reads everything again
        try:
            await self.session.live.refresh("thread")
        except Exception as error:
            self.notify(f"Could not refresh: {error}", severity="error", markup=False)

    # ------------------------------------------------------------------ a message's keys

    @on(MessageView.CopyRequested)
    def _copy(self, event: MessageView.CopyRequested) -> None:
        event.stop()
        self._copy_message(event.message)

    def action_copy_message(self) -> None:
        """Copy the message under the cursor, or the newest one when none is."""
        view = self.thread_view
        message = view.focused_message
        if message is None and view.messages:
            message = view.messages[-1]
        if message is None:
            self.notify("No message to copy yet: j / k move through the messages.")
            return
        self._copy_message(message)

    def _copy_message(self, message: Message) -> None:
        text = copy_text(message)
        if not text:
            self.notify("This message has no text to copy.")
            return
        self.app.copy_to_clipboard(text)
        self.notify("Copied")

    @on(MessageView.AnonymizeRequested)
    def _anonymize_asked(self, event: MessageView.AnonymizeRequested) -> None:
        event.stop()
        message = event.message
        if message.id.startswith(ECHO_PREFIX):
            self.notify("This has not been sent yet: discard it with d instead.")
            return
        if message.id.startswith(NOTE_PREFIX):
            self.notify("Internal notes are not anonymized one by one: anonymize the "
                        "conversation instead.")
            return
        short = message.id[:8]
        author = one_line(self.session.directory.name(message.author_id), 40)
        conversation_id = self.conversation_id

        def answer(yes: bool | None) -> None:
            if yes:
                self._anonymize(conversation_id, message.id)

        self.app.push_screen(TypeBackScreen(
            f"Anonymize message {short} by {author} in #{conversation_id}? Its text and "
            "attachments are erased for good.", short), answer)

    class Anonymized(Returned[AnonymizationRequestStatus]):
        """The service answered a request to anonymise a message."""

    @work(exclusive=True, group="thread-anonymize", exit_on_error=False)
    async def _anonymize(self, conversation_id: int, message_id: str) -> None:
        self.post_message(self.Anonymized(*await answer_of(
            self.session.actions.anonymize_message(conversation_id, message_id))))

    def on_thread_screen_anonymized(self, message: Anonymized) -> None:
        """Said in a toast; the thread is read again."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        self.notify(f"Anonymization requested: {message.value.id}", markup=False)
        self.session.live.poke("thread")

    @on(MessageView.OpenAttachment)
    def _open_attachment(self, event: MessageView.OpenAttachment) -> None:
        event.stop()
        url = event.url
        if url[:5].lower() == "data:":
            self.notify("This attachment is stored in the message itself: there is no link "
                        "to open.", markup=False)
            return
        if not url.lower().startswith(("http://", "https://")):
            self.notify(f"Not a web link, not opened: {one_line(url, 120)}", markup=False,
                        severity="warning")
            return
        if one_line(url, None) != url or any(ch.isspace() for ch in url):
            # Control, bidi or blank characters: what would open is not what is shown.
            self.notify(f"This link has characters a web address cannot have, so it is not "
                        f"opened: {one_line(url, 120)}", markup=False, severity="warning")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.open_url(url)

        self.app.push_screen(ConfirmScreen(f"Open {one_line(url, 400)} in your browser?",
                                           "The link is shown exactly as the message has it."),
                             answer)

    # ------------------------------------------------------------------ unsent replies

    def _unsent_target(self) -> OutboxItem | None:
        """The focused echo's item, else this conversation's latest failed (or unsent) one."""
        focused = self.thread_view.focused_message
        items = self.session.outbox.items(self.conversation_id)
        if focused is not None and focused.id.startswith(ECHO_PREFIX):
            for item in items:
                if item.external_id == focused.external_id:
                    return item
        failed = [item for item in items if item.state == "failed"]
        if failed:
            return failed[-1]
        return items[-1] if items else None

    def action_edit_unsent(self) -> None:
        """Put an unsent reply back in the composer (out of the outbox)."""
        item = self._unsent_target()
        if item is None:
            self.notify("No unsent reply here.")
            return
        try:
            draft = self.session.outbox.restore_to_draft(item.id)
        except OutboxBusy:
            self.notify("That reply is being sent right now.")
            return
        self._dropped.add(item.external_id)
        if draft is not None:
            self.composer.load_draft(draft.text, draft.attachments,
                                     "note" if is_note(item.payload) else None)
        self._sync_now()
        self.composer.focus_editor()

    def action_discard_unsent(self) -> None:
        """Throw an unsent reply away (asks first)."""
        item = self._unsent_target()
        if item is None:
            self.notify("No unsent reply here.")
            return

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.session.outbox.discard(item.id)
            except OutboxBusy:
                self.notify("That reply is being sent right now.")
                return
            self._dropped.add(item.external_id)
            self._sync_now()
            self.notify("Reply discarded.")

        preview = one_line(str(item.payload.get("content") or "(attachments only)"), 60)
        self.app.push_screen(ConfirmScreen("Discard this unsent reply?", preview), answer)

    def action_retry_unsent(self) -> None:
        """Send an unsent reply again now."""
        item = self._unsent_target()
        if item is None:
            self.notify("No unsent reply here.")
            return
        if self.session.outbox.retry(item.id) is not None:
            self.notify("Sending again…")

    def _sync_now(self) -> None:
        """Reflect an outbox change made here at once (the store's notice may come later)."""
        self.session.threads.refresh_pending()
        state = self.session.threads.state
        if state is not None:
            self._apply(state)


def _nothing() -> None:
    """Nothing to do."""


def _id_at(messages: Sequence[Message], position: int) -> str:
    """The id of one message, without reading a compact row back into a model."""
    if isinstance(messages, MessageRows):
        return messages.id_at(position)
    return messages[position].id
