"""The inbox asks the service only what it must: a change to a conversation whose row is off
screen costs one request (its record; none for a message, when the activity log says that
is what came), and the same change found again within the next looks' overlap costs none;
a second change made within that overlap is still read; a row brought on screen gets its
tags and text then; my own conversations keep whose turn it is
exact (Needs reply, unread, alerts) as they change.

Against the sandbox, without a console (the rows on screen are told as the inbox screen tells
them), its polls run one by one; the console's clock is the sandbox's (manual) clock, so that
time moves for both when the test moves it, and never by itself.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx2
import inbox_harness
import pytest
from inbox_harness import Console, change_reads, filled_console

from frontdesk.sandbox.server import SandboxServer
from frontdesk.store.inbox import AGENT, CUSTOMER, SLACK

#: the service as others use it (a colleague, a customer)
http = inbox_harness.http


@pytest.fixture(params=["log", "search"])
async def console(sandbox: SandboxServer, tmp_path: Path,
                  request: pytest.FixtureRequest) -> AsyncIterator[Console]:
    """The demo agent's first start, filled, nothing on screen: learning what changed from
    the organisation's activity log (the service's key), or from the search for activity
    (a role without the log)."""
    async with filled_console(sandbox, tmp_path,
                              searching=request.param == "search") as found:
        yield found


def _by_log(console: Console) -> bool:
    return console.inbox.log_available is not False


def _reads(requests: list[tuple[str, str]], conversation_id: int) -> list[str]:
    """What was read of one conversation: its record ("record"), "tags", "messages"."""
    base = f"/v1/conversations/{conversation_id}"
    parts = {base: "record", base + "/tags": "tags", base + "/messages": "messages"}
    return [parts[path] for method, path in requests if method == "GET" and path in parts]


def _queue_chats(sandbox: SandboxServer, me: str) -> list[int]:
    """Chats waiting in my queues (no subject: their row's text is their last message; a
    chat takes a customer's message)."""
    return [r["id"] for r in sandbox.query(
        "SELECT c.id FROM conversations c JOIN queue_members m ON m.queue_id = c.queue_id "
        "WHERE m.agent_id = ? AND c.state = 'Open' AND c.assigned_agent_id IS NULL "
        "AND (c.subject IS NULL OR c.subject = '') AND c.channel = 'WidgetChat' "
        "ORDER BY c.id", (me,))]


def _my_chats(sandbox: SandboxServer, me: str) -> list[int]:
    """My open conversations without a subject."""
    return [r["id"] for r in sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Open' "
        "AND (subject IS NULL OR subject = '') AND channel = 'WidgetChat' "
        "ORDER BY id", (me,))]


def _inbound(text: str) -> dict[str, Any]:
    return {"_type": "Inbound", "content": {"_type": "Text", "value": text}}


async def test_a_change_off_screen_costs_one_request_and_its_overlap_none(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    chat = _queue_chats(sandbox, me)[0]
    assert chat in inbox.rows and chat not in inbox.tags  # never shown: its tags never read

    assert (await http.post(f"/v1/conversations/{chat}/messages",
                            json=_inbound("Hello?"))).status_code < 300
    asked = await console.later(2)
    if _by_log(console):  # the log says a message came: the record is as it was
        assert _reads(asked, chat) == [] and len(asked) == change_reads(asked)
        assert chat in inbox._stale_previews  # its text is read once it is shown
    else:
        assert _reads(asked, chat) == ["record"]  # its record alone: no tags, no messages
        assert len(asked) == change_reads(asked) + 1
    # the same activity, found again by every search while it is within their overlap
    # (SLACK): no request of its own
    again: list[tuple[str, str]] = []
    for _ in range(int(SLACK.total_seconds() / 2) + 2):
        again += await console.later(2)
    assert _reads(again, chat) == []
    assert len(again) == change_reads(again)


async def test_a_second_change_within_the_overlap_is_still_read(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    chat, other = _queue_chats(sandbox, me)[:2]

    assert (await http.put(f"/v1/conversations/{chat}/close")).status_code < 300
    assert (await http.post(f"/v1/conversations/{other}/messages",
                            json=_inbound("Still there?"))).status_code < 300
    asked = await console.later(2)
    assert inbox.rows[chat].state == "Closed"
    # a second change to the same conversation, a second after its record was read: the
    # next searches find it within their overlap, with the first change
    console.clock.advance(1)
    assert (await http.put(f"/v1/conversations/{chat}/reopen")).status_code < 300
    for _ in range(int(SLACK.total_seconds() / 2) + 3):
        asked += await console.later(2)
    assert inbox.rows[chat].state == "Open"  # heard, however late within the overlap
    assert _reads(asked, chat) == ["record", "record"]  # once per change
    # changed once: read once (a message: not at all when the log says so)
    assert _reads(asked, other) == ([] if _by_log(console) else ["record"])


async def test_a_row_brought_on_screen_gets_its_tags_and_text(
        console: Console, sandbox: SandboxServer) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    chat = _queue_chats(sandbox, me)[0]
    assert chat not in inbox.tags and chat not in inbox.previews

    inbox.showing([chat])  # the Queue view scrolled to it
    assert not inbox.on_screen_settled
    asked = await console.settled()
    assert sorted(_reads(asked, chat)) == ["messages", "tags"]
    assert chat in inbox.tags and inbox.previews.get(chat)
    assert inbox.on_screen_settled
    # shown again later, unchanged: nothing to read again
    inbox.showing([])
    inbox.showing([chat])
    assert _reads(await console.settled(), chat) == []


async def test_whose_turn_stays_right_for_my_conversations(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    mine = _my_chats(sandbox, me)[0]
    assert mine not in inbox._showing

    assert (await http.post(f"/v1/conversations/{mine}/messages",
                            json=_inbound("Any news?"))).status_code < 300
    asked = await console.later(2)
    assert inbox.turns[mine][0] == CUSTOMER and mine in inbox.needs_reply_ids()
    assert inbox.unread(mine)
    # its last message (the log says that alone changed; the search, that something did)
    assert sorted(_reads(asked, mine)) == (
        ["messages"] if _by_log(console) else ["messages", "record"])
    # my answer a second later, within the overlap: its last message read at once
    console.clock.advance(1)
    assert (await http.post(f"/v1/conversations/{mine}/messages", json={
        "_type": "Outbound", "agentId": me,
        "content": {"_type": "Text", "value": "On its way."}})).status_code < 300
    asked = await console.later(1)
    assert inbox.turns[mine][0] == AGENT and mine not in inbox.needs_reply_ids()
    assert _reads(asked, mine) == ["messages"]  # the record waits for the overlap to pass
    # and the customer's answer a second after that: their turn, unread, at once (again
    # with its last message alone)
    console.clock.advance(1)
    assert (await http.post(f"/v1/conversations/{mine}/messages",
                            json=_inbound("Thanks!"))).status_code < 300
    asked = await console.later(1)
    assert inbox.turns[mine][0] == CUSTOMER and mine in inbox.needs_reply_ids()
    assert inbox.unread(mine) and _reads(asked, mine) == ["messages"]
