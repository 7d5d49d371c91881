"""A returning agent's start goes on from where the last session's poll stood: it asks the
service only for what changed while the console was away, and sees all of it — a conversation
of Mine closed, one of Mine answered, one of Queue taken by a colleague, one transferred into
my queue. After a night in which more changed than a few pages of search hold, it reads Mine
and Queue whole again, as a first start does (and the rows that left them move). Both as it
learns what changed from the activity log, and from the search for activity.

Both start from ``local_template``: the seeded organisation's store as the demo agent's first
fill left it when it closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx2
import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox import activity
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store import inbox as inbox_module
from frontdesk.store.inbox_cursor import InboxCursor
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import INBOX
from local_template import LocalTemplate

#: how far the organisation's clock moves while the console is away
AWAY = 3600.0


async def _no_timer(delay: float) -> None:
    """Polls run when the test asks (a refresh), never on a timer."""
    await asyncio.get_running_loop().create_future()


def _views(sandbox: SandboxServer, me: str) -> tuple[set[int], set[int]]:
    """What Mine and Queue hold on the service now."""
    mine = {r["id"] for r in sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Open'", (me,))}
    waiting = {r["id"] for r in sandbox.query(
        "SELECT c.id FROM conversations c JOIN queue_members m ON m.queue_id = c.queue_id "
        "WHERE m.agent_id = ? AND c.state = 'Open' AND c.assigned_agent_id IS NULL", (me,))}
    return mine, waiting


@pytest.fixture(params=["log", "search"])
def by_log(request: pytest.FixtureRequest) -> bool:
    """Whether the console learns what changed from the organisation's activity log (the
    service's key), or from the search for activity (a role without the log)."""
    return bool(request.param == "log")


async def _start_again(sandbox: SandboxServer, path: Path,
                       asked: Callable[[httpx2.Request], None], by_log: bool) -> Session:
    """The console's second start on the store at ``path``, polled until its inbox is
    complete; every request it makes is given to ``asked``."""
    client = ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                       pacer=Pacer(enabled=False))

    async def on_request(request: httpx2.Request) -> None:
        asked(request)

    client._http.event_hooks["request"].append(on_request)
    session = Session(client=client, local=LocalStore(path), settings=Settings(),
                      profile="work", identity=DEMO_AGENT_EMAIL)
    session.live = LiveStore(sleep=_no_timer)
    if not by_log:
        session.inbox.log_available = False
    await session.start()
    inbox = session.inbox
    for _ in range(100):
        version = inbox.version
        await session.live.refresh(INBOX)
        if inbox.filled and inbox.settled and inbox.version == version:
            return session
    raise AssertionError("the inbox never came complete")


def _cursor(path: Path) -> datetime:
    """The poll cursor the store at ``path`` keeps for its next start."""
    local = LocalStore(path)
    try:
        cursor = InboxCursor.of(local.snapshot("inbox") or {})
    finally:
        local.close()
    assert cursor.since is not None
    return cursor.since


