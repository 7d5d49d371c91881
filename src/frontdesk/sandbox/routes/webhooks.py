"""Sandbox routes: webhook subscriptions (published beyond the spec's tables), their last
delivery status per event and each event's delivery log.

A subscription names a receiver's ``url`` (http or https), the ``events`` it wants, an
``authorization`` (Basic, Bearer token or none) and custom headers; the sandbox makes its
``secretKey``. What is delivered, how it is signed and retried: ``sandbox/webhooks.py``.
"""

from __future__ import annotations

import base64
import re
import secrets
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Path, Request
from starlette.responses import Response

from ...api.models import (
    BasicAuth,
    CreateWebhookInput,
    Envelope,
    EventDeliveryLog,
    EventDeliveryStatus,
    PatchWebhookInput,
    TokenAuth,
    WebhookEvent,
    WebhookSubscription,
)
from ...api.models.common import UUID_PATTERN
from .. import webhooks
from ..context import Ctx, SandboxContext, no_content, ok
from ..db import dumps, loads
from ..errors import bad_request, not_found

router = APIRouter(tags=["webhooks"])

WebhookIdPath = Annotated[
    str, Path(alias="webhookSubscriptionId", pattern=UUID_PATTERN,
              description="a webhook subscription id")
]
EventPath = Annotated[str, Path(alias="event", max_length=100,
                                description="a kind of event the subscription asked for")]

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such subscription"}}
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")
#: How many attempts an event's delivery log lists, newest first.
LOG_LIMIT = 100


def webhook_shape(row: Any) -> dict[str, Any]:
    """A subscription: its headers as sent (custom ones and the authorization)."""
    headers = dict(loads(row["custom_headers"]) or {})
    if row["authorization"]:
        headers["Authorization"] = row["authorization"]
    out: dict[str, Any] = {
        "id": row["id"], "name": row["name"], "subscribedEvents": loads(row["events"]) or [],
        "url": row["url"], "headers": headers, "secretKey": row["secret_key"],
        "enabled": bool(row["enabled"]), "createdAt": row["created_at"],
        "createdBy": row["created_by"], "updatedAt": row["updated_at"],
        "updatedBy": row["updated_by"],
    }
    filters = loads(row["filters"])
    if filters:
        out["filters"] = filters
    return out


def _url(value: str, request: Request) -> str:
    """A receiver's URL: http or https, one line, and not the sandbox itself (its API is no
    receiver: every delivery would be refused and retried)."""
    value = value.strip()
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  - a port out of range raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
            or any(ch.isspace() or ord(ch) < 32 for ch in value):
        raise bad_request("Invalid value in request: url must be an http or https URL")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if port == request.url.port and webhooks.is_loopback(parts.hostname):
        raise bad_request("Invalid value in request: the sandbox cannot deliver to itself")
    return value


def _authorization(value: Any) -> str | None:
    """The Authorization header a subscription sends, or None."""
    if isinstance(value, BasicAuth):
        if ":" in value.username:
            raise bad_request("Invalid value in request: a Basic username cannot hold ':'")
        pair = f"{value.username}:{value.password}".encode()
        return "Basic " + base64.b64encode(pair).decode()
    if isinstance(value, TokenAuth):
        if not _header_text(value.value):
            raise bad_request("Invalid value in request: the token must be one line of "
                              "printable ASCII (a header carries nothing else)")
        return "Bearer " + value.value.strip()
    return None


def _headers(value: dict[str, str]) -> dict[str, str]:
    for name, text in value.items():
        if not _TOKEN.match(name):
            raise bad_request(f"Invalid value in request: {name!r} is not a header name")
        if name.lower() in webhooks.RESERVED_HEADERS:
            raise bad_request(f"Invalid value in request: the sandbox sets {name} itself")
        if len(text) > 2000 or not _header_text(text):
            raise bad_request(f"Invalid value in request: header {name} must be one line of "
                              "printable ASCII (a header carries nothing else)")
    return dict(value)


def _header_text(text: str) -> bool:
    """Whether ``text`` can be a header's value as sent: printable ASCII and tabs (what is
    not would fail every delivery, so it is refused when the subscription is made)."""
    return text.isascii() and all(ch == "\t" or 32 <= ord(ch) < 127 for ch in text)


def _events(value: list[WebhookEvent] | None) -> list[str]:
    return list(dict.fromkeys(str(e) for e in value or []))


def _filters(value: dict[str, Any] | None) -> str | None:
    if not value:
        return None
    for entity in value:
        if entity != "Conversation":
            raise bad_request("Invalid value in request: filters apply to Conversation only")
    return dumps({k: v.model_dump(mode="json", by_alias=True) for k, v in value.items()})


def _get(ctx: SandboxContext, webhook_id: str) -> Any:
    row = ctx.db.one("SELECT * FROM webhooks WHERE id = ?", (webhook_id.lower(),))
    if row is None:
        raise not_found(f"Webhook subscription {webhook_id}")
    return row


@router.get("/v1/webhooks", response_model=Envelope[list[WebhookSubscription]],
            summary="List webhook subscriptions")
async def list_webhooks(ctx: Ctx) -> Response:
    """Every subscription of the organisation, oldest first."""
    rows = ctx.db.all("SELECT * FROM webhooks ORDER BY created_at, id")
    return ok([webhook_shape(r) for r in rows])


