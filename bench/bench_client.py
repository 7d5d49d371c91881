"""Client overhead per call: ``client.conversations.get(id)`` against a bare httpx call.

Both talk to the same small sandbox (another process) in the same run, one call at a time:

* client: ``ApiClient(..., pacer=Pacer(enabled=False)).conversations.get(id)`` — URL
  building, the origin check, the key, the capped streaming read, JSON decoding, the
  envelope and the pydantic model;
* bare: ``httpx.AsyncClient.get`` of the same route with the key header, then
  ``json.loads`` of the body.

Calls go in alternating blocks (client, bare, client, …) over the same conversation ids, so
the machine's drift hits both alike; each side makes at least 500 calls. Reported: the
median per call of each, p10-p90 over the calls, and the ratio of the medians (budget
≤ 1.3 x bare). When the budget is missed, the client side is profiled with cProfile and the
functions with the most own time are put in the details.
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import pstats
import random
import time
from pathlib import Path
from typing import Any

import httpx

from .common import BenchContext, Result, ServerInfo, db_rows, measured, median

BUDGET = 1.3


async def _measure(server: ServerInfo, ids: list[int], blocks: int, per_block: int
                   ) -> tuple[list[float], list[float], list[float]]:
    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer

    client = ApiClient(server.base_url, server.key, pacer=Pacer(enabled=False))
    bare = httpx.AsyncClient(base_url=server.base_url, headers={"Authorization": server.key},
                             timeout=15.0)
    client_ms: list[float] = []
    bare_ms: list[float] = []
    ratios: list[float] = []
    rng = random.Random(7)
    try:
        async def one_client(cid: int) -> float:
            start = time.perf_counter()
            await client.conversations.get(cid)
            return (time.perf_counter() - start) * 1000

        async def one_bare(cid: int) -> float:
            start = time.perf_counter()
            response = await bare.get(f"/v1/conversations/{cid}")
            json.loads(response.content)
            return (time.perf_counter() - start) * 1000

        for cid in ids[:20]:  # open the connections, warm both paths
            await one_client(cid)
            await one_bare(cid)
        for block in range(blocks):
            chosen = [rng.choice(ids) for _ in range(per_block)]
            order = (one_client, one_bare) if block % 2 == 0 else (one_bare, one_client)
            got: dict[Any, list[float]] = {}
            for fn in order:
                got[fn] = [await fn(cid) for cid in chosen]
            client_ms += got[one_client]
            bare_ms += got[one_bare]
            ratios.append(median(got[one_client]) / median(got[one_bare]))
    finally:
        await client.aclose()
        await bare.aclose()
    return client_ms, bare_ms, ratios


async def _profile_client(server: ServerInfo, ids: list[int], calls: int) -> list[str]:
    """The client's calls under cProfile: the functions with the most own time."""
    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer

    client = ApiClient(server.base_url, server.key, pacer=Pacer(enabled=False))
    profiler = cProfile.Profile()
    try:
        await client.conversations.get(ids[0])
        profiler.enable()
        for index in range(calls):
            await client.conversations.get(ids[index % len(ids)])
        profiler.disable()
    finally:
        await client.aclose()
    stats = pstats.Stats(profiler)
    rows = []
    for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in \
            stats.stats.items():  # type: ignore[attr-defined]
        rows.append((tottime, f"{tottime / calls * 1000:.3f} ms/call own, "
                              f"{cumtime / calls * 1000:.3f} cumulative: {name} "
                              f"({filename.rsplit('/site-packages/', 1)[-1]}:{line}, "
                              f"{ncalls} calls)"))
    rows.sort(reverse=True)
    return [text for _, text in rows[:15]]


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """(h) median per call of the client and of bare httpx, and their ratio."""
    server = ctx.server("small")
    rows = db_rows(Path(server.db_path), "SELECT id FROM conversations ORDER BY id LIMIT 500")
    ids = [int(r["id"]) for r in rows]
    blocks, per_block = (2, 20) if ctx.quick else (max(10, 2 * ctx.runs), 60)
    client_ms, bare_ms, ratios = asyncio.run(_measure(server, ids, blocks, per_block))
    ratio = median(client_ms) / median(bare_ms)
    details: dict[str, Any] = {"block_ratios": ratios, "calls_each": len(client_ms)}
    if ratio > BUDGET and not ctx.quick:
        details["client_profile"] = asyncio.run(_profile_client(server, ids, 500))
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}" if len(ratios) > 1 else "-"
    return [
        measured("client.bare", "GET conversation, bare httpx + json.loads", bare_ms,
                 budget="reference"),
        measured("client.get", "GET conversation, frontdesk client", client_ms,
                 budget=f"≤ {BUDGET} x bare", ratio=ratio, met=ratio <= BUDGET,
                 note=f"{len(client_ms)} calls each, ratio per block {spread}"),
    ], details
