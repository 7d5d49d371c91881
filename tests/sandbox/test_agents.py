"""The sandbox's agents: create, read, update (one and in bulk), downgrade, presence."""

from __future__ import annotations

from typing import Any

import httpx2
from factories_people import (
    add_agent,
    add_enduser,
    add_queue,
    add_team,
    advance,
    at,
    set_presence,
    unique_email,
    user_ids,
    walk,
)

from frontdesk.api.models import Agent, BulkActionOutcome, EndUser, UserPresence
from frontdesk.api.models.common import format_local
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def message(response: httpx2.Response) -> str:
    """The error message of a refused request."""
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


def create(http: httpx2.Client, **fields: Any) -> dict[str, Any]:
    """A new agent through the API."""
    body = {"displayName": "Grace", "email": unique_email("grace"), **fields}
    response = http.post("/v1/agents", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    Agent.model_validate(data)
    return data


def outcomes(response: httpx2.Response) -> list[BulkActionOutcome[dict[str, Any]]]:
    """The per-item outcomes of a bulk answer, each success's data as sent (and as the
    published Agent)."""
    assert response.status_code == 200, response.text
    read = [BulkActionOutcome[dict[str, Any]].model_validate(o)
            for o in response.json()["data"]]
    for outcome in read:
        if outcome.data is not None:
            Agent.model_validate(outcome.data)
    return read


# ---------------------------------------------------------------- create and read


def test_create_and_read(http: httpx2.Client) -> None:
    agent = create(http, phoneNumber="+4511112222", middleNames=["M"])
    assert agent["roles"] == ["Agent"]
    read = http.get(f"/v1/agents/{agent['id']}")
    assert read.status_code == 200
    assert read.json()["data"] == agent
    assert Agent.model_validate(agent).middle_names == ["M"]


def test_duplicate_email_among_agents_is_refused(http: httpx2.Client,
                                                 sandbox: SandboxServer) -> None:
    agent = create(http)
    again = http.post("/v1/agents", json={"displayName": "Twin",
                                          "email": agent["email"].upper()})
    assert again.status_code == 400
    assert "already exists" in message(again)
    email = unique_email("customer")
    add_enduser(sandbox, email=email)
    create(http, email=email)


def test_create_refusals(http: httpx2.Client) -> None:
    for body in ({"email": unique_email()}, {"displayName": "X"},
                 {"displayName": "X", "email": "nope"}, {"displayName": " ", "email": "a@b.io"},
                 {"displayName": "X", "email": unique_email(), "phoneNumber": 4512345678}):
        assert http.post("/v1/agents", json=body).status_code == 400, body
    # an unknown member is ignored, as published: it grants nothing
    made = http.post("/v1/agents", json={"displayName": "X", "email": unique_email(),
                                         "roles": ["Admin"]})
    assert made.status_code == 200 and made.json()["data"]["roles"] == ["Agent"]


def test_read_refusals(http: httpx2.Client, sandbox: SandboxServer) -> None:
    assert http.get(f"/v1/agents/{UNKNOWN}").status_code == 404
    bad = http.get("/v1/agents/not-a-uuid")
    assert bad.status_code == 400
    assert "agentId" in message(bad)
    assert http.get(f"/v1/agents/{add_enduser(sandbox)}").status_code == 404


# ---------------------------------------------------------------- list


def test_paging_through_every_agent(empty_http: httpx2.Client,
                                    empty_sandbox: SandboxServer) -> None:
    for n in range(5):
        add_agent(empty_sandbox, created_at=at(empty_sandbox, n))
    add_enduser(empty_sandbox)
    items, pages = walk(empty_http, "/v1/agents", {"pageLimit": 2})
    expected = user_ids(empty_sandbox, "agent")
    assert [a["id"] for a in items] == expected
    assert pages == -(-len(expected) // 2)
    for item in items:
        Agent.model_validate(item)


def test_filters(http: httpx2.Client, sandbox: SandboxServer) -> None:
    email = unique_email("filter")
    target = add_agent(sandbox, email=email, phone_number="+4577778888")
    add_enduser(sandbox, email=email)
    for params in ({"email": email.upper()}, {"phone": "+4577778888"}):
        assert [a["id"] for a in http.get("/v1/agents", params=params).json()["data"]] == [
            target]
    both = http.get("/v1/agents", params={"email": email, "phone": "+4577778888"})
    assert both.status_code == 400
    assert "not both" in message(both)
    assert http.get("/v1/agents", params={"pageLimit": -1}).status_code == 400
    assert http.get("/v1/agents", params={"pageKey": "!!"}).status_code == 400


# ---------------------------------------------------------------- update one


def test_put_is_a_full_update(http: httpx2.Client) -> None:
    agent = create(http, phoneNumber="+4511112222", firstName="Grace", lastName="Hopper")
    response = http.put(f"/v1/agents/{agent['id']}",
                        json={"displayName": "Admiral", "lastName": "Hopper"})
    assert response.status_code == 200
    updated = response.json()["data"]
    assert updated["displayName"] == "Admiral" and updated["lastName"] == "Hopper"
    assert "phoneNumber" not in updated and "firstName" not in updated
    assert updated["email"] == agent["email"]
    assert http.get(f"/v1/agents/{agent['id']}").json()["data"] == updated


def test_put_refusals(http: httpx2.Client) -> None:
    agent = create(http)
    path = f"/v1/agents/{agent['id']}"
    assert http.put(path, json={"lastName": "x"}).status_code == 400
    # the email cannot change: PUT's published body has none, so one sent is ignored
    kept = http.put(path, json={"displayName": agent["displayName"], "email": unique_email()})
    assert kept.status_code == 200 and kept.json()["data"]["email"] == agent["email"]
    assert http.put(f"/v1/agents/{UNKNOWN}", json={"displayName": "x"}).status_code == 404
    assert http.put("/v1/agents/123", json={"displayName": "x"}).status_code == 400
    assert http.get(path).json()["data"] == agent


def test_patch_changes_only_what_it_carries(http: httpx2.Client) -> None:
    agent = create(http, phoneNumber="+4511112222", firstName="Grace")
    path = f"/v1/agents/{agent['id']}"
    patched = http.patch(path, json={"lastName": "Hopper", "phoneNumber": None})
    assert patched.status_code == 200
    data = patched.json()["data"]
    assert data["lastName"] == "Hopper" and data["firstName"] == "Grace"
    assert "phoneNumber" not in data and data["displayName"] == agent["displayName"]


def test_patch_refusals(http: httpx2.Client) -> None:
    agent = create(http)
    path = f"/v1/agents/{agent['id']}"
    assert http.patch(path, json={}).status_code == 400
    assert http.patch(path, json={"displayName": None}).status_code == 400
    assert http.patch(path, json={"phoneNumber": "call me"}).status_code == 400
    assert http.patch(f"/v1/agents/{UNKNOWN}", json={"lastName": "x"}).status_code == 404
    assert http.get(path).json()["data"] == agent


# ---------------------------------------------------------------- bulk


def test_bulk_update(http: httpx2.Client) -> None:
    first, second = create(http, firstName="A"), create(http)
    response = http.put("/v1/agents", json=[
        {"id": first["id"], "displayName": "First"},
        {"id": UNKNOWN, "displayName": "Ghost"},
        {"id": second["id"], "displayName": "Second", "lastName": "Two"},
    ])
    one, ghost, two = outcomes(response)
    assert one.ok and one.data is not None
    assert one.data["displayName"] == "First" and "firstName" not in one.data
    assert not ghost.ok and ghost.error is not None
    assert (ghost.error.type, ghost.error.id, ghost.error.message) == (
        "NotFound", UNKNOWN, "Agent not found")
    assert two.ok and Agent.model_validate(two.data).last_name == "Two"
    assert http.get(f"/v1/agents/{second['id']}").json()["data"]["lastName"] == "Two"


def test_bulk_bodies_must_be_non_empty_arrays(http: httpx2.Client) -> None:
    for method in ("PUT", "PATCH"):
        bodies: list[Any] = [[], {"data": []}, [{"displayName": "no id"}], [{"id": "nope"}]]
        for body in bodies:
            assert http.request(method, "/v1/agents", json=body).status_code == 400, body


def test_bulk_patch(http: httpx2.Client) -> None:
    agent = create(http, firstName="Keep")
    response = http.patch("/v1/agents", json=[
        {"id": agent["id"], "lastName": "Changed"},
        {"id": agent["id"]},
        {"id": UNKNOWN, "lastName": "x"},
        {"id": agent["id"], "displayName": " "},
    ])
    changed, empty, ghost, blank = outcomes(response)
    assert changed.ok and changed.data is not None
    assert changed.data["lastName"] == "Changed"
    assert changed.data["firstName"] == "Keep"
    assert empty.error is not None and (empty.error.type, empty.error.id) == (
        "EmptyPatchSet", agent["id"])
    assert ghost.error is not None and ghost.error.type == "NotFound"
    assert blank.error is not None and blank.error.type == "Validation"


def test_bulk_create(http: httpx2.Client, sandbox: SandboxServer) -> None:
    taken = create(http)["email"]
    fresh = unique_email("fresh")
    response = http.post("/v1/agents/bulk", json={"data": [
        {"displayName": "New", "email": fresh},
        {"displayName": "Dup", "email": taken},
        {"displayName": "Dup again", "email": fresh},
        {"displayName": "Other", "email": unique_email()},
    ]})
    new, dup, dup_again, other = outcomes(response)
    assert new.ok and other.ok
    for failed in (dup, dup_again):
        assert failed.error is not None and failed.error.type == "Validation"
        assert "already exists" in failed.error.message
    for done in (new, other):
        assert done.data is not None
        assert http.get(f"/v1/agents/{done.data['id']}").status_code == 200
    assert sandbox.query("SELECT COUNT(*) AS n FROM users WHERE email = ?", (fresh,))[0][
        "n"] == 1
    assert http.post("/v1/agents/bulk", json={"data": []}).status_code == 400
    assert http.post("/v1/agents/bulk", json=[{"displayName": "x"}]).status_code == 400


# ---------------------------------------------------------------- downgrade and teams


def test_downgrade_makes_an_end_user(http: httpx2.Client, sandbox: SandboxServer) -> None:
    agent = create(http)
    agent_id = agent["id"]
    team = add_team(sandbox, "Support", [agent_id])
    queue = add_queue(sandbox, "Inbox", [agent_id])
    set_presence(sandbox, agent_id, channels=["Email"])
    assert http.get(f"/v1/agents/{agent_id}/teams").json() == {"data": [{"id": team}]}

    assert http.delete(f"/v1/agents/{agent_id}").status_code == 204
    assert http.get(f"/v1/agents/{agent_id}").status_code == 404
    user = http.get(f"/v1/endusers/{agent_id}")
    assert user.status_code == 200
    assert EndUser.model_validate(user.json()["data"]).email == agent["email"]
    assert http.get(f"/v1/teams/{team}/agents").json()["data"] == []
    assert http.get(f"/v1/queues/{queue}/members").json()["data"] == []
    assert agent_id not in {p["userId"] for p in http.get("/v1/agents/presence").json()}
    assert http.get(f"/v1/agents/{agent_id}/presence").status_code == 404
    assert http.delete(f"/v1/agents/{agent_id}").status_code == 404
    assert http.delete("/v1/agents/x").status_code == 400


def test_teams_of_an_agent(http: httpx2.Client, sandbox: SandboxServer) -> None:
    agent = add_agent(sandbox)
    teams = {add_team(sandbox, name, [agent]) for name in ("B team", "A team")}
    add_team(sandbox, "Elsewhere", [add_agent(sandbox)])
    body = http.get(f"/v1/agents/{agent}/teams").json()
    assert {t["id"] for t in body["data"]} == teams
    assert http.get(f"/v1/agents/{UNKNOWN}/teams").status_code == 404


# ---------------------------------------------------------------- presence


def test_presence_of_all_is_a_bare_array(http: httpx2.Client, sandbox: SandboxServer) -> None:
    agent = add_agent(sandbox)
    response = http.get("/v1/agents/presence")
    assert response.status_code == 200
    body = response.json()
    assert isinstance(body, list)
    presences = {p["userId"]: UserPresence.model_validate(p) for p in body}
    assert set(presences) == set(user_ids(sandbox, "agent"))
    mine = presences[agent]
    assert (mine.connection_status, mine.presence_status, mine.active_channels) == (
        "Offline", "Away", [])
    assert mine.request_time == sandbox.clock.now()


def test_working_channel_round_trip(http: httpx2.Client, sandbox: SandboxServer) -> None:
    agent = add_agent(sandbox)
    path = f"/v1/agents/{agent}/presence"

    def presence() -> dict[str, Any]:
        response = http.get(path)
        assert response.status_code == 200
        data: dict[str, Any] = response.json()["data"]
        UserPresence.model_validate(data)
        return data

    advance(sandbox, 60)
    channel = path + "/working-channel"
    assert http.put(channel, json={"channel": "Email", "working": True}).status_code == 204
    now = presence()
    assert (now["connectionStatus"], now["presenceStatus"], now["activeChannels"]) == (
        "Online", "Working", ["Email"])
    assert now["lastSeen"] == format_local(sandbox.clock.now()) == now["requestTime"]

    http.put(channel, json={"channel": "InteractiveChat", "working": True})
    http.put(channel, json={"channel": "Email", "working": True})
    assert presence()["activeChannels"] == ["Email", "InteractiveChat"]
    http.put(channel, json={"channel": "Email", "working": False})
    assert presence()["presenceStatus"] == "Working"
    http.put(channel, json={"channel": "InteractiveChat", "working": False})
    after = presence()
    assert (after["connectionStatus"], after["presenceStatus"], after["activeChannels"]) == (
        "Online", "Away", [])


def test_working_channel_refusals(http: httpx2.Client, sandbox: SandboxServer) -> None:
    agent = add_agent(sandbox)
    channel = f"/v1/agents/{agent}/presence/working-channel"
    for body in ({"channel": "Fax", "working": True}, {"channel": "Email"},
                 {"channel": "Email", "working": "maybe"}, {}):
        response = http.put(channel, json=body)
        assert response.status_code == 400, body
        assert message(response).startswith("Invalid value in request")
    assert http.get(f"/v1/agents/{agent}/presence").json()["data"]["connectionStatus"] == (
        "Offline")
    ghost = f"/v1/agents/{UNKNOWN}/presence/working-channel"
    assert http.put(ghost, json={"channel": "Email", "working": True}).status_code == 404
    enduser = add_enduser(sandbox)
    assert http.put(f"/v1/agents/{enduser}/presence/working-channel",
                    json={"channel": "Email", "working": True}).status_code == 404
    assert http.get(f"/v1/agents/{UNKNOWN}/presence").status_code == 404
    assert http.get("/v1/agents/nope/presence").status_code == 400
