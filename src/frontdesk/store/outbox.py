"""The outbox: a reply is kept on disk until the service confirms it, and is never posted twice.

How "never twice" works (docs/quality.md, check 8): each reply gets an ``external_id`` (a uuid4)
when it is enqueued, stored with it, and sent with every attempt. The service refuses a second
message with an ``externalId`` the conversation already has, so when an answer is lost after
the service stored the message, the resend is refused — and the API client, finding the
message in the thread, answers with it: for this module a success like any other.

How "never lost" works (check 9): :meth:`Outbox.enqueue` writes the reply to the local
database — in the same transaction that deletes the conversation's draft — before anything is
sent. An item goes ``pending`` → ``sending`` (stored before the request) → deleted once the
service confirms it. A process killed mid-send leaves the item ``sending``; the next
:class:`Outbox` puts it back to ``pending`` and it is resent with the same ``external_id``.

Failures: a connection problem, a 5xx or a 429 puts the item back to ``pending`` and the
:meth:`Outbox.run` loop tries again after a capped, jittered backoff (or the Retry-After).
A refused key (401) is not the reply's fault: the item waits the same way, for a key that
works. A refusal that retrying cannot fix (400, 403, 404, 409, other 4xx) makes it ``failed``,
kept with the service's message so the user can edit it (:meth:`Outbox.restore_to_draft`),
retry it (:meth:`Outbox.retry`) or drop it (:meth:`Outbox.discard`).

Undo send: an item may be *held* (``send_at``, seconds since the epoch, stored with it) for a
few seconds before it may leave (``compose.undo_seconds``). While it is held, and only then —
``pending``, never attempted — :meth:`Outbox.undo` takes it out and back into its draft, in
the same transaction that deletes it, so it can never leave. The sender claims an item only
once its hold is over, in a transaction of its own; both run on the loop's thread, so undo
and the send are one before the other, never both: undo wins (nothing was sent) or raises
:class:`UndoTooLate` (being sent, sent, or tried already), and nothing else changes. A hold
is on disk: after a restart the item keeps what is left of it, and leaves once it is over.

Order: items are sent oldest first, one at a time, so each conversation's replies arrive in the
order they were written; a conversation's later reply never overtakes an earlier one that is
still waiting to be retried. A ``failed`` item does not hold back the replies after it.

Use from the asyncio loop's thread (like :class:`~frontdesk.store.local.LocalStore`).

Sending: items go out oldest first, one at a time, each attempt's outcome recorded; the
:meth:`Outbox.run` loop waits for a new item, the end of a hold (undo send) or the backoff
after a failure that retrying can fix. The items, their changes and their sending are one
class (over 400 lines): the sender claims, records and releases the very items undo and
discard change, under the same rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal, NamedTuple, cast

from frontdesk.api.errors import ApiError
from frontdesk.api.retry import RetryPolicy, backoff
from frontdesk.api.wire_time import parse_wire_time

from .draft_modes import set_draft_mode
from .local import Draft, LocalStore, LocalWriteError
from .local_failures import LOCAL_FAILURES
from .outbox_failures import TRANSIENT, describe, key_refused
from .outbox_payloads import CONTENT_TYPES, composed_attachments, note_payload, reply_payload
from .wake import sleep_or_wake

__all__ = [
    "DEFAULT_OUTBOX_POLICY",
    "Outbox",
    "OutboxBusy",
    "OutboxItem",
    "OutboxState",
    "TooLate",
    "UndoTooLate",
    "hold_left",
    "is_note",
]

log = logging.getLogger("frontdesk.store")

OutboxState = Literal["pending", "sending", "sent", "failed"]

#: Backoff of the outbox: it never gives up, so the waits grow to half a minute, not more.
DEFAULT_OUTBOX_POLICY = RetryPolicy(base_delay=1.0, max_delay=30.0)

_COLUMNS = ("id, conversation_id, external_id, payload, state, attempts, last_error, "
            "created_at, updated_at, send_at")
#: How many confirmed items the outbox remembers, to tell "already sent" from "gone".
_CONFIRMED_KEPT = 200

#: Why an item could not be undone: ``sent`` (the service confirmed it), ``sending`` (an
#: attempt is in flight), ``tried`` (an attempt was made: it may have arrived), ``gone``
#: (no longer in the outbox: taken back or discarded elsewhere).
TooLate = Literal["sent", "sending", "tried", "gone"]


class OutboxBusy(Exception):
    """The item is being sent right now; it cannot be discarded or edited until that ends."""


class UndoTooLate(Exception):
    """An item can no longer be undone; ``why`` says what became of it (:data:`TooLate`)."""

    def __init__(self, item_id: int, why: TooLate) -> None:
        super().__init__(f"item {item_id} cannot be undone: {why}")
        self.item_id = item_id
        self.why: TooLate = why


class OutboxItem(NamedTuple):
    """One reply (or internal note: ``payload["kind"] == "note"``) waiting in the outbox.

    ``payload`` holds ``content`` (the text), ``content_type`` (``"Text"``, ``"Markdown"`` or
    ``"Html"``), ``attachments`` (``[{"url": …, "prettyName": …}]``) and ``agent_id``.
    ``external_id`` is the idempotency key sent with every attempt. ``state`` is ``"pending"``
    (waiting for an attempt), ``"sending"`` (an attempt in flight) or ``"failed"`` (refused;
    ``last_error`` says why); confirmed items are deleted, so ``"sent"`` is never stored.
    ``attempts`` counts the requests made; times are seconds since the epoch. ``send_at`` is
    when a held item may leave (None: at once).
    """

    id: int
    conversation_id: int
    external_id: str
    payload: dict[str, Any]
    state: OutboxState
    attempts: int
    last_error: str | None
    created_at: float
    updated_at: float
    send_at: float | None = None


def hold_left(item: OutboxItem, now: float) -> float:
    """Seconds ``item`` is still held for undo at ``now`` (epoch seconds); 0 once it may
    leave, or once it was tried (then it is no longer the sender's alone to take back)."""
    if item.send_at is None or item.state != "pending" or item.attempts:
        return 0.0
    return max(0.0, item.send_at - now)


def is_note(payload: dict[str, Any]) -> bool:
    """Whether an outbox payload is an internal note (else a reply to the customer)."""
    return payload.get("kind") == "note"


def _check_note(payload: dict[str, Any]) -> dict[str, Any]:
    """A clean copy of a note's payload; ``ValueError`` when it could never be sent."""
    text = payload.get("content")
    agent_id = payload.get("agent_id")
    created_at = payload.get("created_at")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a note needs text")
    if not isinstance(agent_id, str) or not agent_id:
        raise ValueError("agent_id is required")
    if not isinstance(created_at, str) or not created_at:
        raise ValueError("created_at is required")
    try:
        parse_wire_time(created_at)
    except ValueError:
        raise ValueError("created_at is not the service's form of a time") from None
    return note_payload(text, agent_id=agent_id, created_at=created_at)


def _check_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """A clean copy of ``payload``; ``ValueError`` when it could never be sent."""
    if is_note(payload):
        return _check_note(payload)
    text = payload.get("content", "")
    content_type = payload.get("content_type", "Text")
    attachments = payload.get("attachments") or []
    agent_id = payload.get("agent_id")
    if not isinstance(text, str):
        raise ValueError("content must be text")
    if content_type not in CONTENT_TYPES:
        raise ValueError(f"content_type must be one of {', '.join(CONTENT_TYPES)}")
    if not isinstance(attachments, list) or not all(
        isinstance(entry, dict) and isinstance(entry.get("url"), str) for entry in attachments
    ):
        raise ValueError("attachments must be a list of {'url': …, 'prettyName': …}")
    if not isinstance(agent_id, str) or not agent_id:
        raise ValueError("agent_id is required")
    if not text and not attachments:
        raise ValueError("a reply needs text or an attachment")
    composed = payload.get("composed")
    return reply_payload(text, agent_id=agent_id, content_type=content_type,
                         attachments=[{str(k): str(v) for k, v in entry.items()}
                                      for entry in attachments],
                         composed=composed_attachments(payload)
                         if isinstance(composed, list) else None)


def _item(row: tuple[Any, ...]) -> OutboxItem:
    """An item from its row (columns in the order of ``_COLUMNS``)."""
    (item_id, conversation_id, external_id, payload, state, attempts, error, created, updated,
     send_at) = row
    try:
        decoded = json.loads(payload)
    except ValueError:
        decoded = {}
    return OutboxItem(
        id=int(item_id), conversation_id=int(conversation_id), external_id=str(external_id),
        payload=decoded if isinstance(decoded, dict) else {},
        state=cast(OutboxState, state), attempts=int(attempts),
        last_error=None if error is None else str(error),
        created_at=float(created), updated_at=float(updated),
        send_at=None if send_at is None else float(send_at),
    )


class Outbox:
    """Replies waiting to be sent, stored in ``local``, sent by ``send``.

    ``send(item)`` posts one item (normally ``client.messages.add(..., external_id=
    item.external_id)``) and raises the API's typed errors; its return value is ignored.
    ``retry`` is the backoff policy between failed attempts (only its delays are used: the
    outbox never gives up on a reply). ``clock`` (monotonic seconds) and ``sleep`` drive the
    backoff timer and can be replaced in tests; ``wall`` (seconds since the epoch) is the clock
    of holds, kept on disk. ``on_change`` is called, synchronously, after every change of the
    items, so the UI can update its outbox count.

    Items left ``sending`` by a process that died mid-request become ``pending`` again here:
    resending them is safe because the same ``external_id`` goes with them.
    """

    def __init__(
        self,
        local: LocalStore,
        send: Callable[[OutboxItem], Awaitable[Any]],
        *,
        retry: RetryPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        on_change: Callable[[], None] | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._local = local
        self._send = send
        self._policy = retry or DEFAULT_OUTBOX_POLICY
        self._clock = clock
        self._sleep = sleep
        self._on_change = on_change
        self._wall = wall
        self._confirmed: deque[int] = deque(maxlen=_CONFIRMED_KEPT)
        self._wake = asyncio.Event()
        self._flushing = asyncio.Lock()
        self._retry_at: float | None = None
        #: items a process ended while sending them are still marked so on disk
        self._interrupted = True
        try:
            self._resume_interrupted()
        except LocalWriteError as error:  # a full disk: the first flush tries again
            log.warning("the outbox could not take back interrupted sends yet: %s", error)

    def _resume_interrupted(self) -> None:
        """Put items a process ended while sending back to ``pending`` (they are resent with
        the same ``external_id``), once, before this outbox sends anything."""
        if not self._interrupted:
            return
        if self._local.execute("SELECT 1 FROM outbox WHERE state = 'sending' LIMIT 1"):
            self._local.execute(
                "UPDATE outbox SET state = 'pending', updated_at = ? WHERE state = 'sending'",
                (time.time(),),
            )
        self._interrupted = False

    # ------------------------------------------------------------------ reading

    def items(self, conversation_id: int | None = None) -> list[OutboxItem]:
        """Every unsent item (pending, sending or failed), oldest first."""
        if conversation_id is None:
            rows = self._local.execute(
                f"SELECT {_COLUMNS} FROM outbox WHERE state != 'sent' ORDER BY id")
        else:
            rows = self._local.execute(
                f"SELECT {_COLUMNS} FROM outbox WHERE state != 'sent' AND conversation_id = ? "
                "ORDER BY id", (conversation_id,))
        return [_item(row) for row in rows]

    def item(self, item_id: int) -> OutboxItem | None:
        """One item by id, or None when it is gone (sent or discarded)."""
        rows = self._local.execute(f"SELECT {_COLUMNS} FROM outbox WHERE id = ?", (item_id,))
        return _item(rows[0]) if rows else None

    @property
    def pending_count(self) -> int:
        """Items still to be sent or being sent (failed ones are not counted)."""
        rows = self._local.execute(
            "SELECT count(*) FROM outbox WHERE state IN ('pending', 'sending')")
        return int(rows[0][0])

    @property
    def failed_count(self) -> int:
        """Items the service refused, waiting for the user."""
        rows = self._local.execute("SELECT count(*) FROM outbox WHERE state = 'failed'")
        return int(rows[0][0])

    def held(self) -> list[OutboxItem]:
        """The items still held for undo (none was tried yet), oldest first."""
        now = self._wall()
        return [item for item in self.items() if hold_left(item, now) > 0]

    def now(self) -> float:
        """The hold's clock (seconds since the epoch): what :func:`hold_left` is read at."""
        return self._wall()

    def next_release(self) -> float | None:
        """Seconds until the next held item may leave, or None when none is held."""
        rows = self._local.execute(
            "SELECT min(send_at) FROM outbox WHERE state = 'pending' AND send_at IS NOT NULL")
        first = rows[0][0] if rows else None
        return None if first is None else max(0.0, float(first) - self._wall())

    def retry_in(self) -> float | None:
        """Seconds until the run loop tries again after a failure, or None when not waiting."""
        if self._retry_at is None:
            return None
        return max(0.0, self._retry_at - self._clock())

    # ------------------------------------------------------------------ changing

    def enqueue(self, conversation_id: int, payload: dict[str, Any], *,
                hold: float = 0.0) -> OutboxItem:
        """Store a reply durably (and delete the conversation's draft, atomically), then wake
        the :meth:`run` loop to send it — after ``hold`` seconds, during which :meth:`undo`
        can take it back. ``ValueError`` when the payload could never be sent.
        """
        clean = _check_payload(payload)
        now = time.time()
        send_at = self._wall() + hold if hold > 0 else None
        external_id = uuid.uuid4().hex
        with self._local.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO outbox (conversation_id, external_id, payload, state, attempts, "
                "created_at, updated_at, send_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)",
                (conversation_id, external_id,
                 json.dumps(clean, separators=(",", ":"), ensure_ascii=False), now, now,
                 send_at),
            )
            self._local.delete_draft(conversation_id)
        item = OutboxItem(int(cursor.lastrowid or 0), conversation_id, external_id, clean,
                          "pending", 0, None, now, now, send_at)
        self._changed()
        self._wake.set()
        return item

    def retry(self, item_id: int) -> OutboxItem | None:
        """Send a failed (or backing-off, or held) item again now; None when the item is
        gone."""
        self._local.execute(
            "UPDATE outbox SET state = 'pending', send_at = NULL, updated_at = ? "
            "WHERE id = ? AND state IN ('pending', 'failed')", (time.time(), item_id))
        item = self.item(item_id)
        if item is not None:
            self._retry_at = None
            self._changed()
            self._wake.set()
        return item

    def release(self, item_ids: Iterable[int] | None = None) -> int:
        """End the hold of these items (all held ones when None): they leave now. Returns
        how many were held."""
        ids = None if item_ids is None else list(item_ids)
        if ids == []:
            return 0
        where = "" if ids is None else f" AND id IN ({', '.join('?' * len(ids))})"
        with self._local.transaction() as conn:
            cursor = conn.execute(
                "UPDATE outbox SET send_at = NULL WHERE state = 'pending' "
                f"AND send_at IS NOT NULL{where}", tuple(ids or ()))
        released = max(0, cursor.rowcount)
        if released:
            self._changed()
            self._wake.set()
        return released

    def undo(self, item_id: int) -> Draft | None:
        """Take a held item back out of the outbox into its conversation's draft, in one
        transaction: it can never leave. The draft as :meth:`restore_to_draft` makes it.

        Raises :class:`UndoTooLate` when the item is no longer only ours to take back: being
        sent, sent, tried already (an attempt may have reached the service), or gone.
        """
        with self._local.transaction():
            item = self.item(item_id)
            why = self._too_late(item_id, item)
            if why is not None or item is None:
                raise UndoTooLate(item_id, why or "gone")
            self._local.execute("DELETE FROM outbox WHERE id = ?", (item_id,))
            draft = self._put_back(item)
        self._changed()
        return draft

    def too_late(self, item_id: int) -> TooLate | None:
        """Why :meth:`undo` would refuse this item now, or None when it would take it back.
        (The outbox's sender runs on the same thread: a caller that asks, then undoes, without
        awaiting in between, gets what it was told.)"""
        return self._too_late(item_id, self.item(item_id))

    def _too_late(self, item_id: int, item: OutboxItem | None) -> TooLate | None:
        if item is None:
            return "sent" if item_id in self._confirmed else "gone"
        if item.state == "sending":
            return "sending"
        if item.attempts or item.state != "pending":
            return "tried"
        return None

    def discard(self, item_id: int) -> dict[str, Any] | None:
        """Drop an item and return its payload (so the UI can put it back in the composer).

        None when the item is gone; :class:`OutboxBusy` while it is being sent. An item
        discarded after an attempt whose answer was lost may still have reached the service.
        """
        with self._local.transaction():
            item = self._take(item_id)
        if item is None:
            return None
        self._changed()
        return item.payload

    def restore_to_draft(self, item_id: int) -> Draft | None:
        """Move an item back into its conversation's draft, in one transaction.

        A draft already being written there is kept after the restored text (separated by a
        blank line), with both sets of attachments. None when the item is gone;
        :class:`OutboxBusy` while it is being sent.
        """
        with self._local.transaction():
            item = self._take(item_id)
            if item is None:
                return None
            draft = self._put_back(item)
        self._changed()
        return draft

    def _put_back(self, item: OutboxItem) -> Draft | None:
        """Write ``item`` as its conversation's draft, as it was written (the composer's
        attachments, a note as a note), before a draft begun since (inside the caller's
        transaction, the item already deleted)."""
        text = str(item.payload.get("content") or "")
        attachments = composed_attachments(item.payload)
        current = self._local.draft(item.conversation_id)
        if current is not None:
            text = f"{text}\n\n{current.text}" if text and current.text else \
                text or current.text
            attachments += current.attachments
        self._local.save_draft(item.conversation_id, text, attachments)
        if is_note(item.payload):  # it comes back as a note, never as a reply
            with contextlib.suppress(*LOCAL_FAILURES):  # the text is back; only its mode is not
                set_draft_mode(self._local, item.conversation_id, "note")
        return self._local.draft(item.conversation_id)

    def _take(self, item_id: int) -> OutboxItem | None:
        """Delete an item that is not in flight (inside the caller's transaction)."""
        item = self.item(item_id)
        if item is None:
            return None
        if item.state == "sending":
            raise OutboxBusy(f"reply {item_id} is being sent")
        self._local.execute("DELETE FROM outbox WHERE id = ?", (item_id,))
        return item

    # ------------------------------------------------------------------ sending

    def _claim_next(self) -> OutboxItem | None:
        """Mark the next item due ``sending`` (counting the attempt) and return it.

        The next item is the oldest pending one whose hold is over and that is its
        conversation's oldest unsent, unfailed item, so replies go out in order.
        """
        with self._local.transaction() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM outbox AS o WHERE state = 'pending' "
                "AND (send_at IS NULL OR send_at <= ?) AND NOT EXISTS ("
                "SELECT 1 FROM outbox AS e WHERE e.conversation_id = o.conversation_id "
                "AND e.id < o.id AND e.state IN ('pending', 'sending')) ORDER BY id LIMIT 1",
                (self._wall(),),
            ).fetchone()
            if row is None:
                return None
            now = time.time()
            conn.execute("UPDATE outbox SET state = 'sending', attempts = attempts + 1, "
                         "updated_at = ? WHERE id = ?", (now, row[0]))
        item = _item(row)
        claimed = item._replace(state="sending", attempts=item.attempts + 1, updated_at=now)
        self._changed()
        return claimed

    def _changed(self) -> None:
        """Tell the UI; a failing callback is logged, never allowed to break the outbox."""
        if self._on_change is None:
            return
        try:
            self._on_change()
        except Exception:  # a boundary: a listener's bug must not break the outbox (logged)
            log.exception("outbox on_change callback failed")

    # ------------------------------------------------------------------ sending

    async def flush(self) -> int:
        """Send every pending item whose hold is over, oldest first; returns how many the
        service confirmed.

        Stops at the first failure that retrying can fix (the service is likely unreachable
        for all of them), setting the time of the next attempt for :meth:`run`. Never runs
        twice at once: a second call waits for the first and then sends what is left.
        """
        async with self._flushing:
            self._retry_at = None
            self._resume_interrupted()
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
