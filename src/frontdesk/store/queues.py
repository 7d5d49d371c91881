"""Queues mode's live state: every queue with its chat channels' availability, its member
count and how many wait in it since when; a typed conversation's position in its queue; and
changes of queue members.

Topics on the session's :class:`~frontdesk.store.live.LiveStore`:

* ``queues`` — every ``settings.poll.queues`` seconds while Queues mode (or the transfer
  picker) is shown. A tick costs the queue list (every :data:`LIST_EVERY` ticks: queues are
  rarely created) plus a few per-queue requests (availability, waiting, member count), spent
  on the queues the screen shows (``visible``), stalest first (round-robin). How many: what
  is left of about one request a second (:data:`CONSOLE_REQUESTS_PER_SECOND`) once the
  other active topics have taken theirs, at most :data:`REQUESTS_PER_SECOND`, at least two
  a tick. Shown queues nobody has seen yet are filled first, a few requests a second
  (:data:`FILL_BATCH`, :data:`FILL_INTERVAL`). The value is a tuple of immutable
  :class:`QueueRow`, so a tick where nothing moved is no change.
* ``position`` — the conversation typed by the user, every 3 seconds until the service
  answers 404 (it left the queue: claimed, closed or moved); then no more requests. Without
  a conversation to follow the topic costs nothing.

Member changes return ``None`` or the text to show, and update the member count at once.

A queue's *waiting* refresh is one search at background priority (Open, unassigned, in that
queue: the count, "200+" beyond one page) and, only when the oldest waiting conversation is
not known yet, a position request or two (:data:`OLDEST_ASKS`): the service numbers a queue
by ``queuedAt``, so the conversation at position 1 is the oldest, and it stays the oldest
while it still waits. The candidate asked is the one with the earliest ``queuedAt`` known
(from earlier answers or the inbox's records), else the lowest id; a candidate that is not
first gives a lower bound ("≥ 12 min") until the next one asked is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..api.errors import (
    ApiError,
    Conflict,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    TransportError,
)
from ..api.models import AVAILABILITY_CHANNELS, Queue
from ..api.pacing import Priority
from .errors import Refused
from .memberships import MembersChange
from .queue_members import change_members, member_ids
from .queue_rows import ChannelState, PositionState, QueueRow, Waiting, channel_states
from .topics import TopicKey

if TYPE_CHECKING:
    from .directory import Directory
    from .hub import Hub
    from .inbox import InboxStore

log = logging.getLogger("frontdesk.store.queues")

#: Waiting conversations counted per queue (one search page); more shows as "200+".
WAITING_PAGE = 200
#: Position requests one waiting refresh may spend looking for the oldest conversation.
OLDEST_ASKS = 2

#: Errors that mean the service could not be reached: the tick fails and backs off.
UNREACHABLE = (TransportError, ServiceUnavailable, RateLimited)

QUEUES_TOPIC: TopicKey[tuple[QueueRow, ...]] = TopicKey("queues")
POSITION_TOPIC: TopicKey[PositionState | None] = TopicKey("position")
#: Seconds between two checks of a followed conversation's position.
POSITION_INTERVAL = 3.0
#: What one console's polling should ask of the service, in all (requests a second): the
#: budget of one a second, less a tenth for what the user does and for one-off look-ups.
CONSOLE_REQUESTS_PER_SECOND = 0.9
#: The most the queues topic spends of that (requests a second).
REQUESTS_PER_SECOND = 0.5
#: Ticks between two fetches of the queue list itself (queues are rarely created).
LIST_EVERY = 3
#: While shown queues are not known yet: requests a tick, and seconds between ticks. Three
#: a second never empty the pacer's burst of four, so a fill never runs at the edge of the
#: service's budget (where a clock's jitter means a 429).
FILL_BATCH = 3
FILL_INTERVAL = 1.0
#: Ticks between two counts of one queue's members (about three minutes at 10 s).
MEMBERS_EVERY = 18
#: Queues assumed shown before the screen says which ones it shows.
DEFAULT_VISIBLE = 20


class QueueWatch:
    """Registers the ``queues`` and ``position`` topics and fetches them.

    One class of some 400 lines: the waiting refresh (one search at background priority,
    then a position request or two for the likely oldest) reads and keeps the same state as
    the queue rows it fills."""

    def __init__(self, hub: Hub, inbox: InboxStore, directory: Directory, interval: float) -> None:
        self._hub = hub
        self._inbox = inbox
        self._directory = directory
        self._interval = interval
        self._queues: list[Queue] = []
        self._availability: dict[str, tuple[ChannelState, ...]] = {}
        self._availability_at: dict[str, int] = {}
        self._members: dict[str, int] = {}
        self._members_at: dict[str, int] = {}
        self._waiting: dict[str, Waiting] = {}
        self._waiting_at: dict[str, int] = {}
        #: conversation id -> (queue id, queued at), as far as known
        self._queued: dict[int, tuple[str, datetime]] = {}
        #: per queue, the waiting conversation known to stand first (the oldest)
        self._first: dict[str, int] = {}
        #: conversations asked that did not stand first (the next candidate is another)
        self._not_first: set[int] = set()
        #: per queue, the earliest queuing time of a conversation asked that was not first
        self._missed: dict[str, datetime] = {}
        #: what the inbox's records say of waiting conversations (read once each)
        self._guesses: dict[int, tuple[str, datetime] | None] = {}
        self._tick = 0
        self._listed_at = 0
        self._filling = False
        self._followed: int | None = None
        self._urgent = False
        #: the screen's answer to "which queues are shown?" (ids in row order)
        self.visible: Callable[[], Sequence[str] | None] | None = None
        self._hub.live.add(QUEUES_TOPIC, self._fetch_queues, interval)
        self._hub.live.add(POSITION_TOPIC, self._fetch_position, POSITION_INTERVAL)

    # ------------------------------------------------------------------ reading

    @property
    def rows(self) -> tuple[QueueRow, ...]:
        """The latest queue rows (empty before the first fetch)."""
        value = self._hub.live.get(QUEUES_TOPIC)
        return value if isinstance(value, tuple) else ()

    @property
    def position(self) -> PositionState | None:
        """The followed conversation's latest state."""
        value = self._hub.live.get(POSITION_TOPIC)
        return value if isinstance(value, PositionState) else None

    def watch_topic(self) -> None:
        """Something beyond Queues mode shows the rows (the transfer picker): poll them."""
        self._hub.live.watch(QUEUES_TOPIC)

    def unwatch_topic(self) -> None:
        """It no longer does."""
        self._hub.live.unwatch(QUEUES_TOPIC)

    # ------------------------------------------------------------------ the queues topic

    def _per_tick(self) -> int:
        """Requests one steady tick may spend (the list included).

        The console polls about :data:`CONSOLE_REQUESTS_PER_SECOND` in all: what the other
        active topics poll (counted as one request a poll) is taken off first, and the queues
        topic spends at most :data:`REQUESTS_PER_SECOND` of what is left, and never less than
        two requests a tick.
        """
        live = self._hub.live
        others = 0.0
        for name in live.stats():
            topic = live.topic(name)
            if topic is None or name == QUEUES_TOPIC or not topic.active or topic.interval <= 0:
                continue
            if name == POSITION_TOPIC and not self._following():
                continue  # nothing followed: the topic asks nothing
            others += topic.cost / topic.interval
        rate = min(REQUESTS_PER_SECOND, CONSOLE_REQUESTS_PER_SECOND - others)
        return max(2, int(rate * self._interval))

    def _following(self) -> bool:
        state = self.position
        return self._followed is not None and (state is None or state.waiting)

    def _shown(self) -> list[str]:
        known = [q.id for q in self._queues]
        wanted = self.visible() if self.visible is not None else None
        if not wanted:
            return known[:DEFAULT_VISIBLE]
        ids = set(known)
        return [queue_id for queue_id in wanted if queue_id in ids]

    def _missing(self, shown: list[str]) -> list[tuple[str, str]]:
        """What the shown queues lack (availability and waiting first: what users look for)."""
        missing = [("availability", q) for q in shown if q not in self._availability]
        missing += [("waiting", q) for q in shown if q not in self._waiting_at]
        return missing + [("members", q) for q in shown if q not in self._members_at]

    def _plan(self, listed: bool) -> list[tuple[str, str]]:
        """This tick's per-queue requests: ``("availability" | "waiting" | "members",
        queue_id)``, the stalest first."""
        shown = self._shown()
        missing = self._missing(shown)
        if missing:
            # a first waiting refresh costs the search and its position requests
            room = max(1, FILL_BATCH - (1 if listed else 0))
            batch: list[tuple[str, str]] = []
            for item in missing:
                room -= 1 + OLDEST_ASKS if item[0] == "waiting" else 1
                if batch and room < 0:
                    break
                batch.append(item)
            return batch
        steady = self._per_tick() - (1 if listed else 0)
        plan: list[tuple[str, str]] = []
        due = [q for q in shown if self._tick - self._members_at.get(q, 0) >= MEMBERS_EVERY]
        if due and steady > 1:
            due.sort(key=lambda q: self._members_at.get(q, 0))
            plan.append(("members", due[0]))
        stale = [("availability", q) for q in shown] + [("waiting", q) for q in shown]
        stale.sort(key=lambda item: (self._availability_at if item[0] == "availability"
                                     else self._waiting_at).get(item[1], 0))
        plan += stale[:max(0, steady - len(plan))]
        return plan

    async def _fetch_queues(self) -> tuple[QueueRow, ...]:
        self._tick += 1
        client = self._hub.client
        listed = not self._queues or (
            not self._filling and self._tick - self._listed_at >= LIST_EVERY)
        if listed:
            self._queues = await client.queues.list(priority=Priority.VISIBLE)
            self._listed_at = self._tick
        plan = self._plan(listed)
        results = await asyncio.gather(*(self._fetch_one(kind, queue_id)
                                         for kind, queue_id in plan), return_exceptions=True)
        for result in results:
            if isinstance(result, UNREACHABLE):
                raise result
            if isinstance(result, BaseException) and not isinstance(result, ApiError):
                raise result
        known = {q.id for q in self._queues}
        for table in (self._availability, self._availability_at, self._members,
                      self._members_at, self._waiting, self._waiting_at, self._first,
                      self._missed):
            for gone in [k for k in table if k not in known]:
                del table[gone]
        self._filling = bool(self._missing(self._shown()))
        topic = self._hub.live.topic(QUEUES_TOPIC)
        if topic is not None:  # the next tick comes sooner while filling
            topic.interval = FILL_INTERVAL if self._filling else self._interval
            topic.cost = float(len(plan) + (1 if listed else 0))
        return self._snapshot()

    async def _fetch_one(self, kind: str, queue_id: str) -> None:
        client = self._hub.client
        if kind == "members":
            try:
                members = await client.queues.members(queue_id, priority=Priority.BACKGROUND)
            except ApiError as error:
                if isinstance(error, UNREACHABLE):
                    raise
                log.info("could not count the members of queue %s: %s", queue_id, error)
                self._members_at[queue_id] = self._tick
                return
            self._members[queue_id] = len(members)
            self._members_at[queue_id] = self._tick
            return
        if kind == "waiting":
            await self._fetch_waiting(queue_id)
            return
        try:
            outcomes = await client.queues.availability(queue_id, priority=Priority.VISIBLE)
        except Conflict as error:
            states = tuple(ChannelState(c, None, problem=error.message)
                           for c in AVAILABILITY_CHANNELS)
        except ApiError as error:
            if isinstance(error, UNREACHABLE):
                raise
            states = tuple(ChannelState(c, None, problem=error.message)
                           for c in AVAILABILITY_CHANNELS)
        else:
            states = channel_states(outcomes)
        self._availability[queue_id] = states
        self._availability_at[queue_id] = self._tick
    def _snapshot(self) -> tuple[QueueRow, ...]:
        rows = []
        for queue in self._queues:
            waiting = self._waiting.get(queue.id)
            rows.append(QueueRow(
                queue_id=queue.id,
                name=queue.name,
                priority=queue.priority,
                is_default=queue.is_default,
                members=self._members.get(queue.id),
                channels=self._availability.get(queue.id, ()),
                waiting=waiting.count if waiting is not None else None,
                waiting_more=waiting.more if waiting is not None else False,
                oldest=waiting.oldest if waiting is not None else None,
                oldest_exact=waiting.exact if waiting is not None else True,
            ))
        return tuple(rows)

    # ------------------------------------------------------------------ members

    async def members(self, queue_id: str) -> list[str]:
        """The ids of the queue's members, now (raises :class:`Refused`)."""
        members = await member_ids(self._hub.client, queue_id)
        self._count(queue_id, len(members))
        return members

    async def change_members(self, queue_id: str, add: Sequence[str],
                             remove: Sequence[str]) -> MembersChange:
        """Assign agents to the queue and remove others (raises :class:`Refused` when
        nothing changed); the queue's count follows."""
        try:
            return await change_members(self._hub.client, self._directory.name, queue_id,
                                        add, remove)
        finally:
            await self._recount(queue_id)

    async def _recount(self, queue_id: str) -> None:
        try:
            await self.members(queue_id)
        except Refused:
            self._members.pop(queue_id, None)  # counted again at the next tick
            self._publish()

    def _count(self, queue_id: str, count: int) -> None:
        self._members[queue_id] = count
        self._members_at[queue_id] = self._tick
        self._publish()

    def _publish(self) -> None:
        if self._queues:
            self._hub.live.put(QUEUES_TOPIC, self._snapshot())

    # ------------------------------------------------------------------ the position topic

    async def follow(self, conversation_id: int) -> PositionState:
        """Follow a conversation's position: ask now (ahead of polling), then every 3 s."""
        self._followed = conversation_id
        live = self._hub.live
        state = PositionState(conversation_id)
        client = self._hub.client
        try:
            conversation = await client.conversations.get(conversation_id,
                                                          priority=Priority.INTERACTIVE)
        except NotFound:
            state = replace(state, waiting=False, checked=True,
                            problem=f"There is no conversation #{conversation_id}")
            live.put(POSITION_TOPIC, state)
            return state
        except ApiError as error:
            state = replace(state, problem=error.message)
        else:
            if conversation.queue is not None:
                state = replace(state, queue_name=self._directory.queue_name(
                    conversation.queue.id))
        live.put(POSITION_TOPIC, state)
        self._urgent = True
        try:
            await live.refresh(POSITION_TOPIC)
        except ApiError:
            live.poke(POSITION_TOPIC)
        return self.position or state

    def unfollow(self) -> None:
        """Stop following (the topic goes quiet)."""
        self._followed = None
        self._hub.live.put(POSITION_TOPIC, None)

    async def _fetch_position(self) -> PositionState | None:
        followed = self._followed
        current = self.position
        if followed is None:
            return None
        if current is None or current.conversation_id != followed:
            current = PositionState(followed)
        if current.checked and not current.waiting:
            return current  # it left the queue: nothing more to ask
        priority = Priority.INTERACTIVE if self._urgent else Priority.VISIBLE
        self._urgent = False
        try:
            answer = await self._hub.client.queues.conversation_position(
                followed, priority=priority)
        except NotFound:
            state = replace(current, waiting=False, checked=True, problem=None)
        else:
            state = replace(current, position=answer.position, queued_at=answer.queued_at,
                            waiting=True, was_waiting=True, checked=True, problem=None)
        if self._followed != followed:
            return self.position
        return state

    # ------------------------------------------------------------------ waiting conversations

    async def _fetch_waiting(self, queue_id: str) -> None:
        """Count the queue's waiting conversations and find since when the oldest waits."""
        client = self._hub.client
        body = {"strategy": "All", "conditions": [
            {"field": {"_type": "QueueId", "operator": {"_type": "IsOneOf",
                                                        "values": [queue_id]}}},
            {"field": {"_type": "AgentId", "operator": {"_type": "IsEmpty"}}},
            {"field": {"_type": "Status", "operator": {"_type": "IsOneOf",
                                                       "values": ["open"]}}},
        ]}
        try:
            page = await client.search.conversations_page(
                filters=body, page_size=WAITING_PAGE, priority=Priority.BACKGROUND)
        except ApiError as error:
            if isinstance(error, UNREACHABLE):
                raise
            log.info("could not count the waiting conversations of queue %s: %s",
                     queue_id, error)
            self._waiting_at[queue_id] = self._tick
            return
        ids = [hit.id for hit in page.items]
        oldest, exact = await self._oldest(queue_id, ids)
        self._waiting[queue_id] = Waiting(len(ids), page.next_key is not None, oldest, exact)
        self._waiting_at[queue_id] = self._tick

    async def _oldest(self, queue_id: str, ids: list[int]) -> tuple[datetime | None, bool]:
        """Since when the queue's oldest waiting conversation (of ``ids``) waits, and whether
        that is sure; at most :data:`OLDEST_ASKS` position requests, none once known."""
        if not ids:
            self._first.pop(queue_id, None)
            return None, True
        first = self._first.get(queue_id)
        if first is not None and first in ids and first in self._queued:
            return self._queued[first][1], True
        bound: datetime | None = None
        for _ in range(OLDEST_ASKS):
            asked = [c for c in ids if c not in self._not_first]
            if not asked:  # every one asked: start again
                self._not_first.difference_update(ids)
                self._missed.pop(queue_id, None)
                asked = ids
            candidate = self._candidate(queue_id, asked)
            try:
                answer = await self._hub.client.queues.conversation_position(
                    candidate, priority=Priority.BACKGROUND)
            except NotFound:  # it left the queue since the search
                self._queued.pop(candidate, None)
                self._not_first.add(candidate)
                continue
            except ApiError as error:
                if isinstance(error, UNREACHABLE):
                    raise
                return bound, False
            self._queued[candidate] = (queue_id, answer.queued_at)
            if answer.position == 1:
                self._first[queue_id] = candidate
                self._missed.pop(queue_id, None)
                self._not_first.difference_update(ids)
                return answer.queued_at, True
            self._not_first.add(candidate)
            # the oldest waits at least as long as this one
            bound = answer.queued_at if bound is None else max(bound, answer.queued_at)
            missed = self._missed.get(queue_id)
            self._missed[queue_id] = (answer.queued_at if missed is None
                                      else min(missed, answer.queued_at))
        return bound, False

    def _candidate(self, queue_id: str, ids: list[int]) -> int:
        """The waiting conversation most likely the oldest: the earliest estimate; once a
        conversation asked was not first, only those estimated earlier than it, else the
        ones nothing is known of (lowest id first)."""
        estimates = {c: self._estimate(queue_id, c) for c in ids}
        missed = self._missed.get(queue_id)
        if missed is not None:
            earlier = [c for c in ids if not estimates[c][0] and estimates[c][1] < missed]
            if earlier:
                return min(earlier, key=estimates.__getitem__)
            unknown = [c for c in ids if estimates[c][0]]
            if unknown:
                return min(unknown)
        return min(ids, key=estimates.__getitem__)

    def _estimate(self, queue_id: str, conversation_id: int) -> tuple[bool, datetime, int]:
        """How early a waiting conversation was probably queued, to ask the likely oldest
        first: a position answered before, else the inbox's record of it, else only its id
        (older conversations have lower ids)."""
        known = self._queued.get(conversation_id)
        if known is not None and known[0] == queue_id:
            return (False, known[1], conversation_id)
        guess = self._guesses.get(conversation_id)
        if guess is None and conversation_id not in self._guesses:
            guess = self._guess(conversation_id)
            self._guesses[conversation_id] = guess
        if guess is not None and guess[0] == queue_id:
            return (False, guess[1], conversation_id)
        return (True, datetime.max.replace(tzinfo=UTC), conversation_id)

    def _guess(self, conversation_id: int) -> tuple[str, datetime] | None:
        """The queue and queuing time the inbox's record tells (it may be stale)."""
        records = self._inbox.records
        if conversation_id not in records:
            return None
        try:
            queue = records[conversation_id].queue
        except KeyError:
            return None
        if queue is None or queue.queued_at is None:
            return None
        return (queue.id, queue.queued_at)