@router.post("/v1/webhooks", status_code=201, response_model=Envelope[WebhookSubscription],
             summary="Create a webhook subscription",
             responses={400: {"description": "Invalid body: a bad url, header or event"}})
async def create_webhook(ctx: Ctx, request: Request, body: CreateWebhookInput) -> Response:
    """A new subscription, enabled unless told otherwise, with a fresh secret key."""
    if not body.name.strip():
        raise bad_request("Invalid value in request: name must not be blank")
    webhook_id, now = ctx.new_id(), ctx.now_iso()
    with ctx.db.tx():
        ctx.db.run(
            "INSERT INTO webhooks (id, name, url, events, authorization, custom_headers, "
            "secret_key, enabled, filters, created_at, created_by, updated_at, updated_by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (webhook_id, body.name.strip(), _url(body.url, request), dumps(_events(body.events)),
             _authorization(body.authorization), dumps(_headers(body.custom_headers)),
             secrets.token_hex(32), int(body.enabled is not False), _filters(body.filters),
             now, ctx.api_user_id, now, ctx.api_user_id))
        row = _get(ctx, webhook_id)
    return ok(webhook_shape(row), status=201)


@router.get("/v1/webhooks/{webhookSubscriptionId}", response_model=Envelope[WebhookSubscription],
            summary="Get a webhook subscription", responses=_NOT_FOUND)
async def get_webhook(ctx: Ctx, webhook_id: WebhookIdPath) -> Response:
    """One subscription."""
    return ok(webhook_shape(_get(ctx, webhook_id)))


@router.patch("/v1/webhooks/{webhookSubscriptionId}",
              response_model=Envelope[WebhookSubscription],
              summary="Change a webhook subscription",
              responses={**_NOT_FOUND, 400: {"description": "Invalid body"}})
async def patch_webhook(ctx: Ctx, request: Request, webhook_id: WebhookIdPath,
                        body: PatchWebhookInput) -> Response:
    """Change the members given; the others stay."""
    changes: dict[str, Any] = {}
    if body.name is not None:
        if not body.name.strip():
            raise bad_request("Invalid value in request: name must not be blank")
        changes["name"] = body.name.strip()
    if body.url is not None:
        changes["url"] = _url(body.url, request)
    if body.events is not None:
        changes["events"] = dumps(_events(body.events))
    if body.authorization is not None:
        changes["authorization"] = _authorization(body.authorization)
    if body.custom_headers is not None:
        changes["custom_headers"] = dumps(_headers(body.custom_headers))
    if body.enabled is not None:
        changes["enabled"] = int(body.enabled)
    if body.filters is not None:
        changes["filters"] = _filters(body.filters)
    with ctx.db.tx():
        row = _get(ctx, webhook_id)
        changes.update(updated_at=ctx.now_iso(), updated_by=ctx.api_user_id)
        columns = ", ".join(f"{column} = ?" for column in changes)
        ctx.db.run(f"UPDATE webhooks SET {columns} WHERE id = ?",
                   (*changes.values(), row["id"]))
        row = _get(ctx, row["id"])
    return ok(webhook_shape(row))


@router.delete("/v1/webhooks/{webhookSubscriptionId}", status_code=204,
               summary="Delete a webhook subscription", responses=_NOT_FOUND)
async def delete_webhook(ctx: Ctx, webhook_id: WebhookIdPath) -> Response:
    """Delete the subscription and its delivery log; nothing more is sent to it."""
    with ctx.db.tx():
        row = _get(ctx, webhook_id)
        ctx.db.run("DELETE FROM webhooks WHERE id = ?", (row["id"],))
    return no_content()


@router.get("/v1/webhooks/{webhookSubscriptionId}/delivery-status",
            response_model=Envelope[list[EventDeliveryStatus]],
            summary="Last delivery status of each subscribed event", responses=_NOT_FOUND)
async def delivery_status(ctx: Ctx, webhook_id: WebhookIdPath) -> Response:
    """For each event the subscription asks for: its last delivery, or NoRecentDelivery."""
    row = _get(ctx, webhook_id)
    out = []
    for event in loads(row["events"]) or []:
        last = ctx.db.one("SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND event = ? "
                          "ORDER BY seq DESC LIMIT 1", (row["id"], event))
        status = ({**webhooks.delivery_detail(last), "_type": "DeliveryDetail"}
                  if last is not None else {"_type": "NoRecentDelivery"})
        out.append({"event": event, "deliveryStatus": status})
    return ok(out)


@router.get("/v1/webhooks/{webhookSubscriptionId}/delivery-status/logs/{event}",
            response_model=Envelope[list[EventDeliveryLog]],
            summary="Delivery log of one event",
            responses={**_NOT_FOUND, 400: {"description": "Not a kind of event"}})
async def delivery_logs(ctx: Ctx, webhook_id: WebhookIdPath, event: EventPath) -> Response:
    """The latest attempts to deliver ``event``, newest first, each with what was sent."""
    if event not in set(WebhookEvent):
        raise bad_request(f"Invalid value in request: {event!r} is not a kind of event")
    row = _get(ctx, webhook_id)
    rows = ctx.db.all("SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND event = ? "
                      "ORDER BY seq DESC LIMIT ?", (row["id"], event, LOG_LIMIT))
    return ok([{"deliveryDetail": webhooks.delivery_detail(r), "payload": r["payload"]}
               for r in rows])
