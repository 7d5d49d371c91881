"""Client overhead per call: ``client.conversations.get(id)`` against a bare httpx2 call.

Both talk to the same small sandbox (another process) in the same run, one call at a time:

* client: ``ApiClient(..., pacer=Pacer(enabled=False)).conversations.get(id)`` — URL
  building, the origin check, the key, the capped streaming read, JSON decoding, the
  envelope and the pydantic model;
* bare: ``httpx2.AsyncClient.get`` of the same route with the key header, then
  ``json.loads`` of the body.

Calls go in alternating blocks (client, bare, client, …) over the same conversation ids, so
the machine's drift hits both alike; each side makes at least 500 calls. Reported: the
median per call of each, p10-p90 over the calls, and the ratio of the medians (budget
≤ 1.3 x bare). When the budget is missed, the client side is profiled with cProfile and the
functions with the most own time are put in the details.

Then a long thread read (``thread.read``), against the large sandbox's 10,000-message thread
(the small sandbox's longest with ``--quick``):

* client: ``client.messages.list_wires_if_changed(id, None)`` — what the console's thread
  store calls: the answer read as it streams in, every message checked against the model
  and kept as its JSON text (:class:`~frontdesk.api.resources.messages.WireMessage`);
* raw GET: ``httpx2.AsyncClient.get`` of the same route, then ``json.loads`` of the body.

Reads alternate (client, raw, raw, client, …) after two of each to warm up; the ratio is the
median of the per-pair ratios, which the machine's drift hits alike. Budget: ≤ 1.3 x the raw
GET, every message still checked against the model; above it, the client's reads are profiled
as above.
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

import httpx2

from .common import (
    BenchContext,
    Result,
    ServerInfo,
    big_thread_id,
    db_rows,
    measured,
    median,
    percentile,
)

BUDGET = 1.3
#: a long thread's read: the client (every message checked against the model) against the raw
#: GET of the same answer
THREAD_BUDGET = 1.3


async def _measure(server: ServerInfo, ids: list[int], blocks: int, per_block: int
                   ) -> tuple[list[float], list[float], list[float]]:
    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer

    client = ApiClient(server.base_url, server.key, pacer=Pacer(enabled=False))
    bare = httpx2.AsyncClient(base_url=server.base_url, headers={"Authorization": server.key},
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
    return _top(profiler, calls, "call")


async def _measure_thread(server: ServerInfo, thread_id: int, pairs: int
                         ) -> tuple[list[float], list[float], list[float], int]:
    """Alternating reads of the whole thread: (client ms, raw ms, per-pair ratios, the
    number of messages read)."""
    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer

    client = ApiClient(server.base_url, server.key, pacer=Pacer(enabled=False))
    bare = httpx2.AsyncClient(base_url=server.base_url, headers={"Authorization": server.key},
                             timeout=60.0)
    path = f"/v1/conversations/{thread_id}/messages"
    read = 0

    async def one_client() -> float:
        nonlocal read
        start = time.perf_counter()
        wires, _etag = await client.messages.list_wires_if_changed(thread_id, None)
        elapsed = (time.perf_counter() - start) * 1000
        read = len(wires or ())
        return elapsed

    async def one_raw() -> float:
        start = time.perf_counter()
        response = await bare.get(path)
        json.loads(response.content)
        return (time.perf_counter() - start) * 1000

    client_ms: list[float] = []
    raw_ms: list[float] = []
    ratios: list[float] = []
    try:
        for _ in range(2):
            await one_client()
            await one_raw()
        for pair in range(pairs):
            if pair % 2 == 0:
                mine = await one_client()
                theirs = await one_raw()
            else:
                theirs = await one_raw()
                mine = await one_client()
            client_ms.append(mine)
            raw_ms.append(theirs)
            ratios.append(mine / theirs)
    finally:
        await client.aclose()
        await bare.aclose()
    return client_ms, raw_ms, ratios, read


async def _profile_thread(server: ServerInfo, thread_id: int, reads: int) -> list[str]:
    """The client's thread reads under cProfile: the functions with the most own time."""
    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer

    client = ApiClient(server.base_url, server.key, pacer=Pacer(enabled=False))
    profiler = cProfile.Profile()
    try:
        await client.messages.list_wires_if_changed(thread_id, None)
        profiler.enable()
        for _ in range(reads):
            await client.messages.list_wires_if_changed(thread_id, None)
        profiler.disable()
    finally:
        await client.aclose()
    return _top(profiler, reads, "read")


def _top(profiler: cProfile.Profile, calls: int, what: str) -> list[str]:
    """The 15 functions with the most own time, per ``what``."""
    stats = pstats.Stats(profiler)
    rows = []
    for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in \
            stats.stats.items():  # type: ignore[attr-defined]
        rows.append((tottime, f"{tottime / calls * 1000:.3f} ms/{what} own, "
                              f"{cumtime / calls * 1000:.3f} cumulative: {name} "
                              f"({filename.rsplit('/site-packages/', 1)[-1]}:{line}, "
                              f"{ncalls} calls)"))
    rows.sort(reverse=True)
    return [text for _, text in rows[:15]]


def _thread_rows(ctx: BenchContext, details: dict[str, Any]) -> list[Result]:
    """The long thread read: client against the raw GET."""
    server = ctx.server("big")
    thread_id = big_thread_id(ctx.big_db)
    pairs = 4 if ctx.quick else max(15, 3 * ctx.runs)
    client_ms, raw_ms, ratios, read = asyncio.run(_measure_thread(server, thread_id, pairs))
    ratio = median(ratios)
    details["thread_ratios"] = ratios
    if ratio > THREAD_BUDGET and not ctx.quick:
        details["thread_profile"] = asyncio.run(_profile_thread(server, thread_id, 5))
    return [
        measured("thread.raw", f"GET a {read:,}-message thread, bare httpx2 + json.loads",
                 raw_ms, budget="reference"),
        measured("thread.read", f"read a {read:,}-message thread: client vs raw GET",
                 client_ms, budget=f"≤ {THREAD_BUDGET} x raw GET",
                 ratio=ratio, met=ratio <= THREAD_BUDGET,
                 note=f"{len(client_ms)} reads each, alternating; the median of the "
                      f"per-pair ratios (p10-p90 {percentile(ratios, 10):.2f}-"
                      f"{percentile(ratios, 90):.2f})"),
    ]


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """(h) median per call of the client and of bare httpx2, and their ratio."""
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
    thread = _thread_rows(ctx, details)
    return [
        measured("client.bare", "GET conversation, bare httpx2 + json.loads", bare_ms,
                 budget="reference"),
        measured("client.get", "GET conversation, frontdesk client", client_ms,
                 budget=f"≤ {BUDGET} x bare", ratio=ratio, met=ratio <= BUDGET,
                 note=f"{len(client_ms)} calls each, ratio per block {spread}"),
        *thread,
    ], details
