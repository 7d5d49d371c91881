"""One change feed for the whole team: the gateway asks the service what changed, once, for
every member, drops the shared answers it touches and tells every console listening.

The feed polls the service's conversation search for activity since its last look (one
search every :data:`INTERVAL` seconds whatever the number of consoles, ahead of the members'
reads: :data:`FEED_PRIORITY`),
on the service's clock: the offset to it is read from the first business-hours schedule's
status at the start and every :data:`CLOCK_AGAIN` seconds (this machine's clock when the
organisation has no schedule). The searches overlap by :data:`OVERLAP`; a conversation found
that the previous search did not find is a notice. One found again within the overlap is
not at once: the search gives ids, not times. But a conversation found by a search whose
window opens after the look that told it has changed since it was told, and is told again:
a second change made within the overlap is told one overlap later, never lost (the shared
answers read meanwhile last only seconds: ``shared_reads.HOT``). A look long after the
previous one (the feed could not look, or waited its turn behind a busy team) tells every
conversation it finds. A search that
finds more than a page tells consoles to look for themselves (a ``reset``).

Consoles listen on ``GET /gateway/v1/changes`` (server-sent events, :func:`events`): every
notice has an ``id``; a console reconnecting with ``Last-Event-ID`` is sent what it missed
while the gateway still holds it, or a ``reset``.

With webhooks (``serve --public-url``, :mod:`~frontdesk.gateway.webhook_feed`) the service
tells the gateway of each change as it happens (:meth:`ChangeFeed.heard`), and the poller
becomes a safety net: the rule is one flag, *silent*.

* While the gateway's subscription is set up and the webhooks are not silent, the feed looks
  :data:`SLOWER` times less often (every 30 s at the default interval, so the service is
  asked far less than once a second when nothing happens).
* A look that finds a change no delivery told of since the previous look means the webhooks
  are silent (the service cannot reach the public URL, the subscription was disabled, a
  delivery was lost): the feed looks at its own interval again, and tells the change itself.
* The next delivery heard ends the silence: slow again.

So without webhooks, or while they are silent, there is one poller at its interval; while they
are heard, each change is told once, by its delivery.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from frontdesk.api.pacing import Priority

from .shared_reads import SharedReads
from .upstream import Upstream, UpstreamDown

__all__ = ["FEED_PRIORITY", "HEARTBEAT", "INTERVAL", "OVERLAP", "SLOWER", "ChangeFeed", "Notice",
           "events"]

log = logging.getLogger("frontdesk.gateway.feed")

#: Seconds between two looks at the service (one search each).
INTERVAL = 2.0
#: How many times less often the feed looks while the service's webhooks are heard.
SLOWER = 15
#: How far each search reaches back before the previous one began: the service's clock is
#: only known to within its readings (a reading seen a few seconds off), and a change inside
#: the overlap found again is no news.
OVERLAP = timedelta(seconds=10)
#: Seconds between two readings of the service's clock.
CLOCK_AGAIN = 600.0
#: Seconds the service's clock may take to be read for the reading to be trusted.
CLOCK_TRUST = 2.0
#: Seconds between two keep-alive comments on a stream with nothing to say.
HEARTBEAT = 15.0
#: Notices held for consoles reconnecting.
HELD = 2048
#: Notices queued for one console before it is told to look for itself instead.
QUEUED = 512
_FEED_MEMBER = "gateway-feed"
#: The feed's place in the team's one budget: with the writes, ahead of every member's read.
#: The shared answers last only while the feed looks on time (:meth:`ChangeFeed.hearing`); a
#: look waiting behind a team's first start (two hundred consoles' reads) would cut them to
#: seconds, and every console would read again what it had just read: more reads, a later
#: look. One search every few seconds is a small share of the budget.
FEED_PRIORITY = Priority.INTERACTIVE
_JSON = {"content-type": "application/json", "accept": "application/json"}


@dataclass(frozen=True, slots=True)
class Notice:
    """One change: ``kind`` ``conversations`` (with their ids, and ``what`` changed in them
    when a webhook said: empty, anything may have) or ``reset`` (look again at everything)."""

    seq: int
    kind: str
    conversations: tuple[int, ...] = ()
    what: tuple[str, ...] = ()

    def event(self) -> str:
        """The notice as one server-sent event."""
        data = json.dumps({"conversations": list(self.conversations), "what": list(self.what)})
        return f"id: {self.seq}\nevent: {self.kind}\ndata: {data}\n\n"


class _Listener:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[Notice] = asyncio.Queue(QUEUED)
        self.lagging = False


class ChangeFeed:
    """The team's one poller of the service, and the consoles listening to it."""

    def __init__(self, upstream: Upstream, shared: SharedReads, *,
                 interval: float = INTERVAL, overlap: timedelta = OVERLAP,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._upstream = upstream
        self._shared = shared
        self._interval = interval
        self._overlap = overlap
        self._clock = clock
        self._wall = wall
        self._offset: timedelta | None = None
        self._offset_at = -float("inf")
        self._since: datetime | None = None
        self._found: set[int] = set()
        #: when (the service's time) each conversation found lately was last told
        self._told_at: dict[int, datetime] = {}
        self._heard_at = -float("inf")
        self._clock_read = asyncio.Lock()
        self._webhooks = False
        self._silent = False
        self._silenced = asyncio.Event()
        self._told: set[int] = set()
        self._pace = interval
        self._seq = 0
        self._held: deque[Notice] = deque(maxlen=HELD)
        self._listeners: set[_Listener] = set()
        self.searches = 0
        """Searches sent to the service (tests and benchmarks count them)."""
        self.silences = 0
        """Times the webhooks were found silent (tests count them)."""
        self.closing = False

    # ------------------------------------------------------------------ the service

    def hearing(self) -> bool:
        """Whether the feed has looked at the service lately (answers it watches may then be
        kept longer: a change would have dropped them)."""
        return self._clock() - self._heard_at < 3 * max(self._interval, self._pace)

    def pace(self) -> float:
        """Seconds until the next look: :data:`SLOWER` times the interval while webhooks are
        heard, the interval otherwise (the rule is in the module's docstring)."""
        return self._interval * SLOWER if self.webhooks_heard() else self._interval

    def webhooks_heard(self) -> bool:
        """Whether the service's webhooks tell the changes: the gateway's subscription is set
        up and no look found a change they did not tell since the last delivery."""
        return self._webhooks and not self._silent

    def expect_webhooks(self, subscribed: bool) -> None:
        """The gateway's webhook subscription at the service is set up (True: the feed may
        look less often) or gone (False)."""
        self._webhooks = subscribed
        self._silent = False
        self._silenced.clear()

    async def silenced(self) -> None:
        """Returns once the webhooks are silent (at once while they are)."""
        await self._silenced.wait()

    def heard(self, conversations: Iterable[int], what: tuple[str, ...] = ()) -> None:
        """A delivery of the service's webhooks told of ``conversations`` (none: an event of
        no conversation) and ``what`` changed in them: what a look does when it finds them,
        the answers that hold them dropped and every listener told, and the webhooks are not
        silent."""
        told = tuple(sorted(set(conversations)))
        if self._silent:
            log.info("the service's webhooks are heard again: the feed looks every %g s",
                     self._interval * SLOWER)
        self._silent = False
        self._silenced.clear()
        self._told.update(told)
        if told:
            self._shared.changed(str(cid) for cid in told)
            self.publish("conversations", told, what)

    async def run(self) -> None:
        """Look, tell, wait; for as long as the gateway runs."""
        while True:
            try:
                await self.look()
            except asyncio.CancelledError:
                raise
            except UpstreamDown as down:
                log.info("the change feed could not look: %s", down.message)
            except Exception:  # a bug: logged, and the feed goes on
                log.exception("the change feed failed")
            self._pace = self.pace()
            await asyncio.sleep(self._pace)

    async def look(self) -> None:
        """One look at the service: what changed since the last, told to every listener
        (but what a webhook delivery told since the last look: it was told then)."""
        now = await self.service_now()
        first = self._since is None
        since = self._since or now - self._overlap
        hits, complete = await self._search(since)
        # a look long after the last (the feed could not look, or waited its turn behind a
        # busy team) tells every conversation found: one the last look found may have changed
        # again since, and the search cannot say (it gives ids, not times)
        late = (self._since is not None
                and now - (self._since + self._overlap) > self._overlap)
        told, self._told = self._told, set()
        # found again within the overlap: told again only when this search's window opens
        # after it was told (its activity is then newer than the telling)
        again = {cid for cid in hits & self._found
                 if (when := self._told_at.get(cid)) is not None and when < since}
        found = hits - told if late else ((hits - self._found) | again) - told
        # a sign that the webhooks are silent: a change no delivery told of. A late look's
        # finds include what the last look found (changed before it, told then): only the new
        # ones are a sign. Looks are late whenever the webhooks are heard (every 30 s, past the
        # 10 s overlap), so this is how a silence is noticed at all at that pace.
        untold = (hits - self._found - told) if late else found
        for cid in found | told:
            self._told_at[cid] = now
        self._told_at = {cid: when for cid, when in self._told_at.items()
                         if cid in hits or when >= since}
        self._found = hits
        self._since = now - self._overlap
        self._heard_at = self._clock()
        self.searches += 1
        if untold and self.webhooks_heard() and not first:
            # (the first look finds what changed before anything was heard: no sign)
            self._silent = True
            self._silenced.set()
            self.silences += 1
            log.info("the service's webhooks are silent (a look found %d change(s) no "
                     "delivery told of): the feed looks every %g s", len(untold), self._interval)
        if found:
            self._shared.changed(str(cid) for cid in found)
            self.publish("conversations", tuple(sorted(found)))
        if not complete:  # more changed than a page holds: look at everything
            self._shared.forget_all()
            self.publish("reset")

    async def service_now(self) -> datetime:
        """The time on the service's clock (its offset to this machine's read again every
        :data:`CLOCK_AGAIN` seconds)."""
        async with self._clock_read:
            if self._offset is None or self._clock() - self._offset_at > CLOCK_AGAIN:
                offset, trusted = await self._read_offset()
                if trusted or self._offset is None:
                    self._offset = offset
                # a reading that waited its turn behind a busy team is read again soon
                self._offset_at = self._clock() - (0.0 if trusted else CLOCK_AGAIN - 30.0)
            return self._wall() + self._offset

    def service_time(self) -> float:
        """Unix seconds on the service's clock as last read, without asking it (this
        machine's clock until :meth:`service_now` has read it once)."""
        return time.time() + (self._offset or timedelta(0)).total_seconds()

    async def _read_offset(self) -> tuple[timedelta, bool]:
        """The service's clock less this machine's (zero when it cannot be read), and whether
        the reading can be trusted: the status's answer came within :data:`CLOCK_TRUST`
        seconds of asking. The time it is asked includes its wait for the team's budget (a
        background read): after a minute's wait behind 200 starting consoles, the midpoint
        would put the feed's clock half a minute ahead of the service's, and every look would
        search from a time still to come there, finding nothing."""
        listed = await self._get("/v1/business-hours/schedules", b"pageLimit=1")
        data = listed.get("data") if isinstance(listed, dict) else None
        items = data.get("schedules") if isinstance(data, dict) else data
        first = items[0] if isinstance(items, list) and items else None
        schedule = first.get("id") if isinstance(first, dict) else None
        if not isinstance(schedule, str):
            return timedelta(0), True
        before = self._wall()
        status = await self._get(f"/v1/business-hours/schedules/{schedule}/status", b"")
        after = self._wall()
        now = status.get("data", status) if isinstance(status, dict) else None
        stamp = now.get("timestamp") if isinstance(now, dict) else None
        try:
            then = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
        except ValueError:
            return timedelta(0), True
        if then.tzinfo is None:
            then = then.replace(tzinfo=UTC)
        trusted = after - before <= timedelta(seconds=CLOCK_TRUST)
        return then - (before + (after - before) / 2), trusted

    async def _get(self, path: str, query: bytes) -> Any:
        answer = await self._upstream.send("GET", "main", path, query, _JSON, b"",
                                           FEED_PRIORITY, _FEED_MEMBER)
        try:
            if answer.status_code != 200:
                return None
            return json.loads(await answer.aread())
        except ValueError:
            return None
        finally:
            await answer.aclose()

    async def _search(self, since: datetime) -> tuple[set[int], bool]:
        """The conversations with activity since ``since``, and whether one page held all."""
        stamp = since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        body = json.dumps({"filters": {"strategy": "All", "conditions": [
            {"field": {"_type": "LastActivity",
                       "operator": {"_type": "Since", "timestamp": stamp}}}]}}).encode()
        answer = await self._upstream.send("POST", "main", "/v1/search/conversations",
                                           b"pageLimit=200", _JSON, body,
                                           FEED_PRIORITY, _FEED_MEMBER)
        try:
            if answer.status_code != 200:
                raise UpstreamDown(f"the search answered {answer.status_code}", sent=True)
            document = json.loads(await answer.aread())
        except ValueError:
            raise UpstreamDown("the search's answer was not JSON", sent=True) from None
        finally:
            await answer.aclose()
        hits = document.get("data") if isinstance(document, dict) else None
        found = {hit["id"] for hit in hits or () if isinstance(hit, dict)
                 and isinstance(hit.get("id"), int)}
        meta = document.get("meta") if isinstance(document, dict) else None
        more = isinstance(meta, dict) and bool(meta.get("next"))
        return found, not more

    # ------------------------------------------------------------------ the consoles

    def publish(self, kind: str, conversations: tuple[int, ...] = (),
                what: tuple[str, ...] = ()) -> Notice:
        """Tell every listener (and hold the notice for those reconnecting)."""
        self._seq += 1
        notice = Notice(self._seq, kind, conversations, what)
        self._held.append(notice)
        for listener in self._listeners:
            if listener.lagging:
                continue
            try:
                listener.queue.put_nowait(notice)
            except asyncio.QueueFull:
                listener.lagging = True
        return notice

    def missed(self, last_seen: int | None) -> list[Notice]:
        """What a console that last saw ``last_seen`` missed; a reset when it is no longer
        held (or the number is not one this gateway gave: it was restarted)."""
        if last_seen is None:
            return []
        if last_seen == self._seq:
            return []
        oldest = self._held[0].seq if self._held else self._seq + 1
        if last_seen > self._seq or last_seen < oldest - 1:
            return [Notice(self._seq, "reset")]
        return [notice for notice in self._held if notice.seq > last_seen]

    @contextlib.contextmanager
    def listening(self) -> Any:
        """A listener for the block (its queue of notices)."""
        listener = _Listener()
        self._listeners.add(listener)
        try:
            yield listener
        finally:
            self._listeners.discard(listener)

    def close(self) -> None:
        """The gateway is stopping: every stream ends now (consoles listen again when it is
        back), so no open stream holds the stop up."""
        self.closing = True
        for listener in self._listeners:
            with contextlib.suppress(asyncio.QueueFull):  # full: it reads on, and sees this
                listener.queue.put_nowait(Notice(self._seq, "closing"))

    @property
    def last(self) -> int:
        """The number of the latest notice (0: none yet)."""
        return self._seq

    @property
    def listeners(self) -> int:
        """How many consoles listen now."""
        return len(self._listeners)


async def events(feed: ChangeFeed, last_seen: int | None,
                 heartbeat: float = HEARTBEAT) -> AsyncIterator[str]:
    """A console's stream: a greeting, what it missed, then each notice as it comes, with a
    keep-alive comment when there is nothing to say."""
    with feed.listening() as listener:
        yield f"retry: 2000\nevent: hello\ndata: {json.dumps({'last': feed.last})}\n\n"
        for notice in feed.missed(last_seen):
            yield notice.event()
        while not feed.closing:
            if listener.lagging:
                listener.lagging = False
                while not listener.queue.empty():
                    listener.queue.get_nowait()
                yield Notice(feed.last, "reset").event()
            try:
                async with asyncio.timeout(heartbeat):
                    notice = await listener.queue.get()
            except TimeoutError:
                yield ": still here\n\n"
                continue
            if notice.kind == "closing":
                return
            yield notice.event()
