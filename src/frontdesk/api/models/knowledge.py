"""Knowledge: the help centre — collections hold categories (which nest), categories hold
articles, and each article has one translation per language, each with a draft and (once
published) a published version. Published beyond the spec's tables."""

from __future__ import annotations

from pydantic import Field

from .common import Input, Record, ZonedDateTime

#: A language id as the service takes it: ``en``, ``da``, ``pt-BR``, ``zh-Hant``.
LANGUAGE_PATTERN = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$"

#: Attachments: the image types taken, and the published limits.
ATTACHMENT_TYPES = ("image/gif", "image/jpeg", "image/png", "image/webp")
MAX_ATTACHMENTS = 5
MAX_ATTACHMENT_BYTES = 4 * 1024 * 1024
MAX_UPLOAD_BYTES = 10 * 1024 * 1024


class InheritedRestriction(Record):
    """Where a restriction comes from: a collection or a category above."""

    from_collection: str | None = None
    from_category: str | None = None


class Restrictions(Record):
    """Whether only some agents see the item (internal knowledge)."""

    is_restricted: bool
    inherited_restrictions: list[InheritedRestriction] | None = None


class Collection(Record):
    """A collection: the top of a help centre (or of an internal knowledge base)."""

    id: str
    title: str
    internal_kb_enabled: bool
    restrictions: Restrictions
    description: str | None = None


class TranslationTitle(Record):
    """A title in one language."""

    language_id: str
    title: str


class ArticleCatalogItem(Record):
    """An article in a catalog: its id and title."""

    id: str
    title: TranslationTitle | None = None


class CategoryCatalogItem(Record):
    """A category in a catalog, with the categories and articles inside it."""

    id: str
    title: TranslationTitle | None = None
    categories: list[CategoryCatalogItem] | None = None
    articles: list[ArticleCatalogItem] | None = None


class Catalog(Record):
    """A collection's catalog: its categories (nested) and the articles at its top."""

    categories: list[CategoryCatalogItem] | None = None
    articles: list[ArticleCatalogItem] | None = None


class Category(Record):
    """A category of a collection (``parent_category`` when it nests in another)."""

    id: str
    is_locked: bool
    restrictions: Restrictions
    title: TranslationTitle | None = None
    is_default_location: bool | None = None
    parent_category: str | None = None
    parent_collections: list[str] | None = None


class CategoryTranslations(Record):
    """A category's title in every language it has."""

    titles: list[TranslationTitle] | None = None


class ArticleContent(Record):
    """An article's body, as HTML and as plain text."""

    html: str
    plaintext: str


class HelpCenterLink(Record):
    """Where a published translation can be read: a help centre's page."""

    id: str
    name: str
    url: str


class AvailableAt(Record):
    """The help centres that show a translation."""

    help_center_links: list[HelpCenterLink] | None = None


class ArticleTranslation(Record):
    """One version (draft or published) of an article in one language."""

    language: str
    title: str
    is_indexed_version: bool
    contents: ArticleContent
    available_at: AvailableAt
    created_at: ZonedDateTime
    updated_at: ZonedDateTime
    created_by: str | None = None
    updated_by: str | None = None


class ArticleVersions(Record):
    """An article in one language: its draft, and its published version once published."""

    draft: ArticleTranslation
    published: ArticleTranslation | None = None


class Article(Record):
    """A knowledge article, shown in one language (``translation``)."""

    id: str
    created_at: ZonedDateTime
    updated_at: ZonedDateTime
    restrictions: Restrictions
    is_default_location: bool | None = None
    translation: ArticleVersions | None = None
    tags: list[str] | None = None
    indexed_at: ZonedDateTime | None = None
    created_by: str | None = None
    updated_by: str | None = None
    owned_by: str | None = None
    indexed_by: str | None = None
    parent_category: str | None = None
    parent_collections: list[str] | None = None


class TranslationList(Record):
    """Every translation of an article: the drafts, and the published versions."""

    draft: list[ArticleTranslation] | None = None
    published: list[ArticleTranslation] | None = None


class ArticleTranslations(Record):
    """``GET …/translations``: every version of every translation."""

    translations: TranslationList


class TranslationError(Record):
    """A translation the service did not take, and why."""

    language_id: str
    message: str


class TranslationsUpdate(Record):
    """The answer to updating translations: those taken and those refused."""

    data: list[ArticleTranslation] | None = None
    partial_errors: list[TranslationError] | None = None


class AttachmentResult(Record):
    """An uploaded image and the address it is served at."""

    original_filename: str
    url: str


class AttachmentError(Record):
    """A file the service did not take (``code`` 400: the file's fault; 500: the service's)."""

    original_filename: str
    message: str
    code: int


class AttachmentsUpload(Record):
    """The answer to an upload: the files taken and those refused."""

    data: list[AttachmentResult] | None = None
    partial_errors: list[AttachmentError] | None = None


# ---------------------------------------------------------------- inputs


class TranslationInput(Input):
    """A translation to write: its language, title and HTML body."""

    language_id: str = Field(pattern=LANGUAGE_PATTERN, max_length=35)
    title: str = Field(min_length=1, max_length=500)
    content: str | None = Field(default=None, max_length=200_000)


class NewArticle(Input):
    """A new article: its first translations (as drafts), where it goes, its tags."""

    translations: list[TranslationInput] | None = None
    parent_id: str | None = None
    tags: list[str] | None = None
    pre_release: bool | None = None


class TagsUpdate(Input):
    """Tags to add to and remove from an article."""

    add: list[str] | None = None
    remove: list[str] | None = None


class ArticleUpdate(Input):
    """What may change on an article besides its translations: owner, tags, pre-release."""

    owned_by: str | None = None
    tags: TagsUpdate | None = None
    pre_release: bool | None = None


class TranslationsInput(Input):
    """Translations to create or update, as drafts."""

    translations: list[TranslationInput] | None = None


__all__ = [
    "ATTACHMENT_TYPES",
    "LANGUAGE_PATTERN",
    "MAX_ATTACHMENTS",
    "MAX_ATTACHMENT_BYTES",
    "MAX_UPLOAD_BYTES",
    "Article",
    "ArticleCatalogItem",
    "ArticleContent",
    "ArticleTranslation",
    "ArticleTranslations",
    "ArticleUpdate",
    "ArticleVersions",
    "AttachmentError",
    "AttachmentResult",
    "AttachmentsUpload",
    "AvailableAt",
    "Catalog",
    "Category",
    "CategoryCatalogItem",
    "CategoryTranslations",
    "Collection",
    "HelpCenterLink",
    "InheritedRestriction",
    "NewArticle",
    "Restrictions",
    "TagsUpdate",
    "TranslationError",
    "TranslationInput",
    "TranslationList",
    "TranslationTitle",
    "TranslationsInput",
    "TranslationsUpdate",
]
