"""The team gateway's added latency per request: a read passed on, and a read answered from
the team's shared answers, over loopback; and its memory with a team connected.

The sandbox (the run's small one, another process) is read directly and through a gateway
(``frontdesk gateway serve`` in a process of its own, in front of that sandbox, its pacer
opened wide so that only the gateway's own work is measured), one request at a time from
this process with one keep-alive ``httpx2.AsyncClient`` each: ``GET /v1/conversations/{id}``
for the same ids, in alternating blocks (direct, gateway, gateway, direct, …) so the
machine's drift hits both alike. Each request through the gateway costs what it adds: the
member's key looked up (SQLite), the operation matched, the guard, the pacer, the request
sent on a kept-alive connection and the answer streamed back.

Reported: the median and p10-p90 of each side, and the added latency: the median of the
through-the-gateway times minus the median of the direct ones (budget ≤ 2 ms), with the
same difference at p95 beside it.

Then the gateway's memory (its process's resident set, from ``/proc``) with
:data:`CONNECTED` members' consoles listening to its change stream and the organisation read
through it whole, so that it holds every answer it may keep: each conversation's record,
messages, notes and tags, every end user, the directory (budget ≤ 250 MB).
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

from .common import (
    BenchContext,
    Result,
    ServerInfo,
    db_rows,
    free_port,
    measured,
    median,
    percentile,
)

BUDGET_MS = 2.0
CACHED_P95_MS = 5.0
#: Consoles listening to the change stream while the memory is measured.
CONNECTED = 200
MEMORY_BUDGET_MB = 250.0


def _start_gateway(server: ServerInfo, folder: Path) -> tuple[subprocess.Popen[bytes], str,
                                                               str]:
    """A gateway process in front of ``server``; (process, base URL, an admin's key)."""
    from frontdesk.api.roles import Role
    from frontdesk.gateway.members import Members

    db = folder / "gateway" / "gateway.db"
    agent = db_rows(Path(server.db_path),
                    "SELECT id, email, display_name FROM users WHERE kind = 'agent' "
                    "ORDER BY id LIMIT 1")[0]
    members = Members(db)
    _, key = members.add(agent["id"], agent["email"], agent["display_name"], Role.ADMIN)
    for index in range(CONNECTED):  # the team whose consoles listen (the memory measured)
        members.add(f"bench-member-{index}", f"member-{index}@example.com", None, Role.AGENT)
    port = free_port()
    env = {**os.environ, "FRONTDESK_UPSTREAM_KEY": server.key}
    process = subprocess.Popen(
        [sys.executable, "-m", "frontdesk", "gateway", "serve", "--upstream", server.base_url,
         "--db", str(db), "--port", str(port), "--rate", "1000000", "--burst", "100000"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the gateway ended before it served")
        try:
            if httpx2.get(url + "/gateway/v1/health", timeout=5).status_code == 200:
                return process, url, key
        except httpx2.TransportError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the gateway did not serve within 60 s")


async def _measure(server: ServerInfo, gateway_url: str, key: str, ids: list[int],
                   blocks: int, per_block: int, cached_ms: list[float]
                   ) -> tuple[list[float], list[float]]:
    direct = httpx2.AsyncClient(base_url=server.base_url, timeout=15.0,
                               headers={"Authorization": server.key})
    through = httpx2.AsyncClient(base_url=gateway_url, timeout=15.0,
                                headers={"Authorization": key})
    direct_ms: list[float] = []
    through_ms: list[float] = []
    rng = random.Random(7)

    async def one(client: httpx2.AsyncClient, cid: int) -> float:
        start = time.perf_counter()
        response = await client.get(f"/v1/conversations/{cid}")
        response.raise_for_status()
        return (time.perf_counter() - start) * 1000

    cycle = list(ids)
    rng.shuffle(cycle)
    try:
        for cid in ids[:20]:  # open the connections, warm both paths
            await one(direct, cid)
            await one(through, cid)
        for block in range(blocks):
            # each id once in the run: a read is never one the gateway holds, so every
            # one goes to the service
            start = block * per_block % len(cycle)
            chosen = (cycle + cycle)[start:start + per_block]
            order = (direct, through) if block % 2 == 0 else (through, direct)
            for client in order:
                times = [await one(client, cid) for cid in chosen]
                (direct_ms if client is direct else through_ms).extend(times)
        # the same few ids again and again: answered from the team's shared answers
        for _ in range(max(2, blocks // 2)):
            for cid in ids[:20]:
                await one(through, cid)
                cached_ms.append(await one(through, cid))
    finally:
        await direct.aclose()
        await through.aclose()
    return direct_ms, through_ms


def _resident_mb(pid: int) -> float:
    """The resident set of process ``pid``, in MB (Linux's ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc")


async def _team_connected(server: ServerInfo, gateway_url: str, admin_key: str,
                          folder: Path, pid: int) -> dict[str, Any]:
    """:data:`CONNECTED` consoles listening, the organisation read whole through the gateway:
    the gateway's resident memory then, and what it keeps."""
    from frontdesk.gateway.members import Members

    keys: list[str] = []
    members = Members(folder / "gateway" / "gateway.db")
    for index in range(CONNECTED):
        keys.append(members.rotate(f"bench-member-{index}")[1])
    before = _resident_mb(pid)
    hello = 0
    streams: list[Any] = []
    limits = httpx2.Limits(max_connections=CONNECTED + 8)
    async with httpx2.AsyncClient(base_url=gateway_url, timeout=60.0, limits=limits) as http:
        for key in keys:
            stream = http.stream("GET", "/gateway/v1/changes", headers={"Authorization": key})
            response = await stream.__aenter__()
            streams.append((stream, response))
        for _, response in streams:
            async for line in response.aiter_lines():
                if line.startswith("event:") and "hello" in line:
                    hello += 1
                    break
        listening = _resident_mb(pid)
        db = Path(server.db_path)
        conversations = [int(r["id"]) for r in db_rows(db, "SELECT id FROM conversations")]
        users = [r["id"] for r in db_rows(db, "SELECT id FROM users WHERE kind = 'enduser'")]
        paths = [f"/v1/conversations/{cid}{part}" for cid in conversations
                 for part in ("", "/messages", "/notes", "/tags")]
        paths += [f"/v1/endusers/{uid}" for uid in users]
        paths += ["/v1/agents", "/v1/queues", "/v1/tags", "/v1/teams", "/v1/agents/presence"]
        headers = {"Authorization": admin_key}
        read = 0
        for start in range(0, len(paths), 32):
            answers = await asyncio.gather(*(http.get(path, headers=headers)
                                             for path in paths[start:start + 32]))
            read += sum(len(answer.content) for answer in answers)
        cached = _resident_mb(pid)
        for stream, _ in streams:
            await stream.__aexit__(None, None, None)
    return {"before_mb": before, "listening_mb": listening, "cached_mb": cached,
            "hello": hello, "reads": len(paths), "bytes_read": read}


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """The gateway's added latency on a pass-through read (median and p95)."""
    server = ctx.server("small")
    rows = db_rows(Path(server.db_path), "SELECT id FROM conversations ORDER BY id LIMIT 1000")
    ids = [int(r["id"]) for r in rows]
    blocks, per_block = (2, 20) if ctx.quick else (max(10, 2 * ctx.runs), 60)
    with tempfile.TemporaryDirectory(prefix="bench-gateway-") as folder:
        process, url, key = _start_gateway(server, Path(folder))
        try:
            cached_ms: list[float] = []
            direct_ms, through_ms = asyncio.run(_measure(server, url, key, ids, blocks,
                                                         per_block, cached_ms))
            memory = asyncio.run(_team_connected(server, url, key, Path(folder),
                                                 process.pid))
        finally:
            process.terminate()
            process.wait(60)
    added = median(through_ms) - median(direct_ms)
    added_p95 = percentile(through_ms, 95) - percentile(direct_ms, 95)
    note = (f"{len(through_ms)} reads each; added at p95 {added_p95:.2f} ms "
            f"(direct p95 {percentile(direct_ms, 95):.2f}, through "
            f"{percentile(through_ms, 95):.2f})")
    details = {"added_median_ms": added, "added_p95_ms": added_p95, "memory": memory}
    return [
        measured("gateway.direct", "GET conversation, straight to the service", direct_ms,
                 budget="reference"),
        measured("gateway.through", "GET conversation, through the team gateway", through_ms,
                 budget=f"≤ direct + {BUDGET_MS:g} ms", met=added <= BUDGET_MS,
                 note=f"added {added:.2f} ms median; " + note),
        measured("gateway.cached", "GET conversation, answered from the shared answers",
                 cached_ms, budget=f"p95 ≤ {CACHED_P95_MS:g} ms",
                 met=bool(cached_ms) and percentile(cached_ms, 95) <= CACHED_P95_MS,
                 note=f"p95 {percentile(cached_ms, 95):.2f} ms over {len(cached_ms)} reads"),
        measured(f"gateway.memory[{CONNECTED}]", f"gateway memory, {CONNECTED} consoles "
                 "listening and the organisation read through it", [memory["cached_mb"]],
                 unit="MB", budget=f"≤ {MEMORY_BUDGET_MB:g} MB",
                 met=memory["cached_mb"] <= MEMORY_BUDGET_MB
                 and memory["hello"] == CONNECTED,
                 note=f"{memory['before_mb']:.0f} MB before, {memory['listening_mb']:.0f} MB "
                      f"with {memory['hello']} streams, then {memory['reads']:,} reads "
                      f"({memory['bytes_read'] / 1e6:.1f} MB of answers)"),
    ], details
