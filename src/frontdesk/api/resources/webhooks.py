"""Webhooks: subscriptions that have the service POST events to a receiver, and what became of
each delivery."""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any

from ..models.webhooks import (
    CreateWebhookInput,
    EventDeliveryLog,
    EventDeliveryStatus,
    PatchWebhookInput,
    WebhookEvent,
    WebhookSubscription,
)
from ..operations import operation
from ..pacing import Priority
from ._base import Resource, build, check_uuid, fail, parse_items, parse_one, unwrap

__all__ = ["WebhooksResource"]

_LIST = operation("webhooks.list")
_CREATE = operation("webhooks.create")
_GET = operation("webhooks.get")
_UPDATE = operation("webhooks.update")
_DELETE = operation("webhooks.delete")
_STATUS = operation("webhooks.delivery_status")
_LOG = operation("webhooks.delivery_log")

_ID = "webhook subscription id"


class WebhooksResource(Resource):
    """``client.webhooks``: create, read, change and delete webhook subscriptions, and read
    their delivery status and logs. (Published beyond the spec's tables.)"""

    async def list(self, *, priority: Priority = Priority.INTERACTIVE
                   ) -> builtins.list[WebhookSubscription]:
        """Every subscription of the organisation."""
        reply = await self._transport.send(_LIST, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), WebhookSubscription)

    async def create(
        self,
        subscription: CreateWebhookInput | Mapping[str, Any] | None = None,
        *,
        name: str | None = None,
        url: str | None = None,
        events: builtins.list[WebhookEvent | str] | None = None,
        authorization: Mapping[str, Any] | None = None,
        custom_headers: Mapping[str, str] | None = None,
        enabled: bool | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> WebhookSubscription:
        """A new subscription (a whole input, or its members by keyword: no authorization and
        no custom headers unless given). Not retried after it may have reached the service (a
        second try could subscribe twice)."""
        if subscription is None:
            subscription = {
                "name": name, "url": url, "events": events,
                "authorization": dict(authorization or {"_type": "NoAuth"}),
                "customHeaders": dict(custom_headers or {}), "enabled": enabled,
            }
            subscription = {k: v for k, v in subscription.items() if v is not None}
        body = build(_CREATE, CreateWebhookInput, subscription)
        reply = await self._transport.send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), WebhookSubscription)

    async def get(self, webhook_id: str, *, priority: Priority = Priority.INTERACTIVE
                  ) -> WebhookSubscription:
        """One subscription."""
        path = {"webhookSubscriptionId": check_uuid(webhook_id, _GET, _ID)}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), WebhookSubscription)

    async def update(
        self,
        webhook_id: str,
        changes: PatchWebhookInput | Mapping[str, Any],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> WebhookSubscription:
        """Change the members given (``enabled``, ``events``, ``url``, …); the others stay."""
        path = {"webhookSubscriptionId": check_uuid(webhook_id, _UPDATE, _ID)}
        body = build(_UPDATE, PatchWebhookInput, changes)
        if not body.wire():
            raise fail(_UPDATE, "Give at least one member to change")
        reply = await self._transport.send(_UPDATE, path=path, body=body.wire(), priority=priority)
        return parse_one(_UPDATE, unwrap(_UPDATE, reply.body), WebhookSubscription)

    async def delete(self, webhook_id: str, *, priority: Priority = Priority.INTERACTIVE
                     ) -> None:
        """Delete a subscription and its delivery log; nothing more is sent to it."""
        path = {"webhookSubscriptionId": check_uuid(webhook_id, _DELETE, _ID)}
        await self._transport.send(_DELETE, path=path, priority=priority)

    async def delivery_status(self, webhook_id: str, *,
                              priority: Priority = Priority.INTERACTIVE
                              ) -> builtins.list[EventDeliveryStatus]:
        """The last delivery of each subscribed event (or ``NoRecentDelivery``)."""
        path = {"webhookSubscriptionId": check_uuid(webhook_id, _STATUS, _ID)}
        reply = await self._transport.send(_STATUS, path=path, priority=priority)
        return parse_items(_STATUS, unwrap(_STATUS, reply.body), EventDeliveryStatus)

    async def delivery_log(self, webhook_id: str, event: WebhookEvent | str, *,
                           priority: Priority = Priority.INTERACTIVE
                           ) -> builtins.list[EventDeliveryLog]:
        """The latest attempts to deliver one kind of event, newest first, each with the
        JSON text that was sent."""
        if event not in set(WebhookEvent):
            raise fail(_LOG, f"{event!r} is not a kind of webhook event")
        path = {"webhookSubscriptionId": check_uuid(webhook_id, _LOG, _ID),
                "event": str(event)}
        reply = await self._transport.send(_LOG, path=path, priority=priority)
        return parse_items(_LOG, unwrap(_LOG, reply.body), EventDeliveryLog)
