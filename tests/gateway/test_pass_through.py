"""The service's API through the gateway: the same paths, answers and errors, with a member's
personal key instead of the organisation's."""

from __future__ import annotations

import asyncio

import httpx2

from frontdesk.api.client import ApiClient
from gateway_harness import DEMO_AGENT_EMAIL, PATIENCE, RunningGateway


def test_health_answers_without_a_key_and_me_names_the_member(
        shared_gateway: RunningGateway) -> None:
    key = shared_gateway.add_member(DEMO_AGENT_EMAIL, "agent")
    agent = shared_gateway.agent(DEMO_AGENT_EMAIL)
    with shared_gateway.client(None) as anonymous:
        health = anonymous.get("/gateway/v1/health")
        assert health.status_code == 200
        assert health.json() == {"data": {"status": "ok", "upstream": "ok"}}
        refused = anonymous.get("/gateway/v1/me")
        assert refused.status_code == 401 and refused.json()["message"]
        assert anonymous.get("/v1/conversations/search").status_code == 401
    with shared_gateway.client(key) as member:
        me = member.get("/gateway/v1/me").json()["data"]
        assert me["agentId"] == agent["id"] and me["email"] == agent["email"]
        assert me["role"] == "agent" and me["name"] == agent["display_name"]
        assert isinstance(me["memberId"], str)
    with shared_gateway.client("fdg_not-a-key") as stranger:
        assert stranger.get("/gateway/v1/me").status_code == 401


def test_reads_and_errors_pass_through_as_the_service_gives_them(
        shared_gateway: RunningGateway) -> None:
    key = shared_gateway.add_member(shared_gateway.agent_ids()[1], "admin")
    direct = shared_gateway.sandbox
    with shared_gateway.client(key) as member, \
            httpx2.Client(base_url=direct.base_url, headers={"Authorization": direct.key},
                         timeout=PATIENCE) as service:
        for path in ("/v1/agents?pageLimit=3", "/v1/tags", "/v1/conversations/nope"):
            through, straight = member.get(path), service.get(path)
            assert through.status_code == straight.status_code
            assert through.headers["content-type"] == straight.headers["content-type"]
            assert through.json() == straight.json()
        unknown = member.get("/v1/no-such-thing")
        assert unknown.status_code == 404 and "not an operation" in unknown.json()["message"]
        listing = member.get("/integrations/v1/endpoints")
        assert listing.status_code == 200 and "data" in listing.json()


def test_the_typed_client_works_through_the_gateway(shared_gateway: RunningGateway) -> None:
    key = shared_gateway.add_member(shared_gateway.agent_ids()[2], "admin")

    async def use() -> tuple[int, int]:
        async with ApiClient(shared_gateway.base_url, key,
                             shared_gateway.integrations_url) as client:
            agents = [agent async for agent in client.agents.list()]
            endpoints = [e async for e in client.integrations.list_endpoints()]
            return len(agents), len(endpoints)

    agents, endpoints = asyncio.run(use())
    assert agents == len(shared_gateway.agent_ids()) and endpoints > 0
