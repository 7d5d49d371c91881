"""A subjectless row's text is its conversation's last message, read as the thread's wire
JSON with the last message alone made a model: the text, whose turn it is, and a change of
either, read right however long the thread.

Against the sandbox, without a console (``inbox_harness``), as ``test_inbox_requests`` drives
the inbox (its fixtures and helpers are reused)."""

from __future__ import annotations

from typing import Any

import httpx2
import test_inbox_requests
from inbox_harness import Console
from test_inbox_requests import _inbound, _queue_chats, _reads

from frontdesk.sandbox.server import SandboxServer
from frontdesk.store.inbox import AGENT, CUSTOMER

#: the fixtures of the inbox's request tests: a filled console (learning what changed from
#: the activity log, then from the search), the service as others use it
console = test_inbox_requests.console
http = test_inbox_requests.http


def _outbound(text: str, agent: str) -> dict[str, Any]:
    return {"_type": "Outbound", "agentId": agent, "content": {"_type": "Text", "value": text}}


async def test_a_long_threads_row_shows_its_last_message_and_whose_turn_it_is(
        console: Console, sandbox: SandboxServer, http: httpx2.AsyncClient) -> None:
    inbox = console.inbox
    me = console.session.me_id
    assert me
    chat = _queue_chats(sandbox, me)[0]
    for n in range(60):  # a long thread: the last message is the one shown
        sent = _inbound(f"message {n}") if n % 2 else _outbound(f"message {n}", me)
        assert (await http.post(f"/v1/conversations/{chat}/messages",
                                json=sent)).status_code < 300
    assert (await http.post(f"/v1/conversations/{chat}/messages",
                            json=_inbound("The very last one"))).status_code < 300

    inbox.showing([chat])
    asked = await console.later(2)
    assert "messages" in _reads(asked, chat)
    assert inbox.preview_of(chat) == "The very last one"
    turn = inbox.turns.get(chat)
    assert turn is not None and turn[0] == CUSTOMER

    # answered: the row reads the answer, and the turn is the agent's
    assert (await http.post(f"/v1/conversations/{chat}/messages",
                            json=_outbound("On it", me))).status_code < 300
    await console.later(2)
    assert inbox.preview_of(chat) == "On it"
    turn = inbox.turns.get(chat)
    assert turn is not None and turn[0] == AGENT
