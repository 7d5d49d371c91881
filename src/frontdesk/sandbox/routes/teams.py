"""Sandbox routes: teams, their members and the members' presence.

Adding members is all or nothing: every id must be an agent's (or admin's), else a 400 naming
the first one that is not, and nobody is added. Adding a member twice, or removing someone who
is not a member, is harmless. Both answer 204 (the contract's empty success).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from ...api.models import (
    CreateTeamInput,
    Envelope,
    PagedEnvelope,
    Team,
    TeamMember,
    TeamMembersInput,
    UserPresence,
)
from .. import shapes
from ..context import Ctx, SandboxContext, no_content, ok, page_limit
from ..errors import bad_request, not_found
from ..params import TeamIdPath
from .agents import PRESENCE_SELECT
from .endusers import PageKey, PageLimit, keyset_after, keyset_page

router = APIRouter(tags=["teams"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such team"}}


def get_team(ctx: SandboxContext, team_id: str) -> Any:
    """The team's row, or a 404."""
    row = ctx.db.one("SELECT * FROM teams WHERE id = ?", (team_id,))
    if row is None:
        raise not_found(f"Team {team_id}")
    return row


def _team(row: Any) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"]}


def _member(row: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row["id"]}
    for column, key in (("display_name", "name"), ("email", "email"),
                        ("phone_number", "phoneNumber")):
        if row[column] is not None:
            out[key] = row[column]
    return out


@router.get("/v1/teams", response_model=Envelope[list[Team]], summary="List teams")
async def list_teams(ctx: Ctx) -> Response:
    """Every team, by name."""
    rows = ctx.db.all("SELECT * FROM teams ORDER BY name COLLATE NOCASE, id")
    return ok([_team(r) for r in rows])


@router.post("/v1/teams", response_model=Envelope[Team], summary="Create a team")
async def create_team(ctx: Ctx, body: CreateTeamInput) -> Response:
    """Create an empty team (names need not be unique)."""
    name = body.name.strip()
    if not name:
        raise bad_request("Invalid value in request: name must not be blank")
    team_id = ctx.new_id()
    with ctx.db.tx():
        ctx.db.run("INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)",
                   (team_id, name, ctx.now_iso()))
    return ok({"id": team_id, "name": name})


@router.get("/v1/teams/{teamId}", response_model=Envelope[Team], summary="Get a team",
            responses=_NOT_FOUND)
async def read_team(ctx: Ctx, team_id: TeamIdPath) -> Response:
    """One team."""
    return ok(_team(get_team(ctx, team_id)))


@router.delete("/v1/teams/{teamId}", status_code=204, summary="Delete a team",
               responses=_NOT_FOUND)
async def delete_team(ctx: Ctx, team_id: TeamIdPath) -> Response:
    """Delete a team; its agents stay agents."""
    with ctx.db.tx():
        get_team(ctx, team_id)
        ctx.db.run("DELETE FROM teams WHERE id = ?", (team_id,))
    return no_content()


@router.get("/v1/teams/{teamId}/agents", response_model=Envelope[list[TeamMember]],
            summary="Members of a team", responses=_NOT_FOUND)
async def team_agents(ctx: Ctx, team_id: TeamIdPath) -> Response:
    """The team's members, in the order they joined."""
    get_team(ctx, team_id)
    rows = ctx.db.all(
        "SELECT u.* FROM team_members m JOIN users u ON u.id = m.agent_id "
        "WHERE m.team_id = ? ORDER BY m.added_at, u.id",
        (team_id,),
    )
    return ok([_member(r) for r in rows])


@router.patch("/v1/teams/{teamId}/agents", status_code=204, summary="Add members to a team",
              responses={**_NOT_FOUND, 400: {"description": "An id is not an agent's"}})
async def add_team_agents(ctx: Ctx, team_id: TeamIdPath, body: TeamMembersInput) -> Response:
    """Add agents to the team; all of them or none."""
    now = ctx.now_iso()
    with ctx.db.tx():
        get_team(ctx, team_id)
        for agent_id in body.agent_ids:
            row = ctx.db.one("SELECT kind FROM users WHERE id = ?", (agent_id,))
            if row is None:
                raise bad_request(f"Invalid value in request: agent {agent_id} does not exist")
            if row["kind"] != "agent":
                raise bad_request(f"Invalid value in request: user {agent_id} is not an agent "
                                  "or admin")
        for agent_id in body.agent_ids:
            ctx.db.run("INSERT OR IGNORE INTO team_members (team_id, agent_id, added_at) "
                       "VALUES (?, ?, ?)", (team_id, agent_id, now))
    return no_content()


@router.delete("/v1/teams/{teamId}/agents", status_code=204,
               summary="Remove members from a team", responses=_NOT_FOUND)
async def remove_team_agents(ctx: Ctx, team_id: TeamIdPath, body: TeamMembersInput) -> Response:
    """Remove agents from the team (ids that are not members are ignored)."""
    with ctx.db.tx():
        get_team(ctx, team_id)
        ctx.db.run(
            f"DELETE FROM team_members WHERE team_id = ? AND agent_id IN "
            f"({', '.join('?' for _ in body.agent_ids)})",
            (team_id, *body.agent_ids),
        )
    return no_content()


@router.get("/v1/teams/{teamId}/presence", response_model=PagedEnvelope[UserPresence],
            summary="Presence of a team's members", responses=_NOT_FOUND)
async def team_presence(
    ctx: Ctx,
    request: Request,
    team_id: TeamIdPath,
    limit: PageLimit = None,
    key: PageKey = None,
) -> Response:
    """Presence of each member, a page at a time (by the member's id)."""
    get_team(ctx, team_id)
    size = page_limit(limit)
    after = keyset_after(key)
    sql = PRESENCE_SELECT + " JOIN team_members m ON m.agent_id = u.id WHERE m.team_id = ?"
    params: list[Any] = [team_id]
    if after is not None:
        sql += " AND u.id > ?"
        params.append(after[1])
    rows = ctx.db.all(sql + " ORDER BY u.id LIMIT ?", (*params, size + 1))
    page, meta = keyset_page(request, rows, size, "user_id", "user_id")
    now = ctx.now_iso()
    return ok([shapes.presence(r, now) for r in page], meta=meta)
