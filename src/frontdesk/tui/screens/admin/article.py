"""Admin → Knowledge → an article: its translations (per language: published, a draft only,
or edited since publishing), the highlighted one's text, and what can be done with them.

``e`` edits the highlighted translation, ``a`` adds one (both as drafts), ``p`` publishes it,
``u`` unpublishes it (asks), ``d`` deletes it (asks); ``P``/``U`` publish or unpublish every
translation (``U`` asks), ``m`` moves the article, ``o`` makes me its owner, ``D`` deletes
the article (asks); ``esc`` closes. The editor is :mod:`.article_editor`, the place to move
to is picked in :mod:`.parent_picker`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....api.models import Article, ArticleTranslation, ArticleTranslations
from ....store.knowledge import KnowledgeStore, Node, from_html
from ....text import one_line, safe
from ...answers import Answered, Regarding, Returned, answer_of, refusal_of
from ...offered import offered
from ...registry import owns_bindings
from ...widgets.safe import DataTable, Label, Static
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import cell, highlighted_key, move_to, session_of
from ..shared.confirm import ConfirmScreen
from .article_editor import ArticleEditor
from .parent_picker import ParentPicker

__all__ = ["ArticleScreen", "state_of"]


def state_of(draft: ArticleTranslation, published: ArticleTranslation | None) -> str:
    """How a translation stands: published, a draft only, or edited since publishing."""
    if published is None:
        return "draft only"
    return "published" if draft.is_indexed_version else "edited since publishing"


@owns_bindings
class ArticleScreen(ModalScreen[bool], ReportsFailedWorkers):
    """One article's translations and the actions on them; closes with whether anything
    changed (the list behind reads again)."""

    HELP_NAME = "Article"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="knowledge_article.close"),
        Binding("e", "edit", "Edit", id="knowledge_article.edit"),
        Binding("a", "add", "Add translation", id="knowledge_article.add"),
        Binding("p", "publish", "Publish", id="knowledge_article.publish"),
        Binding("u", "unpublish", "Unpublish", id="knowledge_article.unpublish"),
        Binding("d", "delete_translation", "Delete translation",
                id="knowledge_article.delete_translation"),
        Binding("P", "publish_all", "Publish all", id="knowledge_article.publish_all"),
        Binding("U", "unpublish_all", "Unpublish all", id="knowledge_article.unpublish_all"),
        Binding("m", "move", "Move", id="knowledge_article.move"),
        Binding("o", "own", "Make me owner", id="knowledge_article.own"),
        Binding("D", "delete_article", "Delete article", id="knowledge_article.delete"),
    ]
    #: through a team gateway, every change is an admin's: not offered to others
    NEEDS: ClassVar[dict[str, str]] = {
        "edit": "knowledge.update_translations",
        "add": "knowledge.update_translations",
        "publish": "knowledge.publish_translation",
        "unpublish": "knowledge.unpublish_translation",
        "delete_translation": "knowledge.delete_translation",
        "publish_all": "knowledge.publish_article",
        "unpublish_all": "knowledge.unpublish_article",
        "move": "knowledge.move_article",
        "own": "knowledge.update_article",
        "delete_article": "knowledge.delete_article",
    }
    DEFAULT_CSS = """
    ArticleScreen { align: center middle; }
    ArticleScreen > Vertical { width: 95%; max-width: 130; height: 95%; border: thick $accent;
        background: $surface; padding: 0 1; }
    ArticleScreen #article-table { height: auto; max-height: 10; }
    ArticleScreen #article-text { height: 1fr; border-top: solid $panel; overflow-y: auto; }
    ArticleScreen .hint { color: $text-muted; }
    """

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A change the member's role may not make is not offered (nor its key)."""
        return offered(self, self.NEEDS, action)

    def __init__(self, article_id: str, places: list[Node]) -> None:
        super().__init__(id="knowledge-article")
        self.article_id = article_id
        self.places = places
        self.article: Article | None = None
        self.drafts: dict[str, ArticleTranslation] = {}
        self.published: dict[str, ArticleTranslation] = {}
        self.changed = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Reading the article…", id="article-caption")
            table: DataTable[Any] = DataTable(id="article-table", cursor_type="row")
            table.add_column("Language", key="language")
            table.add_column("Title", key="title")
            table.add_column("State", key="state")
            yield table
            yield Static("", id="article-text")
            yield Static("e edit · a add translation · p publish · u unpublish · d delete "
                         "translation · P/U all · m move · o own · D delete · esc close",
                         classes="hint")

    @property
    def store(self) -> KnowledgeStore:
        """The session's knowledge store."""
        return session_of(self).knowledge

    @property
    def table(self) -> DataTable[Any]:
        """The translations."""
        return self.query_one("#article-table", DataTable)

    @property
    def language(self) -> str | None:
        """The highlighted translation's language."""
        return highlighted_key(self.table)

    def on_mount(self) -> None:
        self.table.focus()
        self.reload()

    class Read(Returned[tuple[Article, ArticleTranslations]]):
        """The article and its translations were read."""

    @work(exclusive=True, group="knowledge-article", exit_on_error=False)
    async def reload(self) -> None:
        """Read the article and its translations again."""

        async def read() -> tuple[Article, ArticleTranslations]:
            article = await self.store.article(self.article_id)
            return article, await self.store.translations(self.article_id)

        self.post_message(self.Read(*await answer_of(read())))

    def on_article_screen_read(self, message: Read) -> None:
        """The translations listed, or why they could not be read on the caption."""
        if message.refusal is not None:
            self.query_one("#article-caption", Label).update(safe(message.refusal.reason))
            return
        article, versions = message.value
        self.article = article
        self.drafts = {t.language: t for t in versions.translations.draft or []}
        self.published = {t.language: t for t in versions.translations.published or []}
        self._show()

    def _show(self) -> None:
        before = self.language
        table = self.table
        table.clear()
        for language, draft in sorted(self.drafts.items()):
            state = state_of(draft, self.published.get(language))
            style = "green" if state == "published" else "yellow"
            table.add_row(cell(language, 10), cell(draft.title, 60), Text(state, style=style),
                          key=language)
        move_to(table, before)
        article = self.article
        where = next((p.title for p in self.places if article is not None and p.id in (
            article.parent_category, *(article.parent_collections or []))
            and p.kind == "category"), None) or next(
            (p.title for p in self.places if article is not None
             and p.id in (article.parent_collections or [])), "no collection")
        owner = self._owner_name(article.owned_by if article else None)
        self.query_one("#article-caption", Label).update(safe(
            f"In {one_line(where, 40)} · owner {owner} · {len(self.drafts)} translations, "
            f"{len(self.published)} published"))
        self._show_text()

    def _owner_name(self, agent_id: str | None) -> str:
        if not agent_id:
            return "nobody"
        session = session_of(self)
        if agent_id == session.me_id:
            return "me"
        return one_line(session.directory.name(agent_id), 30)

    def _show_text(self) -> None:
        text = self.query_one("#article-text", Static)
        language = self.language
        draft = self.drafts.get(language or "")
        if draft is None:
            text.update("")
            return
        body = Text(one_line(draft.title, 100) + "\n\n", style="bold")
        body.append(Text(draft.contents.plaintext))
        published = self.published.get(language or "")
        links = published.available_at.help_center_links or [] if published else []
        if links:
            body.append("\n\n" + one_line(links[0].url, 120), style="dim")
        text.update(body)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_text()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """``enter`` edits the translation."""
        event.stop()
        self.action_edit()

    # ------------------------------------------------------------------ actions

    def _act(self, done: str, action: Callable[[], Awaitable[Any]]) -> None:
        """Run ``action``; say ``done`` when the service did it, or why not."""
        self._run(done, action)

    class Acted(Regarding[str, None]):
        """Something was done to the article (``about`` says what), or refused."""

    @work(group="knowledge-article-act", exit_on_error=False)
    async def _run(self, done: str, action: Callable[[], Awaitable[Any]]) -> None:
        self.post_message(self.Acted(done, refusal=await refusal_of(action())))

    def on_article_screen_acted(self, message: Acted) -> None:
        """Said in a toast; the article is read again."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        self.changed = True
        self.notify(message.about, markup=False)
        self.reload()

    def _ask(self, question: str, detail: str, then: Callable[[], None]) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(question, detail), answered)

    def action_edit(self) -> None:
        """Edit the highlighted translation's draft."""
        language = self.language
        draft = self.drafts.get(language or "")
        if language is None or draft is None:
            return
        self._edit(f"Edit the {language} translation", language, draft.title,
                   from_html(draft.contents.html), fixed=True)

    def action_add(self) -> None:
        """Add a translation in another language."""
        self._edit("Add a translation", "", "", "", fixed=False)

    def _edit(self, heading: str, language: str, title: str, body: str, *,
              fixed: bool) -> None:
        store, article_id = self.store, self.article_id

        async def save(lang: str, new_title: str, new_body: str) -> None:
            await store.save_translation(article_id, lang, new_title, new_body)

        def closed(saved: bool | None) -> None:
            if saved:
                self.changed = True
                self.notify("Saved the draft.", markup=False)
                self.reload()

        self.app.push_screen(ArticleEditor(heading, save, language=language, title=title,
                                           body=body, language_fixed=fixed), closed)

    def action_publish(self) -> None:
        """Publish the highlighted translation's draft."""
        language = self.language
        if language is not None:
            self._act(f"Published the {language} translation.",
                      lambda: self.store.set_published(self.article_id, language, True))

    def action_unpublish(self) -> None:
        """Take the highlighted translation out of search (asks)."""
        language = self.language
        if language is None or language not in self.published:
            return
        self._ask(f"Unpublish the {language} translation?",
                  "It leaves search and the help centre; its draft stays.",
                  lambda: self._act(f"Unpublished the {language} translation.",
                                    lambda: self.store.set_published(self.article_id,
                                                                     language, False)))

    def action_delete_translation(self) -> None:
        """Delete the highlighted translation, every version of it (asks)."""
        language = self.language
        if language is None:
            return
        self._ask(f"Delete the {language} translation?",
                  "Its draft and published version are deleted for good.",
                  lambda: self._act(f"Deleted the {language} translation.",
                                    lambda: self.store.delete_translation(self.article_id,
                                                                          language)))

    def action_publish_all(self) -> None:
        """Publish every translation's draft."""
        self._act("Published every translation.",
                  lambda: self.store.set_article_published(self.article_id, True))

    def action_unpublish_all(self) -> None:
        """Take every translation out of search (asks)."""
        self._ask("Unpublish every translation?",
                  "The article leaves search and the help centre; the drafts stay.",
                  lambda: self._act("Unpublished every translation.",
                                    lambda: self.store.set_article_published(self.article_id,
                                                                             False)))

    def action_own(self) -> None:
        """Make me the article's owner."""
        self._act("You own the article now.", lambda: self.store.take_ownership(self.article_id))

    def action_move(self) -> None:
        """Move the article to a collection or category."""
        places = [p for p in self.places if p.kind != "article"]

        def chosen(target: Any) -> None:
            if isinstance(target, str) and target:
                parent = None if target == ParentPicker.NOWHERE else target
                self._act("Moved the article.",
                          lambda: self.store.move_article(self.article_id, parent))

        self.app.push_screen(ParentPicker(places), chosen)

    def action_delete_article(self) -> None:
        """Delete the article and all its translations (asks)."""
        title = one_line(next(iter(self.drafts.values())).title, 40) if self.drafts else ""
        self._ask(f"Delete the article {title}?",
                  "Every translation, draft and published, is deleted for good.",
                  self._delete_article)

    def _delete_article(self) -> None:
        self._delete()

    class Deleted(Answered):
        """The article was deleted (or refused)."""

    @work(group="knowledge-article-act", exit_on_error=False)
    async def _delete(self) -> None:
        self.post_message(self.Deleted(
            await refusal_of(self.store.delete_article(self.article_id))))

    def on_article_screen_deleted(self, message: Deleted) -> None:
        """Deleted: said, and the screen closes; refused: why, in a toast."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        self.notify("Deleted the article.", markup=False)
        self.dismiss(True)

    def action_close(self) -> None:
        """Close; the list behind reads again when something changed."""
        self.dismiss(self.changed)
