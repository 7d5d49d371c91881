"""The inbox's compact row: what a list line, a view and a filter need of a conversation.

The inbox may hold a hundred thousand conversations. A full record (a pydantic model with its
nested assignment, queue, link, custom attributes…) costs a few kilobytes; a row keeps only
the fields the list paints and the views test, in a tuple, with the repeated strings
(states, channels, agent and queue ids) interned — about a tenth of the memory. Full records
are read when one conversation is needed (:class:`frontdesk.store.inbox.Records`).

A row is built from a record (:meth:`InboxRow.of`), from the wire JSON of one
(:meth:`InboxRow.from_wire`), or from the compact JSON array the local store keeps beside
each record (:meth:`InboxRow.compact`, :meth:`InboxRow.from_compact`) — how the first frame
is painted without loading the models or the HTTP stack, a few microseconds a row.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api.wire_time import parse_wire_time

if TYPE_CHECKING:
    from ..api.models import Conversation

__all__ = ["InboxRow", "digest_of", "mark_of", "micros_of", "rows_from_compact"]

_intern = sys.intern


#: BLAKE2b, loaded by the first digest (the first frame takes none)
_blake2b: Callable[..., Any] | None = None


def _load_blake2b() -> Callable[..., Any]:
    """hashlib's own BLAKE2 (``hashlib.blake2b`` is this), without importing hashlib, which
    loads OpenSSL; its extension is loaded here, on the first digest, not at start-up."""
    global _blake2b
    from _blake2 import blake2b

    _blake2b = blake2b
    return blake2b


def digest_of(wire: str) -> int:
    """A fingerprint of a record's wire JSON, the same in every process (it is stored)."""
    hasher = _blake2b or _load_blake2b()
    return int.from_bytes(hasher(wire.encode(), digest_size=8).digest(), "big")


#: the moment a row's time counts from, and its unit
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
#: the fingerprint's bits in a row's mark
_DIGEST_BITS = 64
_DIGEST_MASK = (1 << _DIGEST_BITS) - 1


def mark_of(when: datetime, digest: int) -> int:
    """A row's time and fingerprint as one int: the microseconds since the epoch above the
    fingerprint's 64 bits (a naive time is taken as UTC)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (((when - _EPOCH) // _MICROSECOND) << _DIGEST_BITS) + (digest & _DIGEST_MASK)


def micros_of(when: datetime) -> int:
    """A moment as microseconds since the epoch: what :attr:`InboxRow.micros` counts in."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (when - _EPOCH) // _MICROSECOND


class _Fields(NamedTuple):
    id: int
    state: str | None
    channel: str
    requester_id: str
    subject: str | None
    queue_id: str | None
    agent_id: str | None
    #: the row's time and fingerprint in one int (:func:`mark_of`): one object of 40 bytes
    #: where a ``datetime`` and an ``int`` were 88, with a hundred thousand rows 5 MB
    mark: int


