"""The async client of the Customer Conversation Service API v1.

    async with ApiClient("https://dev.example.com", api_key) as client:
        async for agent in client.agents.list(page_size=100):
            ...
        await client.conversations.claim(12, agent_id, force=False)

One :class:`ApiClient` owns one ``httpx2.AsyncClient`` (keep-alive; connect 5 s, read 15 s;
redirects never followed; the process's one TLS context, :mod:`~frontdesk.api.tls`) and offers
one resource object per API group, built (its module imported) when the group is first used: a
program that speaks to a few groups loads only those. Every call is paced
(:class:`~frontdesk.api.pacing.Pacer`), retried when that is safe
(:class:`~frontdesk.api.retry.RetryPolicy`), fails with a typed
:class:`~frontdesk.api.errors.ApiError` and returns the contract's models with the ``data``
envelope unwrapped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import cached_property
from types import TracebackType
from typing import TYPE_CHECKING

import httpx2

from .. import __version__
from .bodies import MAX_RESPONSE_BYTES
from .origins import KeyAuth
from .pacing import Pacer
from .retry import DEFAULT_POLICY, RetryPolicy
from .secrets import ApiKey
from .tls import shared_tls_context
from .transport import DEFAULT_TIMEOUT, Transport

if TYPE_CHECKING:
    from .resources.activity_log import ActivityLogResource
    from .resources.agents import AgentsResource
    from .resources.analytics import AnalyticsResource
    from .resources.anonymization import AnonymizationResource
    from .resources.business_hours import BusinessHoursResource
    from .resources.contact_endpoints import ContactEndpointsResource
    from .resources.conversations import ConversationsResource
    from .resources.custom_attributes import CustomAttributesResource
    from .resources.endusers import EndUsersResource
    from .resources.flows import FlowsResource
    from .resources.gateway import GatewayResource
    from .resources.integrations import IntegrationsResource
    from .resources.knowledge import KnowledgeResource
    from .resources.links import LinksResource
    from .resources.messages import MessagesResource
    from .resources.notes import NotesResource
    from .resources.organization import OrganizationResource
    from .resources.queues import QueuesResource
    from .resources.ratings import RatingsResource
    from .resources.search import SearchResource
    from .resources.tags import TagsResource
    from .resources.teams import TeamsResource
    from .resources.templates import TemplatesResource
    from .resources.webhooks import WebhooksResource

__all__ = [
    "DEFAULT_BURST",
    "DEFAULT_RATE",
    "DEFAULT_USER_AGENT",
    "ApiClient",
    "default_pacer",
]

DEFAULT_USER_AGENT = f"frontdesk/{__version__} (python-httpx2/{httpx2.__version__})"


#: The service's budget is 10 requests/s with a burst of 4, counted when requests *arrive*.
#: The client counts when they leave, and arrivals bunch up (the first requests also open
#: connections, later ones reuse them; a busy machine delays some), so the client paces
#: below it: 90 % of the rate and two tokens of the burst in reserve (``pacer_for``): with
#: one, a busy machine was seen to bunch a thread's opening requests into a 429.
DEFAULT_RATE = 10.0
DEFAULT_BURST = 4
#: share of the service's rate the client uses: jitter on the way (a busy machine, a slow
#: network) can bunch requests that left evenly spaced
HEADROOM = 0.9
#: tokens of the service's burst the client leaves unused, for arrivals that bunch up
BURST_RESERVE = 2


def pacer_for(rate: float = DEFAULT_RATE, burst: int = DEFAULT_BURST) -> Pacer:
    """A pacer that keeps one client inside a service budget of ``rate`` requests a second
    with bursts of ``burst``: 90 % of the rate, and two tokens of the burst in reserve."""
    return Pacer(rate * HEADROOM, max(1, burst - BURST_RESERVE))


def default_pacer() -> Pacer:
    """A pacer for one key of the service's published budget (10/s, burst 4)."""
    return pacer_for()


