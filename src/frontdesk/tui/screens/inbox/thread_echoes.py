"""The thread's local echoes: replies and notes still in the outbox, shown dimmed among the
messages with their status until the real message arrives, and the keys for a reply that
failed (``e`` edit, ``d`` discard, ``ctrl+r`` retry).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any, Final

from ....api.models import Message
from ....store.outbox import OutboxBusy, OutboxItem, is_note
from ....store.threads import ThreadState
from ....text import one_line
from ...thread_notes import note_echo
from ...widgets.thread_view import ThreadView
from ..shared.confirm import ConfirmScreen
from .thread_parts import ThreadParts

__all__ = ["ECHO_PREFIX", "ThreadEchoes", "echo_message", "pending_status"]

#: Ids of local echoes (messages still in the outbox) start with this.
ECHO_PREFIX: Final = "outbox-"
#: A reply that left the outbox is shown as "sent" until the thread brings it back; after
#: this long without it (it was discarded elsewhere), the echo goes.
SETTLE_SECONDS: Final = 15.0
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


class ThreadEchoes(ThreadParts):
    """The outbox's items of the conversation shown, as echoes (a part of the thread)."""

    def _echoes_reattach(self, view: ThreadView) -> None:
        """``set_messages`` dropped the local echoes: show the waiting replies again."""
        items = list(self._echoes.values())
        self._echoes.clear()
        self._settling.clear()
        for item in items:
            self._add_echo(view, item)

    def _channel(self) -> str:
        conversation = self._conversation()
        return str(conversation.channel) if conversation is not None else ""

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

