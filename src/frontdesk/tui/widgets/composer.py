"""The composer: where an agent writes a reply to the customer, or an internal note, below the
thread.

A view: it holds what is typed and shows how it will go out; it does no I/O. It posts what
happens (:class:`Composer.DraftChanged`, :class:`Composer.SendRequested`,
:class:`Composer.ContentTypeChosen`, :class:`Composer.ModeChanged`) and the screen hosting it
hands them to the store (:mod:`frontdesk.store.compose`), which saves drafts, reads attached
files off the UI thread and enqueues in the outbox.

Two modes, always on show: **Reply** (to the customer) and **Note** (for colleagues only).
``ctrl+n`` switches between them without asking; in Note mode the composer's border, its
title and the send line say "Note", in the note colour, so a note cannot leave as a reply by
mistake. A line says how the reply will go out (Text or Markdown, attachments, or why this
conversation cannot take a reply; for an email, to whom and under which subject: "Re: …"),
and an optional Markdown preview opens beside the editor (closed once the reply is sent).

* **Nothing typed is lost.** Every change is posted as the conversation's draft at once; the
  store saves it (one UPSERT) and the draft is put back when the thread opens again.
* **It is checked before it leaves.** The store checks the channel's rules with the
  contract's own functions before anything is queued; a refusal says why and keeps the text
  and the attachments.
* **Typing stays cheap.** A keystroke costs the editor's own repaint and one draft save; the
  thread above is never touched, the preview is rendered only while it is shown.

The composer's keys are all in :attr:`Composer.BINDINGS`, one place, and the class is whole
here: its state and drafts, what its keys do, and what it shows around the editor; the
attachments' screen is a module of its own (``attachments``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message as TextualMessage

from ...api.models import Conversation, reply_subject
from ...store.compose import ComposeMode, Outgoing
from ...store.replies import (
    EMAIL_CHANNELS,
    blocked_reason,
    forced_content_type,
    is_anonymized,
)
from ...text import one_line
from ..registry import owns_bindings
from ..render import render_body
from .attachments import AttachScreen
from .safe import Static, TextArea

if TYPE_CHECKING:
    from ...store.local import Draft

__all__ = ["Composer", "ReplyEditor"]


_INFO = Style(dim=True)
_TYPE = Style(bold=True)
_BLOCKED = Style(color="yellow", bold=True)
_NOTE = Style(color="black", bgcolor="yellow", bold=True)


def placeholder(mode: ComposeMode) -> str:
    """What the empty editor says in each mode."""
    if mode == "note":
        return "Write an internal note…  (only agents see it; ctrl+s adds it)"
    return "Write a reply…  (ctrl+s sends · ctrl+n writes a note instead)"


class ReplyEditor(TextArea):
    """The composer's editor: a plain multi-line ``TextArea`` (soft-wrapped, no highlighting).

    ``ctrl+a``/``ctrl+k`` are the composer's (attach, content type): the composer's bindings
    are priority bindings, so they win over the editor's line-start and kill-line keys.
    """

    def insert_words(self, text: str) -> None:
        """Insert ``text`` (a quick response, an article) at the cursor as words of its own:
        a space before it where it would touch the word before, and after it where it would
        touch the word after (the text itself goes in as it is)."""
        row, column = self.cursor_location
        line = self.document.get_line(row)
        before = line[column - 1] if column > 0 else ""
        after = line[column] if column < len(line) else ""
        if before and not before.isspace() and text and not text[0].isspace():
            text = " " + text
        if after and (after.isalnum() or after in "([{\"'") and text \
                and not text[-1].isspace():
            text += " "
        self.insert(text)


@owns_bindings
class Composer(Vertical):
    """The reply (or note) box of one conversation; ``open`` moves it to another one.

    ``names`` resolves a user id to a display name (the email header's recipient).

    One class over 400 lines: its keys, its drafts and what it shows around the editor all
    read and change the same few fields (the mode, the content type, the attachments, the
    conversation), and parts of it would each have to re-declare them.
    """

    HELP_NAME = "Composer"
    #: Every key of the composer (priority bindings: they win over the editor's own keys).
    BINDINGS: ClassVar[list[BindingType]] = [
        # ctrl+s says what it does: "Send" a reply, or "Add note" (one of the two is active)
        Binding("ctrl+s", "send", "Send", id="composer.send", priority=True),
        Binding("ctrl+s", "send_note", "Add note", id="composer.send_note", priority=True),
        Binding("ctrl+n", "toggle_mode", "Reply/Note", id="composer.mode", priority=True),
        Binding("ctrl+t", "toggle_preview", "Preview", id="composer.preview", priority=True),
        Binding("ctrl+k", "cycle_type", "Text/Markdown", id="composer.content_type",
                priority=True),
        Binding("ctrl+a", "attach", "Attach", id="composer.attach", priority=True),
        Binding("ctrl+g", "knowledge", "Insert article", id="composer.knowledge",
                priority=True),
        Binding("escape", "leave", "Leave", id="composer.leave"),
    ]

    class DraftChanged(TextualMessage):
        """What the composer holds changed: the host has the store save it as the draft."""

        def __init__(self, composer: Composer, conversation_id: int, text: str,
                     attachments: list[dict[str, str]]) -> None:
            super().__init__()
            self.composer = composer
            self.conversation_id = conversation_id
            self.text = text
            self.attachments = attachments

    class SendRequested(TextualMessage):
        """The user asked to send (``ctrl+s``): the host hands ``outgoing`` to the store and
        answers with :meth:`Composer.sent` or :meth:`Composer.refused`."""

        def __init__(self, composer: Composer, outgoing: Outgoing) -> None:
            super().__init__()
            self.composer = composer
            self.outgoing = outgoing

    class ContentTypeChosen(TextualMessage):
        """Text or Markdown was chosen for a channel: the host has the store remember it."""

        def __init__(self, channel: str, content_type: str) -> None:
            super().__init__()
            self.channel = channel
            self.content_type = content_type

    class ModeChanged(TextualMessage):
        """The composer switched between Reply and Note: the host has the store keep it with
        the draft."""

        def __init__(self, conversation_id: int, mode: ComposeMode) -> None:
            super().__init__()
            self.conversation_id = conversation_id
            self.mode = mode

    def __init__(self, conversation_id: int, conversation: Conversation | None = None, *,
                 draft: Draft | None = None, content_type: str = "Text",
                 mode: ComposeMode = "reply", names: Callable[[str], str] | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.conversation_id = conversation_id
        self._conversation = conversation
        self._names = names
        self._unavailable: str | None = None
        self._chosen_type = content_type
        self._mode: ComposeMode = mode
        self._attachments: list[dict[str, str]] = []
        self._initial_draft = draft
        self._saved: tuple[int, str, tuple[tuple[tuple[str, str], ...], ...]] | None = None
        self._save_failed = False
        self._sending = False
        self.preview = False
        self.saves = 0
        self._editor = ReplyEditor(
            "", soft_wrap=True, tab_behavior="focus", show_line_numbers=False,
            highlight_cursor_line=False, id="composer-editor",
            placeholder=placeholder(mode))
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
        self._show_draft(self._initial_draft)
        self._initial_draft = None
        self._show_mode()
        self._apply_rules()

    # ------------------------------------------------------------------ state

    @property
    def editor(self) -> ReplyEditor:
        """The text editor."""
        return self._editor

    @property
    def text(self) -> str:
        """What is typed."""
        return self._editor.text

    @property
    def mode(self) -> ComposeMode:
        """``reply`` (to the customer) or ``note`` (for colleagues only)."""
        return self._mode

    @property
    def attachments(self) -> list[dict[str, str]]:
        """The attachments, as the draft keeps them (``url`` or ``path``, ``prettyName``)."""
        return [dict(entry) for entry in self._attachments]

    @property
    def sending(self) -> bool:
        """Whether what was typed is with the host, being queued (the editor is read-only
        until the answer)."""
        return self._sending

    @property
    def content_type(self) -> str:
        """``Text`` or ``Markdown``: what the channel forces, else what the user chose."""
        return forced_content_type(self._conversation) or self._chosen_type

    @property
    def blocked(self) -> str | None:
        """Why this conversation takes nothing from the composer now, or None.

        A note can be written where a reply cannot (a phone call, a closed channel), unless
        the conversation is gone or anonymized.
        """
        if self._unavailable is not None:
            return self._unavailable
        reason = blocked_reason(self._conversation)
        if self._mode == "note" and reason is not None and not is_anonymized(
                self._conversation):
            return None
        return reason

    def set_unavailable(self, reason: str | None) -> None:
        """Refuse replies for a reason the record cannot tell (the conversation is gone)."""
        if reason != self._unavailable:
            self._unavailable = reason
            self._apply_rules()

    def open(self, conversation_id: int, conversation: Conversation | None, *,
             draft: Draft | None, content_type: str, mode: ComposeMode) -> None:
        """Move to another conversation (its draft, content type and mode as the store has
        them); the host saved this one's draft first (:meth:`flush_draft`)."""
        self.flush_draft()
        self.conversation_id = conversation_id
        self._conversation = conversation
        self._unavailable = None
        self._chosen_type = content_type
        self._mode = mode
        self._sending = False
        self._editor.read_only = False
        self._show_draft(draft)
        self._show_mode()
        self._apply_rules()

    def set_conversation(self, conversation: Conversation | None,
                         content_type: str | None = None) -> None:
        """The conversation's record changed: re-apply its channel's rules if they differ
        (``content_type``: the channel's remembered choice, when the record was not known)."""
        old = self._conversation
        self._conversation = conversation
        if old is None and conversation is not None and content_type is not None:
            self._chosen_type = content_type
        if _rules_key(old) != _rules_key(conversation) or _email_key(old) != _email_key(
                conversation):
            self._apply_rules()

    @property
    def channel(self) -> str:
        """The conversation's channel ('' while its record is not known)."""
        return str(self._conversation.channel) if self._conversation is not None else ""

    def load_draft(self, text: str, attachments: list[dict[str, str]],
                   mode: ComposeMode | None = None) -> None:
        """Put a text and attachments in the editor (a failed reply brought back to edit)."""
        if mode is not None and mode != self._mode:
            self._set_mode(mode)
        self._attachments = [dict(entry) for entry in attachments]
        self._editor.load_text(text)
        self._editor.move_cursor(self._editor.document.end)
        self._save_draft()
        self._update_info()
        self._update_preview()

    def focus_editor(self) -> bool:
        """Put the cursor in the editor; False (and a notice) when it takes nothing."""
        reason = self.blocked
        if reason is not None:
            self.notify(reason, severity="warning", markup=False)
            return False
        # At once, not at the next idle moment: keys typed right after ``i`` (a paste, a
        # fast typist, tmux send-keys) must land in the editor, not on the screen's bindings.
        self.screen.set_focus(self._editor)
        return True

    def _show_draft(self, draft: Draft | None) -> None:
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
        """Post what the editor holds now (before switching conversation or leaving)."""
        self._save_draft()

    def _save_draft(self) -> None:
        """Post the editor's text and the attachments as the draft, unless already saved.

        Always what the editor holds *now* under the conversation shown *now*: a late change
        event can never write one conversation's text into another's draft.
        """
        text = self._editor.text
        key = (self.conversation_id, text, _frozen(self._attachments))
        if key == self._saved:
            return
        self._saved = key
        self.post_message(self.DraftChanged(self, self.conversation_id, text,
                                            [dict(a) for a in self._attachments]))

    def unsaved(self) -> Composer.DraftChanged | None:
        """What the editor holds that no :class:`DraftChanged` has carried yet, marked as
        carried: for a host that must save it at once (the screen is going away)."""
        text = self._editor.text
        key = (self.conversation_id, text, _frozen(self._attachments))
        if key == self._saved:
            return None
        self._saved = key
        return self.DraftChanged(self, self.conversation_id, text,
                                 [dict(a) for a in self._attachments])

    def draft_saved(self, error: Exception | None = None) -> None:
        """The host's answer to :class:`DraftChanged`: saved, or why not (said once)."""
        if error is None:
            self._save_failed = False
            self.saves += 1
            return
        self._saved = None  # try again with the next change
        if not self._save_failed:
            self._save_failed = True
            self.notify(f"Drafts cannot be saved: {error}", severity="error", markup=False)

    # ------------------------------------------------------------------ keys

    def action_toggle_mode(self) -> None:
        """Switch between a reply to the customer and an internal note (asks nothing)."""
        self._set_mode("reply" if self._mode == "note" else "note")
        self.notify("Writing an internal note: only agents see it." if self._mode == "note"
                    else "Writing a reply: the customer sees it.", markup=False)

    def _set_mode(self, mode: ComposeMode) -> None:
        self._mode = mode
        self._show_mode()
        self._apply_rules()
        self.post_message(self.ModeChanged(self.conversation_id, mode))

    def action_toggle_preview(self) -> None:
        """Show or hide the rendered reply beside the editor."""
        self.preview = not self.preview
        self._preview.display = self.preview
        self.set_class(self.preview, "-preview")
        self._update_preview()

    def action_cycle_type(self) -> None:
        """Switch the reply between Text and Markdown (WhatsApp is always Markdown)."""
        if self._mode == "note":
            self.notify("Notes are plain text.", markup=False)
            return
        if forced_content_type(self._conversation):
            self.notify("WhatsApp replies are always Markdown.", markup=False)
            return
        self._chosen_type = "Markdown" if self._chosen_type == "Text" else "Text"
        if self._conversation is not None:
            self.post_message(self.ContentTypeChosen(self.channel, self._chosen_type))
        self._update_info()
        self._update_preview()

    def action_attach(self) -> None:
        """Add or remove attachments (links or local files)."""
        if self.blocked is not None:
            self.notify(self.blocked, severity="warning", markup=False)
            return
        if self._mode == "note" and not self._attachments:
            self.notify("A note takes text only: switch to Reply (ctrl+n) to attach.",
                        markup=False)
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

        open_finder(self,
                    self._conversation.language if self._conversation else None)

    def action_leave(self) -> None:
        """Leave the editor for the first focusable widget outside the composer (on the thread
        screen: the messages). The focus moves at once, so the next key is the screen's."""
        self.flush_draft()
        screen = self.screen
        target = next((w for w in screen.focus_chain if self not in w.ancestors_with_self),
                      None)
        screen.set_focus(target)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ctrl+s is "Send" for a reply and "Add note" for a note (the footer says which)."""
        if action == "send":
            return self._mode == "reply"
        if action == "send_note":
            return self._mode == "note"
        return True

    def action_send_note(self) -> None:
        """Add the note (ctrl+s in Note mode)."""
        self.action_send()

    def action_send(self) -> None:
        """Ask the host to send what is typed (the store checks it and queues it)."""
        reason = self.blocked
        if reason is not None:
            self.notify(reason, severity="warning", markup=False)
            return
        if self._sending:
            return
        self.flush_draft()
        outgoing = Outgoing(self.conversation_id, self._mode, self._editor.text.rstrip(),
                            "Text" if self._mode == "note" else self.content_type,
                            tuple(dict(entry) for entry in self._attachments))
        self._sending = True
        self._editor.read_only = True  # until the store answers: nothing typed is sent twice
        self.post_message(self.SendRequested(self, outgoing))

    def sent(self, outgoing: Outgoing) -> None:
        """The store queued ``outgoing`` (and deleted its draft): empty the composer."""
        self._sending = False
        self._editor.read_only = False
        if outgoing.conversation_id != self.conversation_id:
            return
        self._attachments = []
        self._saved = (self.conversation_id, "", ())
        self._editor.load_text("")  # its edit history too: ctrl+z never brings it back
        if self._mode == "note":  # back to replies: the next words are for the customer
            self._mode = "reply"
            self._show_mode()
            self._apply_rules()
        if self.preview:  # on its way: back to the full-width editor
            self.action_toggle_preview()
        self._update_info()
        self._update_preview()

    def refused(self, outgoing: Outgoing, reason: str) -> None:
        """The store did not queue ``outgoing``: say why; the text stays."""
        self.unsent()
        title = "Note not added" if outgoing.mode == "note" else "Not sent"
        self.notify(reason, title=title, severity="warning", markup=False)

    def unsent(self) -> None:
        """Sending failed unexpectedly (the console's one handler says why): the text stays
        and can be edited and sent again."""
        self._sending = False
        self._editor.read_only = False

    # ------------------------------------------------------------------ around the editor

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
