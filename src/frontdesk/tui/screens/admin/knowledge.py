"""Admin → Knowledge: the help centre as a tree — collections, their categories (nested) and
articles. ``enter`` on an article opens it (translations, publishing, editing); on a
collection or category it reads it again and says what it holds; ``n`` writes a new article
in the highlighted collection or category (a draft, in one language)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult

from ....store.knowledge import KnowledgeStore, Node
from ....text import one_line
from ...answers import Regarding, Returned, answer_of
from ...widgets.safe import DataTable
from ..shared.common import cell, highlighted_key, move_to, session_of
from .article import ArticleScreen
from .article_editor import ArticleEditor
from .pane import AdminPane

_MARK = {"collection": "▣ ", "category": "▸ ", "article": "· "}


class KnowledgePane(AdminPane):
    """The knowledge section."""

    TITLE = "Knowledge"

    def __init__(self) -> None:
        super().__init__("knowledge")
        self.nodes: dict[str, Node] = {}
        self.order: list[Node] = []

    def compose(self) -> ComposeResult:
        yield self.caption()
        table: DataTable[Any] = DataTable(id="knowledge-table", cursor_type="row",
                                          classes="admin-main")
        table.add_column("Help centre", key="title")
        table.add_column("Kind", key="kind")
        yield table

    @property
    def store(self) -> KnowledgeStore:
        """The session's knowledge store."""
        return session_of(self).knowledge

    @property
    def table(self) -> DataTable[Any]:
        """The tree."""
        return self.query_one("#knowledge-table", DataTable)

    @property
    def current(self) -> Node | None:
        """The highlighted row."""
        key = highlighted_key(self.table)
        return self.nodes.get(key) if key else None

    def reload(self, select: str | None = None) -> None:
        """Read the help centre again."""
        self._load(select)

    class Loaded(Regarding[str | None, list[Node]]):
        """The help centre's tree was read (``about``: the node to highlight then)."""

    @work(exclusive=True, group="knowledge-load", exit_on_error=False)
    async def _load(self, select: str | None = None) -> None:
        self.post_message(self.Loaded(select, *await answer_of(self.store.tree())))

    def on_knowledge_pane_loaded(self, message: Loaded) -> None:
        """The tree, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        self.show(message.value, message.about)

    def show(self, tree: list[Node], select: str | None = None) -> None:
        """Fill the tree."""
        before = select or highlighted_key(self.table)
        self.order = tree
        self.nodes = {n.id: n for n in tree}
        table = self.table
        table.clear()
        for node in tree:
            label = Text("  " * node.depth + _MARK[node.kind])
            label.append(cell(node.title, 70, "bold" if node.kind == "collection" else ""))
            kind = node.kind + (" · internal" if node.internal and node.kind == "collection"
                                else "")
            table.add_row(label, Text(kind, style="dim"), key=node.id)
        move_to(table, before)
        articles = sum(1 for n in tree if n.kind == "article")
        collections = sum(1 for n in tree if n.kind == "collection")
        self.set_caption(f"{collections} collections, {articles} articles · enter opens · "
                         "n new article")

    # ------------------------------------------------------------------ actions

    def open(self) -> None:
        """Open the highlighted article, or read the collection or category again."""
        node = self.current
        if node is None:
            return
        if node.kind == "article":
            def closed(changed: bool | None) -> None:
                if changed:
                    self.reload()

            self.app.push_screen(ArticleScreen(node.id, self.order), closed)
        else:
            self._describe(node)

    class Described(Returned[str]):
        """A collection or category was read again: the caption that describes it."""

    @work(exclusive=True, group="knowledge-describe", exit_on_error=False)
    async def _describe(self, node: Node) -> None:

        async def describe() -> str:
            if node.kind == "collection":
                collection = await self.store.collection(node.id)
                kind = "internal knowledge (agents only)" if collection.internal_kb_enabled \
                    else "public help centre"
                return (f"{one_line(collection.title, 40)}: {kind} · "
                        f"{one_line(collection.description or '', 60)}")
            category, titles = await self.store.category(node.id)
            names = ", ".join(f"{one_line(t.language_id, 8)}: {one_line(t.title, 30)}"
                              for t in titles)
            locked = " · locked: takes no new articles" if category.is_locked else ""
            return f"Category in {len(titles)} languages ({names}){locked}"

        self.post_message(self.Described(*await answer_of(describe())))

    def on_knowledge_pane_described(self, message: Described) -> None:
        """On the caption: the description, or why it could not be read."""
        self.set_caption(message.refusal.reason if message.refusal is not None
                         else message.value)

    def new(self) -> None:
        """Write a new article in the highlighted collection or category."""
        node = self.current
        if node is None:
            self.notify("Choose a collection or category first.", markup=False)
            return
        parent = node.id if node.kind != "article" else node.parent
        where = self.nodes.get(parent)
        store = self.store
        created: list[str] = []

        async def save(language: str, title: str, body: str) -> None:
            article = await store.create_article(parent, language, title, body)
            created.append(article.id)

        def closed(saved: bool | None) -> None:
            if saved and created:
                self.notify("Created the article as a draft: open it to publish.",
                            markup=False)
                self.reload(select=created[0])

        heading = f"New article in {where.title if where else 'the help centre'}"
        self.app.push_screen(ArticleEditor(heading, save, language="en"), closed)
