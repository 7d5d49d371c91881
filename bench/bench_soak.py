"""A soak of the team gateway: 40 members reading and writing through one gateway on a sandbox
enforcing the service's budget, customers writing all along, then every answer checked.

The gateway runs in this process with its change feed on (every 2 s), in front of a
rate-limited sandbox of its own. Each member is a loop of what a console does: read a
conversation's record and messages, now and then search, now and then reply. Meanwhile a
customer writes into a random open conversation twice a second, straight to the service (as
the channel would). When the time is up the writing stops, and after the polling bound
(10 s) each member reads every conversation it read, through the gateway, and compares each
answer with the service's own: an answer that differs is stale.

Reported: ``soak.stale[40]``, the stale answers found (budget: none), with the 429s any member
saw (budget: none) and the requests beside.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2

from .bench_team import enough_agents
from .common import BenchContext, Result, ServerInfo, db_rows, measured

MEMBERS = 40
BOUND = 10.0  # seconds: an outside change is seen by polling within this


async def _read(direct: httpx2.AsyncClient, path: str) -> Any:
    """The service's own answer, read with the gateway's key beside the gateway: a 429 (the
    two share the key's budget) is waited out."""
    for _ in range(60):
        answer = await direct.get(path)
        if answer.status_code != 429:
            answer.raise_for_status()
            return answer.json()
        await asyncio.sleep(float(answer.headers.get("Retry-After", "1")))
    raise RuntimeError(f"{path}: the service answered 429 a minute long")


async def _soak(server: ServerInfo, members_n: int, seconds: float,
                folder: Path) -> dict[str, Any]:
    from frontdesk.api.roles import Role
    from frontdesk.api.secrets import ApiKey
    from frontdesk.gateway.app import GatewayConfig
    from frontdesk.gateway.members import Members
    from frontdesk.gateway.server import GatewayServer

    await enough_agents(server, members_n)
    agents = db_rows(Path(server.db_path), "SELECT id, email, display_name FROM users "
                     "WHERE kind = 'agent' ORDER BY id LIMIT ?", (members_n,))
    db = folder / "gateway" / "gateway.db"
    members = Members(db)
    keys = [members.add(a["id"], a["email"], a["display_name"], Role.AGENT)[1]
            for a in agents]
    open_ids = [int(r["id"]) for r in db_rows(
        Path(server.db_path), "SELECT id FROM conversations WHERE state = 'Open' "
        "ORDER BY id LIMIT 60", ())]
    gateway = GatewayServer(GatewayConfig(upstream_url=server.base_url,
                                          upstream_key=ApiKey(server.key), db=db)).start()
    statuses: Counter[int] = Counter()
    read_by: list[set[int]] = [set() for _ in keys]
    stop = asyncio.Event()
    rng = random.Random(11)

    async def seen(response: httpx2.Response) -> None:
        statuses[response.status_code] += 1

    def client(key: str) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(base_url=gateway.base_url, timeout=90.0,
                                 headers={"Authorization": key},
                                 event_hooks={"response": [seen]})

    async def member(index: int, key: str, agent_id: str) -> None:
        async with client(key) as http:
            while not stop.is_set():
                cid = rng.choice(open_ids)
                read_by[index].add(cid)
                await http.get(f"/v1/conversations/{cid}")
                await http.get(f"/v1/conversations/{cid}/messages")
                roll = rng.random()
                if roll < 0.05:
                    await http.post(f"/v1/conversations/{cid}/messages", json={
                        "_type": "Outbound", "agentId": agent_id,
                        "content": {"_type": "Text", "value": f"soak reply {index}"}})
                elif roll < 0.15:
                    await http.post("/v1/search/conversations", json={"filters": {
                        "strategy": "All", "conditions": [{"field": {
                            "_type": "Status", "operator": {
                                "_type": "IsOneOf", "values": ["open"]}}}]}})

    async def customers() -> None:
        async with httpx2.AsyncClient(base_url=server.base_url, timeout=60.0,
                                     headers={"Authorization": server.key}) as direct:
            while not stop.is_set():
                cid = rng.choice(open_ids)
                await direct.post(f"/v1/conversations/{cid}/messages", json={
                    "_type": "Inbound", "content": {"_type": "Text", "value": "soak"}})
                await asyncio.sleep(0.5)

    try:
        work = [asyncio.create_task(member(i, key, agents[i]["id"]))
                for i, key in enumerate(keys)]
        work.append(asyncio.create_task(customers()))
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*work)
        requests = sum(statuses.values())
        await asyncio.sleep(BOUND)  # the polling bound: every change is seen by now
        stale = 0
        checked = 0
        async with httpx2.AsyncClient(base_url=server.base_url, timeout=60.0,
                                     headers={"Authorization": server.key}) as direct:
            truth: dict[str, Any] = {}
            for cid in sorted(set().union(*read_by)):
                for part in ("", "/messages"):
                    path = f"/v1/conversations/{cid}{part}"
                    truth[path] = await _read(direct, path)
            for index, key in enumerate(keys):
                async with client(key) as http:
                    for cid in sorted(read_by[index]):
                        for part in ("", "/messages"):
                            path = f"/v1/conversations/{cid}{part}"
                            checked += 1
                            if (await http.get(path)).json() != truth[path]:
                                stale += 1
        return {"stale": stale, "checked": checked, "requests": requests,
                "429": statuses[429], "statuses": dict(statuses)}
    finally:
        gateway.stop()


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """Stale answers and 429s after a soak of the gateway by 40 members."""
    server = ctx.server("soak")
    members_n, seconds = (8, 10.0) if ctx.quick else (MEMBERS, 180.0)
    folder = Path(tempfile.mkdtemp(prefix="bench-soak-"))
    try:
        found = asyncio.run(_soak(server, members_n, seconds, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [measured(
        f"soak.stale[{members_n}]", f"{members_n} members through one gateway for "
        f"{seconds:g} s: stale answers after {BOUND:g} s", [found["stale"]], unit="count",
        budget="none, and no 429", met=found["stale"] == 0 and found["429"] == 0,
        note=f"{found['checked']:,} answers checked; {found['requests']:,} requests by the "
             f"members, {found['429']} answered 429")], found
