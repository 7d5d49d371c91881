"""The first fill spends the service's budget on the first picture: the records of Mine and
Queue come before anything else (the subjectless rows' last messages, the requesters' names
but Mine's, the tags, the search for activity), and the views are announced complete before
their text is read. A row whose text is still coming says "…", never "no messages". A first
fill cut off by the service going down fails its tick (the topic waits, the header says so).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import pytest
from inbox_harness import CHANGE_READS

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import TransportError
from frontdesk.api.pacing import Pacer
from frontdesk.api.retry import RetryPolicy
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.directory import NAMES_AT_ONCE
from frontdesk.store.inbox import PREVIEW_COMING
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import INBOX


async def test_the_first_fill_reads_mine_and_queue_before_anything_else(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    requests: list[tuple[str, str]] = []
    pictures: list[tuple[int, set[int], set[int], dict[int, str]]] = []

    async def on_request(request: httpx2.Request) -> None:
        requests.append((request.method, request.url.path))

    def changed(topic: str, value: Any) -> None:
        if topic == INBOX:
            inbox = session.inbox
            queue = {row.id for row in inbox.view("queue")}
            inbox.showing(queue)  # the Queue view on screen: its rows' text and tags are read
            pictures.append((len(requests), {row.id for row in inbox.view("mine")}, queue,
                             {cid: inbox.preview_of(cid) for cid in queue}))

    client._http.event_hooks["request"].append(on_request)
    session.live.subscribe(changed)
    inbox = session.inbox
    try:
        session.live.add(INBOX, inbox.poll, 60.0)  # announced, never started: ticks below
        me = (await session.resolve_me()).id
        await inbox.poll()  # Mine is asked for at once, my queues are not known yet
        await session.directory.load()
        for _ in range(40):
            await inbox.poll()
            if inbox.filled and inbox.settled:
                break
        assert inbox.filled and inbox.settled

        mine = {r["id"] for r in sandbox.query(
            "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Open'",
            (me,))}
        waiting = {r["id"] for r in sandbox.query(
            "SELECT c.id FROM conversations c JOIN queue_members m ON m.queue_id = c.queue_id "
            "WHERE m.agent_id = ? AND c.state = 'Open' AND c.assigned_agent_id IS NULL",
            (me,))}
        assert mine and waiting
        assert {row.id for row in inbox.view("queue")} == waiting

        def first(part: str) -> int:
            """The first request for a conversation's ``part`` (or under ``part``)."""
            return next((i for i, (_, path) in enumerate(requests)
                         if (path.startswith(part) if part.startswith("/v1/") else
                             path.startswith("/v1/conversations/") and path.endswith(part))),
                        len(requests))

        records = [i for i, (method, path) in enumerate(requests)
                   if method == "GET" and path.rsplit("/", 2)[-2] == "conversations"
                   and path.rsplit("/", 1)[-1].isdigit()
                   and int(path.rsplit("/", 1)[-1]) in mine | waiting]
        # Mine's and Queue's searches, then each look for what changed (the log or a search)
        searches = [i for i, (_, path) in enumerate(requests) if path in CHANGE_READS]
        # Mine's customers are named as soon as their records are in (Mine is the first
        # view; a screenful of them at once); every other name, text and tag waits for the
        # whole first picture
        my_customers = {r["requester_id"] for r in sandbox.query(
            "SELECT requester_id FROM conversations WHERE assigned_agent_id = ? "
            "AND state = 'Open'", (me,))}  # the Mine view's rows
        names = [(i, path.rsplit("/", 1)[-1]) for i, (_, path) in enumerate(requests)
                 if path.startswith("/v1/endusers/")]
        named_early = {user for i, user in names if user in my_customers and i < max(records)}
        assert len(named_early) >= min(NAMES_AT_ONCE, len(my_customers)), \
            "Mine's customers were named only after the whole first picture"
        other_names = next((i for i, user in names if user not in named_early),
                           len(requests))
        extras = min(first("/messages"), other_names, first("/tags"), searches[2])
        assert max(records) < extras, "a record of Mine or Queue waited behind an extra"

        # the picture was complete, with the subjectless rows' text still coming, before
        # any of that text was asked for
        at, _, _, texts = next(
            p for p in pictures if p[2] >= waiting and p[1] >= mine)
        assert at <= first("/messages")
        coming = [cid for cid, text in texts.items() if text == PREVIEW_COMING]
        assert coming, "the seeded queue has chats without a subject"
        assert all(inbox.preview_of(cid) != PREVIEW_COMING for cid in coming)
        assert any(inbox.previews.get(cid) for cid in coming)
    finally:
        await session.close()


async def test_a_first_fill_cut_off_by_the_service_going_down_fails_its_tick(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                       retry=RetryPolicy(max_attempts=1))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    inbox = session.inbox
    try:
        session.live.add(INBOX, inbox.poll, 60.0)  # announced, never started: ticks below
        await session.resolve_me()
        await inbox.poll()  # Mine found: its records wait to be read
        assert not inbox.settled
        waiting = len(inbox._backlog)
        sandbox.refuse_connections()
        try:
            # every record of the batch failed: the tick says so (the topic then waits
            # before the next, and the header says the service is not answering) instead
            # of asking again at once for as long as the service is down
            with pytest.raises(TransportError):
                await inbox.poll()
        finally:
            sandbox.accept_connections()
        assert len(inbox._backlog) == waiting  # nothing lost: read at the next tick
        await inbox.poll()
        assert len(inbox._backlog) < waiting
    finally:
        await session.close()
