"""The outbox's sending: items go out oldest first, one at a time, each attempt's outcome
recorded; the :meth:`OutboxSending.run` loop waits for a new item, the end of a hold (undo
send) or the backoff after a failure that retrying can fix. :class:`OutboxSending` is a part of
:class:`~frontdesk.store.outbox.Outbox`, which holds the items.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from frontdesk.api.errors import ApiError
from frontdesk.api.retry import RetryPolicy, backoff

from .local import LocalStore, LocalWriteError
from .local_failures import LOCAL_FAILURES
from .outbox_failures import TRANSIENT, describe, key_refused
from .wake import sleep_or_wake

if TYPE_CHECKING:
    from .outbox import OutboxItem, OutboxState

__all__ = ["OutboxSending"]

log = logging.getLogger("frontdesk.store")


class OutboxSending:
    """Sends the outbox's items (a part of ``Outbox``)."""

    _local: LocalStore
    _send: Callable[[OutboxItem], Awaitable[Any]]
    _policy: RetryPolicy
    _clock: Callable[[], float]
    _sleep: Callable[[float], Awaitable[Any]]
    _wake: asyncio.Event
    _flushing: asyncio.Lock
    _retry_at: float | None
    _confirmed: deque[int]

    if TYPE_CHECKING:
        def _claim_next(self) -> OutboxItem | None: ...
        def _changed(self) -> None: ...
        def next_release(self) -> float | None: ...
        def release(self, item_ids: Iterable[int] | None = None) -> int: ...
        def item(self, item_id: int) -> OutboxItem | None: ...

    async def flush(self) -> int:
        """Send every pending item whose hold is over, oldest first; returns how many the
        service confirmed.

        Stops at the first failure that retrying can fix (the service is likely unreachable
        for all of them), setting the time of the next attempt for :meth:`run`. Never runs
        twice at once: a second call waits for the first and then sends what is left.
        """
        async with self._flushing:
            self._retry_at = None
            confirmed = 0
            while True:
                item = self._claim_next()
                if item is None:
                    return confirmed
                outcome = await self._attempt(item)
                if outcome == "sent":
                    confirmed += 1
                elif outcome == "retry":
                    return confirmed

    async def send_now(self, item_ids: Iterable[int]) -> list[OutboxItem]:
        """End these items' hold and send them now, with whatever else is due (quitting:
        "send now"); returns those still in the outbox after it (the service unreachable or
        refusing them: kept, and sent when the outbox runs again)."""
        ids = list(item_ids)
        self.release(ids)
        await self.flush()
        return [item for item in map(self.item, ids) if item is not None]

    async def _attempt(self, item: OutboxItem) -> Literal["sent", "retry", "failed"]:
        """Send one claimed item and record the outcome."""
        try:
            await self._send(item)
        except asyncio.CancelledError:
            # The request may or may not have arrived: resending later is safe.
            self._set_state(item.id, "pending", None)
            raise
        except ApiError as exc:
            if isinstance(exc, TRANSIENT) or key_refused(exc):
                delay = backoff(self._policy, max(item.attempts, 1))
                if exc.retry_after is not None:
                    delay = max(delay, exc.retry_after)
                self._retry_at = self._clock() + delay
                self._set_state(item.id, "pending", describe(exc))
                return "retry"
            self._set_state(item.id, "failed", describe(exc))
            return "failed"
        except Exception as exc:
            # a boundary: a surprise in one send (a bug, an answer nobody expected) must not
            # stop the sender; the item stays, failed with what went wrong, to retry or edit
            log.warning("reply %s could not be sent: %r", item.id, exc, exc_info=True)
            self._set_state(item.id, "failed", describe(exc))
            return "failed"
        self._delete(item.id)
        return "sent"

    def _set_state(self, item_id: int, state: OutboxState, error: str | None) -> None:
        """Record an attempt's outcome (the error is kept only when there is one)."""
        self._local.execute(
            "UPDATE outbox SET state = ?, last_error = coalesce(?, last_error), updated_at = ? "
            "WHERE id = ?", (state, error, time.time(), item_id))
        self._changed()

    def _delete(self, item_id: int) -> None:
        """The service confirmed the item: it leaves the outbox (remembered as sent, so an
        undo that comes too late says so)."""
        self._local.execute("DELETE FROM outbox WHERE id = ?", (item_id,))
        self._confirmed.append(item_id)
        self._changed()

    async def run(self) -> None:
        """Send for as long as the app runs: flush, then wait for a new item, the backoff, or
        (when not backing off) the end of the next hold.

        Cancel the task to stop it; an item in flight then goes back to ``pending``.
        """
        while True:
            self._wake.clear()
            try:
                await self.flush()
            except LocalWriteError as error:  # a full disk: try again later, said elsewhere
                log.warning("the outbox could not flush: %s", error)
                self._retry_at = self._clock() + self._policy.max_delay
            except Exception:  # a boundary: the sender runs as long as the app: try again later
                log.exception("the outbox could not flush")
                self._retry_at = self._clock() + self._policy.max_delay
            wait = self._next_wait()
            if wait is None:
                await self._wake.wait()
            else:
                await sleep_or_wake(self._sleep, wait, self._wake)

    def _next_wait(self) -> float | None:
        """Seconds until the next flush: the backoff's (a held item then leaves with the
        retry, never ahead of it), else the next hold's end; None: until woken."""
        if self._retry_at is not None:
            return max(0.0, self._retry_at - self._clock())
        try:
            return self.next_release()
        except LOCAL_FAILURES as error:  # a damaged store: look again after the longest wait
            log.warning("the outbox could not read its holds: %s", error)
            return self._policy.max_delay
