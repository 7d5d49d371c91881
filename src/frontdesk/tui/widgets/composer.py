"""The composer: where an agent writes a reply, below the thread.

A multi-line editor, a line saying how the reply will go out (Text or Markdown, attachments,
or why this conversation cannot take a reply; for an email, to whom and under which subject:
"Re: …"), and an optional Markdown preview beside the editor (closed once the reply is sent).
Text or Markdown is remembered per channel (in the local store), so an agent who answers
chats in Markdown picks it once. What it guarantees:

* **Nothing typed is lost.** Every change is saved as the conversation's draft at once (one
  UPSERT in the local store, durable before the keystroke's frame is drawn), and the draft is
  put back when the thread opens again, after quitting, a crash or ``kill -9``.
* **A reply is checked before it leaves.** The channel's rules (WhatsApp: Markdown, at most one
  attachment of the allowed kinds; phone, callback and voicemail conversations take no
  messages) are checked with the contract's own functions before anything is queued; a
  refusal says why and keeps the text and the attachments.
* **Sending is the outbox's job.** ``ctrl+s`` hands the reply to ``Session.send_reply``, which
  stores it durably (deleting the draft in the same transaction) and sends it exactly once.
* **Typing stays cheap.** A keystroke costs the editor's own repaint and one draft save; the
  thread above is never touched, the preview is rendered only while it is shown.

Local files are attached by path: the draft keeps the path (so a draft save stays small
however big the file), and the file is read into a ``data:`` URL when the reply is sent.
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final
from urllib.parse import unquote, urlsplit

from pydantic import ValidationError
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message as TextualMessage
from textual.screen import ModalScreen

from ...api.models import (
    Conversation,
    OutboundMessageInput,
    reply_subject,
    sms_problem,
    whatsapp_problem,
)
from ...channels import SILENT_CHANNELS as NO_MESSAGE_CHANNELS
from ...channels import channel_name
from ...text import one_line
from ..registry import owns_bindings
from ..render import render_body
from .safe import Input, Label, OptionList, Static, TextArea

if TYPE_CHECKING:
    from ...store.outbox import OutboxItem
    from ...store.session import Session

__all__ = [
    "MAX_FILE_BYTES",
    "AttachScreen",
    "AttachmentError",
    "Composer",
    "ReplyEditor",
    "attachment_from",
    "blocked_reason",
    "materialize",
    "reply_problem",
]

#: The largest local file attached as a ``data:`` URL. Base64 grows a file by a third and the
#: contract caps an attachment URL at 5,000,000 characters, so 3.5 MB is what fits.
MAX_FILE_BYTES: Final = 3_500_000
#: What the contract allows in an attachment URL (``FileInput.url``).
MAX_URL_CHARS: Final = 5_000_000
#: Channels whose conversations take no messages, and how people call them.
SILENT_CHANNELS: Final[dict[str, str]] = {
    channel: channel_name(channel) or channel for channel in sorted(NO_MESSAGE_CHANNELS)
}
#: Channels whose replies are emails (a recipient and a subject).
EMAIL_CHANNELS: Final = frozenset({"Email", "ContactForm"})
#: The local store's key of the Text/Markdown choice per channel.
TYPES_SNAPSHOT: Final = "composer-types"
#: Stands in for my agent id when a reply is checked against the contract before sending.
_ANY_AGENT: Final = "00000000-0000-4000-8000-000000000000"
_INFO: Final = Style(dim=True)
_TYPE: Final = Style(bold=True)
_BLOCKED: Final = Style(color="yellow", bold=True)


class AttachmentError(Exception):
    """A local file cannot be attached (gone, unreadable, too large); the message says why."""


# --------------------------------------------------------------------------- rules


def blocked_reason(conversation: Conversation | None) -> str | None:
    """Why this conversation cannot take a reply at all, or None when it can."""
    if conversation is None:
        return None
    if conversation.type == "AnonymizedConversation" or conversation.anonymized_at is not None:
        return "This conversation is anonymized: it takes no more messages."
    channel = str(conversation.channel)
    name = SILENT_CHANNELS.get(channel)
    if name is not None:
        return f"{name} conversations cannot take messages: reply on another channel."
    return None


def forced_content_type(conversation: Conversation | None) -> str | None:
    """The content type a channel insists on (WhatsApp: Markdown), or None."""
    if conversation is not None and str(conversation.channel) == "WhatsApp":
        return "Markdown"
    return None


def _validation_text(error: ValidationError) -> str:
    errors = error.errors()
    if not errors:
        return "The reply cannot be sent: it does not fit the service's rules."
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"] if part != "value")
    what = str(first["msg"]).removeprefix("Value error, ")
    if "content" in where and "too_long" in first["type"]:
        return "The reply is too long: at most 100,000 characters."
    return f"The reply cannot be sent: {where + ' ' if where else ''}{what}"


def reply_problem(conversation: Conversation | None, text: str, content_type: str,
                  attachments: list[dict[str, str]]) -> str | None:
    """Why this reply cannot go to this conversation, or None when it can.

    Checks what the service would refuse, before anything is queued: an empty reply, a
    channel that takes no messages, the contract's shape (length, attachment URLs), and the
    WhatsApp and SMS rules through the contract's own ``whatsapp_problem``/``sms_problem``.
    """
    if not text.strip() and not attachments:
        return "Nothing to send: write a reply or attach a file (ctrl+a)."
    blocked = blocked_reason(conversation)
    if blocked is not None:
        return blocked
    try:
        message = OutboundMessageInput.model_validate({
            "_type": "Outbound",
            "agentId": _ANY_AGENT,
            "content": {"value": text, "_type": content_type} if text.strip() else None,
            "attachments": [{"url": a["url"], "prettyName": a.get("prettyName")}
                            for a in attachments] or None,
        })
    except ValidationError as error:
        return _validation_text(error)
    channel = str(conversation.channel) if conversation is not None else ""
    if channel == "WhatsApp":
        problem = whatsapp_problem(message)
    elif channel == "Sms":
        problem = sms_problem(message)
    else:
        problem = None
    return None if problem is None else f"{problem[0].upper()}{problem[1:]}."


# --------------------------------------------------------------------------- attachments


def _url_name(url: str) -> str:
    parts = urlsplit(url)
    name = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
    return (name or parts.hostname or "link")[:255]


def attachment_from(value: str) -> dict[str, str] | str:
    """The attachment for what the user typed (a URL or a local path), or why it cannot be.

    A URL becomes ``{"url", "prettyName"}`` (the name is the last part of its path); a local
    file becomes ``{"path", "prettyName"}`` (the file name), read when the reply is sent.
    """
    value = value.strip()
    if not value:
        return "Type a URL (https://…) or the path of a local file."
    lowered = value.lower()
    if lowered.startswith(("http://", "https://")):
        if any(ch.isspace() or ord(ch) < 32 for ch in value):
            return "A URL cannot contain spaces or control characters."
        if len(value) > MAX_URL_CHARS:
            return "That URL is too long."
        return {"url": value, "prettyName": _url_name(value)}
    if "://" in value or lowered.startswith(("data:", "javascript:", "file:")):
        return "Only http(s) links and local files can be attached."
    path = Path(value).expanduser()
    try:
        if not path.exists():
            return f"There is no file at {one_line(value, 80)}."
        if not path.is_file():
            return f"{one_line(value, 80)} is not a file."
        size = path.stat().st_size
    except OSError as error:
        return f"{one_line(value, 80)} cannot be read: {error.strerror or error}."
    if size > MAX_FILE_BYTES:
        return (f"{one_line(path.name, 60)} is {size / 1_000_000:.1f} MB: files up to "
                f"{MAX_FILE_BYTES / 1_000_000:.1f} MB can be attached. Share a link instead.")
    return {"path": str(path.resolve()), "prettyName": path.name[:255]}


def materialize(entry: dict[str, str]) -> dict[str, str]:
    """The attachment as the service takes it: a local file is read into a ``data:`` URL.

    Raises :class:`AttachmentError` when the file is gone, unreadable or has grown too large.
    """
    path_text = entry.get("path")
    if not path_text:
        out = {"url": entry.get("url", "")}
        if entry.get("prettyName"):
            out["prettyName"] = entry["prettyName"]
        return out
    path = Path(path_text)
    name = entry.get("prettyName") or path.name
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise AttachmentError(f"{one_line(name, 60)} cannot be read any more "
                              f"({error.strerror or error}): remove it (ctrl+a) or put it "
                              "back.") from error
    if len(data) > MAX_FILE_BYTES:
        raise AttachmentError(f"{one_line(name, 60)} has grown beyond "
                              f"{MAX_FILE_BYTES / 1_000_000:.1f} MB: share a link instead.")
    mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
    url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return {"url": url, "prettyName": name}


def _describe(entry: dict[str, str]) -> str:
    name = one_line(entry.get("prettyName") or "", 40) or "attachment"
    where = entry.get("path") or entry.get("url") or ""
    return f"{name}  ({one_line(where, 70)})"


@owns_bindings
class AttachScreen(ModalScreen[list[dict[str, str]]]):
    """Add attachments by URL or local path, remove them; answers the new list.

    ``enter`` adds what is typed (an empty line closes), ``tab`` moves to the list,
    ``delete`` removes the highlighted attachment, ``esc`` closes.
    """

    HELP_NAME = "Attachments"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "done", "Done", id="attach.done"),
        Binding("delete,backspace", "remove", "Remove attachment", id="attach.remove"),
    ]

    def __init__(self, entries: list[dict[str, str]], *, limit_hint: str = "") -> None:
        super().__init__()
        self.entries = [dict(entry) for entry in entries]
        self.limit_hint = limit_hint

    def compose(self) -> ComposeResult:
        with Vertical(id="attach-box"):
            yield Label("Attach a link or a local file", id="attach-title")
            yield Input(placeholder="https://…  or  ~/path/to/file.pdf", id="attach-input")
            yield Static(self._hint(), id="attach-hint", markup=False)
            yield OptionList(*[Text(_describe(e)) for e in self.entries], id="attach-list")

    def _hint(self) -> str:
        hint = (f"enter adds · empty enter or esc: done · tab, then delete removes · "
                f"files up to {MAX_FILE_BYTES / 1_000_000:.1f} MB")
        return f"{self.limit_hint}\n{hint}" if self.limit_hint else hint

    def _refill(self) -> None:
        options = self.query_one("#attach-list", OptionList)
        options.clear_options()
        options.add_options([Text(_describe(e)) for e in self.entries])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Add the typed URL or file; an empty line closes."""
        event.stop()
        if not event.value.strip():
            self.dismiss(self.entries)
            return
        entry = attachment_from(event.value)
        if isinstance(entry, str):
            self.notify(entry, severity="warning", markup=False)
            return
        self.entries.append(entry)
        event.input.value = ""
        self._refill()

    def action_remove(self) -> None:
        """Remove the highlighted attachment (when the list has the focus)."""
        options = self.query_one("#attach-list", OptionList)
        if self.focused is not options or options.highlighted is None:
            return
        del self.entries[options.highlighted]
        self._refill()

    def action_done(self) -> None:
        """Close, keeping the attachments as they are now."""
        self.dismiss(self.entries)


