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

The widget builds what the message reads as (header, email headers, body, attachments) and
acts on nothing itself: ``y``, ``A`` and ``o`` post :class:`CopyRequested`,
:class:`AnonymizeRequested` and :class:`OpenAttachment` for the app to handle.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message as TextualMessage

from frontdesk.api.models.messages import File, Message
from frontdesk.channels import channel_name as known_channel_name
from frontdesk.text import link_label, one_line
from frontdesk.tui.clock import ago
from frontdesk.tui.offered import may
from frontdesk.tui.render import exact_time, format_duration, render_body_cached

from .safe import Static

__all__ = ["SHORT_CHARS", "SHORT_LINES", "MessageView", "NamesCallable", "author_fallback",
           "channel_name", "direction_class", "shorten"]

NamesCallable = Callable[[str], str]

#: Widths (in cells) beyond which names, subjects and URLs are cut with an ellipsis.
NAME_WIDTH: Final = 60
HEADER_WIDTH: Final = 200
URL_WIDTH: Final = 300
#: A body longer than this many characters, or lines, is shown shortened until expanded.
SHORT_CHARS: Final = 1_500
SHORT_LINES: Final = 30

_DIRECTIONS: Final[dict[str, tuple[str, str, str]]] = {
    # direction: (glyph, role, CSS class)
    "Inbound": ("◀", "customer", "-inbound"),
    "Outbound": ("▶", "agent", "-outbound"),
    "Internal": ("◆", "internal note", "-internal"),
}
_OTHER_DIRECTION: Final = ("•", "", "-other")

_UUID: Final = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
)

_NAME: Final = Style(bold=True)
_META: Final = Style(dim=True)
_LABEL: Final = Style(dim=True)
_GLYPH: Final = Style(bold=True)
_STATUS: Final = Style(italic=True)
_FAILED: Final = Style(bold=True, color="red")
_ATTACHMENT_NAME: Final = Style(bold=True)
_URL: Final = Style(underline=True)
_WARNING: Final = Style(color="yellow")


def direction_class(direction: str | None) -> str:
    """The CSS class for a message direction: ``-inbound``, ``-outbound``, ``-internal``
    or ``-other`` (no or an unknown direction)."""
    return _DIRECTIONS.get(direction or "", _OTHER_DIRECTION)[2]


def channel_name(attributes_type: str) -> str:
    """A short channel name for an attributes ``_type`` (unknown ones shown cleaned)."""
    known = known_channel_name(attributes_type)
    if known is not None:
        return known
    return one_line(attributes_type.removesuffix("Attributes"), width=30)


def author_fallback(author_id: str) -> str:
    """What to show for an author whose name is not known: a short form of the id
    (the first block of a UUID, else the id cut to 16 cells)."""
    if _UUID.match(author_id):
        return author_id[:8]
    return one_line(author_id, width=16) or "unknown"


def _url_text(url: str) -> str:
    """A URL as text: its real target, cut when long; ``data:`` URLs only as their type."""
    if url[:5].lower() == "data:":
        media = url[5:].split(",", 1)[0].split(";", 1)[0] or "data"
        return f"data:{one_line(media, width=40)} ({max(1, len(url) // 1365)} kB)"
    if len(url) > 4 * URL_WIDTH:
        url = url[: 4 * URL_WIDTH]
    return one_line(link_label(url), width=URL_WIDTH)


def _file_name(file: File) -> str:
    """An attachment's name: its pretty name, else the last part of its URL path."""
    if file.pretty_name and file.pretty_name.strip():
        return one_line(file.pretty_name, width=NAME_WIDTH)
    if file.url[:5].lower() == "data:":
        return "attachment"
    path = file.url.split("?", 1)[0].split("#", 1)[0].rstrip("/")
    return one_line(path.rsplit("/", 1)[-1], width=NAME_WIDTH) or "attachment"


def shorten(body: Text) -> tuple[Text, int]:
    """``body`` cut to :data:`SHORT_CHARS` characters and :data:`SHORT_LINES` lines, and how
    many characters were left out (0: nothing was)."""
    plain = body.plain
    cut = min(len(plain), SHORT_CHARS)
    newlines = 0
    at = plain.find("\n", 0, cut)
    while at >= 0:
        newlines += 1
        if newlines >= SHORT_LINES:
            cut = at
            break
        at = plain.find("\n", at + 1, cut)
    if cut >= len(plain):
        return body, 0
    return body[:cut], len(plain) - cut


