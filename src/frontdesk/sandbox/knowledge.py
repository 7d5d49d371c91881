"""The help centre's rules and shapes: lookups that refuse what does not exist, the language
an answer is given in, the draft/published versions of a translation, and the records the
knowledge routes answer with.

An article has, per language, a draft (always) and a published version (once published);
publishing copies the draft over the published version, so the draft is the "indexed
version" exactly while the two agree. Published translations of articles outside internal
collections are read on the demo help centre; that page is their ``helpCenterLinks`` entry.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ..api.models.knowledge import LANGUAGE_PATTERN
from .context import SandboxContext
from .db import loads
from .errors import bad_request, not_found
from .shapes import zoned

#: The language an answer is given in when none is asked for (and the article has it).
DEFAULT_LANGUAGE = "en"

HELP_CENTER_ID = "5e1f0c4a-7b9d-4c1e-8a2f-3d6b9e0c4a71"
HELP_CENTER_NAME = "Acme Help Center"
HELP_CENTER_URL = "https://help.acme-demo.example"

_LANGUAGE = re.compile(LANGUAGE_PATTERN)
_BREAK = re.compile(r"<\s*(br|/p|/li|/h[1-6]|/div)\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_SPACES = re.compile(r"[ \t]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def plaintext(markup: str) -> str:
    """The text of an article's HTML: tags dropped, entities read, paragraphs kept apart."""
    text = _TAG.sub("", _BREAK.sub("\n", markup))
    text = _SPACES.sub(" ", html.unescape(text))
    lines = "\n".join(line.strip() for line in text.splitlines())
    return _BLANK_LINES.sub("\n\n", lines).strip()


def check_language(value: str | None) -> str | None:
    """A language id as given (``None`` stays ``None``); 400 for one that is not one."""
    if value is None:
        return None
    if not _LANGUAGE.match(value) or len(value) > 35:
        raise bad_request(f"Invalid value in request: {value[:40]!r} is not a language id")
    return value


# ---------------------------------------------------------------- lookups


def get_collection(ctx: SandboxContext, collection_id: str) -> Any:
    """The collection's row, or a 404."""
    row = ctx.db.one("SELECT * FROM knowledge_collections WHERE id = ?", (collection_id.lower(),))
    if row is None:
        raise not_found(f"Collection {collection_id}")
    return row


def get_category(ctx: SandboxContext, category_id: str) -> Any:
    """The category's row, or a 404."""
    row = ctx.db.one("SELECT * FROM knowledge_categories WHERE id = ?", (category_id.lower(),))
    if row is None:
        raise not_found(f"Category {category_id}")
    return row


def get_article(ctx: SandboxContext, article_id: str) -> Any:
    """The article's row, or a 404."""
    row = ctx.db.one("SELECT * FROM knowledge_articles WHERE id = ?", (article_id.lower(),))
    if row is None:
        raise not_found(f"Article {article_id}")
    return row


def versions(ctx: SandboxContext, article_id: str, language: str | None = None) -> list[Any]:
    """The article's translation rows (one language's, or all), by language then version."""
    if language is None:
        return ctx.db.all("SELECT * FROM knowledge_translations WHERE article_id = ? "
                          "ORDER BY language, version", (article_id,))
    return ctx.db.all("SELECT * FROM knowledge_translations WHERE article_id = ? "
                      "AND language = ? ORDER BY version", (article_id, language))


def require_translation(ctx: SandboxContext, article: Any, language: str) -> list[Any]:
    """The versions of the article's translation in ``language``, or a 404."""
    rows = versions(ctx, article["id"], language)
    if not rows:
        raise not_found(f"The {language!r} translation of article {article['id']}")
    return rows


def is_internal(ctx: SandboxContext, collection_id: str | None) -> bool:
    """Whether the collection is an internal knowledge base (restricted, no help centre)."""
    if collection_id is None:
        return False
    row = ctx.db.one("SELECT internal FROM knowledge_collections WHERE id = ?", (collection_id,))
    return bool(row and row["internal"])


def pick_title(titles: dict[str, str], language: str | None) -> dict[str, str] | None:
    """The title in ``language``, else in the default language, else the first there is."""
    for choice in (language, DEFAULT_LANGUAGE):
        if choice is not None and choice in titles:
            return {"languageId": choice, "title": titles[choice]}
    for code in sorted(titles):
        return {"languageId": code, "title": titles[code]}
    return None


# ---------------------------------------------------------------- shapes


def restrictions(internal: bool, collection_id: str | None) -> dict[str, Any]:
    """An item's restrictions: those of an internal collection are inherited from it."""
    if not internal or collection_id is None:
        return {"isRestricted": False}
    return {"isRestricted": True, "inheritedRestrictions": [{"fromCollection": collection_id}]}


def collection_shape(row: Any) -> dict[str, Any]:
    """A collection."""
    out: dict[str, Any] = {"id": row["id"], "title": row["title"],
                           "internalKbEnabled": bool(row["internal"]),
                           "restrictions": {"isRestricted": bool(row["internal"])}}
    if row["description"] is not None:
        out["description"] = row["description"]
    return out


