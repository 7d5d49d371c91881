"""The inbox's compact row: what a list line, a view and a filter need of a conversation.

The inbox may hold a hundred thousand conversations. A full record (a pydantic model with its
nested assignment, queue, link, custom attributes…) costs a few kilobytes; a row keeps only
the fields the list paints and the views test, in a tuple of five, with the repeated strings
interned — about a tenth of the memory. The state, channel, queue and agent of a row are one
tuple shared by every row alike (:attr:`InboxRow.kind`: a few hundred of them for a hundred
thousand rows), so a row is 80 bytes where a tuple of its eight fields was 104; requesters'
ids are interned in a table of this module's (many distinct ones would grow the interpreter's
own table of interned names, which keeps its size). Full records are read when one
conversation is needed (:class:`frontdesk.store.inbox.Records`). The inbox keeps its rows by
column (:class:`frontdesk.store.inbox_rows.RowTable`) and makes a row when one is read.

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

__all__ = ["DIGEST_BITS", "InboxRow", "Kind", "digest_of", "mark_of", "micros_of",
           "rows_from_compact"]

_intern = sys.intern

#: a row's state, channel, queue id and agent id: one tuple shared by every row alike
Kind = tuple[str | None, str, str | None, str | None]
#: the kinds made so far, each kept once (a few hundred: the states, channels, queues and
#: agents seen together)
_kinds: dict[Kind, Kind] = {}
#: requesters' ids, each kept once (a customer's rows share one string)
_requesters: dict[str, str] = {}


def _kind(state: str | None, channel: str, queue_id: str | None, agent_id: str | None
          ) -> Kind:
    """The shared tuple of these four fields (its strings interned when it is new)."""
    key = (state, channel, queue_id, agent_id)
    found = _kinds.get(key)
    if found is None:
        found = _kinds[key] = (None if state is None else _intern(state), _intern(channel),
                               None if queue_id is None else _intern(queue_id),
                               None if agent_id is None else _intern(agent_id))
    return found


def _requester(requester_id: str) -> str:
    """The shared string of a requester's id."""
    return _requesters.setdefault(requester_id, requester_id)


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
#: the fingerprint's bits in a row's mark (its time is above them)
DIGEST_BITS = 64
_DIGEST_BITS = DIGEST_BITS
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
    #: state, channel, queue id and agent id, shared by every row alike (:func:`_kind`)
    kind: Kind
    requester_id: str
    subject: str | None
    #: the row's time and fingerprint in one int (:func:`mark_of`): one object of 40 bytes
    #: where a ``datetime`` and an ``int`` were 88, with a hundred thousand rows 5 MB
    mark: int


#: the fields a row is made of (and :meth:`InboxRow._replace` changes), in order
_MADE_OF = ("id", "state", "channel", "requester_id", "subject", "queue_id", "agent_id",
            "when", "digest")


class InboxRow(_Fields):
    """One conversation as the inbox shows it (a tuple: cheap to make, small, immutable).

    Made as ``InboxRow(id, state, channel, requester_id, subject, queue_id, agent_id, when,
    digest=0)``: ``when`` is the latest moment the record tells of (created, state change,
    assignment, queued), ``digest`` a fingerprint of the whole record (a fetched record
    equal to the kept one changes nothing). Both are kept in :attr:`mark`; ``state``,
    ``channel``, ``queue_id`` and ``agent_id`` in :attr:`kind`."""

    __slots__ = ()

    def __new__(cls, id: int, state: str | None, channel: str, requester_id: str,
                subject: str | None, queue_id: str | None, agent_id: str | None,
                when: datetime, digest: int = 0) -> InboxRow:
        return tuple.__new__(cls, (id, _kind(state, channel, queue_id, agent_id),
                                   _requester(requester_id), subject, mark_of(when, digest)))

    @property
    def state(self) -> str | None:
        """The conversation's state (None: the record did not say)."""
        kind: Kind = self[1]
        return kind[0]

    @property
    def channel(self) -> str:
        """The channel the conversation came through."""
        kind: Kind = self[1]
        return kind[1]

    @property
    def queue_id(self) -> str | None:
        """The queue it waits or waited in (None: none)."""
        kind: Kind = self[1]
        return kind[2]

    @property
    def agent_id(self) -> str | None:
        """The agent it is assigned to (None: nobody)."""
        kind: Kind = self[1]
        return kind[3]

    @property
    def when(self) -> datetime:
        """The latest moment the record tells of, in UTC."""
        return _EPOCH + timedelta(microseconds=self[4] >> _DIGEST_BITS)

    @property
    def micros(self) -> int:
        """:attr:`when` as microseconds since the epoch (what views sort by)."""
        mark: int = self[4]
        return mark >> _DIGEST_BITS

    @property
    def digest(self) -> int:
        """The fingerprint of the whole record (0: none taken)."""
        mark: int = self[4]
        return mark & _DIGEST_MASK

    def __getnewargs__(self) -> tuple[Any, ...]:
        """What :meth:`__new__` makes this row again from (a copy, a pickle)."""
        return tuple(getattr(self, name) for name in _MADE_OF)

    def _replace(self, /, **changes: Any) -> InboxRow:
        """A copy with some fields changed (any of those it is made of)."""
        unknown = changes.keys() - set(_MADE_OF)
        if unknown:
            raise ValueError(f"not a field of a row: {sorted(unknown)}")
        return InboxRow(*(changes[name] if name in changes else getattr(self, name)
                          for name in _MADE_OF))

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
            requester_id=conversation.requester_id,
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
            requester_id=str(wire["requesterId"]),
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
        return cls(int(cid), _maybe(state), _intern(str(channel)), str(requester),
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
    kinds, requesters = _kinds, _requesters
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
                # a kind seen before is found by its strings as read (interned once, when
                # it is new: _kind); a requester's id likewise
                append(make(InboxRow, (cid, kinds.get((state, channel, queue, agent))
                                       or _kind(state, channel, queue, agent),
                                       requesters.setdefault(requester, requester),
                                       subject, mark_of(moment, digest))))
                continue
            append(InboxRow(int(cid), _maybe(state), _intern(str(channel)), str(requester),
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
