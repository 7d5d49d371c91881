"""Webhook deliveries: each change the activity log records becomes an event, POSTed to every
enabled subscription that asked for it.

``emit`` is called by ``activity.record`` inside the change's own transaction: it builds the
event's JSON once (a snapshot of the conversation as it is now) and queues one delivery job
per subscription, due at once, so a refused request sends nothing. The worker's job
``webhook.deliver`` prepares the attempt — the subscription's custom headers and
authorization, signed with its secret — and hands it to the delivery threads
(``webhooks_sender``), so no request of the API ever waits for a receiver. When the attempt
comes back, ``record_finished`` (a periodic rule of the worker, on the sandbox's thread)
writes it to the delivery log and, on a failure (no answer, or a status outside 2xx), queues
the next attempt after ``RETRY_DELAYS`` on the sandbox's clock — so tests move a ManualClock
and call ``run_pending`` (which waits until every attempt in flight came back) instead of
waiting.

Each delivery is signed and headed as the service's vendor documents it ("Security best
practices" for webhooks), so a receiver written from that page accepts it:
``X-DIXA-SIGNATURE: t=<unix ms>,v1=<hex>`` where ``v1`` is the HMAC-SHA256 of
``"<t>.<raw body>"`` keyed with the subscription's ``secretKey`` **hex-decoded**;
``X-DIXA-SUBSCRIPTION-ID`` names the subscription and ``Content-Type`` is
``application/json`` — none of the three can be overwritten by a custom header. The sandbox
adds ``X-Frontdesk-Event`` and ``X-Frontdesk-Delivery`` (the event's kind and id, the same on
each retry) for people reading deliveries; receivers need neither. A receiver refuses a
signature older than five minutes by default (``verify``). The scheme itself (``sign``,
``verify``, the two headers) is the contract's, in ``api.models.webhooks``: the team gateway
checks with the same code what the sandbox signs.

Deliveries go to loopback addresses only unless the sandbox was started to deliver anywhere
(``serve --webhooks-anywhere``): a sandbox should not reach out to the world unasked. A
delivery waits at most ``webhooks_sender.TIMEOUT`` seconds for its receiver, on a delivery
thread.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

# the signature scheme is the contract's (the gateway checks what the sandbox signs); sign,
# verify and the headers are offered here too, where the sandbox has always offered them
from ..api.models.webhooks import SIGNATURE_HEADER as SIGNATURE_HEADER
from ..api.models.webhooks import SUBSCRIPTION_HEADER as SUBSCRIPTION_HEADER
from ..api.models.webhooks import TOLERANCE as TOLERANCE
from ..api.models.webhooks import sign as sign
from ..api.models.webhooks import verify as verify
from . import origins, worker
from .context import SandboxContext
from .db import dumps, loads
from .webhooks_sender import Attempt

#: The activity log's kinds of entry, and the webhook event each one is.
EVENT_OF_ACTIVITY: dict[str, str] = {
    "ConversationCreatedByCustomer": "ConversationCreated",
    "ConversationCreatedByAgent": "ConversationCreated",
    "MessageAddedByCustomer": "ConversationMessageAdded",
    "MessageAddedByAgent": "ConversationMessageAdded",
    "ConversationClaimed": "ConversationAssigned",
    "ConversationAssigned": "ConversationAssigned",
    "ConversationUnassigned": "ConversationUnassigned",
    "TransferSuccessful": "ConversationTransferred",
    "TagAdded": "ConversationTagAdded",
    "TagRemoved": "ConversationTagRemoved",
    "FollowupAdded": "ConversationPending",
    "FollowupExpired": "ConversationPendingExpired",
    "FollowupRemoved": "ConversationOpen",
    "ConversationReopened": "ConversationOpen",
    "ConversationClosed": "ConversationClosed",
    "NoteAdded": "ConversationNoteAdded",
    "ConversationRated": "ConversationRated",
    "ConversationCustomAttributesUpdated": "ConversationCustomAttributeUpdated",
    "ConversationEndUserReplaced": "ConversationEndUserReplaced",
}

#: The activity log's kinds of entry after which the conversation may be waiting in a queue:
#: if it is, ``ConversationEnqueued`` is sent too. (``ConversationAbandoned`` is sent by the
#: state machine: a conversation closed while it waited in a queue, unanswered.)
ENQUEUED_BY = frozenset({"ConversationCreatedByCustomer", "TransferSuccessful",
                         "ConversationReopened", "FollowupExpired", "FollowupRemoved"})

#: Seconds to wait after the 1st, 2nd, … failed attempt; then the event is given up.
RETRY_DELAYS: tuple[float, ...] = (10, 60, 300, 1800, 7200)

#: The sandbox's own headers on every delivery (the vendor's, signature and subscription id,
#: are the contract's: ``api.models.webhooks``).
EVENT_HEADER = "X-Frontdesk-Event"
DELIVERY_HEADER = "X-Frontdesk-Delivery"
#: Headers the sandbox sets itself: a subscription's custom headers may not name them.
RESERVED_HEADERS = frozenset({
    "authorization", "content-type", "content-length", "host", "user-agent", "connection",
    "transfer-encoding", SIGNATURE_HEADER.lower(), SUBSCRIPTION_HEADER.lower(),
    EVENT_HEADER.lower(), DELIVERY_HEADER.lower(),
})
_JOB = "webhook.deliver"
_UPPER = re.compile(r"(?<!^)(?=[A-Z])")


def upper_snake(name: str) -> str:
    """``WidgetChat`` → ``WIDGET_CHAT`` (how event payloads write names)."""
    return _UPPER.sub("_", name).upper()


def _snake(name: str) -> str:
    return _UPPER.sub("_", name).lower()


# ------------------------------------------------------------------ events


def emit(ctx: SandboxContext, conversation_id: int, kind: str, author_id: str | None,
         at: str, details: dict[str, Any]) -> None:
    """Queue the event an activity entry stands for to every subscription that wants it
    (its filters see the change's origin, ``origins.current``). The caller owns the
    transaction."""
    event = EVENT_OF_ACTIVITY.get(kind)
    if event is not None:
        emit_event(ctx, conversation_id, event, author_id, at, details)
    if kind in ENQUEUED_BY:
        row = ctx.db.one("SELECT queue_id FROM conversations WHERE id = ?", (conversation_id,))
        if row is not None and row["queue_id"] is not None:
            emit_event(ctx, conversation_id, "ConversationEnqueued", author_id, at,
                       {"queueId": row["queue_id"]})


def emit_event(ctx: SandboxContext, conversation_id: int, event: str, author_id: str | None,
               at: str, details: dict[str, Any]) -> None:
    """Queue ``event`` to every subscription that wants it and whose filters it passes. The
    caller owns the transaction."""
    subscriptions = ctx.db.all("SELECT id, events, filters FROM webhooks WHERE enabled = 1")
    if not subscriptions:
        return
    conversation = ctx.db.one("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
    origin = origins.current()
    targets = [row["id"] for row in subscriptions
               if event in (loads(row["events"]) or [])
               and passes(loads(row["filters"]), conversation, origin)]
    if not targets:
        return
    event_id = ctx.new_id()
    payload = dumps(_payload(ctx, event, event_id, at, conversation, author_id, details))
    for webhook_id in targets:
        worker.enqueue(ctx, _JOB, {"webhook": webhook_id, "event": event, "eventId": event_id,
                                   "payload": payload, "attempt": 1}, delay=0)


def passes(filters: dict[str, Any] | None, conversation: Any,
           origin: str = origins.API) -> bool:
    """Whether a conversation's event gets through a subscription's filters: conditions on
    its ``InitialChannel``, its ``QueueId`` and the change's ``OperationOrigin`` (see
    ``origins``), each compared without case."""
    combined = (filters or {}).get("Conversation")
    if not combined or conversation is None:
        return True
    results = []
    for condition in combined.get("conditions", []):
        field = condition.get("field")
        if field == "InitialChannel":
            actual, values = _plain(conversation["channel"]), {_plain(v) for v in
                                                               condition["values"]}
        elif field == "QueueId":
            actual, values = (conversation["queue_id"] or "").lower(), {
                v.lower() for v in condition["values"]}
        elif field == "OperationOrigin":
            actual, values = origin.lower(), {v.lower() for v in condition["values"]}
        else:
            continue
        inside = actual in values
        results.append(inside if condition.get("_type") == "IsOneOf" else not inside)
    if not results:
        return True
    return all(results) if combined.get("strategy") == "All" else any(results)


def _plain(channel: str) -> str:
    """A channel compared without case or underscores (``pstn_phone`` is ``PstnPhone``)."""
    return channel.replace("_", "").lower()


def _person(ctx: SandboxContext, user_id: str | None) -> dict[str, Any] | None:
    if user_id is None:
        return None
    row = ctx.db.one("SELECT kind, display_name, email, phone_number, roles FROM users "
                     "WHERE id = ?", (user_id,))
    if row is None:
        return {"id": user_id, "name": None, "email": None, "phone": None, "roles": []}
    roles = ["Enduser"] if row["kind"] == "enduser" else (loads(row["roles"]) or ["Agent"])
    return {"id": user_id, "name": row["display_name"], "email": row["email"],
            "phone": row["phone_number"], "roles": roles}


def _conversation(ctx: SandboxContext, row: Any) -> dict[str, Any]:
    queue = None
    if row["queue_id"]:
        found = ctx.db.one("SELECT id, name FROM queues WHERE id = ?", (row["queue_id"],))
        queue = {"id": found["id"], "name": found["name"]} if found else None
    tags = [t["name"] for t in ctx.db.all(
        "SELECT t.name FROM conversation_tags ct JOIN tags t ON t.id = ct.tag_id "
        "WHERE ct.conversation_id = ? ORDER BY ct.tagged_at, t.name", (row["id"],))]
    return {
        "csid": row["id"], "channel": upper_snake(row["channel"]),
        "status": upper_snake(row["state"]),
        "direction": upper_snake(row["direction"] or "Inbound"),
        "queue": queue, "contact_point": row["to_email"] or row["to_number"],
        "requester": _person(ctx, row["requester_id"]),
        "assignee": _person(ctx, row["assigned_agent_id"]),
        "subject": row["subject"], "tags": tags, "created_at": row["created_at"],
    }


def _payload(ctx: SandboxContext, event: str, event_id: str, at: str, conversation: Any,
             author_id: str | None, details: dict[str, Any]) -> dict[str, Any]:
    """The event as sent: its id, kind, time, organisation, and the conversation with the
    change's own details (``text`` of a note, ``tag``, ``message_id``, …)."""
    data: dict[str, Any] = {}
    if conversation is not None:
        data["conversation"] = _conversation(ctx, conversation)
    for key, value in details.items():
        data["text" if key == "message" else _snake(key)] = value
    if author_id is not None:
        data["author"] = _person(ctx, author_id)
    name = ctx.db.get_meta("organization_name") or "Frontdesk Demo"
    return {"event_id": event_id, "event_fqn": upper_snake(event), "event_version": "1",
            "event_timestamp": at,
            "organization": {"id": ctx.organization_id, "name": name}, "data": data}


