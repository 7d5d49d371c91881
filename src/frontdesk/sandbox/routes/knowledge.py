"""Sandbox routes: knowledge — the help centre's collections, categories and articles, their
translations (a draft and a published version per language), publishing, moving, and image
attachments (published beyond the spec's tables). The rules and shapes are in
``sandbox/knowledge.py``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from starlette.responses import Response

from ...api.models import (
    ATTACHMENT_TYPES,
    MAX_ATTACHMENT_BYTES,
    MAX_ATTACHMENTS,
    MAX_UPLOAD_BYTES,
    Article,
    ArticleTranslations,
    ArticleUpdate,
    AttachmentsUpload,
    Catalog,
    Category,
    CategoryTranslations,
    Collection,
    Envelope,
    NewArticle,
    PagedEnvelope,
    TranslationsInput,
    TranslationsUpdate,
)
from .. import knowledge as kb
from ..context import Ctx, no_content, ok, page_limit, raw
from ..db import dumps, loads
from ..errors import bad_request, not_found
from ..multipart_files import UPLOAD_BODY, files_of
from ..params import uuid_path
from .endusers import PageKey, PageLimit, keyset_after, keyset_page

router = APIRouter(tags=["knowledge"])

_K = "/v1/knowledge"
_MISSING: dict[int | str, dict[str, Any]] = {
    404: {"description": "An entity in this request could not be found"}}
_BAD: dict[int | str, dict[str, Any]] = {400: {"description": "A malformed id, language or body"}}
_BOTH: dict[int | str, dict[str, Any]] = {**_BAD, **_MISSING}

CollectionIdPath = Annotated[str, uuid_path("collectionId", "a collection id")]
CategoryIdPath = Annotated[str, uuid_path("categoryId", "a category id")]
ArticleIdPath = Annotated[str, uuid_path("articleId", "an article id")]
ParentIdPath = Annotated[
    str, uuid_path("parentId", "the new parent: a category or a collection")]
LanguagePath = Annotated[
    str, Path(alias="languageId", max_length=35, description="a language id (en, da, pt-BR)")
]
LanguageQuery = Annotated[
    str | None, Query(max_length=35, description="the language to answer in "
                                                 "(default: the default language)")
]


# ---------------------------------------------------------------- collections and categories


@router.get(f"{_K}/collections", response_model=PagedEnvelope[Collection],
            summary="List collections", responses=_BAD)
async def list_collections(ctx: Ctx, request: Request, limit: PageLimit = None,
                           key: PageKey = None) -> Response:
    """The help centre's collections, in their order, paged."""
    size = page_limit(limit)
    where, params = "1 = 1", []
    after = keyset_after(key)
    if after is not None:
        if not after[0].isdigit():
            raise bad_request("Invalid value in request: pageKey")
        where = "(position, id) > (?, ?)"
        params = [int(after[0]), after[1]]
    rows = ctx.db.all(f"SELECT * FROM knowledge_collections WHERE {where} "
                      "ORDER BY position, id LIMIT ?", (*params, size + 1))
    page, meta = keyset_page(request, rows, size, "position")
    return ok([kb.collection_shape(r) for r in page], meta=meta)


@router.get(f"{_K}/collections/{{collectionId}}", response_model=Envelope[Collection],
            summary="Get collection", responses=_BOTH)
async def get_collection(ctx: Ctx, collection_id: CollectionIdPath) -> Response:
    """One collection."""
    return ok(kb.collection_shape(kb.get_collection(ctx, collection_id)))


@router.get(f"{_K}/collections/{{collectionId}}/catalog", response_model=Envelope[Catalog],
            summary="Get collection catalog", responses=_BOTH)
async def get_catalog(ctx: Ctx, collection_id: CollectionIdPath,
                      language: LanguageQuery = None) -> Response:
    """Every category (nested) and article of the collection, titled in ``language``."""
    row = kb.get_collection(ctx, collection_id)
    return ok(kb.catalog(ctx, row["id"], kb.check_language(language)))


@router.get(f"{_K}/categories/{{categoryId}}", response_model=Envelope[Category],
            summary="Get category", responses=_BOTH)
async def get_category(ctx: Ctx, category_id: CategoryIdPath,
                       language: LanguageQuery = None) -> Response:
    """One category, titled in ``language`` (else the default language)."""
    checked = kb.check_language(language)
    return ok(kb.category_shape(ctx, kb.get_category(ctx, category_id), checked))


