"""Sandbox routes: queues, their members, chat availability and conversation positions.

A conversation *waits* in a queue while it is Open, unassigned and queued there (claim, close
and transfer take it out, through ``rules``). Positions are 1-based among the queue's waiting
conversations by ``queuedAt`` (then id).

A queue's chat channels are *Available* while at least one member is Online and Working with a
chat channel (InteractiveChat or Messaging) active; otherwise *NotAvailable*, with the number
of waiting conversations as ``queueSize``. An organisation whose meta ``chat_channels`` is
``none`` has no supported channel: availability is then a 409.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from ...api.models import (
    AVAILABILITY_CHANNELS,
    AvailabilityOutcome,
    BulkActionOutcome,
    ConversationPosition,
    CreateQueueInput,
    Envelope,
    Queue,
    QueueMember,
    QueueMembersInput,
)
from ..context import Ctx, SandboxContext, no_content, ok
from ..db import dumps, loads
from ..errors import ApiProblem, bad_request, conflict, not_found
from ..params import CsidPath, QueueIdPath

router = APIRouter(tags=["queues"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such queue"}}
#: The wire names a Queue record may carry (settings outside them are kept but not sent).
_QUEUE_KEYS = frozenset(field.alias or name for name, field in Queue.model_fields.items())
_COLUMNS = frozenset({"id", "name", "isDefault"})
_CHAT_CHANNELS = frozenset({"InteractiveChat", "Messaging"})
#: Conversations waiting in the queue named by the first parameter.
_WAITING = ("queue_id = ? AND state = 'Open' AND assigned_agent_id IS NULL "
            "AND queued_at IS NOT NULL")


def get_queue(ctx: SandboxContext, queue_id: str) -> Any:
    """The queue's row, or a 404."""
    row = ctx.db.one("SELECT * FROM queues WHERE id = ?", (queue_id,))
    if row is None:
        raise not_found(f"Queue {queue_id}")
    return row


def _defaults(organization_id: str, queue_id: str) -> dict[str, Any]:
    """The record's required settings, for a queue created without them."""
    return {
        "organizationId": organization_id,
        "queueThresholds": {},
        "slaCalculationMethod": "AbandonedIgnored",
        "doNotOfferTimeouts": {},
        "isDoNotOfferEnabled": False,
        "memberListType": "Default",
        "usages": {"queueId": queue_id, "usages": {}},
    }


def queue_record(row: Any, organization_id: str) -> dict[str, Any]:
    """A queue as the service sends it (stored settings over the defaults)."""
    out: dict[str, Any] = {"id": row["id"], "name": row["name"],
                           "isDefault": bool(row["is_default"])}
    out.update(_defaults(organization_id, row["id"]))
    settings = loads(row["settings"]) or {}
    out.update({k: v for k, v in settings.items()
                if k in _QUEUE_KEYS and k not in _COLUMNS and v is not None})
    return out


@router.get("/v1/queues", response_model=Envelope[list[Queue]], summary="List queues")
async def list_queues(ctx: Ctx) -> Response:
    """Every queue, by name."""
    organization_id = ctx.organization_id
    rows = ctx.db.all("SELECT * FROM queues ORDER BY name COLLATE NOCASE, id")
    return ok([queue_record(r, organization_id) for r in rows])


@router.post("/v1/queues", response_model=Envelope[Queue], summary="Create a queue")
async def create_queue(ctx: Ctx, body: CreateQueueInput) -> Response:
    """Create a queue; a new default queue makes every other queue non-default."""
    request = body.request
    name = request.name.strip()
    if not name:
        raise bad_request("Invalid value in request: name must not be blank")
    queue_id = ctx.new_id()
    given = request.wire()
    for key in ("name", "isDefault"):
        given.pop(key, None)
    if "offerAlgorithm" in given:
        given["offeringAlgorithm"] = given.pop("offerAlgorithm")
    settings = {**_defaults(ctx.organization_id, queue_id), **given}
    with ctx.db.tx():
        if request.is_default:
            ctx.db.run("UPDATE queues SET is_default = 0 WHERE is_default = 1")
        ctx.db.run(
            "INSERT INTO queues (id, name, is_default, settings, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (queue_id, name, int(request.is_default), dumps(settings), ctx.now_iso()),
        )
        row = get_queue(ctx, queue_id)
    return ok(queue_record(row, ctx.organization_id))


@router.get("/v1/queues/conversation-position/{csid}",
            response_model=Envelope[ConversationPosition],
            summary="Position of a conversation in its queue",
            responses={404: {"description": "No such conversation, or it is not waiting"}})
async def conversation_position(ctx: Ctx, csid: CsidPath) -> Response:
    """The conversation's 1-based place among those waiting in its queue."""
    row = ctx.db.one("SELECT * FROM conversations WHERE id = ?", (csid,))
    if row is None:
        raise not_found(f"Conversation {csid}")
    if (row["queue_id"] is None or row["queued_at"] is None or row["state"] != "Open"
            or row["assigned_agent_id"] is not None):
        raise ApiProblem(404, f"Conversation {csid} is not waiting in a queue")
    ahead = ctx.db.one(
        f"SELECT COUNT(*) AS n FROM conversations WHERE {_WAITING} AND (queued_at, id) < (?, ?)",
        (row["queue_id"], row["queued_at"], csid),
    )
    position = 1 + (int(ahead["n"]) if ahead is not None else 0)
    return ok({"position": position, "queuedAt": row["queued_at"]})


