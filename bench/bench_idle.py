"""Benchmark of an idle console: CPU and requests while nothing changes.

Run: ``.venv/bin/python bench/bench_idle.py [--seconds 20] [--agents 1000] [--queues 50]``.

A sandbox in a child process (so its CPU is not counted; the service's budget of 10
requests/s enforced, no simulator) holds an organisation of ``--agents`` agents with presence
and ``--queues`` queues of 20 members each. The console runs headless (``App.run_test``,
160x45) with the default pacer and settings, signed in as the first agent, and sits idle for
``--seconds`` in each of:

* **team**: Team mode, everyone's presence (one ``GET /v1/agents/presence`` of all agents
  every 5 s);
* **queues**: Queues mode (the queue list and the shown queues' availability, round-robin);
* **team+queues**: Team mode with the queues topic watched as well.

For each it prints the CPU seconds of the console's process (``time.process_time``) per
second of idling and the requests per minute it sent. Budgets (docs/quality.md): ≤ 60 requests a
minute; a poll that changes nothing repaints nothing, so idle CPU is the cost of polling and
parsing alone.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from frontdesk.launch import free_port  # noqa: E402
from frontdesk.sandbox.db import Database  # noqa: E402
from frontdesk.sandbox.records import insert_queue, insert_user, set_presence  # noqa: E402
from frontdesk.sandbox.seed import ensure_seeded  # noqa: E402

CHANNELS = ("Email", "InteractiveChat", "Messaging", "Speak")
SIZE = (160, 45)


def build_organisation(db_path: Path, agents: int, queues: int) -> str:
    """An empty organisation plus ``agents`` agents and ``queues`` queues; the first email."""
    now = datetime.now(UTC)
    ensure_seeded(db_path, seed=None, empty=True, now=now)
    db = Database(db_path)
    ids: list[str] = []
    with db.tx():
        for index in range(agents):
            created = (now - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            agent_id = insert_user(db, kind="agent", created_at=created,
                                   display_name=f"Agent {index:04d}",
                                   email=f"agent{index:04d}@bench.example",
                                   first_name="Agent", last_name=f"{index:04d}")
            online = index % 3 != 0
            working = online and index % 4 != 0
            channels = [CHANNELS[(index + k) % 4] for k in range(1 + index % 3)] \
                if working else []
            seen = (now - timedelta(minutes=index % 600)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            set_presence(db, agent_id, connection="Online" if online else "Offline",
                         status="Working" if working else "Away", channels=channels,
                         last_seen=seen)
            ids.append(agent_id)
        for index in range(queues):
            members: list[tuple[str, int | None]] = [
                (ids[(index * 20 + k) % len(ids)], None) for k in range(20)]
            insert_queue(db, name=f"Queue {index:02d}", is_default=index == 0,
                         created_at=now.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                         settings={"priority": index % 5 + 1}, members=members)
    db.close()
    return "agent0000@bench.example"


def start_sandbox(db_path: Path, key: str) -> tuple[subprocess.Popen[bytes], str]:
    """``frontdesk sandbox serve`` on a free port in a child process; waits until it answers."""
    port = free_port()
    child = subprocess.Popen(
        [sys.executable, "-m", "frontdesk", "sandbox", "serve", "--db", str(db_path),
         "--port", str(port), "--api-key", key, "--no-simulator"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx2.get(base_url + "/v1/teams", headers={"Authorization": key},
                         timeout=2).status_code == 200:
                return child, base_url
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    child.kill()
    raise RuntimeError("the sandbox did not start")


async def run(base_url: str, key: str, identity: str, seconds: float) -> list[dict[str, Any]]:
    """The console, headless, idle in each phase; one row of figures per phase."""
    from frontdesk.api.client import ApiClient, pacer_for
    from frontdesk.launch import local_store_path
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.tui.app import FrontdeskApp

    settings = Settings()
    client = ApiClient(base_url, key, pacer=pacer_for(settings.rate.rate, settings.rate.burst))
    requests: Counter[str] = Counter()
    statuses: Counter[int] = Counter()

    async def on_request(request: httpx2.Request) -> None:
        parts = ["{id}" if part.isdigit() or len(part) == 36 else part
                 for part in request.url.path.split("/")]
        requests[request.method + " " + "/".join(parts)] += 1

    async def on_response(response: httpx2.Response) -> None:
        statuses[response.status_code] += 1

    client._http.event_hooks["request"].append(on_request)
    client._http.event_hooks["response"].append(on_response)
    session = Session(client=client, local=LocalStore(local_store_path("bench")),
                      settings=settings, profile="bench", identity=identity)
    app = FrontdeskApp(session)
    rows: list[dict[str, Any]] = []
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        live = session.live
        startup_429 = statuses[429]
        for phase, key_press, extra in (("team", "3", ()), ("queues", "2", ()),
                                        ("team+queues", "3", ("queues",))):
            await pilot.press(key_press)
            await pilot.pause()
            for topic in extra:
                live.watch(topic)
            requests.clear()
            statuses.clear()
            started = time.monotonic()
            await settle(live, phase)
            fill = time.monotonic() - started
            fill_requests = sum(requests.values())
            await asyncio.sleep(5.0)  # the first steady ticks
            await pilot.pause()
            requests.clear()
            before_stats = live.stats()
            cpu = time.process_time()
            wall = time.monotonic()
            await asyncio.sleep(seconds)  # idle: the point of the benchmark
            cpu = time.process_time() - cpu
            wall = time.monotonic() - wall
            after_stats = live.stats()
            for topic in extra:
                live.unwatch(topic)
            changes = {name: after_stats[name]["changes"] - before_stats.get(name, {}).get(
                "changes", 0) for name in after_stats}
            rows.append({
                "phase": phase,
                "fill_s": fill,
                "fill_requests": fill_requests,
                "cpu_per_s": cpu / wall,
                "cpu_s": cpu,
                "wall_s": wall,
                "requests_per_min": sum(requests.values()) * 60 / wall,
                "by_endpoint": dict(requests.most_common()),
                "changes": {k: v for k, v in changes.items() if v},
                "watched": sorted(n for n, s in after_stats.items() if s["watchers"]),
                "429s": statuses[429],
            })
    rows.append({"phase": "sign-in", "429s": startup_429})
    return rows


async def settle(live: Any, phase: str, limit: float = 180.0) -> None:
    """Wait until the shown data is complete: everyone's presence, or every shown queue's
    availability and member count (the start-up fill)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if phase == "team":
            if live.get("team:presence") is not None:
                return
        else:
            rows = live.get("queues") or ()
            shown = rows[:40]  # what 45 lines show
            if shown and all(r.channels and r.members is not None for r in shown):
                return
        await asyncio.sleep(0.25)
    raise RuntimeError(f"{phase}: the data did not arrive in {limit:g} s")


