"""The retry policy: which failures are retried, and the jittered, capped backoff."""

from __future__ import annotations

import dataclasses
import random

import pytest

from frontdesk.api.errors import (
    ApiError,
    Conflict,
    InvalidRequest,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
    UnexpectedResponse,
    error_from_response,
)
from frontdesk.api.retry import RetryPolicy, backoff, is_retryable, next_delay

POLICY = RetryPolicy()


def test_policy_defaults_and_frozen() -> None:
    assert (POLICY.max_attempts, POLICY.base_delay, POLICY.max_delay, POLICY.max_retry_after) == (
        4,
        0.25,
        4.0,
        10.0,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        POLICY.max_attempts = 9  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_attempts": 0},
        {"base_delay": -1},
        {"max_delay": float("nan")},
        {"max_retry_after": float("inf")},
        {"base_delay": 5.0, "max_delay": 1.0},
    ],
)
def test_policy_rejects_nonsense(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RetryPolicy(**kwargs)  # type: ignore[arg-type]


def test_backoff_is_full_jitter_under_a_growing_cap() -> None:
    rng = random.Random(1)
    for attempt, cap in [(1, 0.25), (2, 0.5), (3, 1.0), (4, 2.0), (5, 4.0), (6, 4.0), (80, 4.0)]:
        draws = [backoff(POLICY, attempt, rng) for _ in range(500)]
        assert all(0 <= d <= cap for d in draws)
        assert max(draws) > cap * 0.9  # the whole range is used…
        assert min(draws) < cap * 0.1  # …from (almost) zero


def test_backoff_is_reproducible_with_a_seeded_rng() -> None:
    first = [backoff(POLICY, n, random.Random(42)) for n in range(1, 6)]
    again = [backoff(POLICY, n, random.Random(42)) for n in range(1, 6)]
    assert first == again


def test_backoff_without_rng_and_bad_attempt() -> None:
    assert 0 <= backoff(POLICY, 1) <= 0.25
    with pytest.raises(ValueError):
        backoff(POLICY, 0)


@pytest.mark.parametrize("idempotent", [True, False])
def test_connect_error_is_always_retried(idempotent: bool) -> None:
    error = TransportError("refused", sent=False)
    assert is_retryable(error, idempotent=idempotent)


def test_timeout_after_sending_only_when_idempotent() -> None:
    error = TransportError("read timeout", sent=True)
    assert is_retryable(error, idempotent=True)
    assert not is_retryable(error, idempotent=False)


def test_unexpected_response_only_when_idempotent() -> None:
    error = UnexpectedResponse("truncated JSON", status=200)
    assert is_retryable(error, idempotent=True)
    assert not is_retryable(error, idempotent=False)


@pytest.mark.parametrize("idempotent", [True, False])
def test_rate_limited_is_retried_up_to_the_cap(idempotent: bool) -> None:
    assert is_retryable(RateLimited("slow", status=429), idempotent=idempotent)
    assert is_retryable(RateLimited("slow", status=429, retry_after=10.0), idempotent=idempotent)
    too_long = RateLimited("slow", status=429, retry_after=10.5)
    assert not is_retryable(too_long, idempotent=idempotent)
    assert is_retryable(too_long, idempotent=idempotent, policy=RetryPolicy(max_retry_after=30.0))


@pytest.mark.parametrize("status", [502, 503, 504])
def test_gateway_errors_only_when_idempotent(status: int) -> None:
    error = error_from_response(status, b"", None)
    assert isinstance(error, ServiceUnavailable)
    assert is_retryable(error, idempotent=True)
    assert not is_retryable(error, idempotent=False)


@pytest.mark.parametrize("status", [500, 501, 505, 507])
def test_other_server_errors_never(status: int) -> None:
    error = error_from_response(status, b'{"message": "bug"}', "application/json")
    assert not is_retryable(error, idempotent=True)


@pytest.mark.parametrize(
    "error",
    [
        InvalidRequest("bad", status=400),
        InvalidRequest("client-side"),
        Unauthorized("who", status=401),
        NotFound("gone", status=404),
        Conflict("taken", status=409),
        ApiError("teapot", status=418),
    ],
)
def test_other_client_errors_never(error: ApiError) -> None:
    assert not is_retryable(error, idempotent=True)
    assert not is_retryable(error, idempotent=False)


def test_next_delay_uses_backoff_and_stops_after_max_attempts() -> None:
    error = TransportError("refused", sent=False)
    rng = random.Random(3)
    delays = [next_delay(POLICY, error, n, idempotent=False, rng=rng) for n in range(1, 5)]
    assert delays[3] is None  # four attempts made: give up
    assert all(d is not None and 0 <= d <= 1.0 for d in delays[:3])


def test_next_delay_honours_retry_after() -> None:
    error = RateLimited("slow", status=429, retry_after=3.0)
    assert next_delay(POLICY, error, 1, idempotent=False, rng=random.Random(0)) == 3.0
    assert next_delay(POLICY, NotFound("x", status=404), 1, idempotent=True) is None
    long_wait = RateLimited("slow", status=429, retry_after=60.0)
    assert next_delay(POLICY, long_wait, 1, idempotent=True) is None
