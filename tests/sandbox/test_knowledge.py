"""The sandbox's help centre: the seeded collections, catalog and articles, and the rules of
translations (a draft and a published version per language), publishing, moving and
attachments, with each published error."""

from __future__ import annotations

from typing import Any

import httpx2
from factories_people import walk

from frontdesk.api.models import (
    Article,
    ArticleTranslations,
    AttachmentsUpload,
    Catalog,
    Category,
    CategoryTranslations,
    Collection,
    Envelope,
    PagedEnvelope,
    TranslationsUpdate,
)

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"
K = "/v1/knowledge"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\r\n\n\r" + bytes(range(256))


def _data(response: httpx2.Response) -> Any:
    assert response.status_code == 200, response.text
    return response.json()["data"]


def _articles(item: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(item.get("articles") or [])
    for category in item.get("categories") or []:
        found += _articles(category)
    return found


def test_seeded_help_centre(http: httpx2.Client) -> None:
    first = http.get(f"{K}/collections", params={"pageLimit": 1})
    PagedEnvelope[Collection].model_validate(first.json())
    collections, pages = walk(http, f"{K}/collections", {"pageLimit": 1})
    assert pages == 2 and [c["internalKbEnabled"] for c in collections] == [False, True]
    public, internal = collections
    assert _data(http.get(f"{K}/collections/{public['id']}")) == public

    catalog = http.get(f"{K}/collections/{public['id']}/catalog", params={"language": "da"})
    Envelope[Catalog].model_validate(catalog.json())
    tree = catalog.json()["data"]
    assert {c["title"]["languageId"] for c in tree["categories"]} == {"da"}
    account = next(c for c in tree["categories"] if c["title"]["title"] == "Din konto")
    assert account["categories"][0]["title"]["title"] == "Betalingsmetoder"
    articles = _articles(tree)
    assert len(articles) >= 10
    assert {a["title"]["languageId"] for a in articles} == {"da", "en"}  # en: no Danish yet

    category = http.get(f"{K}/categories/{account['categories'][0]['id']}",
                        params={"language": "de"})
    Envelope[Category].model_validate(category.json())
    shown = category.json()["data"]
    assert shown["title"] == {"languageId": "de", "title": "Zahlungsarten"}
    assert shown["parentCategory"] == account["id"]
    assert shown["parentCollections"] == [public["id"]]
    titles = http.get(f"{K}/categories/{account['id']}/translations")
    Envelope[CategoryTranslations].model_validate(titles.json())
    assert {t["languageId"] for t in titles.json()["data"]["titles"]} == {"da", "de", "en"}

    states = []
    for item in articles:
        article = http.get(f"{K}/articles/{item['id']}")
        Envelope[Article].model_validate(article.json())
        states.append(article.json()["data"]["translation"])
    assert all(s["draft"]["language"] == "en" for s in states)
    assert any("published" not in s for s in states)  # a draft only
    published = [s["published"] for s in states if "published" in s]
    assert all(p["availableAt"]["helpCenterLinks"][0]["url"].startswith("https://")
               for p in published)
    internal_items = _articles(_data(http.get(f"{K}/collections/{internal['id']}/catalog")))
    kept = _data(http.get(f"{K}/articles/{internal_items[0]['id']}"))
    assert kept["restrictions"]["isRestricted"] is True
    assert kept["translation"]["published"]["availableAt"]["helpCenterLinks"] == []

    for path in (f"{K}/collections/{UNKNOWN}", f"{K}/collections/{UNKNOWN}/catalog",
                 f"{K}/categories/{UNKNOWN}", f"{K}/categories/{UNKNOWN}/translations",
                 f"{K}/articles/{UNKNOWN}", f"{K}/articles/{UNKNOWN}/translations"):
        assert http.get(path).status_code == 404, path
    for path, params in ((f"{K}/collections/nope", {}), (f"{K}/collections", {"pageKey": "x"}),
                         (f"{K}/collections", {"pageLimit": 0}),
                         (f"{K}/articles/{articles[0]['id']}", {"language": "not a language"})):
        assert http.get(path, params=params).status_code == 400, (path, params)
    assert http.get(f"{K}/articles/{articles[0]['id']}",
                    params={"language": "ja"}).status_code == 404


def test_article_life(http: httpx2.Client) -> None:
    collections = _data(http.get(f"{K}/collections"))
    tree = _data(http.get(f"{K}/collections/{collections[0]['id']}/catalog"))
    orders = tree["categories"][0]["id"]
    locked = next(c["id"] for c in tree["categories"] if c["title"]["title"] == "Announcements")
    tag = _data(http.get("/v1/tags"))[0]["id"]
    agent = _data(http.get("/v1/agents"))[0]["id"]

    created = http.post(f"{K}/articles", json={
        "translations": [{"languageId": "en", "title": "Gift cards",
                          "content": "<p>Gift cards never expire &amp; work online.</p>"}],
        "parentId": orders, "tags": [tag]})
    Envelope[Article].model_validate(created.json())
    article = created.json()["data"]
    aid = article["id"]
    assert article["parentCategory"] == orders and article["tags"] == [tag]
    draft = article["translation"]["draft"]
    assert draft["contents"]["plaintext"] == "Gift cards never expire & work online."
    assert "published" not in article["translation"] and draft["isIndexedVersion"] is False

    update = http.patch(f"{K}/articles/{aid}/translations", json={"translations": [
        {"languageId": "da", "title": "Gavekort", "content": "<p>Gavekort udløber aldrig.</p>"},
        {"languageId": "da", "title": "Igen"},
        {"languageId": "de", "title": "   "}]})
    TranslationsUpdate.model_validate(update.json())
    answer = update.json()
    assert [t["language"] for t in answer["data"]] == ["da"]
    assert {e["languageId"] for e in answer["partialErrors"]} == {"da", "de"}

    assert http.post(f"{K}/articles/{aid}/translations/da/publish").status_code == 204
    versions = http.get(f"{K}/articles/{aid}/translations")
    ArticleTranslations.model_validate(versions.json()["data"])
    listed = versions.json()["data"]["translations"]
    assert [t["language"] for t in listed["published"]] == ["da"]
    assert [t["language"] for t in listed["draft"]] == ["da", "en"]
    danish = _data(http.get(f"{K}/articles/{aid}", params={"language": "da"}))["translation"]
    assert danish["draft"]["isIndexedVersion"] is True
    assert danish["published"]["availableAt"]["helpCenterLinks"][0]["url"].endswith(
        f"/da/articles/{aid}")

    assert http.post(f"{K}/articles/{aid}/publish").status_code == 204
    shown = _data(http.get(f"{K}/articles/{aid}"))
    assert "published" in shown["translation"] and "indexedAt" in shown
    assert http.post(f"{K}/articles/{aid}/translations/en/unpublish").status_code == 204
    assert "published" not in _data(http.get(f"{K}/articles/{aid}"))["translation"]
    assert http.post(f"{K}/articles/{aid}/unpublish").status_code == 204
    assert _data(http.get(f"{K}/articles/{aid}/translations"))["translations"]["published"] == []

    changed = _data(http.patch(f"{K}/articles/{aid}", json={
        "ownedBy": agent, "tags": {"remove": [tag]}, "preRelease": True}))
    assert changed["ownedBy"] == agent and changed["tags"] == []

    assert http.patch(f"{K}/articles/{aid}/parent/{collections[1]['id']}").status_code == 204
    moved = _data(http.get(f"{K}/articles/{aid}"))
    assert moved["parentCollections"] == [collections[1]["id"]]
    assert "parentCategory" not in moved and moved["restrictions"]["isRestricted"] is True
    assert http.delete(f"{K}/articles/{aid}/parent").status_code == 204
    assert _data(http.get(f"{K}/articles/{aid}"))["parentCollections"] == []

    assert http.delete(f"{K}/articles/{aid}/translations/da").status_code == 204
    refusals: list[tuple[httpx2.Response, int]] = [
        (http.delete(f"{K}/articles/{aid}/translations/en"), 400),  # the last one
        (http.delete(f"{K}/articles/{aid}/translations/da"), 404),
        (http.post(f"{K}/articles/{aid}/translations/ja/publish"), 404),
        (http.post(f"{K}/articles/{aid}/translations/ja/unpublish"), 404),
        (http.post(f"{K}/articles/{aid}/translations/n%20o/publish"), 400),
        (http.patch(f"{K}/articles/{aid}/parent/{locked}"), 400),
        (http.patch(f"{K}/articles/{aid}/parent/{UNKNOWN}"), 404),
        (http.patch(f"{K}/articles/{aid}", json={"ownedBy": UNKNOWN}), 404),
        (http.patch(f"{K}/articles/{aid}", json={"tags": {"add": [UNKNOWN]}}), 404),
        (http.patch(f"{K}/articles/{aid}", json={"preRelease": "yes"}), 400),
        (http.patch(f"{K}/articles/{aid}/translations", json={"translations": []}), 400),
        (http.post(f"{K}/articles", json={"translations": []}), 400),
        (http.post(f"{K}/articles", json={"translations": [{"title": "no language"}]}), 400),
        (http.post(f"{K}/articles", json={"translations": [
            {"languageId": "en", "title": "x"}], "parentId": UNKNOWN}), 404),
        (http.post(f"{K}/articles/{UNKNOWN}/publish"), 404),
        (http.post(f"{K}/articles/{UNKNOWN}/unpublish"), 404),
        (http.delete(f"{K}/articles/{UNKNOWN}/parent"), 404),
        (http.post(f"{K}/articles/nope/publish"), 400),
    ]
    for response, status in refusals:
        assert response.status_code == status, (response.request.url, response.text)
        assert response.json()["message"]
    assert http.delete(f"{K}/articles/{aid}").status_code == 204
    assert http.get(f"{K}/articles/{aid}").status_code == 404
    assert http.delete(f"{K}/articles/{aid}").status_code == 404


def test_attachments(http: httpx2.Client) -> None:
    files = [("files", ("logo.png", PNG, "image/png")),
             ("files", ("note.txt", b"hello", "text/plain")),
             ("files", ("huge.gif", b"G" * (4 * 1024 * 1024 + 1), "image/gif"))]
    answer = http.post(f"{K}/articles/attachments", files=files)
    assert answer.status_code == 200, answer.text
    upload = AttachmentsUpload.model_validate(answer.json())
    assert [a.original_filename for a in upload.data or []] == ["logo.png"]
    assert {(e.original_filename, e.code) for e in upload.partial_errors or []} == {
        ("note.txt", 400), ("huge.gif", 400)}
    stored = http.get((upload.data or [])[0].url)
    assert stored.status_code == 200 and stored.content == PNG
    assert stored.headers["content-type"] == "image/png"

    six = [("files", (f"{n}.png", PNG, "image/png")) for n in range(6)]
    for response in (http.post(f"{K}/articles/attachments", files=six),
                     http.post(f"{K}/articles/attachments", json={"files": []}),
                     http.post(f"{K}/articles/attachments", files=[
                         ("other", ("a.png", PNG, "image/png"))])):
        assert response.status_code == 400, response.text
