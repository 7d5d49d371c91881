"""The transport: addresses, typed errors for every failure, timeouts, logging, life cycle."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator

import httpx2
import pytest

from frontdesk.api import (
    ApiClient,
    ApiKey,
    InvalidRequest,
    NotFound,
    Pacer,
    Priority,
    RetryPolicy,
    TransportError,
    Unauthorized,
)
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)
ONCE = RetryPolicy(max_attempts=1)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def attempts(caplog: pytest.LogCaptureFixture, path: str | None = None) -> list[logging.LogRecord]:
    return [r for r in caplog.records if hasattr(r, "api_attempt")
            and (path is None or getattr(r, "api_path", None) == path)]


async def test_the_data_envelope_is_unwrapped(client: ApiClient) -> None:
    tag = await client.tags.create("envelope")
    assert tag.name == "envelope"  # a model, not {"data": …}


async def test_a_wrong_key_is_unauthorized(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, "not-the-key", pacer=Pacer(enabled=False)) as api:
        with pytest.raises(Unauthorized) as caught:
            await api.tags.list()
    assert caught.value.status == 401
    assert caught.value.message  # the service's own words


async def test_the_key_may_be_given_as_an_api_key(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, ApiKey(sandbox.key),
                         pacer=Pacer(enabled=False)) as api:
        assert isinstance(await api.tags.list(), list)


async def test_a_base_url_with_a_trailing_slash(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url + "/", sandbox.key, pacer=Pacer(enabled=False)) as api:
        assert isinstance(await api.tags.list(), list)


@pytest.mark.parametrize("bad", ["ftp://example.com", "example.com", "http://", ""])
def test_an_unusable_base_url_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        ApiClient(bad, "key")


async def test_a_real_transport_may_be_given(sandbox: SandboxServer) -> None:
    transport = httpx2.AsyncHTTPTransport(retries=1)
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                         transport=transport) as api:
        assert isinstance(await api.tags.list(), list)


async def test_refused_connections_are_a_transport_error_not_an_httpx_one(
    sandbox: SandboxServer,
) -> None:
    sandbox.refuse_connections()
    try:
        async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                             retry=ONCE) as api:
            with pytest.raises(TransportError) as caught:
                await api.tags.get(str(uuid.uuid4()))
    finally:
        sandbox.accept_connections()
    assert not caught.value.sent
    assert "connect" in caught.value.message.lower()
    assert caught.value.operation == "GET /v1/tags/{tagId}"
    assert not isinstance(caught.value, httpx2.HTTPError)


async def test_a_slow_service_times_out(sandbox: SandboxServer) -> None:
    sandbox.faults.latency(3.0, count=1)
    async with ApiClient(sandbox.base_url, sandbox.key, timeout=httpx2.Timeout(0.3, connect=5),
                         pacer=Pacer(enabled=False), retry=ONCE) as api:
        with pytest.raises(TransportError) as caught:
            await api.tags.list()
    assert "in time" in caught.value.message
    assert caught.value.sent


async def test_ids_are_checked_before_any_request(client: ApiClient,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
        for call in (client.tags.get("x"), client.agents.get(""), client.teams.get("1" * 36),
                     client.conversations.get(0), client.queues.conversation_position(-5)):
            with pytest.raises(InvalidRequest) as caught:
                await call
            assert caught.value.status is None
    assert attempts(caplog) == []


async def test_each_attempt_is_logged_without_secrets(client: ApiClient, sandbox: SandboxServer,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    tag = await client.tags.create("logged")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
        await client.tags.get(tag.id)
        with pytest.raises(NotFound):
            await client.tags.get(str(uuid.uuid4()))
    records = attempts(caplog, "/v1/tags/{tagId}")
    assert [(r.api_method, r.api_status, r.api_attempt) for r in records] == [  # type: ignore[attr-defined]
        ("GET", 200, 1), ("GET", 404, 1)]
    assert all(r.api_duration_ms >= 0 for r in records)  # type: ignore[attr-defined]
    text = caplog.text
    assert "GET /v1/tags/{tagId} -> 200" in text
    assert tag.id not in text and sandbox.key not in text


async def test_priority_is_accepted_everywhere(client: ApiClient) -> None:
    assert isinstance(await client.tags.list(priority=Priority.BACKGROUND), list)
    assert isinstance(await client.queues.list(priority=Priority.VISIBLE), list)


async def test_a_closed_client_says_so(sandbox: SandboxServer) -> None:
    api = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    await api.aclose()
    assert api.closed
    with pytest.raises(TransportError) as caught:
        await api.tags.list()
    assert "closed" in caught.value.message
