"""What the composer shows around its editor: the email header (to whom, under which
subject), the line saying how the reply will go out (or why it cannot), its mode (Reply or
Note) and the Markdown preview.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.containers import Vertical

from ...api.models import Conversation, reply_subject
from ...store.compose import ComposeMode
from ...store.replies import EMAIL_CHANNELS, forced_content_type
from ...text import one_line
from ..render import render_body

if TYPE_CHECKING:
    from .composer import ReplyEditor
    from .safe import Static

__all__ = ["ComposerInfo", "placeholder"]

_INFO = Style(dim=True)
_TYPE = Style(bold=True)
_BLOCKED = Style(color="yellow", bold=True)
_NOTE = Style(color="black", bgcolor="yellow", bold=True)


def placeholder(mode: ComposeMode) -> str:
    """What the empty editor says in each mode."""
    if mode == "note":
        return "Write an internal note…  (only agents see it; ctrl+s adds it)"
    return "Write a reply…  (ctrl+s sends · ctrl+n writes a note instead)"


class ComposerInfo(Vertical):
    """The composer's header, info line, mode and preview (a part of ``Composer``)."""

    preview: bool
    _mode: ComposeMode
    _conversation: Conversation | None
    _names: Callable[[str], str] | None
    _attachments: list[dict[str, str]]
    _editor: ReplyEditor
    _info: Static
    _email: Static
    _preview: Static

    if TYPE_CHECKING:
        @property
        def blocked(self) -> str | None: ...
        @property
        def content_type(self) -> str: ...

    def email_header(self) -> Text | None:
        """``To: Name <address> · Subject: Re: …`` for an email reply, else None."""
        conversation = self._conversation
        if conversation is None or str(conversation.channel) not in EMAIL_CHANNELS:
            return None
        address = (conversation.to_email if conversation.direction == "Outbound"
                    else conversation.from_email)
        name = self._names(conversation.requester_id) if self._names is not None else ""
        line = Text(no_wrap=True, overflow="ellipsis", end="")
        line.append("To ", _INFO)
        who = one_line(name, 40) if name and name != "—" else ""
        if address:
            line.append(f"{who} <{one_line(address, 60)}>" if who else one_line(address, 60),
                        _TYPE)
        else:
            line.append((who or "the customer") + " (no address on record)", _TYPE)
        subject = reply_subject(conversation.subject)
        if subject is not None:
            line.append("  ·  Subject ", _INFO)
            line.append(one_line(subject, 120))
        return line

    def _show_mode(self) -> None:
        note = self._mode == "note"
        self.refresh_bindings()
        self.set_class(note, "-note")
        self.border_title = ("Note · only agents see this" if note
                             else "Reply · the customer sees this")
        self._editor.placeholder = placeholder(self._mode)

    def _update_info(self) -> None:
        note = self._mode == "note"
        header = self.email_header() if self.blocked is None and not note else None
        self._email.display = header is not None
        if header is not None:
            self._email.update(header)
        line = Text(no_wrap=True, overflow="ellipsis", end="")
        reason = self.blocked
        if reason is not None:
            line.append("⊘ " + reason, _BLOCKED)
            self._info.update(line)
            return
        if note:
            line.append(" NOTE ", _NOTE)
            line.append("  internal: only agents see it  ·  ctrl+n back to Reply  ·  "
                        "ctrl+s adds the note", _INFO)
            self._info.update(line)
            return
        line.append("Reply as ", _INFO)
        line.append(self.content_type, _TYPE)
        if forced_content_type(self._conversation):
            line.append(" (WhatsApp)", _INFO)
        else:
            line.append("  ctrl+k switches", _INFO)
        if self._attachments:
            names = ", ".join(one_line(a.get("prettyName") or "attachment", 30)
                              for a in self._attachments)
            line.append("  ·  📎 " + names)
        line.append("  ·  ctrl+n note  ·  ctrl+a attach  ·  ctrl+t preview  ·  ctrl+s send",
                    _INFO)
        self._info.update(line)

    def _update_preview(self) -> None:
        if not self.preview:
            return
        text = self._editor.text
        content_type = "Text" if self._mode == "note" else self.content_type
        self._preview.border_title = f"Preview · {content_type}"
        if not text.strip():
            self._preview.update(Text("Nothing to preview yet.", style=_INFO))
            return
        self._preview.update(render_body(content_type, text))
