"""The sandbox's custom attributes: definitions, and patching end users and conversations."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from frontdesk.api.models import CustomAttributeDefinition, CustomAttributeValue
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def option(value: str, *nested: dict[str, Any], deactivated: bool = False, index: int = 0
           ) -> dict[str, Any]:
    """A Select option in wire form."""
    return {"id": records.new_id(), "label": value.title(), "value": value,
            "nestedOptions": list(nested), "isDeactivated": deactivated, "orderIndex": index}


PRODUCTS = {"_type": "Select", "options": [
    option("hardware", option("laptop"), option("phone", option("android"), option("ios")),
           option("fax", deactivated=True)),
    option("software", option("licence"), index=1),
    option("legacy", option("mainframe"), deactivated=True, index=2),
]}


def make_world(sandbox: SandboxServer) -> dict[str, Any]:
    """Definitions of both entity types and kinds, an end user, an agent and a conversation."""

    def write(ctx: SandboxContext) -> dict[str, Any]:
        now = ctx.now_iso()
        db = ctx.db
        with db.tx():
            ids: dict[str, Any] = {
                "product": records.insert_attribute_definition(
                    db, entity_type="Conversation", identifier="product", label="Product",
                    input_definition=PRODUCTS, created_at=now, description="What it is about",
                    position=1),
                "parcel": records.insert_attribute_definition(
                    db, entity_type="Conversation", identifier="parcel_id", label="Parcel",
                    input_definition={"_type": "Text", "placeholder": "e.g. 123"},
                    created_at=now, updated_at=now, position=2),
                "tier": records.insert_attribute_definition(
                    db, entity_type="Contact", identifier="tier", label="Tier",
                    input_definition={"_type": "Select", "options": [option("gold"),
                                                                      option("silver")]},
                    created_at=now, is_required=True),
                "nickname": records.insert_attribute_definition(
                    db, entity_type="Contact", identifier="nickname", label="Nickname",
                    input_definition={"_type": "Text"}, created_at=now),
                "archived": records.insert_attribute_definition(
                    db, entity_type="Conversation", identifier="old", label="Old",
                    input_definition={"_type": "Text"}, created_at=now, is_archived=True),
                "off": records.insert_attribute_definition(
                    db, entity_type="Conversation", identifier="off", label="Off",
                    input_definition={"_type": "Text"}, created_at=now, is_deactivated=True),
            }
            ids["user"] = records.insert_user(db, kind="enduser", created_at=now)
            ids["agent"] = records.insert_user(db, kind="agent", created_at=now,
                                               email=f"{ctx.new_id()}@a.test")
            ids["csid"] = records.insert_conversation(
                db, type="ChatConversation", channel="WidgetChat", requester_id=ids["user"],
                created_at=now)
        return ids

    return sandbox.call(write)


def message(response: httpx2.Response) -> str:
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


@pytest.fixture
def world(sandbox: SandboxServer) -> dict[str, Any]:
    return make_world(sandbox)


def test_definitions(http: httpx2.Client, world: dict[str, Any]) -> None:
    listed = http.get("/v1/custom-attributes")
    assert listed.status_code == 200
    by_id = {d["id"]: d for d in listed.json()["data"]}
    for key in ("product", "parcel", "tier", "nickname", "archived", "off"):
        CustomAttributeDefinition.model_validate(by_id[world[key]])
    product = http.get(f"/v1/custom-attributes/{world['product']}").json()["data"]
    assert product == by_id[world["product"]]
    model = CustomAttributeDefinition.model_validate(product)
    assert model.entity_type == "Conversation"
    assert model.description == "What it is about"
    assert product["createdAt"] == "2026-01-05T09:00:00.000Z[GMT]"
    options = model.input_definition.options or []
    assert [o.value for o in options] == ["hardware", "software", "legacy"]
    assert [o.value for o in options[0].nested_options[1].nested_options] == ["android", "ios"]
    assert by_id[world["archived"]]["isArchived"] is True
    assert by_id[world["off"]]["isDeactivated"] is True
    assert by_id[world["tier"]]["isRequired"] is True
    assert http.get(f"/v1/custom-attributes/{UNKNOWN}").status_code == 404
    assert http.get("/v1/custom-attributes/not-an-id").status_code == 400


def test_patch_a_conversation(http: httpx2.Client, world: dict[str, Any]) -> None:
    url = f"/v1/conversations/{world['csid']}/custom-attributes"
    response = http.patch(url, json={world["product"]: ["hardware", "phone", "ios"],
                                     world["parcel"]: "PX-1"})
    assert response.status_code == 200, response.text
    values = [CustomAttributeValue.model_validate(v) for v in response.json()["data"]]
    assert [(v.identifier, v.value) for v in values] == [
        ("product", ["hardware", "phone", "ios"]), ("parcel_id", "PX-1")]
    assert values[0].name == "Product"

    # a partial path is a choice too; other values are kept
    response = http.patch(url, json={world["product"]: ["software"]})
    assert [v["value"] for v in response.json()["data"]] == [["software"], "PX-1"]
    # null clears
    response = http.patch(url, json={world["parcel"]: None})
    assert [v["identifier"] for v in response.json()["data"]] == ["product"]
    # an empty patch changes nothing
    assert http.patch(url, json={}).json()["data"] == response.json()["data"]


@pytest.mark.parametrize(("value", "words"), [
    (["laptop"], "not a top-level option"),
    (["hardware", "android"], "not an option under 'hardware'"),
    (["hardware", "phone", "nokia"], "not an option under 'phone'"),
    (["hardware", "fax"], "deactivated"),
    (["legacy", "mainframe"], "deactivated"),
    ([], "non-empty list"),
    ("hardware", "non-empty list"),
])
def test_bad_select_values(http: httpx2.Client, world: dict[str, Any], value: Any,
                           words: str) -> None:
    url = f"/v1/conversations/{world['csid']}/custom-attributes"
    response = http.patch(url, json={world["parcel"]: "kept?", world["product"]: value})
    assert response.status_code == 400
    assert words in message(response)
    # all or nothing: the valid entry before the bad one was not written
    assert http.patch(url, json={}).json()["data"] == []


def test_patch_refusals(http: httpx2.Client, world: dict[str, Any]) -> None:
    url = f"/v1/conversations/{world['csid']}/custom-attributes"
    cases = {
        "does not exist": {UNKNOWN: "x"},
        "belongs to end users": {world["nickname"]: "Ada"},
        "is archived": {world["archived"]: "x"},
        "is deactivated": {world["off"]: None},
        "is a Text": {world["parcel"]: ["a"]},
    }
    for words, body in cases.items():
        response = http.patch(url, json=body)
        assert response.status_code == 400, body
        assert words in message(response)
    assert http.patch(url, json={"not-a-uuid": "x"}).status_code == 400
    assert http.patch(url, json={world["parcel"]: 5}).status_code == 400
    assert http.patch(url, json=["x"]).status_code == 400
    assert http.patch(url, content=b"{", headers={"content-type": "application/json"}
                      ).status_code == 400
    assert http.patch("/v1/conversations/999999/custom-attributes",
                      json={}).status_code == 404


def test_patch_an_end_user(http: httpx2.Client, sandbox: SandboxServer,
                           world: dict[str, Any]) -> None:
    url = f"/v1/endusers/{world['user']}/custom-attributes"
    response = http.patch(url, json={world["tier"]: ["gold"], world["nickname"]: "Ada"})
    assert response.status_code == 200, response.text
    assert {v["identifier"]: v["value"] for v in response.json()["data"]} == {
        "tier": ["gold"], "nickname": "Ada"}
    stored = sandbox.query("SELECT value FROM custom_attribute_values WHERE entity_type = "
                           "'Contact' AND entity_id = ? AND attribute_id = ?",
                           (world["user"], world["tier"]))
    assert stored == [{"value": '["gold"]'}]
    wrong = http.patch(url, json={world["parcel"]: "PX"})
    assert wrong.status_code == 400
    assert "belongs to conversations" in message(wrong)
    assert http.patch(f"/v1/endusers/{UNKNOWN}/custom-attributes", json={}).status_code == 404
    assert http.patch(f"/v1/endusers/{world['agent']}/custom-attributes",
                      json={}).status_code == 404
    assert http.patch("/v1/endusers/nope/custom-attributes", json={}).status_code == 400
