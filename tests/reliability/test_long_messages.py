"""A customer cannot make their own thread unreadable: overlong or escape-stuffed messages
degrade one by one.

Fifteen inbound messages of 100,000 ESC characters each (within the service's limits) make
the unpaged messages list larger than the client's 8 MB cap for other answers. The client
reads it item by item as it streams in, so every message arrives; the console shows each long
one shortened (with how much more there is, ``enter`` shows all) and the legitimate messages
around them as usual. A text longer than the contract allows is cut in the client, saying so.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from typing import Any, Final

import httpx2
import pytest
from textual.pilot import Pilot

from frontdesk.api.bodies import MAX_RESPONSE_BYTES
from frontdesk.api.client import ApiClient
from frontdesk.api.errors import UnexpectedResponse
from frontdesk.api.listing import ItemTooLarge, NotJson, read_listing
from frontdesk.api.pacing import Pacer
from frontdesk.api.resources.messages import MAX_TEXT
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.widgets.message_view import SHORT_CHARS, MessageView
from frontdesk.tui.widgets.status_bar import StatusBar
from tui_conftest import tui_fixtures

STUFFED: Final = 15
ESCAPES: Final = "\x1b" * 100_000



def stuff_a_thread(sandbox: SandboxServer, http: httpx2.Client) -> tuple[int, int]:
    """An open conversation: a greeting, 15 messages of 100,000 ESC, a last word; all
    written over HTTP as the customer would. (conversation id, the answer's size in bytes)"""
    cid = int(sandbox.query(
        "SELECT id FROM conversations WHERE channel = 'WidgetChat' AND state = 'Open' "
        "ORDER BY id LIMIT 1")[0]["id"])

    def inbound(text: str) -> None:
        answer = http.post(f"/v1/conversations/{cid}/messages", json={
            "_type": "Inbound", "content": {"_type": "Text", "value": text}})
        assert answer.status_code == 200, answer.text

    inbound("Hello, my order ORD-7 never came")
    for _ in range(STUFFED):
        inbound(ESCAPES)
    inbound("Please answer, the real question is here")
    answer = http.get(f"/v1/conversations/{cid}/messages")
    assert answer.status_code == 200
    return cid, len(answer.content)


def client_for(sandbox: SandboxServer) -> ApiClient:
    return ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))


async def test_a_thread_larger_than_the_cap_is_read_whole_and_shown_per_message(
        sandbox: SandboxServer, http: httpx2.Client) -> None:
    cid, size = stuff_a_thread(sandbox, http)
    assert size > MAX_RESPONSE_BYTES  # the repro: larger than any other answer may be
    async with client_for(sandbox) as client:
        messages = await client.messages.list(cid)
        assert [m.attributes.body.value for m in messages[-STUFFED - 2:]  # type: ignore[union-attr]
                ] == ["Hello, my order ORD-7 never came", *[ESCAPES] * STUFFED,
                      "Please answer, the real question is here"]
        # other answers keep the cap
        sandbox.faults.garbage("huge", count=1, path_prefix="/v1/tags")
        with pytest.raises(UnexpectedResponse, match="larger than 8 MB"):
            await client.tags.list()

    console = tui_fixtures().Console(sandbox)
    app = console.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await console.ready(pilot)
        screen = ThreadScreen(cid)
        await app.push_screen(screen)
        await pilot.pause()
        assert app.session is not None
        await app.session.live.refresh("thread")
        await settle(pilot)
        await pilot.press("g")  # to the oldest: the first frame holds only the newest
        await settle(pilot)
        views = list(screen.query(MessageView))
        texts = [str(view.render()) for view in views]
        assert any("Hello, my order ORD-7 never came" in t for t in texts)
        assert "Please answer, the real question is here" in texts[-1]
        long = [view for view in views if view.shortened]
        assert len(long) == STUFFED
        shown = str(long[0].render())
        assert "␛" * 100 in shown and "\x1b" not in shown
        assert len(shown) < SHORT_CHARS + 300
        assert f"{100_000 - SHORT_CHARS:,} more characters" in shown
        status = str(app.screen.query_one(StatusBar).render())
        assert "unreadable" not in status
        # enter on a long message shows all of it, and again shortens it
        long[-1].focus()
        await pilot.press("enter")
        await pilot.pause()
        assert not long[-1].shortened and str(long[-1].render()).count("␛") == 100_000
        await pilot.press("enter")
        await pilot.pause()
        assert long[-1].shortened


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_a_text_longer_than_the_contract_is_cut_saying_so(
        sandbox: SandboxServer) -> None:
    """A service sending more than the contract allows (written straight into the
    sandbox's database) costs that message its tail, not the thread."""
    over = "x" * (MAX_TEXT + 12_345)

    def write(ctx: SandboxContext) -> int:
        row = ctx.db.all("SELECT id, requester_id FROM conversations ORDER BY id LIMIT 1")[0]
        with ctx.db.tx():
            records.insert_message(
                ctx.db, conversation_id=row["id"], author_id=row["requester_id"],
                created_at="2030-01-01T00:00:00.000Z", direction="Inbound",
                attributes={"_type": "ChatAttributes", "direction": "Inbound",
                            "content": {"_type": "Text", "value": over}})
        return int(row["id"])

    cid = sandbox.call(write)
    async with client_for(sandbox) as client:
        last = (await client.messages.list(cid))[-1].attributes.body
    assert last is not None
    assert last.value == "x" * MAX_TEXT + "\n… (12,345 more characters not read)"


# ------------------------------------------------------------------------------ the reader


async def _chunks(data: bytes, sizes: random.Random) -> AsyncIterator[bytes]:
    at = 0
    while at < len(data):
        step = sizes.choice((1, 2, 3, 7, 64, 4096))
        yield data[at:at + step]
        at += step


async def test_the_reader_decodes_any_cut_of_the_stream() -> None:
    body = {"meta": {"next": None, "n": 12}, "data": [
        {"id": i, "text": "é\u202e\x1b" * i, "n": 10 ** i, "deep": [[{"x": True}]]}
        for i in range(30)], "count": 1234567}
    data = json.dumps(body, ensure_ascii=bool(random.getrandbits(1))).encode()
    for seed in range(20):
        got = await read_listing(_chunks(data, random.Random(seed)), lambda item: item,
                                 max_item=10_000)
        assert got == body
    for broken in (b"<html><title>Bad gateway</title>", data[:-3], b'{"data": [1, 2,]}',
                   data + b"x", b'{"data": [{"a": 1}] "b": 2}'):
        with pytest.raises(NotJson):
            await read_listing(_chunks(broken, random.Random(1)), lambda i: i, max_item=10_000)
    with pytest.raises(ItemTooLarge):
        await read_listing(_chunks(data, random.Random(1)), lambda i: i, max_item=100)
