"""One budget upstream for the whole team: writes before interactive reads before background
reads, fair turns across members, and the service's 429s waited out inside the gateway."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from frontdesk.api.pacing import Pacer, Priority
from frontdesk.gateway.upstream import Turns
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


def test_turns_put_a_claim_and_a_colleagues_read_ahead_of_another_members_fill() -> None:
    """The order alone, on a clock that moves only when the pacer sleeps (so no machine's
    load changes it): a write goes first, a colleague's background read right after the
    turn being served, the filler's reads after."""
    now = [0.0]

    async def sleep(delay: float) -> None:
        now[0] += delay
        await asyncio.sleep(0)

    async def scene() -> list[str]:
        pacer, turns, order = Pacer(10.0, 1, clock=lambda: now[0], sleep=sleep), Turns(), []

        async def one(member: str, priority: Priority, label: str) -> None:
            turn = turns.take(priority, member)
            await pacer.acquire(priority, turn=turn)
            turns.served(priority, turn)
            order.append(label)

        tasks = [asyncio.create_task(one("filler", Priority.BACKGROUND, "fill"))
                 for _ in range(FILL)]
        await asyncio.sleep(0)  # the fill is queued
        tasks += [asyncio.create_task(one("reader", Priority.BACKGROUND, "read")),
                  asyncio.create_task(one("claimer", Priority.INTERACTIVE, "claim"))]
        await asyncio.gather(*tasks)
        return order

    order = asyncio.run(scene())
    assert order.index("claim") <= 2 < order.index("read") <= 4, order


def test_a_claim_and_a_colleagues_read_go_before_another_members_fill(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path, rate=10.0, burst=1) as gateway:
        ids = gateway.agent_ids()
        filler, reader = gateway.add_member(ids[1], "agent"), gateway.add_member(ids[2], "agent")
        claimer = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
        own = gateway.agent(DEMO_AGENT_EMAIL)["id"]
        conversation = sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
            "ORDER BY id LIMIT 1")[0]["id"]
        done: list[str] = []

        async def call(client: httpx2.AsyncClient, label: str, method: str, path: str,
                       **options: Any) -> int:
            answer = await client.request(method, path, **options)
            done.append(label)
            return answer.status_code

        def client(key: str) -> httpx2.AsyncClient:
            return httpx2.AsyncClient(base_url=gateway.base_url, timeout=PATIENCE,
                                     headers={"Authorization": key})

        async def scene() -> list[int]:
            background = {"X-Frontdesk-Priority": "background"}
            async with client(filler) as fills, client(reader) as reads, \
                    client(claimer) as claims:
                # each fill a read of its own (the same read would be asked once for all)
                fill = [asyncio.create_task(call(fills, "fill", "GET",
                                                 f"/v1/tags?pageLimit={n + 1}",
                                                 headers=background)) for n in range(FILL)]
                await _until_waiting(gateway, 8)
                late = [asyncio.create_task(call(reads, "read", "GET", "/v1/tags",
                                                 headers=background)),
                        asyncio.create_task(call(claims, "claim", "PUT",
                                                 f"/v1/conversations/{conversation}/claim",
                                                 json={"agentId": own}))]
                return await asyncio.gather(*fill, *late)

        statuses = asyncio.run(scene())
    assert all(status < 300 for status in statuses), statuses
    fills_before = {label: done[:done.index(label)].count("fill") for label in ("read", "claim")}
    # 8 or more fills were still waiting when the two came: neither waited for them
    assert max(fills_before.values()) < FILL - 4, done


