"""The thread's local echoes (:class:`OutboxEchoes`, owned by the thread screen): replies and
notes still in the outbox, shown dimmed among the messages with their status until the real
message arrives; the countdown of one held for undo ("sending in 4 s · ctrl+z undo") and
``ctrl+z`` taking it back into the composer; and what the keys for a reply that failed do
(``e`` edit, ``d`` discard, ``ctrl+r`` retry).

Undo and the outbox's sender never both win (:meth:`frontdesk.store.outbox.Outbox.undo`):
``ctrl+z`` either takes the item back before any attempt (it was never sent) or says what
became of it (being sent, already sent) and leaves the composer as it is. A ``ctrl+z`` that
comes while the composer's reply is still being queued (in the same burst of keys as its
``ctrl+s``) is kept and done as soon as the reply is in the outbox.
"""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from ....api.models import Message
from ....store.outbox import OutboxBusy, OutboxItem, UndoTooLate, hold_left, is_note
from ....store.threads import ThreadState
from ....text import one_line
from ...thread_notes import NOTE_PREFIX, note_echo
from ...widgets.thread_view import ThreadView
from ...worker_failures import failure_said
from ..shared.confirm import ConfirmScreen
from .outbox import too_late

if TYPE_CHECKING:
    from textual.timer import Timer

    from .thread import ThreadScreen

__all__ = ["ECHO_PREFIX", "OutboxEchoes", "echo_message", "pending_status"]

#: Ids of local echoes (messages still in the outbox) start with this.
ECHO_PREFIX: Final = "outbox-"
#: A reply that left the outbox is shown as "sent" until the thread brings it back; after
#: this long without it (it was discarded elsewhere), the echo goes.
SETTLE_SECONDS: Final = 15.0
#: How often a held item's countdown is looked at (its seconds change once a second).
COUNTDOWN_STEP: Final = 0.25
#: For this long after a hold ended, ``ctrl+z`` says what became of the item (sent, being
#: sent) rather than going to the editor's own undo.
UNDO_GRACE: Final = 10.0
_ATTRIBUTES: Final[dict[str, str]] = {
    "WhatsApp": "WhatsAppAttributes",
    "Sms": "SmsAttributes",
    "Email": "EmailAttributes",
    "ContactForm": "ContactFormAttributes",
}


def pending_status(item: OutboxItem, now: float) -> tuple[str, bool]:
    """What a local echo says about its outbox item at ``now`` (the outbox's clock), and
    whether it failed."""
    if item.state == "failed":
        reason = one_line(item.last_error or "refused by the service", 120)
        return f"failed: {reason} — e edit, d discard, ctrl+r retry", True
    left = hold_left(item, now)
    if left > 0:
        return f"sending in {math.ceil(left)} s · ctrl+z undo", False
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


