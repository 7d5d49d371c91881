"""One message of a thread: a light, focusable widget rendering one pre-built Rich text.

A :class:`MessageView` is a :class:`~textual.widgets.Static` showing a single
:class:`rich.text.Text` (turned by Textual into one ``Content``): a header (direction glyph,
author, role, channel, time, sending status), email headers, the body (rendered once per
message id by :func:`frontdesk.tui.render.render_body_cached`), attachments with their URL
as text, and phone-call duration.  No nested widgets, no Markdown widget: mounting one costs
little, which is what lets a thread of thousands of messages open fast.

Every piece of text a customer or another system wrote goes through :mod:`frontdesk.text`
(``clean``/``one_line``/``link_label``) and is placed in the ``Text`` as a plain string, so
markup such as ``[bold]`` or ``[@click=app.quit]`` shows literally and escape sequences
arrive inert.

A long body (more than :data:`SHORT_CHARS` characters or :data:`SHORT_LINES` lines, as shown)
is shown shortened, ending with how much more there is; ``enter`` on the focused message
shows all of it (and shortens it again). So a message stuffed with escapes or text costs its
own room, never the thread's readability.

What the message reads as (header, email headers, body, attachments) is built by
:mod:`~frontdesk.tui.widgets.message_text`. The widget acts on nothing itself: ``y``, ``A``
and ``o`` post :class:`CopyRequested`, :class:`AnonymizeRequested` and
:class:`OpenAttachment` for the app to handle.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message as TextualMessage

from frontdesk.api.models.messages import Message
from frontdesk.tui.clock import ago
from frontdesk.tui.offered import may

from .message_text import MessageText, NamesCallable, direction_class

__all__ = ["MessageView"]

ClockCallable = Callable[[], datetime]


def _now() -> datetime:
    return datetime.now(UTC)


class MessageView(MessageText, can_focus=True):
    """One message: header, email headers, body, attachments, call duration.

    ``names`` resolves an author id to a display name (a ``LookupError`` or an empty answer
    falls back to a short id); ``clock`` gives "now" for the relative time (injectable for
    tests and snapshots).  ``status`` marks a local echo still in the outbox ("sending…" or
    a failure, with ``failed=True``).
    """

    DEFAULT_CSS = """
    MessageView {
        height: auto;
    }
    MessageView.-first-new {
        border-top: heavy $accent;
        border-title-align: center;
        border-title-color: $accent;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "copy", "Copy", id="thread.copy"),
        Binding("A", "anonymize", "Anonymize", id="thread.anonymize"),
        Binding("o", "open_attachment(1)", "Open attachment", id="thread.open_attachment"),
        Binding("enter", "expand", "Show all/less", id="thread.expand"),
    ]

    class CopyRequested(TextualMessage):
        """The user asked to copy this message (``y``); the app copies it."""

        def __init__(self, message: Message) -> None:
            super().__init__()
            self.message = message

    class AnonymizeRequested(TextualMessage):
        """The user asked to anonymise this message (``A``); the app asks and does it."""

        def __init__(self, message: Message) -> None:
            super().__init__()
            self.message = message

    class OpenAttachment(TextualMessage):
        """The user asked to open an attachment (``o``); the app decides how, if at all.

        ``url`` is the attachment's URL exactly as the service gave it: untrusted, never to
        be passed to a shell.
        """

        def __init__(self, url: str) -> None:
            super().__init__()
            self.url = url

    def __init__(
        self,
        message: Message,
        *,
        names: NamesCallable | None = None,
        clock: ClockCallable | None = None,
        status: str | None = None,
        failed: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self._message = message
        self._names = names
        self._clock = clock or _now
        self._status = status
        self._failed = failed
        self._show_exact = False
        self._expanded = False
        self._hidden_chars = 0
        self._hovered = False
        self._focused = False
        self._relative = ago(message.created_at, reference=self._clock(), words=True)
        self._shown_author = ""
        attributes = message.attributes
        files = list(attributes.attachments or [])
        email = attributes.email_content
        if email is not None and email.file is not None:
            files.append(email.file)
        self._files = files
        css = direction_class(attributes.direction)
        if status is not None:
            css += " -pending"
            if failed:
                css += " -failed"
        if classes:
            css = f"{css} {classes}"
        super().__init__(self._build(), name=name, id=id, classes=css, markup=False)

    # -- public --------------------------------------------------------------- #

    @property
    def message(self) -> Message:
        """The message shown."""
        return self._message

    @property
    def relative_time(self) -> str:
        """The time as last shown relative to now ("5 min ago")."""
        return self._relative

    @property
    def status(self) -> str | None:
        """The outbox status of a local echo ("sending…", "failed: …"), or None."""
        return self._status

    @property
    def attachment_urls(self) -> list[str]:
        """The attachments' URLs, in the order shown (1-based in the view)."""
        return [file.url for file in self._files]

    def set_status(self, status: str | None, *, failed: bool = False) -> None:
        """Change the outbox status shown for a local echo."""
        if status == self._status and failed == self._failed:
            return
        self._status = status
        self._failed = failed
        self.set_class(status is not None, "-pending")
        self.set_class(failed, "-failed")
        self.update(self._build())

    def refresh_author(self) -> bool:
        """Show the author's name again if it reads differently now (it was resolved after
        the message was shown). Returns whether it did."""
        if self._author() == self._shown_author:
            return False
        self.update(self._build())
        return True

    def refresh_time(self) -> bool:
        """Recompute the relative time; re-render only if it changed. Returns whether it did."""
        relative = ago(self._message.created_at, reference=self._clock(), words=True)
        if relative == self._relative:
            return False
        self._relative = relative
        if not self._show_exact:
            self.update(self._build())
        return True

    # -- rendering -------------------------------------------------------------- #
    # -- time shown exactly while focused or hovered ------------------------------ #

    def _set_exact(self) -> None:
        exact = self._focused or self._hovered
        if exact != self._show_exact:
            self._show_exact = exact
            self.update(self._build())

    def on_focus(self, _event: events.Focus) -> None:
        self._focused = True
        self._set_exact()

    def on_blur(self, _event: events.Blur) -> None:
        self._focused = False
        self._set_exact()

    def on_enter(self, event: events.Enter) -> None:
        if event.node is self:
            self._hovered = True
            self._set_exact()

    def on_leave(self, event: events.Leave) -> None:
        if event.node is self:
            self._hovered = False
            self._set_exact()

    # -- actions ---------------------------------------------------------------- #

    @property
    def shortened(self) -> bool:
        """Whether part of the body is hidden (shown shortened)."""
        return self._hidden_chars > 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Expanding only a shortened message; anonymising only when the member's role may
        (through a team gateway: an admin's)."""
        if action == "expand":
            return self._expanded or self._hidden_chars > 0
        if action == "anonymize":
            return may(self, "anonymization.anonymize_message")
        return True

    def action_expand(self) -> None:
        """Show all of a shortened body, or shorten it again."""
        if not (self._expanded or self._hidden_chars):
            return
        self._expanded = not self._expanded
        self.update(self._build())
        self.refresh_bindings()

    def action_copy(self) -> None:
        """Ask the app to copy this message."""
        self.post_message(self.CopyRequested(self._message))

    def action_anonymize(self) -> None:
        """Ask the app to anonymise this message."""
        self.post_message(self.AnonymizeRequested(self._message))

    def action_open_attachment(self, n: int = 1) -> None:
        """Ask the app to open attachment ``n`` (1-based, as numbered in the view)."""
        if 1 <= n <= len(self._files):
            self.post_message(self.OpenAttachment(self._files[n - 1].url))
        else:
            self.app.bell()
