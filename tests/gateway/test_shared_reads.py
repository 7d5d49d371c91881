"""The team's shared reads and change feed, against a real sandbox behind a real gateway.

Requests to the service are counted where they leave the gateway (its transport to the
service), so "asked once" means the service saw one request.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2

from frontdesk.sandbox.server import SandboxServer
from gateway_harness import (
    DEMO_AGENT_EMAIL,
    PATIENCE,
    RunningGateway,
    customer_writes,
    running_gateway,
)


class Counting(httpx2.AsyncHTTPTransport):
    """The gateway's transport to the service, counting each request by method and path."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: Counter[tuple[str, str]] = Counter()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.seen[(request.method, request.url.path)] += 1
        return await super().handle_async_request(request)


def _open_conversation(sandbox: SandboxServer) -> int:
    rows = sandbox.query("SELECT id FROM conversations WHERE state = 'Open' ORDER BY id LIMIT 1")
    return int(rows[0]["id"])


def test_the_same_read_by_many_members_is_asked_of_the_service_once(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    counting = Counting()
    with running_gateway(sandbox, tmp_path, transport=counting, feed_interval=None) as gateway:
        keys = [gateway.add_member(agent, "agent") for agent in gateway.agent_ids()[:3]]
        conversation = _open_conversation(sandbox)
        path = f"/v1/conversations/{conversation}/messages"

        async def scene() -> list[httpx2.Response]:
            clients = [httpx2.AsyncClient(base_url=gateway.base_url, timeout=PATIENCE,
                                         headers={"Authorization": key}) for key in keys]
            try:
                return await asyncio.gather(*(client.get(path) for client in clients
                                              for _ in range(5)))
            finally:
                for client in clients:
                    await client.aclose()

        answers = asyncio.run(scene())
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.content for answer in answers}) == 1
    assert counting.seen[("GET", path)] == 1, counting.seen


def test_a_write_through_the_gateway_is_read_at_once_by_a_colleague(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path, feed_interval=None) as gateway:
        reader = gateway.add_member(gateway.agent_ids()[1], "agent")
        writer = gateway.add_member(DEMO_AGENT_EMAIL, "supervisor")
        writer_id = gateway.agent(DEMO_AGENT_EMAIL)["id"]
        conversation = _open_conversation(sandbox)
        path = f"/v1/conversations/{conversation}/messages"
        with gateway.client(reader) as reads, gateway.client(writer) as writes:
            before = reads.get(path).json()["data"]
            sent = writes.post(path, json={"_type": "Outbound", "agentId": writer_id,
                                           "content": {"_type": "Text",
                                                       "value": "shared at once"}})
            assert sent.status_code < 300, sent.text
            after = reads.get(path).json()["data"]
    assert len(after) == len(before) + 1
    assert "shared at once" in json.dumps(after)


def test_an_answer_kept_for_an_admin_is_never_served_to_an_agent(
        gateway: RunningGateway) -> None:
    admin = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    agent = gateway.add_member(gateway.agent_ids()[1], "agent")
    with gateway.client(admin) as admins, gateway.client(agent) as agents:
        assert admins.get("/v1/webhooks").status_code == 200
        refused = agents.get("/v1/webhooks")
    assert refused.status_code == 403 and refused.json()["requiredRole"] == "admin"


def _notices(gateway: RunningGateway, key: str, conversation: int,
             last: str | None = None) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The change stream's events (id, kind, data) as they come."""
    headers = {"Last-Event-ID": last} if last is not None else {}
    with gateway.client(key) as client, \
            client.stream("GET", "/gateway/v1/changes", headers=headers) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        for line in stream.iter_lines():
            if not line:
                if "event" in fields:
                    yield (fields.get("id", ""), fields["event"],
                           json.loads(fields.get("data", "{}")))
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.strip()


