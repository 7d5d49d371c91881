"""What an agent does to a conversation, with the same keys in the inbox and in the thread.

``c`` claim, ``C`` claim from someone else, ``x`` close (asks), ``X`` close without asking,
``T`` transfer to a queue (picker), ``f`` follow up (picker), ``t`` tags (picker), ``R``
reopen. A screen mixes :class:`ConversationActions` in before its screen class and says which
conversation is meant::

    class ThreadScreen(ConversationActions, ModeScreen):
        def current_conversation_id(self) -> int | None:
            return self.conversation_id

Each action runs ``session.actions.*`` in a worker: the store applies the change on screen at
once, sends it, and rolls it back when the service refuses (raising ``Refused`` with the
service's own words). The worker posts the answer as a :class:`ConversationActions.Done`
message: the mixin's handler tells the user (the refusal, or the success), a screen's own
``on_conversation_actions_done`` follows up (a repaint). Action workers are not exclusive:
closing one conversation must not cancel the claim of another still under way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.dom import DOMNode

from ..text import one_line
from . import clock
from .answers import Answered, Regarding, refusal_of
from .registry import owns_bindings
from .worker_failures import ReportsFailedWorkers

if TYPE_CHECKING:
    from ..api.models import Conversation
    from ..store.errors import Refused
    from ..store.session import Session
    from .screens.shared.tag_picker import TagChoice

__all__ = ["CONVERSATION_BINDINGS", "ConversationActions"]

CONVERSATION_BINDINGS: list[BindingType] = [
    Binding("c", "conversation_claim", "Claim", id="conversation.claim"),
    Binding("C", "conversation_claim_force", "Claim from anyone",
            id="conversation.claim_force", show=False),
    Binding("x", "conversation_close", "Close", id="conversation.close"),
    Binding("X", "conversation_close_now", "Close without asking",
            id="conversation.close_now", show=False),
    Binding("T", "conversation_transfer", "Transfer", id="conversation.transfer"),
    Binding("f", "conversation_followup", "Follow up", id="conversation.followup"),
    Binding("t", "conversation_tags", "Tags", id="conversation.tags"),
    Binding("R", "conversation_reopen", "Reopen / end follow-up", id="conversation.reopen",
            show=False),
    Binding("B", "conversation_bulk_tag", "Tag by names (bulk)", id="conversation.bulk_tag",
            show=False),
]

Call = Callable[["Session"], Awaitable[None]]


@owns_bindings
class ConversationActions(DOMNode, ReportsFailedWorkers):
    """Mixin for screens that act on one conversation at a time (inbox, thread)."""

    HELP_NAME = "Conversation"
    BINDINGS: ClassVar[list[BindingType]] = CONVERSATION_BINDINGS

    class Done(Answered):
        """The service's answer to one action (``kind``: "claim", "close", "tags", …) on
        ``conversation_id``; ``success`` is what to say when it was done."""

        def __init__(self, kind: str, conversation_id: int, success: str,
                     refusal: Refused | None) -> None:
            super().__init__(refusal)
            self.kind = kind
            self.conversation_id = conversation_id
            self.success = success

    def current_conversation_id(self) -> int | None:
        """The conversation the keys act on (screens override)."""
        return None

    def on_conversation_actions_done(self, message: Done) -> None:
        """Tell the user what came of an action (a screen's own handler of this message
        runs too, before this one: Textual calls the handler of every class)."""
        if message.reason is not None:
            self.app.notify(message.reason, severity="error", markup=False)
        else:
            self.app.notify(message.success, markup=False)

    # ------------------------------------------------------------------ helpers

    def _session(self) -> Session | None:
        from ..store.session import Session

        session = getattr(self.app, "session", None)
        return session if isinstance(session, Session) else None

    def _target(self) -> tuple[Session, int] | None:
        """The session and the conversation to act on, or None (and say why)."""
        session = self._session()
        conversation_id = self.current_conversation_id()
        if session is None:
            self.app.notify("Not connected to a service.", severity="warning")
            return None
        if conversation_id is None:
            self.app.notify("No conversation is highlighted.", severity="warning")
            return None
        return session, conversation_id

    def _record(self, session: Session, conversation_id: int) -> Conversation | None:
        return session.inbox.records.get(conversation_id)

    def _perform(self, kind: str, conversation_id: int, call: Call, success: str) -> None:
        """Run one action in a worker and tell the outcome."""
        session = self._session()
        if session is None:
            return

        async def run() -> None:
            refusal = await refusal_of(call(session))
            self.post_message(self.Done(kind, conversation_id, success, refusal))

        self.run_worker(run(), group="conversation-actions", exit_on_error=False,
                        name=f"{kind} #{conversation_id}")

    # ------------------------------------------------------------------ the actions

    def action_conversation_claim(self) -> None:
        """Assign the conversation to me (refused if someone else has it)."""
        self._claim(force=False)

    def action_conversation_claim_force(self) -> None:
        """Assign the conversation to me, even from another agent."""
        self._claim(force=True)

    def _claim(self, *, force: bool) -> None:
        target = self._target()
        if target is None:
            return
        _session, cid = target
        self._perform("claim_force" if force else "claim", cid,
                      lambda s: s.actions.claim(cid, force=force), f"#{cid} is yours now.")

    def action_conversation_close(self) -> None:
        """Close the conversation, after asking."""
        target = self._target()
        if target is None:
            return
        session, cid = target
        record = self._record(session, cid)
        detail = ""
        if record is not None:
            requester = session.directory.name(record.requester_id)
            detail = one_line(f"{requester} · {record.subject or ''}".strip(" ·"), 60)

        def answered(yes: bool | None) -> None:
            if yes:
                self._close(cid)

        from .screens.shared.confirm import ConfirmScreen

        self.app.push_screen(ConfirmScreen(f"Close #{cid}?", detail), answered)

    def action_conversation_close_now(self) -> None:
        """Close the conversation without asking."""
        target = self._target()
        if target is not None:
            self._close(target[1])

    def _close(self, cid: int) -> None:
        self._perform("close", cid, lambda s: s.actions.close(cid), f"Closed #{cid}.")

    def action_conversation_reopen(self) -> None:
        """Open a closed conversation again (it is queued again); end a pending one's
        follow-up now."""
        target = self._target()
        if target is None:
            return
        session, cid = target
        record = self._record(session, cid)
        state = record.state if record is not None else None
        if state == "Open":
            self.app.notify(f"#{cid} is already open.", markup=False)
            return
        success = (f"Follow-up of #{cid} ended: it is open now."
                   if state in ("Pending", "AwaitingPending") else f"Reopened #{cid}.")
        self._perform("reopen", cid, lambda s: s.actions.reopen(cid), success)

    def action_conversation_transfer(self) -> None:
        """Move the conversation to a queue chosen in a picker."""
        target = self._target()
        if target is None:
            return
        session, cid = target
        queues = session.directory.queues
        if not queues:
            self.app.notify("No queues are known yet.", severity="warning")
            return
        record = self._record(session, cid)
        current = record.queue.id if record is not None and record.queue is not None else None

        def picked(queue_id: str | None) -> None:
            if queue_id is None:
                return
            name = one_line(session.directory.queue_name(queue_id), 40)
            self._perform("transfer", cid, lambda s: s.actions.transfer(cid, queue_id),
                          f"Moved #{cid} to {name}.")

        from .screens.shared.queue_picker import QueuePicker

        self.app.push_screen(QueuePicker(queues, current=current, conversation_id=cid,
                                         watch=session.queues), picked)

    def action_conversation_followup(self) -> None:
        """Put the conversation in Pending until a time chosen in a picker."""
        target = self._target()
        if target is None:
            return
        session, cid = target
        record = self._record(session, cid)
        pending = record is not None and record.state in ("Pending", "AwaitingPending")

        from .screens.shared.followup_picker import END_FOLLOWUP, FollowupPicker

        def picked(until: datetime | str | None) -> None:
            if until is None:
                return
            if until == END_FOLLOWUP:
                self._perform("reopen", cid, lambda s: s.actions.reopen(cid),
                              f"#{cid}: the follow-up has ended; it is open.")
                return
            if not isinstance(until, datetime):
                return
            shown = clock.shown(until, "day")
            self._perform("followup", cid, lambda s: s.actions.followup(cid, until),
                          f"#{cid} is pending until {shown}.")

        self.app.push_screen(FollowupPicker(conversation_id=cid, pending=pending,
                                            until=session.inbox.followups.get(cid)
                                            if pending else None), picked)

    def action_conversation_bulk_tag(self) -> None:
        """Tag by names in one request; the service applies them moments later and creates
        the names it does not know."""
        target = self._target()
        if target is None:
            return
        _, cid = target

        def typed(answer: str | None) -> None:
            names = [n.strip() for n in (answer or "").split(",") if n.strip()]
            if not names:
                return
            self._perform("bulk tag", cid, lambda s: s.actions.bulk_tag(cid, names),
                          f"#{cid}: {len(names)} tag(s) sent; the service applies them "
                          "in a moment.")

        from .screens.shared.pickers import PromptScreen

        self.app.push_screen(PromptScreen(f"Tag #{cid} by names (comma-separated; new names "
                                          "are created)", placeholder="vip, refund"), typed)

    def action_conversation_tags(self) -> None:
        """Change the conversation's tags in the tag picker (fresh tags are read first)."""
        target = self._target()
        if target is None:
            return
        session, cid = target

        async def refresh() -> None:
            self.post_message(self.TagsRead(
                cid, refusal=await refusal_of(session.finder.refresh_tags(cid))))

        self.run_worker(refresh(), group="conversation-tags", exclusive=True,
                        exit_on_error=False)

    class TagsRead(Regarding[int, None]):
        """The tags were read again before the tag picker opens on a conversation (``about``:
        its number)."""

    def on_conversation_actions_tags_read(self, message: TagsRead) -> None:
        """The tag picker opens (refused: on the tags known so far, and why in a toast)."""
        from .screens.shared.tag_picker import TagPicker

        if message.reason is not None:
            self.app.notify(message.reason, severity="warning", markup=False)
        session, cid = self._session(), message.about
        if session is None:
            return

        def picked(choice: TagChoice | None) -> None:
            if choice is None:
                return
            self._perform("tags", cid,
                          lambda s: s.actions.set_tags(cid, choice.add, choice.remove,
                                                       choice.create),
                          f"Tags of #{cid} changed.")

        applied = session.inbox.tags.get(cid, ())
        self.app.push_screen(TagPicker(applied, session.directory.tags,
                                       conversation_id=cid), picked)

