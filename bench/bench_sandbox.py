"""Sandbox throughput and latency, small against large organisation.

A small asyncio load generator in this process (the sandbox is another process, served by
``frontdesk sandbox serve`` without rate limit or simulator): a few keep-alive connections,
each sending raw HTTP/1.1 requests one after the other and reading each answer to its last
byte (Content-Length or chunked). Raw sockets instead of httpx2, so that the generator costs
the machine less than the server it measures. Requests/s are counted per one-second window
(median of the windows, spread over windows), and the latency of every request is kept.

Small against large compares the same requests on both databases, so that only the
database's size differs. The seeded organisations (``frontdesk.sandbox.seed``, seed 7):
small, 1,000 conversations and 12,161 messages (~10 MB); large, the small one plus 100,000
short conversations (threads of 1 to 60 messages, ~10 on average) and one of 10,000
messages: 101,001 conversations and 1,051,076 messages (~730 MB), which is the budget's
"at 1,000,000 messages".

* GET conversation: ids drawn at random among the small organisation's 1,000 conversations
  (the large organisation contains them). Drawing over the whole large organisation instead
  (101,001) compares another mix of answers: 99 % of the large scale's conversations are
  the bulk ones, without custom attributes, cheaper to answer, which flatters the large
  database; that draw is still measured, as information;
* list messages: threads of 5 to 30 messages of the small organisation.

Both scales are measured interleaved, after one warm-up each: ``rounds`` rounds of one
second on each server, in the order small-large, large-small, … The ratio is the median of
the per-round ratios of median latency. On this 2-core machine (the generator on one core,
the server on the other) any other busy process takes CPU from one of them; measured one
block after the other, a burst of other work during the large block alone reads as a
large-scale slowdown. (The run that read 1.48x had its shipped and list-messages blocks
~45 % slower too, at the same server CPU time per request.) Interleaved, such a burst
weighs on both scales alike. The server's CPU time per request, which contention does not
change, is reported beside the ratio.

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
#: seconds of each interleaved round not counted (connections opening, the loop settling)
ROUND_WARMUP = 0.1


@dataclass
class Load:
    """What one load run (or several, added together) saw."""

    finished: list[float] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    #: the server process's CPU seconds over the run(s), and the answers they gave
    cpu_seconds: float | None = None
    answered: int = 0

    @property
    def cpu_per_request_us(self) -> float | None:
        """The server's CPU time per request answered (robust on a busy machine)."""
        if self.cpu_seconds is None or not self.answered:
            return None
        return self.cpu_seconds / self.answered * 1e6

    def add(self, other: Load) -> None:
        """Add another run's requests to these (CPU time too, when both have it)."""
        self.finished += other.finished
        self.latencies_ms += other.latencies_ms
        self.statuses.update(other.statuses)
        if other.cpu_seconds is not None:
            self.cpu_seconds = (self.cpu_seconds or 0.0) + other.cpu_seconds
            self.answered += other.answered


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
    """The requests of each measurement, drawn the same way for every server.

    ``get`` and ``messages`` name only the small organisation's conversations (which the
    large one contains), so that small against large differs by the database's size alone;
    ``get_all`` draws over every conversation of ``server``'s organisation.
    """
    small_ids = [int(r["id"]) for r in db_rows(small_db, "SELECT id FROM conversations")]
    all_ids = [int(r["id"]) for r in db_rows(Path(server.db_path),
                                             "SELECT id FROM conversations")]
    threads = [int(r["conversation_id"]) for r in db_rows(
        small_db, "SELECT conversation_id FROM messages GROUP BY conversation_id "
                  "HAVING count(*) BETWEEN 5 AND 30 ORDER BY conversation_id")]
    return {  # drawn in this order, so that ``get`` and ``messages`` are alike everywhere
        "get": [f"/v1/conversations/{rng.choice(small_ids)}" for _ in range(2000)],
        "messages": [f"/v1/conversations/{rng.choice(threads)}/messages" for _ in range(2000)],
        "get_all": [f"/v1/conversations/{rng.choice(all_ids)}" for _ in range(2000)],
    }


def _row(key: str, metric: str, windows: list[float], load: Load, budget: str,
         limit: float | None) -> Result:
    errors = sum(n for status, n in load.statuses.items() if status != 200)
    latency = load.latencies_ms
    met = None if limit is None else median(windows) >= limit and errors == 0
    note = (f"latency median {median(latency):.2f} ms, p90 {percentile(latency, 90):.2f} ms "
            f"over {CONNECTIONS} connections; non-200 answers: {errors}") if latency \
        else "no answers"
    cpu = load.cpu_per_request_us
    if cpu is not None:
        note += f"; server CPU {cpu:.0f} us/request (one core's worth: {1e6 / cpu:,.0f} req/s)"
    return measured(key, metric, windows, unit="req/s", budget=budget, met=met, note=note)


def _measure(server: ServerInfo, paths: list[str], seconds: float, warmup: float
             ) -> tuple[list[float], Load]:
    """One load run on ``server``, with the server's CPU time over it."""
    cpu_before = cpu_seconds(server.pid) if server.pid else None
    windows, load = _run_loop(_load(server, paths, seconds, warmup, CONNECTIONS))
    cpu_after = cpu_seconds(server.pid) if server.pid else None
    if cpu_before is not None and cpu_after is not None:
        load.cpu_seconds = cpu_after - cpu_before
        load.answered = sum(load.statuses.values())
    return windows, load


