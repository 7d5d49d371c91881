"""The sandbox's templates: a seeded set in several languages, paged, filtered by type, and
deleted for good."""

from __future__ import annotations

import httpx2
from factories_people import walk

from frontdesk.api.models import PagedEnvelope, Template

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def test_templates_list_filter_and_delete(http: httpx2.Client) -> None:
    first = http.get("/v1/templates", params={"pageLimit": 3})
    assert first.status_code == 200, first.text
    PagedEnvelope[Template].model_validate(first.json())
    everything, pages = walk(http, "/v1/templates", {"pageLimit": 3})
    assert pages > 1
    templates = [Template.model_validate(t) for t in everything]
    assert len(templates) >= 8 and len({t.id for t in templates}) == len(templates)
    assert {t.type for t in templates} == {"QuickResponse", "EmailAutoReply"}
    locales = {tr.locale for t in templates for tr in t.translations or []}
    assert {"da", "de", "es", "ja", "ar"} <= locales
    agents = {a["id"] for a in walk(http, "/v1/agents", {"pageLimit": 100})[0]}
    assert {t.created_by for t in templates} <= agents
    assert any(tr.is_deactivated for t in templates for tr in t.translations or [])
    assert all("{{" in t.content for t in templates if t.type == "EmailAutoReply")

    replies = http.get("/v1/templates", params={"type": "EmailAutoReply"}).json()["data"]
    assert replies and {t["_type"] for t in replies} == {"EmailAutoReply"}
    for bad in ({"type": "Macro"}, {"pageLimit": 0}, {"pageKey": "nope"}):
        assert http.get("/v1/templates", params=bad).status_code == 400, bad

    gone = replies[0]["id"]
    assert http.delete(f"/v1/templates/{gone}").status_code == 204
    assert gone not in {t["id"] for t in walk(http, "/v1/templates")[0]}
    assert http.delete(f"/v1/templates/{gone}").status_code == 404
    assert http.delete(f"/v1/templates/{UNKNOWN}").status_code == 404
    assert http.delete("/v1/templates/not-a-uuid").status_code == 400
    assert http.get(f"/v1/templates/{UNKNOWN}").status_code == 405
