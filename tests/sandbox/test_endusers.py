"""The sandbox's end users: create, read, list with filters and paging, their conversations."""

from __future__ import annotations

import httpx2
from factories_people import (
    add_agent,
    add_conversation,
    add_enduser,
    at,
    unique_email,
    user_ids,
    walk,
)

from frontdesk.api.models import Conversation, EndUser
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def message(response: httpx2.Response) -> str:
    """The error message of a refused request."""
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


# ---------------------------------------------------------------- create and read


def test_create_and_read_an_end_user(http: httpx2.Client) -> None:
    email = unique_email("ada")
    body = {
        "displayName": "Ada Lovelace", "email": email, "phoneNumber": "+4520000001",
        "additionalEmails": ["ada@old.test"], "additionalPhoneNumbers": ["+4520000002"],
        "firstName": "Ada", "lastName": "Lovelace", "middleNames": ["Augusta"],
        "avatarUrl": "https://example.test/ada.png", "externalId": "crm-ada",
    }
    created = http.post("/v1/endusers", json=body)
    assert created.status_code == 200, created.text
    user = EndUser.model_validate(created.json()["data"])
    assert user.email == email and user.middle_names == ["Augusta"]
    assert user.external_id == "crm-ada" and user.custom_attributes == []

    read = http.get(f"/v1/endusers/{user.id}")
    assert read.status_code == 200
    assert read.json()["data"] == created.json()["data"]


def test_an_end_user_needs_no_field(http: httpx2.Client) -> None:
    created = http.post("/v1/endusers", json={})
    assert created.status_code == 200
    data = created.json()["data"]
    assert set(data) == {"id", "createdAt", "customAttributes"}
    EndUser.model_validate(data)


def test_invalid_bodies_are_refused(http: httpx2.Client) -> None:
    before = len(user_ids_all(http))
    for body in ({"email": "not-an-email"}, {"displayName": 5}, {"displayName": "  "},
                 {"externalId": ""}, ["a"]):
        response = http.post("/v1/endusers", json=body)
        assert response.status_code == 400, body
        assert message(response).startswith("Invalid value in request")
    garbled = http.post("/v1/endusers", content=b"{", headers={"Content-Type":
                                                                "application/json"})
    assert garbled.status_code == 400
    assert "Decoding failure" in message(garbled)
    assert len(user_ids_all(http)) == before


def user_ids_all(http: httpx2.Client) -> list[str]:
    """Every end user id, through the API."""
    items, _ = walk(http, "/v1/endusers", {"pageLimit": 500})
    return [item["id"] for item in items]


def test_a_taken_external_id_is_refused_a_shared_email_is_not(
        http: httpx2.Client, sandbox: SandboxServer) -> None:
    email = unique_email("shared")
    first = http.post("/v1/endusers", json={"email": email, "externalId": "ext-1"})
    assert first.status_code == 200
    again = http.post("/v1/endusers", json={"displayName": "Other", "externalId": "ext-1"})
    assert again.status_code == 400
    assert "ext-1" in message(again)
    assert sandbox.query("SELECT COUNT(*) AS n FROM users WHERE external_id = 'ext-1'")[0][
        "n"] == 1
    second = http.post("/v1/endusers", json={"email": email})
    assert second.status_code == 200
    found = http.get("/v1/endusers", params={"email": email.upper()}).json()["data"]
    assert {u["id"] for u in found} == {first.json()["data"]["id"],
                                         second.json()["data"]["id"]}


def test_read_refusals(http: httpx2.Client, sandbox: SandboxServer) -> None:
    assert http.get(f"/v1/endusers/{UNKNOWN}").status_code == 404
    bad = http.get("/v1/endusers/not-a-uuid")
    assert bad.status_code == 400
    assert "userId" in message(bad)
    agent_id = add_agent(sandbox)
    assert http.get(f"/v1/endusers/{agent_id}").status_code == 404


# ---------------------------------------------------------------- list


