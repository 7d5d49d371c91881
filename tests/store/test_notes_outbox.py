"""Internal notes go through the outbox: checked before they are queued, never sent to the
customer, kept while the service is down, and written once even when an answer is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import ComposeSettings, Settings
from frontdesk.store.compose import Outgoing
from frontdesk.store.errors import Refusal, Refused
from frontdesk.store.local import LocalStore
from frontdesk.store.outbox import OutboxItem
from frontdesk.store.session import Session


async def test_a_note_is_written_once_never_as_a_message(sandbox: SandboxServer,
                                                         tmp_path: Path) -> None:
    cid = int(sandbox.query("SELECT id FROM conversations WHERE channel = 'WidgetChat' "
                            "ORDER BY id LIMIT 1")[0]["id"])
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "console.db"),
                      settings=Settings(compose=ComposeSettings(undo_seconds=0)),
                      profile="notes", identity=DEMO_AGENT_EMAIL)
    try:
        compose = session.compose
        # no agent known yet to write it in the name of: refused as such, nothing queued
        with pytest.raises(Refused) as refused:
            await compose.send(Outgoing(cid, "note", "Too early"), None)
        assert refused.value.kind is Refusal.NOT_SIGNED_IN
        await session.resolve_me()

        # refused before anything is queued: empty, with attachments, too long
        for text, files in (("  ", ()), ("See file", ({"url": "https://x.test/a.pdf"},)),
                            ("x" * 10_001, ())):
            with pytest.raises(Refused):
                await compose.send(Outgoing(cid, "note", text, attachments=files), None)
        assert session.outbox.items() == []

        # a note written while its answer is lost after the service stored it …
        compose.save_draft(cid, "Refund approved by finance", [])
        compose.remember_mode(cid, "note")
        item = await compose.send(Outgoing(cid, "note", "Refund approved by finance"), None)
        assert isinstance(item, OutboxItem) and item.payload["kind"] == "note"
        assert session.local.draft(cid) is None and compose.mode(cid) == "reply"
        sandbox.faults.drop_after_commit(path_prefix=f"/v1/conversations/{cid}/notes")
        await session.outbox.flush()
        assert [i.state for i in session.outbox.items()] == ["pending"]

        # … is not written again when the outbox resends it
        sandbox.faults.clear()
        await session.outbox.flush()
        assert session.outbox.items() == []
        notes = sandbox.query("SELECT message, author_id FROM notes WHERE conversation_id = ? "
                              "AND message = ?", (cid, "Refund approved by finance"))
        assert len(notes) == 1 and notes[0]["author_id"] == session.me_id
        messages = sandbox.query("SELECT attributes FROM messages WHERE conversation_id = ? "
                                 "AND attributes LIKE ?", (cid, "%Refund approved%"))
        assert messages == []

        # a refused note taken back out of the outbox comes back as a note
        sandbox.faults.fail(400, count=None, path_prefix=f"/v1/conversations/{cid}/notes")
        item = await compose.send(Outgoing(cid, "note", "Second thoughts"), None)
        assert isinstance(item, OutboxItem)
        await session.outbox.flush()
        assert [i.state for i in session.outbox.items()] == ["failed"]
        draft = session.outbox.restore_to_draft(item.id)
        assert draft is not None and draft.text == "Second thoughts"
        assert compose.mode(cid) == "note"
    finally:
        sandbox.faults.clear()
        await client.aclose()