def test_an_outside_change_is_told_to_every_listener_and_read_afresh(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path, feed_interval=0.2) as gateway:
        key = gateway.add_member(gateway.agent_ids()[1], "agent")
        conversation = _open_conversation(sandbox)
        path = f"/v1/conversations/{conversation}/messages"
        with gateway.client(key) as reads:
            kept = reads.get(path).json()["data"]
        heard: list[tuple[str, str, dict[str, Any]]] = []
        for notice in _notices(gateway, key, conversation):
            heard.append(notice)
            if notice[1] == "hello":
                customer_writes(sandbox, conversation, "told to the team")
            elif notice[1] == "conversations" and conversation in notice[2]["conversations"]:
                break
        with gateway.client(key) as reads:
            fresh = reads.get(path).json()["data"]
        told = heard[-1][0]
        # a console that was away since that notice is told what it missed
        other = int(sandbox.query("SELECT id FROM conversations WHERE state = 'Open' "
                                  "AND id != ? ORDER BY id LIMIT 1", (conversation,))[0]["id"])
        customer_writes(sandbox, other, "while away")
        missed = next(notice for notice in _notices(gateway, key, other, last=told)
                      if notice[1] != "hello")
        stranger = next(notice for notice in _notices(gateway, key, conversation,
                                                      last="999999")
                        if notice[1] != "hello")
    assert len(fresh) == len(kept) + 1 and "told to the team" in json.dumps(fresh)
    assert missed[1] == "conversations" and other in missed[2]["conversations"]
    assert int(missed[0]) > int(told)
    assert stranger[1] == "reset"  # a number this gateway never gave: look at everything


def test_the_change_stream_needs_a_members_key(gateway: RunningGateway) -> None:
    with gateway.client(None) as anonymous:
        refused = anonymous.get("/gateway/v1/changes")
    assert refused.status_code == 401


def test_each_agents_own_presence_costs_the_service_one_read_of_everybodys(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    counting = Counting()
    with running_gateway(sandbox, tmp_path, transport=counting, feed_interval=None) as gateway:
        agents = gateway.agent_ids()[:4]
        keys = [gateway.add_member(agent, "agent") for agent in agents]

        async def scene() -> list[httpx2.Response]:
            clients = [httpx2.AsyncClient(base_url=gateway.base_url, timeout=PATIENCE,
                                         headers={"Authorization": key}) for key in keys]
            try:
                return await asyncio.gather(*(
                    client.get(f"/v1/agents/{agent}/presence")
                    for client, agent in zip(clients, agents, strict=True)))
            finally:
                for client in clients:
                    await client.aclose()

        answers = asyncio.run(scene())
        with gateway.client(keys[0]) as reads:
            unknown = reads.get("/v1/agents/00000000-0000-4000-8000-000000000000/presence")
    with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=PATIENCE) as direct:
        truth = [direct.get(f"/v1/agents/{agent}/presence").json()["data"] for agent in agents]
    assert [answer.status_code for answer in answers] == [200] * len(agents)
    got = [answer.json()["data"] for answer in answers]
    for mine, true in zip(got, truth, strict=True):
        mine.pop("requestTime", None)
        true.pop("requestTime", None)
    assert got == truth
    assert counting.seen[("GET", "/v1/agents/presence")] == 1, counting.seen
    assert not any(path.endswith("/presence") and path != "/v1/agents/presence"
                   for method, path in counting.seen if method == "GET" and
                   path != unknown.url.path)
    assert unknown.status_code == 404  # not in everybody's: asked of the service as it was


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _read(shared: Any, asked: Counter[str], path: str) -> None:
    """A GET of ``path`` through ``shared`` (a SharedReads), each fetch counted in ``asked``."""
    from frontdesk.gateway.routing import match
    from frontdesk.gateway.shared_reads import read_key

    route = match("main", "GET", path)
    assert route is not None

    async def fetch() -> httpx2.Response:
        asked[path] += 1
        return httpx2.Response(200, stream=httpx2.ByteStream(b"{}"))

    await shared.read(read_key("main", "GET", path, b"", "", b""), route, fetch)