@router.get(f"{_K}/categories/{{categoryId}}/translations",
            response_model=Envelope[CategoryTranslations],
            summary="Get category translations", responses=_BOTH)
async def get_category_translations(ctx: Ctx, category_id: CategoryIdPath) -> Response:
    """The category's title in every language it has."""
    titles = loads(kb.get_category(ctx, category_id)["titles"]) or {}
    return ok({"titles": [{"languageId": code, "title": titles[code]}
                          for code in sorted(titles)]})


# ---------------------------------------------------------------- articles


@router.post(f"{_K}/articles", response_model=Envelope[Article], summary="Create article",
             responses=_BOTH)
async def create_article(ctx: Ctx, body: NewArticle) -> Response:
    """A new article, its translations as drafts (publish them to make them searchable);
    under ``parentId`` (a category or a collection) when given."""
    translations = body.translations or []
    if not translations:
        raise bad_request("Invalid value in request: an article needs at least one translation")
    languages = [t.language_id for t in translations]
    if len(set(languages)) != len(languages):
        raise bad_request("Invalid value in request: a language is given twice")
    if any(not t.title.strip() for t in translations):
        raise bad_request("Invalid value in request: a translation's title is blank")
    with ctx.db.tx():
        collection_id, category_id = (kb.locate(ctx, body.parent_id) if body.parent_id
                                      else (None, None))
        tags = kb.check_tags(ctx, body.tags or [])
        article_id, now, who = ctx.new_id(), ctx.now_iso(), ctx.api_user_id
        ctx.db.run(
            "INSERT INTO knowledge_articles (id, collection_id, category_id, tags, pre_release, "
            "created_at, updated_at, created_by, updated_by, owned_by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (article_id, collection_id, category_id, dumps(tags), int(bool(body.pre_release)),
             now, now, who, who, who),
        )
        for t in translations:
            kb.write_draft(ctx, article_id, t.language_id, t.title.strip(), t.content or "")
        return ok(kb.article_shape(ctx, kb.get_article(ctx, article_id)))


@router.get(f"{_K}/articles/{{articleId}}", response_model=Envelope[Article],
            summary="Get article", responses=_BOTH)
async def get_article(ctx: Ctx, article_id: ArticleIdPath,
                      language: LanguageQuery = None) -> Response:
    """One article in ``language`` (else the default language); 404 for a language it
    does not have."""
    checked = kb.check_language(language)
    return ok(kb.article_shape(ctx, kb.get_article(ctx, article_id), checked))


@router.patch(f"{_K}/articles/{{articleId}}", response_model=Envelope[Article],
              summary="Update article", responses=_BOTH)
async def update_article(ctx: Ctx, article_id: ArticleIdPath, body: ArticleUpdate) -> Response:
    """Change the article's owner (an agent), its tags (added and removed) or its
    pre-release flag."""
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        if body.owned_by is not None:
            owner = ctx.db.one("SELECT id FROM users WHERE id = ? AND kind = 'agent'",
                               (body.owned_by.lower(),))
            if owner is None:
                raise not_found(f"Agent {body.owned_by[:60]}")
            ctx.db.run("UPDATE knowledge_articles SET owned_by = ? WHERE id = ?",
                       (owner["id"], row["id"]))
        if body.tags is not None:
            tags = list(loads(row["tags"]) or [])
            for tag_id in kb.check_tags(ctx, body.tags.add or []):
                if tag_id not in tags:
                    tags.append(tag_id)
            gone = {t.lower() for t in body.tags.remove or []}
            tags = [t for t in tags if t not in gone]
            ctx.db.run("UPDATE knowledge_articles SET tags = ? WHERE id = ?",
                       (dumps(tags), row["id"]))
        if body.pre_release is not None:
            ctx.db.run("UPDATE knowledge_articles SET pre_release = ? WHERE id = ?",
                       (int(body.pre_release), row["id"]))
        kb.touch(ctx, row["id"])
        return ok(kb.article_shape(ctx, kb.get_article(ctx, row["id"])))


@router.delete(f"{_K}/articles/{{articleId}}", status_code=204, summary="Delete article",
               responses=_BOTH)
async def delete_article(ctx: Ctx, article_id: ArticleIdPath) -> Response:
    """Delete the article and every version of every translation, for good."""
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        ctx.db.run("DELETE FROM knowledge_translations WHERE article_id = ?", (row["id"],))
        ctx.db.run("DELETE FROM knowledge_articles WHERE id = ?", (row["id"],))
    return no_content()


