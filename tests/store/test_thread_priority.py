"""Opening a thread is a user action: its first requests go before the inbox's polling.

Against the sandbox enforcing the service's budget (10 requests a second) with the console's
own pacer, the inbox fetches a batch of 24 conversations (a first fill) while a thread is
opened. The thread's first tick (messages, record, tags, ratings: about five requests) is
served first, so it is complete long before the inbox's batch is; at the inbox's priority it
would wait behind the whole batch.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from frontdesk.api.client import ApiClient, pacer_for
from frontdesk.api.pacing import Priority
from frontdesk.config import Settings
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session


async def test_a_thread_opened_during_the_first_fill_comes_first(
        limited_sandbox: SandboxServer, tmp_path: Path) -> None:
    client = ApiClient(limited_sandbox.base_url, limited_sandbox.key, pacer=pacer_for())
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    try:
        session.inbox.search_available = False  # no search: the batch below is the tick
        session.inbox.want(range(100, 124), Priority.VISIBLE)
        filling = asyncio.create_task(session.inbox.poll())
        await asyncio.sleep(0.05)  # the batch is queued at the pacer
        session.threads.open(7)
        state = await session.threads.poll()
        assert state.conversation is not None and state.messages
        assert len(session.inbox.rows) == 1  # the thread's record: the batch is not in yet
        await filling
        assert len(session.inbox.rows) == 25
    finally:
        await session.close()
