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

The composer's keys are all in :attr:`Composer.BINDINGS`, one place. The widget holds the
state and the drafts here; its parts are modules of their own: what its keys do
(``composer_actions``), what it shows around the editor (``composer_info``), and the
attachments with their screen (``attachments``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message as TextualMessage

from ...api.models import Conversation
from ...store.compose import ComposeMode, Outgoing
from ...store.replies import (
    blocked_reason,
    forced_content_type,
    is_anonymized,
)
from ..registry import owns_bindings
from .composer_actions import ComposerActions
from .composer_info import ComposerInfo, placeholder
from .safe import Static, TextArea

if TYPE_CHECKING:
    from ...store.local import Draft

__all__ = ["Composer", "ReplyEditor"]


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
class Composer(ComposerActions, ComposerInfo):
    """The reply (or note) box of one conversation; ``open`` moves it to another one.

    ``names`` resolves a user id to a display name (the email header's recipient).
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
