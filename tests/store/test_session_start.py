"""A session paints from the local store before it connects.

Building a Session reads only the local store: the inbox's compact rows come straight from
the working set's JSON, and nothing of the HTTP stack, the models or the keyring is loaded
until ``start`` connects (on a worker thread). These tests hold that promise, check that the
rows read from JSON say what the records say, and that a console that cannot connect (no
key) keeps its cached data and says why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.models import Conversation, Tag
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import KeyNotFound, Settings
from frontdesk.store.connection import Link
from frontdesk.store.local import LocalStore
from frontdesk.store.rows import InboxRow, digest_of
from frontdesk.store.session import Session

T = TypeVar("T")
SRC = Path(__file__).resolve().parents[2] / "src"


async def _fetched(sandbox: SandboxServer, count: int = 30) -> list[Conversation]:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        return [await client.conversations.get(cid) for cid in range(1, count + 1)]


def _no_key() -> ApiClient:
    raise KeyNotFound("No API key for profile 'work' in the system keyring. "
                      "Run `frontdesk login` to store one.")


def _session(path: Path, connect: object = _no_key) -> Session:
    return Session(connect=connect, local=LocalStore(path),  # type: ignore[arg-type]
                   settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)


async def test_rows_read_from_the_working_set_say_what_the_records_say(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    records = await _fetched(sandbox)
    with LocalStore(tmp_path / "local.db") as local:
        local.remember(records, "inbox")
    session = _session(tmp_path / "local.db")
    try:
        inbox = session.inbox
        assert sorted(inbox.rows) == sorted(c.id for c in records)
        for record in records:
            from_json = inbox.rows[record.id]
            assert from_json == InboxRow.of(record, from_json.digest)
            assert inbox.records[record.id] == record  # the full record, read back on demand
        # the same records again change nothing; one changed record is one new version
        version = inbox.version
        inbox.upsert(records, "inbox")
        assert inbox.version == version
        changed = records[0].model_copy(update={"subject": "Changed meanwhile"})
        inbox.upsert([changed], "inbox")
        assert inbox.version == version + 1
        assert inbox.rows[changed.id].subject == "Changed meanwhile"
        assert inbox.records[changed.id].subject == "Changed meanwhile"
        # an optimistic edit is served until the service's record replaces it
        edited = records[1].model_copy(update={"state": "Closed"})
        inbox.replace(edited)
        assert inbox.records[edited.id].state == "Closed"
        assert inbox.rows[edited.id].state == "Closed"
        assert [r.id for r in inbox.view("all")].count(edited.id) == 1
        # Closed holds my conversations closed lately: signed in as no one, none of them
        assert edited.id not in [r.id for r in inbox.view("closed")]
    finally:
        session.local.close()


async def test_rows_are_kept_compact_and_records_of_older_stores_still_read(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    records = await _fetched(sandbox, 6)
    for record in records:
        row = InboxRow.of(record, digest_of(record.model_dump_json(exclude_none=True)))
        assert InboxRow.from_compact(row.compact()) == row
    with LocalStore(tmp_path / "local.db") as local:
        local.remember(records, "inbox")
        # two records as an older store kept them: no compact row beside them
        local.execute("UPDATE working_set SET row = NULL WHERE conversation_id IN (?, ?)",
                      (records[0].id, records[1].id))
        local.execute("UPDATE working_set SET row = '[1, 2' WHERE conversation_id = ?",
                      (records[2].id,))  # and one damaged: skipped, the others still read
    session = _session(tmp_path / "local.db")
    try:
        inbox = session.inbox
        assert sorted(inbox.rows) == sorted(c.id for c in records if c.id != records[2].id)
        for record in (records[0], records[1], records[3]):
            assert inbox.rows[record.id] == InboxRow.of(record, inbox.rows[record.id].digest)
        version = inbox.version
        inbox.upsert(records[:2], "inbox")  # the same records: the digests match
        assert inbox.version == version
    finally:
        session.local.close()


async def test_records_beyond_those_kept_in_memory_are_read_back(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    records = await _fetched(sandbox, 12)
    session = _session(tmp_path / "local.db")
    try:
        inbox = session.inbox
        inbox.records._keep = 3  # keep only the last three used in memory
        inbox.upsert(records, "inbox")
        assert len(inbox.records._recent) == 3
        assert all(inbox.records[c.id] == c for c in records)
        assert len(inbox.records._recent) == 3
        assert inbox.records.get(10**9) is None and 10**9 not in inbox.records
    finally:
        session.local.close()


async def test_a_session_that_cannot_connect_keeps_its_data_and_says_why(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    records = await _fetched(sandbox, 5)
    with LocalStore(tmp_path / "local.db") as local:
        local.remember(records, "inbox")
    session = _session(tmp_path / "local.db")
    notices: list[tuple[str, str]] = []
    session.on_notice = lambda severity, text: notices.append((severity, text))
    try:
        await session.start()
        assert session.live.connection.link is Link.SIGNED_OUT
        assert session.live.connection.describe(0) == "signed out — no API key"
        [(severity, text)] = notices
        assert severity == "error" and "frontdesk login" in text
        assert len(session.inbox.rows) == 5  # the cached inbox is still there
        with pytest.raises(Exception, match="Not connected"):
            _ = session.client
    finally:
        await session.close()


def test_the_first_frame_loads_no_http_models_keyring_or_sandbox(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """The console, up to its first frame on cached data, in a fresh interpreter: tagged
    rows painted in their tags' colours from the cached directory."""
    me, mine, tags = asyncio_run(_mine_and_tags(sandbox))
    records = asyncio_run(_fetched(sandbox, 20)) + mine
    colored = [t.id for t in tags if t.color][:3]
    assert colored and mine
    home = tmp_path / "home"
    env = {**os.environ, "FRONTDESK_HOME": str(home), "PYTHONPATH": str(SRC)}
    probe = f"""
import json, os, sys
import textual.app as textual_app
from frontdesk import launch
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore

original = textual_app.App._display

def display(self, screen, renderable):
    original(self, screen, renderable)
    if renderable is None or type(screen).__name__ != "InboxScreen":
        return
    heavy = [m for m in ("pydantic", "httpx2", "keyring", "fastapi", "uvicorn")
             if m in sys.modules]
    rows = len(self.session.inbox.rows)
    shown = screen.conversation_list.total_count
    os.write(1, (json.dumps({{"heavy": heavy, "rows": rows, "shown": shown}})
                 + "\\n").encode())
    os._exit(0)

textual_app.App._display = display
with LocalStore(launch.local_store_path("work")) as local:
    given = json.loads(sys.stdin.read())
    local.remember_wires(given["wires"], "inbox")
    local.save_snapshot("directory", {{"agents": [], "queues": [], "tags": given["tags"],
                                       "my_queues": []}})
    local.save_snapshot("inbox", {{"tags": given["tagged"]}})
    local.save_snapshot("me", {{"id": given["me"], "email": {DEMO_AGENT_EMAIL!r}}})
target = launch.Target("work", {sandbox.base_url!r}, None, None, {DEMO_AGENT_EMAIL!r},
                       read_key=lambda: {sandbox.key!r})
launch.run_console(target, Settings())
"""
    given = {"wires": [[c.id, c.model_dump_json(exclude_none=True)] for c in records],
             "tags": [t.wire() for t in tags],
             "tagged": {str(c.id): colored for c in records}, "me": me}
    done = subprocess.run([sys.executable, "-c", probe], input=json.dumps(given).encode(),
                          capture_output=True, env=env, timeout=60, check=False)
    lines = done.stdout.decode(errors="replace").strip().splitlines()
    assert lines, done.stderr.decode(errors="replace")[-2000:]
    report = json.loads(lines[-1])
    assert report["heavy"] == []
    assert report["rows"] == len(records)  # the first frame paints from the cached inbox
    assert report["shown"] == len(mine)  # Mine, its rows in their tags' colours


