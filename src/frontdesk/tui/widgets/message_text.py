"""What one message of a thread reads as: its header (direction glyph, author, role,
channel, time, sending status), email headers, body (shortened when long), attachments with
their URL as text, and a phone call's duration, built as one Rich text.

Every piece of text a customer or another system wrote goes through :mod:`frontdesk.text`
(``clean``/``one_line``/``link_label``) and is placed in the ``Text`` as a plain string, so
markup such as ``[bold]`` or ``[@click=app.quit]`` shows literally and escape sequences
arrive inert. :class:`MessageText` is a part of
:class:`~frontdesk.tui.widgets.message_view.MessageView`, which holds the message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from rich.style import Style
from rich.text import Text

from frontdesk.api.models.messages import File, Message
from frontdesk.channels import channel_name as known_channel_name
from frontdesk.text import link_label, one_line
from frontdesk.tui.render import exact_time, format_duration, render_body_cached

from .safe import Static

__all__ = ["SHORT_CHARS", "SHORT_LINES", "MessageText", "NamesCallable", "author_fallback",
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


class MessageText(Static):
    """Builds the message's text (a part of ``MessageView``, which holds the message)."""

    _message: Message
    _names: NamesCallable | None
    _status: str | None
    _failed: bool
    _show_exact: bool
    _expanded: bool
    _hidden_chars: int
    _relative: str
    _shown_author: str
    _files: list[File]

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