@dataclass
class Interleaved:
    """Small and large measured in alternating one-second rounds."""

    windows: dict[str, list[float]] = field(default_factory=dict)
    loads: dict[str, Load] = field(default_factory=dict)
    #: large's median latency / small's, one per round
    ratios: list[float] = field(default_factory=list)


def _interleaved(servers: dict[str, ServerInfo], paths: dict[str, list[str]], rounds: int,
                 warmup: float) -> Interleaved:
    """Warm every server up once, then ``rounds`` rounds of one second on each, the order
    turning every round (small-large, large-small, …), so that other work on the machine
    weighs on both alike."""
    got = Interleaved()
    for scale, server in servers.items():
        _measure(server, paths[scale], 0.0, warmup)  # caches warm, nothing counted
        got.windows[scale], got.loads[scale] = [], Load()
    order = list(servers)
    for number in range(rounds):
        latency: dict[str, float] = {}
        for scale in order if number % 2 == 0 else order[::-1]:
            windows, load = _measure(servers[scale], paths[scale], 1.0, ROUND_WARMUP)
            got.windows[scale] += windows
            got.loads[scale].add(load)
            if load.latencies_ms:
                latency[scale] = median(load.latencies_ms)
        if len(latency) == 2 and latency.get("small"):
            got.ratios.append(latency["large"] / latency["small"])
    return got


def _latency_row(route: str, name: str, got: Interleaved) -> Result:
    """Large against small: the median of the per-round latency ratios."""
    small, large = got.loads["small"], got.loads["large"]
    if not got.ratios:
        return failed(f"sandbox.{route}.latency", f"sandbox {name}: latency, large vs small",
                      "no round had answers on both servers", f"large ≤ {SAME_LATENCY} x small")
    small_latency, large_latency = median(small.latencies_ms), median(large.latencies_ms)
    ratio = median(got.ratios)
    note = (f"median of {len(got.ratios)} interleaved rounds' ratios (p10-p90 "
            f"{percentile(got.ratios, 10):.2f}-{percentile(got.ratios, 90):.2f}); median "
            f"latency small {small_latency:.2f} ms, large {large_latency:.2f} ms "
            f"(TCP_NODELAY servers, same requests on both)")
    small_cpu, large_cpu = small.cpu_per_request_us, large.cpu_per_request_us
    if small_cpu and large_cpu:
        note += (f"; server CPU per request small {small_cpu:.0f} us, large {large_cpu:.0f} us "
                 f"({large_cpu / small_cpu:.2f}x)")
    return Result(f"sandbox.{route}.latency", f"sandbox {name}: latency, large vs small", "ms",
                  f"large ≤ {SAME_LATENCY} x small", large_latency, n=len(got.ratios),
                  ratio=ratio, met=ratio <= SAME_LATENCY, note=note,
                  samples=list(got.ratios))


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """(j) requests/s and latency of GET conversation and list messages, small and large
    (interleaved), on the shipped server and with TCP_NODELAY."""
    seconds = 1.0 if ctx.quick else 5.0
    warmup = 0.25 if ctx.quick else 1.0
    rounds = int(seconds)
    small_db = Path(ctx.small_db)
    details: dict[str, Any] = {"connections": CONNECTIONS, "seconds": seconds,
                               "rounds": rounds}
    budget = f"≥ {GET_BUDGET:,.0f} req/s"
    rows: list[Result] = []

    def paths(server: ServerInfo) -> dict[str, list[str]]:
        return _paths(server, small_db, random.Random(7))

    def note_statuses(name: str, route: str, load: Load) -> None:
        details[f"{name}.{route}.statuses"] = dict(load.statuses)

    shipped_server = ctx.server("shipped")
    shipped = _measure(shipped_server, paths(shipped_server)["get"], seconds, warmup)
    note_statuses("shipped", "get", shipped[1])
    rows.append(_row("sandbox.get.shipped", "sandbox GET conversation, small, as shipped",
                     *shipped, budget, GET_BUDGET))
    servers = {"small": ctx.server("small")}
    if not ctx.quick and ctx.large_db is not None:
        servers["large"] = ctx.server("big")
    drawn = {scale: paths(server) for scale, server in servers.items()}
    names = {"get": "GET conversation", "messages": "list messages"}
    for route in ("get", "messages"):
        got = _interleaved(servers, {s: drawn[s][route] for s in servers}, rounds, warmup)
        for scale, server in servers.items():
            note_statuses(server.name, route, got.loads[scale])
            rows.append(_row(f"sandbox.{route}.{scale}",
                             f"sandbox {names[route]}, {scale}, TCP_NODELAY",
                             got.windows[scale], got.loads[scale],
                             budget if route == "get" else "information",
                             GET_BUDGET if route == "get" else None))
        if len(servers) > 1:
            details[f"{route}.ratios"] = got.ratios
            rows.append(_latency_row(route, names[route], got))
    if len(servers) == 1:
        rows.append(failed("sandbox.large", "sandbox at large scale",
                           "skipped with --quick (no large database)"))
        return rows, details
    whole = _measure(servers["large"], drawn["large"]["get_all"], seconds, warmup)
    note_statuses(servers["large"].name, "get_all", whole[1])
    rows.append(_row("sandbox.get.large_all",
                     "sandbox GET conversation, large, ids over the whole organisation",
                     *whole, "information", None))
    return rows, details
