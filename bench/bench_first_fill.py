"""First start against a service: the Queue view complete at the pace the service allows.

The sandbox (its own process, on a copy of the small database, no simulator, TCP_NODELAY)
enforces the service's budget: 10 requests a second per key, bursts of 4. Each sample is a
console's first start on an empty local store: a session as the console builds it (the
settings' pacer), the inbox watched as the inbox screen watches it, started; every request
and every change of the inbox is timed from the start.

* complete: the first moment the Queue view lists every conversation waiting in my queues
  and the Mine view every one assigned to me (read from the database beforehand);
* floor: the requests that first picture needs at the service's 10 a second — the sign-in's
  directory (agents, queues, their members, tags: as many as the console made), the two
  searches (Mine, Queue) and one ``GET`` per conversation of Mine (open and pending) and
  Queue;
* information: the Mine view complete, the Queue's subjectless rows with their text, the
  requests made before the Queue was complete, 429 answers.

Budget: complete ≤ 1.3 x the floor. ``--quick`` runs once without the rate limit (plumbing).

* requests (``fill.requests``): the console as launched (``FrontdeskApp`` headless, 160x45,
  the settings' pacer, an empty home) on the same sandbox: every request from its start until
  the console has nothing on screen left to read (the inbox filled, no row shown still waiting
  for its record, text or tags, no name pending), plus :data:`TAIL` seconds idle. Budget:
  ≤ :data:`REQUESTS_BUDGET`.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .common import (
    KEY,
    BenchContext,
    Result,
    SandboxProcess,
    ServerInfo,
    db_rows,
    demo_agent_email,
    failed,
    measured,
    median,
)

RATE = 10.0
BUDGET = 1.3
#: a first start's requests (until nothing on screen is left to read, plus the tail) at most
REQUESTS_BUDGET = 250
#: seconds of idling counted after the console has nothing on screen left to read
TAIL = 20.0
SIZE = (160, 45)
#: the requests of the sign-in's directory, as the console makes them
DIRECTORY = ("GET /v1/agents", "GET /v1/queues", "GET /v1/queues/{id}/members", "GET /v1/tags")


def expected(db: Path) -> tuple[set[int], set[int], set[int], int]:
    """From the database: Mine's open conversations, every one assigned to me and open or
    pending (what Mine's search finds), the Queue's, and how many queues there are."""

    me = db_rows(db, "SELECT id FROM users WHERE email = ?", (demo_agent_email(),))[0]["id"]
    queues = [r["id"] for r in db_rows(db, "SELECT id FROM queues")]
    mine_q = [r["queue_id"] for r in db_rows(
        db, "SELECT queue_id FROM queue_members WHERE agent_id = ?", (me,))] or queues
    marks = ",".join("?" * len(mine_q))
    queue = {r["id"] for r in db_rows(
        db, "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
            f"AND queue_id IN ({marks})", tuple(mine_q))}
    assigned = db_rows(db, "SELECT id, state FROM conversations WHERE assigned_agent_id = ? "
                           "AND state IN ('Open', 'Pending', 'AwaitingPending')", (me,))
    return ({r["id"] for r in assigned if r["state"] == "Open"},
            {r["id"] for r in assigned}, queue, len(queues))


def _kind(method: str, path: str) -> str:
    parts = ["{id}" if part.isdigit() or len(part) == 36 else part for part in path.split("/")]
    return method + " " + "/".join(parts)


async def one_start(server: ServerInfo, paced: bool, mine: set[int], queue: set[int]
                    ) -> dict[str, Any]:
    """One first start on an empty local store; what happened when (seconds)."""
    from frontdesk.api.client import ApiClient, pacer_for
    from frontdesk.api.pacing import Pacer
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.store.topics import INBOX

    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-fill-"))
    settings = Settings()
    pacer = pacer_for(settings.rate.rate, settings.rate.burst) if paced else Pacer(enabled=False)
    client = ApiClient(server.base_url, server.key, server.integrations_url, pacer=pacer)
    requests: list[tuple[float, str]] = []
    statuses: Counter[int] = Counter()
    marks: dict[str, float] = {}
    started = 0.0

    async def on_request(request: Any) -> None:
        requests.append((time.perf_counter() - started, _kind(request.method,
                                                                request.url.path)))

    async def on_response(response: Any) -> None:
        statuses[response.status_code] += 1

    client._http.event_hooks["request"].append(on_request)
    client._http.event_hooks["response"].append(on_response)
    session = Session(client=client, local=LocalStore(folder / "local.db"), settings=settings,
                      profile="bench", identity=demo_agent_email())
    done = asyncio.Event()

    def changed(topic: str, value: Any) -> None:
        if topic != INBOX:
            return
        now = time.perf_counter() - started
        inbox = session.inbox
        shown_queue = {row.id for row in inbox.view("queue")}
        if "mine" not in marks and mine <= {row.id for row in inbox.view("mine")}:
            marks["mine"] = now
        if "queue" not in marks and queue <= shown_queue:
            marks["queue"] = now
        if "queue" in marks and "text" not in marks and not any(
                inbox.preview_of(cid) == "…" for cid in shown_queue):
            marks["text"] = now
        if len(marks) == 3:
            done.set()

    session.live.subscribe(changed)
    session.live.watch(INBOX)  # as the inbox screen does
    try:
        started = time.perf_counter()
        await session.start()
        await asyncio.wait_for(done.wait(), 120)
    finally:
        await session.close()
        shutil.rmtree(folder, ignore_errors=True)
    before = [kind for at, kind in requests if at <= marks["queue"]]
    return {"marks": marks, "directory": sum(1 for kind in before if kind in DIRECTORY),
            "requests": len(before), "made": Counter(before), "statuses": dict(statuses)}


async def console_start(server: ServerInfo, paced: bool, tail: float) -> dict[str, Any]:
    """The console's first start on an empty home: the requests it made until it had
    nothing on screen left to read, and in the ``tail`` seconds after."""
    import os

    from frontdesk.api.client import ApiClient, pacer_for
    from frontdesk.api.pacing import Pacer
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.tui.app import FrontdeskApp

    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-fillapp-"))
    previous = os.environ.get("FRONTDESK_HOME")
    os.environ["FRONTDESK_HOME"] = str(folder / "home")
    settings = Settings()
    pacer = pacer_for(settings.rate.rate, settings.rate.burst) if paced else Pacer(enabled=False)
    client = ApiClient(server.base_url, server.key, server.integrations_url, pacer=pacer)
    made: list[str] = []

    async def on_request(request: Any) -> None:
        made.append(_kind(request.method, request.url.path))

    client._http.event_hooks["request"].append(on_request)
    session = Session(client=client, local=LocalStore(folder / "local.db"), settings=settings,
                      profile="bench", identity=demo_agent_email())
    out: dict[str, Any] = {}
    try:
        started = time.perf_counter()
        async with FrontdeskApp(session).run_test(size=SIZE) as pilot:
            deadline = started + 180
            while time.perf_counter() < deadline:
                await pilot.pause()
                inbox = session.inbox
                if inbox.filled and inbox.on_screen_settled \
                        and not session.directory._pending:
                    break
                await asyncio.sleep(0.1)
            out["settled_s"] = time.perf_counter() - started
            out["settled_requests"] = len(made)
            await asyncio.sleep(tail)
            out["requests"] = len(made)
            out["made"] = dict(Counter(made).most_common())
    finally:
        await session.close()
        if previous is None:
            os.environ.pop("FRONTDESK_HOME", None)
        else:
            os.environ["FRONTDESK_HOME"] = previous
        shutil.rmtree(folder, ignore_errors=True)
    return out


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """The first-fill rows."""
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-filldb-"))
    process: SandboxProcess | None = None
    try:
        db = folder / "sandbox.db"
        shutil.copy(ctx.small_db, db)
        mine_open, mine_all, queue, _queues = expected(db)
        paced = not ctx.quick
        if ctx.quick:  # not paced: the run's small sandbox is such a server
            server = ctx.server("small")
        else:
            process = SandboxProcess("fill", db, rate_limit=paced, key=KEY)
            server = process.start()
        samples: list[dict[str, Any]] = []
        for _ in range(1 if ctx.quick else ctx.runs):
            time.sleep(1.0)  # the service's bucket is full again
            samples.append(asyncio.run(one_start(server, paced, mine_open, queue)))
        consoles: list[dict[str, Any]] = []
        for _ in range(1 if ctx.quick else 3):
            time.sleep(1.0)
            consoles.append(asyncio.run(console_start(server, paced,
                                                      1.0 if ctx.quick else TAIL)))
    except Exception as error:  # a row saying why, never a dead table
        return [failed("fill", "first start: the Queue view complete", repr(error),
                       f"≤ {BUDGET} x the floor")], {}
    finally:
        if process is not None:
            process.stop()
        shutil.rmtree(folder, ignore_errors=True)
    conversations = len(mine_all) + len(queue)
    floors = [(s["directory"] + 2 + conversations) / RATE * 1000 for s in samples]
    complete = [s["marks"]["queue"] * 1000 for s in samples]
    ratio = median(complete) / median(floors)
    n429 = sum(s["statuses"].get(429, 0) for s in samples)
    rows = [
        measured("fill.floor", f"the floor: {round(median(floors) / 100):d} requests needed "
                 f"(Mine {len(mine_all)}, Queue {len(queue)}) ÷ {RATE:g}/s",
                 floors, budget="reference"),
        measured("fill.queue", "first start: the Queue view complete", complete,
                 budget=f"≤ {BUDGET} x the floor", ratio=ratio,
                 met=None if ctx.quick else ratio <= BUDGET,
                 note=f"{ratio:.2f} x the floor; {n429} x 429"),
        measured("fill.mine", "the same: the Mine view complete",
                 [s["marks"]["mine"] * 1000 for s in samples], budget="information"),
        measured("fill.text", "the same: the Queue's subjectless rows with their text",
                 [s["marks"]["text"] * 1000 for s in samples], budget="information"),
        measured("fill.queue_requests", "requests made until the Queue view was complete",
                 [float(s["requests"]) for s in samples], unit="", budget="information"),
    ]
    counts = [float(c["requests"]) for c in consoles]
    rows.append(measured(
        "fill.requests", f"first start of the console: requests until nothing on screen is "
        f"left to read, plus {TAIL:g} s idle", counts, unit="",
        budget=f"≤ {REQUESTS_BUDGET}",
        met=None if ctx.quick else median(counts) <= REQUESTS_BUDGET,
        note=f"{median([float(c['settled_requests']) for c in consoles]):.0f} until settled, "
             f"in {median([c['settled_s'] for c in consoles]):.1f} s"))
    return rows, {"samples": [{k: v for k, v in s.items() if k != "made"} for s in samples],
                  "made": {k: v for k, v in samples[-1]["made"].items()},
                  "console": consoles}