def _contact(name: str | None, email: str) -> str:
    email = one_line(email, width=NAME_WIDTH)
    if name and name.strip():
        return f"{one_line(name, width=NAME_WIDTH)} <{email}>"
    return email


ClockCallable = Callable[[], datetime]


def _now() -> datetime:
    return datetime.now(UTC)


class MessageView(Static, can_focus=True):
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

    # ------------------------------------------------------------------ its text

    @property
    def exact_time(self) -> str:
        """The exact time the message was created, in the local zone."""
        return exact_time(self._message.created_at)

    def _author(self) -> str:
        author_id = self._message.author_id
        name = ""
        if self._names is not None:
            try:
                name = self._names(author_id)
            except LookupError:
                name = ""
        name = one_line(name, width=NAME_WIDTH) if name else ""
        return name or author_fallback(author_id)

    def _build(self) -> Text:
        """The whole message as one Rich text (never markup)."""
        message = self._message
        attributes = message.attributes
        glyph, role, _css = _DIRECTIONS.get(attributes.direction or "", _OTHER_DIRECTION)
        out = Text(end="")
        out.append(glyph + " ", _GLYPH)
        self._shown_author = self._author()
        out.append(self._shown_author, _NAME)
        if attributes.direction == "Internal":  # a note: never mistaken for a message
            meta = ["Note · only agents see this"]
        else:
            meta = [role] if role else []
            meta.append(channel_name(attributes.type))
        meta.append(self.exact_time if self._show_exact else self._relative)
        out.append("  " + " · ".join(meta), _META)
        if self._status is not None:
            out.append("  ")
            out.append(
                one_line(self._status, width=HEADER_WIDTH), _FAILED if self._failed else _STATUS
            )
        self._email_headers(out)
        body = attributes.body
        self._hidden_chars = 0
        if body is not None and body.value:
            out.append("\n")
            shown = render_body_cached(message.id, body.type, body.value)
            if not self._expanded:
                shown, self._hidden_chars = shorten(shown)
            out.append_text(shown)
            if self._hidden_chars:
                out.append(f"\n… {self._hidden_chars:,} more characters · ⏎ show all", _LABEL)
        elif attributes.email_content is not None and attributes.email_content.file is not None:
            out.append("\n")
            out.append("(email too large to show: see the last attachment)", _LABEL)
        if attributes.type == "PhoneAttributes" or attributes.duration is not None:
            out.append("\n📞 call")
            if attributes.duration is not None:
                out.append(", " + format_duration(attributes.duration))
        if attributes.delivery_failure_reason:
            out.append("\n⚠ not delivered: ", _WARNING)
            out.append(one_line(attributes.delivery_failure_reason, width=HEADER_WIDTH), _WARNING)
        for number, file in enumerate(self._files, start=1):
            out.append(f"\n📎 {number}. ", _LABEL)
            out.append(_file_name(file), _ATTACHMENT_NAME)
            out.append("  ")
            out.append(_url_text(file.url), _URL)
        return out

    def _email_headers(self, out: Text) -> None:
        attributes = self._message.attributes
        rows: list[tuple[str, str]] = []
        sender = attributes.from_
        if isinstance(sender, str):
            rows.append(("From", one_line(sender, width=HEADER_WIDTH)))
        elif sender is not None:
            rows.append(("From", _contact(sender.name, sender.email)))
        for label, contacts in (
            ("To", attributes.to),
            ("Cc", attributes.cc),
            ("Bcc", attributes.bcc),
        ):
            if isinstance(contacts, str):
                rows.append((label, one_line(contacts, width=HEADER_WIDTH)))
            elif contacts:
                shown = ", ".join(
                    _contact(contact.name, contact.email) for contact in contacts[:20]
                )
                if len(contacts) > 20:
                    shown += f", … ({len(contacts) - 20} more)"
                rows.append((label, shown))
        if attributes.subject:
            rows.append(("Subject", one_line(attributes.subject, width=HEADER_WIDTH)))
        for label, value in rows:
            out.append(f"\n{label}: ", _LABEL)
            out.append(value)