def test_paging_through_every_end_user(empty_http: httpx2.Client,
                                       empty_sandbox: SandboxServer) -> None:
    for n in range(5):
        add_enduser(empty_sandbox, display_name=f"User {n}", created_at=at(empty_sandbox, n))
    add_enduser(empty_sandbox, display_name="Twin", created_at=at(empty_sandbox, 2))
    add_agent(empty_sandbox)
    items, pages = walk(empty_http, "/v1/endusers", {"pageLimit": 2})
    expected = user_ids(empty_sandbox, "enduser")
    assert [item["id"] for item in items] == expected
    assert len(expected) >= 6
    assert pages == -(-len(expected) // 2)
    for item in items:
        assert "customAttributes" not in item
        EndUser.model_validate(item)


def test_last_page_has_no_next_link(empty_http: httpx2.Client,
                                    empty_sandbox: SandboxServer) -> None:
    for _ in range(2):
        add_enduser(empty_sandbox)
    total = len(user_ids(empty_sandbox, "enduser"))
    body = empty_http.get("/v1/endusers", params={"pageLimit": total}).json()
    assert len(body["data"]) == total
    assert "meta" not in body or not body["meta"].get("next")


def test_filters(http: httpx2.Client, sandbox: SandboxServer) -> None:
    email = unique_email("filter")
    target = add_enduser(sandbox, email=email, phone_number="+4599990000",
                         external_id="filter-ext")
    add_enduser(sandbox, email=unique_email("other"))
    for params in ({"email": email.upper()}, {"phone": "+4599990000"},
                   {"externalId": "filter-ext"}):
        body = http.get("/v1/endusers", params=params).json()
        assert [u["id"] for u in body["data"]] == [target], params
    assert http.get("/v1/endusers", params={"externalId": "nobody"}).json()["data"] == []


def test_more_than_one_filter_is_refused(http: httpx2.Client) -> None:
    for params in ({"email": "a@b.io", "phone": "+451"}, {"email": "a@b.io", "externalId": "x"},
                   {"phone": "+451", "externalId": "x"}):
        response = http.get("/v1/endusers", params=params)
        assert response.status_code == 400
        assert message(response) == "Cannot provide more than one filter"


def test_bad_paging_parameters(http: httpx2.Client) -> None:
    for params in ({"pageLimit": 0}, {"pageLimit": 501}, {"pageLimit": "many"},
                   {"pageKey": "%%%"}, {"pageKey": "bm90LWpzb24"}, {"pageKey": "WzFd"}):
        assert http.get("/v1/endusers", params=params).status_code == 400, params


def test_filter_survives_into_the_next_link(http: httpx2.Client, sandbox: SandboxServer) -> None:
    email = unique_email("paged")
    ids = [add_enduser(sandbox, email=email, created_at=at(sandbox, n)) for n in range(3)]
    items, pages = walk(http, "/v1/endusers", {"email": email, "pageLimit": 2})
    assert [u["id"] for u in items] == ids
    assert pages == 2


# ---------------------------------------------------------------- conversations


def test_conversations_of_an_end_user_newest_first(http: httpx2.Client,
                                                    sandbox: SandboxServer) -> None:
    user = add_enduser(sandbox)
    other = add_enduser(sandbox)
    ids = [add_conversation(sandbox, user, created_at=at(sandbox, -100 + n)) for n in range(5)]
    add_conversation(sandbox, other)
    items, pages = walk(http, f"/v1/endusers/{user}/conversations", {"pageLimit": 2})
    assert [c["id"] for c in items] == list(reversed(ids))
    assert pages == 3
    for item in items:
        assert "customAttributes" not in item
        assert Conversation.model_validate(item).requester_id == user


def test_conversations_refusals(http: httpx2.Client, sandbox: SandboxServer) -> None:
    assert http.get(f"/v1/endusers/{UNKNOWN}/conversations").status_code == 404
    assert http.get("/v1/endusers/nope/conversations").status_code == 400
    user = add_enduser(sandbox)
    assert http.get(f"/v1/endusers/{user}/conversations").json() == {"data": []}
    key = http.get(f"/v1/endusers/{user}/conversations", params={"pageKey": "eyJhIjoxfQ"})
    assert key.status_code == 400


# ---------------------------------------------------------------- updates (published beyond the
# spec's tables)


def test_put_replaces_patch_changes_only_what_it_carries(http: httpx2.Client,
                                                         sandbox: SandboxServer) -> None:
    made = http.post("/v1/endusers", json={
        "displayName": "Alice Brown", "email": unique_email("alice"), "firstName": "Alice",
        "phoneNumber": "+551155256325", "middleNames": ["J."], "externalId": "#alice"}).json()
    path = f"/v1/endusers/{made['data']['id']}"
    patched = http.patch(path, json={"lastName": "Brown", "phoneNumber": None})
    assert patched.status_code == 200, patched.text
    data = EndUser.model_validate(patched.json()["data"])
    assert (data.first_name, data.last_name, data.phone_number, data.external_id) == (
        "Alice", "Brown", None, "#alice")
    replaced = http.put(path, json={"displayName": "Alice B.", "additionalEmails": ["a@b.io"]})
    assert replaced.status_code == 200, replaced.text
    data = EndUser.model_validate(replaced.json()["data"])
    assert (data.display_name, data.additional_emails, data.first_name, data.external_id,
            data.middle_names) == ("Alice B.", ["a@b.io"], None, None, None)
    assert http.get(path).json()["data"] == replaced.json()["data"]

    other = add_enduser(sandbox, external_id="#taken")
    for method, body in (("PUT", {"lastName": "x"}), ("PUT", {"displayName": " "}),
                         ("PATCH", {}), ("PATCH", {"displayName": None}),
                         ("PATCH", {"externalId": "#taken"}), ("PATCH", {"email": "nope"}),
                         ("PATCH", {"middleNames": "J."})):
        refused = http.request(method, path, json=body)
        assert refused.status_code == 400, (method, body, refused.text)
    assert http.patch(f"/v1/endusers/{other}", json={"externalId": "#taken"}).status_code == 200
    assert http.put(f"/v1/endusers/{UNKNOWN}", json={"displayName": "x"}).status_code == 404
    assert http.patch(f"/v1/endusers/{add_agent(sandbox)}",
                      json={"displayName": "x"}).status_code == 404
    assert http.patch("/v1/endusers/not-a-uuid", json={"displayName": "x"}).status_code == 400
    assert http.get(path).json()["data"] == replaced.json()["data"]


def test_bulk_updates_and_creates_answer_one_outcome_each(http: httpx2.Client,
                                                          sandbox: SandboxServer) -> None:
    first, second = add_enduser(sandbox), add_enduser(sandbox, first_name="Bo")
    put = http.put("/v1/endusers", json={"data": [
        {"id": first, "displayName": "First"}, {"id": UNKNOWN, "displayName": "Nobody"},
        {"id": second, "displayName": " "}]})
    assert put.status_code == 200, put.text
    outcomes = put.json()["data"]
    assert [o["_type"] for o in outcomes] == ["BulkActionSuccess", "BulkActionFailure",
                                              "BulkActionFailure"]
    assert outcomes[0]["data"]["displayName"] == "First"
    assert (outcomes[1]["error"]["_type"], outcomes[1]["error"]["id"]) == ("NotFound", UNKNOWN)
    assert outcomes[2]["error"]["_type"] == "Validation"

    patch = http.patch("/v1/endusers", json={"data": [
        {"id": second, "lastName": "Berg"}, {"id": first}]})
    assert [o["_type"] for o in patch.json()["data"]] == ["BulkActionSuccess",
                                                          "BulkActionFailure"]
    assert patch.json()["data"][0]["data"]["firstName"] == "Bo"
    assert patch.json()["data"][1]["error"]["_type"] == "EmptyPatchSet"

    created = http.post("/v1/endusers/bulk", json={"data": [
        {"displayName": "Enduser 0", "externalId": "#bulk-1"},
        {"displayName": "Enduser 1", "externalId": "#bulk-1"}, {}]})
    assert created.status_code == 200, created.text
    kinds = [o["_type"] for o in created.json()["data"]]
    assert kinds == ["BulkActionSuccess", "BulkActionFailure", "BulkActionSuccess"]
    made = EndUser.model_validate(created.json()["data"][0]["data"])
    assert http.get(f"/v1/endusers/{made.id}").status_code == 200
    for method, path, body in (("PUT", "/v1/endusers", {"data": []}),
                               ("PATCH", "/v1/endusers", {"data": [{"lastName": "x"}]}),
                               ("POST", "/v1/endusers/bulk", {"data": [{"email": "x"}]}),
                               ("POST", "/v1/endusers/bulk", [])):
        assert http.request(method, path, json=body).status_code == 400, (method, body)
    assert http.get("/v1/endusers/bulk").status_code == 405