def category_shape(ctx: SandboxContext, row: Any, language: str | None) -> dict[str, Any]:
    """A category, titled in ``language`` where it can be."""
    out: dict[str, Any] = {
        "id": row["id"], "isLocked": bool(row["is_locked"]), "isDefaultLocation": False,
        "restrictions": restrictions(is_internal(ctx, row["collection_id"]), row["collection_id"]),
        "parentCollections": [row["collection_id"]],
    }
    title = pick_title(loads(row["titles"]) or {}, language)
    if title is not None:
        out["title"] = title
    if row["parent_id"] is not None:
        out["parentCategory"] = row["parent_id"]
    return out


def version_shape(row: Any, *, indexed: bool, linked: bool) -> dict[str, Any]:
    """One version of a translation (``linked``: read on the help centre)."""
    links = [{"id": HELP_CENTER_ID, "name": HELP_CENTER_NAME,
              "url": f"{HELP_CENTER_URL}/{row['language']}/articles/{row['article_id']}"}]
    return {
        "language": row["language"], "title": row["title"], "isIndexedVersion": indexed,
        "contents": {"html": row["html"], "plaintext": row["plaintext"]},
        "availableAt": {"helpCenterLinks": links if linked else []},
        "createdAt": zoned(row["created_at"]), "updatedAt": zoned(row["updated_at"]),
        "createdBy": row["created_by"], "updatedBy": row["updated_by"],
    }


def translation_shapes(rows: list[Any], internal: bool) -> dict[str, dict[str, Any]]:
    """Per language: ``{"draft": …, "published": …}`` (published only once published)."""
    by_language: dict[str, dict[str, Any]] = {}
    for row in rows:
        by_language.setdefault(row["language"], {})[row["version"]] = row
    out: dict[str, dict[str, Any]] = {}
    for language, pair in by_language.items():
        draft, published = pair.get("draft"), pair.get("published")
        if draft is None:
            continue
        same = published is not None and (published["title"], published["html"]) == (
            draft["title"], draft["html"])
        shaped: dict[str, Any] = {"draft": version_shape(draft, indexed=same, linked=False)}
        if published is not None:
            shaped["published"] = version_shape(published, indexed=True, linked=not internal)
        out[language] = shaped
    return out


def article_shape(ctx: SandboxContext, row: Any, language: str | None = None) -> dict[str, Any]:
    """An article, its translation in ``language`` (else the default language, else the
    first); a language the article does not have is a 404."""
    internal = is_internal(ctx, row["collection_id"])
    shaped = translation_shapes(versions(ctx, row["id"]), internal)
    if language is not None and language not in shaped:
        raise not_found(f"The {language!r} translation of article {row['id']}")
    out: dict[str, Any] = {
        "id": row["id"], "isDefaultLocation": row["collection_id"] is not None,
        "tags": loads(row["tags"]) or [],
        "createdAt": zoned(row["created_at"]), "updatedAt": zoned(row["updated_at"]),
        "createdBy": row["created_by"], "updatedBy": row["updated_by"],
        "ownedBy": row["owned_by"],
        "restrictions": restrictions(internal, row["collection_id"]),
        "parentCollections": [row["collection_id"]] if row["collection_id"] else [],
    }
    chosen = language if language is not None else (
        DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in shaped else next(iter(sorted(shaped)), None))
    if chosen is not None:
        out["translation"] = shaped[chosen]
    if row["category_id"] is not None:
        out["parentCategory"] = row["category_id"]
    if row["indexed_at"] is not None:
        out["indexedAt"] = zoned(row["indexed_at"])
        out["indexedBy"] = row["indexed_by"]
    return out


def catalog(ctx: SandboxContext, collection_id: str, language: str | None) -> dict[str, Any]:
    """The collection's categories (nested) and the articles at its top, titled in
    ``language`` where they can be (an article by its draft: the catalog is the editor's)."""
    categories = ctx.db.all("SELECT * FROM knowledge_categories WHERE collection_id = ? "
                            "ORDER BY position, id", (collection_id,))
    articles = ctx.db.all("SELECT id, category_id FROM knowledge_articles "
                          "WHERE collection_id = ? ORDER BY created_at, id", (collection_id,))
    titles: dict[str, dict[str, str]] = {}
    for t in ctx.db.all(
            "SELECT t.article_id, t.language, t.title FROM knowledge_translations t "
            "JOIN knowledge_articles a ON a.id = t.article_id "
            "WHERE a.collection_id = ? AND t.version = 'draft'", (collection_id,)):
        titles.setdefault(t["article_id"], {})[t["language"]] = t["title"]

    def article_item(article_id: str) -> dict[str, Any]:
        item: dict[str, Any] = {"id": article_id}
        title = pick_title(titles.get(article_id, {}), language)
        if title is not None:
            item["title"] = title
        return item

    def category_item(row: Any) -> dict[str, Any]:
        item: dict[str, Any] = {"id": row["id"]}
        title = pick_title(loads(row["titles"]) or {}, language)
        if title is not None:
            item["title"] = title
        item["categories"] = [category_item(c) for c in categories
                              if c["parent_id"] == row["id"]]
        item["articles"] = [article_item(a["id"]) for a in articles
                            if a["category_id"] == row["id"]]
        return item

    return {"categories": [category_item(c) for c in categories if c["parent_id"] is None],
            "articles": [article_item(a["id"]) for a in articles if a["category_id"] is None]}


