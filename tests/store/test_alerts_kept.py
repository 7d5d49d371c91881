"""The alert watch keeps only what can still matter of a conversation it saw (open, and mine
or nobody's) and alerts exactly as if it kept everything: a colleague's conversation given to
me, a closed one queued again in my queue, and no news for one that only moves within my
queue — against the sandbox, without a console."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from test_alerts import _inbound, _no_timer, settled

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.alerts import Alert, AlertKind, AlertWatch
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import INBOX


@pytest.fixture
def http(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    """The service's API as anyone else (a colleague, a rule, a customer) uses it."""
    with httpx.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=60) as client:
        yield client


async def test_what_the_watch_forgets_alerts_as_what_it_never_saw(
        sandbox: SandboxServer, http: httpx.Client, tmp_path: Path) -> None:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    session.live = LiveStore(sleep=_no_timer)
    inbox = session.inbox
    watch = AlertWatch(inbox)
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    session.wall = clock.now  # the console's clock is the service's: time passes for both

    async def arrivals(*, available: bool = True, heard: int | None = None,
                       agent: str | None = None) -> list[Alert]:
        """The alerts once the inbox has read everything (and, given ``heard``, once it
        knows that conversation assigned to ``agent``)."""
        for _ in range(3):  # time passes beyond the searches' overlap: a second change
            clock.advance(5)  # made within it is read once the overlap has passed
            await settled(inbox)
        for _ in range(60):
            row = inbox.rows.get(heard) if heard is not None else None
            if heard is None or (row is not None and row.agent_id == agent):
                break
            clock.advance(5)
            await inbox.poll()
        return watch.check(me=session.me_id, queues=session.directory.my_queue_ids,
                           available=available, reading=None)

    def put(path: str, body: dict[str, object] | None = None) -> int:
        return http.put(path, json=body).status_code

    def agents() -> list[dict[str, str]]:
        found: list[dict[str, str]] = http.get("/v1/agents").json()["data"]
        return found

    def new_chat(text: str) -> int:
        requester = http.post("/v1/endusers", json={
            "displayName": "Alert Tester", "email": f"alert-{uuid.uuid4().hex[:8]}@example.com"})
        assert requester.status_code in (200, 201), requester.text
        made = http.post("/v1/conversations", json={
            "_type": "Chat", "requesterId": requester.json()["data"]["id"],
            "widgetId": str(uuid.uuid4()), "message": _inbound(text)})
        assert made.status_code == 200, made.text
        return int(made.json()["data"]["id"])

    try:
        await session.start()
        session.live.add(INBOX, inbox.poll, 60.0)
        await settled(inbox)
        me = session.me_id
        assert me is not None
        my_queue = sorted(session.directory.my_queue_ids)[0]
        colleague = next(a["id"] for a in agents() if a["id"] != me)
        assert await arrivals() == []

        # a colleague's conversation: no news to me; given to me, it is
        theirs = new_chat("Can someone help me?")
        assert put(f"/v1/conversations/{theirs}/claim", {"agentId": colleague}) == 204
        assert await arrivals(heard=theirs, agent=colleague) == []
        assert put(f"/v1/conversations/{theirs}/claim", {"agentId": me}) == 204
        assert await arrivals(heard=theirs, agent=me) == [Alert(AlertKind.ASSIGNED, theirs)]

        # one waiting in my queue (while I was away), queued there again: no news
        waiting = new_chat("Is anyone there?")
        assert put(f"/v1/conversations/{waiting}/transfer/queue", {"queueId": my_queue}) == 204
        assert await arrivals(available=False) == []
        clock.advance(60)
        assert put(f"/v1/conversations/{waiting}/transfer/queue", {"queueId": my_queue}) == 204
        assert await arrivals() == []

        # closed, then waiting in my queue again: news
        assert put(f"/v1/conversations/{waiting}/close") == 204
        assert await arrivals() == []
        assert put(f"/v1/conversations/{waiting}/reopen") == 204
        assert put(f"/v1/conversations/{waiting}/transfer/queue", {"queueId": my_queue}) == 204
        assert await arrivals() == [Alert(AlertKind.QUEUE, waiting)]
    finally:
        await session.close()