def _iso(moment: datetime) -> str:
    """A time as the sandbox stores it."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _record_reads(requests: list[httpx2.Request]) -> set[int]:
    """The conversations whose record was read (GET /v1/conversations/{id})."""
    return {int(parts[3]) for r in requests
            if r.method == "GET" and len(parts := r.url.path.split("/")) == 4
            and parts[2] == "conversations" and parts[3].isdigit()}


async def test_a_second_start_asks_only_what_changed_while_away_and_sees_it(
        sandbox: SandboxServer, local_template: LocalTemplate, tmp_path: Path,
        by_log: bool) -> None:
    path = tmp_path / "work.db"
    assert local_template.lay(path, sandbox, DEMO_AGENT_EMAIL)
    me = sandbox.query("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))[0]["id"]
    colleague = sandbox.query("SELECT id FROM users WHERE kind = 'agent' AND id != ? "
                              "ORDER BY id LIMIT 1", (me,))[0]["id"]
    my_queue = sandbox.query("SELECT queue_id FROM queue_members WHERE agent_id = ? "
                             "ORDER BY queue_id LIMIT 1", (me,))[0]["queue_id"]
    mine, waiting = _views(sandbox, me)
    closed, answered = sorted(mine)[:2]
    taken = min(waiting)
    arrived = sandbox.query("SELECT id FROM conversations WHERE state = 'Open' "
                            "AND assigned_agent_id = ? ORDER BY id LIMIT 1",
                            (colleague,))[0]["id"]
    since = _cursor(path)
    slack = {r["id"] for r in sandbox.query(
        "SELECT id FROM conversations WHERE last_activity_at >= ?", (_iso(since),))}
    assert len(slack) < 10  # the slack before the cursor: seconds of activity, not the views

    # While the console is away: an hour passes, and the organisation works.
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    clock.advance(AWAY)
    other = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    try:
        await other.conversations.close(closed)
        await other.messages.add(answered, "Back from lunch: here is your answer.",
                                 agent_id=me)
        await other.conversations.claim(taken, colleague, force=True)
        await other.conversations.transfer(arrived, my_queue)
    finally:
        await other.aclose()

    requests: list[httpx2.Request] = []
    session = await _start_again(sandbox, path, requests.append, by_log)
    try:
        inbox = session.inbox
        # Exactly the conversations with activity since the cursor are read again: the four
        # changed and those active in the slack before it, nothing of the hundreds the
        # views hold (reading them whole is some 330 requests). The log says what changed:
        # a message in an open conversation leaves its record as it was.
        if by_log:
            assert {closed, taken, arrived} <= _record_reads(requests) \
                <= {closed, taken, arrived} | slack
        else:
            assert _record_reads(requests) == {closed, answered, taken, arrived} | slack
        assert len(requests) < 100, [f"{r.method} {r.url.path}" for r in requests]
        now_mine, now_waiting = _views(sandbox, me)
        assert {row.id for row in inbox.view("mine")} == now_mine
        assert {row.id for row in inbox.view("queue")} == now_waiting
        assert closed not in now_mine and answered in now_mine
        assert taken not in now_waiting and arrived in now_waiting
        assert closed in {row.id for row in inbox.view("closed")}
    finally:
        await session.close()


async def test_after_too_many_changes_mine_and_queue_are_read_whole_again(
        sandbox: SandboxServer, local_template: LocalTemplate, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, by_log: bool) -> None:
    path = tmp_path / "work.db"
    assert local_template.lay(path, sandbox, DEMO_AGENT_EMAIL)
    me = sandbox.query("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))[0]["id"]
    mine, _ = _views(sandbox, me)
    closed = min(mine)
    # A busy night: every conversation had activity (more than a page of search), and one
    # of Mine was closed.
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    later = clock.advance(AWAY)
    stamp = _iso(later)
    def busy_night(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            ctx.db.run("UPDATE conversations SET last_activity_at = ?", (stamp,))
            for row in ctx.db.all("SELECT id FROM conversations"):
                activity.record(ctx, int(row["id"]), "ConversationLanguageUpdated", at=stamp)

    sandbox.call(busy_night)
    other = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    try:
        await other.conversations.close(closed)
    finally:
        await other.aclose()
    clock.advance(60)  # the morning: what the night changed is behind the start
    monkeypatch.setattr(inbox_module, "SINCE_PAGES", 1)  # one page: the night overflows it

    requests: list[httpx2.Request] = []
    session = await _start_again(sandbox, path, requests.append, by_log)
    try:
        inbox = session.inbox
        now_mine, now_waiting = _views(sandbox, me)
        assert {row.id for row in inbox.view("mine")} == now_mine
        assert {row.id for row in inbox.view("queue")} == now_waiting
        assert closed not in now_mine
        # Mine and Queue were read whole: every record they hold, and the one that left
        assert now_mine | now_waiting | {closed} <= _record_reads(requests)
    finally:
        await session.close()


async def test_a_message_that_leaves_the_record_as_it_was_is_still_news(
        sandbox: SandboxServer, local_template: LocalTemplate, tmp_path: Path,
        by_log: bool) -> None:
    """A reply (or a customer's message) in a conversation whose record reads the same is a
    change of that conversation all the same: its row moves up and a preview of it reads the
    messages again. Found again in the next look's overlap, it is no news."""
    path = tmp_path / "work.db"
    assert local_template.lay(path, sandbox, DEMO_AGENT_EMAIL)
    me = sandbox.query("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))[0]["id"]
    session = await _start_again(sandbox, path, lambda _request: None, by_log)
    try:
        inbox = session.inbox
        emails = {r["id"] for r in sandbox.query(
            "SELECT id FROM conversations WHERE channel = 'Email' AND subject IS NOT NULL")}
        cid = min(_views(sandbox, me)[0] & emails)  # a row that reads by its subject
        row = inbox.rows[cid]
        clock = sandbox.clock
        assert isinstance(clock, ManualClock)
        clock.advance(1.0)
        other = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
        try:
            await other.messages.add(cid, "One more thing.", agent_id=me)
        finally:
            await other.aclose()
        version = inbox.version
        await session.live.refresh(INBOX)
        changes = inbox.changes_since(version)
        assert changes is not None and cid in changes
        assert inbox.rows[cid].digest == row.digest  # the record itself reads the same
        version = inbox.version
        await session.live.refresh(INBOX)  # found again: within the search's overlap
        again = inbox.changes_since(version)
        assert again is not None and cid not in again
    finally:
        await session.close()