# ------------------------------------------------------------------ delivery


def allowed(ctx: SandboxContext, url: str) -> bool:
    """Whether the sandbox may deliver to ``url`` (loopback, unless told otherwise)."""
    return ctx.webhooks_anywhere or is_loopback(urlsplit(url).hostname)


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` names this machine: ``localhost`` or a loopback address (``127.0.0.1``,
    ``::1``, …). A name under ``.localhost`` is not taken: it would be resolved through DNS,
    which may send it anywhere."""
    host = (host or "").lower().rstrip(".")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def headers_for(row: Any, event: str, event_id: str, millis: int, body: bytes
                ) -> dict[str, str]:
    """Every header of one delivery: custom ones and authorization, then the vendor's own
    (signature, subscription id, content type), which nothing overwrites."""
    headers = dict(loads(row["custom_headers"]) or {})
    if row["authorization"]:
        headers["Authorization"] = row["authorization"]
    headers.update({
        "Content-Type": "application/json",
        "User-Agent": "frontdesk-sandbox-webhooks/1",
        SIGNATURE_HEADER: sign(row["secret_key"], millis, body),
        SUBSCRIPTION_HEADER: str(row["id"]),
        EVENT_HEADER: event,
        DELIVERY_HEADER: event_id,
    })
    return headers


@worker.job(_JOB)
def deliver(ctx: SandboxContext, job: dict[str, Any]) -> None:
    """Prepare one attempt to deliver one event to one subscription and hand it to the
    delivery threads (the subscription may have gone or been disabled since the event: then
    nothing is sent). An address the sandbox may not reach is logged as failed at once."""
    row = ctx.db.one("SELECT * FROM webhooks WHERE id = ?", (job["webhook"],))
    if row is None or not row["enabled"]:
        return
    body = str(job["payload"]).encode()
    millis = int(ctx.clock.now().timestamp() * 1000)
    if not allowed(ctx, row["url"]):
        _record(ctx, job, ctx.now_iso(), 0, "Not delivered: the sandbox delivers to loopback "
                "addresses only (serve --webhooks-anywhere lifts this)")
        return
    headers = headers_for(row, job["event"], job["eventId"], millis, body)
    ctx.deliveries.submit(row["id"], Attempt(job, row["url"], headers, body, ctx.now_iso()))


@worker.periodic
def record_finished(ctx: SandboxContext) -> int:
    """Write the attempts that came back from the delivery threads to the delivery log (and
    queue their retries); how many were written. The caller owns the transaction."""
    finished = ctx.deliveries.finished()
    for outcome in finished:
        _record(ctx, outcome.attempt.job, outcome.attempt.at, outcome.code, outcome.text)
    return len(finished)


def requeue(ctx: SandboxContext, attempts: list[Attempt]) -> None:
    """Queue again, due at once, attempts that were never sent (the sandbox stopped first).
    The caller owns the transaction."""
    for attempt in attempts:
        worker.enqueue(ctx, _JOB, attempt.job, delay=0)


def _record(ctx: SandboxContext, job: dict[str, Any], at: str, code: int, text: str) -> None:
    """One attempt in the delivery log, and the next one queued after a failure (nothing
    when the subscription was deleted meanwhile)."""
    if ctx.db.one("SELECT 1 FROM webhooks WHERE id = ?", (job["webhook"],)) is None:
        return
    success = 200 <= code < 300
    attempt = int(job["attempt"])
    ctx.db.run(
        "INSERT INTO webhook_deliveries (webhook_id, event, event_id, attempt, delivered_at, "
        "success, response_code, response_text, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (job["webhook"], job["event"], job["eventId"], attempt, at, int(success), code, text,
         job["payload"]))
    if not success and attempt <= len(RETRY_DELAYS):
        worker.enqueue(ctx, _JOB, {**job, "attempt": attempt + 1},
                       delay=RETRY_DELAYS[attempt - 1])


def delivery_detail(row: Any) -> dict[str, Any]:
    """One attempt as the API reports it."""
    return {"deliveryTimestamp": row["delivered_at"], "success": bool(row["success"]),
            "responseCode": row["response_code"], "responseText": row["response_text"]}