def test_the_change_feed_looks_ahead_of_a_teams_reads(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """A team's first start queues many reads behind the one budget; the feed's look must not
    wait behind them (the shared answers last only while it looks on time)."""
    with running_gateway(sandbox, tmp_path, rate=2.0, burst=1, feed_interval=0.2) as gateway:
        keys = [gateway.add_member(agent, "agent") for agent in gateway.agent_ids()[:4]]
        feed, upstream = gateway.state.feed, gateway.state.upstream
        assert feed is not None and upstream is not None
        conversations = [row["id"] for row in sandbox.query(
            "SELECT id FROM conversations ORDER BY id LIMIT 24")]

        async def scene() -> int:
            clients = [httpx2.AsyncClient(base_url=gateway.base_url, timeout=PATIENCE,
                                          headers={"Authorization": key}) for key in keys]
            # each read a read of its own (the same read would be asked once for all)
            reads = [asyncio.create_task(clients[n % len(clients)].get(
                f"/v1/conversations/{conversation}"))
                for n, conversation in enumerate(conversations)]
            try:
                await _until_waiting(gateway, 16)
                looks = feed.searches
                deadline = time.monotonic() + PATIENCE
                while feed.searches == looks:
                    assert time.monotonic() < deadline, "the feed never looked"
                    await asyncio.sleep(0.01)
                return upstream.pacer.waiting
            finally:
                for read in reads:
                    read.cancel()
                await asyncio.wait(reads)
                for client in clients:
                    await client.aclose()

        still_waiting = asyncio.run(scene())
    # at two a second, the team's reads take many seconds: the look went before most of them
    assert still_waiting >= 10, still_waiting


def test_the_services_429s_are_waited_out_inside_the_gateway(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    gateway.sandbox.faults.rate_limit(retry_after=0.1, count=3)
    with gateway.client(key) as member:
        answer = member.get("/v1/tags")
        assert answer.status_code == 200 and answer.json()["data"]
        assert gateway.sandbox.faults.fired >= 3
        gateway.sandbox.faults.rate_limit(retry_after=3600, count=1)
        # another read (the first is kept for the team): no retry can succeed in time, so
        # the 429 is passed on as it is
        refused = member.get("/v1/tags", params={"pageLimit": 7})
        assert refused.status_code == 429 and refused.headers["Retry-After"]


def test_a_write_whose_answer_breaks_is_audited_as_the_service_said_and_breaks_for_the_member(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    gateway.sandbox.faults.drop_after_commit(methods=("POST",))
    with gateway.client(key) as member:
        with pytest.raises(httpx2.TransportError):  # as from the service: never a whole body
            member.post("/v1/tags", json={"name": "answer lost"})
        entry = member.get("/gateway/v1/audit").json()["data"][0]
    assert (entry["operation"], entry["status"], entry["state"]) == ("tags.create", 200,
                                                                      "done")


class _Seen(httpx2.AsyncHTTPTransport):
    """The gateway's transport to the service, keeping the paths it sent."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.paths.append(request.url.path)
        return await super().handle_async_request(request)


def test_a_read_whose_console_gave_up_waiting_its_turn_is_never_sent(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """A team's first start queues reads behind the one budget; a console that stops waiting
    (its own timeout) takes its read out of the queue rather than leave it to be sent for
    nobody."""
    seen = _Seen()
    with running_gateway(sandbox, tmp_path, rate=0.001, burst=1, transport=seen) as gateway:
        key = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
        upstream = gateway.state.upstream
        assert upstream is not None

        async def scene() -> None:
            async with httpx2.AsyncClient(base_url=gateway.base_url, timeout=PATIENCE,
                                         headers={"Authorization": key}) as member:
                assert (await member.get("/v1/tags")).status_code == 200  # the one token
                waiting = asyncio.create_task(member.get("/v1/queues"))
                await _until_waiting(gateway, 1)
                waiting.cancel()  # the console gives up: its connection closes
                await asyncio.wait({waiting})
            deadline = time.monotonic() + PATIENCE
            while upstream.pacer.waiting:
                assert time.monotonic() < deadline, "the read stayed in the queue"
                await asyncio.sleep(0.01)

        asyncio.run(scene())
    assert seen.paths == ["/v1/tags"]
