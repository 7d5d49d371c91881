"""The sandbox's queues: create, read, members, chat availability, conversation positions."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx2
from factories_people import add_agent, add_conversation, add_enduser, add_queue, at

from frontdesk.api.models import (
    AVAILABILITY_CHANNELS,
    AvailabilityOutcome,
    BulkActionOutcome,
    ConversationPosition,
    Queue,
    QueueMember,
)
from frontdesk.sandbox import rules
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def message(response: httpx2.Response) -> str:
    """The error message of a refused request."""
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


def new_queue(http: httpx2.Client, **settings: Any) -> dict[str, Any]:
    """A queue created through the API."""
    request = {"name": "Inbox", "callFunctionality": False, "isDefault": False,
               "isDoNotOfferEnabled": False, **settings}
    response = http.post("/v1/queues", json={"request": request})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    Queue.model_validate(data)
    return data


# ---------------------------------------------------------------- queues


def test_create_fills_the_record(http: httpx2.Client, sandbox: SandboxServer) -> None:
    queue = new_queue(http, name="VIP", offerAlgorithm="LongestIdle", offerTimeout=30,
                      queueThresholds={"LongestWait": 120}, priority=3)
    assert queue["offeringAlgorithm"] == "LongestIdle" and "offerAlgorithm" not in queue
    assert "callFunctionality" not in queue
    assert queue["queueThresholds"] == {"LongestWait": 120}
    assert queue["organizationId"] == sandbox.call(lambda ctx: ctx.organization_id)
    assert queue["slaCalculationMethod"] == "AbandonedIgnored"
    assert queue["memberListType"] == "Default"
    assert queue["usages"] == {"queueId": queue["id"], "usages": {}}
    assert (queue["doNotOfferTimeouts"], queue["isDoNotOfferEnabled"]) == ({}, False)
    assert http.get(f"/v1/queues/{queue['id']}").json()["data"] == queue
    assert queue in http.get("/v1/queues").json()["data"]


def test_one_default_queue(http: httpx2.Client) -> None:
    first = new_queue(http, name="First", isDefault=True)
    second = new_queue(http, name="Second", isDefault=True)
    listed = http.get("/v1/queues").json()["data"]
    for item in listed:
        Queue.model_validate(item)
    assert [q["id"] for q in listed if q["isDefault"]] == [second["id"]]
    assert http.get(f"/v1/queues/{first['id']}").json()["data"]["isDefault"] is False


def test_create_refusals(http: httpx2.Client) -> None:
    good = {"name": "Q", "callFunctionality": False, "isDefault": False,
            "isDoNotOfferEnabled": False}
    for body in (good, {"request": {**good, "offerAlgorithm": "Randomly"}},
                 {"request": {**good, "name": " "}}, {"request": {"name": "Q"}},
                 {"request": {**good, "offerTimeout": -1}},
                 {"request": {**good, "queueThresholds": {"Bogus": 1}}},
                 {"request": {**good, "offerAlgorithm": 3}}):
        assert http.post("/v1/queues", json=body).status_code == 400, body


def test_read_refusals(http: httpx2.Client) -> None:
    assert http.get(f"/v1/queues/{UNKNOWN}").status_code == 404
    assert http.get("/v1/queues/not-a-uuid").status_code == 400
    assert http.get(f"/v1/queues/{UNKNOWN}/members").status_code == 404


# ---------------------------------------------------------------- members


def test_members(http: httpx2.Client, sandbox: SandboxServer) -> None:
    queue = add_queue(sandbox)
    agent = add_agent(sandbox)
    enduser = add_enduser(sandbox)
    path = f"/v1/queues/{queue}/members"
    response = http.patch(path, json={"agentIds": [agent, UNKNOWN, enduser]})
    assert response.status_code == 200
    added, ghost, customer = (BulkActionOutcome[str].model_validate(o)
                              for o in response.json()["data"])
    assert added.ok and added.data == agent
    assert ghost.error is not None
    assert (ghost.error.type, ghost.error.id, ghost.error.message) == (
        "NotFound", UNKNOWN, "User not found")
    assert customer.error is not None
    assert (customer.error.type, customer.error.message) == (
        "Validation", "Member is neither Agent or Admin")
    listed = http.get(path).json()["data"]
    assert [QueueMember.model_validate(m).agent_id for m in listed] == [agent]
    assert http.patch(path, json={"agentIds": [agent]}).status_code == 200
    assert len(http.get(path).json()["data"]) == 1

    assert http.request("DELETE", path, json={"agentIds": [agent]}).status_code == 204
    assert http.get(path).json()["data"] == []
    bodies: list[Any] = [{}, {"agentIds": []}, {"agentIds": ["x"]}]
    for body in bodies:
        assert http.patch(path, json=body).status_code == 400
        assert http.request("DELETE", path, json=body).status_code == 400
    missing = f"/v1/queues/{UNKNOWN}/members"
    assert http.patch(missing, json={"agentIds": [agent]}).status_code == 404
    assert http.request("DELETE", missing, json={"agentIds": [agent]}).status_code == 404


def test_member_priority_is_shown(http: httpx2.Client, sandbox: SandboxServer) -> None:
    queue = add_queue(sandbox)
    agent = add_agent(sandbox)
    sandbox.call(lambda ctx: ctx.db.run(
        "INSERT INTO queue_members (queue_id, agent_id, priority) VALUES (?, ?, 2)",
        (queue, agent)))
    assert http.get(f"/v1/queues/{queue}/members").json()["data"] == [
        {"agentId": agent, "priority": 2}]


# ---------------------------------------------------------------- availability


def availability(http: httpx2.Client, queue: str) -> list[dict[str, Any]]:
    """The queue's channel availabilities, checked against the records."""
    response = http.get(f"/v1/queues/{queue}/availability")
    assert response.status_code == 200, response.text
    items = [AvailabilityOutcome.model_validate(o) for o in response.json()["data"]]
    assert [i.type for i in items] == ["Success"] * len(AVAILABILITY_CHANNELS)
    channels = [i.channel_availability for i in items]
    assert [c.generic_channel_name for c in channels if c] == list(AVAILABILITY_CHANNELS)
    return [c.wire() for c in channels if c]


