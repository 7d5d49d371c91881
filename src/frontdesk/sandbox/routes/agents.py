"""Sandbox routes: agents and admins, their presence and their working channels.

* PUT (one or in bulk) is a full update: optional fields it does not carry are cleared; the
  email address never changes. PATCH changes only the fields it carries (``null`` clears one;
  ``displayName`` cannot be cleared). A patch that changes nothing is refused.
* Bulk operations answer one outcome per item, in order: ``BulkActionSuccess`` with the agent,
  or ``BulkActionFailure`` (``NotFound``, ``Validation``, ``EmptyPatchSet``); the items that
  succeed are kept even when others fail.
* DELETE downgrades the agent to an end user (same id): roles, presence, team and queue
  memberships go. Conversations assigned to them stay assigned (history is not rewritten);
  claim or transfer moves them on.
* Working channels: an agent who turns a channel on or off comes Online now; they are
  ``Working`` while any channel is active, else ``Away``.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from starlette.responses import Response

from ...api.models import (
    Agent,
    BulkActionOutcome,
    BulkCreateAgentsInput,
    BulkPatchAgentItem,
    BulkUpdateAgentItem,
    CreateAgentInput,
    Envelope,
    IdRef,
    PagedEnvelope,
    PatchAgentInput,
    UpdateAgentInput,
    UserPresence,
    WorkingChannel,
    WorkingChannelInput,
)
from .. import records, shapes
from ..bulk import failure, outcome, success
from ..context import Ctx, SandboxContext, no_content, ok, raw
from ..db import loads
from ..errors import ApiProblem, bad_request, not_found
from ..params import AgentIdPath
from .endusers import PageKey, PageLimit, users_page

router = APIRouter(tags=["agents"])

#: Optional agent fields, as columns (the lists stored as JSON by ``records.update_user``).
_OPTIONAL = ("phone_number", "additional_emails", "additional_phone_numbers", "first_name",
             "last_name", "middle_names", "avatar_url")

#: Presence of every user row ``u`` (agents without a presence row are Offline and Away).
PRESENCE_SELECT = (
    "SELECT u.id AS user_id, COALESCE(p.connection_status, 'Offline') AS connection_status, "
    "COALESCE(p.presence_status, 'Away') AS presence_status, p.last_seen AS last_seen, "
    "COALESCE(p.channels, '[]') AS channels, u.created_at AS created_at "
    "FROM users u LEFT JOIN presence p ON p.user_id = u.id"
)
_CHANNEL_ORDER = [c.value for c in WorkingChannel]

BulkUpdateBody = Annotated[list[BulkUpdateAgentItem], Body(min_length=1, max_length=500)]
BulkPatchBody = Annotated[list[BulkPatchAgentItem], Body(min_length=1, max_length=500)]
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such agent"}}


# ---------------------------------------------------------------- rows and changes


def get_agent(ctx: SandboxContext, agent_id: str) -> Any:
    """The agent's (or admin's) row, or a 404 (an end user's id is not an agent)."""
    row = ctx.db.one("SELECT * FROM users WHERE id = ? AND kind = 'agent'", (agent_id,))
    if row is None:
        raise not_found(f"Agent {agent_id}")
    return row


def _check_display_name(name: str | None) -> None:
    if name is None or not name.strip():
        raise bad_request("Invalid value in request: displayName must not be blank")


def _write(ctx: SandboxContext, agent_id: str, changes: dict[str, Any]) -> Any:
    """Store ``changes`` (column → value) and answer the agent's new row."""
    records.update_user(ctx.db, agent_id, changes)
    return get_agent(ctx, agent_id)


def replace_agent(ctx: SandboxContext, agent_id: str, body: UpdateAgentInput) -> Any:
    """A full update: the optional fields not given are cleared; the email stays."""
    get_agent(ctx, agent_id)
    _check_display_name(body.display_name)
    changes = {"display_name": body.display_name}
    changes.update({field: getattr(body, field) for field in _OPTIONAL})
    return _write(ctx, agent_id, changes)


def patch_changes(body: PatchAgentInput) -> dict[str, Any]:
    """The columns a patch changes (only the fields it carries)."""
    changes = {f: getattr(body, f) for f in body.model_fields_set
               if f == "display_name" or f in _OPTIONAL}
    if "display_name" in changes:
        _check_display_name(changes["display_name"])
    return changes


def create_agent_row(ctx: SandboxContext, body: CreateAgentInput) -> Any:
    """A new agent; a 400 when an agent already has that email address (any case)."""
    _check_display_name(body.display_name)
    if ctx.db.one("SELECT 1 FROM users WHERE kind = 'agent' AND email = ? COLLATE NOCASE",
                  (body.email,)):
        raise bad_request(f"An agent with email '{body.email}' already exists")
    agent_id = records.insert_user(
        ctx.db, kind="agent", created_at=ctx.now_iso(), id=ctx.new_id(),
        **body.model_dump(exclude_none=True, by_alias=False),
    )
    return get_agent(ctx, agent_id)


# ---------------------------------------------------------------- presence


def _presence_of(ctx: SandboxContext, agent_id: str) -> Any:
    row = ctx.db.one(PRESENCE_SELECT + " WHERE u.id = ? AND u.kind = 'agent'", (agent_id,))
    if row is None:
        raise not_found(f"Agent {agent_id}")
    return row


# ---------------------------------------------------------------- routes: collection


@router.get("/v1/agents", response_model=PagedEnvelope[Agent], summary="List agents and admins",
            responses={400: {"description": "Both filters given, or a bad page key"}})
async def list_agents(
    ctx: Ctx,
    request: Request,
    limit: PageLimit = None,
    key: PageKey = None,
    email: Annotated[str | None, Query(description="exact address, any case")] = None,
    phone: Annotated[str | None, Query(description="exact phone number")] = None,
) -> Response:
    """Agents and admins, oldest first; filter by email or by phone, never both."""
    if email is not None and phone is not None:
        raise bad_request("Invalid value in request: filter by email or by phone, not both")
    page, meta = users_page(ctx, request, "agent", limit, key, email=email, phone_number=phone)
    return ok([shapes.agent(r) for r in page], meta=meta)


@router.post("/v1/agents", response_model=Envelope[Agent], summary="Create an agent",
             responses={400: {"description": "Invalid body, or the email is an agent's"}})
async def create_agent(ctx: Ctx, body: CreateAgentInput) -> Response:
    """Create an agent (role ``Agent``), Offline and Away."""
    with ctx.db.tx():
        row = create_agent_row(ctx, body)
    return ok(shapes.agent(row))


@router.put("/v1/agents", response_model=Envelope[list[BulkActionOutcome[Agent]]],
            summary="Update agents in bulk (full update)")
async def bulk_update_agents(ctx: Ctx, body: BulkUpdateBody) -> Response:
    """A full update per item; unknown ids fail alone with ``NotFound``."""
    with ctx.db.tx():
        outcomes = [outcome(item.id, "Agent", partial(replace_agent, ctx, item.id, item),
                                   shapes.agent)
                    for item in body]
    return ok(outcomes)


@router.patch("/v1/agents", response_model=Envelope[list[BulkActionOutcome[Agent]]],
              summary="Patch agents in bulk")
async def bulk_patch_agents(ctx: Ctx, body: BulkPatchBody) -> Response:
    """A partial update per item; an item that changes nothing fails with ``EmptyPatchSet``."""
    outcomes: list[dict[str, Any]] = []
    with ctx.db.tx():
        for item in body:
            if ctx.db.one("SELECT 1 FROM users WHERE id = ? AND kind = 'agent'",
                          (item.id,)) is None:
                outcomes.append(failure("NotFound", "Agent not found", item.id))
                continue
            try:
                changes = patch_changes(item)
            except ApiProblem as problem:
                outcomes.append(failure("Validation", problem.message, item.id))
                continue
            if not changes:
                outcomes.append(failure("EmptyPatchSet", "Nothing to change", item.id))
                continue
            outcomes.append(success(shapes.agent(_write(ctx, item.id, changes))))
    return ok(outcomes)


@router.post("/v1/agents/bulk", response_model=Envelope[list[BulkActionOutcome[Agent]]],
             summary="Create agents in bulk")
async def bulk_create_agents(ctx: Ctx, body: BulkCreateAgentsInput) -> Response:
    """Create each agent; a duplicate email fails alone with ``Validation``."""
    with ctx.db.tx():
        outcomes = [outcome(None, "Agent", partial(create_agent_row, ctx, item),
                                   shapes.agent) for item in body.data]
    return ok(outcomes)


@router.get("/v1/agents/presence", response_model=list[UserPresence],
            summary="Presence of every agent and admin")
async def all_presence(ctx: Ctx) -> Response:
    """Presence of every agent and admin: a bare JSON array, as the service sends it."""
    now = ctx.now_iso()
    rows = ctx.db.all(PRESENCE_SELECT + " WHERE u.kind = 'agent' ORDER BY u.created_at, u.id")
    return raw([shapes.presence(r, now) for r in rows])


# ---------------------------------------------------------------- routes: one agent


@router.get("/v1/agents/{agentId}", response_model=Envelope[Agent], summary="Get an agent",
            responses=_NOT_FOUND)
async def read_agent(ctx: Ctx, agent_id: AgentIdPath) -> Response:
    """One agent or admin."""
    return ok(shapes.agent(get_agent(ctx, agent_id)))


@router.put("/v1/agents/{agentId}", response_model=Envelope[Agent], summary="Update an agent",
            responses=_NOT_FOUND)
async def update_agent(ctx: Ctx, agent_id: AgentIdPath, body: UpdateAgentInput) -> Response:
    """A full update: optional fields not given are cleared; the email cannot change."""
    with ctx.db.tx():
        row = replace_agent(ctx, agent_id, body)
    return ok(shapes.agent(row))


@router.patch("/v1/agents/{agentId}", response_model=Envelope[Agent], summary="Patch an agent",
              responses=_NOT_FOUND)
async def patch_agent(ctx: Ctx, agent_id: AgentIdPath, body: PatchAgentInput) -> Response:
    """Change only the fields given; a patch with nothing in it is a 400."""
    with ctx.db.tx():
        get_agent(ctx, agent_id)
        changes = patch_changes(body)
        if not changes:
            raise bad_request("Invalid value in request: the patch changes nothing")
        row = _write(ctx, agent_id, changes)
    return ok(shapes.agent(row))


@router.delete("/v1/agents/{agentId}", status_code=204,
               summary="Downgrade an agent to an end user", responses=_NOT_FOUND)
async def downgrade_agent(ctx: Ctx, agent_id: AgentIdPath) -> Response:
    """The agent becomes an end user: roles, presence, teams and queues go."""
    with ctx.db.tx():
        get_agent(ctx, agent_id)
        ctx.db.run("UPDATE users SET kind = 'enduser', roles = NULL WHERE id = ?", (agent_id,))
        for table in ("team_members", "queue_members"):
            ctx.db.run(f"DELETE FROM {table} WHERE agent_id = ?", (agent_id,))
        ctx.db.run("DELETE FROM presence WHERE user_id = ?", (agent_id,))
    return no_content()


@router.get("/v1/agents/{agentId}/teams", response_model=Envelope[list[IdRef]],
            summary="Teams of an agent", responses=_NOT_FOUND)
async def agent_teams(ctx: Ctx, agent_id: AgentIdPath) -> Response:
    """The ids of the teams the agent belongs to."""
    get_agent(ctx, agent_id)
    rows = ctx.db.all(
        "SELECT t.id FROM team_members m JOIN teams t ON t.id = m.team_id "
        "WHERE m.agent_id = ? ORDER BY t.name COLLATE NOCASE, t.id",
        (agent_id,),
    )
    return ok([{"id": r["id"]} for r in rows])


@router.get("/v1/agents/{agentId}/presence", response_model=Envelope[UserPresence],
            summary="Presence of an agent", responses=_NOT_FOUND)
async def agent_presence(ctx: Ctx, agent_id: AgentIdPath) -> Response:
    """One agent's presence now."""
    return ok(shapes.presence(_presence_of(ctx, agent_id), ctx.now_iso()))


@router.put("/v1/agents/{agentId}/presence/working-channel", status_code=204,
            summary="Turn a working channel of an agent on or off", responses=_NOT_FOUND)
async def set_working_channel(ctx: Ctx, agent_id: AgentIdPath,
                              body: WorkingChannelInput) -> Response:
    """Add or remove the channel; the agent is Online, Working while any channel is active."""
    with ctx.db.tx():
        current = set(loads(_presence_of(ctx, agent_id)["channels"]) or [])
        if body.working:
            current.add(body.channel.value)
        else:
            current.discard(body.channel.value)
        channels = [c for c in _CHANNEL_ORDER if c in current]
        channels += sorted(current.difference(_CHANNEL_ORDER))
        records.set_presence(ctx.db, agent_id, connection="Online",
                             status="Working" if channels else "Away",
                             channels=channels, last_seen=ctx.now_iso())
    return no_content()
