"""The async client of the Customer Conversation Service API v1.

    async with ApiClient("https://dev.example.com", api_key) as client:
        async for agent in client.agents.list(page_size=100):
            ...
        await client.conversations.claim(12, agent_id, force=False)

One :class:`ApiClient` owns one ``httpx.AsyncClient`` (keep-alive; connect 5 s, read 15 s;
redirects never followed) and offers one resource object per API group. Every call is paced
(:class:`~frontdesk.api.pacing.Pacer`), retried when that is safe
(:class:`~frontdesk.api.retry.RetryPolicy`), fails with a typed
:class:`~frontdesk.api.errors.ApiError` and returns the contract's models with the ``data``
envelope unwrapped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import TracebackType

import httpx

from .. import __version__
from .bodies import MAX_RESPONSE_BYTES
from .origins import KeyAuth
from .pacing import Pacer
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
from .retry import DEFAULT_POLICY, RetryPolicy
from .secrets import ApiKey
from .transport import DEFAULT_TIMEOUT, Transport, remember_no_sniffio

__all__ = [
    "DEFAULT_BURST",
    "DEFAULT_RATE",
    "DEFAULT_USER_AGENT",
    "ApiClient",
    "default_pacer",
]

DEFAULT_USER_AGENT = f"frontdesk/{__version__} (python-httpx/{httpx.__version__})"


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
    ``transport`` is for a real httpx transport with other settings (local address,
    connection retries), never a mock. ``sleep`` waits between attempts (a test's own, to
    count the waits instead of sitting through them).

    Use it as an async context manager, or call :meth:`aclose` when done.
    """

    conversations: ConversationsResource
    messages: MessagesResource
    endusers: EndUsersResource
    agents: AgentsResource
    teams: TeamsResource
    queues: QueuesResource
    tags: TagsResource
    ratings: RatingsResource
    custom_attributes: CustomAttributesResource
    contact_endpoints: ContactEndpointsResource
    business_hours: BusinessHoursResource
    anonymization: AnonymizationResource
    search: SearchResource
    integrations: IntegrationsResource
    notes: NotesResource
    activity_log: ActivityLogResource
    links: LinksResource
    organization: OrganizationResource
    flows: FlowsResource
    templates: TemplatesResource
    webhooks: WebhooksResource
    analytics: AnalyticsResource
    knowledge: KnowledgeResource
    gateway: GatewayResource

    def __init__(
        self,
        base_url: str,
        api_key: str | ApiKey,
        integrations_url: str | None = None,
        *,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        pacer: Pacer | None = None,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        user_agent: str = DEFAULT_USER_AGENT,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._key = api_key if isinstance(api_key, ApiKey) else ApiKey(api_key)
        self.base_url = base_url.rstrip("/")
        self.integrations_url = None if integrations_url is None else integrations_url.rstrip("/")
        timeouts = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        remember_no_sniffio()
        self._pacer = pacer if pacer is not None else default_pacer()
        self._policy = retry if retry is not None else DEFAULT_POLICY
        http = httpx.AsyncClient(
            timeout=timeouts,
            follow_redirects=False,
            transport=transport,
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
        self.conversations = ConversationsResource(self._transport)
        self.messages = MessagesResource(self._transport)
        self.endusers = EndUsersResource(self._transport)
        self.agents = AgentsResource(self._transport)
        self.teams = TeamsResource(self._transport)
        self.queues = QueuesResource(self._transport)
        self.tags = TagsResource(self._transport)
        self.ratings = RatingsResource(self._transport)
        self.custom_attributes = CustomAttributesResource(self._transport)
        self.contact_endpoints = ContactEndpointsResource(self._transport)
        self.business_hours = BusinessHoursResource(self._transport)
        self.anonymization = AnonymizationResource(self._transport)
        self.search = SearchResource(self._transport)
        self.integrations = IntegrationsResource(self._transport)
        self.notes = NotesResource(self._transport)
        self.activity_log = ActivityLogResource(self._transport)
        self.links = LinksResource(self._transport)
        self.organization = OrganizationResource(self._transport)
        self.flows = FlowsResource(self._transport)
        self.templates = TemplatesResource(self._transport)
        self.webhooks = WebhooksResource(self._transport)
        self.analytics = AnalyticsResource(self._transport)
        self.knowledge = KnowledgeResource(self._transport)
        #: the team gateway's own operations (when ``base_url`` is a gateway's)
        self.gateway = GatewayResource(self._transport)

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