# --------------------------------------------------------------------------- the widget


class ReplyEditor(TextArea):
    """The composer's editor: a plain multi-line ``TextArea`` (soft-wrapped, no highlighting).

    ``ctrl+a``/``ctrl+k`` are the composer's (attach, content type): the composer's bindings
    are priority bindings, so they win over the editor's line-start and kill-line keys.
    """


@owns_bindings
class Composer(Vertical):
    """The reply box of one conversation; ``open`` moves it to another conversation."""

    HELP_NAME = "Composer"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Send", id="composer.send", priority=True),
        Binding("ctrl+t", "toggle_preview", "Preview", id="composer.preview", priority=True),
        Binding("ctrl+k", "cycle_type", "Text/Markdown", id="composer.content_type",
                priority=True),
        Binding("ctrl+a", "attach", "Attach", id="composer.attach", priority=True),
        Binding("ctrl+g", "knowledge", "Insert article", id="composer.knowledge",
                priority=True),
        Binding("escape", "leave", "Leave", id="composer.leave"),
    ]

    class Sent(TextualMessage):
        """A reply went into the outbox (the thread shows it as "sending…")."""

        def __init__(self, item: OutboxItem) -> None:
            super().__init__()
            self.item = item

    def __init__(self, session: Session, conversation_id: int,
                 conversation: Conversation | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._session = session
        self.conversation_id = conversation_id
        self._conversation = conversation
        self._unavailable: str | None = None
        self._chosen_type = "Text"
        self._attachments: list[dict[str, str]] = []
        self._saved: tuple[int, str, tuple[tuple[tuple[str, str], ...], ...]] | None = None
        self._save_failed = False
        self.preview = False
        self.saves = 0
        self._editor = ReplyEditor(
            "", soft_wrap=True, tab_behavior="focus", show_line_numbers=False,
            highlight_cursor_line=False, id="composer-editor",
            placeholder="Write a reply…  (ctrl+s sends)")
        self._info = Static("", id="composer-info", markup=False)
        self._email = Static("", id="composer-email", markup=False)
        self._preview = Static("", id="composer-preview", markup=False)

    # ------------------------------------------------------------------ building

    def compose(self) -> ComposeResult:
        yield self._email
        yield self._info
        with Horizontal(id="composer-body"):
            yield self._editor
            yield self._preview

    def on_mount(self) -> None:
        self._preview.border_title = "Preview"
        self._preview.display = False
        self._chosen_type = self._remembered_type()
        self._load_draft()
        self._apply_rules()

    # ------------------------------------------------------------------ state

    @property
    def editor(self) -> ReplyEditor:
        """The text editor."""
        return self._editor

    @property
    def text(self) -> str:
        """The reply as typed."""
        return self._editor.text

    @property
    def attachments(self) -> list[dict[str, str]]:
        """The attachments, as the draft keeps them (``url`` or ``path``, ``prettyName``)."""
        return [dict(entry) for entry in self._attachments]

    @property
    def content_type(self) -> str:
        """``Text`` or ``Markdown``: what the channel forces, else what the user chose."""
        return forced_content_type(self._conversation) or self._chosen_type

    @property
    def blocked(self) -> str | None:
        """Why this conversation takes no reply, or None."""
        return self._unavailable or blocked_reason(self._conversation)

    def set_unavailable(self, reason: str | None) -> None:
        """Refuse replies for a reason the record cannot tell (the conversation is gone)."""
        if reason != self._unavailable:
            self._unavailable = reason
            self._apply_rules()

    def open(self, conversation_id: int, conversation: Conversation | None) -> None:
        """Move to another conversation: keep this one's draft, load the other's."""
        self.flush_draft()
        self.conversation_id = conversation_id
        self._conversation = conversation
        self._unavailable = None
        self._chosen_type = self._remembered_type()
        self._load_draft()
        self._apply_rules()

    def set_conversation(self, conversation: Conversation | None) -> None:
        """The conversation's record changed: re-apply its channel's rules if they differ."""
        old = self._conversation
        self._conversation = conversation
        if old is None and conversation is not None:
            self._chosen_type = self._remembered_type()
        if _rules_key(old) != _rules_key(conversation) or _email_key(old) != _email_key(
                conversation):
            self._apply_rules()

    def load_draft(self, text: str, attachments: list[dict[str, str]]) -> None:
        """Put a text and attachments in the editor (a failed reply brought back to edit)."""
        self._attachments = [dict(entry) for entry in attachments]
        self._editor.load_text(text)
        self._editor.move_cursor(self._editor.document.end)
        self._save_draft()
        self._update_info()
        self._update_preview()

    def focus_editor(self) -> bool:
        """Put the cursor in the editor; False (and a notice) when replies are not possible."""
        reason = self.blocked
        if reason is not None:
            self.notify(reason, severity="warning", markup=False)
            return False
        # At once, not at the next idle moment: keys typed right after ``i`` (a paste, a
        # fast typist, tmux send-keys) must land in the editor, not on the screen's bindings.
        self.screen.set_focus(self._editor)
        return True

    def _load_draft(self) -> None:
        try:
            draft = self._session.local.draft(self.conversation_id)
        except Exception as error:  # a damaged store must not stop the thread from opening
            self.notify(f"The draft could not be read: {error}", severity="error", markup=False)
            draft = None
        text = draft.text if draft is not None else ""
        self._attachments = [dict(a) for a in draft.attachments] if draft is not None else []
        self._saved = (self.conversation_id, text, _frozen(self._attachments))
        self._editor.load_text(text)
        self._editor.move_cursor(self._editor.document.end)
        self._update_info()
        self._update_preview()

    def _apply_rules(self) -> None:
        reason = self.blocked
        self._editor.disabled = reason is not None
        self.set_class(reason is not None, "-blocked")
        self._update_info()
        self._update_preview()

    # ------------------------------------------------------------------ drafts

    @on(TextArea.Changed, "#composer-editor")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._save_draft()
        if self.preview:
            self._update_preview()

    def flush_draft(self) -> None:
        """Save what the editor holds now (before switching conversation or leaving)."""
        self._save_draft()

    def _save_draft(self) -> None:
        """Save the editor's text and the attachments as the draft, unless already saved.

        Always what the editor holds *now* under the conversation shown *now*: a late change
        event can never write one conversation's text into another's draft.
        """
        text = self._editor.text
        key = (self.conversation_id, text, _frozen(self._attachments))
        if key == self._saved:
            return
        try:
            self._session.local.save_draft(self.conversation_id, text, self._attachments)
        except Exception as error:
            if not self._save_failed:
                self._save_failed = True
                self.notify(f"Drafts cannot be saved: {error}", severity="error",
                            markup=False)
            return
        self._save_failed = False
        self._saved = key
        self.saves += 1

    # ------------------------------------------------------------------ display

    def _remembered_type(self) -> str:
        """Text or Markdown, as last chosen for this conversation's channel."""
        conversation = self._conversation
        if conversation is None:
            return "Text"
        try:
            chosen = self._session.local.snapshot(TYPES_SNAPSHOT)
        except Exception:  # a damaged store: the default, and the reply still goes
            return "Text"
        value = chosen.get(str(conversation.channel)) if isinstance(chosen, dict) else None
        return value if value in ("Text", "Markdown") else "Text"

    def _remember_type(self) -> None:
        """Keep the choice for the channel (the next conversation on it opens with it)."""
        conversation = self._conversation
        if conversation is None:
            return
        try:
            chosen = self._session.local.snapshot(TYPES_SNAPSHOT)
            types = dict(chosen) if isinstance(chosen, dict) else {}
            types[str(conversation.channel)] = self._chosen_type
            self._session.local.save_snapshot(TYPES_SNAPSHOT, types)
        except Exception as error:
            self.notify(f"The choice could not be kept: {error}", severity="warning",
                        markup=False)

    def email_header(self) -> Text | None:
        """``To: Name <address> · Subject: Re: …`` for an email reply, else None."""
        conversation = self._conversation
        if conversation is None or str(conversation.channel) not in EMAIL_CHANNELS:
            return None
        address = (conversation.to_email if conversation.direction == "Outbound"
                    else conversation.from_email)
        name = self._session.directory.name(conversation.requester_id)
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

    def _update_info(self) -> None:
        header = self.email_header() if self.blocked is None else None
        self._email.display = header is not None
        if header is not None:
            self._email.update(header)
        line = Text(no_wrap=True, overflow="ellipsis", end="")
        reason = self.blocked
        if reason is not None:
            line.append("⊘ " + reason, _BLOCKED)
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
        line.append("  ·  ctrl+a attach  ·  ctrl+t preview  ·  ctrl+s send", _INFO)
        self._info.update(line)

    def _update_preview(self) -> None:
        if not self.preview:
            return
        text = self._editor.text
        self._preview.border_title = f"Preview · {self.content_type}"
        if not text.strip():
            self._preview.update(Text("Nothing to preview yet.", style=_INFO))
            return
        self._preview.update(render_body(self.content_type, text))

    # ------------------------------------------------------------------ actions

    def action_toggle_preview(self) -> None:
        """Show or hide the rendered reply beside the editor."""
        self.preview = not self.preview
        self._preview.display = self.preview
        self.set_class(self.preview, "-preview")
        self._update_preview()

    def action_cycle_type(self) -> None:
        """Switch the reply between Text and Markdown (WhatsApp is always Markdown)."""
        if forced_content_type(self._conversation):
            self.notify("WhatsApp replies are always Markdown.", markup=False)
            return
        self._chosen_type = "Markdown" if self._chosen_type == "Text" else "Text"
        self._remember_type()
        self._update_info()
        self._update_preview()

    def action_attach(self) -> None:
        """Add or remove attachments (links or local files)."""
        if self.blocked is not None:
            self.notify(self.blocked, severity="warning", markup=False)
            return
        hint = ""
        if forced_content_type(self._conversation):
            hint = "WhatsApp: one attachment, .jpg .jpeg .png .pdf .doc .docx .pptx .xlsx"
        cid = self.conversation_id

        def done(entries: list[dict[str, str]] | None) -> None:
            if entries is None or cid != self.conversation_id:
                return
            self._attachments = [dict(e) for e in entries]
            self._save_draft()
            self._update_info()
            self.focus_editor()

        self.app.push_screen(AttachScreen(self._attachments, limit_hint=hint), done)

    def action_knowledge(self) -> None:
        """Find a published help-centre article and insert its link or text at the cursor."""
        from ..screens.inbox.article_finder import open_finder

        open_finder(self, self._conversation.language if self._conversation else None)

    def action_leave(self) -> None:
        """Leave the editor for the first focusable widget outside the composer (on the thread
        screen: the messages). The focus moves at once, so the next key is the screen's."""
        self.flush_draft()
        screen = self.screen
        target = next((w for w in screen.focus_chain if self not in w.ancestors_with_self),
                      None)
        screen.set_focus(target)

    def action_send(self) -> None:
        """Check the reply against the channel's rules and hand it to the outbox."""
        reason = self.blocked
        if reason is not None:
            self.notify(reason, severity="warning", markup=False)
            return
        text = self._editor.text.rstrip()
        try:
            files = [materialize(entry) for entry in self._attachments]
        except AttachmentError as error:
            self.notify(str(error), title="Not sent", severity="error", markup=False)
            return
        problem = reply_problem(self._conversation, text, self.content_type, files)
        if problem is not None:
            self.notify(problem, title="Not sent", severity="warning", markup=False)
            return
        self.flush_draft()
        try:
            item = self._session.send_reply(self.conversation_id, text,
                                            content_type=self.content_type, attachments=files)
        except ValueError as error:
            message = str(error)
            if "agent_id" in message:
                message = "Not signed in yet: the reply is kept, try again in a moment."
            self.notify(message, title="Not sent", severity="error", markup=False)
            return
        except Exception as error:  # the local store could not keep it: keep the text
            self.notify(f"The reply could not be queued: {error}", title="Not sent",
                        severity="error", markup=False)
            return
        self._attachments = []
        self._saved = (self.conversation_id, "", ())
        self._editor.clear()
        if self.preview:  # the reply is on its way: back to the full-width editor
            self.action_toggle_preview()
        self._update_info()
        self._update_preview()
        self.post_message(self.Sent(item))


def _frozen(entries: list[dict[str, str]]) -> tuple[tuple[tuple[str, str], ...], ...]:
    return tuple(tuple(sorted(entry.items())) for entry in entries)


def _email_key(conversation: Conversation | None) -> tuple[Any, ...]:
    if conversation is None:
        return ()
    return (conversation.subject, conversation.from_email, conversation.to_email,
            conversation.requester_id)


def _rules_key(conversation: Conversation | None) -> tuple[Any, ...]:
    if conversation is None:
        return ()
    return (str(conversation.channel), conversation.type, conversation.anonymized_at)