async def _mine_and_tags(sandbox: SandboxServer) -> tuple[str, list[Conversation], list[Tag]]:
    """The demo agent's id, its open conversations and every tag."""
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        [me] = [a async for a in client.agents.list(email=DEMO_AGENT_EMAIL)]
        page = await client.search.conversations_page(filters={
            "strategy": "All", "conditions": [
                {"field": {"_type": "AgentId", "operator": {"_type": "IsOneOf",
                                                            "values": [me.id]}}},
                {"field": {"_type": "Status", "operator": {"_type": "IsOneOf",
                                                           "values": ["open"]}}}]},
            page_size=50)
        mine = [await client.conversations.get(hit.id) for hit in page.items]
        return me.id, mine, await client.tags.list(include_deactivated=True)


def asyncio_run(coroutine: Coroutine[Any, Any, T]) -> T:
    import asyncio

    return asyncio.run(coroutine)


async def test_a_large_working_set_paints_the_first_view_first_then_the_rest(
        sandbox: SandboxServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from frontdesk.store import inbox as inbox_module

    monkeypatch.setattr(inbox_module, "FIRST_FRAME_ROWS", 4)
    records = await _fetched(sandbox, 10)
    older = next(i for i, c in enumerate(records[:6])  # an older one is mine, and open
                 if c.assignment is not None and c.assignment.agent_id)
    records[older] = records[older].model_copy(update={"state": "Open"})
    me = records[older].assignment.agent_id  # type: ignore[union-attr]
    with LocalStore(tmp_path / "local.db") as local:
        for record in records:  # one at a time: each seen after the one before
            local.remember([record], "inbox")
        local.save_snapshot("me", {"id": me, "email": DEMO_AGENT_EMAIL})
    session = _session(tmp_path / "local.db")
    try:
        inbox = session.inbox
        mine = {c.id for c in records if c.assignment is not None
                and c.assignment.agent_id == me and c.state == "Open"}
        # the newest and Mine's (the first view), at once
        assert set(inbox.rows) == {c.id for c in records[-4:]} | mine
        assert len(inbox.rows) < len(records)
        newer = next(c for c in records[:6] if c.id not in inbox.rows).model_copy(
            update={"subject": "Changed since"})
        inbox.upsert([newer], "inbox")  # a poll was quicker than the rest
        version = inbox.version
        assert inbox.read_the_rest() and inbox.version == version + 1
        assert sorted(inbox.rows) == sorted(c.id for c in records)
        assert inbox.rows[newer.id].subject == "Changed since"  # the newer row is kept
        assert not inbox.read_the_rest() and inbox.version == version + 1
        inbox.save()  # quitting lists mine: the next start reads them by id
    finally:
        session.local.close()
    session = _session(tmp_path / "local.db")
    try:
        assert set(session.inbox.rows) == mine  # nothing seen since the save: Mine's alone
        assert session.inbox.read_the_rest()  # the others once the frame is on screen
        assert sorted(session.inbox.rows) == sorted(c.id for c in records)
    finally:
        session.local.close()
    # a conversation that became mine since is read with Mine's (it was seen since)
    taken = next(c for c in records[:6] if c.id not in mine and c.assignment is not None)
    taken = taken.model_copy(update={"state": "Open", "assignment": taken.assignment.model_copy(  # type: ignore[union-attr]
        update={"agent_id": me})})
    with LocalStore(tmp_path / "local.db") as local:
        local.remember([taken], "inbox")
    session = _session(tmp_path / "local.db")
    try:
        assert {c.id for c in session.inbox.view("mine")} >= {taken.id}
        assert taken.id in session.inbox.rows
    finally:
        session.local.close()
    # more seen since the save than the newest read: mine is found by a scan, whole all the same
    with LocalStore(tmp_path / "local.db") as local:
        for record in records[:5]:
            local.remember([record], "inbox")
    session = _session(tmp_path / "local.db")
    try:
        assert mine - {taken.id} <= set(session.inbox.rows)
    finally:
        session.local.close()
