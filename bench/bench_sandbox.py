"""Sandbox throughput and latency, small against large organisation.

A small asyncio load generator in this process (the sandbox is another process, served by
``frontdesk sandbox serve`` without rate limit or simulator): a few keep-alive connections,
each sending raw HTTP/1.1 requests one after the other and reading each answer to its last
byte (Content-Length or chunked). Raw sockets instead of httpx, so that the generator costs
the machine less than the server it measures. For each route and scale: 1 s of warm-up,
then ``seconds`` of load counted per one-second window (requests/s = median of the windows,
spread over windows) and the latency of every request.

* GET conversation: ids drawn at random over the whole organisation (1,000 or 101,000);
* list messages: the same conversations at both scales (threads of 5 to 30 messages of the
  small organisation, which the large one contains), so only the database's size differs.

GET conversation is measured once on the sandbox as shipped (``frontdesk sandbox serve``),
then, like everything else, on servers started with TCP_NODELAY (see
``common.NODELAY_LAUNCHER``: as shipped, every answer after the first on a keep-alive
connection waits ~40 ms for the client's delayed ACK).

Budgets: ≥ 3,000 GET-conversation requests/s; latency at large scale the same as at small
(here: large's median latency within 1.2 x small's).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .common import (
    BenchContext,
    Result,
    ServerInfo,
    cpu_seconds,
    db_rows,
    failed,
    measured,
    median,
    percentile,
)

GET_BUDGET = 3000.0
SAME_LATENCY = 1.2
CONNECTIONS = 8


@dataclass
class Load:
    """What one load run saw."""

    finished: list[float] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    #: the server process's CPU time per request answered (robust on a busy machine)
    cpu_per_request_us: float | None = None


async def _read_answer(reader: asyncio.StreamReader) -> int:
    """Read one HTTP/1.1 answer to its end; its status code."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = -1
    chunked = False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length > 0:
        await reader.readexactly(length)
    return status


async def _connection(host: str, port: int, key: str, paths: list[str], start: int,
                      until: float, load: Load) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    requests = [
        (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: {key}\r\n"
         "Accept: application/json\r\n\r\n").encode()
        for path in paths
    ]
    index = start
    try:
        while True:
            began = time.perf_counter()
            if began >= until:
                break
            writer.write(requests[index % len(requests)])
            index += 1
            status = await _read_answer(reader)
            ended = time.perf_counter()
            load.finished.append(ended)
            load.latencies_ms.append((ended - began) * 1000)
            load.statuses[status] += 1
    finally:
        writer.close()


