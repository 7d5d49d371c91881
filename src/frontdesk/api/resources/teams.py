"""Teams: groups of agents, their members and their presence."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Sequence

import httpx2

from ..models.agents import UserPresence
from ..models.teams import CreateTeamInput, Team, TeamMember, TeamMembersInput
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Page,
    Resource,
    build,
    check_uuid,
    check_uuids,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["TeamsResource"]

_LIST = operation("teams.list")
_CREATE = operation("teams.create")
_GET = operation("teams.get")
_DELETE = operation("teams.delete")
_MEMBERS = operation("teams.members")
_ADD = operation("teams.add_members")
_REMOVE = operation("teams.remove_members")
_PRESENCE = operation("teams.presence")


class TeamsResource(Resource):
    """``client.teams``: teams, their members and their members' presence."""

    async def list(self, *, priority: Priority = Priority.INTERACTIVE) -> builtins.list[Team]:
        """Every team."""
        reply = await self._transport.send(_LIST, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), Team)

    async def create(self, name: str, *, priority: Priority = Priority.INTERACTIVE) -> Team:
        """Create a team. Not retried once it may have reached the service."""
        body = build(_CREATE, CreateTeamInput, name=name)
        reply = await self._transport.send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), Team)

    async def get(self, team_id: str, *, priority: Priority = Priority.INTERACTIVE) -> Team:
        """One team."""
        path = {"teamId": check_uuid(team_id, _GET, "team id")}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Team)

    async def delete(self, team_id: str, *, priority: Priority = Priority.INTERACTIVE) -> None:
        """Delete a team (its agents stay)."""
        path = {"teamId": check_uuid(team_id, _DELETE, "team id")}
        await self._transport.send(_DELETE, path=path, priority=priority)

    async def members(self, team_id: str, *, priority: Priority = Priority.INTERACTIVE
                      ) -> builtins.list[TeamMember]:
        """The team's members."""
        path = {"teamId": check_uuid(team_id, _MEMBERS, "team id")}
        reply = await self._transport.send(_MEMBERS, path=path, priority=priority)
        return parse_items(_MEMBERS, unwrap(_MEMBERS, reply.body), TeamMember)

    async def add_members(self, team_id: str, agent_ids: Sequence[str], *,
                          priority: Priority = Priority.INTERACTIVE) -> None:
        """Add agents to the team (adding a member twice is harmless)."""
        path = {"teamId": check_uuid(team_id, _ADD, "team id")}
        body = build(_ADD, TeamMembersInput, agent_ids=check_uuids(agent_ids, _ADD, "agent ids"))
        await self._transport.send(_ADD, path=path, body=body.wire(), priority=priority)

    async def remove_members(self, team_id: str, agent_ids: Sequence[str], *,
                             priority: Priority = Priority.INTERACTIVE) -> None:
        """Remove agents from the team."""
        path = {"teamId": check_uuid(team_id, _REMOVE, "team id")}
        body = build(_REMOVE, TeamMembersInput,
                     agent_ids=check_uuids(agent_ids, _REMOVE, "agent ids"))
        await self._transport.send(_REMOVE, path=path, body=body.wire(), priority=priority)

    async def presence(
        self,
        team_id: str,
        *,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[UserPresence]:
        """The presence of every member of the team, page by page."""
        path = {"teamId": check_uuid(team_id, _PRESENCE, "team id")}

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[UserPresence]:
            return await self._fetch_page(_PRESENCE, UserPresence, path=path,
                                          page_size=page_size, page_key=key,
                                          priority=priority, url=url)

        async for presence in self._iterate(fetch, _PRESENCE):
            yield presence

    async def presence_page(
        self,
        team_id: str,
        *,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[UserPresence]:
        """One page of the team's presence."""
        path = {"teamId": check_uuid(team_id, _PRESENCE, "team id")}
        return await self._fetch_page(_PRESENCE, UserPresence, path=path, page_size=page_size,
                                      page_key=page_key, priority=priority)
