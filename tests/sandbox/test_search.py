"""The sandbox's conversation search: text, highlights, every filter field, paging, refusals."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from factories_conversations import (
    SMS_NUMBER,
    Org,
    advance,
    create_chat,
    create_email,
    enduser,
    inbound,
    org,
    outbound,
    tag,
    tag_conversation,
)

from frontdesk.api.models import PagedEnvelope, SearchHit
from frontdesk.sandbox.db import dumps, iso
from frontdesk.sandbox.server import SandboxServer

EM = '<em class="highlight">{}</em>'


@dataclass
class Scene:
    """Five conversations of one customer, created a minute apart (see ``scene``)."""

    world: Org
    email: int
    chat: int
    sms: int
    pending: int
    callback: int
    tag1: str
    tag2: str
    start: str

    @property
    def all(self) -> set[int]:
        return {self.email, self.chat, self.sms, self.pending, self.callback}


def cond(kind: str, op: str, **members: Any) -> dict[str, Any]:
    """One filter condition."""
    field: dict[str, Any] = {"_type": kind, "operator": {"_type": op, **members}}
    if "attributeId" in members:
        field["attributeId"] = field["operator"].pop("attributeId")
    return {"field": field}


def search(http: httpx2.Client, body: Any = None, **params: Any) -> list[int]:
    """Ids of the hits of one page (checked against the contract's models)."""
    response = http.post("/v1/search/conversations", json=body, params=params)
    assert response.status_code == 200, response.text
    page = PagedEnvelope[SearchHit].model_validate(response.json())
    return [hit.id for hit in page.data]


def mine(http: httpx2.Client, scene: Scene, *conditions: dict[str, Any],
         query: dict[str, Any] | None = None) -> set[int]:
    """Hits among the scene's conversations only (ContactId scopes to its customer)."""
    scope = cond("ContactId", "IsOneOf", values=[scene.world.requester])
    body: dict[str, Any] = {"filters": {"strategy": "All", "conditions": [scope, *conditions]}}
    if query is not None:
        body["query"] = query
    return set(search(http, body, pageLimit=500))


@pytest.fixture
def scene(sandbox: SandboxServer, http: httpx2.Client) -> Scene:
    """email (tag1) → chat (tag1, tag2, claimed) → sms (outbound, closed after 60 s)
    → pending chat → callback in the other queue; each a minute after the one before."""
    advance(sandbox, 86_400)
    world = org(sandbox)
    start = iso(sandbox.clock.now())
    tag1, tag2 = tag(sandbox), tag(sandbox)
    email = create_email(http, world.requester, "Broken lamp order",
                         inbound("My lamp flickers since Tuesday"))
    advance(sandbox, 60)
    chat = create_chat(http, world.requester, inbound("Where is my parcel? Order 100% late"))
    http.put(f"/v1/conversations/{chat}/claim", json={"agentId": world.agent})
    advance(sandbox, 60)
    sms = http.post("/v1/conversations", json={
        "_type": "Sms", "requesterId": world.requester, "contactEndpointId": SMS_NUMBER,
        "message": outbound(world.other_agent, "Your parcel shipped")}).json()["data"]["id"]
    advance(sandbox, 60)
    http.put(f"/v1/conversations/{sms}/close")
    pending = create_chat(http, world.requester, inbound("Call me back tomorrow"))
    http.put(f"/v1/conversations/{pending}/followup",
             json={"timestamp": iso(sandbox.clock.now() + timedelta(days=1))})
    advance(sandbox, 60)
    callback = http.post("/v1/conversations", json={
        "_type": "Callback", "requesterId": world.requester, "direction": "Inbound",
        "contactEndpointId": SMS_NUMBER, "queueId": world.queue}).json()["data"]["id"]
    for cid, tag_id in ((email, tag1), (chat, tag1), (chat, tag2)):
        tag_conversation(sandbox, cid, tag_id)
    return Scene(world, email, chat, sms, pending, callback, tag1, tag2, start)


# ---------------------------------------------------------------- everything, text


def test_without_a_body_every_conversation_is_a_hit(http: httpx2.Client, scene: Scene) -> None:
    response = http.post("/v1/search/conversations", params={"pageLimit": 500})
    assert response.status_code == 200
    hits = response.json()["data"]
    assert all(h["highlights"] == {} for h in hits)
    assert scene.callback in {h["id"] for h in hits}


def test_hits_come_newest_activity_first(http: httpx2.Client, scene: Scene) -> None:
    body = {"filters": {"strategy": "All", "conditions": [
        cond("ContactId", "IsOneOf", values=[scene.world.requester])]}}
    # the callback came last; the pending chat's follow-up came after the sms closed
    assert search(http, body) == [scene.callback, scene.pending, scene.sms, scene.chat,
                                  scene.email]


def test_all_words_must_occur(http: httpx2.Client, scene: Scene) -> None:
    assert mine(http, scene, query={"value": "parcel late"}) == {scene.chat}
    assert mine(http, scene, query={"value": "PARCEL"}) == {scene.chat, scene.sms}
    assert mine(http, scene, query={"value": "lamp tuesday"}) == {scene.email}
    assert mine(http, scene, query={"value": "lamp parcel"}) == set()


def test_exact_match_wants_the_phrase(http: httpx2.Client, scene: Scene) -> None:
    assert mine(http, scene, query={"value": "parcel shipped", "exactMatch": True}) == \
        {scene.sms}
    assert mine(http, scene, query={"value": "shipped parcel", "exactMatch": True}) == set()
    assert mine(http, scene, query={"value": "shipped parcel"}) == {scene.sms}


def test_like_wildcards_are_literal(http: httpx2.Client, scene: Scene) -> None:
    assert mine(http, scene, query={"value": "100%"}) == {scene.chat}
    assert mine(http, scene, query={"value": "r_1", "exactMatch": True}) == set()
    assert mine(http, scene, query={"value": "%"}) == {scene.chat}


def test_highlights_mark_subject_and_message(http: httpx2.Client, scene: Scene) -> None:
    body = {"query": {"value": "lamp"},
            "filters": {"strategy": "All", "conditions": [
                cond("ConversationId", "IsOneOf", values=[str(scene.email)])]}}
    response = http.post("/v1/search/conversations", json=body)
    [hit] = response.json()["data"]
    assert hit["highlights"]["subject"] == ["Broken " + EM.format("lamp") + " order"]
    assert hit["highlights"]["message"] == [
        "My " + EM.format("lamp") + " flickers since Tuesday"]


def test_highlights_keep_the_case_of_the_text(http: httpx2.Client, scene: Scene) -> None:
    body = {"query": {"value": "where IS"},
            "filters": {"strategy": "All", "conditions": [
                cond("ConversationId", "IsOneOf", values=[str(scene.chat)])]}}
    [hit] = http.post("/v1/search/conversations", json=body).json()["data"]
    assert hit["highlights"] == {"message": [
        EM.format("Where") + " " + EM.format("is") + " my parcel? Order 100% late"]}


# ---------------------------------------------------------------- filters


def test_agent_and_queue_filters(http: httpx2.Client, scene: Scene) -> None:
    world = scene.world
    assert mine(http, scene, cond("AgentId", "IsOneOf", values=[world.agent])) == {scene.chat}
    assert mine(http, scene, cond("AgentId", "IsNotOneOf", values=[world.agent])) == \
        scene.all - {scene.chat}
    assert mine(http, scene, cond("AgentId", "IsNotEmpty")) == {scene.chat, scene.sms}
    assert mine(http, scene, cond("AgentId", "IsEmpty")) == \
        {scene.email, scene.pending, scene.callback}
    assert mine(http, scene, cond("QueueId", "IsOneOf", values=[world.queue])) == \
        {scene.callback}
    assert mine(http, scene, cond("QueueId", "IsEmpty")) == {scene.chat, scene.sms}
    assert mine(http, scene, cond("QueueId", "IsOneOf", values=[world.default_queue])) == \
        {scene.email, scene.pending}


def test_contact_and_conversation_filters(sandbox: SandboxServer, http: httpx2.Client,
                                          scene: Scene) -> None:
    assert mine(http, scene, cond("ConversationId", "IsOneOf",
                                  values=[str(scene.sms), str(scene.chat)])) == \
        {scene.sms, scene.chat}
    assert mine(http, scene, cond("ConversationId", "IsNotOneOf", values=[str(scene.sms)])) \
        == scene.all - {scene.sms}
    stranger = enduser(sandbox)
    assert mine(http, scene, cond("ContactId", "IsNotOneOf", values=[stranger])) == scene.all
    assert mine(http, scene, cond("ContactId", "IsOneOf", values=[stranger])) == set()


@pytest.mark.parametrize(("values", "negate", "expected"), [
    (["email"], False, {"email"}),
    (["chat", "sms"], False, {"chat", "sms", "pending"}),
    (["callback"], False, {"callback"}),
    (["chat"], True, {"email", "sms", "callback"}),
    (["whatsapp", "phone", "adachat"], False, set()),
])
def test_channel_filter(http: httpx2.Client, scene: Scene, values: list[str], negate: bool,
                        expected: set[str]) -> None:
    op = "IsNotOneOf" if negate else "IsOneOf"
    assert mine(http, scene, cond("Channel", op, values=values)) == \
        {getattr(scene, name) for name in expected}


def test_direction_and_status_filters(http: httpx2.Client, scene: Scene) -> None:
    assert mine(http, scene, cond("Direction", "IsOneOf", values=["outbound"])) == {scene.sms}
    assert mine(http, scene, cond("Direction", "IsNotOneOf", values=["outbound"])) == \
        scene.all - {scene.sms}
    assert mine(http, scene, cond("Status", "IsOneOf", values=["pending"])) == {scene.pending}
    assert mine(http, scene, cond("Status", "IsOneOf", values=["closed"])) == {scene.sms}
    assert mine(http, scene, cond("Status", "IsOneOf", values=["open"])) == \
        {scene.email, scene.chat, scene.callback}
    assert mine(http, scene, cond("Status", "IsNotOneOf", values=["open", "pending"])) == \
        {scene.sms}


def test_date_filters(sandbox: SandboxServer, http: httpx2.Client, scene: Scene) -> None:
    def at(minutes: int) -> str:
        return iso(sandbox.clock.now() - timedelta(minutes=4) + timedelta(minutes=minutes))

    assert mine(http, scene, cond("CreationDate", "Since", timestamp=at(2))) == \
        {scene.sms, scene.pending, scene.callback}
    assert mine(http, scene, cond("CreationDate", "Until", timestamp=at(1))) == \
        {scene.email, scene.chat}
    assert mine(http, scene, cond("CreationDate", "Between", timestampFrom=at(1),
                                  timestampTo=at(2))) == {scene.chat, scene.sms}
    assert mine(http, scene, cond("ClosedDate", "Since", timestamp=scene.start)) == {scene.sms}
    assert mine(http, scene, cond("AssignedDate", "Since", timestamp=scene.start)) == \
        {scene.chat, scene.sms}
    assert mine(http, scene, cond("LastActivity", "Since", timestamp=at(3))) == \
        {scene.sms, scene.pending, scene.callback}
    # the callback has no message at all
    assert mine(http, scene, cond("LastMessage", "Since", timestamp=scene.start)) == \
        scene.all - {scene.callback}
    assert mine(http, scene, cond("LastMessage", "Until", timestamp=at(0))) == {scene.email}


def test_duration_filter(http: httpx2.Client, scene: Scene) -> None:
    assert mine(http, scene, cond("Duration", "Between", min=59_000, max=61_000)) == {scene.sms}
    assert mine(http, scene, cond("Duration", "LongerThanOrEqualTo", duration=60_000)) == \
        {scene.sms}
    assert mine(http, scene, cond("Duration", "ShorterThanOrEqualTo", duration=1_000)) == set()


def test_tag_filters(http: httpx2.Client, scene: Scene) -> None:
    t1, t2 = scene.tag1, scene.tag2
    assert mine(http, scene, cond("TagId", "IncludesOne", values=[t1, t2])) == \
        {scene.email, scene.chat}
    assert mine(http, scene, cond("TagId", "IncludesAll", values=[t1, t2])) == {scene.chat}
    assert mine(http, scene, cond("TagId", "ExcludesAll", values=[t1])) == \
        {scene.sms, scene.pending, scene.callback}
    assert mine(http, scene, cond("TagId", "ExcludesOne", values=[t1, t2])) == \
        scene.all - {scene.chat}
    assert mine(http, scene, cond("TagId", "IsEmpty")) == \
        {scene.sms, scene.pending, scene.callback}
    assert mine(http, scene, cond("TagId", "IsNotEmpty")) == {scene.email, scene.chat}


def test_custom_attribute_filters(sandbox: SandboxServer, http: httpx2.Client,
                                  scene: Scene) -> None:
    parcel, flavour = "6b0c3c1e-8a1f-4f5e-9a53-0c3a2f1d0001", "6b0c3c1e-8a1f-4f5e-9a53-0c3a2f1d0002"

    def write(ctx: Any) -> None:
        with ctx.db.tx():
            for attribute_id, kind in ((parcel, "Text"), (flavour, "Select")):
                ctx.db.run(
                    "INSERT INTO custom_attribute_definitions (id, entity_type, identifier, "
                    "label, input_definition, created_at) VALUES (?, 'Conversation', ?, ?, ?, ?)",
                    (attribute_id, attribute_id[-4:], attribute_id[-4:],
                     dumps({"_type": kind}), ctx.now_iso()))
            for cid, attribute_id, value in (
                    (scene.email, parcel, "PK461926232"), (scene.chat, parcel, "PK1"),
                    (scene.sms, parcel, ""),
                    (scene.email, flavour, ["chocolate", "chocolate_bar"]),
                    (scene.chat, flavour, ["cookies"])):
                ctx.db.run("INSERT INTO custom_attribute_values (entity_type, entity_id, "
                           "attribute_id, value) VALUES ('Conversation', ?, ?, ?)",
                           (str(cid), attribute_id, dumps(value)))

    sandbox.call(write)
    assert mine(http, scene, cond("CustomAttribute", "IsOneOf", attributeId=parcel,
                                  values=[["PK461926232"], ["PK9"]])) == {scene.email}
    assert mine(http, scene, cond("CustomAttribute", "IsNotOneOf", attributeId=parcel,
                                  values=[["PK461926232"]])) == scene.all - {scene.email}
    assert mine(http, scene, cond("CustomAttribute", "IsNotEmpty", attributeId=parcel)) == \
        {scene.email, scene.chat}
    assert mine(http, scene, cond("CustomAttribute", "IsEmpty", attributeId=parcel)) == \
        {scene.sms, scene.pending, scene.callback}
    assert mine(http, scene, cond("CustomAttribute", "IsOneOf", attributeId=flavour, values=[
        ["cookies"], ["chocolate", "chocolate_bar"]])) == {scene.email, scene.chat}
    assert mine(http, scene, cond("CustomAttribute", "IsOneOf", attributeId=flavour,
                                  values=[["chocolate"]])) == set()


def test_strategies_and_text_combine(http: httpx2.Client, scene: Scene) -> None:
    any_of = {"filters": {"strategy": "Any", "conditions": [
        cond("Channel", "IsOneOf", values=["email"]),
        cond("Status", "IsOneOf", values=["pending"])]}}
    hits = set(search(http, any_of, pageLimit=500))
    assert {scene.email, scene.pending} <= hits
    assert not {scene.chat, scene.sms, scene.callback} & hits
    both = mine(http, scene, cond("Channel", "IsOneOf", values=["chat"]),
                cond("Status", "IsOneOf", values=["pending"]))
    assert both == {scene.pending}
    assert mine(http, scene, cond("Channel", "IsOneOf", values=["chat", "sms"]),
                query={"value": "parcel"}) == {scene.chat, scene.sms}


# ---------------------------------------------------------------- paging


def test_paging_walks_every_hit_once_in_order(sandbox: SandboxServer, http: httpx2.Client) -> None:
    world = org(sandbox)
    created = []
    for n in range(7):
        created.append(create_chat(http, world.requester, inbound(f"hello {n}")))
        if n % 2:
            advance(sandbox, 1)  # some share a time: the id breaks the tie
    expected = sorted(created, key=lambda cid: (
        sandbox.query("SELECT last_activity_at AS a FROM conversations WHERE id = ?",
                      (cid,))[0]["a"], cid), reverse=True)
    body = {"filters": {"strategy": "All", "conditions": [
        cond("ContactId", "IsOneOf", values=[world.requester])]}}
    seen: list[int] = []
    pages = 0
    url: str | None = "/v1/search/conversations?pageLimit=3"
    while url is not None:
        response = http.post(url, json=body)
        assert response.status_code == 200, response.text
        payload = response.json()
        seen += [hit["id"] for hit in payload["data"]]
        url = (payload.get("meta") or {}).get("next")
        pages += 1
    assert pages == 3
    assert seen == expected


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize("condition", [
    cond("Channel", "IsEmpty"),
    cond("Channel", "IsOneOf", values=["Email"]),
    cond("Channel", "IsOneOf", values=[]),
    cond("Status", "IsOneOf", values=["resolved"]),
    cond("Direction", "IsOneOf", values=["Inbound"]),
    cond("CreationDate", "Between", timestampFrom="2026-01-01T00:00:00Z"),
    cond("CreationDate", "Between", timestampFrom="2026-02-01T00:00:00Z",
         timestampTo="2026-01-01T00:00:00Z"),
    cond("CreationDate", "Since", timestamp="2026-01-01T00:00:00Z", values=["x"]),
    cond("CreationDate", "IsOneOf", values=["2026-01-01"]),
    cond("ContactId", "IsEmpty"),
    cond("ConversationId", "IsOneOf", values=["abc"]),
    cond("TagId", "IsOneOf", values=["x"]),
    cond("AgentId", "IsEmpty", attributeId="6b0c3c1e-8a1f-4f5e-9a53-0c3a2f1d0001"),
    cond("CustomAttribute", "IsEmpty"),
    cond("CustomAttribute", "IsOneOf", values=["flat"],
         attributeId="6b0c3c1e-8a1f-4f5e-9a53-0c3a2f1d0001"),
    cond("Duration", "Between", min=10, max=5),
    cond("Duration", "Since", timestamp="2026-01-01T00:00:00Z"),
    cond("Colour", "IsOneOf", values=["red"]),
    cond("AgentId", "Sometimes"),
])
def test_a_condition_that_does_not_fit_is_400(http: httpx2.Client, condition: dict[str, Any]
                                              ) -> None:
    body = {"filters": {"strategy": "All", "conditions": [condition]}}
    response = http.post("/v1/search/conversations", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith("Invalid value in request")


@pytest.mark.parametrize(("body", "params"), [
    ({"query": {"value": "   "}}, {}),
    ({"query": {"value": ""}}, {}),
    ({"filters": {"strategy": "Most", "conditions": []}}, {}),
    ({"query": 1}, {}),
    (None, {"pageLimit": 0}),
    (None, {"pageLimit": 501}),
    (None, {"pageLimit": "ten"}),
    (None, {"pageKey": "not a key!"}),
    (None, {"pageKey": "eyJ4IjoxfQ"}),  # {"x":1}: a key, but not one of ours
])
def test_bad_queries_and_page_parameters_are_400(http: httpx2.Client, body: Any,
                                                 params: dict[str, Any]) -> None:
    response = http.post("/v1/search/conversations", json=body, params=params)
    assert response.status_code == 400, response.text
    assert response.json()["message"]
