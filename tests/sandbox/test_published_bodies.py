"""The sandbox takes what the published service takes: the vendor's own documented examples,
unknown members (ignored), any tag colour; it answers what the published schemas require
(a rating offer's ``agentId``); and an unknown path is a 404, not a malformed id."""

from __future__ import annotations

from typing import Any

import httpx2
from factories_conversations import conversation, create_chat, messages, org, outbound, text

from frontdesk.api.models import RatingOffer
from frontdesk.sandbox.server import SandboxServer


def _vendor_import(requester: str, agent: str) -> dict[str, Any]:
    """The published "Generic API messaging conversation example" of the import."""
    return {
        "genericChannelName": "genericapimessaging",
        "requesterId": requester,
        "requesterConnectionStatus": "Connected",
        "direction": "Inbound",
        "messages": [
            {"content": {"value": "Hi, I need help with my order", "_type": "Text"},
             "attachments": [], "createdAt": "2021-12-01T13:00:00.003Z",
             "_type": "InboundImport"},
            {"content": {"value": "Sure — what seems to be the problem?", "_type": "Text"},
             "agentId": agent, "attachments": [], "createdAt": "2021-12-01T14:00:00.004Z",
             "_type": "OutboundImport"},
        ],
        "createdAt": "2021-12-01T11:00:00.001Z",
        "assignment": {"agentId": agent, "assignedAt": "2021-12-01T12:00:00.002Z"},
        "_type": "GenericConversationImport",
    }


def test_the_vendors_import_examples_are_taken(http: httpx2.Client,
                                               sandbox: SandboxServer) -> None:
    world = org(sandbox)
    body = _vendor_import(world.requester, world.agent)
    response = http.post("/v1/conversations/import", json=body)
    assert response.status_code == 200, response.text
    imported = response.json()["data"]["id"]
    thread = messages(http, imported)
    assert [m["attributes"]["direction"] for m in thread] == ["Inbound", "Outbound"]
    assert [m["authorId"] for m in thread] == [world.requester, world.agent]
    assert conversation(http, imported)["assignment"]["agentId"] == world.agent

    # the top-level _type is not required by the published schema
    del body["_type"]
    response = http.post("/v1/conversations/import", json=body)
    assert response.status_code == 200, response.text
    # the short message names stay readable; a name of neither kind is refused
    body["messages"][0]["_type"] = "Inbound"
    assert http.post("/v1/conversations/import", json=body).status_code == 200
    body["messages"][0]["_type"] = "SidewaysImport"
    assert http.post("/v1/conversations/import", json=body).status_code == 400


def test_unknown_members_are_ignored_wrong_values_still_refused(
        http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = org(sandbox)
    created = http.post("/v1/endusers", json={"displayName": "Ada", "favouriteColour": "teal",
                                              "nested": {"a": [1, 2]}})
    assert created.status_code == 200, created.text
    assert "favouriteColour" not in created.json()["data"]
    cid = create_chat(http, world.requester)
    claim = http.put(f"/v1/conversations/{cid}/claim",
                     json={"agentId": world.agent, "force": True, "reason": "lunch cover"})
    assert claim.status_code == 204, claim.text
    sent = http.post(f"/v1/conversations/{cid}/messages",
                     json=outbound(world.agent, "Hello", channelHint="x"))
    assert sent.status_code == 200, sent.text
    for path, body in (
        ("/v1/endusers", {"displayName": 5, "extra": 1}),
        (f"/v1/conversations/{cid}/messages",
         {"_type": "Outbound", "agentId": world.agent, "content": text("x", "Rtf")}),
        ("/v1/tags", {"name": "x", "color": 7}),
    ):
        refused = http.post(path, json=body)
        assert refused.status_code == 400, (path, refused.text)


def test_a_tag_colour_is_any_text(http: httpx2.Client) -> None:
    for colour in ("#3b82f6", "teal", "rgb(1, 2, 3)"):
        response = http.post("/v1/tags", json={"name": f"colour {colour}", "color": colour})
        assert response.status_code == 200, response.text
        assert response.json()["data"]["color"] == colour


def test_a_rating_offer_always_names_its_agent(http: httpx2.Client,
                                               sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid = create_chat(http, world.requester)
    url = f"/v1/conversations/{cid}/ratings/offer"
    nobody = http.post(url, json={"ratingType": "Csat"})
    assert nobody.status_code == 200, nobody.text
    assert nobody.json()["data"]["agentId"] == sandbox.call(lambda ctx: ctx.api_user_id)
    assert http.post(f"/v1/conversations/{cid}/messages",
                     json=outbound(world.other_agent)).status_code == 200
    offer = http.post(url, json={"ratingType": "Csat"})
    assert offer.status_code == 200, offer.text
    assert RatingOffer.model_validate(offer.json()["data"]).agent_id == world.other_agent
    http.put(f"/v1/conversations/{cid}/claim", json={"agentId": world.agent})
    offer = http.post(url, json={"ratingType": "Nps"})
    assert offer.json()["data"]["agentId"] == world.agent


def test_an_unknown_path_is_404_not_a_malformed_id(http: httpx2.Client) -> None:
    for method, path in (("GET", "/v1/conversations/activity-log"),
                         ("GET", "/v1/conversations/unknown"),
                         ("PUT", "/v1/conversations/flow_list"),
                         ("GET", "/v1/nothing-here")):
        response = http.request(method, path)
        assert response.status_code == 404, (path, response.text)
        assert set(response.json()) == {"message"}
    # a malformed id where a conversation's own resource follows is still a 400
    assert http.get("/v1/conversations/abc/messages").status_code == 400
    assert http.get("/v1/conversations/-1").status_code == 400
