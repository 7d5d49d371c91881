"""docs/quality.md checks 8 and 9 with a real process: the console's composer is
``kill -9``-ed while typing, with a reply enqueued, and with a reply the service stored but
never confirmed; what was typed is there afterwards, and the restarted outbox sends each reply
exactly once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from console_writer import REPLY, TEXT, Writer

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session


def chat_id(sandbox: SandboxServer) -> int:
    rows = sandbox.query("SELECT id FROM conversations WHERE channel = 'WidgetChat' AND "
                         "state = 'Open' ORDER BY id LIMIT 1")
    return int(rows[0]["id"])


def test_draft_survives_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "console.db"
    with Writer("typing", db, cid=42) as writer:
        writer.wait_for(lambda line: line.startswith("saved ") and int(line.split()[1]) >= 30)
        writer.kill()
    saved = [int(line.split()[1]) for line in writer.lines if line.startswith("saved ")]
    last = max(saved)
    stream = TEXT * (last // len(TEXT) + 2)
    with LocalStore(db) as store:
        draft = store.draft(42)
    assert draft is not None
    assert len(draft.text) >= last, "every keystroke reported saved is on disk"
    assert draft.text == stream[: len(draft.text)]


async def restart_and_flush(db: Path, sandbox: SandboxServer) -> int:
    """A new console on the same local store: its outbox sends what the killed one left."""
    session = Session(client=ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)),
                      local=LocalStore(db), settings=Settings(), profile="writer",
                      identity=DEMO_AGENT_EMAIL)
    try:
        assert len(session.outbox.items()) == 1, "the unsent reply survived the kill"
        await session.resolve_me()
        sent = await session.outbox.flush()
        assert session.outbox.items() == []
        return sent
    finally:
        await session.client.aclose()
        session.local.close()


@pytest.mark.parametrize("mode", ["enqueued", "committed"])
def test_unconfirmed_reply_is_sent_exactly_once_after_kill_9(
        tmp_path: Path, sandbox: SandboxServer, mode: str) -> None:
    db = tmp_path / "console.db"
    cid = chat_id(sandbox)
    with Writer(mode, db, sandbox.base_url, sandbox.key, cid) as writer:
        line = writer.wait_for(lambda text: text.startswith(mode))
        writer.kill()
    external_id = line.split()[1]
    before: list[dict[str, Any]] = sandbox.query(
        "SELECT id FROM messages WHERE conversation_id = ? AND external_id = ?",
        (cid, external_id))
    assert len(before) == (1 if mode == "committed" else 0)
    with LocalStore(db) as store:
        assert store.draft(cid) is None, "the draft went into the outbox, not lost, not kept"
    asyncio.run(restart_and_flush(db, sandbox))
    rows = sandbox.query(
        "SELECT id, external_id FROM messages WHERE conversation_id = ? AND body_text = ?",
        (cid, REPLY))
    assert len(rows) == 1
    assert rows[0]["external_id"] == external_id