@router.get(f"{_K}/articles/{{articleId}}/translations",
            response_model=Envelope[ArticleTranslations],
            summary="Get article translations", responses=_BOTH)
async def get_translations(ctx: Ctx, article_id: ArticleIdPath) -> Response:
    """Every translation of the article: the drafts, and the published versions."""
    row = kb.get_article(ctx, article_id)
    shaped = kb.translation_shapes(kb.versions(ctx, row["id"]),
                                   kb.is_internal(ctx, row["collection_id"]))
    return ok({"translations": {
        "draft": [pair["draft"] for _, pair in sorted(shaped.items())],
        "published": [pair["published"] for _, pair in sorted(shaped.items())
                      if "published" in pair],
    }})


@router.patch(f"{_K}/articles/{{articleId}}/translations", response_model=TranslationsUpdate,
              summary="Update article translations", responses=_BOTH)
async def update_translations(ctx: Ctx, article_id: ArticleIdPath,
                              body: TranslationsInput) -> Response:
    """Create or replace the drafts of the given translations. Partial success: a blank
    title or a language given twice is named in ``partialErrors``, the rest is written."""
    items = body.translations or []
    if not items:
        raise bad_request("Invalid value in request: give at least one translation")
    written: list[dict[str, Any]] = []
    errors: list[dict[str, str]] = []
    seen: set[str] = set()
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        internal = kb.is_internal(ctx, row["collection_id"])
        for item in items:
            if item.language_id in seen:
                errors.append({"languageId": item.language_id,
                               "message": "The language is given twice; the first was taken"})
                continue
            seen.add(item.language_id)
            if not item.title.strip():
                errors.append({"languageId": item.language_id, "message": "The title is blank"})
                continue
            kb.write_draft(ctx, row["id"], item.language_id, item.title.strip(),
                           item.content or "")
            pair = kb.translation_shapes(kb.versions(ctx, row["id"], item.language_id),
                                         internal)
            written.append(pair[item.language_id]["draft"])
        if written:
            kb.touch(ctx, row["id"])
    return raw({"data": written, "partialErrors": errors})


@router.post(f"{_K}/articles/{{articleId}}/translations/{{languageId}}/publish",
             status_code=204, summary="Publish translation", responses=_BOTH)
async def publish_translation(ctx: Ctx, article_id: ArticleIdPath,
                              language_id: LanguagePath) -> Response:
    """Publish the translation's draft: it becomes the version search and the help centre
    show."""
    language = kb.check_language(language_id) or language_id
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        kb.require_translation(ctx, row, language)
        kb.publish(ctx, row["id"], language)
    return no_content()


@router.post(f"{_K}/articles/{{articleId}}/translations/{{languageId}}/unpublish",
             status_code=204, summary="Unpublish translation", responses=_BOTH)
async def unpublish_translation(ctx: Ctx, article_id: ArticleIdPath,
                                language_id: LanguagePath) -> Response:
    """Take the translation out of search (its draft stays); already unpublished is fine."""
    language = kb.check_language(language_id) or language_id
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        kb.require_translation(ctx, row, language)
        kb.unpublish(ctx, row["id"], language)
    return no_content()


@router.delete(f"{_K}/articles/{{articleId}}/translations/{{languageId}}", status_code=204,
               summary="Delete article translation", responses=_BOTH)
async def delete_translation(ctx: Ctx, article_id: ArticleIdPath,
                             language_id: LanguagePath) -> Response:
    """Delete every version of one translation; the article's last one cannot go (400:
    delete the article instead)."""
    language = kb.check_language(language_id) or language_id
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        kb.require_translation(ctx, row, language)
        others = ctx.db.one("SELECT 1 FROM knowledge_translations WHERE article_id = ? AND "
                            "language != ?", (row["id"], language))
        if others is None:
            raise bad_request("Invalid value in request: this is the article's last "
                              "translation; delete the article instead")
        ctx.db.run("DELETE FROM knowledge_translations WHERE article_id = ? AND language = ?",
                   (row["id"], language))
        kb.touch(ctx, row["id"])
    return no_content()


@router.post(f"{_K}/articles/{{articleId}}/publish", status_code=204,
             summary="Publish article", responses=_BOTH)