def main() -> int:
    """Build the organisation, start the sandbox, idle the console, print the table."""
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--seconds", type=float, default=20.0)
    options.add_argument("--agents", type=int, default=1000)
    options.add_argument("--queues", type=int, default=50)
    args = options.parse_args()
    with tempfile.TemporaryDirectory(prefix="frontdesk-bench-idle-") as folder:
        os.environ["FRONTDESK_HOME"] = str(Path(folder) / "home")
        db_path = Path(folder) / "sandbox.db"
        identity = build_organisation(db_path, args.agents, args.queues)
        key = "sbx_bench_idle_key"
        child, base_url = start_sandbox(db_path, key)
        try:
            rows = asyncio.run(run(base_url, key, identity, args.seconds))
        finally:
            child.terminate()
            child.wait(10)
    print(f"idle console: {args.agents} agents, {args.queues} queues, "
          f"{args.seconds:g} s per phase, {SIZE[0]}x{SIZE[1]}")
    print(f"{'phase':<12} {'CPU s/s':>8} {'CPU s':>7} {'req/min':>8} {'429':>4}  "
          f"{'fill: s, requests':>18}   (budget ≤ 60 req/min)")
    for row in rows:
        if row["phase"] == "sign-in":
            print(f"429 answers during sign-in (directory load): {row['429s']}")
            continue
        print(f"{row['phase']:<12} {row['cpu_per_s']:>8.3f} {row['cpu_s']:>7.2f} "
              f"{row['requests_per_min']:>8.1f} {row['429s']:>4}  "
              f"{row['fill_s']:>10.1f} s, {row['fill_requests']:>3}")
        print(f"    requests: {row['by_endpoint']}")
        print(f"    watched: {row['watched']}; changes while idle: {row['changes']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