def test_an_answer_lasts_as_long_as_what_it_holds_can_change_unseen() -> None:
    from frontdesk.gateway.shared_reads import FRESH, LASTING, SharedReads

    clock = _Clock()
    fed = [True]
    shared = SharedReads(clock=clock, fed=lambda: fed[0])
    asked: Counter[str] = Counter()

    async def read(path: str) -> None:
        await _read(shared, asked, path)

    paths = {"volatile": "/v1/agents/presence", "lasting": "/v1/tags",
             "watched": "/v1/conversations/7/messages"}

    async def scene() -> dict[str, list[int]]:
        seen: dict[str, list[int]] = {name: [] for name in paths}
        for step in (0.0, FRESH + 1, LASTING - FRESH - 2, FRESH + 1):
            clock.now += step
            for name, path in paths.items():
                await read(path)
                seen[name].append(asked[path])
        fed[0] = False  # the feed stopped hearing: what it watched lasts FRESH again
        clock.now += FRESH + 1
        for name, path in paths.items():
            await read(path)
            seen[name].append(asked[path])
        return seen

    seen = asyncio.run(scene())
    assert seen["volatile"] == [1, 2, 3, 4, 5]
    assert seen["lasting"] == [1, 1, 1, 2, 2]
    assert seen["watched"] == [1, 1, 1, 2, 3]
    shared.changed(["7"])  # the feed heard of it: read afresh whatever its age
    asyncio.run(read(paths["watched"]))
    assert asked[paths["watched"]] == 4


def test_every_role_is_told_the_same_changes(sandbox: SandboxServer, tmp_path: Path) -> None:
    """A conversation is readable by every role, so every member's stream tells of it."""
    with running_gateway(sandbox, tmp_path, feed_interval=0.2) as gateway:
        ids = gateway.agent_ids()
        keys = {role: gateway.add_member(ids[n], role)
                for n, role in enumerate(("agent", "supervisor", "admin"))}
        conversation = _open_conversation(sandbox)

        async def listen(key: str, ready: asyncio.Event) -> list[int]:
            async with httpx2.AsyncClient(base_url=gateway.base_url, timeout=PATIENCE,
                                         headers={"Authorization": key}) as client, \
                    client.stream("GET", "/gateway/v1/changes") as stream:
                event = ""
                async for line in stream.aiter_lines():
                    if line.startswith("event:"):
                        event = line.partition(":")[2].strip()
                        if event == "hello":
                            ready.set()
                    elif line.startswith("data:") and event == "conversations":
                        told: list[int] = json.loads(line.partition(":")[2])["conversations"]
                        if conversation in told:
                            return told
            return []

        async def scene() -> list[list[int]]:
            readies = {role: asyncio.Event() for role in keys}
            listening = [asyncio.create_task(listen(key, readies[role]))
                         for role, key in keys.items()]
            await asyncio.gather(*(ready.wait() for ready in readies.values()))
            await asyncio.to_thread(customer_writes, sandbox, conversation, "for everyone")
            return await asyncio.gather(*listening)

        told = asyncio.run(scene())
    assert all(conversation in each for each in told), told


def test_a_conversation_that_just_changed_is_read_afresh_until_it_cannot_change_untold() -> None:
    """The feed tells a conversation once while its overlapping searches keep finding it: a
    second change in that time is untold, so its answers (and the lists) last FRESH then."""
    from frontdesk.gateway.shared_reads import FRESH, HOT, SharedReads

    clock = _Clock()
    shared = SharedReads(clock=clock, fed=lambda: True)
    asked: Counter[str] = Counter()

    async def read(path: str) -> None:
        await _read(shared, asked, path)

    hot, calm = "/v1/conversations/7/messages", "/v1/conversations/8/messages"

    async def scene() -> None:
        await read(hot)
        await read(calm)
        shared.changed(["7"])  # told once: 7 may change again untold for HOT seconds
        await read(hot)
        await read(calm)
        clock.now += FRESH + 1
        await read(hot)  # hot: read afresh
        await read(calm)  # 8 did not change: kept
        clock.now += HOT
        await read(hot)  # read afresh once more (it was hot when last read) …
        clock.now += FRESH + 1
        await read(hot)  # … and kept from then on

    asyncio.run(scene())
    assert asked[hot] == 4
    assert asked[calm] == 1


