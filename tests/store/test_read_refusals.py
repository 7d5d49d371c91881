"""Reads the console shows refuse with :class:`Refused`, never with the client's error: a
queue's members, a conversation's history, the organisation's activity and the stats figures
(whose line is the client's own: kind, status, message and call). A queue whose members
cannot be read is still no failure of the directory."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import InvalidRequest, NotFound
from frontdesk.api.pacing import Pacer
from frontdesk.launch import local_store_path
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.activity import conversation_history, recent_activity
from frontdesk.store.errors import Refusal, Refused
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session


@pytest.fixture
async def session(sandbox: SandboxServer) -> AsyncIterator[Session]:
    client = ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                       pacer=Pacer(enabled=False))
    made = Session(client=client, local=LocalStore(local_store_path("refusals-test")),
                   settings=Settings(), profile="refusals-test", identity=DEMO_AGENT_EMAIL)
    await made.resolve_me()
    yield made
    await made.live.stop()
    await client.aclose()
    made.local.close()


async def test_reads_refuse_with_refused(session: Session, sandbox: SandboxServer) -> None:
    # a queue's members: the service's 404, in the store's words
    with pytest.raises(Refused) as members:
        await session.queues.members(str(uuid.uuid4()))
    assert members.value.kind is Refusal.SERVICE
    assert isinstance(members.value.error, NotFound)
    assert members.value.reason == f"Could not read the members: {members.value.error.message}"

    # a conversation's history and the organisation's activity
    cid = int(sandbox.query("SELECT id FROM conversations ORDER BY id LIMIT 1")[0]["id"])
    sandbox.faults.fail(400, path_prefix=f"/v1/conversations/{cid}/activitylog")
    with pytest.raises(Refused) as history:
        await conversation_history(session, cid)
    assert isinstance(history.value.error, InvalidRequest)
    assert history.value.reason.startswith("The history could not be read: ")
    sandbox.faults.fail(400, path_prefix="/v1/conversations/activitylog")
    with pytest.raises(Refused) as activity:
        await recent_activity(session)
    assert activity.value.reason.startswith("The activity could not be read: ")
    assert await conversation_history(session, cid)  # the fault was one request

    # the stats figures, refreshed or filtered: the client's whole line
    stats = session.stats
    sandbox.faults.fail(400, path_prefix="/v1/analytics/records")
    with pytest.raises(Refused) as refreshed:
        await stats.refresh()
    assert isinstance(refreshed.value.error, InvalidRequest)
    assert refreshed.value.reason == str(refreshed.value.error)
    assert "Invalid request (400)" in refreshed.value.reason
    sandbox.faults.fail(400, path_prefix="/v1/analytics/records")
    with pytest.raises(Refused) as chosen:
        await stats.choose("channel", "Email")
    assert chosen.value.reason == str(chosen.value.error)
    await stats.refresh()
    assert stats.snapshot is not None and stats.snapshot.filters == (("channel", "Email"),)

    # the directory: members that cannot be read leave that queue out of mine, no more
    sandbox.faults.fail(400, count=None, path_prefix="/v1/queues/")
    await session.directory.load()
    sandbox.faults.clear()
    assert session.directory.queues and session.directory.my_queue_ids
