"""When the inbox's view counts are known, against the sandbox, without a console: Closed is
read from the service once the first fill is done (one search; a refused reading leaves it
unknown and the poll going, and is tried again), and Needs reply is known from what the fill
reads anyway, with no request of its own."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import httpx2
from inbox_harness import change_reads

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.inbox import CLOSED_DAYS, CLOSED_RETRY, InboxStore
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import HOURS, INBOX

SEARCH = "/v1/search/conversations"


def _count(requests: list[tuple[str, str]], path: str) -> int:
    return sum(1 for _, asked in requests if asked == path)


async def _no_timer(delay: float) -> None:
    """Polls run only when the test asks."""
    await asyncio.get_running_loop().create_future()


async def filled(inbox: InboxStore) -> None:
    for _ in range(60):
        await inbox.poll()
        if inbox.filled and inbox.settled:
            return
    raise AssertionError("the inbox never came complete")


async def test_closed_is_read_from_the_service_and_needs_reply_costs_nothing(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    session.live = LiveStore(sleep=_no_timer)
    requests: list[tuple[str, str]] = []

    async def on_request(request: httpx2.Request) -> None:
        requests.append((request.method, request.url.path))

    client._http.event_hooks["request"].append(on_request)
    inbox = session.inbox
    try:
        await session.start()
        await session.live.refresh(HOURS)  # the service's clock: Closed's window is set by it
        session.live.add(INBOX, inbox.poll, 60.0)
        await filled(inbox)
        # Needs reply: known with the fill, from the last messages it read anyway (one per
        # subjectless row), never a request of its own
        assert inbox.turns_known and inbox.counts()["needs_reply"] > 0
        subjectless = {cid for cid, row in inbox.rows.items() if not (row.subject or "").strip()}
        listed = [path for method, path in requests if path.endswith("/messages")]
        assert len(listed) == len(set(listed))
        assert {int(path.split("/")[3]) for path in listed} <= subjectless

        # Closed: the first tick after the fill reads it, once; its records follow
        me = session.me_id
        expected = {int(r["id"]) for r in sandbox.query(
            "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Closed' "
            "AND closed_at >= ?", (me, (session.server_now() - timedelta(days=CLOSED_DAYS))
                                   .strftime("%Y-%m-%dT%H:%M:%S")))}
        assert expected
        for _ in range(10):
            await inbox.poll()
            if inbox.closed_known:
                break
        assert inbox.closed_known
        assert expected <= {row.id for row in inbox.view("closed")}
        assert inbox.counts()["closed"] == len(inbox.view("closed"))
        # the next tick reads only what changed (the activity log), not Closed again
        searches, looks = _count(requests, SEARCH), change_reads(requests)
        await inbox.poll()
        assert _count(requests, SEARCH) == searches and change_reads(requests) == looks + 1

        # a refused reading leaves Closed unknown ("…") and the poll going on (its look
        # for changes made), and is tried again a minute later
        inbox._closed_from = None  # as before the first reading
        sandbox.faults.fail(400, count=1, methods=("POST",), path_prefix=SEARCH)
        searches, looks = _count(requests, SEARCH), change_reads(requests)
        await inbox.poll()
        assert _count(requests, SEARCH) == searches + 1  # Closed's, refused
        assert change_reads(requests) == looks + 2  # and the look for what changed
        assert not inbox.closed_known and inbox._closed_refused is not None
        await inbox.poll()
        assert not inbox.closed_known  # not asked again at once
        inbox._closed_refused -= CLOSED_RETRY
        await inbox.poll()
        assert inbox._closed_refused is None and inbox.closed_known
    finally:
        await session.close()
