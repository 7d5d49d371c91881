"""Webhooks for the Admin mode: subscriptions, their last delivery per event and an event's
delivery log. Every method returns typed records or raises :class:`~.people.Refused` with the
sentence a person reads. No Textual here.

The ``webhooks:status`` topic keeps the last deliveries of the subscription the section shows
(``followed``) current: one request every :data:`STATUS_INTERVAL` seconds while the section is
in front, none otherwise; the value is equal when nothing was delivered meanwhile, so the
section repaints only for a new delivery."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..api.errors import NotFound
from ..api.models import EventDeliveryLog, EventDeliveryStatus, WebhookEvent, WebhookSubscription
from ..api.pacing import Priority
from .errors import Refused, refusals
from .topics import TopicKey

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .hub import Hub

__all__ = ["EVENTS", "STATUS_INTERVAL", "STATUS_TOPIC", "Deliveries", "WebhooksStore",
           "check_url"]

#: Every kind of event a subscription can ask for, in the order the picker lists them.
EVENTS: tuple[str, ...] = tuple(e.value for e in WebhookEvent)


def check_url(url: str) -> str:
    """A receiver's URL, or a refusal saying what is wrong with it."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise Refused("The URL must start with http:// or https:// and name a host")
    return url


@dataclass(frozen=True, slots=True)
class Deliveries:
    """The last delivery of each event of one subscription."""

    webhook_id: str
    statuses: tuple[EventDeliveryStatus, ...]


STATUS_TOPIC: TopicKey[Deliveries | None] = TopicKey("webhooks:status")
#: Seconds between two reads of the shown subscription's last deliveries.
STATUS_INTERVAL = 15.0


class WebhooksStore:
    """What the Admin → Webhooks section reads and changes."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        #: the subscription whose last deliveries the status topic keeps current
        self.followed: str | None = None
        hub.live.add(STATUS_TOPIC, self._fetch_status, STATUS_INTERVAL)

    @property
    def client(self) -> ApiClient:
        """The session's API client."""
        return self._hub.client

    async def subscriptions(self) -> list[WebhookSubscription]:
        """Every subscription, by name."""
        with refusals("Could not list webhooks"):
            found = await self.client.webhooks.list()
        return sorted(found, key=lambda w: w.name.casefold())

    async def create(self, name: str, url: str, events: set[str], token: str = "",
                     enabled: bool = True) -> WebhookSubscription:
        """A new subscription (a bearer ``token`` when given)."""
        name = name.strip()
        if not name:
            raise Refused("A webhook needs a name")
        body: dict[str, Any] = {
            "name": name, "url": check_url(url), "events": _ordered(events),
            "authorization": ({"_type": "TokenAuth", "value": token.strip()} if token.strip()
                              else {"_type": "NoAuth"}),
            "customHeaders": {}, "enabled": enabled,
        }
        with refusals("Could not create the webhook"):
            return await self.client.webhooks.create(body)

    async def update(self, webhook_id: str, **changes: Any) -> WebhookSubscription:
        """Change ``name``, ``url``, ``events`` (a set), ``enabled`` or ``token`` ("" keeps
        the authorization as it is)."""
        body: dict[str, Any] = {}
        if "name" in changes:
            if not str(changes["name"]).strip():
                raise Refused("A webhook needs a name")
            body["name"] = str(changes["name"]).strip()
        if "url" in changes:
            body["url"] = check_url(str(changes["url"]))
        if "events" in changes:
            body["events"] = _ordered(changes["events"])
        if "enabled" in changes:
            body["enabled"] = bool(changes["enabled"])
        if str(changes.get("token") or "").strip():
            body["authorization"] = {"_type": "TokenAuth", "value": str(changes["token"]).strip()}
        if not body:
            raise Refused("Nothing to change")
        with refusals("Could not change the webhook"):
            return await self.client.webhooks.update(webhook_id, body)

    async def delete(self, webhook_id: str) -> None:
        """Delete a subscription and its delivery log."""
        with refusals("Could not delete the webhook"):
            await self.client.webhooks.delete(webhook_id)

    async def status(self, webhook_id: str) -> list[EventDeliveryStatus]:
        """The last delivery of each subscribed event."""
        with refusals("Could not read the delivery status"):
            return await self.client.webhooks.delivery_status(webhook_id)

    async def _fetch_status(self) -> Deliveries | None:
        """The followed subscription's last deliveries (None: none followed, or deleted)."""
        webhook_id = self.followed
        if webhook_id is None:
            return None
        try:
            statuses = await self.client.webhooks.delivery_status(
                webhook_id, priority=Priority.BACKGROUND)
        except NotFound:
            return None
        return Deliveries(webhook_id, tuple(statuses))

    async def log(self, webhook_id: str, event: str) -> list[EventDeliveryLog]:
        """The latest attempts to deliver one kind of event, newest first."""
        with refusals("Could not read the delivery log"):
            return await self.client.webhooks.delivery_log(webhook_id, event)


def _ordered(events: Any) -> list[str]:
    chosen = set(events)
    return [e for e in EVENTS if e in chosen]

