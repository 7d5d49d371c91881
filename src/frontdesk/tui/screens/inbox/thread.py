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

The screen is one class: it holds the conversation shown and applies the store's state to
its head, messages and composer, and every key and message of the thread meets there. The
local echoes of replies still in the outbox and the undo of one held are a collaborator it
owns (:class:`~.outbox_echoes.OutboxEchoes`); what the head shows is read by
:func:`~.thread_head_facts.head_facts`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.types import NoActiveAppError
from textual.widget import AwaitMount

from .... import collection_pause
from ....api.models import AnonymizationRequestStatus, Conversation, Message
from ....store.message_rows import MessageRows
from ....store.outbox import OutboxItem
from ....store.session import Session
from ....store.threads import ThreadState
from ....store.topics import INBOX, THREAD
from ....text import clean, one_line
from ... import clock, compose_link
from ...answers import Regarding, Returned, answer_of
from ...conversation_actions import ConversationActions
from ...registry import owns_bindings
from ...render import html_to_markdown_text
from ...store_changed import StoreChanged, store_change_handler
from ...thread_notes import NOTE_PREFIX, with_notes
from ...widgets.composer import Composer
from ...widgets.message_view import MessageView
from ...widgets.thread_head import ThreadHead
from ...widgets.thread_view import ThreadView
from ..shared.base import ModeScreen
from ..shared.confirm import ConfirmScreen, TypeBackScreen
from .outbox_echoes import ECHO_PREFIX, OutboxEchoes
from .thread_head_facts import head_facts

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["ThreadScreen", "copy_text"]

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
class ThreadScreen(ModeScreen, ConversationActions):
    """One conversation: head, messages, composer.

    ``siblings`` are the conversation ids ``J``/``K`` walk through, in the order of the list
    the thread was opened from (the inbox view); without them, the "All" view's order.

    One class over 400 lines: its keys, the composer's asks and the store's state all act on
    the same conversation shown, its head, messages and composer, and cutting it into parts
    would make each part re-declare that state. The echoes, which keep a state of their own,
    are a collaborator it owns (``echoes``).
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
        #: the replies and notes of this conversation still in the outbox, shown as echoes
        self.echoes = OutboxEchoes(self)
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
        if previous is None or state.pending != previous.pending or self.echoes.settling:
            self.echoes.sync(view, state)

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
                self.echoes.reattach(view)
                return mounting
            return None
        count = len(shown)
        if len(messages) >= count and _id_at(messages, count - 1) == _id_at(shown, -1):
            new = messages[count:]
        else:  # the whole thread after the few known before (kept), or a note dated
            mounting = view.reconcile(messages)  # among the shown ones: shown in its place
            self.echoes.reattach(view)
            return mounting
        if new:
            for message in new:
                self.echoes.arrived(message)
            return view.append(new)
        return None

    def _tick(self) -> None:
        if self._state is not None:
            self._show_head(self._state)
            if self.echoes.settling:
                self.echoes.sync(self.thread_view, self._state)

    def _show_head(self, state: ThreadState) -> None:
        self.head.show(head_facts(self.session, self.conversation_id, state))

    def shown_conversation(self) -> Conversation | None:
        """The record of the conversation shown: the inbox's (never older than the
        thread's), else the thread's own."""
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
        self.echoes.clear()
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
            self.sibling_ids = self.session.inbox.view("all").ids()
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

    @work(group=compose_link.SENDING_GROUP, exit_on_error=False, description="queue the reply")
    async def _send(self, event: Composer.SendRequested) -> None:
        conversation = self.shown_conversation()
        try:
            answer = await answer_of(compose_link.send(self.session, event, conversation))
        except BaseException:
            # cleanup, then on to the console's one handler (logged, said in one line): the
            # text stays in the composer, editable again
            event.composer.unsent()
            raise
        self.post_message(self.Queued(event, *answer))

    def on_thread_screen_queued(self, message: Queued) -> None:
        """The composer is told; a queued item's echo shows at once."""
        compose_link.answered(message.about, message.refusal)
        item = message.value if message.refusal is None else None
        if item is not None and item.conversation_id == self.conversation_id:
            self.sync_now()  # the echo comes from the outbox's items, like every other one
            self.thread_view.action_end()
        self.echoes.queued(item)  # a ctrl+z that came while it was being queued

    def _composer_conversation(self) -> None:
        """Give the composer the conversation's record (and the channel's remembered type)."""
        conversation = self.shown_conversation()
        content_type = None
        if conversation is not None:
            content_type = self.session.compose.content_type(str(conversation.channel))
        self.composer.set_conversation(conversation, content_type)

    def sync_now(self) -> None:
        """Reflect an outbox change made here at once (the store's notice may come later)."""
        self.session.threads.refresh_pending()
        state = self.session.threads.state
        if state is not None:
            self._apply(state)

    # ------------------------------------------------------------------ undo, unsent replies

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``ctrl+z`` is undo send only while there is one to undo (else the editor's)."""
        if action == "undo_send":
            return self.echoes.undo_wanted()
        return super().check_action(action, parameters)

    def action_undo_send(self) -> None:
        """Take the newest held reply or note back into the composer (``ctrl+z``)."""
        self.echoes.undo_send()

    def action_edit_unsent(self) -> None:
        """Put an unsent reply back in the composer (out of the outbox)."""
        self.echoes.edit_unsent()

    def action_discard_unsent(self) -> None:
        """Throw an unsent reply away (asks first)."""
        self.echoes.discard_unsent()

    def action_retry_unsent(self) -> None:
        """Send an unsent reply again now."""
        self.echoes.retry_unsent()

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

    # ------------------------------------------------------------------ what it opens over itself

    def action_quick_response(self) -> None:
        """Pick a quick response and put it into the reply at the cursor."""
        from .quick_responses import QuickResponsePicker

        composer = self.composer

        def chosen(text: str | None) -> None:
            if text and composer.focus_editor():
                composer.editor.insert_words(text)

        if composer.blocked is None:
            self.app.push_screen(QuickResponsePicker(self.conversation_id), chosen)
        else:
            composer.focus_editor()  # says why replies are not possible

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

        self.app.push_screen(LinkedScreen(self.conversation_id, self.shown_conversation(),
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