def test_a_late_look_tells_every_conversation_it_finds_and_resets_nothing() -> None:
    """A look long after the last (the feed waited its turn behind a busy team) cannot tell
    which of the conversations the last look found changed again: it tells them all, and
    drops no answer but theirs (a reset would send every console searching at once)."""
    from datetime import UTC, datetime, timedelta

    from frontdesk.gateway.change_feed import ChangeFeed
    from frontdesk.gateway.shared_reads import SharedReads

    service = [datetime(2026, 1, 5, 9, 0, tzinfo=UTC)]
    answers: list[set[int]] = [{7}, {7}, {7, 8}]

    class Scripted(ChangeFeed):
        """The feed with the service's clock and search answers scripted."""

        async def service_now(self) -> datetime:
            return service[0]

        async def _search(self, since: datetime) -> tuple[set[int], bool]:
            return answers.pop(0), True

    feed = Scripted(None, SharedReads())  # type: ignore[arg-type]

    async def scene() -> list[tuple[str, tuple[int, ...]]]:
        await feed.look()  # 7 found: told
        service[0] += timedelta(seconds=2)
        await feed.look()  # 7 again, 2 s later: within the overlap, not told again
        service[0] += timedelta(seconds=40)
        await feed.look()  # 40 s later: 7 may have changed again; told with 8
        return [(notice.kind, notice.conversations) for notice in feed.missed(0)]

    told = asyncio.run(scene())
    assert told == [("conversations", (7,)), ("conversations", (7, 8))]


def test_a_second_change_within_the_overlap_is_told_one_overlap_later() -> None:
    """The searches overlap, so a conversation is found again by the looks after the one
    that told it, and the search gives no times: found by a look whose window opens after
    the telling, it changed again, and is told again (not lost, not told at every look)."""
    from datetime import UTC, datetime, timedelta

    from frontdesk.gateway.change_feed import INTERVAL, OVERLAP, ChangeFeed
    from frontdesk.gateway.shared_reads import SharedReads

    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    service = [start]
    changes = [start - timedelta(seconds=1), start + timedelta(seconds=3)]  # 7's activity

    class Scripted(ChangeFeed):
        """The feed with the service's clock and search scripted: conversation 7 changed
        just before the first look and again 3 s later, found by every search whose window
        reaches either change (a search on activity since a time)."""

        async def service_now(self) -> datetime:
            return service[0]

        async def _search(self, since: datetime) -> tuple[set[int], bool]:
            return ({7} if any(when >= since for when in changes) else set()), True

    feed = Scripted(None, SharedReads())  # type: ignore[arg-type]
    step = timedelta(seconds=INTERVAL)

    async def scene() -> list[tuple[int, ...]]:
        for _ in range(int((OVERLAP * 2) / step) + 2):
            await feed.look()
            service[0] += step
        return [notice.conversations for notice in feed.missed(0)]

    told = asyncio.run(scene())
    assert told == [(7,), (7,)]  # told, then once more when a window opened after the telling


def test_the_feeds_clock_is_not_set_by_a_reading_that_waited_behind_a_busy_team() -> None:
    """The service's time read after a long wait for the budget would put the feed's clock
    ahead of the service's (its looks would then search the future): such a reading is kept
    only when there is no other, and read again soon."""
    from datetime import UTC, datetime, timedelta

    from frontdesk.gateway.change_feed import ChangeFeed
    from frontdesk.gateway.shared_reads import SharedReads

    wall = [datetime(2026, 1, 5, 9, 0, tzinfo=UTC)]
    waits = [0.2, 60.0]  # the second reading waits a minute for its turn

    class Scripted(ChangeFeed):
        """The feed with the service's answers scripted; the service's clock = this one."""

        async def _get(self, path: str, query: bytes) -> object:
            if path.endswith("/status"):
                wait = waits.pop(0)
                wall[0] += timedelta(seconds=wait)  # answered at the end of the wait
                return {"data": {"timestamp": wall[0].isoformat()}}
            return {"data": [{"id": "hours"}]}

    monotonic = [0.0]
    feed = Scripted(None, SharedReads(), clock=lambda: monotonic[0],  # type: ignore[arg-type]
                    wall=lambda: wall[0])

    async def scene() -> tuple[timedelta, timedelta]:
        first = await feed.service_now() - wall[0]
        monotonic[0] += 601  # time to read the clock again
        second = await feed.service_now() - wall[0]
        return first, second

    first, second = asyncio.run(scene())
    assert abs(first) <= timedelta(seconds=0.2)
    assert abs(second) <= timedelta(seconds=0.2)  # not 30 s ahead
