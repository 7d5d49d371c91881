"""The knowledge store against the sandbox: the help centre's tree, the finder's published
articles (in a conversation's language, else the default one), editing and publishing, and
what it refuses before sending."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.launch import local_store_path
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.errors import Refused
from frontdesk.store.knowledge import FoundArticle, from_html, matches, to_html
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session


@pytest.fixture
async def session(sandbox: SandboxServer) -> AsyncIterator[Session]:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    made = Session(client=client, local=LocalStore(local_store_path("kb-test")),
                   settings=Settings(), profile="kb-test", identity=DEMO_AGENT_EMAIL)
    yield made
    await client.aclose()
    made.local.close()


def test_to_html_and_matching() -> None:
    assert to_html("a < b\nnext\n\n  second  ") == "<p>a &lt; b<br>next</p><p>second</p>"
    found = [FoundArticle("1", "en", "Refunds", "money back", None),
             FoundArticle("2", "en", "Returns", "refunds within 5 days", "https://x/2")]
    assert [a.id for a in matches(found, "REFUND")] == ["1", "2"]
    assert [a.id for a in matches(found, "refunds days")] == ["2"]
    assert matches(found, "  ") == found


async def test_tree_finder_and_editing(session: Session) -> None:
    kb = session.knowledge
    tree = await kb.tree()
    kinds = [n.kind for n in tree]
    assert kinds.count("collection") == 2 and kinds.count("article") >= 12
    assert tree[0].kind == "collection" and tree[1].kind == "category"
    nested = next(n for n in tree if n.title == "Payment methods")
    assert nested.depth == 2

    english = await kb.published()
    assert english and all(a.language == "en" for a in english)
    assert "Deleting your account" not in {a.title for a in english}  # a draft only
    internal = next(a for a in english if a.title == "When to escalate to billing")
    assert internal.link is None  # internal knowledge has no help-centre page
    danish = await kb.published("da")
    titles = {a.title for a in danish}
    assert "Hvor er min ordre?" in titles and "Damaged or faulty items" in titles  # fallback
    german = {a.title: a for a in await kb.published("de")}
    assert "Versand in andere Länder" not in german  # taken out of search
    assert "Shipping to other countries" in german
    assert await kb.published("da") is danish  # kept for the session

    orders = next(n for n in tree if n.title == "Orders & delivery")
    article = await kb.create_article(orders.id, "en", "Gift cards", "Never expire.\n\nOnline.")
    assert article.translation is not None
    assert article.translation.draft.contents.html == "<p>Never expire.</p><p>Online.</p>"
    await kb.save_translation(article.id, "da", "Gavekort", "Udløber aldrig.")
    await kb.set_published(article.id, "da", True)
    assert "Gavekort" in {a.title for a in await kb.published("da")}  # read again
    await kb.set_published(article.id, "da", False)
    assert "Gavekort" not in {a.title for a in await kb.published("da")}
    await kb.set_article_published(article.id, True)
    versions = await kb.translations(article.id)
    assert {t.language for t in versions.translations.published or []} == {"da", "en"}
    await kb.set_article_published(article.id, False)
    await kb.delete_translation(article.id, "da")
    await kb.move_article(article.id, tree[0].id)
    await kb.move_article(article.id, None)
    assert (await kb.article(article.id)).parent_collections == []

    for refused in (kb.create_article(orders.id, "english", "x", ""),
                    kb.create_article(orders.id, "en", "  ", ""),
                    kb.create_article("nope", "en", "x", ""),
                    kb.save_translation(article.id, "da", "", "")):
        with pytest.raises(Refused) as caught:
            await refused
        assert caught.value.error is None  # refused before sending
    with pytest.raises(Refused) as caught:
        await kb.delete_translation(article.id, "en")  # the last one
    assert caught.value.error is not None and "last translation" in caught.value.reason
    await kb.delete_article(article.id)
    with pytest.raises(Refused):
        await kb.article(article.id)


def test_from_html_reads_back_what_to_html_writes() -> None:
    text = "First line\nsecond & <third>\n\n![Logo](https://cdn.example/l.png)\n\nEnd"
    assert from_html(to_html(text)) == text
    assert from_html('<h2>Title</h2><p>a <b>bold</b> word</p><img src="javascript:x">') == \
        "Title\n\na bold word"


async def test_images_owner_and_details(session: Session, tmp_path: Path) -> None:
    kb = session.knowledge
    await session.resolve_me()
    image = tmp_path / "logo.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    line = await kb.upload_image(str(image))
    assert line.startswith("![logo](http") and "/files/" in line
    (tmp_path / "notes.txt").write_text("x")
    for bad in (str(tmp_path / "notes.txt"), str(tmp_path / "missing.png")):
        with pytest.raises(Refused) as caught:
            await kb.upload_image(bad)
        assert caught.value.error is None

    tree = await kb.tree()
    article = next(n for n in tree if n.kind == "article")
    owned = await kb.take_ownership(article.id)
    assert owned.owned_by == session.me_id
    collection = await kb.collection(tree[0].id)
    assert collection.title == tree[0].title
    locked = next(n for n in tree if n.title == "Announcements")
    category, titles = await kb.category(locked.id)
    assert category.is_locked and {t.language_id for t in titles} == {"en", "da"}
    with pytest.raises(Refused) as refused:
        await kb.move_article(article.id, locked.id)
    assert refused.value.error is not None and "locked" in refused.value.reason
