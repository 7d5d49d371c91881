"""What the inbox reads again of a conversation the searches for activity find within their
overlap: a row on screen found again is not read again for the same change (its record,
read after that change, reflects it); a second change to it within the overlap is still read,
once; a waiting row on screen, which anyone may claim, is read again at once, and so is a
doubtful row brought on screen; a change made after the search before missed the
conversation is read at once; a tick asked for to read the rows brought on screen does not
search again; and a row brought on screen while its last message is being read does not
have it read twice.

Against the sandbox, without a console (the rows on screen are told as the inbox screen tells
them), its polls run one by one; the console's clock is the sandbox's (manual) clock, so that
time moves for both when the test moves it, and never by itself.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import httpx2
import inbox_harness
import pytest
from inbox_harness import Console, filled_console

from frontdesk.sandbox.server import SandboxServer
from frontdesk.store import inbox as inbox_module
from frontdesk.store.inbox import SLACK

#: the service as others use it (a colleague, a customer)
http = inbox_harness.http


@pytest.fixture
async def console(sandbox: SandboxServer, tmp_path: Path) -> AsyncIterator[Console]:
    """The demo agent's first start, filled, nothing on screen, learning what changed
    from the search for activity (whose overlap these tests are about)."""
    async with filled_console(sandbox, tmp_path, searching=True) as found:
        yield found


def _searches(requests: list[tuple[str, str]]) -> int:
    return sum(1 for _, path in requests if path == "/v1/search/conversations")


def _records(requests: list[tuple[str, str]], conversation_id: int) -> int:
    """How many times one conversation's record was read."""
    path = f"/v1/conversations/{conversation_id}"
    return sum(1 for method, asked in requests if method == "GET" and asked == path)


def _my_chats(sandbox: SandboxServer, me: str) -> list[int]:
    """My open conversations without a subject (their row's text is their last message)."""
    return [r["id"] for r in sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Open' "
        "AND (subject IS NULL OR subject = '') AND channel = 'WidgetChat' "
        "ORDER BY id", (me,))]


def _my_emails(sandbox: SandboxServer, me: str) -> list[int]:
    """My open emails (rows that read by their subject)."""
    return [r["id"] for r in sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Open' "
        "AND subject IS NOT NULL AND subject != '' AND channel = 'Email' ORDER BY id", (me,))]


def _queue_emails(sandbox: SandboxServer, me: str) -> list[int]:
    """Emails waiting in my queues (a row that reads by its subject: its record alone is
    read when it changes, never its messages)."""
    return [r["id"] for r in sandbox.query(
        "SELECT c.id FROM conversations c JOIN queue_members m ON m.queue_id = c.queue_id "
        "WHERE m.agent_id = ? AND c.state = 'Open' AND c.assigned_agent_id IS NULL "
        "AND c.subject IS NOT NULL AND c.subject != '' AND c.channel = 'Email' "
        "ORDER BY c.id", (me,))]


async def _close(http: httpx2.AsyncClient, conversation_id: int) -> None:
    assert (await http.put(f"/v1/conversations/{conversation_id}/close")).status_code < 300


async def _reopen(http: httpx2.AsyncClient, conversation_id: int) -> None:
    assert (await http.put(f"/v1/conversations/{conversation_id}/reopen")).status_code < 300


