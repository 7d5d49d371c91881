"""A team on one key: N consoles through one gateway on a sandbox enforcing the service's
budget (10 requests/s, bursts of 4), by polling and with webhooks.

Each console is headless: the real session (store and client, the settings' pacer), signed
in through the gateway with a member's own key, its inbox watched as the Inbox mode watches
it. The gateway runs in this process (its change feed on) with a transport that counts every
request it sends to the service: a request counts when the service sees it. With webhooks,
its public URL is its own loopback address, where the sandbox delivers.

The sandbox is given agents enough for N + 1 members. Measured for each N (from
``FRONTDESK_BENCH_TEAM`` and ``FRONTDESK_BENCH_TEAM_HOOKED``, comma-separated lists, when
set), after every console's first fill and the background reads that follow it (names,
tags, last messages):

* ``team.idle[N]``: requests to the service per second with nothing changing, over a window
  (budget ≤ 2.0 by polling, ≤ 1.0 with webhooks, whatever N);
* ``team.warm[N]``: a member of the team starts a console afresh (a new machine, a cleared
  cache: nothing kept on its disk) through the gateway the team warmed — of the members who
  joined at this size, the one with the most conversations: the requests sent to the service
  for that member until the console has nothing left to read (budget ≤ 20 where N is a team,
  :data:`WARM_TEAM` or more);
* ``team.newcomer[N]``: one more agent, whom nobody in the team has read for, starts: the
  same count, as information — the agent's own conversations are theirs alone, so their
  first reads are its floor (a record each, and the names and last messages shown); this
  console stays, as one of the next size's;
* ``team.change[N]``: a customer writes (straight to the service, as the channel would):
  seconds until every console's inbox has heard of it, p95 over the changes (budget ≤ 10 s
  by polling, ≤ 2 s with webhooks);
* 429s seen by any console (budget: none), beside.

Rows with webhooks are keyed ``[N, webhooks]``.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx2

from .common import BenchContext, Result, ServerInfo, db_rows, failed, measured, percentile

IDLE_BUDGET = 2.0
HOOKED_IDLE_BUDGET = 1.0
HOOKED_CHANGE_BUDGET = 2.0
WARM_BUDGET = 20
#: Seconds over which the service must see a request a second at most before the idle window.
QUIET = 5.0
#: Seconds a team's first fill may take before the run gives up on it.
FILL_PATIENCE = float(os.environ.get("FRONTDESK_BENCH_FILL_PATIENCE", "900"))
#: The fewest consoles whose reads make a warm gateway: one console reads its own agent's
#: conversations, not the organisation's
WARM_TEAM = 10
CHANGE_BUDGET = 10.0


class _Counting(httpx2.AsyncHTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.sent = 0
        self.kinds: Counter[str] = Counter()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.sent += 1
        parts = ["{id}" if part.isdigit() or len(part) == 36 else part
                 for part in request.url.path.split("/")]
        self.kinds[request.method + " " + "/".join(parts)] += 1
        return await super().handle_async_request(request)


async def enough_agents(server: ServerInfo, wanted: int) -> None:
    """Add agents to the sandbox until it has ``wanted`` (a team of 200 needs 200 people)."""
    have = len(db_rows(Path(server.db_path), "SELECT id FROM users WHERE kind = 'agent'", ()))
    missing = list(range(have, wanted))
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=60,
                                 headers={"Authorization": server.key}) as direct:
        for start in range(0, len(missing), 50):
            batch = [{"displayName": f"Bench agent {i}", "email": f"bench-agent-{i}@example.com"}
                     for i in missing[start:start + 50]]
            made = await direct.post("/v1/agents/bulk", json={"data": batch})
            made.raise_for_status()


def _settled(session: Any) -> bool:
    """Whether a console has nothing left to read: its inbox's records, tags and last
    messages, and its customers' names."""
    return bool(session.inbox.settled and session.directory.settled)


