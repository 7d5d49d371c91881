"""The gateway's one connection to the service: the organisation's key, one budget, one client.

Every member's request goes out through :class:`Upstream`, which holds the organisation's key
(it is put on the request here and nowhere else), one ``httpx2.AsyncClient`` whose connections
stay open between requests, and one :class:`~frontdesk.api.pacing.Pacer` for the key's budget
(10 requests per second, burst 4, by default): writes go first, then interactive reads, then
background reads. A 429 from the service is waited out here, inside the gateway, as long as
its Retry-After is within :data:`MAX_429_WAIT`; only then is it passed on. A service that
cannot be reached is :class:`UpstreamDown`, which the app answers with 503 and Retry-After.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Mapping

import httpx2

from frontdesk.api.errors import parse_retry_after
from frontdesk.api.operations import Interface
from frontdesk.api.pacing import Pacer, Priority
from frontdesk.api.secrets import ApiKey
from frontdesk.api.tls import shared_tls_context

__all__ = ["MAX_429_WAIT", "Turns", "Upstream", "UpstreamDown"]

#: Seconds the gateway waits in all, over one request's 429s, before it passes a 429 on.
MAX_429_WAIT = 30.0
#: Seconds a member is told to wait when the service cannot be reached.
DOWN_RETRY_AFTER = 5
#: How long a health answer stays true without a new look at the service.
_HEALTH_FRESH = 5.0
_TIMEOUT = httpx2.Timeout(60.0, connect=5.0)


class UpstreamDown(Exception):
    """The service could not be reached (no connection, or no answer in time)."""

    def __init__(self, message: str, *, sent: bool) -> None:
        super().__init__(message)
        self.message = message
        self.sent = sent
        """Whether the request may have reached the service (a timeout after sending)."""


class Turns:
    """Fair turns across members within each priority (virtual-time round robin).

    A member's next request takes the turn after their previous one, but never earlier than
    the turn being served now: so one member queuing forty reads (a console's first fill)
    gets turns 1 to 40, and a colleague's single claim arriving after the fifth is served at
    turn 6, not after the fortieth.
    """

    def __init__(self) -> None:
        self._serving: dict[Priority, float] = {}
        self._last: dict[tuple[Priority, str], float] = {}

    def take(self, priority: Priority, member: str) -> float:
        """The turn of ``member``'s next request at ``priority``."""
        turn = max(self._serving.get(priority, 0.0), self._last.get((priority, member), 0.0))
        turn += 1.0
        self._last[(priority, member)] = turn
        return turn

    def served(self, priority: Priority, turn: float) -> None:
        """A request of ``turn`` got its token: later arrivals queue from here."""
        self._serving[priority] = max(self._serving.get(priority, 0.0), turn)


class Upstream:
    """The service at ``base_url`` (and its endpoint listing at ``integrations_url``), reached
    with the organisation's ``key``, paced at ``rate`` per second with bursts of ``burst``."""

    def __init__(
        self,
        base_url: str,
        integrations_url: str | None,
        key: ApiKey,
        *,
        rate: float = 10.0,
        burst: int = 4,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self._bases: dict[Interface, str | None] = {
            "main": base_url.rstrip("/"),
            "integrations": None if integrations_url is None else integrations_url.rstrip("/"),
        }
        self._key = key
        self.pacer = Pacer(rate, burst)
        self._turns = Turns()
        self._client = httpx2.AsyncClient(
            timeout=_TIMEOUT, transport=transport, follow_redirects=False,
            limits=httpx2.Limits(max_connections=64, max_keepalive_connections=32),
            verify=shared_tls_context() if transport is None else True,  # the process's one
        )
        self.sent_by: Counter[str] = Counter()
        """Requests sent to the service, by the member they were sent for."""
        self._healthy: bool | None = None
        self._checked = -float("inf")
        self._probe: asyncio.Task[bool] | None = None

    def serves(self, interface: Interface) -> bool:
        """Whether the gateway knows where ``interface`` is (the listing's URL is optional)."""
        return self._bases[interface] is not None

    async def send(
        self,
        method: str,
        interface: Interface,
        raw_path: str,
        query: bytes,
        headers: Mapping[str, str],
        body: bytes,
        priority: Priority,
        member: str,
    ) -> httpx2.Response:
        """Send one request of ``member`` with the organisation's key and return the answer
        unread (the caller streams it and closes it). Waits for the budget, its priority and
        the member's turn, and waits out 429s."""
        base = self._bases[interface]
        assert base is not None, "check serves() first"
        url = base + raw_path + ("?" + query.decode("latin-1") if query else "")
        waited = 0.0
        while True:
            turn = self._turns.take(priority, member)
            await self.pacer.acquire(priority, turn=turn)
            self._turns.served(priority, turn)
            request = self._client.build_request(method, url, headers=headers, content=body)
            request.headers["Authorization"] = self._key.reveal()
            self.sent_by[member] += 1
            response = await self._exchange(request)
            if response.status_code != 429:
                return response
            delay = parse_retry_after(response.headers.get("Retry-After")) or 1.0
            if waited + delay > MAX_429_WAIT:
                return response
            await response.aclose()
            self.pacer.penalise(delay)
            waited += delay

    async def _exchange(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` and return its answer unread; UpstreamDown when none came."""
        try:
            response = await self._client.send(request, stream=True)
        except httpx2.ConnectError as exc:
            self._note(False)
            raise UpstreamDown("The service cannot be reached from the gateway", sent=False) \
                from exc
        except httpx2.TimeoutException as exc:
            self._note(False)
            sent = not isinstance(exc, httpx2.ConnectTimeout | httpx2.PoolTimeout)
            raise UpstreamDown("The service did not answer the gateway in time", sent=sent) \
                from exc
        except httpx2.TransportError as exc:
            self._note(False)
            raise UpstreamDown("The connection to the service broke", sent=True) from exc
        self._note(True)
        return response

    def _note(self, healthy: bool) -> None:
        self._healthy = healthy
        self._checked = time.monotonic()

    async def healthy(self) -> bool:
        """Whether the service answers: what the last exchange showed if it is recent, else
        one look (a request without the key, which spends none of the key's budget)."""
        if self._healthy is not None and time.monotonic() - self._checked < _HEALTH_FRESH:
            return self._healthy
        if self._probe is None or self._probe.done():
            self._probe = asyncio.create_task(self._look())
        return await asyncio.shield(self._probe)

    async def _look(self) -> bool:
        base = self._bases["main"]
        try:
            response = await self._client.get(f"{base}/v1/organization",
                                               timeout=httpx2.Timeout(3.0))
        except httpx2.HTTPError:
            self._note(False)
            return False
        self._note(response.status_code < 500)
        return response.status_code < 500

    async def aclose(self) -> None:
        """Close the connections to the service."""
        if self._probe is not None:
            self._probe.cancel()
        await self._client.aclose()