async def test_a_row_on_screen_found_again_within_the_overlap_is_not_read_again(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _my_emails(sandbox, me)[0]
    inbox.showing([email])  # Mine shows it
    await console.settled()

    await _close(http, email)
    asked = await console.later(2)
    assert inbox.rows[email].state == "Closed" and _records(asked, email) == 1
    # the same change, found again by every search while it is within their overlap: its
    # record, read after it, reflects it
    again: list[tuple[str, str]] = []
    for _ in range(int(SLACK.total_seconds() / 2) + 2):
        again += await console.later(2)
    assert _records(again, email) == 0


async def test_a_second_change_to_a_row_on_screen_within_the_overlap_is_read_once(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _my_emails(sandbox, me)[0]
    inbox.showing([email])
    await console.settled()

    until = (console.clock.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    assert (await http.put(f"/v1/conversations/{email}/followup",
                           json={"timestamp": until})).status_code < 300
    asked = await console.later(2)
    assert inbox.rows[email].state == "Pending"
    # a second change a second after its record was read (still mine: nobody else may
    # claim it): the next searches find it within their overlap, with the first change
    console.clock.advance(1)
    await _close(http, email)
    for _ in range(int(SLACK.total_seconds() / 2) + 3):
        asked += await console.later(2)
    assert inbox.rows[email].state == "Closed"  # heard, a tick after the overlap at most
    assert _records(asked, email) == 2  # once per change


async def test_a_waiting_row_on_screen_claimed_within_the_overlap_is_read_at_once(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _queue_emails(sandbox, me)[0]
    colleague = next(r["id"] for r in sandbox.query(
        "SELECT m.agent_id AS id FROM queue_members m JOIN conversations c "
        "ON c.queue_id = m.queue_id WHERE c.id = ? AND m.agent_id != ? ORDER BY m.agent_id",
        (email, me)))
    inbox.showing([email])  # the Queue view shows it
    await console.settled()

    assert (await http.post(f"/v1/conversations/{email}/messages", json={
        "_type": "Inbound", "content": {"_type": "Text", "value": "Anyone?"}})).status_code < 300
    asked = await console.later(2)
    assert _records(asked, email) == 1
    # a colleague claims it a second later: the next search finds it within its overlap,
    # and the row the agent may claim too is read again at once
    console.clock.advance(1)
    assert (await http.put(f"/v1/conversations/{email}/claim",
                           json={"agentId": colleague})).status_code < 300
    asked = await console.later(1)
    assert _records(asked, email) == 1
    assert inbox.rows[email].agent_id == colleague


async def test_a_change_the_search_before_missed_is_read_at_once(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _queue_emails(sandbox, me)[0]

    await _close(http, email)
    asked = await console.later(4)  # read a while after the change
    assert inbox.rows[email].state == "Closed" and _records(asked, email) == 1
    # the searches find that change until their window has passed it
    for step in (2, 2, 3):
        await console.later(step)
    asked = await console.later(1)
    assert email not in inbox._found  # the search before the next change missed it
    await _reopen(http, email)
    # the next search still begins before the record's reading, so it alone cannot tell
    # this change from the first; the search before, which missed it, can
    asked = await console.later(0.5)
    assert _records(asked, email) == 1
    assert inbox.rows[email].state == "Open"


async def test_a_row_brought_on_screen_while_its_text_is_read_is_not_read_twice(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    mine = _my_chats(sandbox, me)[0]
    assert mine not in inbox.shown
    messages = f"/v1/conversations/{mine}/messages"

    async def shown_meanwhile(request: httpx2.Request) -> None:
        # the list shows the row as its record comes in, before its text is read
        if request.method == "GET" and request.url.path == messages:
            inbox.showing([mine])

    console.session.client._http.event_hooks["request"].append(shown_meanwhile)
    assert (await http.post(f"/v1/conversations/{mine}/messages", json={
        "_type": "Inbound", "content": {"_type": "Text", "value": "Hello?"}})).status_code < 300
    asked = await console.later(2)
    assert mine in inbox.shown and inbox.preview_of(mine) == "Hello?"
    assert sum(1 for method, path in asked if method == "GET" and path == messages) == 1


async def test_a_doubtful_row_brought_on_screen_is_read(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _queue_emails(sandbox, me)[0]
    await _close(http, email)
    await console.later(2)
    console.clock.advance(1)
    await _reopen(http, email)
    asked = await console.later(1)  # found again within the overlap, off screen
    assert _records(asked, email) == 0 and email in inbox._doubtful
    assert inbox.rows[email].state == "Closed"  # as read before the second change

    inbox.showing([email])  # the agent brings it on screen: its record is to be read
    assert email in inbox._backlog
    asked = await console.settled()
    assert _records(asked, email) == 1 and inbox.rows[email].state == "Open"


async def test_a_tick_asked_for_to_read_does_not_search_again(
        console: Console, sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inbox_module, "READ_TICK_SEARCH_AFTER", 3600.0)
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _queue_emails(sandbox, me)[0]
    assert email not in inbox.tags
    await console.later(2)  # a search
    inbox.showing([email])  # brought on screen: its tags are to be read
    asked = await console.settled()
    assert _searches(asked) == 0 and email in inbox.tags
    asked = await console.settled()  # a tick of the poll's own pace searches
    assert _searches(asked) == 1
