"""The deprecated endpoint listing at the integrations prefix: auth, cursor paging, by id."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from frontdesk.api.models import Endpoint, EndpointPage
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.records import INTERNAL_EMAIL_DOMAIN
from frontdesk.sandbox.server import SandboxServer


def make_endpoints(sandbox: SandboxServer) -> dict[str, str]:
    """Two email endpoints and two phone endpoints; answers legacy id → kind."""
    tag = uuid.uuid4().hex[:8]
    digits = str(uuid.uuid4().int)[:8]

    def write(ctx: SandboxContext) -> dict[str, str]:
        ids: dict[str, str] = {}
        with ctx.db.tx():
            for n in range(2):
                legacy = f"legacy-mail-{tag}-{n}"
                records.insert_contact_endpoint(ctx.db, address=f"desk{n}-{tag}@shop.test",
                                                legacy_id=legacy, position=n)
                ids[legacy] = "email_address"
                legacy = f"legacy-phone-{tag}-{n}"
                records.insert_contact_endpoint(ctx.db, number=f"+45{digits[:7]}{n}",
                                                legacy_id=legacy, position=n)
                ids[legacy] = "phone_number"
        return ids

    return sandbox.call(write)


@pytest.fixture
def legacy(sandbox: SandboxServer) -> Iterator[httpx2.Client]:
    """A client of the integrations interface signed in with a bearer token."""
    with httpx2.Client(base_url=sandbox.integrations_url,
                      headers={"Authorization": f"Bearer {sandbox.key}"}, timeout=10) as client:
        yield client


def ids_of(page: dict[str, Any]) -> list[str]:
    out = []
    for item in page["data"]:
        (kind, member), = item.items()
        out.append(f"{kind}:{member['id']}")
    return out


def test_list_with_bearer_and_with_plain_key(legacy: httpx2.Client, sandbox: SandboxServer
                                             ) -> None:
    mine = make_endpoints(sandbox)
    response = legacy.get("/v1/endpoints")
    assert response.status_code == 200
    page = EndpointPage.model_validate(response.json())
    listed = {f"{k}:{v}" for k, v in ((m, getattr(e, m).id) for e in page.data
                                       for m in ("email_address", "phone_number")
                                       if getattr(e, m) is not None)}
    assert {f"{kind}:{legacy_id}" for legacy_id, kind in mine.items()} <= listed
    for item in response.json()["data"]:
        assert len(item) == 1  # single-key objects
        (kind, member), = item.items()
        if member["id"] not in mine:
            continue
        if kind == "email_address":
            assert member["internal_email_address"].endswith("@" + INTERNAL_EMAIL_DOMAIN)
            assert member["spf_email"].startswith("desk")
        else:
            assert member["phone_number"].startswith("+45")
    plain = httpx2.get(sandbox.integrations_url + "/v1/endpoints",
                      headers={"Authorization": sandbox.key})
    assert plain.status_code == 200
    assert plain.json()["data"] == response.json()["data"]


def test_auth_is_required(sandbox: SandboxServer) -> None:
    url = sandbox.integrations_url + "/v1/endpoints"
    assert httpx2.get(url).status_code == 401
    assert httpx2.get(url, headers={"Authorization": "Bearer wrong"}).status_code == 401
    # the main interface does not take the bearer form
    main = httpx2.get(sandbox.base_url + "/v1/contact-endpoints",
                     headers={"Authorization": f"Bearer {sandbox.key}"})
    assert main.status_code == 401


def test_type_filter(legacy: httpx2.Client, sandbox: SandboxServer) -> None:
    make_endpoints(sandbox)
    emails = legacy.get("/v1/endpoints", params={"type": "email_address"}).json()["data"]
    phones = legacy.get("/v1/endpoints", params={"type": "phone_number"}).json()["data"]
    assert emails and all(set(e) == {"email_address"} for e in emails)
    assert phones and all(set(p) == {"phone_number"} for p in phones)
    everything = legacy.get("/v1/endpoints", params={"limit": 500}).json()["data"]
    assert len(emails) + len(phones) == len(everything)
    bad = legacy.get("/v1/endpoints", params={"type": "fax"})
    assert bad.status_code == 400
    assert set(bad.json()) == {"message"}


def test_paging_forward_and_back_with_limit_one(legacy: httpx2.Client, sandbox: SandboxServer
                                                ) -> None:
    make_endpoints(sandbox)
    everything = ids_of(legacy.get("/v1/endpoints", params={"limit": 500}).json())
    seen: list[str] = []
    pages: list[dict[str, Any]] = []
    url: str | None = "/v1/endpoints?limit=1"
    while url is not None:
        response = legacy.get(url)
        assert response.status_code == 200
        body = response.json()
        EndpointPage.model_validate(body)
        pages.append(body)
        seen.extend(ids_of(body))
        url = body["paging"].get("next_page")
        if url is not None:
            assert url.startswith(sandbox.integrations_url + "/v1/endpoints?")
            assert "limit=1" in url
        assert len(pages) <= len(everything)
    assert seen == everything
    assert "prev_page" not in pages[0]["paging"]
    assert "next_page" not in pages[-1]["paging"]
    # and back again from the last page
    back: list[str] = []
    url = pages[-1]["paging"].get("prev_page")
    while url is not None:
        body = legacy.get(url).json()
        back = ids_of(body) + back
        url = body["paging"].get("prev_page")
    assert back + ids_of(pages[-1]) == everything


def test_paging_keeps_the_filter_and_uses_both_cursors(legacy: httpx2.Client,
                                                       sandbox: SandboxServer) -> None:
    make_endpoints(sandbox)
    first = legacy.get("/v1/endpoints", params={"type": "phone_number", "limit": 1}).json()
    assert "type=phone_number" in first["paging"]["next_page"]
    cursors = first["paging"]["cursors"]
    assert set(cursors) == {"after", "before"}
    second = legacy.get("/v1/endpoints", params={"type": "phone_number", "limit": 1,
                                                 "after": cursors["after"]}).json()
    again = legacy.get("/v1/endpoints", params={
        "type": "phone_number", "limit": 1,
        "before": second["paging"]["cursors"]["before"]}).json()
    assert again["data"] == first["data"]


@pytest.mark.parametrize("params", [
    {"after": "garbage!"}, {"before": "e30"}, {"after": "x", "before": "y"},
    {"limit": 0}, {"limit": 501}, {"limit": "many"},
])
def test_bad_paging_is_400(legacy: httpx2.Client, params: dict[str, Any]) -> None:
    response = legacy.get("/v1/endpoints", params=params)
    assert response.status_code == 400
    assert set(response.json()) == {"message"}


def test_read_by_id(legacy: httpx2.Client, sandbox: SandboxServer) -> None:
    mine = make_endpoints(sandbox)
    for legacy_id, kind in mine.items():
        response = legacy.get(f"/v1/endpoints/{legacy_id}")
        assert response.status_code == 200
        data = response.json()["data"]
        assert set(data) == {"email_address", "phone_number"}
        other = "phone_number" if kind == "email_address" else "email_address"
        assert data[other] is None
        assert data[kind]["id"] == legacy_id
        Endpoint.model_validate(data)
    missing = legacy.get("/v1/endpoints/no-such-endpoint")
    assert missing.status_code == 404
    assert set(missing.json()) == {"message"}


def test_marked_deprecated_with_both_schemes(http: httpx2.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    for path in ("/integrations/v1/endpoints", "/integrations/v1/endpoints/{id}"):
        operation = paths[path]["get"]
        assert operation["deprecated"] is True
        assert {"BearerAuth": []} in operation["security"]
