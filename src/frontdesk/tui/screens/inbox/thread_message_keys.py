"""What a message of the thread does when asked: copy itself (``y``), be anonymized (``A``,
its short id typed back) and open an attachment's link (``o``, only once confirmed).
"""

from __future__ import annotations

from textual import on, work

from ....api.models import AnonymizationRequestStatus, Message
from ....text import clean, one_line
from ...answers import Returned, answer_of
from ...render import html_to_markdown_text
from ...thread_notes import NOTE_PREFIX
from ...widgets.message_view import MessageView
from ..shared.confirm import ConfirmScreen, TypeBackScreen
from .thread_echoes import ECHO_PREFIX
from .thread_parts import ThreadParts

__all__ = ["ThreadMessageKeys", "copy_text"]


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


class ThreadMessageKeys(ThreadParts):
    """A message's keys in the thread (a part of the thread screen)."""

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

    def on_thread_message_keys_anonymized(self, message: Anonymized) -> None:
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