async def _ladder(server: ServerInfo, sizes: tuple[int, ...], window: float, changes: int,
                  folder: Path, hooked: bool) -> dict[str, Any]:
    """One gateway, its team grown to each of ``sizes`` in turn: at each size, the consoles
    that joined fill and settle, then the idle window, the customers' changes, and one more
    console's start (which stays, as one of the next size's)."""
    from frontdesk.api.client import ApiClient, pacer_for
    from frontdesk.api.roles import Role
    from frontdesk.api.secrets import ApiKey
    from frontdesk.api.transport import GATEWAY_TIMEOUT
    from frontdesk.gateway.app import GatewayConfig
    from frontdesk.gateway.members import Members
    from frontdesk.gateway.server import GatewayServer
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.store.topics import INBOX

    largest = max(sizes)
    await enough_agents(server, largest + 1)
    agents = db_rows(Path(server.db_path),
                     "SELECT id, email, display_name FROM users WHERE kind = 'agent' "
                     "ORDER BY id LIMIT ?", (largest + 1,))
    db = folder / "gateway" / "gateway.db"
    members = Members(db)
    added = [(agent["id"], *members.add(agent["id"], agent["email"], agent["display_name"],
                                        Role.AGENT)) for agent in agents]
    counting = _Counting()
    config = GatewayConfig(upstream_url=server.base_url, upstream_key=ApiKey(server.key),
                           db=db, transport=counting)
    gateway = GatewayServer(config)
    if hooked:  # the sandbox delivers its webhooks to the gateway's own loopback address
        gateway.config = replace(config, public_url=gateway.bind().base_url)
    gateway.start()
    assert gateway.app is not None
    state = gateway.app.gateway
    settings = Settings()
    statuses: Counter[int] = Counter()
    sessions: list[Session] = []
    open_ids = [int(r["id"]) for r in db_rows(
        Path(server.db_path), "SELECT id FROM conversations WHERE state = 'Open' "
        "AND channel = 'WidgetChat' ORDER BY id LIMIT 40", ())]
    rng = random.Random(5)
    #: each agent's conversations not closed: what a start of theirs reads for Mine
    owned = {r["agent"]: int(r["n"]) for r in db_rows(
        Path(server.db_path), "SELECT assigned_agent_id AS agent, COUNT(*) AS n "
        "FROM conversations WHERE state != 'Closed' AND assigned_agent_id IS NOT NULL "
        "GROUP BY assigned_agent_id", ())}

    async def on_response(response: Any) -> None:
        statuses[response.status_code] += 1

    def console(index: int, disk: str = "") -> Session:
        agent_id, _, key = added[index]
        client = ApiClient(gateway.base_url, key, gateway.integrations_url,
                           pacer=pacer_for(settings.rate.rate, settings.rate.burst),
                           timeout=GATEWAY_TIMEOUT)
        client._http.event_hooks["response"].append(on_response)
        local = LocalStore(folder / f"local-{index}{disk}.db")
        session = Session(client=client, local=local,
                          settings=settings, profile=f"bench-{index}", identity=agent_id,
                          gateway=True)
        session.live.watch(INBOX)
        return session

    async def until(what: str, done: Any, since: float) -> None:
        while not done():
            if time.perf_counter() - since > FILL_PATIENCE:
                ready = sum(1 for s in sessions if s.inbox.filled and s.changes.pushed)
                raise RuntimeError(
                    f"{what} did not end in {FILL_PATIENCE:g} s: {ready} of {len(sessions)} "
                    f"filled, {counting.sent} requests to the service "
                    f"({dict(counting.kinds.most_common(6))})")
            await asyncio.sleep(0.2)

    def hooks_ready() -> bool:
        return not hooked or (state.webhooks is not None
                              and state.webhooks.subscription_id is not None)

    async def start(session: Session, index: int) -> tuple[float, int, dict[str, int]]:
        """Seconds, requests sent to the service for its member, and every request's kind,
        until ``session`` has started and has nothing left to read."""
        upstream = state.upstream
        assert upstream is not None
        member = added[index][1].member_id
        begun, kinds = time.perf_counter(), Counter(counting.kinds)
        sent_before = upstream.sent_by[member]
        await session.start()
        await until("a console's start through the warm gateway",
                    lambda: (session.inbox.filled and session.changes.pushed
                             and _settled(session)), begun)
        return (time.perf_counter() - begun, upstream.sent_by[member] - sent_before,
                dict((counting.kinds - kinds).most_common(12)))

    found: dict[str, Any] = {}
    try:
        for n in sizes:
            joining = [console(index) for index in range(len(sessions), n)]
            sessions.extend(joining)
            started, sent = time.perf_counter(), counting.sent
            await asyncio.gather(*(session.start() for session in joining))
            await until(f"the fill of {len(joining)} console(s)", lambda: hooks_ready() and all(
                s.inbox.filled and s.changes.pushed for s in sessions), started)
            fill_seconds, fill_requests = time.perf_counter() - started, counting.sent - sent
            # the fill's background reads (names, tags, last messages) end before the window
            await until("the background reads", lambda: all(_settled(s) for s in sessions),
                        started)
            # and quiet at the service: reads a tick began after that (what a search found
            # changed meanwhile) are part of the fill, not of idling
            while True:
                quiet_from = counting.sent
                await asyncio.sleep(QUIET)
                if counting.sent - quiet_from <= QUIET:  # a request a second at most
                    break
                if time.perf_counter() - started > FILL_PATIENCE:
                    raise RuntimeError("the service never went quiet after the fill")
            settle_seconds = time.perf_counter() - started - fill_seconds
            settle_requests = counting.sent - sent - fill_requests
            before, kinds = counting.sent, Counter(counting.kinds)
            await asyncio.sleep(window)
            idle = (counting.sent - before) / window
            idle_kinds = dict((counting.kinds - kinds).most_common(8))
            heard: list[float] = []
            unheard: list[dict[str, Any]] = []
            async with httpx2.AsyncClient(base_url=server.base_url, timeout=30,
                                         headers={"Authorization": server.key}) as direct:
                for cid in rng.sample(open_ids, changes):
                    marks = [s.inbox.activity.get(cid) for s in sessions]
                    written = time.perf_counter()
                    said = await direct.post(f"/v1/conversations/{cid}/messages", json={
                        "_type": "Inbound", "content": {"_type": "Text", "value": "bench"}})
                    said.raise_for_status()
                    while any(s.inbox.activity.get(cid) == mark
                              for s, mark in zip(sessions, marks, strict=True)):
                        if time.perf_counter() - written > 60:
                            break
                        await asyncio.sleep(0.05)
                    heard.append(time.perf_counter() - written)
                    deaf = [s for s, mark in zip(sessions, marks, strict=True)
                            if s.inbox.activity.get(cid) == mark]
                    if deaf:  # what the consoles that never heard of it were doing
                        unheard.append({"conversation": cid, "consoles": len(deaf),
                                        "listening": sum(s.changes.pushed for s in deaf),
                                        "told": sorted({s.changes.notices for s in deaf})[:5],
                                        "feed_notices": state.feed.last if state.feed else None})
                    await asyncio.sleep(1.0)
            # a member of the team starts afresh: of those who joined at this size (whose
            # reads are minutes old, well within what the gateway keeps), the one with the
            # most conversations
            busiest = max(range(n - len(joining), n), key=lambda i: owned.get(added[i][0], 0))
            again = console(busiest, disk=f"-again-{n}")
            try:
                warm_seconds, warm_requests, warm_kinds = await start(again, busiest)
            finally:
                await again.close()
            # a newcomer nobody has read for starts: information, and one of the next size's
            late = console(len(sessions))
            sessions.append(late)
            new_seconds, new_requests, new_kinds = await start(late, len(sessions) - 1)
            feed = state.feed
            found[str(n)] = {
                "idle": idle, "idle_kinds": idle_kinds, "heard": heard, "unheard": unheard,
                "feed": None if feed is None else {"searches": feed.searches,
                                                   "notices": feed.last},
                "joined": len(joining), "fill_s": fill_seconds, "fill_requests": fill_requests,
                "settle_s": settle_seconds, "settle_requests": settle_requests,
                "warm_s": warm_seconds, "warm_requests": warm_requests,
                "warm_kinds": warm_kinds, "warm_owned": owned.get(added[busiest][0], 0),
                "new_s": new_seconds, "new_requests": new_requests, "new_kinds": new_kinds,
                "new_owned": owned.get(added[len(sessions) - 1][0], 0),
                "429": statuses[429], "kept_mb": state.shared.kept_bytes / 1e6}
        return found
    finally:
        for session in sessions:
            await session.close()
        gateway.stop()