@router.get("/v1/queues/{queueId}", response_model=Envelope[Queue], summary="Get a queue",
            responses=_NOT_FOUND)
async def read_queue(ctx: Ctx, queue_id: QueueIdPath) -> Response:
    """One queue."""
    return ok(queue_record(get_queue(ctx, queue_id), ctx.organization_id))


@router.get("/v1/queues/{queueId}/members", response_model=Envelope[list[QueueMember]],
            summary="Members of a queue", responses=_NOT_FOUND)
async def queue_members(ctx: Ctx, queue_id: QueueIdPath) -> Response:
    """The agents and admins who take conversations from the queue."""
    get_queue(ctx, queue_id)
    rows = ctx.db.all("SELECT agent_id, priority FROM queue_members WHERE queue_id = ? "
                      "ORDER BY agent_id", (queue_id,))
    out: list[dict[str, Any]] = []
    for r in rows:
        member: dict[str, Any] = {"agentId": r["agent_id"]}
        if r["priority"] is not None:
            member["priority"] = r["priority"]
        out.append(member)
    return ok(out)


def _add_member(ctx: SandboxContext, queue_id: str, agent_id: str) -> dict[str, Any]:
    user = ctx.db.one("SELECT kind FROM users WHERE id = ?", (agent_id,))
    if user is None:
        error = {"_type": "NotFound", "id": agent_id, "message": "User not found"}
        return {"_type": "BulkActionFailure", "error": error}
    if user["kind"] != "agent":
        error = {"_type": "Validation", "id": agent_id,
                 "message": "Member is neither Agent or Admin"}
        return {"_type": "BulkActionFailure", "error": error}
    ctx.db.run("INSERT OR IGNORE INTO queue_members (queue_id, agent_id) VALUES (?, ?)",
               (queue_id, agent_id))
    return {"_type": "BulkActionSuccess", "data": agent_id}


@router.patch("/v1/queues/{queueId}/members", response_model=Envelope[list[BulkActionOutcome[str]]],
              summary="Assign agents to a queue", responses=_NOT_FOUND)
async def add_queue_members(ctx: Ctx, queue_id: QueueIdPath,
                            body: QueueMembersInput) -> Response:
    """Assign each agent; unknown users and end users fail alone."""
    with ctx.db.tx():
        get_queue(ctx, queue_id)
        outcomes = [_add_member(ctx, queue_id, agent_id) for agent_id in body.agent_ids]
    return ok(outcomes)


@router.delete("/v1/queues/{queueId}/members", status_code=204,
               summary="Remove agents from a queue", responses=_NOT_FOUND)
async def remove_queue_members(ctx: Ctx, queue_id: QueueIdPath,
                               body: QueueMembersInput) -> Response:
    """Remove agents from the queue (ids that are not members are ignored)."""
    with ctx.db.tx():
        get_queue(ctx, queue_id)
        ctx.db.run(
            f"DELETE FROM queue_members WHERE queue_id = ? AND agent_id IN "
            f"({', '.join('?' for _ in body.agent_ids)})",
            (queue_id, *body.agent_ids),
        )
    return no_content()


@router.get("/v1/queues/{queueId}/availability",
            response_model=Envelope[list[AvailabilityOutcome]],
            summary="Availability of the queue's chat channels",
            responses={400: {"description": "The queue does not exist"},
                       409: {"description": "The organisation has no supported channel"}})
async def queue_availability(ctx: Ctx, queue_id: QueueIdPath) -> Response:
    """One outcome per supported chat channel: Available, or NotAvailable with the queue size."""
    if ctx.db.one("SELECT 1 FROM queues WHERE id = ?", (queue_id,)) is None:
        raise bad_request(f"Invalid value in request: queue {queue_id} does not exist")
    if ctx.db.get_meta("chat_channels") == "none":
        raise conflict("No supported channel is configured for the organization")
    working = ctx.db.all(
        "SELECT p.channels FROM queue_members m JOIN presence p ON p.user_id = m.agent_id "
        "JOIN users u ON u.id = m.agent_id AND u.kind = 'agent' WHERE m.queue_id = ? "
        "AND p.connection_status = 'Online' AND p.presence_status = 'Working'",
        (queue_id,),
    )
    available = any(_CHAT_CHANNELS.intersection(loads(r["channels"]) or []) for r in working)
    availability: dict[str, Any] = {"availability": "Available" if available else "NotAvailable"}
    if not available:
        waiting = ctx.db.one(f"SELECT COUNT(*) AS n FROM conversations WHERE {_WAITING}",
                             (queue_id,))
        availability["queueSize"] = int(waiting["n"]) if waiting is not None else 0
    return ok([
        {"_type": "Success", "channelAvailability": {
            "_type": "GenericChannel", "genericChannelName": channel, **availability}}
        for channel in AVAILABILITY_CHANNELS
    ])
