"""Knowledge: the help centre as the console uses it — the tree of collections, categories and
articles for Admin, an article's translations to edit, publish and unpublish, and the
published articles an agent finds from the composer.

The convention is :mod:`.people`'s: typed records back, and a refusal (the service's, or the
console's before sending) raises :class:`~.people.Refused` with the sentence a person reads.
No Textual here.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..api.errors import NotFound
from ..api.models import (
    Article,
    ArticleTranslations,
    AttachmentsUpload,
    Catalog,
    Category,
    CategoryCatalogItem,
    Collection,
    TranslationTitle,
)
from ..api.models.common import is_uuid
from .errors import Refused, refusals

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .hub import Hub

__all__ = ["IMAGE_TYPES", "FoundArticle", "KnowledgeStore", "Node", "from_html",
           "matches", "to_html"]

_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
_PARAGRAPHS = re.compile(r"\n\s*\n")
_IMAGE_LINE = re.compile(r"^!\[([^\]\n]*)\]\((https?://[^\s)]+)\)$")
_IMG_TAG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_ATTR = re.compile(r'\b(src|alt)\s*=\s*"([^"]*)"', re.IGNORECASE)
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_PARA_END = re.compile(r"</(p|div|h[1-6]|li)\s*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
#: Image files an article takes, by file suffix.
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
               ".gif": "image/gif", ".webp": "image/webp"}
MAX_IMAGE_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Node:
    """One row of the help centre's tree: a collection, a category or an article, at a
    depth; ``collection`` is the collection it is in."""

    kind: str  # "collection", "category" or "article"
    id: str
    title: str
    depth: int
    collection: str
    internal: bool = False
    #: the category or collection it is in (a collection: itself)
    parent: str = ""


@dataclass(frozen=True)
class FoundArticle:
    """A published article as the finder offers it: in one language, with its text and its
    help-centre link (``None`` for internal knowledge, which has none)."""

    id: str
    language: str
    title: str
    text: str
    link: str | None


def to_html(text: str) -> str:
    """Plain text as an article's HTML: each paragraph (blank-line separated) a ``<p>``,
    line breaks kept, everything escaped; a paragraph that is only ``![alt](https://…)`` is
    an image."""
    parts = [p.strip() for p in _PARAGRAPHS.split(text.replace("\r\n", "\n")) if p.strip()]
    out = []
    for part in parts:
        image = _IMAGE_LINE.match(part)
        if image:
            out.append(f'<p><img src="{html.escape(image[2])}" alt="{html.escape(image[1])}">'
                       "</p>")
        else:
            out.append("<p>" + html.escape(part).replace("\n", "<br>") + "</p>")
    return "".join(out)


def from_html(markup: str) -> str:
    """An article's HTML as the text :func:`to_html` reads: paragraphs, line breaks and
    images kept, other formatting dropped."""

    def image(tag: re.Match[str]) -> str:
        attributes = {k.lower(): html.unescape(v) for k, v in _ATTR.findall(tag[0])}
        src = attributes.get("src", "")
        if not src.startswith(("http://", "https://")):
            return ""
        alt = attributes.get("alt", "").replace("]", "").replace("\n", " ")
        return f"\n\n![{alt}]({src})\n\n"

    text = _IMG_TAG.sub(image, markup)
    text = _PARA_END.sub("\n\n", _BREAK.sub("\n", text))
    text = html.unescape(_TAG.sub("", text))
    parts = [p.strip() for p in _PARAGRAPHS.split(text) if p.strip()]
    return "\n\n".join(parts)


def matches(articles: list[FoundArticle], query: str) -> list[FoundArticle]:
    """The articles with every word of ``query`` in the title or text (any case); those
    with a word in the title first."""
    words = query.casefold().split()
    if not words:
        return list(articles)
    hits = [a for a in articles
            if all(w in f"{a.title}\n{a.text}".casefold() for w in words)]
    return sorted(hits, key=lambda a: not any(w in a.title.casefold() for w in words))


def read_image(path: str) -> tuple[str, str, bytes]:
    """A local image to upload: (file name, media type, bytes); a refusal for another kind
    of file, one over 4 MB or one that cannot be read."""
    file = Path(path.strip()).expanduser()
    kind = IMAGE_TYPES.get(file.suffix.lower())
    if kind is None:
        raise Refused("An article takes PNG, JPEG, GIF or WebP images")
    try:
        if file.stat().st_size > MAX_IMAGE_BYTES:
            raise Refused("The image is over 4 MB")
        return file.name, kind, file.read_bytes()
    except OSError as error:
        raise Refused(f"Cannot read {file.name}: {error.strerror or error}") from error


def check_language(value: str) -> str:
    """A language id as typed (``en``, ``da``, ``pt-BR``), or a refusal."""
    text = value.strip()
    if not _LANGUAGE.match(text) or len(text) > 35:
        raise Refused("A language is a code such as en, da or pt-BR")
    return text


class KnowledgeStore:
    """The help centre for the console's screens."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        #: published articles per language asked for (the finder's index, kept for the session)
        self._found: dict[str, list[FoundArticle]] = {}

    @property
    def client(self) -> ApiClient:
        """The session's client."""
        return self._hub.client

    # ------------------------------------------------------------------ browsing

    async def collections(self) -> list[Collection]:
        """Every collection, in the help centre's order."""
        with refusals("Could not list the help centre's collections"):
            return [c async for c in self.client.knowledge.list_collections()]

    async def catalog(self, collection_id: str, language: str | None = None) -> Catalog:
        """A collection's categories and articles."""
        with refusals("Could not read the collection"):
            return await self.client.knowledge.catalog(collection_id, language)

    async def tree(self) -> list[Node]:
        """Every collection, category and article, in order, as rows with depths."""
        rows: list[Node] = []
        for collection in await self.collections():
            rows.append(Node("collection", collection.id, collection.title, 0, collection.id,
                             collection.internal_kb_enabled, collection.id))
            catalog = await self.catalog(collection.id)

            def add(item: CategoryCatalogItem, depth: int, parent: str,
                    cid: str = collection.id,
                    internal: bool = collection.internal_kb_enabled) -> None:
                title = item.title.title if item.title is not None else "(untitled)"
                rows.append(Node("category", item.id, title, depth, cid, internal, parent))
                for inner in item.categories or []:
                    add(inner, depth + 1, item.id)
                for article in item.articles or []:
                    rows.append(Node("article", article.id, article.title.title
                                     if article.title else "(untitled)", depth + 1, cid,
                                     internal, item.id))

            for category in catalog.categories or []:
                add(category, 1, collection.id)
            for article in catalog.articles or []:
                rows.append(Node("article", article.id, article.title.title if article.title
                                 else "(untitled)", 1, collection.id,
                                 collection.internal_kb_enabled, collection.id))
        return rows

    async def collection(self, collection_id: str) -> Collection:
        """One collection, read again."""
        with refusals("Could not read the collection"):
            return await self.client.knowledge.get_collection(collection_id)

    async def category(self, category_id: str) -> tuple[Category, list[TranslationTitle]]:
        """One category, and its title in every language."""
        with refusals("Could not read the category"):
            category = await self.client.knowledge.get_category(category_id)
            titles = await self.client.knowledge.category_translations(category_id)
        return category, titles

    async def article(self, article_id: str, language: str | None = None) -> Article:
        """One article (in ``language`` when given)."""
        with refusals("Could not read the article"):
            return await self.client.knowledge.get_article(article_id, language)

    async def translations(self, article_id: str) -> ArticleTranslations:
        """Every draft and published version of an article's translations."""
        with refusals("Could not read the article's translations"):
            return await self.client.knowledge.article_translations(article_id)

    # ------------------------------------------------------------------ editing

    async def create_article(self, parent_id: str | None, language: str, title: str,
                             body: str) -> Article:
        """A new article (a draft) under a category or collection, with one translation;
        ``body`` is plain text (paragraphs become HTML paragraphs)."""
        language = check_language(language)
        if not title.strip():
            raise Refused("An article needs a title")
        if parent_id is not None and not is_uuid(parent_id):
            raise Refused("Choose a collection or a category to put the article in")
        with refusals("Could not create the article"):
            return await self.client.knowledge.create_article(
                [{"languageId": language, "title": title.strip(), "content": to_html(body)}],
                parent_id=parent_id)

    async def save_translation(self, article_id: str, language: str, title: str,
                               body: str) -> None:
        """Write one translation's draft (new or changed); ``body`` is plain text."""
        language = check_language(language)
        if not title.strip():
            raise Refused("A translation needs a title")
        with refusals("Could not save the translation"):
            result = await self.client.knowledge.update_translations(article_id, [
                {"languageId": language, "title": title.strip(), "content": to_html(body)}])
        for error in result.partial_errors or []:
            raise Refused(f"Could not save the {language} translation: {error.message}")
        if not result.data:
            raise Refused(f"The service did not save the {language} translation")

    async def set_published(self, article_id: str, language: str, published: bool) -> None:
        """Publish one translation's draft, or take it out of search."""
        with refusals("Could not publish the translation" if published
                      else "Could not unpublish the translation"):
            if published:
                await self.client.knowledge.publish_translation(article_id, language)
            else:
                await self.client.knowledge.unpublish_translation(article_id, language)
        self._found.clear()

    async def set_article_published(self, article_id: str, published: bool) -> None:
        """Publish every translation's draft, or take every one out of search."""
        with refusals("Could not publish the article" if published
                      else "Could not unpublish the article"):
            if published:
                await self.client.knowledge.publish_article(article_id)
            else:
                await self.client.knowledge.unpublish_article(article_id)
        self._found.clear()

    async def delete_translation(self, article_id: str, language: str) -> None:
        """Delete every version of one translation (not the article's last)."""
        with refusals("Could not delete the translation"):
            await self.client.knowledge.delete_translation(article_id, language)
        self._found.clear()

    async def delete_article(self, article_id: str) -> None:
        """Delete an article and its translations, for good."""
        with refusals("Could not delete the article"):
            await self.client.knowledge.delete_article(article_id)
        self._found.clear()

    async def move_article(self, article_id: str, parent_id: str | None) -> None:
        """Move an article under a category or collection (``None``: out of every one)."""
        with refusals("Could not move the article"):
            if parent_id is None:
                await self.client.knowledge.remove_parent(article_id)
            else:
                await self.client.knowledge.move_article(article_id, parent_id)
        self._found.clear()

    async def take_ownership(self, article_id: str) -> Article:
        """Make me the article's owner."""
        me = self._hub.me_id
        if not is_uuid(me):
            raise Refused("Who you are is not known yet; try again in a moment")
        with refusals("Could not change the article's owner"):
            return await self.client.knowledge.update_article(article_id, owned_by=me)

    async def upload_image(self, path: str) -> str:
        """Upload a local image (PNG, JPEG, GIF or WebP, at most 4 MB); the text that puts it
        in an article's body (``![name](url)``)."""
        name, kind, data = await asyncio.to_thread(read_image, path)
        with refusals("Could not upload the image"):
            result: AttachmentsUpload = await self.client.knowledge.upload_attachments(
                [(name, kind, data)])
        for problem in result.partial_errors or []:
            raise Refused(f"The service did not take {name}: {problem.message}")
        if not result.data:
            raise Refused(f"The service did not take {name}")
        alt = name.rsplit(".", 1)[0].replace("]", "")
        return f"![{alt}]({result.data[0].url})"

    # ------------------------------------------------------------------ finding

    async def published(self, language: str | None = None, *, refresh: bool = False
                        ) -> list[FoundArticle]:
        """Every published article, in ``language`` where it is published in it (else in
        the default language). Read once per language and session; ``refresh`` reads again."""
        found: list[FoundArticle] = []
        async for so_far in self.reading_published(language, refresh=refresh):
            found = so_far
        return found

    async def reading_published(self, language: str | None = None, *, refresh: bool = False
                                ) -> AsyncIterator[list[FoundArticle]]:
        """:meth:`published` as it is read: the articles found so far, each time one more
        arrives (the finder lists them while the rest are read), then all of them (the list
        kept for the session)."""
        key = language or ""
        if not refresh and key in self._found:
            yield self._found[key]
            return
        found: list[FoundArticle] = []
        for node in await self.tree():
            if node.kind != "article":
                continue
            chosen = await self._published_in(node.id, language)
            if chosen is not None:
                found.append(chosen)
                yield list(found)
        self._found[key] = found
        yield found

    async def _published_in(self, article_id: str, language: str | None
                            ) -> FoundArticle | None:
        article: Article | None = None
        if language:
            try:
                with refusals("Could not read the help centre"):
                    article = await self.client.knowledge.get_article(article_id, language)
            except Refused as refusal:
                if not isinstance(refusal.error, NotFound):
                    raise
                article = None  # not in that language: the default language instead
            if article is not None and (article.translation is None
                                        or article.translation.published is None):
                article = None
        if article is None:
            with refusals("Could not read the help centre"):
                article = await self.client.knowledge.get_article(article_id)
        versions = article.translation
        if versions is None or versions.published is None:
            return None
        published = versions.published
        links = published.available_at.help_center_links or []
        return FoundArticle(article.id, published.language, published.title,
                            published.contents.plaintext, links[0].url if links else None)

