"""client.knowledge against the sandbox: every operation of the help centre, and each
published error (400 and 404 from the service, 500 as a fault; bad arguments refused before
sending)."""

from __future__ import annotations

import pytest

from frontdesk.api import ApiClient, ApiError, InvalidRequest, NotFound, Pacer
from frontdesk.api.models import CategoryCatalogItem
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def _walk(item: CategoryCatalogItem) -> list[str]:
    ids = [a.id for a in item.articles or []]
    for inner in item.categories or []:
        ids += _walk(inner)
    return ids


async def test_browse_and_edit_an_article(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        kb = client.knowledge
        collections = [c async for c in kb.list_collections(page_size=1)]
        page = await kb.list_collections_page(page_size=1)
        assert page.has_more and len(collections) == 2
        public = await kb.get_collection(collections[0].id)
        assert public.title == collections[0].title and not public.internal_kb_enabled
        catalog = await kb.catalog(public.id, "de")
        top = (catalog.categories or [])[0]
        assert top.title is not None and top.title.language_id == "de"
        category = await kb.get_category(top.id, "da")
        assert category.title is not None and category.title.language_id == "da"
        titles = await kb.category_translations(top.id)
        assert {t.language_id for t in titles} == {"en", "da", "de"}
        seeded = _walk(top)
        shown = await kb.get_article(seeded[0], "da")
        assert shown.translation is not None and shown.translation.draft.language == "da"

        article = await kb.create_article(
            [{"languageId": "en", "title": "Gift cards", "content": "<p>Never expire.</p>"}],
            parent_id=top.id)
        assert article.parent_category == top.id
        assert article.translation is not None and article.translation.published is None
        result = await kb.update_translations(article.id, [
            {"languageId": "da", "title": "Gavekort", "content": "<p>Udløber aldrig.</p>"},
            {"languageId": "de", "title": " "}])
        assert [t.language for t in result.data or []] == ["da"]
        assert [e.language_id for e in result.partial_errors or []] == ["de"]
        await kb.publish_translation(article.id, "da")
        await kb.publish_article(article.id)
        versions = await kb.article_translations(article.id)
        assert {t.language for t in versions.translations.published or []} == {"da", "en"}
        await kb.unpublish_translation(article.id, "da")
        await kb.unpublish_article(article.id)
        versions = await kb.article_translations(article.id)
        assert not versions.translations.published
        await kb.delete_translation(article.id, "da")

        agent = (await client.agents.list_page()).items[0]
        tag = (await client.tags.list())[0]
        changed = await kb.update_article(article.id, owned_by=agent.id, add_tags=[tag.id],
                                          pre_release=True)
        assert changed.owned_by == agent.id and changed.tags == [tag.id]
        await kb.move_article(article.id, collections[1].id)
        moved = await kb.get_article(article.id)
        assert moved.parent_collections == [collections[1].id] and moved.parent_category is None
        await kb.remove_parent(article.id)
        assert (await kb.get_article(article.id)).parent_collections == []

        upload = await kb.upload_attachments([("logo.png", "image/png", PNG),
                                              ("notes «v2».txt", "text/plain", b"hi")])
        assert [a.original_filename for a in upload.data or []] == ["logo.png"]
        assert [(e.original_filename, e.code) for e in upload.partial_errors or []] == [
            ("notes «v2».txt", 400)]
        await kb.delete_article(article.id)

        # published errors: 404 and 400 from the service
        for missing in (kb.get_article(article.id), kb.get_collection(UNKNOWN),
                        kb.catalog(UNKNOWN), kb.get_category(UNKNOWN),
                        kb.category_translations(UNKNOWN), kb.article_translations(UNKNOWN),
                        kb.delete_article(UNKNOWN), kb.publish_article(UNKNOWN),
                        kb.unpublish_article(UNKNOWN), kb.remove_parent(UNKNOWN),
                        kb.move_article(seeded[0], UNKNOWN),
                        kb.get_article(seeded[0], "ja"),
                        kb.publish_translation(seeded[0], "ja"),
                        kb.unpublish_translation(seeded[0], "ja"),
                        kb.delete_translation(seeded[0], "ja"),
                        kb.update_translations(UNKNOWN, [{"languageId": "en", "title": "x"}]),
                        kb.update_article(seeded[0], owned_by=UNKNOWN),
                        kb.create_article([{"languageId": "en", "title": "x"}],
                                          parent_id=UNKNOWN)):
            with pytest.raises(NotFound):
                await missing
        lone = await kb.create_article([{"languageId": "en", "title": "Alone"}])
        with pytest.raises(InvalidRequest) as caught:
            await kb.delete_translation(lone.id, "en")  # an article's last translation
        assert caught.value.status == 400
        with pytest.raises(InvalidRequest) as caught:
            await kb.list_collections_page(page_key="not-ours")
        assert caught.value.status == 400
        five = await kb.upload_attachments([(f"{n}.png", "image/png", b"x") for n in range(5)])
        assert len(five.data or []) == 5
        # bad arguments: refused before sending (no status)
        for bad in (kb.get_collection("nope"), kb.get_article(seeded[0], "not a language"),
                    kb.create_article([]), kb.create_article([{"title": "no language"}]),
                    kb.update_article(seeded[0]), kb.move_article(seeded[0], "nope"),
                    kb.publish_translation(seeded[0], "../x"),
                    kb.update_translations(seeded[0], []),
                    kb.upload_attachments([]),
                    kb.upload_attachments([(f"{n}.png", "image/png", b"x") for n in range(6)])):
            with pytest.raises(InvalidRequest) as caught:
                await bad
            assert caught.value.status is None

        # 500: a failure of the service, never a success
        sandbox.faults.fail(500, count=1, path_prefix="/v1/knowledge/articles")
        with pytest.raises(ApiError) as failed:
            await kb.create_article([{"languageId": "en", "title": "Lost"}])
        assert failed.value.status == 500
