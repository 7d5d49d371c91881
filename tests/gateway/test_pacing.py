"""One budget upstream for the whole team: writes before interactive reads before background
reads, fair turns across members, and the service's 429s waited out inside the gateway."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from frontdesk.sandbox.server import SandboxServer
from gateway_harness import DEMO_AGENT_EMAIL, PATIENCE, RunningGateway, running_gateway

FILL = 20  # one console's first fill: many background reads at once


async def _until_waiting(gateway: RunningGateway, count: int) -> None:
    """Until ``count`` requests wait for the budget (a settled state, not a time)."""
    upstream = gateway.state.upstream
    assert upstream is not None
    deadline = time.monotonic() + PATIENCE
    while upstream.pacer.waiting < count:
        assert time.monotonic() < deadline, "the requests never queued"
        await asyncio.sleep(0.01)


def test_a_claim_and_a_colleagues_read_go_before_another_members_fill(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path, rate=10.0, burst=4) as gateway:
        ids = gateway.agent_ids()
        filler, reader = gateway.add_member(ids[1], "agent"), gateway.add_member(ids[2], "agent")
        claimer = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
        own = gateway.agent(DEMO_AGENT_EMAIL)["id"]
        conversation = sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "ORDER BY id LIMIT 1")[0]["id"]
        done: list[str] = []

        async def call(key: str, label: str, method: str, path: str,
                       **options: object) -> int:
            async with httpx.AsyncClient(base_url=gateway.base_url, timeout=PATIENCE,
                                         headers={"Authorization": key}) as client:
                answer = await client.request(method, path, **options)  # type: ignore[arg-type]
            done.append(label)
            return answer.status_code

        async def scene() -> list[int]:
            background = {"X-Frontdesk-Priority": "background"}
            fill = [asyncio.create_task(call(filler, "fill", "GET", "/v1/tags",
                                             headers=background)) for _ in range(FILL)]
            await _until_waiting(gateway, FILL - 8)
            late = [asyncio.create_task(call(reader, "read", "GET", "/v1/tags",
                                             headers=background)),
                    asyncio.create_task(call(claimer, "claim", "PUT",
                                             f"/v1/conversations/{conversation}/claim",
                                             json={"agentId": own, "force": True}))]
            return await asyncio.gather(*fill, *late)

        statuses = asyncio.run(scene())
    assert all(status < 300 for status in statuses), statuses
    fills_before = {label: done[:done.index(label)].count("fill") for label in ("read", "claim")}
    assert fills_before["claim"] <= fills_before["read"] < 10, done


def test_the_services_429s_are_waited_out_inside_the_gateway(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    gateway.sandbox.faults.rate_limit(retry_after=0.1, count=3)
    with gateway.client(key) as member:
        answer = member.get("/v1/tags")
        assert answer.status_code == 200 and answer.json()["data"]
        assert gateway.sandbox.faults.fired >= 3
        gateway.sandbox.faults.rate_limit(retry_after=3600, count=1)
        refused = member.get("/v1/tags")  # no retry can succeed in time: passed on as it is
        assert refused.status_code == 429 and refused.headers["Retry-After"]


def test_a_write_whose_answer_breaks_is_audited_as_the_service_said_and_breaks_for_the_member(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    gateway.sandbox.faults.drop_after_commit(methods=("POST",))
    with gateway.client(key) as member:
        with pytest.raises(httpx.TransportError):  # as from the service: never a whole body
            member.post("/v1/tags", json={"name": "answer lost"})
        entry = member.get("/gateway/v1/audit").json()["data"][0]
    assert (entry["operation"], entry["status"], entry["state"]) == ("tags.create", 200,
                                                                      "done")
