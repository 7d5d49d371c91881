"""The API key (docs/quality.md, checks 4 and 6): sent only as ``Authorization`` to the configured
origins, never after a redirect, never in a log line, a repr or an error.

Two tiny HTTP servers on loopback play "the service" and "somewhere else", so the test can
see exactly which requests reached which port.
"""

from __future__ import annotations

import json
import logging
import threading
import traceback
import uuid
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from frontdesk.api import (
    ApiClient,
    ApiError,
    InvalidRequest,
    NotFound,
    Pacer,
    RetryPolicy,
    UnexpectedResponse,
)
from frontdesk.sandbox.server import SandboxServer

SECRET = "sk_live_" + uuid.uuid4().hex
FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)
AGENT = {"id": str(uuid.uuid4()), "createdAt": "2024-01-01T00:00:00Z", "displayName": "A",
         "email": "a@example.com"}

Answer = tuple[int, dict[str, str], bytes]


class TinyService:
    """A real HTTP server on loopback: canned answers per path; remembers every request."""

    def __init__(self, routes: dict[str, Answer] | None = None) -> None:
        self.routes = routes or {}
        self.received: list[tuple[str, str, dict[str, str]]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                service.received.append((self.command, self.path, dict(self.headers.items())))
                status, headers, body = service.routes.get(
                    self.path.split("?")[0], (404, {}, b'{"message": "nothing here"}'))
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

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


@pytest.fixture
def elsewhere() -> Iterator[TinyService]:
    with TinyService({"/v1/tags": (200, {}, b'{"data": []}'),
                      "/v1/agents": (200, {}, b'{"data": []}')}) as other:
        yield other


@pytest.fixture
def service(elsewhere: TinyService) -> Iterator[TinyService]:
    def page(next_link: str) -> Answer:
        return 200, {}, json.dumps({"data": [AGENT], "meta": {"next": next_link}}).encode()

    with TinyService({
        "/v1/tags": (307, {"Location": elsewhere.url + "/v1/tags"}, b""),
        "/v1/queues": (302, {"Location": "/v1/queues/"}, b""),
        "/v1/agents": page(elsewhere.url + "/v1/agents?cursor=2"),
        "/v1/endusers": (200, {}, json.dumps({"data": [], "meta": {
            "next": elsewhere.url + "/v1/endusers?pageKey=abc"}}).encode()),
        "/v1/teams": (200, {}, b'{"data": []}'),
    }) as tiny:
        yield tiny


@pytest.fixture
async def api(service: TinyService) -> AsyncIterator[ApiClient]:
    async with ApiClient(service.url, SECRET, pacer=Pacer(enabled=False), retry=FAST,
                         user_agent="frontdesk-test/1") as client:
        yield client


async def test_the_key_goes_only_in_the_authorization_header(api: ApiClient,
                                                             service: TinyService) -> None:
    await api.teams.list()
    [(method, path, headers)] = service.received
    assert (method, path) == ("GET", "/v1/teams")
    assert headers["Authorization"] == SECRET
    assert headers["User-Agent"] == "frontdesk-test/1"
    assert SECRET not in path
    assert [v for k, v in headers.items() if SECRET in v and k != "Authorization"] == []


async def test_a_redirect_is_not_followed(api: ApiClient, service: TinyService,
                                         elsewhere: TinyService) -> None:
    with pytest.raises(UnexpectedResponse) as caught:
        await api.tags.list()
    assert caught.value.status == 307
    assert "redirect" in caught.value.message
    with pytest.raises(UnexpectedResponse) as caught:
        await api.queues.list()  # not even to the same origin, and not retried
    assert caught.value.status == 302
    assert [p for _, p, _ in service.received] == ["/v1/tags", "/v1/queues"]
    assert elsewhere.received == []


async def test_a_link_to_another_origin_is_not_followed(api: ApiClient, service: TinyService,
                                                        elsewhere: TinyService) -> None:
    agents = api.agents.list()
    first = await agents.__anext__()
    assert first.id == AGENT["id"]
    with pytest.raises(InvalidRequest) as caught:
        await agents.__anext__()
    assert "configured service" in caught.value.message
    assert elsewhere.received == []


async def test_a_page_key_is_asked_for_at_the_service(api: ApiClient, service: TinyService,
                                                      elsewhere: TinyService) -> None:
    page = await api.endusers.list_page()
    assert page.next_key == "abc"
    await api.endusers.list_page(page_key=page.next_key)
    assert service.received[-1][1] == "/v1/endusers?pageKey=abc"
    assert elsewhere.received == []


async def test_repr_and_str_hide_the_key(api: ApiClient) -> None:
    for text in (repr(api), str(api), repr(api.key), str(api.key), f"{api.key}",
                 repr(api.agents), repr(api._transport.__dict__)):
        assert SECRET not in text
    assert "****" in repr(api)


async def test_nothing_logged_carries_the_key(sandbox: SandboxServer,
                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # every logger: ours, httpx2, httpcore2
    errors: list[ApiError] = []
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as client:
        await client.tags.list()
        await client.tags.create("logged-tag")
        sandbox.faults.fail(503, count=1, path_prefix="/v1/queues")
        await client.queues.list()
        try:
            await client.tags.get(str(uuid.uuid4()))
        except NotFound as error:
            errors.append(error)
        try:
            await client.integrations.get_endpoint("missing")
        except NotFound as error:
            errors.append(error)
    assert any(getattr(r, "api_attempt", None) for r in caplog.records)
    assert sandbox.key not in caplog.text
    for found in errors:
        rendered = "".join(traceback.format_exception(found))
        assert sandbox.key not in rendered + repr(found) + str(found)


async def test_a_key_the_service_echoes_is_scrubbed_from_the_error(service: TinyService
                                                                   ) -> None:
    service.routes["/v1/teams"] = (401, {}, json.dumps(
        {"message": f"unknown key {SECRET}"}).encode())
    async with ApiClient(service.url, SECRET, pacer=Pacer(enabled=False)) as client:
        with pytest.raises(ApiError) as caught:
            await client.teams.list()
    assert caught.value.status == 401
    rendered = "".join(traceback.format_exception(caught.value))
    assert SECRET not in rendered + repr(caught.value) + str(caught.value.args)
    assert caught.value.message == "unknown key ****"
