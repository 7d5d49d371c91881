"""What alerts, against the sandbox, without a console: a conversation assigned to me by
someone else, a customer's reply in one of mine, a new conversation in my queue while I am
available — and nothing for the first fill, for my own claim, for the thread I am reading, or
for my queue while I am away; several arrivals within the window make one alert."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import AlertSettings, Settings
from frontdesk.store.alerts import Alert, AlertKind, AlertWatch, Coalescer
from frontdesk.store.inbox import InboxStore
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import INBOX


async def _no_timer(delay: float) -> None:
    """Polls run only when the test asks."""
    await asyncio.get_running_loop().create_future()


async def settled(inbox: InboxStore) -> None:
    """Poll until the inbox has read everything it knows to read."""
    for _ in range(60):
        await inbox.poll()
        if inbox.filled and inbox.settled:
            return
    raise AssertionError("the inbox never settled")


def _inbound(value: str) -> dict[str, Any]:
    return {"_type": "Inbound", "content": {"value": value, "_type": "Text"}}


def _new_chat(http: httpx2.Client, text: str) -> int:
    """A new chat from a new customer, as the service's other clients make one: its id."""
    requester = http.post("/v1/endusers", json={
        "displayName": "Alert Tester", "email": f"alert-{uuid.uuid4().hex[:8]}@example.com"})
    assert requester.status_code in (200, 201), requester.text
    made = http.post("/v1/conversations", json={
        "_type": "Chat", "requesterId": requester.json()["data"]["id"],
        "widgetId": str(uuid.uuid4()), "message": _inbound(text)})
    assert made.status_code == 200, made.text
    return int(made.json()["data"]["id"])


@pytest.fixture
def http(sandbox: SandboxServer) -> Iterator[httpx2.Client]:
    """The service's API as anyone else (a colleague, a rule, a customer) uses it."""
    with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=60) as client:
        yield client


async def test_what_arrives_alerts_and_what_i_did_does_not(
        sandbox: SandboxServer, http: httpx2.Client, tmp_path: Path) -> None:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    session.live = LiveStore(sleep=_no_timer)
    inbox = session.inbox
    watch = AlertWatch(inbox)
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)

    async def arrivals(*, available: bool = True, reading: int | None = None) -> list[Alert]:
        clock.advance(5)
        await settled(inbox)
        return watch.check(me=session.me_id, queues=session.directory.my_queue_ids,
                           available=available, reading=reading)

    def put(path: str, body: dict[str, Any]) -> int:
        return http.put(path, json=body).status_code

    def post(path: str, body: dict[str, Any]) -> int:
        return http.post(path, json=body).status_code

    try:
        await session.start()
        session.live.add(INBOX, inbox.poll, 60.0)
        await settled(inbox)
        me = session.me_id
        my_queue = sorted(session.directory.my_queue_ids)[0]
        # the first fill is the start: everything known then is no news
        assert watch.check(me=me, queues=session.directory.my_queue_ids, available=True,
                           reading=None) == []
        assert await arrivals() == []

        # a conversation a colleague (or a rule) gives me
        given = _new_chat(http, "Can someone help me?")
        assert put(f"/v1/conversations/{given}/claim", {"agentId": me}) == 204
        assert await arrivals() == [Alert(AlertKind.ASSIGNED, given)]

        # its customer writes again: a reply in one of mine
        messages = f"/v1/conversations/{given}/messages"
        assert post(messages, _inbound("Hello? Still there?")) in (200, 201)
        assert await arrivals() == [Alert(AlertKind.REPLY, given)]
        # ... but not while its thread is on screen
        assert post(messages, _inbound("I am waiting")) in (200, 201)
        assert await arrivals(reading=given) == []

        # a new conversation waiting in my queue: only while I am available
        waiting = _new_chat(http, "Is anyone there?")
        assert put(f"/v1/conversations/{waiting}/transfer/queue", {"queueId": my_queue}) == 204
        assert await arrivals(available=False) == []
        other = _new_chat(http, "Hello from another customer")
        assert put(f"/v1/conversations/{other}/transfer/queue", {"queueId": my_queue}) == 204
        assert await arrivals() == [Alert(AlertKind.QUEUE, other)]

        # my own claim is no news to me
        await session.actions.claim(waiting)
        assert await arrivals() == []
    finally:
        await session.close()


def test_arrivals_within_the_window_make_one_alert() -> None:
    now = [100.0]
    coalescer = Coalescer(5.0, clock=lambda: now[0])
    assert coalescer.due() is None and coalescer.take() is None
    coalescer.add([Alert(AlertKind.ASSIGNED, 1)])
    first = coalescer.take()
    assert first is not None and [a.conversation_id for a in first.alerts] == [1]
    coalescer.add([Alert(AlertKind.REPLY, 2), Alert(AlertKind.QUEUE, 3)])
    coalescer.add([Alert(AlertKind.REPLY, 3)])  # one per conversation: the latest kind
    assert coalescer.due() == 5.0 and coalescer.take() is None
    now[0] += 5.0
    second = coalescer.take()
    assert second is not None
    assert second.counts() == {AlertKind.REPLY: 2}
    assert coalescer.due() is None


def test_each_kind_is_switched_by_the_settings() -> None:
    settings = AlertSettings.from_mapping({"reply": False, "desktop": "osc777", "every": 2})
    assert settings.wants("assigned") and settings.wants("queue")
    assert not settings.wants("reply")
    assert settings.desktop == "osc777"


async def test_what_the_watch_forgets_alerts_as_what_it_never_saw(
        sandbox: SandboxServer, http: httpx2.Client, tmp_path: Path) -> None:
    """The alert watch keeps only what can still matter of a conversation it saw (open, and
    mine or nobody's) and alerts exactly as if it kept everything: a colleague's
    conversation given to me, a closed one queued again in my queue, and no news for one
    that only moves within my queue."""
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
        theirs = _new_chat(http, "Can someone help me?")
        assert put(f"/v1/conversations/{theirs}/claim", {"agentId": colleague}) == 204
        assert await arrivals(heard=theirs, agent=colleague) == []
        assert put(f"/v1/conversations/{theirs}/claim", {"agentId": me}) == 204
        assert await arrivals(heard=theirs, agent=me) == [Alert(AlertKind.ASSIGNED, theirs)]

        # one waiting in my queue (while I was away), queued there again: no news
        waiting = _new_chat(http, "Is anyone there?")
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
