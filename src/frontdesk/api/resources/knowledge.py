"""Knowledge: the help centre's collections, categories and articles, article translations
(a draft and a published version per language), publishing, moving, image attachments."""

from __future__ import annotations

import builtins
import re
import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx2

from ..models.knowledge import (
    LANGUAGE_PATTERN,
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
    NewArticle,
    TranslationInput,
    TranslationsInput,
    TranslationsUpdate,
    TranslationTitle,
)
from ..operations import Operation, operation
from ..pacing import Priority
from ..transport import RawBody
from ._base import Page, Resource, build, check_uuid, fail, parse_one, unwrap

__all__ = ["KnowledgeResource", "UploadFile"]

_LIST_COLLECTIONS = operation("knowledge.list_collections")
_GET_COLLECTION = operation("knowledge.get_collection")
_CATALOG = operation("knowledge.catalog")
_GET_CATEGORY = operation("knowledge.get_category")
_CATEGORY_TRANSLATIONS = operation("knowledge.category_translations")
_CREATE = operation("knowledge.create_article")
_GET = operation("knowledge.get_article")
_UPDATE = operation("knowledge.update_article")
_DELETE = operation("knowledge.delete_article")
_TRANSLATIONS = operation("knowledge.article_translations")
_UPDATE_TRANSLATIONS = operation("knowledge.update_translations")
_PUBLISH_TRANSLATION = operation("knowledge.publish_translation")
_UNPUBLISH_TRANSLATION = operation("knowledge.unpublish_translation")
_DELETE_TRANSLATION = operation("knowledge.delete_translation")
_PUBLISH = operation("knowledge.publish_article")
_UNPUBLISH = operation("knowledge.unpublish_article")
_MOVE = operation("knowledge.move_article")
_REMOVE_PARENT = operation("knowledge.remove_parent")
_UPLOAD = operation("knowledge.upload_attachments")

_LANGUAGE = re.compile(LANGUAGE_PATTERN)
_UNSAFE_NAME = re.compile(r'[\x00-\x1f\x7f"\\]')

#: A file to upload: (file name, media type, bytes).
UploadFile = tuple[str, str, bytes]


