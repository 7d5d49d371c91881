"""Alerts when work arrives: what in the inbox's changes deserves the agent's attention.

Three kinds, each switchable (``[alerts]`` in config.toml):

- **assigned** — a conversation newly assigned to me (by a colleague, a rule or a transfer);
- **reply** — a customer wrote in one of my conversations (the inbox learnt that the last
  message is the customer's, newer than the last one it knew of);
- **queue** — a conversation newly waiting in one of my queues, while I am available.

Never for what the console did itself (a claim, a new conversation, a reply: those pass
through :meth:`~frontdesk.store.inbox.InboxStore.replace` or a "created" record, which the
inbox notes in ``own_changes``), never for the thread being read, and never for what the
first fill found: the watch starts from the inbox as it stands once filled, and only what
changes after that alerts. It reads the inbox's change log (no request of its own).

:class:`Coalescer` then keeps the console from crying wolf: one alert per window (5 s by
default) however many arrive, "3 new conversations" rather than three toasts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from .inbox import CUSTOMER, OPEN_STATES
from .rows import InboxRow, Kind

if TYPE_CHECKING:
    from .inbox import InboxStore

__all__ = ["Alert", "AlertKind", "AlertWatch", "Coalescer", "Summary"]


class AlertKind(StrEnum):
    """What arrived."""

    ASSIGNED = "assigned"
    REPLY = "reply"
    QUEUE = "queue"


@dataclass(frozen=True, slots=True)
class Alert:
    """One arrival: its kind and the conversation (the console names it)."""

    kind: AlertKind
    conversation_id: int


class _Seen(NamedTuple):
    """What the watch knew of a conversation, made from a row and its turn when compared."""

    agent_id: str | None
    queue_id: str | None
    open: bool
    #: when the customer last wrote, as far as the inbox knows (None: not known)
    customer_at: datetime | None


def _seen_of(row: InboxRow, turn: tuple[str, datetime] | None) -> _Seen:
    customer_at = turn[1] if turn is not None and turn[0] == CUSTOMER else None
    return _Seen(row.agent_id, row.queue_id, row.state in OPEN_STATES, customer_at)


def _kept(row: InboxRow, me: str) -> bool:
    """Whether the watch keeps what it saw of a conversation: open, and mine or nobody's.
    Any other (not open, or someone else's) alerts nothing now, and having seen it so
    counts as never having seen it (:func:`_arrival` answers the same for both)."""
    return row.state in OPEN_STATES and (row.agent_id is None or row.agent_id == me)


def _kind_kept(kind: Kind, me: str) -> bool:
    """:func:`_kept` of the rows of a kind (state, channel, queue, agent)."""
    return kind[0] in OPEN_STATES and (kind[3] is None or kind[3] == me)


@dataclass(slots=True)
class AlertWatch:
    """Turns the inbox's changes into alerts for one agent."""

    inbox: InboxStore
    #: the inbox's version read last (None until the first fill was taken as the start)
    _version: int | None = None
    #: the agent the rows below were kept for
    _me: str | None = None
    #: the inbox's rows as last read, by conversation, those :func:`_kept` only: an equal
    #: row again means nothing changed (a change of "anything" is then a pass of tuple
    #: comparisons over the rows kept, not of reading). The rows themselves, not a record
    #: made of each, and not every row: with a hundred thousand conversations a record of
    #: each was 15 MB.
    _rows: dict[int, InboxRow] = field(default_factory=dict)
    #: the turns (who wrote last, when) as last read, of those rows, where the inbox knew one
    _turns: dict[int, tuple[str, datetime]] = field(default_factory=dict)

    def check(self, *, me: str | None, queues: Iterable[str], available: bool,
              reading: int | None) -> list[Alert]:
        """What arrived since the last check: ``me`` is my agent id, ``queues`` mine,
        ``available`` whether I am working (queue alerts only then), ``reading`` the
        conversation whose thread is on screen (it never alerts)."""
        inbox = self.inbox
        if not inbox.filled or not me:
            return []
        if self._version is None or me != self._me:
            # the start (or another agent's): everything known now is no news
            self._version = inbox.version
            self._me = me
            table = inbox.rows
            self._rows = {row.id: row for row in table.view(
                table.slots(lambda kind: _kind_kept(kind, me)))}
            turns = inbox.turns
            self._turns = {cid: turns[cid] for cid in self._rows if cid in turns}
            return []
        changed = inbox.changes_since(self._version)
        since = self._version
        self._version = inbox.version
        ids: Iterable[int] = changed if changed is not None else self._kept_or_was(me)
        mine_queues = frozenset(queues)
        alerts: list[Alert] = []
        for conversation_id in list(ids):
            row = inbox.rows.get(conversation_id)
            if row is None or not _kept(row, me):
                self._rows.pop(conversation_id, None)
                self._turns.pop(conversation_id, None)
                continue
            turn = inbox.turns.get(conversation_id)
            old_row = self._rows.get(conversation_id)
            old_turn = self._turns.get(conversation_id)
            if old_row == row and old_turn is turn:
                continue
            self._rows[conversation_id] = row
            if turn is None:
                self._turns.pop(conversation_id, None)
            else:
                self._turns[conversation_id] = turn
            if conversation_id == reading or inbox.own_changes.get(conversation_id, -1) > since:
                continue
            before = None if old_row is None else _seen_of(old_row, old_turn)
            kind = _arrival(before, _seen_of(row, turn), me, mine_queues, available)
            if kind is not None:
                alerts.append(Alert(kind, conversation_id))
        return alerts

    def _kept_or_was(self, me: str) -> list[int]:
        """The conversations a change of "anything" may concern: those whose rows can alert
        now (found by their kinds, no row made each), in the inbox's order, then those kept
        before that no longer can."""
        table = self.inbox.rows
        now = table.view(table.slots(lambda kind: _kind_kept(kind, me))).ids()
        known = set(now)
        return [*now, *(cid for cid in self._rows if cid not in known)]


def _arrival(before: _Seen | None, now: _Seen, me: str, queues: frozenset[str],
             available: bool) -> AlertKind | None:
    """The kind of arrival from ``before`` to ``now`` (None: nothing to tell)."""
    if not now.open:
        return None
    if now.agent_id == me:
        if before is None or before.agent_id != me or not before.open:
            return AlertKind.ASSIGNED
        if now.customer_at is not None and (before.customer_at is None
                                            or now.customer_at > before.customer_at):
            return AlertKind.REPLY
        return None
    if (available and now.agent_id is None and now.queue_id in queues
            and (before is None or before.queue_id != now.queue_id or not before.open
                 or before.agent_id is not None)):
        return AlertKind.QUEUE
    return None


class Summary(NamedTuple):
    """What one alert says: the arrivals it stands for, newest last."""

    alerts: tuple[Alert, ...]

    def counts(self) -> dict[AlertKind, int]:
        """How many of each kind."""
        counts: dict[AlertKind, int] = {}
        for alert in self.alerts:
            counts[alert.kind] = counts.get(alert.kind, 0) + 1
        return counts


class Coalescer:
    """At most one alert per ``every`` seconds: arrivals within the window wait and are
    told together when it ends (:meth:`due` says when)."""

    def __init__(self, every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self._clock = clock
        self._waiting: dict[int, Alert] = {}
        self._last: float | None = None

    def add(self, alerts: Iterable[Alert]) -> None:
        """Arrivals to tell (one per conversation: the latest kind wins)."""
        for alert in alerts:
            self._waiting.pop(alert.conversation_id, None)
            self._waiting[alert.conversation_id] = alert

    def due(self) -> float | None:
        """Seconds until the waiting arrivals may be told (0: now; None: nothing waits)."""
        if not self._waiting:
            return None
        if self._last is None:
            return 0.0
        return max(0.0, self._last + self.every - self._clock())

    def take(self) -> Summary | None:
        """The waiting arrivals as one alert, if the window allows it now."""
        if self.due() != 0.0:
            return None
        self._last = self._clock()
        summary = Summary(tuple(self._waiting.values()))
        self._waiting.clear()
        return summary