class ApiClient:
    """The service's API, one attribute per group (``client.tags``, ``client.messages``, …).

    ``base_url`` is the main interface's address (paths start with ``/v1``);
    ``integrations_url`` the deprecated endpoint listing's (needed only for
    ``client.integrations``). ``api_key`` is sent as ``Authorization`` to these two origins
    and nowhere else. ``pacer`` defaults to :func:`default_pacer` (the service's budget, with
    a token in reserve); share one pacer between clients that use the same key.
    ``transport`` is for a real httpx2 transport with other settings (local address,
    connection retries), never a mock. ``sleep`` waits between attempts (a test's own, to
    count the waits instead of sitting through them).

    Use it as an async context manager, or call :meth:`aclose` when done.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | ApiKey,
        integrations_url: str | None = None,
        *,
        timeout: float | httpx2.Timeout = DEFAULT_TIMEOUT,
        pacer: Pacer | None = None,
        retry: RetryPolicy | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        user_agent: str = DEFAULT_USER_AGENT,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._key = api_key if isinstance(api_key, ApiKey) else ApiKey(api_key)
        self.base_url = base_url.rstrip("/")
        self.integrations_url = None if integrations_url is None else integrations_url.rstrip("/")
        timeouts = timeout if isinstance(timeout, httpx2.Timeout) else httpx2.Timeout(timeout)
        self._pacer = pacer if pacer is not None else default_pacer()
        self._policy = retry if retry is not None else DEFAULT_POLICY
        # one TLS context for every client of the process (httpx2 would build one per
        # client, ~19 ms of CPU each); a transport given brings its own
        http = httpx2.AsyncClient(
            timeout=timeouts,
            follow_redirects=False,
            transport=transport,
            verify=shared_tls_context() if transport is None else True,
            headers={"User-Agent": user_agent, "Accept": "application/json"},
        )
        self._transport = Transport(
            http,
            base_url=self.base_url,
            integrations_url=self.integrations_url,
            pacer=self._pacer,
            policy=self._policy,
            body_timeout=timeouts.read if timeouts.read is not None else 15.0,
            max_body=max_response_bytes,
            key=self._key,
            sleep=sleep,
        )
        http.auth = KeyAuth(self._key, self._transport.origins)
        self._http = http

    @cached_property
    def conversations(self) -> ConversationsResource:
        """One conversation and the actions on it."""
        from .resources.conversations import ConversationsResource

        return ConversationsResource(self._transport)

    @cached_property
    def messages(self) -> MessagesResource:
        """A conversation's messages, and sending one."""
        from .resources.messages import MessagesResource

        return MessagesResource(self._transport)

    @cached_property
    def endusers(self) -> EndUsersResource:
        """Find, create and read end users; list their conversations."""
        from .resources.endusers import EndUsersResource

        return EndUsersResource(self._transport)

    @cached_property
    def agents(self) -> AgentsResource:
        """List, create, update and downgrade agents; presence."""
        from .resources.agents import AgentsResource

        return AgentsResource(self._transport)

    @cached_property
    def teams(self) -> TeamsResource:
        """Teams, their members and their members' presence."""
        from .resources.teams import TeamsResource

        return TeamsResource(self._transport)

    @cached_property
    def queues(self) -> QueuesResource:
        """Queues, their members, availability and waiting positions."""
        from .resources.queues import QueuesResource

        return QueuesResource(self._transport)

    @cached_property
    def tags(self) -> TagsResource:
        """List, create, read, (de)activate and delete tags; tag conversations."""
        from .resources.tags import TagsResource

        return TagsResource(self._transport)

    @cached_property
    def ratings(self) -> RatingsResource:
        """Offers, answers and statuses of a conversation's ratings."""
        from .resources.ratings import RatingsResource

        return RatingsResource(self._transport)

    @cached_property
    def custom_attributes(self) -> CustomAttributesResource:
        """Custom attributes' definitions, and values on users and conversations."""
        from .resources.custom_attributes import CustomAttributesResource

        return CustomAttributesResource(self._transport)

    @cached_property
    def contact_endpoints(self) -> ContactEndpointsResource:
        """Where customers can reach the organisation."""
        from .resources.contact_endpoints import ContactEndpointsResource

        return ContactEndpointsResource(self._transport)

    @cached_property
    def business_hours(self) -> BusinessHoursResource:
        """When the organisation is open."""
        from .resources.business_hours import BusinessHoursResource

        return BusinessHoursResource(self._transport)

    @cached_property
    def anonymization(self) -> AnonymizationResource:
        """Scrub personal data, and read the requests' status."""
        from .resources.anonymization import AnonymizationResource

        return AnonymizationResource(self._transport)

    @cached_property
    def search(self) -> SearchResource:
        """Find conversations."""
        from .resources.search import SearchResource

        return SearchResource(self._transport)

    @cached_property
    def integrations(self) -> IntegrationsResource:
        """The deprecated endpoint listing (needs ``integrations_url``)."""
        from .resources.integrations import IntegrationsResource

        return IntegrationsResource(self._transport)

    @cached_property
    def notes(self) -> NotesResource:
        """A conversation's internal notes."""
        from .resources.notes import NotesResource

        return NotesResource(self._transport)

    @cached_property
    def activity_log(self) -> ActivityLogResource:
        """Who did what to conversations, and when."""
        from .resources.activity_log import ActivityLogResource

        return ActivityLogResource(self._transport)

    @cached_property
    def links(self) -> LinksResource:
        """Link a conversation to a parent, list a parent's children."""
        from .resources.links import LinksResource

        return LinksResource(self._transport)

    @cached_property
    def organization(self) -> OrganizationResource:
        """Whose service this is."""
        from .resources.organization import OrganizationResource

        return OrganizationResource(self._transport)

    @cached_property
    def flows(self) -> FlowsResource:
        """The organisation's conversation flows."""
        from .resources.flows import FlowsResource

        return FlowsResource(self._transport)

    @cached_property
    def templates(self) -> TemplatesResource:
        """List and delete templates."""
        from .resources.templates import TemplatesResource

        return TemplatesResource(self._transport)

    @cached_property
    def webhooks(self) -> WebhooksResource:
        """Webhook subscriptions."""
        from .resources.webhooks import WebhooksResource

        return WebhooksResource(self._transport)

    @cached_property
    def analytics(self) -> AnalyticsResource:
        """Metrics and their records."""
        from .resources.analytics import AnalyticsResource

        return AnalyticsResource(self._transport)

    @cached_property
    def knowledge(self) -> KnowledgeResource:
        """The help centre."""
        from .resources.knowledge import KnowledgeResource

        return KnowledgeResource(self._transport)

    @cached_property
    def gateway(self) -> GatewayResource:
        """The team gateway's own operations (when ``base_url`` is a gateway's)."""
        from .resources.gateway import GatewayResource

        return GatewayResource(self._transport)

    @property
    def key(self) -> ApiKey:
        """The API key (its text shows ``****``)."""
        return self._key

    def use_key(self, api_key: str | ApiKey) -> None:
        """Send ``api_key`` from the next request on (a new key replacing a refused one);
        it goes to the same two origins only, and is scrubbed from errors like the first."""
        key = api_key if isinstance(api_key, ApiKey) else ApiKey(api_key)
        self._key = key
        self._transport.use_key(key)
        self._http.auth = KeyAuth(key, self._transport.origins)

    @property
    def pacer(self) -> Pacer:
        """The pacer every call of this client waits on."""
        return self._pacer

    @property
    def retry_policy(self) -> RetryPolicy:
        """How calls of this client are retried."""
        return self._policy

    @property
    def closed(self) -> bool:
        """Whether :meth:`aclose` was called."""
        return self._http.is_closed

    async def aclose(self) -> None:
        """Close the connections. The client cannot be used afterwards."""
        await self._http.aclose()

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return (
            f"ApiClient(base_url={self.base_url!r}, integrations_url={self.integrations_url!r}, "
            f"api_key={self._key!r})"
        )
