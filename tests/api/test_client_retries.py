"""Retries (docs/quality.md, check 7): what is retried, how often, and what never is."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import (
    ApiClient,
    InvalidRequest,
    Pacer,
    RateLimited,
    RetryPolicy,
    ServiceUnavailable,
    TransportError,
)
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=0.05, max_retry_after=10)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def statuses(caplog: pytest.LogCaptureFixture, path: str) -> list[object]:
    """The outcome of each attempt at ``path``: a status, or the error's name."""
    return [r.api_status if r.api_status is not None else r.api_error  # type: ignore[attr-defined]
            for r in caplog.records
            if hasattr(r, "api_attempt") and getattr(r, "api_path", None) == path]


async def test_503_twice_then_success_on_attempt_3(client: ApiClient,
                                                   sandbox: SandboxServer,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    sandbox.faults.fail(503, count=2, methods=("GET",), path_prefix="/v1/tags")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
        assert isinstance(await client.tags.list(), list)
    assert statuses(caplog, "/v1/tags") == [503, 503, 200]


@pytest.mark.parametrize("status", [502, 504])
async def test_other_gateway_errors_are_retried(client: ApiClient, sandbox: SandboxServer,
                                                status: int) -> None:
    sandbox.faults.fail(status, count=1, path_prefix="/v1/queues")
    assert isinstance(await client.queues.list(), list)


async def test_503_for_too_long_fails_after_the_last_attempt(
    client: ApiClient, sandbox: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    sandbox.faults.fail(503, count=10, path_prefix="/v1/tags")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"), \
            pytest.raises(ServiceUnavailable) as caught:
        await client.tags.list()
    assert caught.value.status == 503
    assert statuses(caplog, "/v1/tags") == [503] * 4


async def test_500_is_never_retried(client: ApiClient, sandbox: SandboxServer,
                                    caplog: pytest.LogCaptureFixture) -> None:
    sandbox.faults.fail(500, count=1, path_prefix="/v1/tags")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"), \
            pytest.raises(ServiceUnavailable) as caught:
        await client.tags.list()
    assert caught.value.status == 500
    assert statuses(caplog, "/v1/tags") == [500]


async def test_400_is_never_retried(client: ApiClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"), \
            pytest.raises(InvalidRequest):
        await client.endusers.list_page(page_key="not-a-key")
    assert statuses(caplog, "/v1/endusers") == [400]


async def test_429_is_waited_out_then_succeeds(sandbox: SandboxServer,
                                               caplog: pytest.LogCaptureFixture) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:  # counted, not sat through
        slept.append(seconds)

    sandbox.faults.rate_limit(retry_after=1, count=2, path_prefix="/v1/tags")
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                         retry=FAST, sleep=sleep) as client:
        with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
            assert isinstance(await client.tags.list(), list)
    assert statuses(caplog, "/v1/tags") == [429, 429, 200]
    waits = [r.api_retry_in for r in caplog.records if hasattr(r, "api_retry_in")]
    assert slept == waits and len(waits) == 2
    assert all(w >= 1 for w in waits)  # Retry-After honoured


async def test_a_retry_after_beyond_the_cap_fails_at_once(
    client: ApiClient, sandbox: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    sandbox.faults.rate_limit(retry_after=60, count=1, path_prefix="/v1/tags")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"), \
            pytest.raises(RateLimited) as caught:
        await client.tags.list()
    assert caught.value.retry_after == 60
    assert "retry after 60 s" in str(caught.value)
    assert statuses(caplog, "/v1/tags") == [429]


async def test_a_429_storm_longer_than_the_attempts_is_rate_limited(
    client: ApiClient, sandbox: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    sandbox.faults.rate_limit(retry_after=0, count=20, path_prefix="/v1/tags")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"), pytest.raises(RateLimited):
        await client.tags.list()
    assert statuses(caplog, "/v1/tags") == [429] * 4


async def test_refused_connections_are_retried_then_fail(
    sandbox: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    sandbox.refuse_connections()
    try:
        async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                             retry=FAST) as api:
            with caplog.at_level(logging.DEBUG, logger="frontdesk.api"), \
                    pytest.raises(TransportError) as caught:
                await api.teams.create("never sent")  # a POST: safe, since nothing arrived
    finally:
        sandbox.accept_connections()
    assert not caught.value.sent
    assert statuses(caplog, "/v1/teams") == ["TransportError"] * 4


async def test_a_post_is_not_retried_after_a_503(client: ApiClient, sandbox: SandboxServer,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    sandbox.faults.fail(503, count=1, methods=("POST",), path_prefix="/v1/teams")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"), \
            pytest.raises(ServiceUnavailable):
        await client.teams.create("maybe")
    assert statuses(caplog, "/v1/teams") == [503]


async def test_a_post_whose_answer_is_lost_is_not_repeated(
    client: ApiClient, sandbox: SandboxServer
) -> None:
    name = f"dropped-{uuid.uuid4().hex[:6]}"
    sandbox.faults.drop_after_commit(count=1, methods=("POST",), path_prefix="/v1/teams")
    with pytest.raises(TransportError) as caught:
        await client.teams.create(name)
    assert caught.value.sent
    rows = sandbox.query("SELECT count(*) AS n FROM teams WHERE name = ?", (name,))
    assert rows[0]["n"] == 1  # stored once, never twice


async def test_a_put_whose_answer_is_lost_is_repeated(client: ApiClient,
                                                      sandbox: SandboxServer) -> None:
    user = await client.endusers.create(display_name="Retry")
    created = await client.conversations.create_chat(user.id, str(uuid.uuid4()), "hi")
    sandbox.faults.drop_after_commit(count=1, methods=("PUT",), path_prefix="/v1/conversations")
    await client.conversations.close(created.id)
    assert (await client.conversations.get(created.id)).state == "Closed"


async def test_read_only_and_create_or_get_posts_are_retried(client: ApiClient,
                                                             sandbox: SandboxServer) -> None:
    sandbox.faults.fail(503, count=1, methods=("POST",), path_prefix="/v1/search")
    assert isinstance((await client.search.conversations_page(page_size=1)).items, list)
    sandbox.faults.fail(503, count=1, methods=("POST",), path_prefix="/v1/tags")
    assert (await client.tags.create("retried-create")).name == "retried-create"