async def publish_article(ctx: Ctx, article_id: ArticleIdPath) -> Response:
    """Publish the draft of every translation."""
    with ctx.db.tx():
        kb.publish(ctx, kb.get_article(ctx, article_id)["id"])
    return no_content()


@router.post(f"{_K}/articles/{{articleId}}/unpublish", status_code=204,
             summary="Unpublish article", responses=_BOTH)
async def unpublish_article(ctx: Ctx, article_id: ArticleIdPath) -> Response:
    """Take every translation out of search (the drafts stay)."""
    with ctx.db.tx():
        kb.unpublish(ctx, kb.get_article(ctx, article_id)["id"])
    return no_content()


@router.patch(f"{_K}/articles/{{articleId}}/parent/{{parentId}}", status_code=204,
              summary="Move article", responses=_BOTH)
async def move_article(ctx: Ctx, article_id: ArticleIdPath, parent_id: ParentIdPath) -> Response:
    """Move the article under a category or to a collection's top (a locked category takes
    no new articles: 400)."""
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        collection_id, category_id = kb.locate(ctx, parent_id)
        ctx.db.run("UPDATE knowledge_articles SET collection_id = ?, category_id = ? "
                   "WHERE id = ?", (collection_id, category_id, row["id"]))
        kb.touch(ctx, row["id"])
    return no_content()


@router.delete(f"{_K}/articles/{{articleId}}/parent", status_code=204,
               summary="Remove article parent", responses=_BOTH)
async def remove_parent(ctx: Ctx, article_id: ArticleIdPath) -> Response:
    """Take the article out of its category and collection (it stays, unfiled)."""
    with ctx.db.tx():
        row = kb.get_article(ctx, article_id)
        ctx.db.run("UPDATE knowledge_articles SET collection_id = NULL, category_id = NULL "
                   "WHERE id = ?", (row["id"],))
        kb.touch(ctx, row["id"])
    return no_content()


# ---------------------------------------------------------------- attachments


@router.post(f"{_K}/articles/attachments", response_model=AttachmentsUpload,
             summary="Upload article attachments", openapi_extra=UPLOAD_BODY,
             responses={400: {"description": "Not multipart, no files, more than "
                                             f"{MAX_ATTACHMENTS} files or over 10 MB"}})
async def upload_attachments(ctx: Ctx, request: Request) -> Response:
    """Store image files (``files`` parts of a multipart form) for use in articles: PNG,
    JPEG, GIF or WebP, at most 5 files and 4 MB each, 10 MB in all. Partial success: a file
    of another type or too large is named in ``partialErrors``; the rest is stored and
    served at ``/files/{id}``."""
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data") or "boundary=" not in \
            content_type:
        raise bad_request("Invalid value in request: send the files as multipart/form-data")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES + 64 * 1024:
        raise bad_request("Invalid value in request: the request is over 10 MB")
    payload = await request.body()
    if len(payload) > MAX_UPLOAD_BYTES + 64 * 1024:
        raise bad_request("Invalid value in request: the request is over 10 MB")
    files = files_of(content_type, payload)
    if not files:
        raise bad_request("Invalid value in request: no files were sent")
    if len(files) > MAX_ATTACHMENTS:
        raise bad_request(f"Invalid value in request: at most {MAX_ATTACHMENTS} files per "
                          "request")
    stored: list[dict[str, str]] = []
    errors: list[dict[str, Any]] = []
    base = str(request.base_url).rstrip("/")
    with ctx.db.tx():
        for name, media_type, data in files:
            if media_type not in ATTACHMENT_TYPES:
                errors.append({"originalFilename": name, "code": 400,
                               "message": f"Unsupported MIME type '{media_type[:60]}'. "
                                          f"Allowed: {', '.join(ATTACHMENT_TYPES)}"})
                continue
            if len(data) > MAX_ATTACHMENT_BYTES:
                errors.append({"originalFilename": name, "code": 400,
                               "message": "File exceeds 4 MB size limit"})
                continue
            file_id = ctx.new_id()
            ctx.db.run("INSERT INTO attachments (id, content_type, data, name, created_at) "
                       "VALUES (?, ?, ?, ?, ?)", (file_id, media_type, data, name,
                                                  ctx.now_iso()))
            stored.append({"originalFilename": name, "url": f"{base}/files/{file_id}"})
    return raw({"data": stored, "partialErrors": errors})


__all__ = ["router"]
