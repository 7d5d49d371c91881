"""The composer's keys: Reply or Note (``ctrl+n``), the preview (``ctrl+t``), Text or
Markdown (``ctrl+k``), attachments (``ctrl+a``), a help-centre article (``ctrl+g``), leaving
the editor (``esc``) and sending (``ctrl+s``), with the host's answer to a send.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.containers import Vertical

from ...api.models import Conversation
from ...store.compose import ComposeMode, Outgoing
from ...store.replies import forced_content_type
from .attachments import AttachScreen

if TYPE_CHECKING:
    from .composer import Composer, ReplyEditor
    from .safe import Static

__all__ = ["ComposerActions"]


class ComposerActions(Vertical):
    """What the composer's keys do (a part of ``Composer``, which binds them)."""

    conversation_id: int
    preview: bool
    _mode: ComposeMode
    _conversation: Conversation | None
    _chosen_type: str
    _attachments: list[dict[str, str]]
    _saved: tuple[int, str, tuple[tuple[tuple[str, str], ...], ...]] | None
    _sending: bool
    _editor: ReplyEditor
    _preview: Static

    if TYPE_CHECKING:
        ModeChanged: ClassVar[type[Composer.ModeChanged]]
        ContentTypeChosen: ClassVar[type[Composer.ContentTypeChosen]]
        SendRequested: ClassVar[type[Composer.SendRequested]]

        @property
        def blocked(self) -> str | None: ...
        @property
        def content_type(self) -> str: ...
        @property
        def channel(self) -> str: ...
        def focus_editor(self) -> bool: ...
        def flush_draft(self) -> None: ...
        def _save_draft(self) -> None: ...
        def _apply_rules(self) -> None: ...
        def _show_mode(self) -> None: ...
        def _update_info(self) -> None: ...
        def _update_preview(self) -> None: ...

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

        open_finder(cast("Composer", self),  # the one widget this part is a part of
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
        self.post_message(self.SendRequested(cast("Composer", self), outgoing))

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
