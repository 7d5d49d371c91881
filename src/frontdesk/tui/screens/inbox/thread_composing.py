"""What the thread's composer asks of the screen: its draft saved as typed, the content type
and mode remembered, a reply or note handed to the store's outbox.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from ....store.outbox import OutboxItem
from ... import compose_link
from ...answers import Regarding, answer_of
from ...widgets.composer import Composer
from .thread_parts import ThreadParts

__all__ = ["ThreadComposing"]


class ThreadComposing(ThreadParts):
    """The composer's asks (a part of the thread screen)."""

    if TYPE_CHECKING:
        def _undo_queued(self, item: OutboxItem | None) -> None: ...

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
        conversation = self._conversation()
        try:
            answer = await answer_of(compose_link.send(self.session, event, conversation))
        except BaseException:
            # cleanup, then on to the console's one handler (logged, said in one line): the
            # text stays in the composer, editable again
            event.composer.unsent()
            raise
        self.post_message(self.Queued(event, *answer))

    def on_thread_composing_queued(self, message: Queued) -> None:
        """The composer is told; a queued item's echo shows at once."""
        compose_link.answered(message.about, message.refusal)
        item = message.value if message.refusal is None else None
        if item is not None and item.conversation_id == self.conversation_id:
            self._sync_now()  # the echo comes from the outbox's items, like every other one
            self.thread_view.action_end()
        self._undo_queued(item)  # a ctrl+z that came while it was being queued

    def _composer_conversation(self) -> None:
        """Give the composer the conversation's record (and the channel's remembered type)."""
        conversation = self._conversation()
        content_type = None
        if conversation is not None:
            content_type = self.session.compose.content_type(str(conversation.channel))
        self.composer.set_conversation(conversation, content_type)
