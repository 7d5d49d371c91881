"""Polling: a poll that changes nothing repaints nothing, and an idle console stays within its
request budget without a 429.

* unchanged: a signed-in console (Session + FrontdeskApp, headless 160x45, pacing off)
  against the small sandbox, its inbox polled until complete; then each run polls the inbox
  topic twice with nothing changed on the service and counts, on the conversation list,
  ``refresh`` calls, ``render_line`` calls and list builds (``ConversationList.builds``), plus
  the app's ``renders["inbox.list"]``; every widget's ``refresh`` and the frames the screen
  sent are counted too, for information. Budget: 0 list refreshes.
* idle: the console as ``launch.run_console`` builds it (the settings' pacer) in Inbox mode,
  against a small sandbox that enforces the service's budget (10 requests/s), left alone after
  its start-up fill; requests per second counted with httpx2 event hooks over 20 s, 429s over
  the whole session (sign-in included). Then user actions (``conversations.get`` at
  interactive priority, at random moments between polls): how long each takes. Budgets:
  ≤ 1 request/s, no 429, an action waits ≤ 100 ms.
* idle (Team / Queues, full runs only): ``bench/bench_idle.py`` (another engineer's), its
  organisation of 1,000 agents and 50 queues, reported per phase.
* idle on the demo's activity (``idle.demo``): the same console in Inbox mode on a copy of
  the small organisation served with the service's budget **and its simulator on at speed 1**
  (one random act every ~2 s, as the demo runs); requests per second over
  :data:`DEMO_SECONDS` after the first fill settles, by route kind in the details. Budget:
  ≤ 1 request/s. ``FRONTDESK_BENCH_IDLE=demo`` makes the ``idle`` benchmark measure this row
  alone (a minute and a half rather than several).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2

from .common import (
    KEY,
    NODELAY_LAUNCHER,
    SEED,
    SRC,
    BenchContext,
    Result,
    SandboxProcess,
    ServerInfo,
    demo_agent_email,
    failed,
    home_copy,
    measured,
)

SIZE = (160, 45)
IDLE_SECONDS = 20.0
#: how long the idle console is counted on the demo's activity (after its first fill): the
#: simulator's acts are random (which conversation, a customer's message or an agent's act),
#: so a minute's count moves by ±25 % between runs; two minutes halve the spread
DEMO_SECONDS = 120.0
#: an idle console on the demo's activity: requests per second at most
DEMO_BUDGET = 1.0
ACTION_BUDGET_MS = 100.0


@contextlib.contextmanager
def temporary_home() -> Iterator[Path]:
    """FRONTDESK_HOME set to a fresh folder for the duration."""
    previous = os.environ.get("FRONTDESK_HOME")
    with home_copy() as home:
        os.environ["FRONTDESK_HOME"] = str(home)
        try:
            yield home
        finally:
            if previous is None:
                os.environ.pop("FRONTDESK_HOME", None)
            else:
                os.environ["FRONTDESK_HOME"] = previous


def _session(server: ServerInfo, *, paced: bool) -> Any:
    """A session as the console builds it, signed in (once started) as the demo agent."""
    from frontdesk.api.client import ApiClient, pacer_for
    from frontdesk.api.pacing import Pacer
    from frontdesk.launch import local_store_path
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session

    settings = Settings()
    pacer = pacer_for(settings.rate.rate, settings.rate.burst) if paced else Pacer(enabled=False)
    client = ApiClient(server.base_url, server.key, server.integrations_url, pacer=pacer)
    return Session(client=client, local=LocalStore(local_store_path("bench")),
                   settings=settings, profile="bench", identity=demo_agent_email())


async def _fill_inbox(session: Any, pilot: Any, limit: int = 40) -> None:
    """Poll the inbox until a poll changes nothing (its start-up backlog fetched)."""
    for _ in range(limit):
        version = session.inbox.version
        await session.live.refresh("inbox")
        await pilot.pause()
        if session.inbox.version == version and session.inbox.settled:
            return


# ---------------------------------------------------------------------- (f) unchanged


async def _unchanged(server: ServerInfo, runs: int) -> tuple[dict[str, list[float]], dict[str,
                                                                                          Any]]:
    from textual.widget import Widget

    from frontdesk.tui import clock
    from frontdesk.tui.app import FrontdeskApp
    from frontdesk.tui.widgets.conversation_list import ConversationList

    clock.freeze(datetime.now(UTC))  # ages in the list must not tick during the test
    session = _session(server, paced=False)
    app = FrontdeskApp(session)
    counts: Counter[str] = Counter()
    samples: dict[str, list[float]] = {k: [] for k in (
        "list refreshes", "list lines rendered", "list builds", "inbox rebuilds",
        "widget refreshes", "frames", "inbox changes")}
    details: dict[str, Any] = {}
    try:
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await _fill_inbox(session, pilot)
            await session.live.refresh("presence:me")
            await session.live.refresh("hours")
            await pilot.pause()
            await pilot.pause()
            listing = app.screen.query_one(ConversationList)
            details["rows"] = listing.total_count
            details["view"] = getattr(app.screen, "view", None)

            original_refresh = listing.refresh
            original_line = listing.render_line

            def refresh(*args: Any, **kwargs: Any) -> Any:
                counts["list refreshes"] += 1
                return original_refresh(*args, **kwargs)

            def render_line(y: int) -> Any:
                counts["list lines rendered"] += 1
                return original_line(y)

            listing.refresh = refresh  # type: ignore[method-assign]
            listing.render_line = render_line  # type: ignore[method-assign]
            widget_refresh = Widget.refresh

            def any_refresh(self: Widget, *args: Any, **kwargs: Any) -> Any:
                counts["widget refreshes"] += 1
                return widget_refresh(self, *args, **kwargs)

            Widget.refresh = any_refresh  # type: ignore[method-assign]
            display = app._display

            def counted_display(screen: Any, renderable: Any) -> None:
                if renderable is not None and screen is app.screen:
                    counts["frames"] += 1
                display(screen, renderable)

            app._display = counted_display  # type: ignore[method-assign]
            try:
                for _ in range(runs):
                    await pilot.pause()
                    counts.clear()
                    builds = listing.builds
                    rebuilds = app.renders.get("inbox.list", 0)
                    changes = session.live.stats()["inbox"]["changes"]
                    for _ in range(2):
                        await session.live.refresh("inbox")
                        await pilot.pause()
                    await pilot.pause()
                    samples["list builds"].append(listing.builds - builds)
                    samples["inbox rebuilds"].append(app.renders.get("inbox.list", 0) - rebuilds)
                    samples["inbox changes"].append(
                        session.live.stats()["inbox"]["changes"] - changes)
                    for name in ("list refreshes", "list lines rendered", "widget refreshes",
                                 "frames"):
                        samples[name].append(counts[name])
            finally:
                Widget.refresh = widget_refresh  # type: ignore[method-assign]
    finally:
        clock.freeze(None)
    return samples, details


def run_unchanged(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """(f) two inbox polls that change nothing: what the conversation list repaints."""
    server = ctx.server("small")
    runs = max(ctx.runs, 1)
    with temporary_home():
        samples, details = asyncio.run(_unchanged(server, runs))
    refreshes = samples["list refreshes"]
    worst = max(refreshes + samples["list builds"] + samples["inbox rebuilds"]
                + samples["list lines rendered"])
    rows = [
        measured("poll.unchanged.list", "poll that changes nothing: list refreshes", refreshes,
                 unit="count", budget="0", met=worst == 0,
                 note=f"per 2 polls; list builds {max(samples['list builds']):.0f}, "
                      f"inbox rebuilds {max(samples['inbox rebuilds']):.0f}, lines rendered "
                      f"{max(samples['list lines rendered']):.0f} (worst run); "
                      f"{details.get('rows')} rows in view {details.get('view')!r}"),
        measured("poll.unchanged.widgets", "poll that changes nothing: any widget refresh",
                 samples["widget refreshes"], unit="count", budget="information",
                 note=f"frames sent: {max(samples['frames']):.0f} (worst run); inbox topic "
                      f"changes: {max(samples['inbox changes']):.0f}"),
    ]
    details["samples"] = samples
    return rows, details


# ---------------------------------------------------------------------- (g) idle


async def _idle(server: ServerInfo, seconds: float, actions: int, settle_limit: float
                ) -> dict[str, Any]:
    from frontdesk.api.pacing import Priority
    from frontdesk.tui.app import FrontdeskApp

    session = _session(server, paced=True)
    client = session.client
    requests: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    counting = [True]

    async def on_request(request: httpx2.Request) -> None:
        if counting[0]:
            parts = ["{id}" if part.isdigit() or len(part) == 36 else part
                     for part in request.url.path.split("/")]
            requests[request.method + " " + "/".join(parts)] += 1

    limited: list[str] = []
    began = time.monotonic()

    async def on_response(response: httpx2.Response) -> None:
        statuses[response.status_code] += 1
        if response.status_code == 429:
            request = response.request
            limited.append(f"{request.method} {request.url.path} at "
                           f"{time.monotonic() - began:.1f} s")

    client._http.event_hooks["request"].append(on_request)
    client._http.event_hooks["response"].append(on_response)
    app = FrontdeskApp(session)
    out: dict[str, Any] = {}
    async with app.run_test(size=SIZE):
        if settle_limit > 5:  # not with --quick: the paced sign-in takes seconds
            await app.workers.wait_for_complete()
        started = time.monotonic()
        # the start-up fill: the inbox's records, their text, tags and names fetched (in
        # that order), the header's topics read once
        while time.monotonic() - started < settle_limit:
            inbox = session.live.topic("inbox")
            if inbox is not None and inbox.polls >= 2 and session.inbox.filled \
                    and session.inbox.settled and not session.directory._pending \
                    and session.live.get("hours") is not None:
                break
            await asyncio.sleep(0.25)
        out["fill_s"] = time.monotonic() - started
        out["fill_requests"] = sum(requests.values())
        await asyncio.sleep(min(5.0, seconds / 2))  # the first steady ticks
        requests.clear()
        wall = time.monotonic()
        await asyncio.sleep(seconds)  # idle: the point of the benchmark
        wall = time.monotonic() - wall
        out["requests"] = sum(requests.values())
        out["wall_s"] = wall
        out["by_endpoint"] = dict(requests.most_common())
        # user actions between polls, not counted as polling
        counting[0] = False
        target = next(iter(session.inbox.records), None)
        waits: list[float] = []
        rng = random.Random(7)
        if target is not None:
            for _ in range(actions):
                await asyncio.sleep(rng.uniform(0.2, 1.5))
                begun = time.perf_counter()
                await client.conversations.get(target, priority=Priority.INTERACTIVE)
                waits.append((time.perf_counter() - begun) * 1000)
        out["actions_ms"] = waits
        out["stats"] = session.live.stats()
        out["status_counts"] = {str(k): v for k, v in sorted(statuses.items())}
        out["429s"] = statuses[429]
        out["429_requests"] = limited
    return out


def _bench_idle_rows(seconds: float) -> tuple[list[Result], dict[str, Any]]:
    """Team and Queues modes idle, measured by bench/bench_idle.py (1,000 agents)."""
    import tempfile

    from . import bench_idle

    rows: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="frontdesk-bench-idle-") as folder, \
            temporary_home():
        db_path = Path(folder) / "sandbox.db"
        identity = bench_idle.build_organisation(db_path, 1000, 50)
        key = "sbx_bench_idle_key"
        child, base_url = bench_idle.start_sandbox(db_path, key)
        try:
            phases = asyncio.run(bench_idle.run(base_url, key, identity, seconds))
        finally:
            child.terminate()
            child.wait(10)
    sign_in_429 = sum(p.get("429s", 0) for p in phases if p["phase"] == "sign-in")
    for phase in phases:
        if phase["phase"] == "sign-in":
            continue
        per_s = phase["requests_per_min"] / 60
        rows.append(Result(
            f"idle.{phase['phase']}", f"idle console, {phase['phase']} (1,000 agents)",
            "req/s", "≤ 1 req/s, no 429", per_s, n=1, met=per_s <= 1.0 and phase["429s"] == 0,
            note=f"bench_idle: {phase['429s']} x 429 in the phase (fill {phase['fill_s']:.0f} s, "
                 f"{phase['fill_requests']} requests); CPU {phase['cpu_per_s']:.3f} s/s"))
    if sign_in_429:
        rows.append(Result("idle.sign_in_429", "429 answers during sign-in (1,000 agents)",
                           "count", "0", float(sign_in_429), n=1, met=False,
                           note="bench_idle: the directory load at sign-in"))
    return rows, {"bench_idle": phases}


class LiveSandbox(SandboxProcess):
    """A sandbox process as :class:`SandboxProcess` starts one, but with its simulator on at
    speed 1 (the demo's activity) and the service's budget enforced."""

    def spawn(self) -> None:
        """Start the process (``wait`` until it answers)."""
        import subprocess
        import sys

        from frontdesk.launch import free_port

        self.port = free_port()
        command = [sys.executable, "-c", NODELAY_LAUNCHER, "sandbox", "serve", "--db",
                   str(self.db_path), "--port", str(self.port), "--api-key", self.key,
                   "--seed", str(SEED), "--speed", "1"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL,
                                        env={**os.environ, "PYTHONPATH": str(SRC)})


def run_idle_demo(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """An idle console's requests per second on the demo's activity (the simulator on)."""
    import shutil
    import tempfile

    seconds = 1.0 if ctx.quick else DEMO_SECONDS
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-demo-"))
    process = LiveSandbox("demo", folder / "sandbox.db", rate_limit=True, key=KEY)
    try:
        shutil.copyfile(ctx.small_db, process.db_path)
        server = process.start()
        with temporary_home():
            out = asyncio.run(_idle(server, seconds, 0, 2.0 if ctx.quick else 120.0))
    finally:
        process.stop()
        shutil.rmtree(folder, ignore_errors=True)
    per_s = out["requests"] / out["wall_s"]
    kinds = ", ".join(f"{kind} {count}" for kind, count in out["by_endpoint"].items())
    row = Result("idle.demo", "idle console, Inbox mode, on the demo's activity (simulator "
                 "at speed 1): requests/s", "req/s", f"≤ {DEMO_BUDGET:g} req/s", per_s, n=1,
                 met=None if ctx.quick else per_s <= DEMO_BUDGET,
                 note=f"{out['requests']} requests in {out['wall_s']:.0f} s: {kinds}; "
                      f"{out['429s']} x 429")
    return [row], {"demo": out}


def settings_rate() -> str:
    """The console's pacing, as the settings give it (``launch.run_console`` uses them)."""
    from frontdesk.settings import Settings

    rate = Settings().rate
    return f"{rate.rate:g}/s, burst {rate.burst}"


def run_idle(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """(g) an idle console's requests per second, its 429s and user actions' waits
    (``FRONTDESK_BENCH_IDLE=demo``: the ``idle.demo`` row alone)."""
    if os.environ.get("FRONTDESK_BENCH_IDLE", "").strip() == "demo":
        return run_idle_demo(ctx)
    server = ctx.server("limited")
    seconds = 1.0 if ctx.quick else IDLE_SECONDS
    actions = 1 if ctx.quick else 15
    with temporary_home():
        out = asyncio.run(_idle(server, seconds, actions, 2.0 if ctx.quick else 90.0))
    per_s = out["requests"] / out["wall_s"]
    waits = out["actions_ms"]
    rows = [
        Result("idle.inbox", "idle console, Inbox mode: requests/s", "req/s", "≤ 1 req/s",
               per_s, n=1, met=per_s <= 1.0,
               note=f"{out['requests']} requests in {out['wall_s']:.0f} s after a fill of "
                    f"{out['fill_requests']} requests in {out['fill_s']:.1f} s"),
        Result("idle.429", "429 answers, whole session (10 req/s enforced)", "count", "0",
               float(out["429s"]), n=1, met=out["429s"] == 0,
               note=f"status codes {out['status_counts']}"
                    + (f"; 429 on {', '.join(out['429_requests'])}" if out["429s"] else "")
                    + f"; pacer: pacer_for(the settings' rate {settings_rate()})"),
        measured("idle.action", "user action behind polling (GET conversation)", waits,
                 budget=f"≤ {ACTION_BUDGET_MS:.0f} ms (max)",
                 met=bool(waits) and max(waits) <= ACTION_BUDGET_MS,
                 note=f"max {max(waits):.1f} ms over {len(waits)} actions" if waits else
                 "no conversation to read"),
    ]
    details: dict[str, Any] = {"inbox": out}
    try:
        demo_rows, demo = run_idle_demo(ctx)
        rows += demo_rows
        details.update(demo)
    except Exception as error:  # reported in the table
        rows.append(failed("idle.demo", "idle console on the demo's activity", repr(error),
                           f"≤ {DEMO_BUDGET:g} req/s"))
    if not ctx.quick:
        try:
            extra, more = _bench_idle_rows(IDLE_SECONDS)
            rows += extra
            details.update(more)
        except Exception as error:  # reported in the table
            rows.append(failed("idle.bench_idle", "idle console, Team/Queues (bench_idle)",
                               repr(error)))
    return rows, details