def test_availability_follows_working_members(http: httpx2.Client,
                                              sandbox: SandboxServer) -> None:
    agent = add_agent(sandbox)
    outsider = add_agent(sandbox)
    queue = add_queue(sandbox, "Chat", [agent])
    customer = add_enduser(sandbox)
    for n in range(2):
        add_conversation(sandbox, customer, queue_id=queue, queued_at=at(sandbox, n))
    add_conversation(sandbox, customer, queue_id=queue, queued_at=at(sandbox),
                     assigned_agent_id=agent, assigned_at=at(sandbox))
    add_conversation(sandbox, customer, state="Closed")

    def working(user: str, channel: str, on: bool = True) -> None:
        response = http.put(f"/v1/agents/{user}/presence/working-channel",
                            json={"channel": channel, "working": on})
        assert response.status_code == 204

    closed = {"_type": "GenericChannel", "availability": "NotAvailable", "queueSize": 2}
    for channel in availability(http, queue):
        assert {k: v for k, v in channel.items() if k != "genericChannelName"} == closed
    working(outsider, "InteractiveChat")
    working(agent, "Email")
    assert {c["availability"] for c in availability(http, queue)} == {"NotAvailable"}
    working(agent, "Messaging")
    opened = availability(http, queue)
    assert {c["availability"] for c in opened} == {"Available"}
    assert all("queueSize" not in c for c in opened)
    working(agent, "Messaging", on=False)
    assert {c["availability"] for c in availability(http, queue)} == {"NotAvailable"}


def test_availability_refusals(http: httpx2.Client, sandbox: SandboxServer) -> None:
    missing = http.get(f"/v1/queues/{UNKNOWN}/availability")
    assert missing.status_code == 400
    assert "does not exist" in message(missing)
    assert http.get("/v1/queues/zzz/availability").status_code == 400
    queue = add_queue(sandbox)

    def no_channels(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            ctx.db.set_meta("chat_channels", "none")

    sandbox.call(no_channels)
    response = http.get(f"/v1/queues/{queue}/availability")
    assert response.status_code == 409
    assert message(response)


# ---------------------------------------------------------------- positions


def position(http: httpx2.Client, csid: int) -> ConversationPosition:
    """A conversation's position, checked against the record."""
    response = http.get(f"/v1/queues/conversation-position/{csid}")
    assert response.status_code == 200, response.text
    return ConversationPosition.model_validate(response.json()["data"])


def test_position_moves_when_an_earlier_conversation_leaves(
        http: httpx2.Client, sandbox: SandboxServer) -> None:
    queue = add_queue(sandbox)
    other_queue = add_queue(sandbox, "Other")
    customer = add_enduser(sandbox)
    first, second, third = (
        add_conversation(sandbox, customer, queue_id=queue, queued_at=at(sandbox, n))
        for n in (-30, -20, -10)
    )
    add_conversation(sandbox, customer, queue_id=other_queue, queued_at=at(sandbox, -60))
    assert [position(http, c).position for c in (first, second, third)] == [1, 2, 3]
    assert position(http, third).queued_at == sandbox.clock.now() - timedelta(seconds=10)

    def close_first(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            rules.close(ctx, rules.get_conversation(ctx, first), None)

    sandbox.call(close_first)
    assert [position(http, c).position for c in (second, third)] == [1, 2]
    gone = http.get(f"/v1/queues/conversation-position/{first}")
    assert gone.status_code == 404
    assert "not waiting" in message(gone)


def test_ties_in_queued_at_are_broken_by_id(http: httpx2.Client,
                                            sandbox: SandboxServer) -> None:
    queue = add_queue(sandbox)
    customer = add_enduser(sandbox)
    when = at(sandbox)
    ids = [add_conversation(sandbox, customer, queue_id=queue, queued_at=when)
           for _ in range(3)]
    assert [position(http, c).position for c in ids] == [1, 2, 3]


def test_position_refusals(http: httpx2.Client, sandbox: SandboxServer) -> None:
    customer = add_enduser(sandbox)
    agent = add_agent(sandbox)
    queue = add_queue(sandbox)
    assigned = add_conversation(sandbox, customer, queue_id=queue, queued_at=at(sandbox),
                                assigned_agent_id=agent, assigned_at=at(sandbox))
    unqueued = add_conversation(sandbox, customer)
    for csid in (assigned, unqueued, 2**62):
        assert http.get(f"/v1/queues/conversation-position/{csid}").status_code == 404, csid
    for bad in ("abc", "0", "-1", str(2**63)):
        assert http.get(f"/v1/queues/conversation-position/{bad}").status_code == 400, bad
