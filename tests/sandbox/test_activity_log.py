"""The sandbox's activity log: every change its rules and routes make is written as it is made,
read per conversation and for the whole organisation (paged, in a time window)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx2
from factories_conversations import advance, create_chat, inbound, org, outbound, tag

from frontdesk.api.models import ActivityLogEntry, PagedEnvelope
from frontdesk.sandbox.db import iso
from frontdesk.sandbox.server import SandboxServer


def _log(http: httpx2.Client, cid: int) -> list[dict[str, Any]]:
    response = http.get(f"/v1/conversations/{cid}/activitylog")
    assert response.status_code == 200, response.text
    entries: list[dict[str, Any]] = response.json()["data"]
    for entry in entries:
        ActivityLogEntry.model_validate(entry)
    return entries


def _ok(response: httpx2.Response) -> None:
    assert response.status_code < 300, response.text


def test_a_conversations_day_is_logged_as_it_happens(http: httpx2.Client,
                                                     sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid = create_chat(http, world.requester)
    base = f"/v1/conversations/{cid}"
    vip = tag(sandbox, name="vip-log")
    _ok(http.put(f"{base}/claim", json={"agentId": world.agent}))
    _ok(http.put(f"{base}/claim", json={"agentId": world.other_agent, "force": True}))
    _ok(http.post(f"{base}/messages", json=outbound(world.other_agent, "On it")))
    _ok(http.post(f"{base}/notes", json={"message": "Check the invoice",
                                          "agentId": world.other_agent}))
    _ok(http.put(f"{base}/tags/{vip}"))
    _ok(http.put(f"{base}/tags/{vip}"))  # already there: no second entry
    _ok(http.delete(f"{base}/tags/{vip}"))
    _ok(http.put(f"{base}/transfer/queue", json={"queueId": world.queue,
                                                  "userId": world.agent}))
    until = iso(sandbox.clock.now() + timedelta(hours=1))
    _ok(http.put(f"{base}/followup", json={"timestamp": until}))
    advance(sandbox, 3601)
    sandbox.run_pending()
    _ok(http.put(f"{base}/close", json={"userId": world.agent}))
    _ok(http.post(f"{base}/messages", json=inbound("One more thing")))  # reopens it
    _ok(http.put(f"{base}/claim", json={"agentId": world.agent}))
    offer = http.post(f"{base}/ratings/offer", json={"ratingType": "Csat"})
    _ok(offer)
    _ok(http.post(f"{base}/ratings/{offer.json()['data']['id']}/submit",
                  json={"ratingResult": {"_type": "Csat", "value": 5}, "comment": "Great"}))

    entries = _log(http, cid)
    assert [e["_type"] for e in entries] == [
        "ConversationCreatedByCustomer", "MessageAddedByCustomer",
        "ConversationClaimed", "ConversationClaimed", "MessageAddedByAgent", "NoteAdded",
        "TagAdded", "TagRemoved", "TransferSuccessful", "FollowupAdded", "FollowupExpired",
        "ConversationClosed", "MessageAddedByCustomer", "ConversationReopened",
        "ConversationClaimed", "ConversationRatingOffered", "ConversationRated",
    ]
    by_type = {e["_type"]: e for e in entries}
    assert entries[3]["author"]["id"] == world.other_agent
    assert entries[3]["attributes"]["claimedFromType"] == "Agent"
    assert by_type["NoteAdded"]["attributes"] == {"message": "Check the invoice"}
    assert by_type["TagAdded"]["attributes"] == {"tag": "vip-log"}
    assert by_type["TransferSuccessful"]["attributes"]["destinationId"] == world.queue
    assert by_type["TransferSuccessful"]["author"]["id"] == world.agent
    assert by_type["ConversationRated"]["attributes"]["score"] == 5
    assert by_type["ConversationRatingOffered"]["attributes"]["agent"]["id"] == world.agent
    assert by_type["MessageAddedByAgent"]["activityType"] == "MessageAddedByAgentActivityType"
    assert all(e["conversationId"] == cid and e["activityTimestamp"].endswith("Z[GMT]")
               for e in entries)

    assert http.get("/v1/conversations/987654321/activitylog").status_code == 404
    assert http.get("/v1/conversations/abc/activitylog").status_code == 400


def test_a_refused_change_leaves_no_entry(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid = create_chat(http, world.requester)
    before = _log(http, cid)
    assert http.put(f"/v1/conversations/{cid}/transfer/queue",
                    json={"queueId": "00000000-0000-4000-8000-00000000abcd"}).status_code == 400
    assert http.put(f"/v1/conversations/{cid}/claim", json={"agentId": world.agent})
    assert http.put(f"/v1/conversations/{cid}/claim",
                    json={"agentId": world.other_agent, "force": False}).status_code == 409
    assert [e["_type"] for e in _log(http, cid)] == [e["_type"] for e in before] + [
        "ConversationClaimed"]


def test_the_organisations_log_is_paged_and_windowed(http: httpx2.Client,
                                                     sandbox: SandboxServer) -> None:
    world = org(sandbox)
    start = iso(sandbox.clock.now())
    made = [create_chat(http, world.requester) for _ in range(3)]
    advance(sandbox, 60)
    later = iso(sandbox.clock.now())
    _ok(http.put(f"/v1/conversations/{made[0]}/close"))

    seen: list[dict[str, Any]] = []
    url: str | None = "/v1/conversations/activitylog"
    params: dict[str, Any] | None = {"fromDatetime": start, "pageLimit": 2}
    while url:
        response = http.get(url, params=params)
        assert response.status_code == 200, response.text
        page = PagedEnvelope[ActivityLogEntry].model_validate(response.json())
        assert len(page.data) <= 2
        seen.extend(response.json()["data"])
        url, params = (page.meta.next if page.meta else None), None
    assert [(e["conversationId"], e["_type"]) for e in seen] == [
        *[(cid, kind) for cid in made
          for kind in ("ConversationCreatedByCustomer", "MessageAddedByCustomer")],
        (made[0], "ConversationClosed"),
    ]
    window = http.get("/v1/conversations/activitylog",
                      params={"fromDatetime": start, "toDatetime": start})
    assert {e["conversationId"] for e in window.json()["data"]} == set(made)
    assert all(e["_type"] != "ConversationClosed" for e in window.json()["data"])
    recent = http.get("/v1/conversations/activitylog", params={"fromDatetime": later})
    assert [e["_type"] for e in recent.json()["data"]] == ["ConversationClosed"]
    for bad in ({"pageLimit": 0}, {"pageKey": "not-ours"}, {"fromDatetime": "monday"}):
        assert http.get("/v1/conversations/activitylog", params=bad).status_code == 400, bad
    assert http.post("/v1/conversations/activitylog").status_code == 405


def test_claiming_a_closed_conversation_logs_its_reopening(http: httpx2.Client,
                                                           sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid = create_chat(http, world.requester)
    _ok(http.put(f"/v1/conversations/{cid}/close"))
    _ok(http.put(f"/v1/conversations/{cid}/claim", json={"agentId": world.agent}))
    _ok(http.put(f"/v1/conversations/{cid}/close"))
    _ok(http.put(f"/v1/conversations/{cid}/transfer/queue", json={"queueId": world.queue}))
    assert [e["_type"] for e in _log(http, cid)][2:] == [
        "ConversationClosed", "ConversationReopened", "ConversationClaimed",
        "ConversationClosed", "ConversationReopened", "TransferSuccessful"]