class KnowledgeResource(Resource):
    """``client.knowledge``: the help centre. (Published beyond the spec's tables.)"""

    # ------------------------------------------------------------ collections, categories

    async def list_collections(self, *, page_size: int | None = None,
                               priority: Priority = Priority.INTERACTIVE
                               ) -> AsyncIterator[Collection]:
        """Every collection, in the help centre's order, page by page."""

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[Collection]:
            return await self._fetch_page(_LIST_COLLECTIONS, Collection, page_size=page_size,
                                          page_key=key, priority=priority, url=url)

        async for collection in self._iterate(fetch, _LIST_COLLECTIONS):
            yield collection

    async def list_collections_page(self, *, page_size: int | None = None,
                                    page_key: str | None = None,
                                    priority: Priority = Priority.INTERACTIVE
                                    ) -> Page[Collection]:
        """One page of collections; pass the previous page's ``next_key`` for the next."""
        return await self._fetch_page(_LIST_COLLECTIONS, Collection, page_size=page_size,
                                      page_key=page_key, priority=priority)

    async def get_collection(self, collection_id: str, *,
                             priority: Priority = Priority.INTERACTIVE) -> Collection:
        """One collection."""
        path = {"collectionId": check_uuid(collection_id, _GET_COLLECTION, "collection id")}
        reply = await self._transport.send(_GET_COLLECTION, path=path, priority=priority)
        return parse_one(_GET_COLLECTION, unwrap(_GET_COLLECTION, reply.body), Collection)

    async def catalog(self, collection_id: str, language: str | None = None, *,
                      priority: Priority = Priority.INTERACTIVE) -> Catalog:
        """Every category (nested) and article of a collection, titled in ``language``
        (default: the service's default language) where they have it."""
        path = {"collectionId": check_uuid(collection_id, _CATALOG, "collection id")}
        reply = await self._transport.send(_CATALOG, path=path,
                                           params=_language(_CATALOG, language),
                                           priority=priority)
        return parse_one(_CATALOG, unwrap(_CATALOG, reply.body), Catalog)

    async def get_category(self, category_id: str, language: str | None = None, *,
                           priority: Priority = Priority.INTERACTIVE) -> Category:
        """One category, titled in ``language`` where it has it."""
        path = {"categoryId": check_uuid(category_id, _GET_CATEGORY, "category id")}
        reply = await self._transport.send(_GET_CATEGORY, path=path,
                                           params=_language(_GET_CATEGORY, language),
                                           priority=priority)
        return parse_one(_GET_CATEGORY, unwrap(_GET_CATEGORY, reply.body), Category)

    async def category_translations(self, category_id: str, *,
                                    priority: Priority = Priority.INTERACTIVE
                                    ) -> builtins.list[TranslationTitle]:
        """A category's title in every language it has."""
        op = _CATEGORY_TRANSLATIONS
        path = {"categoryId": check_uuid(category_id, op, "category id")}
        reply = await self._transport.send(op, path=path, priority=priority)
        return parse_one(op, unwrap(op, reply.body), CategoryTranslations).titles or []

    # ------------------------------------------------------------ articles

    async def create_article(
        self,
        translations: Sequence[TranslationInput | Mapping[str, Any]],
        *,
        parent_id: str | None = None,
        tags: Sequence[str] | None = None,
        pre_release: bool | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Article:
        """A new article with its first translations as drafts (publish them to make them
        searchable), under ``parent_id`` (a category or a collection) when given. Not
        retried after it may have reached the service (a second try could make two)."""
        if isinstance(translations, str | Mapping) or not translations:
            raise fail(_CREATE, "Give at least one translation")
        items = [build(_CREATE, TranslationInput, t) for t in translations]
        if parent_id is not None:
            check_uuid(parent_id, _CREATE, "parent id")
        body = build(_CREATE, NewArticle, translations=items, parent_id=parent_id,
                     tags=list(tags) if tags is not None else None, pre_release=pre_release)
        reply = await self._transport.send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), Article)

    async def get_article(self, article_id: str, language: str | None = None, *,
                          priority: Priority = Priority.INTERACTIVE) -> Article:
        """One article in ``language`` (default: the default language); a language it does
        not have is :class:`~frontdesk.api.errors.NotFound`."""
        path = _article(_GET, article_id)
        reply = await self._transport.send(_GET, path=path, params=_language(_GET, language),
                                           priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Article)

    async def update_article(
        self,
        article_id: str,
        *,
        owned_by: str | None = None,
        add_tags: Sequence[str] | None = None,
        remove_tags: Sequence[str] | None = None,
        pre_release: bool | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Article:
        """Change an article's owner (an agent), tags or pre-release flag."""
        path = _article(_UPDATE, article_id)
        if owned_by is not None:
            check_uuid(owned_by, _UPDATE, "owner id")
        tags = None
        if add_tags is not None or remove_tags is not None:
            tags = {k: list(v) for k, v in (("add", add_tags), ("remove", remove_tags))
                    if v is not None}
        body = build(_UPDATE, ArticleUpdate, owned_by=owned_by, tags=tags,
                     pre_release=pre_release)
        if not body.wire():
            raise fail(_UPDATE, "Give something to change: an owner, tags or pre-release")
        reply = await self._transport.send(_UPDATE, path=path, body=body.wire(), priority=priority)
        return parse_one(_UPDATE, unwrap(_UPDATE, reply.body), Article)

    async def delete_article(self, article_id: str, *,
                             priority: Priority = Priority.INTERACTIVE) -> None:
        """Delete an article and all its translations, for good."""
        await self._transport.send(_DELETE, path=_article(_DELETE, article_id), priority=priority)

    async def article_translations(self, article_id: str, *,
                                   priority: Priority = Priority.INTERACTIVE
                                   ) -> ArticleTranslations:
        """Every translation of an article: the drafts, and the published versions."""
        op = _TRANSLATIONS
        reply = await self._transport.send(op, path=_article(op, article_id), priority=priority)
        return parse_one(op, unwrap(op, reply.body), ArticleTranslations)

    async def update_translations(
        self,
        article_id: str,
        translations: Sequence[TranslationInput | Mapping[str, Any]],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> TranslationsUpdate:
        """Create or replace the drafts of the given translations. Partial success: those
        the service refused are in ``partial_errors``."""
        op = _UPDATE_TRANSLATIONS
        path = _article(op, article_id)
        if isinstance(translations, str | Mapping) or not translations:
            raise fail(op, "Give at least one translation")
        items = [build(op, TranslationInput, t) for t in translations]
        body = build(op, TranslationsInput, translations=items)
        reply = await self._transport.send(op, path=path, body=body.wire(), priority=priority)
        return parse_one(op, reply.body if reply.body is not None else {}, TranslationsUpdate)

    async def publish_translation(self, article_id: str, language: str, *,
                                  priority: Priority = Priority.INTERACTIVE) -> None:
        """Publish one translation's draft: search and the help centre show it."""
        await self._on_translation(_PUBLISH_TRANSLATION, article_id, language, priority)

    async def unpublish_translation(self, article_id: str, language: str, *,
                                    priority: Priority = Priority.INTERACTIVE) -> None:
        """Take one translation out of search (its draft stays)."""
        await self._on_translation(_UNPUBLISH_TRANSLATION, article_id, language, priority)

    async def delete_translation(self, article_id: str, language: str, *,
                                 priority: Priority = Priority.INTERACTIVE) -> None:
        """Delete every version of one translation (not the article's last one)."""
        await self._on_translation(_DELETE_TRANSLATION, article_id, language, priority)

    async def publish_article(self, article_id: str, *,
                              priority: Priority = Priority.INTERACTIVE) -> None:
        """Publish the draft of every translation of an article."""
        await self._transport.send(_PUBLISH, path=_article(_PUBLISH, article_id), priority=priority)

    async def unpublish_article(self, article_id: str, *,
                                priority: Priority = Priority.INTERACTIVE) -> None:
        """Take every translation of an article out of search (the drafts stay)."""
        await self._transport.send(_UNPUBLISH, path=_article(_UNPUBLISH, article_id),
                                   priority=priority)

    async def move_article(self, article_id: str, parent_id: str, *,
                           priority: Priority = Priority.INTERACTIVE) -> None:
        """Move an article under a category, or to the top of a collection."""
        path = {**_article(_MOVE, article_id),
                "parentId": check_uuid(parent_id, _MOVE, "parent id")}
        await self._transport.send(_MOVE, path=path, priority=priority)

    async def remove_parent(self, article_id: str, *,
                            priority: Priority = Priority.INTERACTIVE) -> None:
        """Take an article out of its category and collection (it stays, unfiled)."""
        await self._transport.send(_REMOVE_PARENT, path=_article(_REMOVE_PARENT, article_id),
                                   priority=priority)

    async def upload_attachments(self, files: Sequence[UploadFile], *,
                                 priority: Priority = Priority.INTERACTIVE
                                 ) -> AttachmentsUpload:
        """Upload images for articles: ``(file name, media type, bytes)`` each, PNG, JPEG,
        GIF or WebP, at most 5 and 10 MB in all. Partial success: files the service refused
        (another type, over 4 MB) are in ``partial_errors``. Not retried after it may have
        reached the service."""
        op = _UPLOAD
        if not files or isinstance(files, str | bytes) or isinstance(files[0], str):
            raise fail(op, "Give a non-empty list of (file name, media type, bytes)")
        if len(files) > MAX_ATTACHMENTS:
            raise fail(op, f"At most {MAX_ATTACHMENTS} files per upload, not {len(files)}")
        for item in files:
            if not (isinstance(item, tuple) and len(item) == 3 and isinstance(item[0], str)
                    and isinstance(item[1], str) and isinstance(item[2], bytes)):
                raise fail(op, "Each file is (file name, media type, bytes)")
        if sum(len(data) for _, _, data in files) > MAX_UPLOAD_BYTES:
            raise fail(op, "The files are over 10 MB together; upload them in parts")
        boundary = uuid.uuid4().hex
        body = RawBody(_multipart(files, boundary), f"multipart/form-data; boundary={boundary}")
        reply = await self._transport.send(op, body=body, priority=priority)
        return parse_one(op, reply.body if reply.body is not None else {}, AttachmentsUpload)

    async def _on_translation(self, op: Operation, article_id: str, language: str,
                              priority: Priority) -> None:
        path = {**_article(op, article_id), "languageId": _language_id(op, language)}
        await self._transport.send(op, path=path, priority=priority)


def _article(op: Operation, article_id: str) -> dict[str, str | int]:
    return {"articleId": check_uuid(article_id, op, "article id")}


def _language_id(op: Operation, value: object) -> str:
    if not isinstance(value, str) or not _LANGUAGE.match(value) or len(value) > 35:
        raise fail(op, "The language must be a language id such as en, da or pt-BR")
    return value


def _language(op: Operation, value: str | None) -> dict[str, str]:
    return {} if value is None else {"language": _language_id(op, value)}


def _multipart(files: Sequence[UploadFile], boundary: str) -> bytes:
    """A multipart/form-data body with each file as a ``files`` part."""
    out = bytearray()
    for name, media_type, data in files:
        safe_name = _UNSAFE_NAME.sub("_", name) or "file"
        kind = media_type if re.fullmatch(r"[\w.+-]+/[\w.+-]+", media_type) else \
            "application/octet-stream"
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
                f"filename=\"{safe_name}\"\r\nContent-Type: {kind}\r\n\r\n").encode()
        out += data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out)

