"""Opening a thread is a user action: its first requests go before the inbox's polling.

Against the sandbox enforcing the service's budget (10 requests a second) with the console's
own pacer, the inbox fetches a batch of 24 conversations (a first fill) while a thread is
opened. The thread's first tick (messages, record, tags, ratings: about five requests) is
served first, so it is complete long before the inbox's batch is; at the inbox's priority it
would wait behind the whole batch.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import httpx2

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer, Priority
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.message_rows import MessageRows
from frontdesk.store.session import Session
from frontdesk.store.threads import ThreadState
from virtual_time import VirtualTime


async def test_a_thread_opened_during_the_first_fill_comes_first(
        limited_sandbox: SandboxServer, tmp_path: Path) -> None:
    time = VirtualTime(limited_sandbox)  # the pacer and the service's budget
    client = time.client(limited_sandbox)
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    try:
        session.inbox.search_available = False  # no search: the batch below is the tick
        session.inbox.want(range(100, 124), Priority.VISIBLE)
        filling = asyncio.create_task(session.inbox.poll())
        await time.until(lambda: client.pacer.waiting >= 20)  # the batch is queued
        session.threads.open(7)
        state = await time.run(session.threads.poll())
        assert state.conversation is not None and state.messages
        assert len(session.inbox.rows) == 1  # the thread's record: the batch is not in yet
        await time.run(filling)
        assert len(session.inbox.rows) == 25
    finally:
        await session.close()


async def test_a_thread_shows_its_messages_before_the_head_is_read(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """Over a slow service every request costs a round trip: the opening tick publishes the
    messages as soon as they are read, before the record, tags and ratings are asked for."""
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    paths: list[str] = []
    shown: list[tuple[ThreadState, list[str]]] = []

    async def on_request(request: httpx2.Request) -> None:
        paths.append(request.url.path)

    client._http.event_hooks["request"].append(on_request)
    session.live.subscribe(lambda name, value: shown.append((value, list(paths)))
                           if name == "thread" else None)
    try:
        session.threads.open(7)
        state = await session.threads.poll()
        assert state.conversation is not None and state.messages
        first, asked = next((s, p) for s, p in shown if s.messages)
        assert first.messages is state.messages  # the same messages: not shown twice
        assert [p.rsplit("/", 1)[-1] for p in asked] == ["messages"]  # one round trip
        assert len(paths) > len(asked)  # the head's requests came after
    finally:
        await session.close()


async def test_a_thread_opened_asks_for_its_messages_before_its_screen_exists(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """``prefetch`` (the thread screen being built) sends the messages' request at once; the
    opening tick uses its answer rather than asking again. An early request for another
    conversation is dropped, and a missing conversation is still said to be missing."""
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    paths: list[str] = []
    sent = asyncio.Event()

    async def on_request(request: httpx2.Request) -> None:
        paths.append(request.url.path)
        sent.set()

    client._http.event_hooks["request"].append(on_request)
    threads = session.threads
    try:
        threads.prefetch(7)
        await asyncio.wait_for(sent.wait(), 30)  # on its way before the thread is opened
        assert paths == ["/v1/conversations/7/messages"]
        threads.open(7)
        state = await threads.poll()
        assert state.messages
        assert paths.count("/v1/conversations/7/messages") == 1

        threads.prefetch(8)
        threads.open(9)  # the user went elsewhere: 8's answer is not 9's
        state = await threads.poll()
        assert state.conversation_id == 9 and "/v1/conversations/9/messages" in paths
        assert state.messages == MessageRows.of_wires(
            (await client.messages.list_wires_if_changed(9, None))[0] or ())

        threads.prefetch(99_999)
        threads.open(99_999)
        assert (await threads.poll()).missing
    finally:
        threads.close()
        await session.close()


async def test_a_tick_beside_the_opening_keeps_the_queue_position_it_did_not_read(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """Two ticks of a thread can run side by side (a refresh while the opening is read): the
    one that began before the position was known and does not read it must not put back a
    head without it ("Waiting in Support" where "3rd in Support" was shown)."""
    cid = int(sandbox.query("SELECT id FROM conversations WHERE state = 'Open' AND "
                            "assigned_agent_id IS NULL AND queue_id IS NOT NULL "
                            "ORDER BY id LIMIT 1")[0]["id"])
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    try:
        session.threads.open(cid)
        opened = await session.threads.poll()  # the opening tick: the position read
        assert opened.position is not None
        # the next tick begins from the head the opening first showed, without its position
        session.live.put("thread", replace(opened, position=None))
        sandbox.faults.latency(1.0, path_prefix=f"/v1/conversations/{cid}/messages")
        beside = asyncio.create_task(session.threads.poll())
        # the tick waits for its messages (the sandbox thread counts the fault taken)
        while not sandbox.faults.fired:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        session.live.put("thread", opened)  # meanwhile the opening tick ends, position known
        state = await beside
        assert state.position == opened.position
    finally:
        await session.close()