class InboxRow(_Fields):
    """One conversation as the inbox shows it (a tuple: cheap to make, small, immutable).

    Made as ``InboxRow(id, state, channel, requester_id, subject, queue_id, agent_id, when,
    digest=0)``: ``when`` is the latest moment the record tells of (created, state change,
    assignment, queued), ``digest`` a fingerprint of the whole record (a fetched record
    equal to the kept one changes nothing). Both are kept in :attr:`mark`."""

    __slots__ = ()

    def __new__(cls, id: int, state: str | None, channel: str, requester_id: str,
                subject: str | None, queue_id: str | None, agent_id: str | None,
                when: datetime, digest: int = 0) -> InboxRow:
        return tuple.__new__(cls, (id, state, channel, requester_id, subject, queue_id,
                                   agent_id, mark_of(when, digest)))

    @property
    def when(self) -> datetime:
        """The latest moment the record tells of, in UTC."""
        return _EPOCH + timedelta(microseconds=self[7] >> _DIGEST_BITS)

    @property
    def micros(self) -> int:
        """:attr:`when` as microseconds since the epoch (what views sort by)."""
        mark: int = self[7]
        return mark >> _DIGEST_BITS

    @property
    def digest(self) -> int:
        """The fingerprint of the whole record (0: none taken)."""
        mark: int = self[7]
        return mark & _DIGEST_MASK

    def __getnewargs__(self) -> tuple[Any, ...]:
        """What :meth:`__new__` makes this row again from (a copy, a pickle)."""
        return (*self[:7], self.when, self.digest)

    def _replace(self, /, **changes: Any) -> InboxRow:
        """A copy with some fields changed (``when`` and ``digest`` among them)."""
        when = changes.pop("when", None)
        digest = changes.pop("digest", None)
        if when is not None or digest is not None:
            changes["mark"] = mark_of(self.when if when is None else when,
                                      self.digest if digest is None else digest)
        return tuple.__new__(InboxRow, (changes.pop(name, value)
                                        for name, value in zip(self._fields, self, strict=True)))

    @classmethod
    def of(cls, conversation: Conversation, digest: int = 0) -> InboxRow:
        """The row of a full record."""
        assignment, queue = conversation.assignment, conversation.queue
        latest = conversation.created_at
        for moment in (conversation.state_updated_at,
                       assignment.assigned_at if assignment is not None else None,
                       queue.queued_at if queue is not None else None):
            if moment is not None and moment > latest:
                latest = moment
        return cls(
            id=conversation.id,
            state=_maybe(conversation.state),
            channel=_intern(str(conversation.channel)),
            requester_id=_intern(conversation.requester_id),
            subject=conversation.subject,
            queue_id=_maybe(queue.id if queue is not None else None),
            agent_id=_maybe(assignment.agent_id if assignment is not None else None),
            when=latest,
            digest=digest,
        )

    @classmethod
    def from_wire(cls, wire: dict[str, Any], digest: int = 0) -> InboxRow:
        """The row of a record's wire JSON (camelCase, as the service and the local store
        write it). Raises ``KeyError``/``TypeError``/``ValueError`` on a malformed record."""
        assignment = wire.get("assignment") or {}
        queue = wire.get("queue") or {}
        latest = parse_wire_time(str(wire["createdAt"]))
        for raw in (wire.get("stateUpdatedAt"), assignment.get("assignedAt"),
                    queue.get("queuedAt")):
            if raw:
                moment = parse_wire_time(str(raw))
                if moment > latest:
                    latest = moment
        subject = wire.get("subject")
        return cls(
            id=int(wire["id"]),
            state=_maybe(wire.get("state")),
            channel=_intern(str(wire["channel"])),
            requester_id=_intern(str(wire["requesterId"])),
            subject=str(subject) if subject is not None else None,
            queue_id=_maybe(queue.get("id")),
            agent_id=_maybe(assignment.get("agentId")),
            when=latest,
            digest=digest,
        )

    def compact(self) -> str:
        """The row as a JSON array, for the local store."""
        return json.dumps([self.id, self.state, self.channel, self.requester_id, self.subject,
                           self.queue_id, self.agent_id, self.when.isoformat(), self.digest],
                          separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_compact(cls, text: str) -> InboxRow:
        """The row :meth:`compact` wrote. Raises ``ValueError``/``TypeError``/``IndexError``
        on anything else."""
        (cid, state, channel, requester, subject, queue, agent, when,
         digest) = json.loads(text)
        moment = datetime.fromisoformat(when)
        if moment.tzinfo is None:
            raise ValueError("a row's time has no zone")
        return cls(int(cid), _maybe(state), _intern(str(channel)), _intern(str(requester)),
                   str(subject) if subject is not None else None, _maybe(queue),
                   _maybe(agent), moment, int(digest))


def rows_from_compact(texts: list[str]) -> list[InboxRow | None]:
    """:meth:`InboxRow.from_compact` of many rows at once (None where one does not parse):
    the arrays are read by one JSON parse, several times faster than one parse per row —
    what the first frame waits for with a large working set."""
    try:
        arrays = json.loads("[" + ",".join(texts) + "]")
        if not isinstance(arrays, list) or len(arrays) != len(texts):
            raise ValueError("not one array per row")
    except ValueError:  # one of them is not JSON: each on its own
        return [_one_from_compact(text) for text in texts]
    rows: list[InboxRow | None] = []
    append = rows.append
    fromisoformat = datetime.fromisoformat
    make = tuple.__new__
    for values in arrays:
        try:
            (cid, state, channel, requester, subject, queue, agent, when, digest) = values
            moment = fromisoformat(when)
            if moment.tzinfo is None:
                raise ValueError("a row's time has no zone")
            if type(cid) is int and type(digest) is int and type(channel) is str \
                    and type(requester) is str and (subject is None or type(subject) is str) \
                    and (state is None or type(state) is str) \
                    and (queue is None or type(queue) is str) \
                    and (agent is None or type(agent) is str):
                # the types compact() writes: the row as below, without a call per field
                # (most of the time of a large working set's rows)
                append(make(InboxRow, (
                    cid, state if state is None else _intern(state), _intern(channel),
                    _intern(requester), subject, queue if queue is None else _intern(queue),
                    agent if agent is None else _intern(agent), mark_of(moment, digest))))
                continue
            append(InboxRow(int(cid), _maybe(state), _intern(str(channel)),
                            _intern(str(requester)),
                            str(subject) if subject is not None else None, _maybe(queue),
                            _maybe(agent), moment, int(digest)))
        except (ValueError, TypeError, IndexError):
            append(None)
    return rows


def _one_from_compact(text: str) -> InboxRow | None:
    try:
        return InboxRow.from_compact(text)
    except (ValueError, TypeError, IndexError):
        return None


def _maybe(value: Any) -> str | None:
    return _intern(str(value)) if value is not None else None