class OutboxEchoes:
    """The outbox's items of the conversation a thread screen shows, as echoes among its
    messages, and the undo of one held: owned by the screen (``screen.echoes``), which hands
    it each new state and calls it from its keys."""

    def __init__(self, screen: ThreadScreen) -> None:
        self._screen = screen
        #: the items shown, by external id
        self._echoes: dict[str, OutboxItem] = {}
        #: items that left the outbox, shown as "sent" since (monotonic) until they arrive
        self._settling: dict[str, float] = {}
        #: items taken out of the outbox here (undone, edited, discarded): their echo goes
        self._dropped: set[str] = set()
        #: replies and notes held for undo here, kept a while after their hold (ctrl+z)
        self._held: dict[str, OutboxItem] = {}
        self._countdown: Timer | None = None
        #: a ctrl+z came while the composer's reply was still being queued
        self._undo_asked = False

    @property
    def settling(self) -> bool:
        """Whether a sent item is still waited for (its echo says "sent")."""
        return bool(self._settling)

    def clear(self) -> None:
        """Another conversation is shown: forget this one's echoes (not its outbox)."""
        self._echoes.clear()
        self._settling.clear()
        self._dropped.clear()
        self._held.clear()
        self._undo_asked = False

    def reattach(self, view: ThreadView) -> None:
        """``set_messages`` dropped the local echoes: show the waiting replies again."""
        items = list(self._echoes.values())
        self._echoes.clear()
        self._settling.clear()
        for item in items:
            self._add(view, item)

    def arrived(self, message: Message) -> None:
        """A message came from the service: the echo standing for it goes."""
        if message.id.startswith(NOTE_PREFIX):
            self._settle_note(message)
        elif message.external_id:
            self._settling.pop(message.external_id, None)
            self._echoes.pop(message.external_id, None)

    def sync(self, view: ThreadView, state: ThreadState) -> None:
        """Show each outbox item of this conversation, with its status, until it arrives."""
        waiting = {item.external_id: item for item in state.pending}
        moment = self._now()
        for key, item in waiting.items():
            self._settling.pop(key, None)
            known = self._echoes.get(key)
            if known is None:
                self._add(view, item)
            elif known != item:
                status, failed = pending_status(item, moment)
                self._echoes[key] = item
                self._note_hold(item)
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

    def _channel(self) -> str:
        conversation = self._screen.shown_conversation()
        return str(conversation.channel) if conversation is not None else ""

    def _add(self, view: ThreadView, item: OutboxItem) -> None:
        status, failed = pending_status(item, self._now())
        self._echoes[item.external_id] = item
        self._note_hold(item)
        me = self._screen.session.me_id
        if is_note(item.payload):
            echo = note_echo(item, f"{ECHO_PREFIX}{item.id}", me)
        else:
            echo = echo_message(item, me, self._channel())
        view.add_pending(echo, status, failed=failed)

    def _settle_note(self, entry: Message) -> None:
        """A note arrived from the service: its echo (same author and text) goes."""
        body = entry.attributes.body
        text = body.value if body is not None else ""
        for key, item in list(self._echoes.items()):
            if is_note(item.payload) and str(item.payload.get("content") or "") == text and \
                    key in self._settling:
                self._settling.pop(key, None)
                self._echoes.pop(key, None)
                self._screen.thread_view.remove_pending(key)

    # ------------------------------------------------------------------ undo send

    def _now(self) -> float:
        """The outbox's clock, which its holds are read at."""
        return self._screen.session.outbox.now()

    def _note_hold(self, item: OutboxItem) -> None:
        """Keep an item held for undo (``ctrl+z`` finds it) and count it down."""
        if hold_left(item, self._now()) <= 0:
            if item.external_id in self._held:
                self._held[item.external_id] = item  # what became of it: sending, failed
            return
        self._held[item.external_id] = item
        if self._countdown is None:
            self._countdown = self._screen.set_interval(COUNTDOWN_STEP, self._count_down)

    def _count_down(self) -> None:
        """Move the held echoes' countdowns on; stop once nothing is held or recent."""
        moment = self._now()
        view = self._screen.thread_view
        for key, item in self._echoes.items():
            if item.send_at is not None and key not in self._settling:
                status, failed = pending_status(item, moment)
                view.set_pending_status(key, status, failed=failed)
        for key in [key for key, item in self._held.items()
                    if (item.send_at or 0.0) + UNDO_GRACE < moment]:
            del self._held[key]
        if not self._held and self._countdown is not None:
            self._countdown.stop()
            self._countdown = None

    def undo_wanted(self) -> bool:
        """Whether ``ctrl+z`` is undo send here: a reply held (or held moments ago), or one
        being queued with a hold; else it is the editor's own undo."""
        if self._held:
            return True
        screen = self._screen
        return screen.composer.sending and screen.session.settings.compose.undo_seconds > 0

    def undo_send(self) -> None:
        """Take the newest held reply or note back into the composer (``ctrl+z``)."""
        if self._screen.composer.sending:
            self._undo_asked = True  # still being queued: undone once it is in the outbox
            return
        if self._held:
            self._undo(max(self._held.values(), key=lambda item: item.id))

    def queued(self, item: OutboxItem | None) -> None:
        """The composer's reply is in the outbox: do the ``ctrl+z`` that came meanwhile."""
        if not self._undo_asked:
            return
        self._undo_asked = False
        if item is not None and item.external_id in self._held:
            self._undo(item)

    def _undo(self, item: OutboxItem) -> None:
        """Take ``item`` out of the outbox into the composer, or say why it is too late."""
        screen = self._screen
        session = screen.session
        composer = screen.composer
        note = is_note(item.payload)
        here = composer.conversation_id == item.conversation_id
        if here and (composer.text or composer.attachments):
            try:  # what is typed now, so that the reply taken back goes before all of it
                session.compose.save_draft(item.conversation_id, composer.text,
                                           composer.attachments)
            except Exception as error:  # a boundary: a message handler must not end the console
                screen.notify(failure_said("save the draft", error), severity="error",
                              markup=False)
                return
        try:
            draft = session.outbox.undo(item.id)
        except UndoTooLate as late:
            if late.why != "sending":
                self._held.pop(item.external_id, None)
            screen.notify(too_late(late.why, note), severity="warning", markup=False)
            return
        except Exception as error:  # a boundary (a damaged store): the item stays queued
            screen.notify(failure_said("undo the send", error), severity="error", markup=False)
            return
        self._held.pop(item.external_id, None)
        self._dropped.add(item.external_id)
        if draft is not None and here:
            composer.load_draft(draft.text, draft.attachments, "note" if note else "reply")
        screen.sync_now()
        composer.focus_editor()
        screen.notify("Undone: the note was not added; it is back in the composer." if note
                      else "Undone: the reply was not sent; it is back in the composer.",
                      markup=False)

    # ------------------------------------------------------------------ unsent replies

    def _unsent_target(self) -> OutboxItem | None:
        """The focused echo's item, else this conversation's latest failed (or unsent) one."""
        screen = self._screen
        focused = screen.thread_view.focused_message
        items = screen.session.outbox.items(screen.conversation_id)
        if focused is not None and focused.id.startswith(ECHO_PREFIX):
            for item in items:
                if item.external_id == focused.external_id:
                    return item
        failed = [item for item in items if item.state == "failed"]
        if failed:
            return failed[-1]
        return items[-1] if items else None

    def edit_unsent(self) -> None:
        """Put an unsent reply back in the composer (out of the outbox)."""
        screen = self._screen
        item = self._unsent_target()
        if item is None:
            screen.notify("No unsent reply here.")
            return
        try:
            draft = screen.session.outbox.restore_to_draft(item.id)
        except OutboxBusy:
            screen.notify("That reply is being sent right now.")
            return
        self._dropped.add(item.external_id)
        if draft is not None:
            screen.composer.load_draft(draft.text, draft.attachments,
                                       "note" if is_note(item.payload) else None)
        screen.sync_now()
        screen.composer.focus_editor()

    def discard_unsent(self) -> None:
        """Throw an unsent reply away (asks first)."""
        screen = self._screen
        item = self._unsent_target()
        if item is None:
            screen.notify("No unsent reply here.")
            return

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                screen.session.outbox.discard(item.id)
            except OutboxBusy:
                screen.notify("That reply is being sent right now.")
                return
            self._dropped.add(item.external_id)
            screen.sync_now()
            screen.notify("Reply discarded.")

        preview = one_line(str(item.payload.get("content") or "(attachments only)"), 60)
        screen.app.push_screen(ConfirmScreen("Discard this unsent reply?", preview), answer)

    def retry_unsent(self) -> None:
        """Send an unsent reply again now."""
        screen = self._screen
        item = self._unsent_target()
        if item is None:
            screen.notify("No unsent reply here.")
            return
        if screen.session.outbox.retry(item.id) is not None:
            screen.notify("Sending again…")
