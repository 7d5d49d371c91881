"""The article finder, opened from the composer (``ctrl+g``): the help centre's published
articles, in the conversation's language where they are published in it (else the default
language). Typing filters by title and text; the highlighted article's text shows below;
``enter`` inserts its help-centre link at the cursor (its text when it has no link: internal
knowledge), ``ctrl+t`` inserts its text; ``esc`` closes.

Titles and texts are the service's: shown as ``Text`` after :mod:`frontdesk.text`, inserted
as plain text (the editor takes no markup)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message

from ....store.knowledge import FoundArticle, matches
from ....text import one_line, safe
from ...answers import Answered, refusal_of
from ...registry import owns_bindings
from ...widgets.safe import Input, Label, Option, OptionList, Static
from ..shared.common import session_of
from ..shared.pickers import FilterPicker, PickerOptions

if TYPE_CHECKING:
    from ...widgets.composer import Composer

__all__ = ["ArticleFinder", "open_finder"]

PREVIEW_CHARS = 1200


def insertion(article: FoundArticle, *, text: bool) -> str:
    """What goes into the reply: the article's link (its title and text when it has none),
    or its title and text."""
    if not text and article.link:
        return article.link
    return f"{article.title}\n\n{article.text}"


@owns_bindings
class ArticleFinder(FilterPicker[str | None]):
    """Find a published article; closes with the text to insert (None: nothing)."""

    HELP_NAME = "Article finder"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "insert_text", "Insert text", id="knowledge_finder.text",
                priority=True),
        Binding("ctrl+r", "reload", "Read again", id="knowledge_finder.reload", priority=True),
    ]
    HINT = "type to filter · ↑/↓ move · enter insert link · ctrl+t insert text · esc close"
    PLACEHOLDER = "title or words of the text"
    DEFAULT_CSS = """
    ArticleFinder { align: center middle; }
    ArticleFinder .picker-box { width: 90%; max-width: 110; height: 90%; border: thick $accent;
        background: $surface; padding: 0 1; }
    ArticleFinder #picker-options { height: 1fr; min-height: 4; }
    ArticleFinder #finder-preview { height: 1fr; min-height: 3; border-top: solid $panel;
        overflow-y: auto; }
    """

    def __init__(self, language: str | None = None) -> None:
        super().__init__(id="knowledge-finder")
        self.language = language
        self.articles: list[FoundArticle] | None = None
        self.shown: list[FoundArticle] = []
        self.problem: str | None = None
        #: still reading the help centre (the list grows as articles arrive)
        self.reading = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="picker-box"):
            yield Label(safe(self.title_text()), classes="picker-title")
            yield Input(placeholder=self.PLACEHOLDER, id="picker-filter")
            yield PickerOptions(id="picker-options")
            yield Static("", id="finder-preview")
            yield Label(safe(self.HINT), id="picker-hint", classes="picker-hint")

    def title_text(self) -> str:
        """The question at the top, with the language searched."""
        where = f" ({one_line(self.language, 12)} first)" if self.language else ""
        return f"Insert a help-centre article{where}"

    def on_mount(self) -> None:
        super().on_mount()
        self._load(refresh=False)

    class Arrived(Message):
        """More of the help centre's published articles were read: all found so far."""

        def __init__(self, found: list[FoundArticle]) -> None:
            super().__init__()
            self.found = found

    class Read(Answered):
        """The reading ended: every article was read, or the service refused the rest."""

    @work(exclusive=True, group="knowledge-finder", exit_on_error=False)
    async def _load(self, *, refresh: bool) -> None:
        self.reading = True
        reading = session_of(self).knowledge.reading_published(self.language, refresh=refresh)

        async def read() -> None:
            async for found in reading:
                self.post_message(self.Arrived(found))

        self.post_message(self.Read(await refusal_of(read())))

    def on_article_finder_arrived(self, message: Arrived) -> None:
        self._arrived(message.found)

    def on_article_finder_read(self, message: Read) -> None:
        self.problem = message.reason
        self.reading = False
        self._arrived(self.articles or [])

    def _arrived(self, found: list[FoundArticle]) -> None:
        """Articles read so far: listed at once, the highlight kept on its article."""
        before = self.current
        self.articles = found
        self._filled = None
        self.sync()
        if before is not None and before in self.shown:
            self.options.highlighted = self.shown.index(before)
            self._preview(before)

    def refill(self, typed: str) -> None:
        """The articles matching what is typed."""
        if self.articles is None:
            self.set_options([Option(Text("Reading the help centre…", style="dim"),
                                     disabled=True)])
            self._preview(None)
            return
        self.shown = matches(self.articles, typed)
        options = []
        for index, article in enumerate(self.shown):
            label = Text(one_line(article.title, 70))
            label.append(f"  {one_line(article.language, 8)}", style="dim")
            if article.link is None:
                label.append("  internal", style="dim italic")
            options.append(Option(label, id=str(index)))
        if self.reading:
            options.append(Option(Text("Reading more articles…", style="dim"), disabled=True))
        elif self.problem:
            options.append(Option(Text(one_line(self.problem, 100), style="dim"),
                                  disabled=True))
        if not options:
            message = ("No published article matches." if typed
                       else "The help centre has no published article.")
            options = [Option(Text(one_line(message, 100), style="dim"), disabled=True)]
        self.set_options(options)
        self._preview(self.current)

    @property
    def current(self) -> FoundArticle | None:
        """The highlighted article."""
        chosen = self.highlighted_id()
        if chosen is None or not chosen.isdigit() or int(chosen) >= len(self.shown):
            return None
        return self.shown[int(chosen)]

    def _preview(self, article: FoundArticle | None) -> None:
        preview = self.query_one("#finder-preview", Static)
        if article is None:
            preview.update("")
            return
        body = Text(one_line(article.title, 100) + "\n", style="bold")
        body.append(Text(article.text[:PREVIEW_CHARS]))
        if article.link:
            body.append("\n" + one_line(article.link, 100), style="dim")
        preview.update(body)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._preview(self.current)

    def action_move(self, step: int) -> None:
        super().action_move(step)
        self._preview(self.current)

    def choose(self) -> None:
        """``enter``: the link (or the text when there is no link)."""
        article = self.current
        if article is not None:
            self.dismiss(insertion(article, text=False))

    def action_insert_text(self) -> None:
        """Insert the article's title and text."""
        self.sync()
        article = self.current
        if article is not None:
            self.dismiss(insertion(article, text=True))

    def action_reload(self) -> None:
        """Read the help centre again (an article published since)."""
        self.articles = None
        self._filled = None
        self.sync()
        self._load(refresh=True)


def open_finder(composer: Composer, language: str | None) -> None:
    """Open the finder over ``composer``; what is chosen goes in at the editor's cursor."""
    editor = composer.editor

    def chosen(text: Any) -> None:
        if isinstance(text, str) and text:
            editor.insert_words(text)
        composer.focus_editor()

    composer.app.push_screen(ArticleFinder(language), chosen)
