"""Reads shared by the whole team: one answer from the service for every member asking the
same thing, while it is current.

A read (a GET, or a POST that only reads: a search, an analytics query) is known by its
interface, method, raw path, query, body and the ``Accept-Encoding`` it asks with. While one
member's read of it is on its way to the service, the others asking the same wait for that
answer instead of sending their own (coalesced); once answered with 200, the answer is kept
and served to the next member asking, as long as it is **current**:

* nothing it touches has changed since: a write through the gateway, or a change the team's
  feed heard of (:mod:`~frontdesk.gateway.change_feed`), drops what it touches
  (:meth:`SharedReads.wrote`, :meth:`SharedReads.changed`);
* and it is younger than its lifetime, which depends on what it is (:func:`lifetime_of`):
  - what changes by the minute without a write — presence, queue availability and
    positions, business hours' status, analytics, delivery logs — lasts :data:`FRESH`
    seconds;
  - a conversation, its parts, and the lists and searches of conversations last
    :data:`LASTING` seconds while the feed hears the service (it drops them the moment they
    change), and :data:`FRESH` seconds while it does not;
  - the rest — agents, end users, tags, teams, queues, the help centre, the organisation's
    settings — changes only when someone writes it: :data:`LASTING` seconds.

  A change no feed tells of (a tag set in another tool, say, which the service does not count
  as activity) is thus shown at most :data:`LASTING` seconds late; one made through the
  gateway never is. A conversation that changed may change again within :data:`HOT`
  seconds without the feed telling (its searches overlap): an answer of it read in that time,
  and a list or search read within that time of any change, lasts :data:`FRESH` seconds.

Who may read what is decided before (the guard): every member allowed a read gets the same
answer from the service, so one answer serves them all. An answer read while something it
touches changed is passed to those who asked but not kept.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

import httpx2

from .routing import Route

__all__ = ["FRESH", "LASTING", "Answer", "ReadKey", "SharedReads", "lifetime_of", "read_key"]

#: Seconds a volatile answer stays current, or one the feed watches while it is not hearing.
FRESH = 3.0
#: Seconds an answer stays current when only a write changes it, or the feed watches it.
LASTING = 600.0
#: Answers larger than this are passed on, never kept.
MAX_ANSWER_BYTES = 4 * 1024 * 1024
#: All answers kept, in bytes; the least recently used go first.
MAX_KEPT_BYTES = 96 * 1024 * 1024

#: Seconds after a change during which a conversation may change again untold (the feed's
#: searches overlap by 10 s and tell a conversation once while they keep finding it, a look
#: every 2 s): its answers read meanwhile, and the lists and searches, last :data:`FRESH`
#: seconds.
HOT = 15.0
#: The families of paths the change feed watches (``/v1/<family>/…``).
FED_FAMILIES = frozenset({"conversations", "search"})
#: The reads whose answers change without anybody writing them: kept :data:`FRESH` seconds.
VOLATILE = frozenset({
    "agents.list_presence", "agents.presence", "teams.presence", "queues.availability",
    "queues.conversation_position", "business_hours.status", "business_hours.upcoming",
    "endusers.conversations", "anonymization.get_request", "webhooks.delivery_status",
    "webhooks.delivery_log", "analytics.metric_data", "analytics.records",
    "analytics.list_records", "analytics.get_record", "analytics.filter_values",
    "integrations.list_endpoints", "integrations.get_endpoint"})
#: Response headers never kept (the connection's own, and the answer's length, which the
#: gateway's server sets again).
_DROPPED = frozenset({"connection", "keep-alive", "transfer-encoding", "te", "trailer",
                      "upgrade", "server", "date", "set-cookie", "content-length"})

ReadKey = tuple[str, str, str, bytes, str, bytes]


def read_key(interface: str, method: str, raw_path: str, query: bytes, accept_encoding: str,
             body: bytes) -> ReadKey:
    """What makes two reads the same read (the body by its digest)."""
    digest = hashlib.blake2b(body, digest_size=16).digest() if body else b""
    return (interface, method, raw_path, query, accept_encoding, digest)


@dataclass(frozen=True, slots=True)
class Answer:
    """A service's answer held whole: what every member asking the same is given."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    shared: bool = False
    """Whether it came from another member's read (kept or coalesced), not this member's."""


@dataclass(slots=True)
class _Kept:
    answer: Answer
    family: str
    conversation: str | None
    volatile: bool
    at: float
    size: int = field(default=0)


def family_of(route: Route) -> str:
    """``conversations`` for ``/v1/conversations/…``: what a change drops together."""
    parts = route.operation.path.strip("/").split("/")
    return parts[1] if len(parts) > 1 else parts[0]


def lifetime_of(volatile: bool, family: str, fed: bool) -> float:
    """Seconds an answer stays current: :data:`FRESH` for a volatile one, and for one the
    feed watches while it is not hearing; :data:`LASTING` otherwise."""
    if volatile or (family in FED_FAMILIES and not fed):
        return FRESH
    return LASTING


