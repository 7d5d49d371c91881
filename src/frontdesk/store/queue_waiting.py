"""How many wait in a queue and since when the oldest waits: one search at background
priority, then a position request or two for the likely oldest (see :mod:`.queues`). A part
of :class:`~.queues.QueueWatch`, which holds the state it reads and keeps."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..api.errors import ApiError, NotFound, RateLimited, ServiceUnavailable, TransportError
from ..api.pacing import Priority
from .queue_rows import Waiting

if TYPE_CHECKING:
    from .hub import Hub
    from .inbox import InboxStore

__all__ = ["OLDEST_ASKS", "UNREACHABLE", "WAITING_PAGE", "WaitingSearch"]

log = logging.getLogger("frontdesk.store.queues")

#: Waiting conversations counted per queue (one search page); more shows as "200+".
WAITING_PAGE = 200
#: Position requests one waiting refresh may spend looking for the oldest conversation.
OLDEST_ASKS = 2

#: Errors that mean the service could not be reached: the tick fails and backs off.
UNREACHABLE = (TransportError, ServiceUnavailable, RateLimited)


class WaitingSearch:
    """The waiting refresh of one queue, and the search for its oldest conversation."""

    _hub: Hub
    _inbox: InboxStore
    _tick: int
    _waiting: dict[str, Waiting]
    _waiting_at: dict[str, int]
    #: conversation id -> (queue id, queued at), as far as known
    _queued: dict[int, tuple[str, datetime]]
    #: per queue, the waiting conversation known to stand first (the oldest)
    _first: dict[str, int]
    #: conversations asked that did not stand first (the next candidate is another)
    _not_first: set[int]
    #: per queue, the earliest queuing time of a conversation asked that was not first
    _missed: dict[str, datetime]
    #: what the inbox's records say of waiting conversations (read once each)
    _guesses: dict[int, tuple[str, datetime] | None]

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