# ---------------------------------------------------------------- changes


def touch(ctx: SandboxContext, article_id: str) -> None:
    """Mark the article changed now, by the API's user."""
    ctx.db.run("UPDATE knowledge_articles SET updated_at = ?, updated_by = ? WHERE id = ?",
               (ctx.now_iso(), ctx.api_user_id, article_id))


def write_draft(ctx: SandboxContext, article_id: str, language: str, title: str,
                content: str) -> Any:
    """Create or replace the draft of one translation; returns its row."""
    now, who = ctx.now_iso(), ctx.api_user_id
    ctx.db.run(
        "INSERT INTO knowledge_translations (article_id, language, version, title, html, "
        "plaintext, created_at, updated_at, created_by, updated_by) "
        "VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (article_id, language, version) DO UPDATE SET title = excluded.title, "
        "html = excluded.html, plaintext = excluded.plaintext, "
        "updated_at = excluded.updated_at, updated_by = excluded.updated_by",
        (article_id, language, title, content, plaintext(content), now, now, who, who),
    )
    return ctx.db.one("SELECT * FROM knowledge_translations WHERE article_id = ? AND "
                      "language = ? AND version = 'draft'", (article_id, language))


def publish(ctx: SandboxContext, article_id: str, language: str | None = None) -> None:
    """Copy the draft of one translation (or of every one) over its published version."""
    now, who = ctx.now_iso(), ctx.api_user_id
    where, params = "article_id = ? AND version = 'draft'", [article_id]
    if language is not None:
        where += " AND language = ?"
        params.append(language)
    for draft in ctx.db.all(f"SELECT * FROM knowledge_translations WHERE {where}",
                            tuple(params)):
        ctx.db.run(
            "INSERT INTO knowledge_translations (article_id, language, version, title, html, "
            "plaintext, created_at, updated_at, created_by, updated_by) "
            "VALUES (?, ?, 'published', ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (article_id, language, version) DO UPDATE SET title = excluded.title, "
            "html = excluded.html, plaintext = excluded.plaintext, "
            "updated_at = excluded.updated_at, updated_by = excluded.updated_by",
            (article_id, draft["language"], draft["title"], draft["html"], draft["plaintext"],
             now, now, who, who),
        )
    ctx.db.run("UPDATE knowledge_articles SET indexed_at = ?, indexed_by = ? WHERE id = ?",
               (now, who, article_id))


def unpublish(ctx: SandboxContext, article_id: str, language: str | None = None) -> None:
    """Take one translation's published version (or every one) out of search."""
    if language is None:
        ctx.db.run("DELETE FROM knowledge_translations WHERE article_id = ? AND "
                   "version = 'published'", (article_id,))
    else:
        ctx.db.run("DELETE FROM knowledge_translations WHERE article_id = ? AND language = ? "
                   "AND version = 'published'", (article_id, language))


def check_tags(ctx: SandboxContext, tags: list[str]) -> list[str]:
    """The tag ids, each an existing tag (404 names the first that is not)."""
    for tag_id in tags:
        if ctx.db.one("SELECT 1 FROM tags WHERE id = ?", (tag_id.lower(),)) is None:
            raise not_found(f"Tag {tag_id[:60]}")
    return [t.lower() for t in dict.fromkeys(tags)]


def locate(ctx: SandboxContext, parent_id: str) -> tuple[str, str | None]:
    """Where an article under ``parent_id`` goes: ``(collection, category or None)``.
    The parent is a category or a collection (404: neither); a locked category takes no
    new articles (400)."""
    if not re.fullmatch(r"[0-9a-fA-F-]{36}", parent_id):
        raise bad_request(f"Invalid value in request: parentId {parent_id[:40]!r} is not an id")
    row = ctx.db.one("SELECT * FROM knowledge_categories WHERE id = ?", (parent_id.lower(),))
    if row is not None:
        if row["is_locked"]:
            raise bad_request(f"Category {row['id']} is locked: it takes no new articles")
        return row["collection_id"], row["id"]
    collection = ctx.db.one("SELECT id FROM knowledge_collections WHERE id = ?",
                            (parent_id.lower(),))
    if collection is None:
        raise not_found(f"Category or collection {parent_id}")
    return collection["id"], None


__all__ = [
    "DEFAULT_LANGUAGE", "HELP_CENTER_URL", "article_shape", "catalog", "category_shape",
    "check_language", "check_tags", "collection_shape", "get_article", "get_category",
    "get_collection", "is_internal", "locate", "pick_title", "plaintext", "publish",
    "require_translation", "touch", "translation_shapes", "unpublish", "versions",
    "write_draft",
]
