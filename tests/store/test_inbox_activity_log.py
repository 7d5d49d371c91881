"""What the inbox reads when the organisation's activity log tells it what changed: each
entry once, however many looks find it within their overlap; for each, what its kind says
changed (a message in an open conversation: its last message alone, where its row shows it
or whose turn it is counts; a tag: the tags of a row on screen; a note: nothing; anything
else: the record); and a service without the log searches instead (a team gateway's agent,
whose role has no log, never asks for it: tests/gateway/test_gateway_activity_log.py).

Against the sandbox, without a console (the rows on screen are told as the inbox screen tells
them), its polls run one by one on the sandbox's (manual) clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx2
import inbox_harness
import pytest
from inbox_harness import Console, filled_console

from frontdesk.api.roles import Role
from frontdesk.sandbox.server import SandboxServer
from frontdesk.store.inbox import CUSTOMER, SLACK
from frontdesk.store.member import Membership

#: the service as others use it (a colleague, a customer)
http = inbox_harness.http

LOG = "/v1/conversations/activitylog"
SEARCH = "/v1/search/conversations"


@pytest.fixture
async def console(sandbox: SandboxServer, tmp_path: Path) -> AsyncIterator[Console]:
    """The demo agent's first start, filled, nothing on screen, on the service's key."""
    async with filled_console(sandbox, tmp_path) as found:
        assert found.inbox.log_available is True
        yield found


def _reads(requests: list[tuple[str, str]], conversation_id: int) -> list[str]:
    """What was read of one conversation: "record", "tags", "messages"."""
    base = f"/v1/conversations/{conversation_id}"
    parts = {base: "record", base + "/tags": "tags", base + "/messages": "messages"}
    return sorted(parts[path] for method, path in requests
                  if method == "GET" and path in parts)


def _count(requests: list[tuple[str, str]], path: str) -> int:
    return sum(1 for _, asked in requests if asked == path)


def _mine(sandbox: SandboxServer, me: str, *, subject: bool, state: str = "Open") -> int:
    """One of my conversations in ``state``: an email (with a subject) or a chat (without)."""
    channel = "Email" if subject else "WidgetChat"
    return int(sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = ? "
        "AND channel = ? ORDER BY id LIMIT 1", (me, state, channel))[0]["id"])


def _inbound(text: str) -> dict[str, Any]:
    return {"_type": "Inbound", "content": {"_type": "Text", "value": text}}


async def _overlap(console: Console) -> list[tuple[str, str]]:
    """The ticks while a change stays within the looks' overlap."""
    asked: list[tuple[str, str]] = []
    for _ in range(int(SLACK.total_seconds() / 2) + 2):
        asked += await console.later(2)
    return asked


async def test_a_change_is_read_once_however_often_the_log_returns_it(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _mine(sandbox, me, subject=True)
    chat = _mine(sandbox, me, subject=False)
    inbox.showing([email, chat])
    await console.settled()

    assert (await http.put(f"/v1/conversations/{email}/close")).status_code < 300
    assert (await http.post(f"/v1/conversations/{chat}/messages",
                            json=_inbound("Hello?"))).status_code < 300
    asked = await console.later(2)
    assert inbox.rows[email].state == "Closed" and _reads(asked, email) == ["record"]
    # a customer's message in my open chat: its last message, read at once (whose turn it
    # is), not its record
    assert _reads(asked, chat) == ["messages"]
    assert inbox.preview_of(chat) == "Hello?" and inbox.turns[chat][0] == CUSTOMER
    # the same entries, returned by every look while within the overlap: no news
    again = await _overlap(console)
    assert _reads(again, email) == [] and _reads(again, chat) == []
    assert _count(again, SEARCH) == 0 and len(again) == _count(again, LOG)


async def test_a_message_off_screen_is_read_once_its_row_is_shown(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    waiting = int(sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "AND channel = 'WidgetChat' ORDER BY id LIMIT 1")[0]["id"])
    assert (await http.post(f"/v1/conversations/{waiting}/messages",
                            json=_inbound("Anyone?"))).status_code < 300
    asked = await console.later(2)
    assert _reads(asked, waiting) == []  # off screen, and not Mine: nothing yet
    inbox.showing([waiting])
    asked = await console.settled()
    assert "messages" in _reads(asked, waiting) and inbox.preview_of(waiting) == "Anyone?"


async def test_a_message_in_a_pending_conversation_reads_its_record(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _mine(sandbox, me, subject=True)
    until = (console.clock.now().replace(year=console.clock.now().year + 1)
             .strftime("%Y-%m-%dT%H:%M:%S.000Z"))
    assert (await http.put(f"/v1/conversations/{email}/followup",
                           json={"timestamp": until})).status_code < 300
    await console.later(2)
    assert inbox.rows[email].state == "Pending"
    # a customer's message opens it: the record is read, not only the message
    assert (await http.post(f"/v1/conversations/{email}/messages",
                            json=_inbound("Any news?"))).status_code < 300
    asked = await console.later(2)
    assert "record" in _reads(asked, email) and inbox.rows[email].state == "Open"


async def test_a_tag_reads_the_tags_of_a_row_on_screen_and_a_note_reads_nothing(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    shown = _mine(sandbox, me, subject=True)
    hidden = _mine(sandbox, me, subject=False)
    inbox.showing([shown])
    await console.settled()
    tag = str(sandbox.query("SELECT id FROM tags WHERE state = 'Active' ORDER BY id "
                            "LIMIT 1")[0]["id"])
    for cid in (shown, hidden):
        assert (await http.put(f"/v1/conversations/{cid}/tags/{tag}")).status_code < 300
    asked = await console.later(2)
    assert _reads(asked, shown) == ["tags"] and tag in inbox.tags[shown]
    assert _reads(asked, hidden) == []  # read once it is shown
    inbox.showing([shown, hidden])
    assert "tags" in _reads(await console.settled(), hidden)

    assert (await http.post(f"/v1/conversations/{shown}/notes",
                            json={"message": "Called them back."})).status_code < 300
    assert _reads(await console.later(2), shown) == []


async def test_without_the_log_the_inbox_searches(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    email = _mine(sandbox, me, subject=True)
    # a service without the log: the search from then on
    sandbox.faults.fail(404, count=None, methods=("GET",), path_prefix=LOG)
    assert (await http.put(f"/v1/conversations/{email}/close")).status_code < 300
    asked = await console.later(2)
    assert inbox.log_available is False and inbox.rows[email].state == "Closed"
    assert _count(asked, LOG) == 1 and _count(asked, SEARCH) == 1
    asked = await console.later(2)
    assert _count(asked, LOG) == 0 and _count(asked, SEARCH) == 1


def test_an_agent_through_a_gateway_does_not_ask_for_the_log() -> None:
    member = Membership(gateway=True, cached={"role": Role.AGENT.value, "email": "a@b.c"})
    assert not member.may("activity_log.list")
    assert Membership(gateway=True, cached={"role": Role.SUPERVISOR.value}).may(
        "activity_log.list")
    assert Membership(gateway=False).may("activity_log.list")