def _sizes(variable: str, default: tuple[int, ...]) -> tuple[int, ...]:
    chosen = os.environ.get(variable, "")
    return tuple(int(n) for n in chosen.split(",") if n.strip()) if chosen else default


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """Idle requests per second, a warm start's requests and change latency for teams of N
    consoles, by polling and with webhooks."""
    server = ctx.server("team")
    polled = _sizes("FRONTDESK_BENCH_TEAM", (2,) if ctx.quick else (1, 10, 50))
    hooked = _sizes("FRONTDESK_BENCH_TEAM_HOOKED", (2,) if ctx.quick else (1, 10, 50))
    window, changes = (3.0, 1) if ctx.quick else (20.0, 5)
    rows: list[Result] = []
    details: dict[str, Any] = {}
    ladders = {False: polled, True: hooked}
    climbed: dict[bool, dict[str, Any]] = {}

    async def climb() -> None:
        folders = {webhooks: Path(tempfile.mkdtemp(prefix="bench-team-"))
                   for webhooks in ladders}
        servers = {False: server, True: ctx.server("team_hooked")}
        try:
            outcomes = await asyncio.gather(*(
                _ladder(servers[webhooks], sizes, window, changes, folders[webhooks], webhooks)
                for webhooks, sizes in ladders.items() if sizes), return_exceptions=True)
        finally:
            for folder in folders.values():
                shutil.rmtree(folder, ignore_errors=True)
        for webhooks, outcome in zip([w for w, sizes in ladders.items() if sizes], outcomes,
                                     strict=True):
            if isinstance(outcome, BaseException):
                how = "with webhooks" if webhooks else "by polling"
                rows.append(failed("team.error", f"a team {how}", repr(outcome)))
            else:
                climbed[webhooks] = outcome

    asyncio.run(climb())
    for webhooks, n in [(False, n) for n in polled] + [(True, n) for n in hooked]:
        if str(n) not in climbed.get(webhooks, {}):
            continue
        found = climbed[webhooks][str(n)]
        how = "with webhooks" if webhooks else "by polling"
        label = f"{n}, webhooks" if webhooks else f"{n}"
        idle_budget, change_budget = ((HOOKED_IDLE_BUDGET, HOOKED_CHANGE_BUDGET) if webhooks
                                      else (IDLE_BUDGET, CHANGE_BUDGET))
        details[label] = found
        rows.append(measured(
            f"team.idle[{label}]", f"{n} console(s) on one gateway {how}: requests to the "
            "service/s, idle", [found["idle"]], unit="req/s", budget=f"≤ {idle_budget:g}",
            met=found["idle"] <= idle_budget and found["429"] == 0,
            note=f"{found['429']} 429s to any console; {found['joined']} joined: filled in "
                 f"{found['fill_s']:.1f} s, {found['fill_requests']} requests to the service, "
                 f"then {found['settle_requests']} more in {found['settle_s']:.1f} s"))
        # one console warms the gateway with its own agent's view alone: the budget is for a
        # gateway a team warmed
        warm = n >= WARM_TEAM
        rows.append(measured(
            f"team.warm[{label}]", f"a member's console started afresh beside {n} {how}: "
            "requests to the service", [found["warm_requests"]], unit="requests",
            budget=f"≤ {WARM_BUDGET}" if warm else f"— (a team is {WARM_TEAM}+)",
            met=found["warm_requests"] <= WARM_BUDGET if warm else None,
            note=f"settled in {found['warm_s']:.1f} s; the member has "
                 f"{found['warm_owned']} conversations not closed"))
        rows.append(measured(
            f"team.newcomer[{label}]", f"a newcomer's first console beside {n} {how}: "
            "requests to the service", [found["new_requests"]], unit="requests",
            budget="— (their own conversations are its floor)", met=None,
            note=f"settled in {found['new_s']:.1f} s; the newcomer has "
                 f"{found['new_owned']} conversations not closed"))
        heard = found["heard"]
        rows.append(measured(
            f"team.change[{label}]", f"{n} console(s) {how}: a customer's message heard by "
            "every one", heard, unit="s", budget=f"p95 ≤ {change_budget:g} s",
            met=bool(heard) and percentile(heard, 95) <= change_budget,
            note=f"p95 {percentile(heard, 95):.2f} s over {len(heard)} changes"))
    return rows, details
