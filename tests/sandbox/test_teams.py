"""The sandbox's teams: create, read, delete, members and the members' presence."""

from __future__ import annotations

from typing import Any

import httpx2
from factories_people import add_agent, add_enduser, add_team, set_presence, walk

from frontdesk.api.models import Team, TeamMember, UserPresence
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def message(response: httpx2.Response) -> str:
    """The error message of a refused request."""
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


def members(http: httpx2.Client, team: str) -> list[str]:
    """Ids of the team's members, through the API."""
    response = http.get(f"/v1/teams/{team}/agents")
    assert response.status_code == 200
    return [TeamMember.model_validate(m).id for m in response.json()["data"]]


def test_create_read_list_delete(http: httpx2.Client) -> None:
    created = http.post("/v1/teams", json={"name": "  Tier 2 "})
    assert created.status_code == 200
    team = Team.model_validate(created.json()["data"])
    assert team.name == "Tier 2"
    assert http.get(f"/v1/teams/{team.id}").json()["data"] == {"id": team.id, "name": "Tier 2"}
    listed = http.get("/v1/teams").json()["data"]
    assert {"id": team.id, "name": "Tier 2"} in listed
    for item in listed:
        Team.model_validate(item)
    assert http.delete(f"/v1/teams/{team.id}").status_code == 204
    assert http.get(f"/v1/teams/{team.id}").status_code == 404
    assert http.delete(f"/v1/teams/{team.id}").status_code == 404


def test_team_refusals(http: httpx2.Client) -> None:
    for body in ({}, {"name": ""}, {"name": "   "}, {"name": 7, "color": "red"}):
        assert http.post("/v1/teams", json=body).status_code == 400, body
    assert http.get("/v1/teams/not-a-uuid").status_code == 400
    assert http.get(f"/v1/teams/{UNKNOWN}").status_code == 404
    assert http.get(f"/v1/teams/{UNKNOWN}/agents").status_code == 404
    assert http.get(f"/v1/teams/{UNKNOWN}/presence").status_code == 404


def test_add_and_remove_members(http: httpx2.Client, sandbox: SandboxServer) -> None:
    team = add_team(sandbox, "Support")
    first = add_agent(sandbox, display_name="First", phone_number="+4512345678")
    second = add_agent(sandbox)
    path = f"/v1/teams/{team}/agents"
    added = http.patch(path, json={"agentIds": [first, second]})
    assert added.status_code == 204 and added.content == b""
    assert http.patch(path, json={"agentIds": [first]}).status_code == 204
    assert sorted(members(http, team)) == sorted([first, second])
    entry = next(m for m in http.get(path).json()["data"] if m["id"] == first)
    assert entry["name"] == "First" and entry["phoneNumber"] == "+4512345678"
    assert entry["email"].endswith("@example.test")

    removed = http.request("DELETE", path, json={"agentIds": [first, UNKNOWN]})
    assert removed.status_code == 204
    assert members(http, team) == [second]
    assert http.get(f"/v1/agents/{first}/teams").json()["data"] == []


def test_adding_a_non_agent_adds_nobody(http: httpx2.Client, sandbox: SandboxServer) -> None:
    team = add_team(sandbox)
    agent = add_agent(sandbox)
    enduser = add_enduser(sandbox)
    path = f"/v1/teams/{team}/agents"
    for stranger in (UNKNOWN, enduser):
        response = http.patch(path, json={"agentIds": [agent, stranger]})
        assert response.status_code == 400
        assert stranger in message(response)
    assert members(http, team) == []
    bodies: list[Any] = [{}, {"agentIds": []}, {"agentIds": ["nope"]}, {"agentIds": agent}]
    for body in bodies:
        assert http.patch(path, json=body).status_code == 400, body
        assert http.request("DELETE", path, json=body).status_code == 400, body
    assert http.request("DELETE", path).status_code == 400
    assert http.patch(f"/v1/teams/{UNKNOWN}/agents",
                      json={"agentIds": [agent]}).status_code == 404
    assert http.request("DELETE", f"/v1/teams/{UNKNOWN}/agents",
                        json={"agentIds": [agent]}).status_code == 404


def test_deleting_a_team_keeps_its_agents(http: httpx2.Client, sandbox: SandboxServer) -> None:
    agent = add_agent(sandbox)
    team = add_team(sandbox, "Gone", [agent])
    assert http.delete(f"/v1/teams/{team}").status_code == 204
    assert http.get(f"/v1/agents/{agent}").status_code == 200
    assert http.get(f"/v1/agents/{agent}/teams").json()["data"] == []


def test_presence_of_members_is_paged(http: httpx2.Client, sandbox: SandboxServer) -> None:
    agents = [add_agent(sandbox) for _ in range(3)]
    team = add_team(sandbox, "Night shift", agents)
    add_team(sandbox, "Other", [add_agent(sandbox)])
    set_presence(sandbox, agents[0], channels=["Messaging"])
    items, pages = walk(http, f"/v1/teams/{team}/presence", {"pageLimit": 2})
    assert pages == 2
    assert sorted(p["userId"] for p in items) == sorted(agents)
    by_id = {p["userId"]: UserPresence.model_validate(p) for p in items}
    assert by_id[agents[0]].active_channels == ["Messaging"]
    assert by_id[agents[0]].connection_status == "Online"
    assert by_id[agents[1]].connection_status == "Offline"
    assert http.get(f"/v1/teams/{team}/presence", params={"pageKey": "e30"}).status_code == 400