class SharedReads:
    """The gateway's kept answers and the reads on their way, with what they touch."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 fed: Callable[[], bool] = lambda: False) -> None:
        self._clock = clock
        self._fed = fed
        self._kept: OrderedDict[ReadKey, _Kept] = OrderedDict()
        self._kept_bytes = 0
        self._flying: dict[ReadKey, asyncio.Future[Answer]] = {}
        self._epoch = 0
        self._hot_until: dict[str, float] = {}
        self._hot_horizon = -1.0
        self.upstream_reads = 0
        """Reads sent to the service (benchmarks and tests count them)."""
        self.served_kept = 0
        self.served_coalesced = 0

    # ------------------------------------------------------------------ reading

    async def read(self, key: ReadKey, route: Route,
                   fetch: Callable[[], Awaitable[httpx2.Response]]) -> Answer:
        """The answer to ``key``: kept and current, or the one on its way, or fetched now
        (``fetch`` sends the read upstream; its errors reach every member waiting)."""
        kept = self._kept.get(key)
        if kept is not None:
            if self._current(kept):
                self._kept.move_to_end(key)
                self.served_kept += 1
                return _shared(kept.answer)
            self._drop(key)
        flying = self._flying.get(key)
        if flying is not None:
            self.served_coalesced += 1
            try:
                return _shared(await asyncio.shield(flying))
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not flying.cancelled() or (task is not None and task.cancelling()):
                    raise
                return await self.read(key, route, fetch)  # its asker left: ask anew
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._flying[key] = future
        epoch = self._epoch
        try:
            answer = await self._fetch(fetch)
        except Exception as error:
            future.set_exception(error)
            future.exception()  # retrieved: a read nobody else waited on is no warning
            raise
        except BaseException:  # this asker left (cancelled): those waiting ask anew
            future.cancel()
            raise
        finally:
            if self._flying.get(key) is future:
                del self._flying[key]
        future.set_result(answer)
        if answer.status == 200 and epoch == self._epoch \
                and len(answer.body) <= MAX_ANSWER_BYTES:
            self._keep(key, route, answer)
        return answer

    async def _fetch(self, fetch: Callable[[], Awaitable[httpx2.Response]]) -> Answer:
        self.upstream_reads += 1
        response = await fetch()
        try:  # as sent: the headers kept say how it is encoded
            body = b"".join([chunk async for chunk in response.aiter_raw()])
        finally:
            await response.aclose()
        headers = tuple((name, value) for name, value in response.headers.items()
                        if name.lower() not in _DROPPED)
        return Answer(response.status_code, headers, body)

    def _current(self, kept: _Kept) -> bool:
        age = self._clock() - kept.at
        if kept.family in FED_FAMILIES and age >= FRESH and self._suspect(kept):
            return False
        return age < lifetime_of(kept.volatile, kept.family, self._fed())

    def _suspect(self, kept: _Kept) -> bool:
        """Whether ``kept`` was read while its conversation (a list or search: any
        conversation) could still change untold: within :data:`HOT` seconds of a change, when
        the feed's overlapping searches, still finding that change, would not tell another.
        Such an answer lasts :data:`FRESH` seconds."""
        if kept.conversation is None:
            return kept.at < self._hot_horizon
        return kept.at < self._hot_until.get(kept.conversation, -1.0)

    def _keep(self, key: ReadKey, route: Route, answer: Answer) -> None:
        self._drop(key)
        kept = _Kept(answer, family_of(route), route.params.get("conversationId"),
                     route.operation.name in VOLATILE, self._clock(), len(answer.body))
        self._kept[key] = kept
        self._kept_bytes += kept.size
        while self._kept_bytes > MAX_KEPT_BYTES and self._kept:
            self._drop(next(iter(self._kept)))

    def _drop(self, key: ReadKey) -> None:
        kept = self._kept.pop(key, None)
        if kept is not None:
            self._kept_bytes -= kept.size

    # ------------------------------------------------------------------ changes

    def wrote(self, route: Route) -> None:
        """A write through the gateway: what it touches is read afresh by the next member.
        A write to a conversation drops that conversation's answers and the lists and
        searches of conversations; any other write drops every answer (they are rare, and
        an agent, a tag or a queue shows in many answers)."""
        conversation = route.params.get("conversationId")
        if conversation is None:
            self.forget_all()
        else:
            self.changed([conversation])

    def changed(self, conversations: Iterable[str]) -> None:
        """Conversations changed at the service: their answers, and every list and search of
        conversations, are read afresh."""
        wanted = set(conversations)
        self._epoch += 1
        now = self._clock()
        until = now + HOT
        for cid in wanted:
            self._hot_until[cid] = until
        self._hot_horizon = until
        if len(self._hot_until) > 4096:  # no answer kept is older than LASTING
            for cid in [cid for cid, end in self._hot_until.items() if end < now - LASTING]:
                del self._hot_until[cid]
        for key in [key for key, kept in self._kept.items()
                    if kept.family in FED_FAMILIES
                    and (kept.conversation is None or kept.conversation in wanted)]:
            self._drop(key)

    def forget_all(self) -> None:
        """Drop every kept answer (and keep none being read now)."""
        self._epoch += 1
        self._kept.clear()
        self._kept_bytes = 0

    @property
    def kept_bytes(self) -> int:
        """The bytes of every answer kept."""
        return self._kept_bytes


def _shared(answer: Answer) -> Answer:
    return Answer(answer.status, answer.headers, answer.body, shared=True)
