"""The retry policy: which failures are worth another attempt, and how long to wait first.

Kept as data and pure functions, so the rules can be tested without a network and the client
only has to loop. The rules (docs/quality.md, check 7):

- a request that never reached the service (connect error) is always retried;
- a timeout or broken connection after sending, or an unreadable answer, is retried only when
  repeating the request is harmless (an idempotent method, or an idempotency key such as a
  message's ``externalId``);
- 429 is always retried (the service refused the request, so nothing happened), waiting out
  its Retry-After, unless that wait is longer than ``max_retry_after``;
- 502, 503 and 504 are retried when the request is idempotent; 500 is a bug, never retried;
- every other 4xx is final.

Waits between attempts grow exponentially, capped, with full jitter so that many clients
failing at once do not come back at once.
"""

from __future__ import annotations

import math
import random
from dataclasses import FrozenInstanceError

from frontdesk.api.errors import ApiError, RateLimited, ServiceUnavailable, TransportError

__all__ = [
    "DEFAULT_POLICY",
    "RETRYABLE_STATUSES",
    "RetryPolicy",
    "backoff",
    "is_retryable",
    "next_delay",
]

#: Statuses of a gateway or an overloaded service: the request may well succeed next time.
RETRYABLE_STATUSES = frozenset({502, 503, 504})


class RetryPolicy:
    """How often and how patiently a call is retried (immutable, compared by value).

    ``max_attempts`` counts the first attempt too (4 = one try and three retries).
    ``base_delay`` is the cap of the first backoff, doubling per attempt up to ``max_delay``.
    ``max_retry_after`` is the longest Retry-After the client waits out; a longer one ends the
    call with the error, so the user is told instead of left waiting.
    ``jitter`` is the share of each wait drawn at random: 1 waits anywhere up to the cap (full
    jitter, for calls that must not retry in step); 0.5 waits at least half of it (for
    loops that poll again and again, so a failing service is not asked at once).

    A plain class rather than a dataclass: it is defined on the way to the first frame, where
    a frozen slots dataclass costs about 5 M instructions to build.
    """

    __slots__ = ("_base_delay", "_jitter", "_max_attempts", "_max_delay", "_max_retry_after")
    _max_attempts: int
    _base_delay: float
    _max_delay: float
    _max_retry_after: float
    _jitter: float

    def __init__(self, max_attempts: int = 4, base_delay: float = 0.25, max_delay: float = 4.0,
                 max_retry_after: float = 10.0, jitter: float = 1.0) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        for name, value in (("base_delay", base_delay), ("max_delay", max_delay),
                            ("max_retry_after", max_retry_after)):
            if not (value >= 0 and math.isfinite(value)):
                raise ValueError(f"{name} must be a finite number >= 0")
        if max_delay < base_delay:
            raise ValueError("max_delay must not be smaller than base_delay")
        if not 0.0 <= jitter <= 1.0:
            raise ValueError("jitter must be between 0 and 1")
        put = object.__setattr__
        put(self, "_max_attempts", max_attempts)
        put(self, "_base_delay", base_delay)
        put(self, "_max_delay", max_delay)
        put(self, "_max_retry_after", max_retry_after)
        put(self, "_jitter", jitter)

    @property
    def max_attempts(self) -> int:
        """Attempts in all, the first one included."""
        return self._max_attempts

    @property
    def base_delay(self) -> float:
        """Cap of the first backoff, in seconds."""
        return self._base_delay

    @property
    def max_delay(self) -> float:
        """Cap of any backoff, in seconds."""
        return self._max_delay

    @property
    def max_retry_after(self) -> float:
        """Longest Retry-After waited out, in seconds."""
        return self._max_retry_after

    @property
    def jitter(self) -> float:
        """Share of each wait drawn at random (0 to 1)."""
        return self._jitter

    def _values(self) -> tuple[int, float, float, float, float]:
        return (self._max_attempts, self._base_delay, self._max_delay, self._max_retry_after,
                self._jitter)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, RetryPolicy)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self) -> tuple[type[RetryPolicy], tuple[int, float, float, float, float]]:
        return (RetryPolicy, self._values())

    def __repr__(self) -> str:
        return ("RetryPolicy(max_attempts={!r}, base_delay={!r}, max_delay={!r}, "
                "max_retry_after={!r}, jitter={!r})".format(*self._values()))


#: The policy used when none is given.
DEFAULT_POLICY = RetryPolicy()


def backoff(policy: RetryPolicy, attempt: int, rng: random.Random | None = None) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1 for the first attempt).

    A uniform draw from ``[(1 - jitter) * cap, cap]`` where ``cap`` is
    ``min(max_delay, base_delay * 2 ** (attempt - 1))`` (full jitter by default). ``rng``
    makes the draw reproducible in tests; without it the module's generator is used.
    """
    if attempt < 1:
        raise ValueError("attempt counts from 1")
    ceiling = min(policy.max_delay, policy.base_delay * 2.0 ** min(attempt - 1, 64))
    draw = rng.random() if rng is not None else random.random()
    return ceiling * (1.0 - policy.jitter) + draw * ceiling * policy.jitter


def is_retryable(
    error: ApiError, *, idempotent: bool, policy: RetryPolicy = DEFAULT_POLICY
) -> bool:
    """Whether another attempt after ``error`` is both useful and safe.

    ``idempotent`` says whether repeating the request is harmless: a GET/PUT/DELETE, or a
    POST carrying an idempotency key. ``policy`` supplies the Retry-After cap.
    """
    if error.retry_after is not None and error.retry_after > policy.max_retry_after:
        return False
    if isinstance(error, RateLimited):
        return True
    if isinstance(error, TransportError):
        return idempotent or not error.sent
    if isinstance(error, ServiceUnavailable):
        return idempotent and error.status in RETRYABLE_STATUSES
    return False


def next_delay(
    policy: RetryPolicy,
    error: ApiError,
    attempt: int,
    *,
    idempotent: bool,
    rng: random.Random | None = None,
) -> float | None:
    """Seconds to wait before the next attempt, or ``None`` when the call should fail now.

    ``attempt`` is the number of the attempt that just failed (1 for the first). ``None`` when
    the attempts are used up or the error is not retryable. The wait is the jittered backoff,
    or the service's Retry-After when that is longer.
    """
    if attempt >= policy.max_attempts:
        return None
    if not is_retryable(error, idempotent=idempotent, policy=policy):
        return None
    delay = backoff(policy, attempt, rng)
    if error.retry_after is not None:
        delay = max(delay, error.retry_after)
    return delay