async def _load(server: ServerInfo, paths: list[str], seconds: float, warmup: float,
                connections: int) -> tuple[list[float], Load]:
    """Requests/s per one-second window after the warm-up, and everything seen then."""
    parts = urlsplit(server.base_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    began = time.perf_counter()
    measure_from = began + warmup
    until = measure_from + seconds
    load = Load()
    await asyncio.gather(*(
        _connection(host, port, server.key, paths, n * 97, until, load)
        for n in range(connections)))
    windows = [0] * int(seconds)
    kept = Load()
    for finished, latency in zip(load.finished, load.latencies_ms, strict=True):
        if finished < measure_from:
            continue
        slot = int(finished - measure_from)
        if slot < len(windows):
            windows[slot] += 1
            kept.finished.append(finished)
            kept.latencies_ms.append(latency)
    kept.statuses = load.statuses
    return [float(w) for w in windows], kept


def _run_loop(coroutine: Any) -> Any:
    """Run on uvloop when it is installed (a cheaper generator), else asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def _paths(server: ServerInfo, small_db: Path, rng: random.Random) -> dict[str, list[str]]:
    ids = [int(r["id"]) for r in db_rows(Path(server.db_path), "SELECT id FROM conversations")]
    threads = [int(r["conversation_id"]) for r in db_rows(
        small_db, "SELECT conversation_id FROM messages GROUP BY conversation_id "
                  "HAVING count(*) BETWEEN 5 AND 30 ORDER BY conversation_id")]
    return {
        "get": [f"/v1/conversations/{rng.choice(ids)}" for _ in range(2000)],
        "messages": [f"/v1/conversations/{rng.choice(threads)}/messages" for _ in range(2000)],
    }


def _row(key: str, metric: str, windows: list[float], load: Load, budget: str,
         limit: float | None) -> Result:
    errors = sum(n for status, n in load.statuses.items() if status != 200)
    latency = load.latencies_ms
    met = None if limit is None else median(windows) >= limit and errors == 0
    note = (f"latency median {median(latency):.2f} ms, p90 {percentile(latency, 90):.2f} ms "
            f"over {CONNECTIONS} connections; non-200 answers: {errors}") if latency \
        else "no answers"
    if load.cpu_per_request_us is not None:
        note += (f"; server CPU {load.cpu_per_request_us:.0f} us/request (one core's worth: "
                 f"{1e6 / load.cpu_per_request_us:,.0f} req/s)")
    return measured(key, metric, windows, unit="req/s", budget=budget, met=met, note=note)


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """(j) requests/s and latency of GET conversation and list messages, small and large,
    on the shipped server and with TCP_NODELAY."""
    seconds = 1.0 if ctx.quick else 5.0
    warmup = 0.25 if ctx.quick else 1.0
    small_db = Path(ctx.small_db)
    details: dict[str, Any] = {"connections": CONNECTIONS, "seconds": seconds}
    budget = f"≥ {GET_BUDGET:,.0f} req/s"
    rows: list[Result] = []

    def load(server: ServerInfo, route: str) -> tuple[list[float], Load]:
        paths = _paths(server, small_db, random.Random(7))[route]
        cpu_before = cpu_seconds(server.pid) if server.pid else None
        got: tuple[list[float], Load] = _run_loop(_load(server, paths, seconds, warmup,
                                                        CONNECTIONS))
        cpu_after = cpu_seconds(server.pid) if server.pid else None
        answered = sum(got[1].statuses.values())
        if cpu_before is not None and cpu_after is not None and answered:
            got[1].cpu_per_request_us = (cpu_after - cpu_before) / answered * 1e6
        details[f"{server.name}.{route}.statuses"] = dict(got[1].statuses)
        return got

    shipped = load(ctx.server("shipped"), "get")
    rows.append(_row("sandbox.get.shipped", "sandbox GET conversation, small, as shipped",
                     *shipped, budget, GET_BUDGET))
    scales = [("small", ctx.server("small"))]
    if not ctx.quick and ctx.large_db is not None:
        scales.append(("large", ctx.server("big")))
    seen: dict[tuple[str, str], tuple[list[float], Load]] = {}
    names = {"get": "GET conversation", "messages": "list messages"}
    for route in ("get", "messages"):
        for scale, server in scales:
            seen[(route, scale)] = load(server, route)
            rows.append(_row(f"sandbox.{route}.{scale}",
                             f"sandbox {names[route]}, {scale}, TCP_NODELAY",
                             *seen[(route, scale)], budget if route == "get" else "information",
                             GET_BUDGET if route == "get" else None))
        if len(scales) > 1:
            small_latency = median(seen[(route, "small")][1].latencies_ms)
            large_latency = median(seen[(route, "large")][1].latencies_ms)
            ratio = large_latency / small_latency
            rows.append(Result(
                f"sandbox.{route}.latency", f"sandbox {names[route]}: latency, large vs small",
                "ms", f"large ≤ {SAME_LATENCY} x small", large_latency, n=1, ratio=ratio,
                met=ratio <= SAME_LATENCY,
                note=f"median latency small {small_latency:.2f} ms, large "
                     f"{large_latency:.2f} ms (TCP_NODELAY servers)"))
    if len(scales) == 1:
        rows.append(failed("sandbox.large", "sandbox at large scale",
                           "skipped with --quick (no large database)"))
    return rows, details
