"""The sandbox's knowledge answers fit the service's published schemas, whole bodies included
(a copy lives in published/knowledge.json, its source and changes named there)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import httpx2
import jsonschema_rs

PUBLISHED = json.loads((Path(__file__).parent / "published" / "knowledge.json").read_text())
K = "/v1/knowledge"


@cache
def _validator(name: str) -> Any:
    return jsonschema_rs.validator_for(
        {"$ref": f"#/components/schemas/{name}", "components": PUBLISHED["components"]})


def fits(response: httpx2.Response, name: str, status: int = 200) -> Any:
    """The response has ``status`` and its body fits the published schema ``name``."""
    assert response.status_code == status, response.text
    body = response.json()
    problems = [f"{'/'.join(map(str, e.instance_path))}: {e.message}"
                for e in _validator(name).iter_errors(body)]
    assert problems == [], (name, body)
    return body


def test_knowledge_answers_fit_the_published_schemas(http: httpx2.Client) -> None:
    collections = fits(http.get(f"{K}/collections"), "ListKnowledgeCollectionsOutput")["data"]
    article_ids: list[str] = []
    for collection in collections:
        fits(http.get(f"{K}/collections/{collection['id']}"), "GetKnowledgeCollectionOutput")
        catalog = fits(http.get(f"{K}/collections/{collection['id']}/catalog",
                                params={"language": "da"}),
                       "GetKnowledgeCollectionCatalogOutput")["data"]
        pending = list(catalog["categories"])
        article_ids += [a["id"] for a in catalog["articles"]]
        while pending:
            category = pending.pop()
            pending += category["categories"]
            article_ids += [a["id"] for a in category["articles"]]
            fits(http.get(f"{K}/categories/{category['id']}"), "GetKnowledgeCategoryOutput")
            fits(http.get(f"{K}/categories/{category['id']}/translations"),
                 "GetKnowledgeCategoryTranslationsOutput")
    assert len(article_ids) >= 10
    for article_id in article_ids:
        fits(http.get(f"{K}/articles/{article_id}"), "GetKnowledgeArticleOutput")
        fits(http.get(f"{K}/articles/{article_id}/translations"),
             "GetKnowledgeArticleTranslationsOutput")

    request = {"translations": [{"languageId": "en", "title": "Shapes", "content": "<p>x</p>"}],
               "parentId": collections[0]["id"], "preRelease": False}
    assert not list(_validator("CreateKnowledgeArticleInput").iter_errors(request))
    created = fits(http.post(f"{K}/articles", json=request),
                   "CreateKnowledgeArticleOutput")["data"]
    fits(http.patch(f"{K}/articles/{created['id']}", json={"preRelease": True}),
         "UpdateKnowledgeArticleOutput")
    fits(http.patch(f"{K}/articles/{created['id']}/translations", json={"translations": [
        {"languageId": "da", "title": "Former"}, {"languageId": "de", "title": " "}]}),
        "UpdateTranslationsOutput")
    fits(http.post(f"{K}/articles/attachments", files=[
        ("files", ("a.png", b"\x89PNG", "image/png")), ("files", ("b.txt", b"b", "text/plain"))]),
        "UploadAttachmentsOutput")
    fits(http.get(f"{K}/articles/{created['id']}", params={"language": "ja"}), "NotFound", 404)
    fits(http.get(f"{K}/articles/nope"), "BadRequest", 400)
