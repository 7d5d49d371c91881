"""The help-centre article editor: one translation's language (new ones only), title and
body. ``ctrl+s`` saves a draft, ``ctrl+a`` adds an image by its path; the body is plain text
(paragraphs, line breaks and images are kept)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....store.knowledge import KnowledgeStore
from ....text import safe
from ...answers import Answered, Regarding, answer_of, refusal_of
from ...registry import owns_bindings
from ...widgets.safe import Input, Label, Static, TextArea
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import session_of
from ..shared.pickers import PromptScreen

__all__ = ["ArticleEditor", "Save"]

Save = Callable[[str, str, str], Awaitable[None]]


@owns_bindings
class ArticleEditor(ModalScreen[bool], ReportsFailedWorkers):
    """Write one translation: language (new ones only), title and body. ``ctrl+s`` saves (a
    refusal shows here and nothing typed is lost), ``ctrl+a`` adds an image, ``esc``
    cancels."""

    HELP_NAME = "Article editor"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save draft", id="knowledge_editor.save", priority=True),
        Binding("ctrl+a", "image", "Add image", id="knowledge_editor.image", priority=True),
        Binding("escape", "cancel", "Cancel", id="knowledge_editor.cancel"),
    ]
    DEFAULT_CSS = """
    ArticleEditor { align: center middle; }
    ArticleEditor > Vertical { width: 90%; max-width: 120; height: 90%; border: thick $accent;
        background: $surface; padding: 0 1; }
    ArticleEditor #editor-body { height: 1fr; }
    ArticleEditor #editor-problem { color: $error; }
    ArticleEditor .hint { color: $text-muted; }
    """

    def __init__(self, heading: str, save: Save, *, language: str = "", title: str = "",
                 body: str = "", language_fixed: bool = False) -> None:
        super().__init__(id="knowledge-editor")
        self.heading = heading
        self._save = save
        self._language, self._title, self._body = language, title, body
        self.language_fixed = language_fixed
        self.saving = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(safe(self.heading), id="editor-heading")
            yield Input(self._language, placeholder="language: en, da, pt-BR",
                        id="editor-language", disabled=self.language_fixed)
            yield Input(self._title, placeholder="title", id="editor-title")
            yield TextArea(self._body, id="editor-body", soft_wrap=True)
            yield Label("", id="editor-problem")
            yield Static("Saved as a draft; publish it from the article. Paragraphs, line "
                         "breaks and images are kept; other formatting is not.", classes="hint")
            yield Label("ctrl+s save · ctrl+a add image · esc cancel", classes="hint")

    def on_mount(self) -> None:
        first = "#editor-title" if self.language_fixed or self._language else "#editor-language"
        self.query_one(first, Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """``enter`` in a line moves on to the next field."""
        event.stop()
        self.focus_next()

    def action_save(self) -> None:
        """Save the draft (once at a time)."""
        if not self.saving:
            self.saving = True
            self._run_save()

    class Saved(Answered):
        """The draft was saved (or refused)."""

    @work(exclusive=True, group="knowledge-editor", exit_on_error=False)
    async def _run_save(self) -> None:
        try:
            refusal = await refusal_of(self._save(self.query_one("#editor-language", Input).value,
                                                  self.query_one("#editor-title", Input).value,
                                                  self.query_one("#editor-body", TextArea).text))
        except BaseException:
            self.saving = False  # a failure is said by the console's one handler
            raise
        self.post_message(self.Saved(refusal))

    def on_article_editor_saved(self, message: Saved) -> None:
        """Saved: the editor closes; refused: why, under the text, and nothing is lost."""
        self.saving = False
        if message.refusal is not None:
            self.query_one("#editor-problem", Label).update(safe(message.refusal.reason))
            return
        self.dismiss(True)

    def action_image(self) -> None:
        """Upload an image from a path; it goes in at the cursor as its own paragraph."""
        store = session_of(self).knowledge
        body = self.query_one("#editor-body", TextArea)

        def typed(path: Any) -> None:
            if isinstance(path, str) and path.strip():
                self._upload(store, body, path)

        self.app.push_screen(PromptScreen("Add an image (PNG, JPEG, GIF or WebP, ≤ 4 MB)",
                                          placeholder="path of the image file"), typed)

    class Uploaded(Regarding[TextArea, str]):
        """An image was uploaded: the line that shows it in the body."""

    @work(group="knowledge-upload", exit_on_error=False)
    async def _upload(self, store: KnowledgeStore, body: TextArea, path: str) -> None:
        self.post_message(self.Uploaded(body, *await answer_of(store.upload_image(path))))

    def on_article_editor_uploaded(self, message: Uploaded) -> None:
        """The image goes in at the cursor, or why not under the text."""
        if message.refusal is not None:
            self.query_one("#editor-problem", Label).update(safe(message.refusal.reason))
            return
        message.about.insert(f"\n\n{message.value}\n\n")
        message.about.focus()

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(False)
