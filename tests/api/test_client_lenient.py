"""Leniency toward the real service, and clear errors for garbage (docs/quality.md, check 10).

The sandbox's garbage faults break its own answers; a tiny HTTP server on loopback plays a
service that answers in the other published forms (201/202, bare values, unknown fields and
values, the three timestamp forms), which the exact sandbox never does.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2
import pytest

from frontdesk.api import (
    ApiClient,
    Pacer,
    RetryPolicy,
    TransportError,
    UnexpectedResponse,
    left_out,
)
from frontdesk.api.models import Message
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)
ONCE = RetryPolicy(max_attempts=1)

Canned = tuple[int, bytes]


class TinyService:
    """A real HTTP server on loopback answering canned JSON per path (GET and POST)."""

    def __init__(self, routes: dict[str, Canned]) -> None:
        self.routes = routes
        service = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                status, body = service.routes.get(self.path.split("?")[0],
                                                  (404, b'{"message": "nope"}'))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = _answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # shutdown() waits for serve_forever's next look: a hundredth of a second, not half
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                       kwargs={"poll_interval": 0.01})

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> TinyService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def dumps(value: object) -> bytes:
    return json.dumps(value).encode()


TAG = {"id": str(uuid.uuid4()), "name": "vip", "state": "Active", "colour": "teal"}
USER = "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2"
#: a thread's messages as a service may write them: spaced, escaped, a field unknown
FIRST = ('{ "id" : "m1", "authorId": "' + USER + '", '
         '"createdAt": "2021-12-01T12:46:36.581Z[GMT]",\n'
         '   "attributes": {"_type": "ChatAttributes", "content": {"_type": "Text",'
         ' "value": "caf\\u00e9 \\u001b[31m"}}, "mood": [1.50, null] }')
LONE = ('{"id": "m2", "authorId": "' + USER + '", "createdAt": "2021-12-01T12:46:37Z", '
        '"attributes": {"_type": "ChatAttributes", "content": {"_type": "Text", '
        '"value": "a\\ud800b"}}}')
UNFIT = '{"id": "m3", "createdAt": "2021-12-01T12:46:38Z", "attributes": {}}'
AS_WRITTEN = '{"data": [\n  ' + ",\n  ".join((FIRST, LONE, UNFIT)) + '\n], "meta": {}}'


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


@pytest.fixture
def service() -> Iterator[TinyService]:
    with TinyService({
        "/v1/tags": (201, dumps({"data": TAG})),
        f"/v1/tags/{TAG['id']}": (202, dumps(TAG)),
        "/v1/queues": (200, dumps([])),
        "/v1/teams": (200, dumps({"data": [{"id": "t1", "name": "Good"}, {"id": "t2"},
                                           {"id": "t3", "name": "Also good"}]})),
        "/v1/agents/presence": (200, dumps([{
            "userId": USER, "requestTime": "2021-12-01T12:46:35.935",
            "connectionStatus": "Away-ish", "presenceStatus": "Meditating"}])),
        "/v1/conversations/7": (200, dumps({"data": {
            "id": 7, "_type": "CarrierPigeonConversation", "requesterId": USER,
            "channel": "CarrierPigeon", "createdAt": "2021-12-01T12:46:36Z",
            "state": "Snoozed", "mood": {"nested": True}}})),
        "/v1/conversations/7/messages": (200, dumps({"data": [{
            "id": USER, "authorId": USER, "createdAt": "2021-12-01T12:46:36.581Z[GMT]",
            "attributes": {"_type": "HologramAttributes", "direction": "Sideways"}}]})),
        "/v1/conversations/9/messages": (200, dumps({"data": [
            3, {"id": "m1", "authorId": USER, "createdAt": "2021-12-01T12:46:36Z",
                "attributes": {"_type": "ChatAttributes", "direction": "Inbound"}},
            {"id": "m2"}]})),
        "/v1/conversations/10/messages": (200, dumps({"data": [{"id": "m2"}]})),
        "/v1/conversations/11/messages": (200, AS_WRITTEN.encode()),
        "/v1/conversations/12/messages": (200, dumps([json.loads(FIRST)])),
        "/v1/conversations/7/tags/bulk": (202, b""),
        "/v1/conversations/8": (200, dumps({"data": []})),
    }) as tiny:
        yield tiny


# ------------------------------------------------------------------ the published forms


async def test_other_statuses_and_bare_values_are_accepted(service: TinyService) -> None:
    async with ApiClient(service.url, "k", pacer=Pacer(enabled=False), retry=ONCE) as api:
        created = await api.tags.create("vip")  # 201 with an envelope
        fetched = await api.tags.get(TAG["id"])  # 202 with a bare object
        assert created == fetched
        assert created.model_extra == {"colour": "teal"}  # unknown fields kept
        assert await api.queues.list() == []  # a bare empty list
        await api.tags.bulk_tag_conversation(7, ["x"])  # 202 without a body


async def test_unknown_types_and_enum_values_parse(service: TinyService) -> None:
    async with ApiClient(service.url, "k", pacer=Pacer(enabled=False), retry=ONCE) as api:
        conversation = await api.conversations.get(7)
        assert conversation.type == "CarrierPigeonConversation"
        assert conversation.channel == "CarrierPigeon" and conversation.state == "Snoozed"
        assert conversation.model_extra == {"mood": {"nested": True}}
        message = (await api.messages.list(7))[0]
        assert message.attributes.type == "HologramAttributes"
        presence = (await api.agents.list_presence())[0]
        assert presence.connection_status == "Away-ish"


async def test_the_three_timestamp_forms(service: TinyService) -> None:
    async with ApiClient(service.url, "k", pacer=Pacer(enabled=False), retry=ONCE) as api:
        assert (await api.conversations.get(7)).created_at == datetime(
            2021, 12, 1, 12, 46, 36, tzinfo=UTC)
        assert (await api.messages.list(7))[0].created_at == datetime(
            2021, 12, 1, 12, 46, 36, 581000, tzinfo=UTC)
        assert (await api.agents.list_presence())[0].request_time == datetime(
            2021, 12, 1, 12, 46, 35, 935000, tzinfo=UTC)


async def test_an_item_that_does_not_fit_is_left_out_of_its_list(
    service: TinyService, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[str] = []
    stop = left_out.listen(lambda event: heard.append(str(event)))
    try:
        async with ApiClient(service.url, "k", pacer=Pacer(enabled=False),
                             retry=ONCE) as api:
            with caplog.at_level(logging.WARNING, logger="frontdesk.api"):
                teams = await api.teams.list()
                await api.messages.list_wires_if_changed(9, None)
    finally:
        stop()
    assert [t.id for t in teams] == ["t1", "t3"]
    assert "left out 1 of 3" in caplog.text
    # said, never hidden: whoever listens (the console) is told, with the list named
    assert heard == [
        "1 of 3 items of GET /v1/teams could not be read and are not shown (the log says why)",
        "2 of 3 items of GET /v1/conversations/{conversationId}/messages could not be read "
        "and are not shown (the log says why)"]


async def test_a_thread_kept_compact_leaves_out_what_does_not_fit(
    service: TinyService, caplog: pytest.LogCaptureFixture
) -> None:
    async with ApiClient(service.url, "k", pacer=Pacer(enabled=False), retry=ONCE) as api:
        with caplog.at_level(logging.WARNING, logger="frontdesk.api"):
            wires, _ = await api.messages.list_wires_if_changed(9, None)
        assert wires is not None and [(w.id, w.author_id) for w in wires] == [("m1", USER)]
        assert "left out 2 of 3" in caplog.text
        with pytest.raises(UnexpectedResponse):
            await api.messages.list_wires_if_changed(10, None)


async def test_a_thread_kept_compact_keeps_each_message_as_written(
    service: TinyService, caplog: pytest.LogCaptureFixture
) -> None:
    async with ApiClient(service.url, "k", pacer=Pacer(enabled=False), retry=ONCE) as api:
        with caplog.at_level(logging.WARNING, logger="frontdesk.api"):
            wires, _ = await api.messages.list_wires_if_changed(11, None)
        models = await api.messages.list(11)
        bare, _ = await api.messages.list_wires_if_changed(12, None)
    assert wires is not None and [w.id for w in wires] == ["m1", "m2"]
    assert "left out 1 of 3" in caplog.text
    # its JSON text exactly as the answer has it, and the same message read back
    assert wires[0].wire == FIRST
    assert Message.model_validate_json(wires[0].wire) == models[0]
    assert models[0].attributes.body is not None
    assert models[0].attributes.body.value == "café \x1b[31m"
    # a lone surrogate (JSON, but not for the model's parser) is kept, readable
    again = Message.model_validate_json(wires[1].wire)
    assert again.attributes.body is not None and again.attributes.body.value == "a?b"
    assert bare is not None and [w.wire for w in bare] == [json.dumps(
        json.loads(FIRST), ensure_ascii=False, separators=(",", ":"))]


async def test_a_bare_list_where_one_record_is_expected(service: TinyService) -> None:
    async with ApiClient(service.url, "k", pacer=Pacer(enabled=False), retry=ONCE) as api:
        with pytest.raises(UnexpectedResponse) as caught:
            await api.conversations.get(8)
    assert "GET /v1/conversations/{conversationId} does not have the expected shape" in \
        caught.value.message


# ------------------------------------------------------------------ the sandbox's garbage


async def test_unknown_types_from_the_sandbox_parse(client: ApiClient,
                                                    sandbox: SandboxServer) -> None:
    user = await client.endusers.create(display_name="Future")
    created = await client.conversations.create_chat(user.id, str(uuid.uuid4()), "hello")
    sandbox.faults.garbage("unknown_type", count=2, methods=("GET",))
    conversation = await client.conversations.get(created.id)
    assert conversation.type == "SomethingNewFromTheFuture"
    assert conversation.model_extra is not None
    assert "addedInAFutureVersion" in conversation.model_extra
    thread = await client.messages.list(created.id)
    assert thread[0].attributes.type == "SomethingNewFromTheFuture"
    assert thread[0].attributes.body is not None


async def test_an_html_page_is_an_unexpected_response(client: ApiClient,
                                                      sandbox: SandboxServer) -> None:
    sandbox.faults.garbage("html", count=None, path_prefix="/v1/tags")
    with pytest.raises(UnexpectedResponse) as caught:
        await client.tags.list()
    assert caught.value.message == "The answer to GET /v1/tags is an HTML page " \
                                   "(502 Bad Gateway), not JSON"
    assert caught.value.operation == "GET /v1/tags"


async def test_one_html_page_on_a_read_is_retried(client: ApiClient,
                                                  sandbox: SandboxServer) -> None:
    sandbox.faults.garbage("html", count=1, path_prefix="/v1/tags")
    assert isinstance(await client.tags.list(), list)


async def test_truncated_json_is_an_unexpected_response(client: ApiClient,
                                                        sandbox: SandboxServer) -> None:
    sandbox.faults.garbage("truncated", count=None, path_prefix="/v1/queues")
    with pytest.raises(UnexpectedResponse) as caught:
        await client.queues.list()
    assert "GET /v1/queues is not valid JSON" in caught.value.message


async def test_wrong_types_name_the_operation(client: ApiClient, sandbox: SandboxServer) -> None:
    tag = await client.tags.create("typed")
    sandbox.faults.garbage("wrong_types", count=1, path_prefix="/v1/tags/")
    with pytest.raises(UnexpectedResponse) as caught:
        await client.tags.get(tag.id)
    assert caught.value.message.startswith(
        "The answer to GET /v1/tags/{tagId} does not have the expected shape")


async def test_a_huge_answer_is_refused_quickly(client: ApiClient,
                                                sandbox: SandboxServer) -> None:
    sandbox.faults.garbage("huge", count=None, path_prefix="/v1/tags")
    with pytest.raises(UnexpectedResponse) as caught:
        await client.tags.list()
    assert "larger than 8 MB" in caught.value.message


async def test_a_slow_drip_is_bounded_by_the_read_timeout(sandbox: SandboxServer) -> None:
    sandbox.faults.garbage("slow_drip", count=1, seconds=0.05, path_prefix="/v1/tags")
    async with ApiClient(sandbox.base_url, sandbox.key, timeout=httpx2.Timeout(0.5, connect=5),
                         pacer=Pacer(enabled=False), retry=ONCE) as api:
        with pytest.raises(TransportError) as caught:
            await api.tags.list()
    assert "in time" in caught.value.message
